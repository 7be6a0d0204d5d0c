#!/bin/bash
# Compares the time-stretchers Tonearm could use for speed with the pitch kept, on the same
# speech: libsonic (what Media3 uses for speech), librubberband (through FFmpeg's rubberband
# filter) and FFmpeg's atempo. For each: CPU seconds for the stretch alone (the shared decode and
# encode, measured with anull, subtracted), the output's length against the ideal, and the
# dominant frequency of a 1 kHz tone after stretching (pitch kept means 1 kHz stays 1 kHz).
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
gcc -O2 -o "$work/sonic-stretch" "$here/sonic-stretch.c" -lsonic
# About four minutes of speech: espeak-ng reading a text many times over, at 48 kHz stereo.
text=$(printf 'The quick brown fox jumps over the lazy dog while the radio plays a slow song about rivers and mountains. %.0s' $(seq 40))
espeak-ng -w "$work/phrase.wav" "$text"
ffmpeg -nostdin -loglevel error -i "$work/phrase.wav" -ar 48000 -ac 2 -f f32le "$work/speech.f32"
ffmpeg -nostdin -loglevel error -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=20" -ac 2 -f f32le "$work/tone.f32"
seconds=$(python3 -c "import os; print(os.path.getsize('$work/speech.f32') / 8 / 48000)")
echo "speech: ${seconds} s"
# CPU seconds (user + system) of a shell command line.
cpu() { /usr/bin/time -f "%U %S" bash -c "$1" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
ff() { echo "ffmpeg -nostdin -loglevel error -f f32le -ar 48000 -ac 2 -i '$1' -af '$2' -f f32le -"; }
base=$(cpu "$(ff "$work/speech.f32" anull)")
printf "%-12s %5s %9s %12s %10s\n" candidate speed cpu_s length_ratio tone_hz
for speed in 1.5 2.0; do
  for candidate in sonic rubberband atempo; do
    case $candidate in
      sonic)
        used=$(cpu "'$work/sonic-stretch' $speed < '$work/speech.f32'")
        "$work/sonic-stretch" "$speed" < "$work/speech.f32" > "$work/out.f32"
        "$work/sonic-stretch" "$speed" < "$work/tone.f32" > "$work/tone-out.f32" ;;
      rubberband | atempo)
        filter=$([ "$candidate" = atempo ] && echo "atempo=$speed" || echo "rubberband=tempo=$speed")
        used=$(python3 -c "print(max(0, $(cpu "$(ff "$work/speech.f32" "$filter")") - $base))")
        bash -c "$(ff "$work/speech.f32" "$filter")" > "$work/out.f32"
        bash -c "$(ff "$work/tone.f32" "$filter")" > "$work/tone-out.f32" ;;
    esac
    python3 - "$candidate" "$speed" "$used" "$work/speech.f32" "$work/out.f32" "$work/tone-out.f32" <<'PY'
import os, sys, numpy as np
name, speed, used, src, out, tone = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), *sys.argv[4:]
ratio = os.path.getsize(out) / (os.path.getsize(src) / speed)
x = np.fromfile(tone, dtype=np.float32)[0::2]
x = x[len(x) // 4: len(x) // 4 + 48000 * 4]
spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
peak = np.argmax(spectrum) * 48000 / len(x)
print(f"{name:<12} {speed:5.2f} {used:9.3f} {ratio:12.4f} {peak:10.1f}")
PY
  done
done
