#!/usr/bin/env bash
# Builds Tonearm's libFuzzer targets (the Fuzz* products, with -sanitize=fuzzer,address, in their
# own scratch path Fuzz/.build) and runs each for a bounded time. See docs/FUZZING.md.
#
#   bash scripts/fuzz.sh [target...]      targets: icy playlist rss opml session image decoder mpd transcript
#                                         mpdfilter hls timedmetadata chapters directory sync subtitles tags lyrics cue
#
# Environment:
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_RSS_MB    memory limit per target in MB (default 2048)
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang (default 25)
#   FUZZ_FLAGS     more libFuzzer flags, such as "-jobs=2" or "-detect_leaks=1"
#   FUZZ_MERGE=1   afterwards, merge what the run found into the committed corpus
#                  (-set_cover_merge: the fewest inputs that add coverage); keep
#                  Tests/Fuzz/Corpus to a few hundred KB before committing it
#   FUZZ_BUILD=0   skip the build (run what Fuzz/.build holds)
#
# Inputs libFuzzer finds go to Fuzz/.build/corpus/<target> (not in git); the committed inputs in
# Tests/Fuzz/Corpus/<target> are read, never written, unless FUZZ_MERGE=1. A crash, a broken
# contract, a hang or an out-of-memory input is written to Tests/Fuzz/Crashes/<target>/ and
# makes the script exit 1 after the other targets ran.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
rss="${FUZZ_RSS_MB:-2048}"
timeout="${FUZZ_TIMEOUT:-25}"
scratch="$root/Fuzz/.build"
all=(icy playlist rss opml session image decoder mpd mpdfilter transcript hls timedmetadata chapters directory sync subtitles tags lyrics cue)
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=("${all[@]}")

executable() {
    case "$1" in
        icy) echo FuzzIcy ;; playlist) echo FuzzPlaylist ;; rss) echo FuzzRSS ;; opml) echo FuzzOPML ;;
        session) echo FuzzSession ;; image) echo FuzzImage ;; decoder) echo FuzzDecoder ;; mpd) echo FuzzMPD ;; mpdfilter) echo FuzzMPDFilter ;;
        transcript) echo FuzzTranscript ;; hls) echo FuzzHLS ;; timedmetadata) echo FuzzTimedMetadata ;; chapters) echo FuzzChapters ;;
        directory) echo FuzzDirectory ;;
        sync) echo FuzzSync ;; subtitles) echo FuzzSubtitles ;; tags) echo FuzzTags ;; lyrics) echo FuzzLyrics ;; cue) echo FuzzCue ;;
        *) echo "fuzz: unknown target '$1' (known: ${all[*]})" >&2; return 1 ;;
    esac
}
for target in "${targets[@]}"; do executable "$target" >/dev/null || exit 2; done

if ! ls /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
    && ! ls "$(dirname "$(dirname "$(command -v swift)")")"/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
    echo "fuzz: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer)" >&2
    exit 2
fi

if [ "${FUZZ_BUILD:-1}" != 0 ]; then
    echo "fuzz: building the targets with -sanitize=fuzzer,address (the first build takes a while)"
    for target in "${targets[@]}"; do
        swift build --scratch-path "$scratch" --product "$(executable "$target")" -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 \
            | grep -v "Cannot export local symbol" || true
        [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: build failed" >&2; exit 2; }
    done
fi
bin="$scratch/debug"

# Swift's own crash reporter would race libFuzzer's handler; let AddressSanitizer and libFuzzer
# report. Leak checks are off by default: Foundation keeps caches that look like leaks per input.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"

failed=()
summary=()
mkdir -p "$scratch/logs"
for target in "${targets[@]}"; do
    name="$(executable "$target")"
    work="$scratch/corpus/$target"
    seeds="$root/Tests/Fuzz/Corpus/$target"
    crashes="$root/Tests/Fuzz/Crashes/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$work" "$seeds" "$crashes"
    echo "fuzz: $target for ${seconds}s (log: ${log#"$root"/})"
    # shellcheck disable=SC2086
    "$bin/$name" "$work" "$seeds" -max_total_time="$seconds" -rss_limit_mb="$rss" -timeout="$timeout" \
        -artifact_prefix="$crashes/" -print_final_stats=1 ${FUZZ_FLAGS:-} >"$log" 2>&1
    status=$?
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    time_line="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        summary+=("$target: FAILED (exit $status) after ${runs:-?} runs; see ${log#"$root"/} and ${crashes#"$root"/}/")
        grep -E "ERROR: |contract broken|Test unit written|SUMMARY" "$log" | head -8 | sed 's/^/  /'
    else
        summary+=("$target: ${runs:-?} runs in ${time_line:-?}s clean  ${done_line}")
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
        "$bin/$name" -set_cover_merge=1 -rss_limit_mb="$rss" -timeout="$timeout" "$seeds" "$work" >>"$log" 2>&1 \
            || echo "fuzz: merging $target failed; see ${log#"$root"/}" >&2
    fi
done

echo
echo "fuzz summary (${seconds}s per target):"
printf '  %s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: failures in ${failed[*]}; reproduce with Fuzz/.build/debug/Fuzz<Target> <input> (docs/FUZZING.md)" >&2
    exit 1
fi
