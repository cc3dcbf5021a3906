//! `sqlx::migrate!` embeds `migrations/` when the crate compiles; without this, adding or
//! changing a migration would not rebuild the binary and it would run the old set.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
