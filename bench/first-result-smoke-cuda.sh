#!/bin/sh
# The time-to-first-result benchmark's CUDA programs on the recording
# driver (bench/first-result-smoke.sh --cuda).
exec "$top_srcdir/bench/first-result-smoke.sh" --cuda
