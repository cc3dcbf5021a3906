//! runtime (in progress)
