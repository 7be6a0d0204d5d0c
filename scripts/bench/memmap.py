#!/usr/bin/env python3
"""Where a running player's resident memory goes: `memmap.py [--at S] [--top N] [--serve icecast|hls] -- COMMAND...`.

Starts COMMAND, reads /proc/PID/smaps at S seconds (default 10; several with --at 2,10,30),
SIGTERMs it and prints, per reading: the totals of smaps_rollup (Rss, Pss, anonymous, file
backed), the thread count, and Rss by kind of mapping:
  program      the executable itself (code and data of Tonearm and its static Swift runtime)
  ffmpeg       libav*, libsw* and the codec libraries they pull in (everything FFmpeg maps)
  c runtime    libc, libm, libstdc++, libgcc, ld.so
  other libs   every other shared library (PulseAudio, D-Bus, SQLite, ncurses, TLS...)
  heap         [heap] and anonymous mappings of 64 KiB or more (malloc arenas, Swift objects, rings)
  stacks       [stack] and anonymous mappings right above a guard page (thread stacks)
  other        everything else ([vdso], small anonymous mappings, locale files...)
and the N largest mappings. A library counted in `ffmpeg` is one that a C program linking only
libavformat and libavcodec also maps (read from `ldd` of the Debian ffmpeg binary), so that row
is the floor every FFmpeg player shares. With --serve, a private loopback Icecast mount (as root,
as `make bench` runs it) or a live HLS playlist is started first and `{url}` in COMMAND names it:
  memmap.py --serve icecast -- tonearm play {url} --output null
Standard library only; Linux only.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

KIB = 1024


def ffmpeg_libraries():
    """Basenames of the libraries Debian's ffmpeg maps: the FFmpeg floor."""
    try:
        out = subprocess.run(["ldd", "/usr/bin/ffmpeg"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return set()
    names = set()
    for line in out.splitlines():
        m = re.search(r"=>\s+(\S+)", line)
        if m:
            names.add(os.path.basename(os.path.realpath(m.group(1))))
    return names - {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"}


C_RUNTIME = ("libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux")


def read_smaps(pid):
    """[(start, end, perms, path, {field: kB})] for every mapping of `pid`."""
    maps = []
    header = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
    with open(f"/proc/{pid}/smaps") as f:
        current = None
        for line in f:
            m = header.match(line)
            if m:
                current = (int(m.group(1), 16), int(m.group(2), 16), m.group(3), m.group(4), {})
                maps.append(current)
            elif current is not None:
                key, _, rest = line.partition(":")
                parts = rest.split()
                if parts and parts[0].isdigit():
                    current[4][key] = int(parts[0])
    return maps


def classify(maps, program, floor):
    kinds = {}
    labelled = []
    for i, (start, end, perms, path, fields) in enumerate(maps):
        rss = fields.get("Rss", 0)
        base = os.path.basename(path)
        if path and os.path.realpath(path) == program:
            kind = "program"
        elif base in floor or re.match(r"lib(av|sw|postproc)", base):
            kind = "ffmpeg"
        elif base.startswith(C_RUNTIME):
            kind = "c runtime"
        elif path.startswith("/") and ".so" in base:
            kind = "other libs"
        elif path == "[stack]":
            kind = "stacks"
        elif path in ("", "[heap]"):
            # glibc puts a thread's stack right above its guard page (a small inaccessible
            # mapping); a malloc arena's inaccessible rest lies above it, and is large.
            below = maps[i - 1] if i > 0 else None
            guarded = (below is not None and below[1] == start and below[2].startswith("---")
                       and below[1] - below[0] <= 64 * KIB and path == "")
            if guarded:
                kind = "stacks"
            elif path == "[heap]" or end - start >= 64 * KIB:
                kind = "heap"
            else:
                kind = "other"
        else:
            kind = "other"
        kinds[kind] = kinds.get(kind, 0) + rss
        labelled.append((rss, kind, path or "[anon]", end - start))
    return kinds, labelled


def rollup(pid):
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            parts = rest.split()
            if parts and parts[0].isdigit():
                fields[key] = int(parts[0])
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("Threads:", "VmHWM:")):
                key, _, rest = line.partition(":")
                fields[key] = int(rest.split()[0])
    return fields


def report(pid, at, program, floor, top):
    roll = rollup(pid)
    kinds, labelled = classify(read_smaps(pid), program, floor)
    mb = lambda kb: f"{kb / 1024:6.1f} MB"
    print(f"at {at:g} s: Rss {mb(roll.get('Rss', 0))}  Pss {mb(roll.get('Pss', 0))}  "
          f"anonymous {mb(roll.get('Anonymous', 0))}  peak (VmHWM) {mb(roll.get('VmHWM', 0))}  "
          f"threads {roll.get('Threads', 0)}")
    for kind in ("program", "ffmpeg", "c runtime", "other libs", "heap", "stacks", "other"):
        print(f"  {kind:11s} {mb(kinds.get(kind, 0))}")
    print(f"  largest {top} mappings:")
    for rss, kind, path, size in sorted(labelled, reverse=True)[:top]:
        print(f"    {mb(rss)}  of {mb(size // KIB)}  {kind:10s} {path}")
    # Libraries outside the FFmpeg floor, summed per file: what Tonearm itself brings in.
    per_lib = {}
    for rss, kind, path, _ in labelled:
        if kind == "other libs":
            per_lib[os.path.basename(path)] = per_lib.get(os.path.basename(path), 0) + rss
    print("  other libraries: " + ", ".join(f"{n} {v / 1024:.1f}" for n, v in sorted(per_lib.items(), key=lambda x: -x[1])[:12]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--at", default="10", help="seconds after launch to read, comma separated")
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--serve", choices=["icecast", "hls"], help="a stream for the command, as {url}")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    program = os.path.realpath(subprocess.run(["sh", "-c", f'command -v "{command[0]}"'],
                                              capture_output=True, text=True).stdout.strip() or command[0])
    floor = ffmpeg_libraries()
    times = sorted(float(t) for t in args.at.split(","))
    stop_serving = lambda: None
    if args.serve:
        # The benchmarks' own servers: the same mount and playlist the B6 and B12 rows measure.
        import tempfile
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import radio, hls
        work = tempfile.mkdtemp(prefix="tonearm-memmap-")
        if args.serve == "icecast":
            server = radio.Icecast(work)
            server.start(radio.TONE_OLD_HZ)
            url, stop_serving = f"http://127.0.0.1:{server.port}{radio.MOUNT}", server.kill
        else:
            server = hls.LiveHLS(work)
            url, stop_serving = server.url, server.stop
        command = [c.replace("{url}", url) for c in command]
    p = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    try:
        for at in times:
            time.sleep(max(0.0, start + at - time.monotonic()))
            if p.poll() is not None:
                sys.exit(f"memmap: {command[0]} exited ({p.returncode}) before {at:g} s")
            report(p.pid, at, program, floor, args.top)
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        stop_serving()


if __name__ == "__main__":
    main()
