# CUDA plugin: see plugins/cuda/.
