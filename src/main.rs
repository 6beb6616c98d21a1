use clap::Parser;

/// The server allocates and frees small buffers for every frame it sends; mimalloc does that
/// with far less contention and fragmentation than glibc's allocator (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
