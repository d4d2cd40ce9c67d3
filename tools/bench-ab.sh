#!/usr/bin/env bash
# Compares mapscope builds on one level the way this machine allows: frame times on a shared
# machine move by 20-40% from one run to the next, so the builds run alternately, several
# rounds, and the steadier figure, the processor time a frame (`cpu_ms_per_frame`), is
# reported beside the frame median, each as the median over the rounds.
#
# Usage: tools/bench-ab.sh "BENCH ARGS" BUILD... [ROUNDS=5 in the environment]
#   e.g. tools/bench-ab.sh "/usr/share/games/doom/freedoom2.wad --map MAP02" old/mapscope target/release/mapscope
# (keep a copy of the earlier build: building another commit overwrites target/release).
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,9p "$0"; exit 2; }
args=$1; shift
rounds=${ROUNDS:-5}
out=$(mktemp); trap 'rm -f "$out"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
for _ in $(seq "$rounds"); do
    for build in "$@"; do
        # shellcheck disable=SC2086 # the bench arguments are split on purpose
        "$build" bench $args --json 2>/dev/null | tail -1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sys.argv[1], d["median_ms"], d["p95_ms"], d.get("cpu_ms_per_frame") or "nan")' "$build" >> "$out"
    done
done
python3 - "$out" "$@" <<'PY'
import math, statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
first = None
for build in sys.argv[2:]:
    mine = [list(map(float, r[1:])) for r in rows if r[0] == build]
    median, p95, cpu = (statistics.median(x[k] for x in mine) for k in range(3))
    first = first or cpu
    ratio = "" if math.isnan(cpu) else f"  ({cpu / first:.3f}x the first)"
    print(f"{build}: frame median {median:.2f} ms, p95 {p95:.2f} ms, "
          f"processor time {cpu:.2f} ms a frame{ratio}  [{len(mine)} rounds]")
PY
