//! Given/when/then tests of the proposal's decisions and the review.
