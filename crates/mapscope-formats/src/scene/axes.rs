//! Each format's native axes (z up or y up, right- or left-handed) and their conversion to
//! the renderer's right-handed y-up space, so that cameras given in native coordinates land
//! where the game would put them.

use glam::{DVec3, Vec3};

/// How a format's native coordinates map to the viewer's right-handed, Y-up space.
///
/// Native coordinates are what users type (`--camera`) and see (`info`, overlay);
/// the renderer only ever sees viewer space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axes {
    /// X east, Y north, Z up (Doom map units): viewer = (x, z, -y).
    ZUpRightHanded,
    /// Already Y up, right-handed.
    YUp,
    /// X right, Y up, Z forward, left-handed (Saturn Quake): viewer = (x, y, -z).
    YUpLeftHanded,
    /// X east, Y south (down the overhead map), Z up, left-handed (Marathon): viewer =
    /// (x, z, y); native facing angles run from +X towards +Y.
    ZUpLeftHanded,
}

impl Axes {
    pub fn to_viewer(self, p: Vec3) -> Vec3 {
        match self {
            Axes::ZUpRightHanded => Vec3::new(p.x, p.z, -p.y),
            Axes::YUp => p,
            Axes::YUpLeftHanded => Vec3::new(p.x, p.y, -p.z),
            Axes::ZUpLeftHanded => Vec3::new(p.x, p.z, p.y),
        }
    }

    pub fn to_native(self, v: Vec3) -> Vec3 {
        match self {
            Axes::ZUpRightHanded => Vec3::new(v.x, -v.z, v.y),
            Axes::YUp => v,
            Axes::YUpLeftHanded => Vec3::new(v.x, v.y, -v.z),
            Axes::ZUpLeftHanded => Vec3::new(v.x, v.z, v.y),
        }
    }

    /// [`Axes::to_viewer`] in double precision (cameras).
    pub fn to_viewer_f64(self, p: DVec3) -> DVec3 {
        match self {
            Axes::ZUpRightHanded => DVec3::new(p.x, p.z, -p.y),
            Axes::YUp => p,
            Axes::YUpLeftHanded => DVec3::new(p.x, p.y, -p.z),
            Axes::ZUpLeftHanded => DVec3::new(p.x, p.z, p.y),
        }
    }

    /// [`Axes::to_native`] in double precision (cameras).
    pub fn to_native_f64(self, v: DVec3) -> DVec3 {
        match self {
            Axes::ZUpRightHanded => DVec3::new(v.x, -v.z, v.y),
            Axes::YUp => v,
            Axes::YUpLeftHanded => DVec3::new(v.x, v.y, -v.z),
            Axes::ZUpLeftHanded => DVec3::new(v.x, v.z, v.y),
        }
    }

    /// Viewer yaw (radians, 0 = looking along +X, counter-clockwise seen from above)
    /// for a native facing angle in degrees.
    pub fn yaw_to_viewer(self, native_degrees: f64) -> f64 {
        match self {
            Axes::ZUpLeftHanded => -native_degrees.to_radians(),
            _ => native_degrees.to_radians(),
        }
    }

    pub fn yaw_to_native(self, viewer_radians: f64) -> f64 {
        match self {
            Axes::ZUpLeftHanded => (-viewer_radians.to_degrees()).rem_euclid(360.0),
            _ => viewer_radians.to_degrees().rem_euclid(360.0),
        }
    }
}
