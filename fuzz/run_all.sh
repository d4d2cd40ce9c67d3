#!/bin/sh
# Runs every fuzz target (or those named) until it has made 10 million executions or used
# CPU_SECONDS of processor time, JOBS at a time, with the issue's limits; logs go to
# fuzz/logs/<target>.log, crashes to fuzz/artifacts/<target>/.
# Usage: fuzz/run_all.sh CPU_SECONDS [JOBS] [TARGET...]  (after make_seeds.sh and a build:
# cargo +nightly fuzz build --sanitizer none --debug-assertions)
#
# The budget is processor time, not wall time, so a run shares a machine with other work
# (it runs at the lowest priority) without losing fuzzing time: a watcher sends SIGUSR1 once
# the process has used CPU_SECONDS, on which libFuzzer finishes the input it is running,
# prints its final statistics and exits 0. (Not SIGINT: libFuzzer's SIGINT handler allocates,
# and a SIGINT that lands inside malloc deadlocks it.)
# FUZZ_RUNS overrides the 10 million executions; FUZZ_RSS_MB the 256 MB memory limit;
# FUZZ_TIMEOUT the 1 s limit a unit (libFuzzer counts wall time, so a fuzzer starved by
# builds on every core, or stopped to benchmark, reports false timeouts under 1 s; the
# slowest unit still shows in the log's `slowest_unit_time_sec`).
# FUZZ_WORKERS=W runs W processes of each target on its one corpus, each with 1/W of both
# budgets and a log of its own (logs/<target>.log for the first, logs/<target>@K.log for
# worker K; summary.sh adds them up), so one slow target can use several cores.
#
# Both budgets are cumulative: each run appends to the target's log, and a later run (on the
# corpus the earlier ones grew) only makes the executions and uses the CPU time still left, so
# the bar can be reached over several sessions. Delete the log to start the count again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --one ]; then
    worker=$2
    t=${worker%@*}
    bin=$here/target/x86_64-unknown-linux-gnu/release
    log=$here/logs/$worker.log
    mkdir -p "$here/artifacts/$t" "$here/corpus/$t"
    touch "$log"
    done_runs=$(awk '/stat::number_of_executed_units/ { n += $2 } END { print n + 0 }' "$log")
    done_cpu=$(awk '/cpu_seconds/ { n += $NF } END { print n + 0 }' "$log")
    runs=$((${FUZZ_RUNS:-10000000} / ${FUZZ_WORKERS:-1} - done_runs))
    secs=$((FUZZ_SECS / ${FUZZ_WORKERS:-1} - done_cpu))
    if [ "$runs" -le 0 ] || [ "$secs" -le 0 ]; then
        exit 0
    fi
    echo "== run started $(date -u '+%Y-%m-%d %H:%M'): $runs executions or $secs CPU s left," \
        "rss_limit_mb ${FUZZ_RSS_MB:-256}, timeout ${FUZZ_TIMEOUT:-1} s" >> "$log"
    nice -n 19 "$bin/$t" "$here/corpus/$t" -rss_limit_mb="${FUZZ_RSS_MB:-256}" \
        -malloc_limit_mb=256 -timeout="${FUZZ_TIMEOUT:-1}" -runs="$runs" \
        -max_total_time=$((secs * 4)) -print_final_stats=1 \
        -artifact_prefix="$here/artifacts/$t/" >> "$log" 2>&1 &
    pid=$!
    tick=$(getconf CLK_TCK)
    cpu=0
    while kill -0 "$pid" 2>/dev/null; do
        # utime + stime, fields 14 and 15 of /proc/PID/stat (the name in field 2 has no
        # spaces here).
        cpu=$(awk -v t="$tick" '{ printf "%d", ($14 + $15) / t }' "/proc/$pid/stat" 2>/dev/null ||
            echo "$cpu")
        if [ "$cpu" -ge "$secs" ]; then
            kill -USR1 "$pid" 2>/dev/null || true
            break
        fi
        sleep 5
    done
    status=0
    wait "$pid" || status=$?
    echo "$worker: exit $status, cpu_seconds $cpu" >> "$log"
    exit 0
fi
secs=${1:?CPU seconds per target}
jobs=${2:-2}
shift; [ $# -gt 0 ] && shift
targets=${*:-"doom_wad doom_pk3 doom_pk7 doom_udmf doom_nodes doom_mapinfo saucer_wad_map saturn_lev marathon_map marathon_shapes carma2_twt carma2_files compare_png saucer_pak"}
mkdir -p "$here/logs"
# At most JOBS at once: xargs runs this script once per target and worker.
export FUZZ_SECS=$secs
for t in $targets; do
    echo "$t"
    k=2
    while [ "$k" -le "${FUZZ_WORKERS:-1}" ]; do echo "$t@$k"; k=$((k + 1)); done
done | xargs -P "$jobs" -I{} "$here/run_all.sh" --one {}
for t in $targets; do
    printf '%s: ' "$t"
    grep -E '^#[0-9]+.*(DONE|cov:)' "$here/logs/$t.log" | tail -1
    grep -hE 'stat::number_of_executed_units|cpu_seconds|ERROR|panicked|deadly|over 256' \
        "$here/logs/$t.log" "$here/logs/$t"@*.log 2>/dev/null | head -8
done
