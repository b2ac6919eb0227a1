//! Node (N-API) binding for gsd-core.
