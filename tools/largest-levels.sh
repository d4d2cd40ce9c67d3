#!/usr/bin/env bash
# Every game's largest writer-built levels against freedoom2 MAP02, in one sitting: `bench` at
# 1280x720 with the renderer left to choose (auto), forced onto the CPU canvas (cpu) and onto
# the GPU's passes (gpu). MAP02 runs first and last, so that a drift of the machine during the
# sitting shows. Ratios are what to compare: figures from different sittings are not.
#
# Usage: tools/largest-levels.sh [BUILD=target/release/mapscope] [LEVELS=a temporary folder]
#   FRAMES (default 200) and ROUNDS (default 1) in the environment.
# The levels are written by the benches' --write (marathon: the station and the grid; saturn:
# the rooms; carma2: BIG.TWT; saucer: the largest map), which builds them first.
set -euo pipefail
build=${1:-target/release/mapscope}
levels=${2:-$(mktemp -d)}
frames=${FRAMES:-200}
rounds=${ROUNDS:-1}
freedoom2=/usr/share/games/doom/freedoom2.wad
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
if [ ! -e "$levels/Station.sceA" ]; then
    for bench in marathon saturn carma2 saucer; do
        cargo bench --bench "$bench" -- --quick --write "$levels" > /dev/null 2>&1
    done
    # Without a Shapes file beside it, the station is drawn in flat colours.
    mkdir -p "$levels/flat" && cp "$levels/Station.sceA" "$levels/flat/"
fi
run() {
    local name=$1; shift
    for renderer in auto cpu gpu; do
        # shellcheck disable=SC2086 # the bench arguments are split on purpose
        "$build" bench "$@" --frames "$frames" --renderer "$renderer" --json 2>/dev/null | tail -1 |
            python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["solid_triangles"] or {}
print("%-16s %-4s median %7.2f ms  p95 %7.2f ms  waypoints %2d  solid drawn/in view %s/%s" % (
    sys.argv[1], sys.argv[2], d["median_ms"], d["p95_ms"], d["tour"]["waypoints"],
    s.get("drawn_median", "-"), s.get("in_view_median", "-")))' "$name" "$renderer"
    done
}
for _ in $(seq "$rounds"); do
    run MAP02 "$freedoom2" --map MAP02
    run station "$levels/Station.sceA"
    run station-flat "$levels/flat/Station.sceA"
    run marathon-grid "$levels/Grid.sceA"
    run saturn-rooms "$levels"/LARGE*.LEV
    run carma2-BIG "$levels/BIG.TWT"
    run saucer-TESTA "$(dirname "$0")/../../shared/fixtures/saucer/Saucerdata.pak"
    run saucer-BIG "$levels/maps/BIG.map"
    run MAP02 "$freedoom2" --map MAP02
done
