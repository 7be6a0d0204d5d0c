#!/usr/bin/env bash
# Benchmarks compare Tonearm with real peers (ffmpeg, mpv, mpd) on the same input in one run and
# print ratios. The first ones (render, real-time playback cost, time to first audio) need the
# audio engine; until it exists there is nothing to measure against a peer, and this says so.
set -euo pipefail
echo "bench: no benchmarks yet - the audio engine (render, playback cost, time to first audio vs ffmpeg/mpv/mpd) brings them"
