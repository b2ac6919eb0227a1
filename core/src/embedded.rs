//! The first-party registry, compiled in from `capabilities/` by `build.rs`.

/// One embedded capability folder: its manifest text and the files beside it.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedCapability {
    /// Folder name (must equal the manifest id).
    pub folder: &'static str,
    /// `capability.json` text.
    pub manifest: &'static str,
    /// Other files of the folder (fragments), as `(relative path with '/', text)`.
    pub fragments: &'static [(&'static str, &'static str)],
}

include!(concat!(env!("OUT_DIR"), "/embedded_capabilities.rs"));

/// Every embedded capability folder, sorted by folder name.
#[must_use]
pub fn first_party() -> &'static [EmbeddedCapability] {
    FIRST_PARTY
}

#[cfg(test)]
mod tests {
    #[test]
    fn embeds_the_46_first_party_capabilities() {
        let all = super::first_party();
        assert_eq!(all.len(), 46);
        assert!(all.windows(2).all(|w| w[0].folder < w[1].folder));
    }
}
