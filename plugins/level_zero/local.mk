# Level Zero plugin: see plugins/level_zero/.
