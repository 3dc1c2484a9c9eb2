//! The `schemarouter` command-line tool; all logic lives in the library.

fn main() -> std::process::ExitCode {
    schemarouter::cli::main()
}
