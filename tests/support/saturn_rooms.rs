//! A Saturn Quake level of closed rooms written with the format's writer: the large level of
//! `cargo bench --bench saturn`, and the occlusion test's level (each room hides the others).

use mapscope::formats::saturn::writer::{word, LevBuilder, QuadSpec, TileSetSpec};

/// `rooms` x `rooms` rooms of 512x512x256 units, 64 units apart: floor and ceiling tile sets
/// of 8x8 tiles with graded light, four walls of 8x4 explicit quads each, a player start in
/// the first room. (Rooms sharing a wall would put two walls in one plane, which any depth
/// buffer draws as a fight of the two.)
pub fn closed_rooms(rooms: i16) -> Vec<u8> {
    let mut b = LevBuilder::default();
    let ramp: Vec<u16> = (0..15).map(|i| word(8 + i, 6 + i, 4 + 2 * i)).collect();
    let mut pal = [0u16; 16];
    pal[1..].copy_from_slice(&ramp);
    let textures: Vec<u8> = (0..8)
        .map(|t| {
            b.texture(pal, (0..4096).map(|i| 1 + ((i / 64 + i % 64 + t * 3) % 15) as u8).collect())
        })
        .collect();
    let lights = |n: usize| (0..n).map(|i| (6 + i % 12) as u8).collect::<Vec<u8>>();
    for rz in 0..rooms {
        for rx in 0..rooms {
            let (x0, z0) = (rx * 576 - 3000, rz * 576 - 3000);
            let (x1, z1) = (x0 + 512, z0 + 512);
            let tex = textures[((rx + rz) % 8) as usize];
            for (y, up) in [(0i16, 1.0), (256, -1.0)] {
                let tiles = TileSetSpec {
                    base: [x0 as f64, y as f64, z0 as f64],
                    horz: [64.0, 0.0, 0.0],
                    vert: [0.0, 0.0, 64.0],
                    width: 8,
                    height: 8,
                    cells: (0..64).map(|i| ((i % 4) as u8 * 0x10, tex)).collect(),
                    lights: lights(81),
                };
                let outline = [[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]];
                b.plane(outline, [0.0, up, 0.0], &[], Some(&tiles));
            }
            // Walls: along x at z0 and z1, along z at x0 and x1, 8 quads of 64 by 4 of 64.
            let walls: [([i16; 3], [i16; 3], [f64; 3]); 4] = [
                ([x0, 0, z0], [64, 0, 0], [0.0, 0.0, 1.0]),
                ([x1, 0, z1], [-64, 0, 0], [0.0, 0.0, -1.0]),
                ([x0, 0, z1], [0, 0, -64], [1.0, 0.0, 0.0]),
                ([x1, 0, z0], [0, 0, 64], [-1.0, 0.0, 0.0]),
            ];
            for (origin, step, normal) in walls {
                let at = |i: i16, j: i16| {
                    [origin[0] + step[0] * i, 256 - 64 * j, origin[2] + step[2] * i]
                };
                let quads: Vec<QuadSpec> = (0..32)
                    .map(|q| {
                        let (i, j) = (q % 8, q / 8);
                        QuadSpec {
                            corners: [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
                            lights: [(4 + q % 14) as u8, 17, 12, (3 + q % 10) as u8],
                            texture: textures[(q % 8) as usize],
                        }
                    })
                    .collect();
                b.plane([at(0, 0), at(8, 0), at(8, 4), at(0, 4)], normal, &quads, None);
            }
        }
    }
    let start: Vec<u8> = [0i16, -2744, 48, -2744].iter().flat_map(|v| v.to_be_bytes()).collect();
    b.entity(13, &start);
    b.finish()
}
