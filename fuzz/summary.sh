#!/bin/sh
# Prints one Markdown table row per fuzz log (fuzz/logs/<target>.log, written by run_all.sh):
# executions, processor and wall seconds, libFuzzer's coverage figures at the end, the
# slowest input, peak memory and what was found. A log holds every run of its target (each
# resuming from the corpus the earlier ones grew): executions and seconds are summed over them,
# coverage is the last run's, the slowest input and peak memory the worst run's. The logs of
# extra workers (logs/<target>@K.log, run_all.sh with FUZZ_WORKERS) count with their target's:
# their runs, executions and seconds are added, coverage is the best worker's last figure.
# Usage: fuzz/summary.sh [TARGET...]
here=$(cd "$(dirname "$0")" && pwd)
only=" $* "
echo "| target | runs | executions | CPU s | wall s | cov | ft | corpus | slowest input | peak RSS | found |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for log in "$here"/logs/*.log; do
    t=$(basename "$log" .log)
    case $t in *@*) continue ;; esac
    [ "$only" != "  " ] && ! echo "$only" | grep -q " $t " && continue
    # The worker logs, if any (the glob stays unexpanded when there are none).
    set -- "$log"
    for w in "$here/logs/$t"@*.log; do [ -f "$w" ] && set -- "$@" "$w"; done
    awk -v t="$t" '
        FNR == 1 && NR > 1 { keep() }
        function keep() {
            if (lcov + 0 > cov + 0) { cov = lcov; ft = lft; corp = lcorp }
        }
        /^#[0-9]+/ && / cov: / {
            for (i = 1; i <= NF; i++) {
                if ($i == "cov:") lcov = $(i + 1)
                if ($i == "ft:") lft = $(i + 1)
                if ($i == "corp:") lcorp = $(i + 1)
            }
        }
        /^Done [0-9]+ runs in/ { wall += $(NF - 1); done++ }
        /stat::number_of_executed_units/ { execs += $2; runs++ }
        /stat::slowest_unit_time_sec/ { if ($2 > slow) slow = $2 }
        /stat::peak_rss_mb/ { if ($2 > rss) rss = $2 }
        /cpu_seconds/ { cpu += $NF }
        /deadly signal|ERROR: libFuzzer|panicked at|single allocation over/ { found = found (found ? "; " : "") $0 }
        END {
            keep()
            if (found == "") found = "nothing"
            # A run stopped by SIGINT prints no "Done" line, so its wall time is unknown.
            printf "| `%s` | %d | %d | %d | %s | %s | %s | %s | %d s | %d MB | %s |\n",
                t, runs, execs, cpu, (done == runs ? wall : "-"), cov, ft, corp, slow, rss, found
        }' "$@"
done
