#!/usr/bin/env bash
# The heavy maps of issue 37 against freedoom2 MAP02 in one sitting: `bench` faithful and
# smooth at 1280x720 on each, several rounds taken in turn (this machine's frame times move
# by 20-40% from one minute to the next), each figure the median over the rounds.
#
# Usage: tools/heavy-maps.sh [BUILD=target/release/mapscope] [ROUNDS=3 in the environment]
# Needs freedoom2.wad (Debian's freedoom), ../shared/realmaps/doom and the 90x90 grid that
# ../shared/tools/bigmap/doom_bigmap.py writes (made in a temporary folder when missing).
set -euo pipefail
build=${1:-target/release/mapscope}
rounds=${ROUNDS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
iwad=/usr/share/games/doom/freedoom2.wad
maps=$here/../shared/realmaps/doom
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
grid=${GRID_WAD:-$work/grid90.wad}
[ -f "$grid" ] || python3 "$here/../shared/tools/bigmap/doom_bigmap.py" "$grid" 90 >/dev/null
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
levels=(
    "MAP02|$iwad --map MAP02"
    "vgpdm01|$iwad $maps/vgpdm01.wad --map VGPDM01"
    "vgpdm03|$iwad $maps/vgpdm03.wad --map VGPDM03"
    "vgpdm08|$iwad $maps/vgpdm08.wad --map VGPDM08"
    "grid90|$iwad $grid"
)
for _ in $(seq "$rounds"); do
    for mode in faithful smooth; do
        for level in "${levels[@]}"; do
            name=${level%%|*}; args=${level#*|}
            # shellcheck disable=SC2086 # the level's arguments are split on purpose
            "$build" bench $args --mode "$mode" --json 2>/dev/null | tail -1 |
                python3 -c 'import json, sys; d = json.load(sys.stdin); print(sys.argv[1], sys.argv[2], d["median_ms"], d["p95_ms"])' \
                    "$name" "$mode" >> "$work/rows"
        done
    done
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def fig(name, mode, k):
    return statistics.median(float(r[k]) for r in rows if r[0] == name and r[1] == mode)
print("| map | faithful median (x MAP02) | p95 (x own median) | smooth median (x MAP02) | p95 (x own median) |")
print("|---|---|---|---|---|")
for name in dict.fromkeys(r[0] for r in rows):
    cells = []
    for mode in ("faithful", "smooth"):
        m, p = fig(name, mode, 2), fig(name, mode, 3)
        base = fig("MAP02", mode, 2)
        cells += [f"{m:.2f} ({m / base:.1f}x)", f"{p:.2f} ({p / m:.1f}x)"]
    print(f"| {name} | " + " | ".join(cells) + " |")
PY
