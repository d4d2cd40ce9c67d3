#!/bin/sh
# Builds the seed corpora in fuzz/corpus/<target>/ from the shared fixtures (corrupt ones
# included), data/demo.wad and one Freedoom map extracted as a PWAD. The corpora are not
# committed (several MB); run this before fuzzing. Usage: fuzz/make_seeds.sh [FIXTURES_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
fx=${1:-${MAPSCOPE_FIXTURES:-$root/../shared/fixtures}}
out=$here/corpus
mkdir -p "$out"
seed() { # target file...
    t=$1; shift
    mkdir -p "$out/$t"
    for f in "$@"; do [ -f "$f" ] && cp -f "$f" "$out/$t/$(basename "$f")"; done
    chmod -R u+w "$out/$t"
    return 0
}

# Doom: the demo level, a Freedoom map as a PWAD, and the Doom test WADs the repo keeps.
seed doom_wad "$root/data/demo.wad" "$root"/tests/data/hostile/*.wad
for iwad in /usr/share/games/doom/freedoom2.wad /usr/share/games/doom/freedoom1.wad; do
    [ -f "$iwad" ] || continue
    python3 - "$iwad" "$out/doom_wad/freedoom_$(basename "$iwad" .wad)_map.wad" <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
n, off = struct.unpack_from('<ii', d, 4)
lumps = [struct.unpack_from('<ii8s', d, off + 16 * i) for i in range(n)]
names = [l[2].rstrip(b'\0') for l in lumps]
# The first map marker (followed by THINGS) and its ten lumps.
i = next(k for k in range(n - 1) if names[k + 1] == b'THINGS')
sel = lumps[i:i + 11]
body, dirent = b'', b''
for pos, size, name in sel:
    dirent += struct.pack('<ii8s', 12 + len(body), size, name)
    body += d[pos:pos + size]
open(dst, 'wb').write(b'PWAD' + struct.pack('<ii', len(sel), 12 + len(body)) + body + dirent)
PY
done

# Doom packages: Freedoom2's first map as maps/MAP01.wad, a TEXTURES lump and a PNG texture,
# stored uncompressed so that mutations land in the members.
mkdir -p "$out/doom_pk3"
if [ -f "$out/doom_wad/freedoom_freedoom2_map.wad" ]; then
    python3 - "$out/doom_wad/freedoom_freedoom2_map.wad" "$out/doom_pk3/freedoom2_map01.pk3" <<'PY'
import struct, sys, zipfile, zlib
def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
rows = b''.join(b'\0' + bytes([40, 200, 40, 255]) * 8 for _ in range(8))
png = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 8, 8, 8, 6, 0, 0, 0))
       + chunk(b'grAb', struct.pack('>ii', 4, 7)) + chunk(b'IDAT', zlib.compress(rows))
       + chunk(b'IEND', b''))
textures = b'WallTexture "NEW", 16, 8 { Patch "BRICK", 0, 0 { FlipX Rotate 90 } }\n'
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_STORED) as z:
    z.writestr('maps/MAP01.wad', open(sys.argv[1], 'rb').read())
    z.writestr('TEXTURES.txt', textures)
    z.writestr('textures/brick.png', png)
PY
fi

# The same members as 7z packages (one solid LZMA2 folder of stored chunks, so that mutations
# land in the members), with the header stored plainly and LZMA2-compressed; the layout of
# crates/mapscope-formats/src/formats/doom/archive/pk7_writer.rs.
mkdir -p "$out/doom_pk7"
if [ -f "$out/doom_pk3/freedoom2_map01.pk3" ]; then
    python3 - "$out/doom_pk3/freedoom2_map01.pk3" "$out/doom_pk7" <<'PY'
import struct, sys, zipfile, zlib
members = [(n, zipfile.ZipFile(sys.argv[1]).read(n)) for n in zipfile.ZipFile(sys.argv[1]).namelist()]
def num(v):
    extra = 0
    while extra < 8 and v >= 1 << (7 * (extra + 1)):
        extra += 1
    first = (0xFF00 >> extra) & 0xFF
    if extra < 8:
        first |= v >> (8 * extra)
    return bytes([first]) + bytes((v >> (8 * j)) & 0xFF for j in range(extra))
def lzma2_stored(d):
    out = b''
    for k in range(0, len(d), 65536):
        c = d[k:k + 65536]
        out += bytes([1 if k == 0 else 2]) + struct.pack('>H', len(c) - 1) + c
    return out + b'\0'
def streams(pos, packed, unpacked, end=True):
    s = b'\x06' + num(pos) + num(1) + b'\x09' + num(len(packed)) + b'\0'
    s += b'\x07\x0b\x01\x00\x01\x21\x21' + num(1) + b'\x10\x0c' + num(unpacked) + b'\0'
    return s + (b'\0' if end else b'')
data = b''.join(d for _, d in members)
packed = lzma2_stored(data)
h = b'\x01\x04' + streams(0, packed, len(data), end=False) + b'\x08\x0d' + num(len(members))
h += b'\x09' + b''.join(num(len(d)) for _, d in members[:-1]) + b'\0\0'
names = b'\0' + b''.join(n.encode('utf-16-le') + b'\0\0' for n, _ in members)
h += b'\x05' + num(len(members)) + b'\x11' + num(len(names)) + names + b'\0\0'
for kind in ('plain', 'encoded'):
    body, nh = packed, h
    if kind == 'encoded':
        ph = lzma2_stored(h)
        body, nh = packed + ph, b'\x17' + streams(len(packed), ph, len(h))
    tail = struct.pack('<QQI', len(body), len(nh), zlib.crc32(nh))
    out = b'7z\xbc\xaf\x27\x1c\x00\x04' + struct.pack('<I', zlib.crc32(tail)) + tail + body + nh
    open(f'{sys.argv[2]}/freedoom2_map01_{kind}.pk7', 'wb').write(out)
PY
fi

# Community maps (../shared/realmaps/doom, beside the fixtures): the WADs for doom_wad, their
# TEXTMAP lumps for doom_udmf, and their ZDoom node lumps for doom_nodes (its first byte picks
# the magic, the rest follows it; against the target's small map most of it reads as hostile).
realmaps=$(dirname "$fx")/realmaps/doom
mkdir -p "$out/doom_udmf" "$out/doom_nodes"
for wad in "$realmaps"/*.wad; do
    [ -f "$wad" ] || continue
    cp -f "$wad" "$out/doom_wad/realmap_$(basename "$wad")"
    python3 - "$wad" "$out" <<'PY'
import os, struct, sys
src, out = sys.argv[1], sys.argv[2]
base = os.path.basename(src)
d = open(src, 'rb').read()
n, off = struct.unpack_from('<ii', d, 4)
magics = [b'XNOD', b'ZNOD', b'XGLN', b'ZGLN', b'XGL2', b'ZGL2', b'XGL3', b'ZGL3']
for i in range(n):
    pos, size, name = struct.unpack_from('<ii8s', d, off + 16 * i)
    lump = d[pos:pos + size]
    if name.rstrip(b'\0') == b'TEXTMAP':
        open(f'{out}/doom_udmf/{base}_{i}.txt', 'wb').write(lump)
    elif lump[:4] in magics:
        mode = bytes([magics.index(lump[:4])])
        open(f'{out}/doom_nodes/{base}_{i}.bin', 'wb').write(mode + lump[4:4 + 200000])
PY
done

# Text lumps for doom_mapinfo (first byte: 0 MAPINFO, 1 ZMAPINFO, 2 UMAPINFO, 3 ANIMDEFS).
mkdir -p "$out/doom_mapinfo"
printf '\000map MAP01 "Entry"\nsky1 SKY3 0.5\nsky2 SKY2\ndoublesky\ncluster 1\ninclude "INCLUDED"\nmap MAP02 lookup "HUSTR_2"\nsky1 SKY1 0\nclusterdef 1\n' \
    > "$out/doom_mapinfo/hexen.txt"
printf '\001// ZDoom\ngamedefaults { sky1 = "SKY2" }\ndefaultmap { sky2 = "SKY3", 0.1 }\nadddefaultmap { doublesky }\nmap MAP01 lookup "HUSTR_1" { levelnum = 1 sky1 = "RSKY1", 0.2 next = "MAP02" }\ncluster 1 { exittext = "x" }\nepisode MAP01 { name = "E" }\n' \
    > "$out/doom_mapinfo/zdoom.txt"
printf '\002MAP MAP01 { levelname = "Entry" skytexture = "SKY4" }\nMAP MAP02 { skytexture = "SKY1" }\n' \
    > "$out/doom_mapinfo/umapinfo.txt"
printf '\003flat FWATER1 range FWATER4 tics 8\nwarp flat NUKAGE1 speed 2\nswitch doom 1 SW1BRCOM on pic SW2BRCOM tics 0 off pic SW1BRCOM tics 0\ntexture SLADRIP1 pic 1 tics 4 pic 2 rand 4 8 pic SLADRIP3 tics 4 oscillate\ncameratexture CAMTEX 128 128\ntexture BLODGR1 range BLODGR4 rand 3 9 allowdecals\n' \
    > "$out/doom_mapinfo/animdefs.txt"

# Saucerman: packages, and WAD+map pairs as saucer_wad_map takes them (split offset, the
# WAD without its 1.3 MB lookup tables, the map).
seed saucer_pak "$fx"/saucer/*.pak "$fx"/saucer/corrupt/*.pak
mkdir -p "$out/saucer_wad_map"
for wad in "$fx"/saucer/LEVELS/*.wad; do
    base=$(basename "$wad" .wad)
    map=$fx/saucer/maps/$base.map
    [ -f "$map" ] || continue
    python3 - "$wad" "$map" "$out/saucer_wad_map/$base.bin" <<'PY'
import struct, sys
luts = 16 * 64 * 256 + 16 * 256 * 256
w = open(sys.argv[1], 'rb').read()[luts:]
m = open(sys.argv[2], 'rb').read()
open(sys.argv[3], 'wb').write(struct.pack('<I', len(w)) + w + m)
PY
done

seed saturn_lev "$fx"/saturn/*.lev "$fx"/saturn/optional/*.lev "$fx"/saturn/corrupt/*.lev
seed marathon_map "$fx"/marathon/M1Map.scen "$fx"/marathon/M1Map.scen.bin \
    "$fx"/marathon/M2Map.sceA "$fx"/marathon/M2Map.sceA.as "$fx"/marathon/M2Map.sceA.bin \
    "$fx"/marathon/corrupt/*.sce* "$fx"/marathon/corrupt/*.scen
seed marathon_shapes "$fx"/marathon/Shapes.shpA "$fx"/marathon/corrupt/*.shpA
seed carma2_twt "$fx"/carma2/TRACK.TWT "$fx"/carma2/quirks/*.TWT "$fx"/carma2/corrupt/*.TWT

# carma2_files: first byte 0 ACT, 1 DAT, 2 MAT, 3 PIX.
mkdir -p "$out/carma2_files"
prefix() { printf "\\$(printf '%03o' "$1")" | cat - "$2" > "$out/carma2_files/$3"; }
for f in "$fx"/carma2/ACTORS/*; do prefix 0 "$f" "act_$(basename "$f")"; done
for f in "$fx"/carma2/MODELS/*; do prefix 1 "$f" "dat_$(basename "$f")"; done
for f in "$fx"/carma2/MATERIAL/*; do prefix 2 "$f" "mat_$(basename "$f")"; done
for f in "$fx"/carma2/PIXELMAP/* "$fx"/carma2/REG/PALETTES/*; do prefix 3 "$f" "pix_$(basename "$f")"; done

seed compare_png "$fx"/saturn/*.png "$root"/tests/data/*.png \
    "$root"/tests/data/doom-reference/freedoom1_e1m1_start.png
# The project's own corrupt corpus, to every target (each target refuses what is not its
# format quickly).
for t in "$out"/*/; do
    for f in "$root"/tests/data/hostile/*; do [ -f "$f" ] && cp "$f" "$t"; done
done
chmod -R u+w "$out"
du -sh "$out"/*
