//! Places WAD models at their map instances: model matrix, instance scale, rotation about X,
//! then Z, then Y, the instance offsets and the grid cell, in the game's axes (x right, y
//! down, z along the rows); the vertical is negated last to give native coordinates.
//!
//! The game's (column, down, row) axes are left-handed while model space is right-handed; the
//! spec does not say where the mirror happens. Model x is kept along +X and the mirror comes
//! from negating the vertical, as the fixtures do.

use glam::DMat3;

use super::geometry::{Face, FaceTexture, Origin, CELL};
use super::map_items::ModelInstance;
use super::model::Model;

/// 65536 rotation units a turn.
pub fn rotation_radians(value: u16) -> f64 {
    value as f64 * std::f64::consts::TAU / 65536.0
}

/// Rotation of an instance in game axes: X first, then Z, then Y.
fn instance_rotation(inst: &ModelInstance) -> DMat3 {
    let [rx, ry, rz] = inst.rotation.map(rotation_radians);
    DMat3::from_rotation_y(ry) * DMat3::from_rotation_z(rz) * DMat3::from_rotation_x(rx)
}

/// Native position of model vertex `v` placed by `inst`.
pub fn place_vertex(
    model: &Model,
    inst: &ModelInstance,
    rotation: &DMat3,
    v: [i16; 3],
) -> [f64; 3] {
    let m = model.transform(v.map(|c| c as f64));
    let scale = inst.scale as f64 / 256.0;
    let r = *rotation * glam::DVec3::from(m) * scale;
    let x = r.x + inst.x_offset as f64 + inst.cell[0] as f64 * CELL;
    let down = r.y + inst.vertical_offset as f64;
    let z = r.z + inst.y_offset as f64 + inst.cell[1] as f64 * CELL;
    [x, -down, z]
}

/// The faces of `model` at `inst`, textured from the WAD's texture table, double-sided: the
/// stored corner order is not consistently clockwise or counter-clockwise seen from outside
/// (the fixtures' closed SLAB has its top wound one way and its bottom and sides the other),
/// so culling by winding would open holes.
pub fn model_faces(model: &Model, inst: &ModelInstance, lut_part: u8) -> Vec<Face> {
    let rotation = instance_rotation(inst);
    let placed: Vec<[f64; 3]> =
        model.vertices.iter().map(|&v| place_vertex(model, inst, &rotation, v)).collect();
    model
        .faces
        .iter()
        .map(|f| {
            let corners = f.corners();
            Face {
                points: corners.iter().filter_map(|&i| placed.get(i as usize).copied()).collect(),
                texture_corners: (0..corners.len()).collect(),
                texture: FaceTexture::Wad(f.texture),
                lut_part,
                origin: Origin::Model,
                horizontal: false,
                double_sided: true,
            }
        })
        .collect()
}
