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

# The gpodder.net tests' PyPI packages (scripts/python312-packages.txt) go into a venv of their own,
# .build/python312: gpodder-fastapi-router needs Python 3.12, and Debian 12's python3 is 3.11. The
# first working Python 3.12 is taken: python3.12 on PATH, else one of pyenv's (a pyenv shim on PATH
# fails when 3.12 is not pyenv's selected version, so each candidate is run before it is taken).
# The same stamp as above, kept inside the venv, skips pip when the list has not changed; a changed
# list, or a venv whose interpreter is gone, rebuilds the venv from nothing.
python312_list="$here/python312-packages.txt"
python312_dir="$here/../.build/python312"
if ! cmp -s "$python312_list" "$python312_dir/.installed" 2>/dev/null \
    || ! "$python312_dir/bin/python" -c '' >/dev/null 2>&1; then
    candidates=()
    if command -v python3.12 >/dev/null 2>&1; then
        candidates+=("$(command -v python3.12)")
    fi
    pyenv_roots=()
    if command -v pyenv >/dev/null 2>&1; then
        pyenv_roots+=("$(pyenv root)")
    fi
    pyenv_roots+=(/root/.pyenv "${HOME:-/root}/.pyenv")
    for root in "${pyenv_roots[@]}"; do
        while IFS= read -r found; do
            candidates+=("$found")
        done < <(ls -d "$root"/versions/3.12*/bin/python3.12 2>/dev/null | sort -V -r)
    done
    python312=
    for candidate in "${candidates[@]}"; do
        if "$candidate" -c 'import sys, venv; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1 </dev/null; then
            python312="$candidate"
            break
        fi
    done
    if [ -z "$python312" ]; then
        echo "install-deps: no Python 3.12 found (looked for python3.12 on PATH and \$(pyenv root)/versions/3.12*," \
            "/root/.pyenv/versions/3.12*, \$HOME/.pyenv/versions/3.12*); the gpodder.net tests need one:" \
            "install it (e.g. \`pyenv install 3.12\`) and run \`make deps\` again" >&2
        exit 1
    fi
    echo "install-deps: installing the $(sed -e 's/#.*//' "$python312_list" | xargs -n1 | wc -l) packages of scripts/python312-packages.txt into .build/python312 (with $python312)"
    rm -rf "$python312_dir"
    "$python312" -m venv "$python312_dir" </dev/null
    "$python312_dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --root-user-action=ignore \
        -r "$python312_list" </dev/null
    cp "$python312_list" "$python312_dir/.installed"
fi
