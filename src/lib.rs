//! # dsplan
//!
//! Plans Azure NetApp Files (ANF) NFS datastores for Azure VMware Solution (AVS) from an
//! RVTools export: how many datastores, of what size, on which service level, for the lowest
//! monthly cost that meets the capacity, IOPS and MiB/s targets.
//!
//! Pipeline (data flows one way):
//! [`ingest`] (RVTools files) -> [`inventory::Inventory`] -> [`demand`] -> [`optimize`]
//! (good_lp MILP over the [`catalog`] and the [`perf`] model) -> [`plan::Plan`] -> [`report`].
#![deny(missing_docs)]

pub mod catalog;
pub mod demand;
pub mod ingest;
pub mod inventory;
pub mod numbers;
pub mod optimize;
pub mod perf;
pub mod plan;
pub mod report;
pub mod vsan;
