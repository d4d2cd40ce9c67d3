//! Standard output, written in one place: every line mapscope prints (command results, the
//! viewer's screenshot paths and bookmarks) goes through [`write_line`], so a closed pipe
//! (`mapscope list x | head -1`) is handled the same way everywhere instead of panicking as
//! `println!` does.

use std::io::Write;

/// `println!` for command output through [`write_line`]; a closed pipe ends the program
/// quietly, as it ends other command-line tools.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::print_or_exit(format_args!($($arg)*))
    };
}

/// Writes one line to standard output.
pub fn write_line(args: std::fmt::Arguments) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{args}")?;
    out.flush()
}

/// Writes one line of command output; a closed pipe exits with success, any other failure
/// with status 2. See `outln!`.
pub fn print_or_exit(args: std::fmt::Arguments) {
    if let Err(e) = write_line(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("mapscope: writing output: {e}");
        std::process::exit(2);
    }
}

/// Writes one line for a user watching the terminal while a window runs (the viewer): the
/// window is what matters, so a closed or failing standard output is logged, not fatal.
pub fn print_line_or_log(args: std::fmt::Arguments) {
    if let Err(e) = write_line(args) {
        log::warn!("writing to standard output: {e}");
    }
}
