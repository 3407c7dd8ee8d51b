#!/bin/sh
# The seeds and regressions through the libFuzzer programs
# (fuzz/replay.sh --libfuzzer).
exec "$top_srcdir/fuzz/replay.sh" --libfuzzer
