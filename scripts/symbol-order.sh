#!/usr/bin/env bash
# Regenerates scripts/symbol-order.txt: every function of the release program that runs when it
# plays a file, renders a crossfaded session and plays an HTTP stream, as valgrind's callgrind sees
# them. The release link (Package.swift) places these first and together, so the code a run
# touches fills a few megabytes of pages instead of being spread over the program's 35 MB of code
# (the kernel maps the 64 KiB around every page a run touches: before this order a playback had
# 26 MB of the program resident; docs/PERFORMANCE.md).
#
# Run it after a change that moves a lot of code (a new dependency, a new playback path); a stale
# list costs memory, never correctness: a name that no longer exists is skipped, and a function
# not named is linked after the listed ones. Usage: bash scripts/symbol-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in valgrind ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "symbol-order: needs $tool (apt-get install valgrind ffmpeg)" >&2; exit 1; }
done

# TONEARM_BIN: profile a program already built instead of building one.
bin="${TONEARM_BIN:-$(bash scripts/build-release.sh)}"
work="$(mktemp -d /tmp/tonearm-symbol-order.XXXXXX)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# valgrind cannot read the toolchain's DWARF 5; the symbol table is all this needs.
objcopy --strip-debug "$bin" "$work/tonearm"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS PULSE_SERVER

for name in a b c; do
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:duration=12:sample_rate=44100" -ac 2 -b:a 128k "$work/$name.mp3"
done
cat >"$work/session.json" <<EOF
{"name": "order", "crossfade": 1, "curve": "equal-power",
 "stages": [{"title": "A", "source": "$work/a.mp3"}, {"title": "B", "source": "$work/b.mp3"}, {"title": "C", "source": "$work/c.mp3"}]}
EOF
cat >"$work/feed.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Order</title>
<item><title>One</title><guid>one</guid><pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate><itunes:duration>00:04</itunes:duration>
<enclosure url="http://127.0.0.1/a.mp3" length="64000" type="audio/mpeg"/></item>
</channel></rss>
EOF
# A plain HTTP server for the stream and the feed: the network path (HTTP client, ring,
# reconnect) and the feed import run too.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
sleep 1

run() {
    local out="$1"; shift
    # SIGTERM ends a playback as a listener's Ctrl-C would; callgrind writes its profile at the exit.
    timeout -s TERM 60 valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no --dump-line=no \
        --callgrind-out-file="$work/$out.cg" "$work/tonearm" "$@" </dev/null >"$work/$out.log" 2>&1 || true
    [ -s "$work/$out.cg" ] || { echo "symbol-order: no profile for $*:" >&2; tail -5 "$work/$out.log" >&2; exit 1; }
}
run file play "$work/a.mp3" --output null
run render render "$work/session.json" --output "wav:$work/out.wav"
run stream play "http://127.0.0.1:$port/b.mp3" --output null --events jsonl
run feed podcast add "http://127.0.0.1:$port/feed.xml"

python3 - "$work" scripts/symbol-order.txt <<'EOF'
import glob, re, subprocess, sys
work, out = sys.argv[1], sys.argv[2]
program = f"{work}/tonearm"
defined = {line.split()[2] for line in subprocess.run(["nm", "--defined-only", program], capture_output=True, text=True).stdout.splitlines()
           if len(line.split()) == 3 and line.split()[1] in "tTwW"}
ran = set()
for profile in glob.glob(f"{work}/*.cg"):
    in_program = False
    for line in open(profile, errors="replace"):
        if line.startswith("ob="):
            in_program = line.strip()[3:] == program
        elif line.startswith("fn=") and in_program:
            ran.add(line.strip()[3:])
names = sorted(ran & defined)
with open(out, "w") as f:
    f.write("".join(name + "\n" for name in names))
print(f"symbol-order: {len(names)} functions in {out}")
EOF
# The build does not see the list as an input: remove the program so the next build links again.
[ -n "${TONEARM_BIN:-}" ] || rm -f "$bin"
