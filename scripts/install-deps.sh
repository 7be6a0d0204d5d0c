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

if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
else
    sudo=
fi
export DEBIAN_FRONTEND=noninteractive

if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    $sudo apt-get update -qq </dev/null
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

# The tests' PyPI packages (scripts/python-packages.txt) go into .build/python, which the tests put
# on PYTHONPATH; the system's Python is left alone. A stamp holding the list skips pip when the
# list has not changed.
python_list="$here/python-packages.txt"
python_dir="$here/../.build/python"
if ! cmp -s "$python_list" "$python_dir/.installed" 2>/dev/null; then
    echo "install-deps: installing $(sed -e 's/#.*//' "$python_list" | xargs) into .build/python"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        echo "install-deps: installing python3-pip"
        $sudo apt-get install -y -qq --no-install-recommends python3-pip </dev/null
    fi
    rm -rf "$python_dir"
    mkdir -p "$python_dir"
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check --no-input --root-user-action=ignore \
        --target "$python_dir" -r "$python_list" </dev/null
    cp "$python_list" "$python_dir/.installed"
fi
