//! A Carmageddon 2 track written with the format's writer, for comparing the CPU canvas with
//! the GPU's passes: a lit ground of 8-bit and RGB565 squares (every face its own brightness,
//! texels that change every texel), and standing on it a Z-transparency 8-bit fence (index 0
//! holes), an ARGB4444 screen of clear and opaque texels (masked) and an ARGB4444 glass whose
//! alpha ramps by row (translucent), all two-sided.

use mapscope::formats::carma2::actors::{actor_type, Actor, Hierarchy};
use mapscope::formats::carma2::materials::{flags, Fog, Material};
use mapscope::formats::carma2::models::{Face, Model};
use mapscope::formats::carma2::pixelmaps::{pixel_type, Pixelmap};
use mapscope::formats::carma2::records;
use mapscope::formats::carma2::transform::{Matrix23, Matrix34};
use mapscope::formats::carma2::writer::{
    write_actors, write_materials, write_models, write_pixelmaps, write_twt,
};

/// Ground squares a side, and their size in world units.
const SIDE: u16 = 12;
const SQUARE: f32 = 10.0;

/// A ground of `SIDE x SIDE` squares, each a little tilted so that every face is lit a
/// little differently, UVs running 1.5 textures a square.
fn ground() -> Model {
    let side = SIDE + 1;
    let mut vertices = Vec::new();
    let mut uvs = Vec::new();
    for z in 0..side {
        for x in 0..side {
            let height = ((x * 7 + z * 3) % 5) as f32 * 0.6;
            vertices.push([f32::from(x) * SQUARE, height, f32::from(z) * SQUARE]);
            uvs.push([f32::from(x) * 1.5, f32::from(z) * 1.5]);
        }
    }
    let mut faces = Vec::new();
    for z in 0..SIDE {
        for x in 0..SIDE {
            let i = z * side + x;
            let material = 1 + (x + z) % 2;
            // Counter-clockwise seen from above (+Y).
            for v in [[i, i + side, i + side + 1], [i, i + side + 1, i + 1]] {
                faces.push(Face { vertices: v, smoothing: 1, flags: 0, material });
            }
        }
    }
    let material_names = vec!["M_GROUND8".into(), "M_GROUND565".into()];
    Model { name: "GROUND".into(), flags: 0, vertices, uvs, faces, material_names }
}

/// A `2w x 2h` upright quad facing +Z, UVs 0..1.
fn panel(name: &str, w: f32, h: f32, material: &str) -> Model {
    Model {
        name: name.into(),
        flags: 0,
        vertices: vec![[-w, 0.0, 0.0], [w, 0.0, 0.0], [w, 2.0 * h, 0.0], [-w, 2.0 * h, 0.0]],
        uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
        faces: vec![
            Face { vertices: [0, 1, 2], smoothing: 1, flags: 0, material: 1 },
            Face { vertices: [0, 2, 3], smoothing: 1, flags: 0, material: 1 },
        ],
        material_names: vec![material.into()],
    }
}

/// A material record with the games' usual lighting terms, showing pixelmap `image` (none: its
/// colour).
pub fn material(name: &str, image: Option<&str>, flag_bits: u32) -> Material {
    Material {
        name: name.into(),
        record: records::MATERIAL,
        colour: [255; 3],
        opacity: 0xFF,
        ka: 0.1,
        kd: 0.7,
        ks: 0.0,
        power: 20.0,
        flags: flag_bits,
        uv_matrix: Matrix23::IDENTITY,
        index_base: 10,
        index_range: 31,
        fog: Some(Fog::default()),
        image: image.map(String::from),
        shade_table: None,
    }
}

/// A `w` x `h` pixelmap record of pixel type `kind` holding `pixels` (row by row, no padding).
pub fn pixelmap(name: &str, kind: u8, w: u16, h: u16, pixels: Vec<u8>) -> Pixelmap {
    let bpp = (pixels.len() / (usize::from(w) * usize::from(h))) as u16;
    Pixelmap {
        name: name.into(),
        record: records::PIXELMAP,
        pixel_type: kind,
        row_bytes: w * bpp,
        width: w,
        height: h,
        origin: [0, 0],
        mip_offset: Some(0),
        bytes_per_pixel: u32::from(bpp),
        pixels,
        palette: None,
    }
}

/// 16-bit texels as the pixelmap stores them (big-endian).
fn words(w: u16, h: u16, texel: impl Fn(u16, u16) -> u16) -> Vec<u8> {
    let texel = &texel;
    (0..h).flat_map(|y| (0..w).flat_map(move |x| texel(x, y).to_be_bytes())).collect()
}

fn actor(name: &str, at: [f32; 3], yaw_quarter: bool, model: Option<&str>) -> Actor {
    let mut transform = Matrix34::IDENTITY;
    if yaw_quarter {
        transform.0[0] = [0.0, 0.0, -1.0];
        transform.0[2] = [1.0, 0.0, 0.0];
    }
    transform.0[3] = at;
    Actor {
        name: name.into(),
        actor_type: if model.is_some() { actor_type::MODEL } else { actor_type::NONE },
        render_style: if model.is_some() { 4 } else { 0 },
        transform,
        bounds: None,
        model: model.map(String::from),
        material: None,
        parent: model.map(|_| 0),
        depth: u32::from(model.is_some()),
    }
}

/// The track as one TWT archive; its ground spans (0, 0, 0) to (120, 3, 120).
pub fn track() -> Vec<u8> {
    let models = vec![
        ground(),
        panel("FENCE", 12.0, 6.0, "M_FENCE"),
        panel("SCREEN", 10.0, 5.0, "M_SCREEN"),
        panel("GLASS", 10.0, 6.0, "M_GLASS"),
    ];
    let lit = flags::LIT | flags::PERSPECTIVE;
    let keyed = flags::Z_TRANSPARENCY | flags::TWO_SIDED;
    let materials = vec![
        material("M_GROUND8", Some("GROUND8"), lit),
        material("M_GROUND565", Some("GROUND565"), lit),
        material("M_FENCE", Some("FENCE"), keyed | lit),
        material("M_SCREEN", Some("SCREEN"), keyed),
        material("M_GLASS", Some("GLASS"), keyed),
    ];
    let ground8 = (0..16 * 16).map(|i| 1 + ((i * 37 + i / 16 * 11) % 254) as u8).collect();
    // Every texel its own colour: 5-bit red by x, 6-bit green by y, blue by both.
    let ground565 = words(16, 16, |x, y| (x * 2) << 11 | (y * 4) << 5 | ((x + y) % 32));
    // Bars of index 0 (transparent) between bars of colour.
    let fence =
        (0..16 * 8).map(|i| if (i % 16) % 4 == 0 { 0 } else { 40 + (i % 90) as u8 }).collect();
    // Opaque and clear columns.
    let screen = words(16, 8, |x, y| if x % 3 == 0 { 0x0F00 } else { 0xF000 | (y * 2) << 8 | 0x7 });
    // Alpha 0 to 15 down the rows, colour by column.
    let glass = words(8, 16, |x, y| y << 12 | (x * 2) << 8 | (15 - x) << 4 | 9);
    let mut palette = pixelmap("DRRENDER.PAL", pixel_type::RGBX_888, 1, 256, Vec::new());
    palette.pixels = (0..=255u8).flat_map(|i| [0, i, i.wrapping_mul(7), 255 - i / 2]).collect();
    let pixelmaps = vec![
        pixelmap("GROUND8", pixel_type::INDEX_8, 16, 16, ground8),
        pixelmap("GROUND565", pixel_type::RGB_565, 16, 16, ground565),
        pixelmap("FENCE", pixel_type::INDEX_8, 16, 8, fence),
        pixelmap("SCREEN", pixel_type::ARGB_4444, 16, 8, screen),
        pixelmap("GLASS", pixel_type::ARGB_4444, 8, 16, glass),
        palette,
    ];
    let hierarchy = Hierarchy {
        actors: vec![
            actor("ROOT", [0.0; 3], false, None),
            actor("GROUND", [0.0; 3], false, Some("GROUND")),
            actor("FENCE", [40.0, 2.0, 50.0], false, Some("FENCE")),
            actor("SCREEN", [75.0, 2.0, 60.0], true, Some("SCREEN")),
            actor("GLASS", [60.0, 2.0, 35.0], false, Some("GLASS")),
            actor("GLASS2", [55.0, 2.0, 75.0], true, Some("GLASS")),
        ],
    };
    write_twt(&[
        ("TRACK.ACT", &write_actors(&[hierarchy])),
        ("TRACK.DAT", &write_models(&models)),
        ("TRACK.MAT", &write_materials(&materials)),
        ("TRACK.P16", &write_pixelmaps(&pixelmaps)),
    ])
}
