use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = crease::cli::Cli::parse();
    match crease::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
