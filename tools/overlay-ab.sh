#!/usr/bin/env bash
# The viewer as it opens against the tour without its overlay, in one sitting: dsda-doom's
# OpenGL timedemo, then ROUNDS rounds of `bench --window` on MAP02 alternating the overlay
# hidden, drawn on the CPU (the default on a software adapter) and drawn by egui-wgpu
# (MAPSCOPE_OVERLAY=gpu), faithful and smooth, then the peer again; prints each variant's
# median presented frame time over the rounds and the ratios (docs/performance.md).
#
# Usage: tools/overlay-ab.sh [MAPSCOPE=target/release/mapscope] [ROUNDS=4 in the environment]
# Needs: xvfb, freedoom, dsda-doom (apt-get install xvfb xauth freedoom dsda-doom).
set -euo pipefail
bin=${1:-target/release/mapscope}
rounds=${ROUNDS:-4}
wad=/usr/share/games/doom/freedoom2.wad
peer=$(dirname "$0")/../../shared/tools/perf/dsda-timedemo.sh
out=$(mktemp); trap 'rm -f "$out"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
date -u +%H:%M
[ -x "$(command -v dsda-doom || echo /usr/games/dsda-doom)" ] && bash "$peer" gl 1280x720 || true
for mode in faithful smooth; do
    for _ in $(seq "$rounds"); do
        for way in hidden cpu gpu; do
            overlay=(); env=()
            [ "$way" != hidden ] && overlay=(--overlay)
            [ "$way" = gpu ] && env=(MAPSCOPE_OVERLAY=gpu)
            env "${env[@]}" xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" bench "$wad" \
                --map MAP02 --mode "$mode" --frames 600 --window "${overlay[@]}" --json 2>/dev/null \
                | tail -1 | python3 -c "
import json, sys
p = json.load(sys.stdin)['presented']
print('$mode $way', p['median_ms'], p['p95_ms'])" >>"$out"
        done
    done
done
[ -x "$(command -v dsda-doom || echo /usr/games/dsda-doom)" ] && bash "$peer" gl 1280x720 || true
date -u +%H:%M
python3 - "$out" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
for mode in ('faithful', 'smooth'):
    med = {}
    for way in ('hidden', 'cpu', 'gpu'):
        ms = [float(r[2]) for r in rows if r[:2] == [mode, way]]
        p95 = [float(r[3]) for r in rows if r[:2] == [mode, way]]
        med[way] = st.median(ms)
        print(f'{mode:8} {way:6} presented {med[way]:.3f} ms ({1000 / med[way]:.0f} fps), p95 {st.median(p95):.3f}')
    print(f'{mode:8} shown/hidden: CPU overlay {med["hidden"] / med["cpu"]:.2f}, egui-wgpu {med["hidden"] / med["gpu"]:.2f}')
PY
