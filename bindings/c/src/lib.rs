//! C ABI for gsd-core.
