//! What every format shows, built once from the plan: sections of typed tables
//! ([`table`]: title, columns with their units, rows of typed cells), which text,
//! Markdown, HTML and the workbook each render, the headline cards, and the words the
//! formats share (what a plan delivers, the designs' cells, the
//! estate's words).

pub mod cluster_plans;
pub(in crate::report) mod delivered;
pub mod designs;
pub(in crate::report) mod estate;
pub mod estate_headline;
pub mod estate_sections;
pub mod headline;
pub mod plan;
pub mod plan_choices;
pub mod plan_details;
pub mod table;
pub mod warnings;
