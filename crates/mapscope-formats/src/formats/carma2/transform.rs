//! BRender's row-vector matrices: `br_matrix34` for actors, `br_matrix23` for material UVs.

/// Four rows of three: the images of the X, Y and Z axes, then the position. A point `p`
/// (row vector) maps to `p * M`; a child's world matrix is `M_child * M_parent`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix34(pub [[f32; 3]; 4]);

impl Matrix34 {
    pub const IDENTITY: Matrix34 =
        Matrix34([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]);

    /// The 12 floats of record 0x2B in file order.
    pub fn from_floats(f: [f32; 12]) -> Matrix34 {
        Matrix34([[f[0], f[1], f[2]], [f[3], f[4], f[5]], [f[6], f[7], f[8]], [f[9], f[10], f[11]]])
    }

    pub fn transform_point(&self, p: [f32; 3]) -> [f32; 3] {
        let v = self.apply_linear(p);
        let t = self.0[3];
        [v[0] + t[0], v[1] + t[1], v[2] + t[2]]
    }

    /// This matrix followed by `parent`: `p * self * parent`.
    pub fn then(&self, parent: &Matrix34) -> Matrix34 {
        let mut out = [[0f32; 3]; 4];
        for (row, axis) in out[..3].iter_mut().zip(&self.0[..3]) {
            *row = parent.apply_linear(*axis);
        }
        out[3] = parent.transform_point(self.0[3]);
        Matrix34(out)
    }

    fn apply_linear(&self, v: [f32; 3]) -> [f32; 3] {
        let m = &self.0;
        let mut out = [0f32; 3];
        for (axis, &c) in m[..3].iter().zip(&v) {
            for (o, a) in out.iter_mut().zip(axis) {
                *o += c * a;
            }
        }
        out
    }

    /// Negative when the matrix mirrors, which turns the winding of faces around.
    pub fn determinant(&self) -> f32 {
        let [a, b, c] = [self.0[0], self.0[1], self.0[2]];
        a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0])
    }
}

/// A material's 2D texture matrix, three rows of two: `u' = u*m00 + v*m10 + m20`,
/// `v' = u*m01 + v*m11 + m21`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix23(pub [[f32; 2]; 3]);

impl Matrix23 {
    pub const IDENTITY: Matrix23 = Matrix23([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]);

    pub fn from_floats(f: [f32; 6]) -> Matrix23 {
        Matrix23([[f[0], f[1]], [f[2], f[3]], [f[4], f[5]]])
    }

    pub fn apply(&self, [u, v]: [f32; 2]) -> [f32; 2] {
        let m = &self.0;
        [u * m[0][0] + v * m[1][0] + m[2][0], u * m[0][1] + v * m[1][1] + m[2][1]]
    }

    pub fn to_floats(self) -> [f32; 6] {
        let m = self.0;
        [m[0][0], m[0][1], m[1][0], m[1][1], m[2][0], m[2][1]]
    }
}

/// An axis-aligned box (record 0x32: min xyz, max xyz).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

impl Bounds {
    /// The box around `points`, or `None` when there are none.
    pub fn around(points: impl IntoIterator<Item = [f32; 3]>) -> Option<Bounds> {
        let mut it = points.into_iter();
        let first = it.next()?;
        Some(it.fold(Bounds { min: first, max: first }, |b, p| b.with(p)))
    }

    pub fn with(self, p: [f32; 3]) -> Bounds {
        let mut b = self;
        for ((lo, hi), v) in b.min.iter_mut().zip(&mut b.max).zip(p) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
        b
    }

    pub fn union(self, other: Bounds) -> Bounds {
        self.with(other.min).with(other.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_axis_images_and_children_compose_before_parents() {
        // +90 degrees about Y: X -> -Z, Z -> +X.
        let rot = Matrix34([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [450.0, 0.0, 0.0]]);
        assert_eq!(rot.transform_point([12.0, 6.0, 0.0]), [450.0, 6.0, -12.0]);
        let child = Matrix34([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [12.0, 6.0, 0.0]]);
        let world = child.then(&rot);
        assert_eq!(world.0[3], [450.0, 6.0, -12.0]);
        assert_eq!(world.0[0], [0.0, 0.0, -1.0]);
        assert_eq!(rot.determinant(), 1.0);
        let mirror = Matrix34([[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0; 3]]);
        assert_eq!(mirror.determinant(), -1.0);
    }

    #[test]
    fn uv_matrix_rows_scale_then_translate() {
        let m = Matrix23::from_floats([0.5, 0.0, 0.0, 1.0, 0.25, 0.0]);
        assert_eq!(m.apply([1.0, 0.5]), [0.75, 0.5]);
        assert_eq!(m.to_floats(), [0.5, 0.0, 0.0, 1.0, 0.25, 0.0]);
    }

    #[test]
    fn bounds_grow_around_points() {
        let b = Bounds::around([[1.0, 2.0, 3.0], [-1.0, 5.0, 0.0]]).unwrap();
        assert_eq!(b, Bounds { min: [-1.0, 2.0, 0.0], max: [1.0, 5.0, 3.0] });
        assert!(Bounds::around([]).is_none());
    }
}
