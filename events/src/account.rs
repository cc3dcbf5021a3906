//! account (in progress)
