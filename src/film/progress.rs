//! A progress bar on standard error while `film` renders, drawn only where standard error is
//! a terminal (a script or a test reading it sees nothing of it).

use std::io::{IsTerminal, Write};
use std::time::Instant;

const WIDTH: usize = 30;

pub struct Progress {
    total: usize,
    started: Instant,
    shown: bool,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress { total, started: Instant::now(), shown: std::io::stderr().is_terminal() }
    }

    /// `done` frames of the total are written.
    pub fn update(&self, done: usize) {
        if !self.shown {
            return;
        }
        let total = self.total.max(1);
        let filled = WIDTH * done.min(total) / total;
        let elapsed = self.started.elapsed().as_secs_f64();
        let fps = if elapsed > 0.0 { done as f64 / elapsed } else { 0.0 };
        let left = if fps > 0.0 { (total - done.min(total)) as f64 / fps } else { 0.0 };
        let mut err = std::io::stderr().lock();
        // A closed terminal is no reason to stop the film.
        let _ = write!(
            err,
            "\r[{}{}] {done}/{total} frames  {fps:.1} fps  {left:.0} s left ",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled)
        );
        let _ = err.flush();
    }

    /// Ends the bar's line.
    pub fn finish(&self) {
        if self.shown {
            let _ = writeln!(std::io::stderr());
        }
    }
}
