//! uniffi binding for gsd-core.
