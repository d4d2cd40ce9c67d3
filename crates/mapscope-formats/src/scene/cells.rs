//! A level cut into convex cells joined by openings, so a renderer can draw only the cells a
//! camera can see into, as Marathon's engine walks its polygons through the lines it can see
//! through.

/// The cells of a level and which surfaces belong to each.
///
/// A cell is closed by its drawn surfaces except where an edge says it is open: every ray
/// from a camera inside a cell that reaches a pixel crosses only the openings listed here
/// (or an edge marked as leaking, which a renderer takes as "anything may be seen").
#[derive(Clone, Debug, Default)]
pub struct CellMap {
    pub cells: Vec<Cell>,
    /// The cell of every world triangle by its [`super::WorldVertex::surface`] number
    /// ([`NO_CELL`]: the triangle is drawn whenever it is in view).
    pub of_surface: Vec<u32>,
}

/// A triangle that belongs to no cell.
pub const NO_CELL: u32 = u32::MAX;

/// A vertical prism: a convex ring in the horizontal plane between a floor and a ceiling, in
/// viewer space (x and z across, y up).
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Corners as viewer (x, z), in order round the ring; empty: not a cell a camera can be
    /// in or see into.
    pub ring: Vec<[f32; 2]>,
    pub floor: f32,
    pub ceiling: f32,
    /// What lies beyond each edge, edge `k` joining `ring[k]` and `ring[k + 1]`.
    pub edges: Vec<CellEdge>,
    /// The floor or ceiling is not wholly drawn (a see-through texture): rays may leave.
    pub leaks: bool,
}

/// What a ray may cross at one edge of a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CellEdge {
    /// The cell beyond, seen through the opening from `bottom` to `top` (viewer heights).
    pub portal: Option<(u32, f32, f32)>,
    /// Part of the edge is neither drawn over by the cell's own surfaces nor a way into
    /// another cell: a ray through it may reach anything.
    pub leaks: bool,
}

impl CellMap {
    /// The cell of a surface number, if it has one.
    pub fn cell_of(&self, surface: u32) -> Option<u32> {
        self.of_surface.get(surface as usize).copied().filter(|&c| c != NO_CELL)
    }
}
