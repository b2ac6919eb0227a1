// Shared by build.rs and tests/header.rs (`include!`), so the header the build writes and
// the one the test expects carry the same version macros.

/// The version a header describes, as macros a program can test at compile time and
/// compare with `gsd_version()` at run time (the library it loaded).
fn version_macros(version: &str, major: &str, minor: &str, patch: &str) -> String {
    format!(
        "
/*
 * The version of this header. gsd_version() gives the version of the library loaded; a
 * program can refuse to run when the two differ:
 *     if (strcmp(gsd_version(), GSD_CORE_VERSION) != 0) ...
 * Before 1.0 any minor version may change the ABI.
 */
#define GSD_CORE_VERSION \"{version}\"
#define GSD_CORE_VERSION_MAJOR {major}
#define GSD_CORE_VERSION_MINOR {minor}
#define GSD_CORE_VERSION_PATCH {patch}"
    )
}
