//! The CPU canvas's buffers, drawn in bands of rows on every core.

/// Rows of one band: bands are dealt to the threads in turn, so that each core gets some of
/// the sky, some of the walls and some of the floor.
const BAND_ROWS: usize = 8;
/// Threads a canvas is drawn on at most.
const MAX_THREADS: usize = 8;

/// The threads a canvas is drawn on: the cores (asked once per scene; the answer reads cgroup
/// files).
pub(super) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_THREADS)
}

/// Rows `y0..y0 + rows` of the canvas.
pub(super) struct Band<'a> {
    pub(super) y0: usize,
    pub(super) rows: usize,
    pub(super) colors: &'a mut [u32],
    pub(super) depths: &'a mut [f32],
    /// Empty where the canvas keeps no palette indices.
    pub(super) keys: &'a mut [u8],
}

/// The canvas: a colour, a reverse depth (0 where nothing was drawn) and, for a family whose
/// translucent surfaces blend by palette index, that index a pixel, row-major.
pub(super) struct CanvasBuffers {
    pub(super) colors: Vec<u32>,
    pub(super) depths: Vec<f32>,
    pub(super) keys: Vec<u8>,
    pub(super) clear: u32,
    pub(super) threads: usize,
}

impl CanvasBuffers {
    /// Sizes the canvas to `w` x `h` and runs `draw` once per band of rows, the bands dealt
    /// to the threads in turn; each band starts cleared.
    pub(super) fn draw_in_bands<F>(&mut self, w: usize, h: usize, keys: bool, draw: F)
    where
        F: Fn(&mut Band) + Sync,
    {
        self.colors.resize(w * h, self.clear);
        self.depths.resize(w * h, 0.0);
        self.keys.resize(if keys { w * h } else { 0 }, 0);
        let clear = self.clear;
        let mut per_thread: Vec<Vec<Band>> = (0..self.threads).map(|_| Vec::new()).collect();
        let size = BAND_ROWS * w.max(1);
        let mut keys = self.keys.chunks_mut(size);
        let bands = self.colors.chunks_mut(size).zip(self.depths.chunks_mut(size));
        for (i, (colors, depths)) in bands.enumerate() {
            let rows = colors.len() / w.max(1);
            let keys = keys.next().unwrap_or_default();
            let band = Band { y0: i * BAND_ROWS, rows, colors, depths, keys };
            per_thread[i % self.threads].push(band);
        }
        let run = |bands: &mut Vec<Band>| {
            for band in bands {
                band.colors.fill(clear);
                band.depths.fill(0.0);
                band.keys.fill(0);
                draw(band);
            }
        };
        let Some((first, rest)) = per_thread.split_first_mut() else { return };
        std::thread::scope(|scope| {
            for bands in rest {
                scope.spawn(|| run(bands));
            }
            run(first);
        });
    }
}
