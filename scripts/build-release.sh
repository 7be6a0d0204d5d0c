#!/usr/bin/env bash
# Builds the program as shipped and prints its path: release, the Swift runtime linked statically,
# and every Swift function in a section of its own, so the link can place the functions a run
# touches together (scripts/symbol-order.txt; the link flags are the tonearm target's in
# Package.swift). Used by `make bench` and scripts/symbol-order.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections)
# Only the program: the test-support library links swift-testing, which a static release build lacks.
"$SWIFT" build "${flags[@]}" --product tonearm >&2
bin="$("$SWIFT" build "${flags[@]}" --show-bin-path)/tonearm"
[ -x "$bin" ] || { echo "build-release: no release binary at $bin" >&2; exit 1; }
echo "$bin"
