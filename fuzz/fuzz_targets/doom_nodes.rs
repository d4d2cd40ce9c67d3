//! Doom node readers: ZDoom extended and GL node streams (the first byte picks the magic the
//! rest follows) and glBSP's four GL lumps (split from the rest by three 16-bit lengths), read
//! against a small fixed map.
#![no_main]

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope_formats::formats::doom::archive::wad::Lump;
use mapscope_formats::formats::doom::nodes::glbsp_nodes::{read_glbsp_nodes, GlBspLumps};
use mapscope_formats::formats::doom::nodes::zdoom_nodes::read_zdoom_nodes;
use mapscope_formats::formats::doom::nodes::{NodeContext, NodeLinedef, NodeVertex, FRACUNIT};
use mapscope_fuzz as _;

const MAGICS: [&[u8; 4]; 8] =
    [b"XNOD", b"ZNOD", b"XGLN", b"ZGLN", b"XGL2", b"ZGL2", b"XGL3", b"ZGL3"];

fn lump(data: &[u8]) -> Lump<'_> {
    Lump { name: "NODES", data, file: "fuzz.wad", offset: 0 }
}

fuzz_target!(|data: &[u8]| {
    let vertices: Vec<NodeVertex> = (0..16)
        .map(|i| NodeVertex { x: (i % 4) * 64 * FRACUNIT, y: (i / 4) * 64 * FRACUNIT })
        .collect();
    let linedefs: Vec<NodeLinedef> = (0..16u32)
        .map(|i| NodeLinedef { v1: i, v2: (i + 1) % 16, has_side: [true, i % 2 == 0] })
        .collect();
    let ctx = NodeContext { map: "MAP01", vertices: &vertices, linedefs: &linedefs };
    let Some((&mode, rest)) = data.split_first() else { return };
    if let Some(magic) = MAGICS.get(mode as usize % 9) {
        let mut stream = magic.to_vec();
        stream.extend_from_slice(rest);
        let _ = read_zdoom_nodes(&ctx, &lump(&stream));
        return;
    }
    if rest.len() < 6 {
        return;
    }
    let mut parts = [&rest[6..]; 4];
    for i in 0..3 {
        let len = u16::from_le_bytes([rest[2 * i], rest[2 * i + 1]]) as usize;
        let (head, tail) = parts[i].split_at(len.min(parts[i].len()));
        parts[i] = head;
        parts[i + 1] = tail;
    }
    let lumps = GlBspLumps {
        vert: lump(parts[0]),
        segs: lump(parts[1]),
        ssect: lump(parts[2]),
        nodes: lump(parts[3]),
    };
    let _ = read_glbsp_nodes(&ctx, &lumps);
});
