//! The `dsplan` command line.
fn main() {}
