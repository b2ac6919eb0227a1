//! gsd-core decides how GSD is installed into an AI coding host CLI.
//!
//! Every per-runtime difference is data: a `role: "runtime"` capability descriptor over a
//! closed vocabulary ([`vocab`]). The core turns *(runtime × scope × registry × host facts)*
//! into one immutable [`Plan`] value. It does no IO: the host (home, cwd, environment,
//! which probe paths exist) is plain data passed in, and the caller performs the writes.
//!
//! # Example
//!
//! ```
//! use gsd_core::{Registry, Scope};
//!
//! let registry = Registry::first_party();
//! let claude = registry.runtime("claude").expect("claude is a first-party runtime");
//! assert_eq!(claude.settings_file(Scope::Global), Some("settings.json"));
//! ```
#![deny(missing_docs)]

pub mod diagnostic;
pub mod embedded;
pub mod error;
pub mod install_manifest;
pub mod manifest;
pub mod registry;
pub mod vocab;

pub use diagnostic::{Diagnostic, Severity};
pub use error::{Error, ErrorCode};
pub use install_manifest::{
    InstallManifest, InstallManifestRead, InstallManifestRecord, ManifestMode,
    read_install_manifest,
};
pub use manifest::{ArtifactLayout, Capability, ConfigHome, LayoutEntry, RuntimeDescriptor};
pub use registry::Registry;
pub use vocab::Scope;
