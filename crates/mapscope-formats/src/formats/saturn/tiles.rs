//! Tile sets: a grid of `width` x `height` 64x64-texel tiles placed by three 16.16 vectors, with
//! a flag/texture byte pair per tile and a light index per grid point in side streams.
//!
//! Two record layouts exist. The seed lists `mTextureDataOfs, mWidth, mHeight, mColorDataOfs,
//! Horz[3], Vert[3], Base[3], mUnknown`, which puts int32 vectors at byte 6 of a record that
//! always starts 4-aligned, where the SH-2 could not load them. Public notes from people who
//! exported the real levels put the uint16 unknown at byte 6 and the vectors at bytes 8, 20,
//! 32. Both are decoded; the file decides by which one puts the tile origins on their planes.

use glam::DVec3;

use crate::formats::{Reader, Result};

use super::level::{Plane, Vertex};

pub const TILE_RECORD_BYTES: usize = 44;

/// Flag bits of a tile's flag byte.
pub const FLIP_H: u8 = 0x10;
pub const FLIP_V: u8 = 0x20;

/// A tile record as stored, before the layout is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawTileRecord {
    /// Absolute file offset (for notes).
    pub offset: u64,
    pub bytes: [u8; TILE_RECORD_BYTES],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLayout {
    /// Vectors at bytes 6, 18, 30 and the unknown word last.
    Seed,
    /// Unknown word at byte 6, vectors at 8, 20, 32.
    UnknownFirst,
}

impl TileLayout {
    pub fn describe(self) -> &'static str {
        match self {
            TileLayout::Seed => "seed (vectors at bytes 6/18/30, uint16 unknown last)",
            TileLayout::UnknownFirst => {
                "unknown-first (uint16 unknown at byte 6, vectors at bytes 8/20/32)"
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileRecord {
    pub texture_data_ofs: u16,
    pub width: u8,
    pub height: u8,
    pub color_data_ofs: u16,
    /// 16.16 fixed point.
    pub horz: [i32; 3],
    pub vert: [i32; 3],
    pub base: [i32; 3],
    pub unknown: u16,
}

impl RawTileRecord {
    /// The record read in `layout` (through a [`Reader`] over its 44 bytes, so errors carry
    /// the record's file offset).
    pub fn decode(&self, layout: TileLayout, file: &str) -> Result<TileRecord> {
        let mut r = Reader::with_base(file, "level data: Tiles", &self.bytes, self.offset);
        let texture_data_ofs = r.u16_be()?;
        let width = r.u8()?;
        let height = r.u8()?;
        let color_data_ofs = r.u16_be()?;
        let mut unknown = if layout == TileLayout::UnknownFirst { r.u16_be()? } else { 0 };
        let mut vec3 = || -> Result<[i32; 3]> { Ok([r.i32_be()?, r.i32_be()?, r.i32_be()?]) };
        let (horz, vert, base) = (vec3()?, vec3()?, vec3()?);
        if layout == TileLayout::Seed {
            unknown = r.u16_be()?;
        }
        Ok(TileRecord {
            texture_data_ofs,
            width,
            height,
            color_data_ofs,
            horz,
            vert,
            base,
            unknown,
        })
    }
}

pub fn fixed_to_f64(v: [i32; 3]) -> DVec3 {
    DVec3::new(v[0] as f64, v[1] as f64, v[2] as f64) / 65536.0
}

/// One tile's stream entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileCell {
    pub flags: u8,
    pub texture: u8,
    /// Light indices at corners 0..3 (c0, c0+H, c0+H+V, c0+V).
    pub lights: [u8; 4],
}

impl TileRecord {
    pub fn horz_f64(&self) -> DVec3 {
        fixed_to_f64(self.horz)
    }
    pub fn vert_f64(&self) -> DVec3 {
        fixed_to_f64(self.vert)
    }
    pub fn base_f64(&self) -> DVec3 {
        fixed_to_f64(self.base)
    }

    pub fn tile_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    pub fn point_count(&self) -> usize {
        (self.width as usize + 1) * (self.height as usize + 1)
    }

    /// Grid point (gx, gy), 0..=width, 0..=height: `Base + Vert*gy + Horz*gx`, in 16.16 so
    /// neighbouring tiles share their corners exactly.
    pub fn grid_point(&self, gx: usize, gy: usize) -> DVec3 {
        let c = |k: usize| {
            self.base[k] as i64 + self.vert[k] as i64 * gy as i64 + self.horz[k] as i64 * gx as i64
        };
        DVec3::new(c(0) as f64, c(1) as f64, c(2) as f64) / 65536.0
    }

    /// Checks that both streams hold this set's entries; the message says which does not.
    pub fn check_streams(
        &self,
        textures: &[u8],
        colours: &[u8],
    ) -> std::result::Result<(), String> {
        let tex_end = self.texture_data_ofs as usize + 2 * self.tile_count();
        if tex_end > textures.len() {
            return Err(format!(
                "tile texture entries {}..{tex_end} are past the {}-byte TileTextureData",
                self.texture_data_ofs,
                textures.len()
            ));
        }
        let col_end = self.color_data_ofs as usize + self.point_count();
        if col_end > colours.len() {
            return Err(format!(
                "tile colour points {}..{col_end} are past the {}-byte TileColorData",
                self.color_data_ofs,
                colours.len()
            ));
        }
        Ok(())
    }

    /// Stream entries of tile (tx, ty); `None` when a stream is too short (see
    /// [`TileRecord::check_streams`]).
    pub fn cell(&self, tx: usize, ty: usize, textures: &[u8], colours: &[u8]) -> Option<TileCell> {
        let w = self.width as usize;
        let t = self.texture_data_ofs as usize + 2 * (ty * w + tx);
        let row = w + 1;
        let c = self.color_data_ofs as usize + ty * row + tx;
        Some(TileCell {
            flags: *textures.get(t)?,
            texture: *textures.get(t + 1)?,
            lights: [
                *colours.get(c)?,
                *colours.get(c + 1)?,
                *colours.get(c + 1 + row)?,
                *colours.get(c + row)?,
            ],
        })
    }
}

/// How far each tile origin lies from its plane under one layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutFit {
    pub layout: TileLayout,
    /// Tile sets whose origin lies within [`ON_PLANE`] units of their plane.
    pub on_plane: usize,
    /// Tile sets that could be measured (owned by a plane with a usable outline).
    pub measured: usize,
    pub total_distance: f64,
}

/// Distance (native units) under which a tile origin counts as on its plane; the 16.16
/// vectors and int16 outlines are both accurate to well under this.
pub const ON_PLANE: f64 = 2.0;

/// Picks the tile record layout that puts the most tile origins on their planes (ties: the
/// smaller total distance, then the seed's layout).
pub fn choose_layout(
    records: &[RawTileRecord],
    planes: &[Plane],
    vertices: &[Vertex],
) -> (TileLayout, [LayoutFit; 2]) {
    let fits = [TileLayout::Seed, TileLayout::UnknownFirst]
        .map(|layout| measure(layout, records, planes, vertices));
    let better = |a: &LayoutFit, b: &LayoutFit| {
        a.on_plane > b.on_plane || (a.on_plane == b.on_plane && a.total_distance < b.total_distance)
    };
    let pick = if better(&fits[1], &fits[0]) { fits[1].layout } else { fits[0].layout };
    (pick, fits)
}

fn measure(
    layout: TileLayout,
    records: &[RawTileRecord],
    planes: &[Plane],
    vertices: &[Vertex],
) -> LayoutFit {
    let mut fit = LayoutFit { layout, on_plane: 0, measured: 0, total_distance: 0.0 };
    for plane in planes {
        let (Some(set), Some(frame)) = (plane.tile_set(), PlaneFrame::from_plane(plane, vertices))
        else {
            continue;
        };
        let Some(raw) = records.get(set) else { continue };
        let Ok(rec) = raw.decode(layout, "") else { continue };
        let d = frame.distance(rec.base_f64()).abs();
        fit.measured += 1;
        if d <= ON_PLANE {
            fit.on_plane += 1;
        }
        // Garbage vectors can be astronomically far; cap so one record cannot swamp the sum.
        fit.total_distance += d.min(1e6);
    }
    fit
}

/// A plane in high precision: a point on it and its unit normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneFrame {
    pub point: DVec3,
    pub normal: DVec3,
}

impl PlaneFrame {
    /// From the plane's outline vertices (normal by Newell's method, so all four count and
    /// a slightly non-planar outline still gives its best-fit normal), oriented like the
    /// stored fixed-point normal. Falls back to the stored normal through the first outline
    /// vertex when the outline is degenerate.
    pub fn from_plane(plane: &Plane, vertices: &[Vertex]) -> Option<PlaneFrame> {
        let pts: Vec<DVec3> = plane
            .vert_indices
            .iter()
            .filter_map(|&i| vertices.get(i as usize))
            .map(|v| DVec3::new(v.pos[0] as f64, v.pos[1] as f64, v.pos[2] as f64))
            .collect();
        if pts.is_empty() {
            return None;
        }
        let stored =
            DVec3::new(plane.plane[0] as f64, plane.plane[1] as f64, plane.plane[2] as f64);
        let mut newell = DVec3::ZERO;
        for (i, a) in pts.iter().enumerate() {
            let b = pts[(i + 1) % pts.len()];
            newell += DVec3::new(
                (a.y - b.y) * (a.z + b.z),
                (a.z - b.z) * (a.x + b.x),
                (a.x - b.x) * (a.y + b.y),
            );
        }
        let centroid = pts.iter().sum::<DVec3>() / pts.len() as f64;
        let normal = if newell.length() > 1e-6 {
            let n = newell.normalize();
            if stored.length() > 0.0 && n.dot(stored) < 0.0 {
                -n
            } else {
                n
            }
        } else if stored.length() > 0.0 {
            stored.normalize()
        } else {
            return None;
        };
        Some(PlaneFrame { point: centroid, normal })
    }

    /// Signed distance along the normal.
    pub fn distance(&self, p: DVec3) -> f64 {
        (p - self.point).dot(self.normal)
    }

    pub fn project(&self, p: DVec3) -> DVec3 {
        p - self.normal * self.distance(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(layout: TileLayout, base: [i32; 3]) -> RawTileRecord {
        let mut b = [0u8; TILE_RECORD_BYTES];
        b[2] = 1;
        b[3] = 1;
        let at = if layout == TileLayout::Seed { 6 } else { 8 };
        let vals = [64 << 16, 0, 0, 0, 0, 64 << 16, base[0], base[1], base[2]];
        for (k, v) in vals.iter().enumerate() {
            b[at + 4 * k..at + 4 * k + 4].copy_from_slice(&v.to_be_bytes());
        }
        RawTileRecord { offset: 0, bytes: b }
    }

    fn floor() -> (Vec<Plane>, Vec<Vertex>) {
        let v = |x, z| Vertex { pos: [x, 100, z], color: 0 };
        let vertices = vec![v(0, 0), v(256, 0), v(256, 256), v(0, 256)];
        let plane = Plane {
            vert_indices: [0, 1, 2, 3],
            node_index: 0,
            flags: 0x100,
            collision_flags: 0,
            tile_index: 0,
            unknown_index: 0xFFFF,
            quad_start: 1,
            quad_end: 0,
            vert_start: 0,
            vert_end: 3,
            plane: [0, 16384, 0, 100],
            angle: 0,
        };
        (vec![plane], vertices)
    }

    #[test]
    fn layout_is_chosen_by_origins_on_planes() {
        let (planes, vertices) = floor();
        let base = [16 << 16, 100 << 16, 16 << 16];
        for layout in [TileLayout::Seed, TileLayout::UnknownFirst] {
            let records = [record(layout, base)];
            let (pick, fits) = choose_layout(&records, &planes, &vertices);
            assert_eq!(pick, layout, "{fits:?}");
            assert_eq!(records[0].decode(pick, "t.lev").unwrap().base, base);
        }
    }

    #[test]
    fn grid_points_are_exact_in_fixed_point() {
        let r = record(TileLayout::Seed, [1, 2, 3]).decode(TileLayout::Seed, "t.lev").unwrap();
        assert_eq!(
            r.grid_point(1, 1),
            DVec3::new(64.0 + 1.0 / 65536.0, 2.0 / 65536.0, 64.0 + 3.0 / 65536.0)
        );
    }
}
