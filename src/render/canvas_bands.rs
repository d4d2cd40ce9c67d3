//! A CPU canvas (a colour, a reverse depth and a palette index a pixel, row-major) drawn in
//! bands of rows on every core. Doom's canvas (`vanilla/canvas.rs`) gives each core one band,
//! because each band walks every wall column and flat span of the frame; the triangle canvas
//! (`soft`) hands out 8-row bands top to bottom to whichever core is free, so that each gets
//! some of the sky, the walls and the floor, and a core held up elsewhere is made up for.

use std::ops::Range;
use std::sync::Mutex;

/// Threads a canvas is drawn on at most.
const MAX_THREADS: usize = 8;

/// The threads a canvas is drawn on: the cores (asked once per scene; the answer reads cgroup
/// files).
pub(super) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_THREADS)
}

/// Rows `y0..` of a canvas, `w` pixels wide.
pub(super) struct Band<'a> {
    pub(super) y0: usize,
    pub(super) w: usize,
    pub(super) colors: &'a mut [u32],
    pub(super) depths: &'a mut [f32],
    /// Each pixel's palette index; empty where the canvas keeps none.
    pub(super) indices: &'a mut [u8],
}

impl Band<'_> {
    /// The band's rows: `y0..y1`.
    pub(super) fn rows(&self) -> Range<usize> {
        self.y0..self.y0 + self.colors.len() / self.w.max(1)
    }
}

/// How a canvas is split: bands of `rows` rows, taken by `threads` threads as each is free,
/// each band cleared to colour `clear`, depth 0 and index 0 before it is drawn; `indices`
/// whether the canvas keeps a palette index a pixel.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bands {
    pub(super) rows: usize,
    pub(super) threads: usize,
    pub(super) clear: u32,
    pub(super) indices: bool,
}

/// Sizes the canvas's buffers to `w` x `h` and runs `draw` once per band, as `how` says.
pub(super) fn draw_in_bands<F>(
    colors: &mut Vec<u32>,
    depths: &mut Vec<f32>,
    indices: &mut Vec<u8>,
    (w, h): (usize, usize),
    how: Bands,
    draw: F,
) where
    F: Fn(&mut Band) + Sync,
{
    let clear = how.clear;
    colors.resize(w * h, clear);
    depths.resize(w * h, 0.0);
    indices.resize(if how.indices { w * h } else { 0 }, 0);
    let (band_rows, threads) = (how.rows.max(1), how.threads.max(1));
    let size = band_rows * w.max(1);
    let mut indices = indices.chunks_mut(size);
    let bands: Vec<Band> = colors
        .chunks_mut(size)
        .zip(depths.chunks_mut(size))
        .enumerate()
        .map(|(i, (colors, depths))| {
            let indices = indices.next().unwrap_or_default();
            Band { y0: i * band_rows, w, colors, depths, indices }
        })
        .collect();
    // Each thread takes the next band when it is done with one, top to bottom, so that a core
    // whose bands hold cheap rows (sky, far walls) helps with the others instead of waiting.
    let queue = Mutex::new(bands.into_iter());
    let run = || loop {
        let next = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).next();
        let Some(mut band) = next else { return };
        band.colors.fill(clear);
        band.depths.fill(0.0);
        band.indices.fill(0);
        draw(&mut band);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(run);
        }
        run();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_drawn_once_on_a_cleared_band() {
        for (band_rows, threads) in [(8, 2), (50, 2), (1, 3), (100, 1)] {
            let (mut colors, mut depths, mut indices) = (vec![7; 4], Vec::new(), Vec::new());
            let how = Bands { rows: band_rows, threads, clear: 9, indices: true };
            draw_in_bands(&mut colors, &mut depths, &mut indices, (5, 23), how, |band| {
                assert!(
                    band.colors.iter().all(|&p| p == 9) && band.indices.len() == band.colors.len()
                );
                for y in band.rows() {
                    let at = (y - band.y0) * band.w;
                    band.colors[at..at + band.w].fill(y as u32 + 100);
                }
            });
            let rows: Vec<u32> = colors.chunks(5).map(|r| r[0]).collect();
            assert_eq!(rows, (100..123).collect::<Vec<u32>>(), "{band_rows} rows, {threads}");
        }
    }
}
