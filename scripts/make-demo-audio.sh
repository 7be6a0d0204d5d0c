#!/usr/bin/env bash
# Regenerates the embedded demo session's audio (Sources/tonearm/Demo): three short meditation
# stages synthesised with FFmpeg's lavfi sources, in three formats (Ogg Vorbis, Opus, MP3) so the
# demo crossfades across decoders. The output is committed; run this only to change the sound.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/Sources/tonearm/Demo"
mkdir -p "$out"
ff=(ffmpeg -hide_banner -loglevel error -y)

# Stage 1, "Arrival": a low drone (110 + 165 Hz) breathing slowly, over soft pink noise.
"${ff[@]}" -f lavfi -i "aevalsrc='0.22*sin(2*PI*110*t)*(0.75+0.25*sin(2*PI*0.1*t))+0.12*sin(2*PI*165*t)|0.22*sin(2*PI*110.5*t)*(0.75+0.25*sin(2*PI*0.1*t))+0.12*sin(2*PI*165.3*t)':s=48000:d=25" \
    -f lavfi -i "anoisesrc=color=pink:amplitude=0.06:d=25:r=48000:seed=7" \
    -filter_complex "[1]lowpass=f=900,aformat=channel_layouts=stereo[n];[0][n]amix=inputs=2:normalize=0,afade=t=in:d=2" \
    -c:a libvorbis -q:a 2 "$out/arrival.ogg"

# Stage 2, "Breath": pink noise swelling and ebbing every 5 s, with a quiet 220 Hz tone.
"${ff[@]}" -f lavfi -i "anoisesrc=color=pink:amplitude=0.25:d=25:r=48000:seed=11" \
    -f lavfi -i "aevalsrc='0.08*sin(2*PI*220*t)|0.08*sin(2*PI*220.4*t)':s=48000:d=25" \
    -filter_complex "[0]lowpass=f=1400,volume='0.2+0.8*pow(sin(PI*t/5),2)':eval=frame,aformat=channel_layouts=stereo[n];[n][1]amix=inputs=2:normalize=0" \
    -c:a libopus -b:a 48k "$out/breath.opus"

# Stage 3, "Return": a soft bell (528 Hz with a fifth) struck every 4 s over a 264 Hz hum.
"${ff[@]}" -f lavfi -i "aevalsrc='0.3*exp(-1.2*mod(t,4))*(sin(2*PI*528*t)+0.4*sin(2*PI*792*t))+0.06*sin(2*PI*264*t)|0.3*exp(-1.2*mod(t,4))*(sin(2*PI*528.6*t)+0.4*sin(2*PI*792.9*t))+0.06*sin(2*PI*264.2*t)':s=44100:d=24" \
    -c:a libmp3lame -b:a 96k "$out/return.mp3"

ls -l "$out"
