//! store (in progress)
