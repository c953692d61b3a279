//! What every format shows, built once from the plan: the words the formats share (what
//! a plan delivers, warnings by cause).

pub(in crate::report) mod cause;
pub(in crate::report) mod delivered;
pub(in crate::report) mod designs;
pub(in crate::report) mod estate;
