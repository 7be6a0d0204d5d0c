#!/usr/bin/env bash
# `make bench`: Tonearm against real peers (ffmpeg, mpv, mpd) on the same generated input, in one
# run, printed as ratios. The measuring lives in scripts/bench/bench.py (Python standard library).
#   B1 render      3 x 10 min MP3, two 10 s equal-power crossfades -> WAV, vs ffmpeg acrossfade (wall time)
#   B2 playback    BENCH_SECONDS (default 60) of one MP3 to a null output, vs mpv and mpd (CPU s, peak RSS)
#   B3 first audio launch -> first sample above -40 dBFS on a private PulseAudio null sink, vs mpv
# Internet radio (scripts/bench/radio.py), from a private loopback icecast2 (run as root with
# <changeowner>, default burst 64 KiB) fed by ffmpeg `-re -stream_loop -1` with a 128 kbps 48 kHz tone:
#   B4 radio first audio  launch -> first sample above -40 dBFS on the private null sink, vs mpv
#   B5 radio reconnect    icecast2 SIGKILLed while playing, restarted 2 s later: mount listed again ->
#                         first sample of the new source on the sink; tonearm (JSONL states checked),
#                         mpv, mpv with lavf reconnect options, mpd: resumed / exited / stayed silent;
#                         4 s buffered (tonearm --buffer 4, mpv --cache-secs=4): audible gap on the sink
#   B6 radio cost         BENCH_SECONDS of the mount to a null output, vs mpv and mpd (CPU s, peak RSS)
# Library (scripts/bench/library.py):
#   B7 feed import        `tonearm podcast add` of a generated 5,000-episode feed from loopback: wall, peak RSS
#   B8 errors summary     `tonearm errors --json` over 100,000 stored error events: wall
#   B13 episode download  `tonearm podcast download` of a 100 MB episode from loopback vs curl -o (throughput, peak RSS)
# Terminal UI (scripts/bench/terminal.py):
#   B9 terminal UI cost   BENCH_SECONDS playing with Now Playing open in tmux vs headless: CPU, share of a core
#   B10 speech at 1.5x    BENCH_SECONDS of synthesised speech at 1.5x to a null output, vs mpv --speed=1.5 and Tonearm at 1x (CPU)
#   B11 loudness scan     EBU R128 loudness of a 60-min speech episode (stereo 128k, mono 64k MP3), vs ffmpeg's ebur128 (wall)
#   B12 HLS radio         a live HLS playlist (ffmpeg's hls muxer, 2 s AAC/TS segments) on loopback: first audio and
#                         BENCH_SECONDS of it to a null output, vs mpv (ms; CPU s, peak RSS)
# Memory soaks (scripts/bench/soak.py):
#   B14 render soak       SOAK_ITEMS (200) 4 s MP3s in a row to a WAV file, gapless and with 1 s crossfades:
#                         resident memory at items 10/40/160/200 and growth per item, vs mpv --ao=pcm
#   B15 reconnect soak    the loopback Icecast mount to a null output, icecast2 SIGKILLed and restarted
#                         SOAK_RECONNECTS (30) times: resident memory after the 3rd and the last reconnect
# Daemon (scripts/bench/daemon.py):
#   B16 daemon idle       `tonearm serve --output null` idle BENCH_SECONDS once its MPD socket answers, vs
#                         mpd with a null output and an empty music directory (CPU s, RSS at the end, peak RSS)
#   B17 Snapcast source   BENCH_SECONDS of a 10 min MP3 into a private snapserver's TCP source, vs mpd's fifo
#                         output read by a snapserver pipe source (CPU s of the player and of its snapserver)
# Session layers (scripts/bench/layers.py):
#   B18 timer session     BENCH_TIMER_MINUTES (60) of a silent stage with a brown-noise bed and 14 bowl strikes,
#                         real time to a null output beside one MP3 as long: largest bell error on the audio
#                         clock (<= 20 ms) and CPU vs the single file (<= 1.00)
# Music library (scripts/bench/music.py):
#   B20 music index       BENCH_MUSIC_FILES (10,000) generated tagged MP3s: `tonearm music update` first and unchanged,
#                         vs mpd's `update` of the same folder (wall, CPU)
#   B21 music search      the same MPD commands (search any, find artist, list album group albumartist) on
#                         `tonearm serve` and mpd with that library (median latency), and each daemon's RSS
# Knobs: BENCH_SECONDS (B2 and B6 length, default 60), BENCH_RUNS (B1 runs, default 3),
# BENCH_TTFA_RUNS (B3 and B4 runs, default 7), BENCH_RADIO=0 skips B4-B6 (icecast2 and root needed),
# BENCH_KEEP=1 keeps the temp dir with inputs and logs. Extra arguments go to bench.py
# (e.g. `--only B4,B5,B6`; `--no-report`; `--report PATH`).
# After the run, bench.py writes docs/BENCHMARKS.md (scripts/bench/report.py): the machine, the tools
# and every row of the benchmarks that ran; rows of benchmarks that did not run are kept from the
# file, and so is its hand-written "Notes" section.
# Exit 0 when every benchmark ran, whether or not targets were met; non-zero when one could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages only the benchmarks need (the engine's own come from scripts/install-deps.sh).
# GNU time measures the peak memory of short commands (scripts/bench/library.py says why).
bench_packages=(ffmpeg mpv mpd mpc pulseaudio pulseaudio-utils python3 icecast2 tmux espeak-ng curl snapserver time)
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

echo "bench: building Tonearm as shipped (scripts/build-release.sh)"
bin="$(bash scripts/build-release.sh)"

exec python3 scripts/bench/bench.py --tonearm "$bin" "$@"
