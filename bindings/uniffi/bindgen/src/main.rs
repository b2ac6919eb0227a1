//! The `uniffi-bindgen` command, pinned to the same uniffi version as the binding crate.
//!
//! It runs uniffi's own command line unchanged. After a `generate` that wrote the Python
//! module (`gsd_core_uniffi.py` in `--out-dir`), it appends this repository's epilogue
//! (`epilogue.py`): safe `copy`/`pickle` behaviour for the `Registry` object and readable
//! `repr`/`str` for records and errors. Kotlin and Swift sources are left as generated.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// What is appended to the generated Python module.
const EPILOGUE: &str = include_str!("epilogue.py");

/// The first line of [`EPILOGUE`], to append it only once.
const MARKER: &str = "# --- gsd-core epilogue ---";

/// The module uniffi writes for this crate (`cdylib_name` in bindings/uniffi/uniffi.toml).
const MODULE: &str = "gsd_core_uniffi.py";

fn main() -> ExitCode {
    uniffi::uniffi_bindgen_main();
    let args: Vec<OsString> = std::env::args_os().collect();
    let Some(out_dir) = python_out_dir(&args) else {
        return ExitCode::SUCCESS;
    };
    match append_epilogue(&out_dir.join(MODULE)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "uniffi-bindgen: cannot add the epilogue to {}: {e}",
                out_dir.join(MODULE).display()
            );
            ExitCode::FAILURE
        }
    }
}

/// The `--out-dir` of a `generate` call whose languages include Python (named, or all
/// languages when none is named).
fn python_out_dir(args: &[OsString]) -> Option<PathBuf> {
    if args.get(1).is_none_or(|a| a != "generate") {
        return None;
    }
    let mut out_dir = None;
    let mut languages = Vec::new();
    let mut rest = args.iter().skip(2);
    while let Some(arg) = rest.next() {
        let text = arg.to_string_lossy();
        if let Some(value) = text.strip_prefix("--out-dir=") {
            out_dir = Some(PathBuf::from(value));
        } else if let Some(value) = text.strip_prefix("--language=") {
            languages.push(value.to_owned());
        } else if text == "--out-dir" || text == "-o" {
            out_dir = rest.next().map(PathBuf::from);
        } else if text == "--language" || text == "-l" {
            languages.extend(rest.next().map(|l| l.to_string_lossy().into_owned()));
        }
    }
    let python = languages.is_empty() || languages.iter().any(|l| l == "python");
    out_dir.filter(|_| python)
}

/// Appends [`EPILOGUE`] to the generated module, unless it is already there.
fn append_epilogue(module: &std::path::Path) -> std::io::Result<()> {
    let text = std::fs::read_to_string(module)?;
    if text.contains(MARKER) {
        return Ok(());
    }
    std::fs::write(module, format!("{text}{EPILOGUE}"))
}
