#!/usr/bin/env bash
# Installs the Debian packages Tonearm needs, and nothing when they are already there.
# Idempotent; safe to run as root with no standard input (CI). The list lives in
# scripts/apt-packages.txt, one package per line, '#' starts a comment.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
list="$here/apt-packages.txt"

if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: the Swift toolchain is not on PATH; install Swift 6.1 or later first" >&2
    exit 1
fi

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$' || true)
missing=()
for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
else
    sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq </dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
