#!/bin/sh
# Runs every fuzz target (or those named) for SECONDS each, JOBS at a time, with the issue's
# limits; logs go to fuzz/logs/<target>.log, crashes to fuzz/artifacts/<target>/.
# Usage: fuzz/run_all.sh SECONDS [JOBS] [TARGET...]  (after make_seeds.sh and a build:
# cargo +nightly fuzz build --sanitizer none --debug-assertions)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --one ]; then
    t=$2
    bin=$here/target/x86_64-unknown-linux-gnu/release
    mkdir -p "$here/artifacts/$t" "$here/corpus/$t"
    "$bin/$t" "$here/corpus/$t" -rss_limit_mb="${FUZZ_RSS_MB:-256}" -malloc_limit_mb=256 -timeout=1 \
        -max_total_time="$FUZZ_SECS" -print_final_stats=1 -artifact_prefix="$here/artifacts/$t/" \
        > "$here/logs/$t.log" 2>&1 || echo "$t: exit $?" >> "$here/logs/$t.log"
    exit 0
fi
secs=${1:?seconds per target}
jobs=${2:-2}
shift; [ $# -gt 0 ] && shift
targets=${*:-"doom_wad saucer_wad_map saturn_lev marathon_map marathon_shapes carma2_twt carma2_files compare_png saucer_pak"}
mkdir -p "$here/logs"
# At most JOBS at once: xargs runs this script once per target.
export FUZZ_SECS=$secs
printf '%s\n' $targets | xargs -P "$jobs" -I{} "$here/run_all.sh" --one {}
for t in $targets; do
    printf '%s: ' "$t"
    grep -E '^#[0-9]+.*(DONE|cov:)' "$here/logs/$t.log" | tail -1
    grep -E 'stat::number_of_executed_units|ERROR|panicked|deadly|over 256' "$here/logs/$t.log" | head -3
done
