//! declaration (in progress)
