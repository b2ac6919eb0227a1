//! Host facts as plain data.
//!
//! The core never reads the machine: the caller (a binding or the CLI edge) collects the
//! user's home, the working directory, an environment snapshot and which probe paths exist
//! ([`crate::home::probe_paths`] says exactly which paths to check), and passes them in.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Everything the resolver may know about the machine it plans for. A member it does not
/// know is an error, never ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Host {
    /// The user's home directory (an absolute POSIX path; a plan refuses one that is not
    /// absolute or holds NUL). It is not normalised on its own: paths are built from it as
    /// the peer builds them, with `path.join`, which normalises the result (a home of
    /// `/home/u/` or `/h/x/..` gives the same `configHome` as `/home/u` or `/h`).
    pub home: String,
    /// The working directory: the project root for the `local` scope and the anchor of
    /// relative paths (`path.resolve`).
    pub cwd: String,
    /// Environment snapshot (only the variables a descriptor names are ever read).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Probe paths known to exist (files or directories), spelled exactly as
    /// [`crate::home::probe_paths`] lists them.
    #[serde(default)]
    pub existing_paths: BTreeSet<String>,
}

impl Host {
    /// A host with the given home and cwd, an empty environment and nothing on disk.
    #[must_use]
    pub fn new(home: impl Into<String>, cwd: impl Into<String>) -> Self {
        Self {
            home: home.into(),
            cwd: cwd.into(),
            ..Self::default()
        }
    }

    /// Reads host facts from JSON text as every binding does ([`crate::strict::read`]):
    /// objects only, no repeated or unknown member (a repeated `env` entry included), and a
    /// failure that names the value at fault (`env.HOME`, `existingPaths[2]`).
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for text that is not host facts.
    pub fn from_json(text: &str) -> Result<Self, crate::Error> {
        crate::strict::read(text, "host")
    }

    /// The value of an environment variable, when set.
    #[must_use]
    pub fn var(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }

    /// Whether `path` is known to exist.
    #[must_use]
    pub fn exists(&self, path: &str) -> bool {
        self.existing_paths.contains(path)
    }
}
