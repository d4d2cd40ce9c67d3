//! The `mapscope` binary: parses the command line and hands it to `cli`; everything else is
//! the library's.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = mapscope::cli::Cli::parse();
    match mapscope::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mapscope: {e:#}");
            ExitCode::from(2)
        }
    }
}
