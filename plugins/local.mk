# plugins: filled in by the plugin issue
