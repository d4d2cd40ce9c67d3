//! Static level geometry from the map, in native coordinates (X = column * 256, Y up =
//! minus the game's downward vertical, Z = row * 256): terrain tiles, extra terrain tiles and
//! block instances, each face tied to the map texture definition it shows.
//!
//! Corner order everywhere is the grid's TL = (col,row), TR = (col+1,row), BR = (col+1,row+1),
//! BL = (col,row+1), which is also the order of texture definition corners.

use super::map::{BlockDef, BlockFace, MapFile};
use super::map_items::{rotation, BlockInstance, ExtraTile, GRID};

/// Game units per grid cell.
pub const CELL: f64 = 256.0;

/// One textured polygon (a quad, or a triangle for model faces), corners counter-clockwise
/// seen from the side it faces.
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    pub points: Vec<[f64; 3]>,
    /// For each point, which corner of the texture definition it shows.
    pub texture_corners: Vec<usize>,
    pub texture: FaceTexture,
    /// LUT1 lighting part.
    pub lut_part: u8,
    pub origin: Origin,
    /// Horizontal surfaces (terrain, tops, bottoms) as opposed to walls.
    pub horizontal: bool,
    /// Seen from both sides (models); otherwise only from the side it faces.
    pub double_sided: bool,
}

/// What a face was built from (the scene's export parts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Terrain,
    ExtraTile,
    Block,
    Model,
}

impl Origin {
    pub const ALL: [Origin; 4] = [Origin::Terrain, Origin::ExtraTile, Origin::Block, Origin::Model];

    pub fn name(self) -> &'static str {
        match self {
            Origin::Terrain => "terrain",
            Origin::ExtraTile => "extra tiles",
            Origin::Block => "blocks",
            Origin::Model => "models",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaceTexture {
    /// A definition in the map's texture list.
    Map(u16),
    /// A definition in the WAD's texture table (models).
    Wad(u32),
}

/// Static faces and what had to be skipped.
#[derive(Clone, Debug, Default)]
pub struct StaticGeometry {
    pub faces: Vec<Face>,
    pub visible_tiles: usize,
    pub invisible_tiles: usize,
    /// Items whose block definition or face texture does not exist.
    pub bad_block_defs: usize,
    pub bad_textures: usize,
}

/// LUT1 part from a tile's or block's brightness adjustment (the spec does not say how the
/// value maps to the 16 parts; it is taken as the part number, clamped).
pub fn brightness_part(brightness: i16) -> u8 {
    brightness.clamp(0, 15) as u8
}

pub fn build_static(map: &MapFile) -> StaticGeometry {
    let mut g = StaticGeometry::default();
    add_terrain(map, &mut g);
    for tile in &map.items.extra_tiles {
        add_extra_tile(map, tile, &mut g);
    }
    for block in &map.items.blocks {
        add_block(map, block, &mut g);
    }
    g
}

/// Corner positions (x, z) of a cell in TL, TR, BR, BL order.
fn cell_corners(col: usize, row: usize) -> [[f64; 2]; 4] {
    let (x0, z0) = (col as f64 * CELL, row as f64 * CELL);
    let (x1, z1) = (x0 + CELL, z0 + CELL);
    [[x0, z0], [x1, z0], [x1, z1], [x0, z1]]
}

/// Height of grid point (col,row): the terrain offset of the tile whose top-left corner it is
/// (0 past the grid's edge or where the terrain is missing), negated to point up.
fn grid_point_height(map: &MapFile, col: usize, row: usize) -> f64 {
    map.items.terrain_at(col, row).map_or(0.0, |t| -(t.offset as f64))
}

/// The definition's texture, or `None` (counted as bad) when it is out of range.
fn checked_texture(map: &MapFile, texture: u16, g: &mut StaticGeometry) -> Option<u16> {
    if texture == 0 {
        return None;
    }
    if texture as usize >= map.texture_defs.len() {
        g.bad_textures += 1;
        return None;
    }
    Some(texture)
}

fn block_def<'a>(map: &'a MapFile, index: u32, g: &mut StaticGeometry) -> Option<&'a BlockDef> {
    let def = map.block_defs.get(index as usize);
    if def.is_none() {
        g.bad_block_defs += 1;
    }
    def
}

fn add_terrain(map: &MapFile, g: &mut StaticGeometry) {
    for (i, tile) in map.items.terrain.iter().enumerate() {
        let (col, row) = (i % GRID, i / GRID);
        let Some(def) = block_def(map, tile.block_def, g) else { continue };
        if def.terrain_texture() == 0 {
            g.invisible_tiles += 1;
            continue;
        }
        let Some(texture) = checked_texture(map, def.terrain_texture(), g) else { continue };
        g.visible_tiles += 1;
        let heights = [
            grid_point_height(map, col, row),
            grid_point_height(map, col + 1, row),
            grid_point_height(map, col + 1, row + 1),
            grid_point_height(map, col, row + 1),
        ];
        g.faces.push(ground_face(
            col,
            row,
            heights,
            texture,
            rotation(tile.flags),
            brightness_part(tile.brightness),
            Origin::Terrain,
        ));
    }
}

fn add_extra_tile(map: &MapFile, tile: &ExtraTile, g: &mut StaticGeometry) {
    let Some(def) = block_def(map, tile.block_def, g) else { return };
    let Some(texture) = checked_texture(map, def.terrain_texture(), g) else { return };
    let heights = tile.y.map(|y| -(y as f64));
    let (col, row) = (tile.cell[0] as usize, tile.cell[1] as usize);
    g.faces.push(ground_face(
        col,
        row,
        heights,
        texture,
        rotation(tile.flags),
        brightness_part(tile.brightness),
        Origin::ExtraTile,
    ));
}

/// A terrain-style face seen from above; texture corners turn with the rotation as the
/// bottom faces do (corner k shows definition corner k - rot).
fn ground_face(
    col: usize,
    row: usize,
    heights: [f64; 4],
    texture: u16,
    rot: usize,
    lut_part: u8,
    origin: Origin,
) -> Face {
    let xz = cell_corners(col, row);
    let points = (0..4).map(|k| [xz[k][0], heights[k], xz[k][1]]).collect();
    oriented(
        Face {
            points,
            texture_corners: (0..4).map(|k| (k + 4 - rot) % 4).collect(),
            texture: FaceTexture::Map(texture),
            lut_part,
            origin,
            horizontal: true,
            double_sided: false,
        },
        [0.0, 1.0, 0.0],
    )
}

/// Side slots in grid order: (face, corner a, corner b, outward normal); a then b is left to
/// right seen from outside.
const SIDES: [(BlockFace, usize, usize, [f64; 3]); 4] = [
    (BlockFace::Left, 0, 3, [-1.0, 0.0, 0.0]),
    (BlockFace::Front, 3, 2, [0.0, 0.0, 1.0]),
    (BlockFace::Right, 2, 1, [1.0, 0.0, 0.0]),
    (BlockFace::Back, 1, 0, [0.0, 0.0, -1.0]),
];

/// Final vertex heights of a block instance (native, up positive): the definition's heights
/// rotated, then the overall adjustment, then the displacements x4.
pub fn block_heights(def: &BlockDef, block: &BlockInstance) -> ([f64; 4], [f64; 4]) {
    let rot = rotation(block.flags);
    let overall = block.overall as f64;
    let h = |base: usize, k: usize| {
        let y = def.y[base + (k + rot) % 4] as f64 + 4.0 * block.displacement[base + k] as f64;
        -(overall + y)
    };
    ([0, 1, 2, 3].map(|k| h(0, k)), [0, 1, 2, 3].map(|k| h(4, k)))
}

fn add_block(map: &MapFile, block: &BlockInstance, g: &mut StaticGeometry) {
    let Some(def) = block_def(map, block.block_def, g) else { return };
    let rot = rotation(block.flags);
    let lut_part = brightness_part(block.brightness);
    let (bottom, top) = block_heights(def, block);
    let xz = cell_corners(block.cell[0] as usize, block.cell[1] as usize);
    let at = |k: usize, y: &[f64; 4]| [xz[k][0], y[k], xz[k][1]];
    for outside in [false, true] {
        let sign = if outside { 1.0 } else { -1.0 };
        for (slot, &(_, a, b, normal)) in SIDES.iter().enumerate() {
            // Rotation r shows the texture of the side r slots before this one.
            let face = SIDES[(slot + 4 - rot) % 4].0;
            let Some(texture) = checked_texture(map, def.texture(face, outside), g) else {
                continue;
            };
            let points = vec![at(a, &top), at(b, &top), at(b, &bottom), at(a, &bottom)];
            g.faces.push(oriented(
                Face {
                    points,
                    texture_corners: vec![0, 1, 2, 3],
                    texture: FaceTexture::Map(texture),
                    lut_part,
                    origin: Origin::Block,
                    horizontal: false,
                    double_sided: false,
                },
                normal.map(|n| n * sign),
            ));
        }
        if let Some(texture) = checked_texture(map, def.texture(BlockFace::Top, outside), g) {
            // Top faces turn their texture the other way from everything else.
            g.faces.push(oriented(
                Face {
                    points: (0..4).map(|k| at(k, &top)).collect(),
                    texture_corners: (0..4).map(|k| (k + rot) % 4).collect(),
                    texture: FaceTexture::Map(texture),
                    lut_part,
                    origin: Origin::Block,
                    horizontal: true,
                    double_sided: false,
                },
                [0.0, sign, 0.0],
            ));
        }
        if let Some(texture) = checked_texture(map, def.texture(BlockFace::Bottom, outside), g) {
            g.faces.push(oriented(
                Face {
                    points: (0..4).map(|k| at(k, &bottom)).collect(),
                    texture_corners: (0..4).map(|k| (k + 4 - rot) % 4).collect(),
                    texture: FaceTexture::Map(texture),
                    lut_part,
                    origin: Origin::Block,
                    horizontal: true,
                    double_sided: false,
                },
                [0.0, -sign, 0.0],
            ));
        }
    }
}

/// Puts the face's corners in counter-clockwise order seen from the `facing` side (Newell's
/// normal decides), so back-face culling keeps the side the face is meant to be seen from.
fn oriented(mut face: Face, facing: [f64; 3]) -> Face {
    let n = newell_normal(&face.points);
    if n[0] * facing[0] + n[1] * facing[1] + n[2] * facing[2] < 0.0 {
        face.points.reverse();
        face.texture_corners.reverse();
    }
    face
}

/// Polygon normal by Newell's method (counter-clockwise corners give a normal towards the
/// viewer); robust for quads with a collapsed edge.
pub fn newell_normal(points: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    for (i, p) in points.iter().enumerate() {
        let q = points[(i + 1) % points.len()];
        n[0] += (p[1] - q[1]) * (p[2] + q[2]);
        n[1] += (p[2] - q[2]) * (p[0] + q[0]);
        n[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    n
}
