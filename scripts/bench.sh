#!/usr/bin/env bash
# `make bench`: Tonearm against real peers (ffmpeg, mpv, mpd) on the same generated input, in one
# run, printed as ratios. The measuring lives in scripts/bench/bench.py (Python standard library).
#   B1 render      3 x 10 min MP3, two 10 s equal-power crossfades -> WAV, vs ffmpeg acrossfade (wall time)
#   B2 playback    BENCH_SECONDS (default 60) of one MP3 to a null output, vs mpv and mpd (CPU s, peak RSS)
#   B3 first audio launch -> first sample above -40 dBFS on a private PulseAudio null sink, vs mpv
# Knobs: BENCH_SECONDS (B2 length, default 60), BENCH_RUNS (B1 runs, default 3),
# BENCH_TTFA_RUNS (B3 runs, default 7), BENCH_KEEP=1 keeps the temp dir with inputs and logs.
# Exit 0 when every benchmark ran, whether or not targets were met; non-zero when one could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages only the benchmarks need (the engine's own come from scripts/install-deps.sh).
bench_packages=(ffmpeg mpv mpd mpc pulseaudio pulseaudio-utils python3)
missing=()
for pkg in "${bench_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "bench: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq </dev/null
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

SWIFT="${SWIFT:-swift}"
echo "bench: building Tonearm (release, Swift runtime linked statically as shipped)"
"$SWIFT" build -c release --static-swift-stdlib
bin="$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path)/tonearm"
[ -x "$bin" ] || { echo "bench: no release binary at $bin" >&2; exit 1; }

exec python3 scripts/bench/bench.py --tonearm "$bin"
