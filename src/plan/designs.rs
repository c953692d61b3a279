//! The estate's three designs side by side ([`EstateDesigns`]): vSAN alone, ANF for all VM
//! data, and the hybrid (per cluster, the VMs the compute hosts' vSAN holds stay there, the
//! others go to ANF datastores, or more hosts where they are cheaper), for the estate and
//! per AVS cluster, with the ExpressRoute gateway the ANF datastores need.

use serde::{Deserialize, Serialize};

/// Where an estate design puts the VMs' data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Design {
    /// Every VM's data on the vSAN of its cluster's hosts: each cluster grows until its data
    /// fits (past 16 hosts, several clusters).
    Vsan,
    /// Every VM's data on ANF datastores: hosts sized for compute (and raised where the
    /// datastores' targets need more flows).
    #[default]
    Anf,
    /// Per AVS cluster, the cheapest split: the VMs kept on the compute hosts' vSAN (or on
    /// more hosts) and the rest on ANF datastores.
    Hybrid,
}

impl Design {
    /// The snake_case name, as in the JSON and `design` (`vsan`, `anf`, `hybrid`).
    pub fn as_str(self) -> &'static str {
        match self {
            Design::Vsan => "vsan",
            Design::Anf => "anf",
            Design::Hybrid => "hybrid",
        }
    }

    /// The name a report shows (`vSAN alone`, `ANF for all`, `hybrid`).
    pub fn label(self) -> &'static str {
        match self {
            Design::Vsan => "vSAN alone",
            Design::Anf => "ANF for all",
            Design::Hybrid => "hybrid",
        }
    }
}

impl std::fmt::Display for Design {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A design name no design has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown design '{given}' (vsan, anf or hybrid)")]
#[non_exhaustive]
pub struct UnknownDesign {
    /// The name given, clipped as messages quote values.
    pub given: String,
}

impl std::str::FromStr for Design {
    type Err = UnknownDesign;

    /// A design by its name (`vsan`, `anf`, `hybrid`) or its label (`vSAN alone`, `ANF
    /// for all`), any case: `"hybrid".parse::<Design>()` is [`Design::Hybrid`].
    ///
    /// ```
    /// use dsplan::plan::Design;
    ///
    /// assert_eq!("ANF".parse::<Design>(), Ok(Design::Anf));
    /// assert_eq!("vSAN alone".parse::<Design>(), Ok(Design::Vsan));
    /// assert!("vsna".parse::<Design>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        [Design::Vsan, Design::Anf, Design::Hybrid]
            .into_iter()
            .find(|d| s.eq_ignore_ascii_case(d.as_str()) || s.eq_ignore_ascii_case(d.label()))
            .ok_or_else(|| UnknownDesign {
                given: crate::numbers::clip(s),
            })
    }
}

/// One design of the estate with its cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct DesignTotal {
    /// The design.
    pub design: Design,
    /// Whether it is the plan's.
    pub chosen: bool,
    /// Whether it can be built (every cluster's ANF side meets its targets).
    pub feasible: bool,
    /// AVS hosts.
    pub hosts: u32,
    /// AVS clusters.
    pub clusters: u32,
    /// Private clouds.
    pub private_clouds: u32,
    /// Hosts, USD per month (x 730 h), where the host price is known.
    pub hosts_usd_per_month: Option<f64>,
    /// ANF datastores, USD per month: what planning the design's split gives pay as you go
    /// (each cluster's share of a shared pool priced per GiB, plus the shared pools'
    /// rounding up to whole TiB; or a pool per cluster where that costs less), or the plan's
    /// own figure where planned (the estate's reservations included).
    pub anf_usd_per_month: f64,
    /// ExpressRoute gateways bought (beyond `existing_er_gateways`).
    pub gateways: u32,
    /// Those gateways, USD per month.
    pub gateway_usd_per_month: f64,
    /// Hosts + ANF + gateways, USD per month, where the host price is known.
    pub total_usd_per_month: Option<f64>,
    /// A year of it, USD (the chosen design's as the summary counts it; the others 12
    /// months).
    pub total_usd_per_year: Option<f64>,
    /// Data on vSAN (after growth and snapshot reserve), TiB.
    pub vsan_data_tib: f64,
    /// Data on ANF (after growth and snapshot reserve, before headroom), TiB.
    pub anf_data_tib: f64,
    /// VMs whose data is on vSAN.
    pub vms_on_vsan: usize,
    /// VMs whose data is on ANF.
    pub vms_on_anf: usize,
    /// What its storage is predicted to deliver, small-block IOPS: each cluster's vSAN
    /// envelope at its checked hosts (beside its ANF traffic) and its ANF datastores'
    /// predictions, added; 0 when not worked out.
    #[serde(default)]
    pub predicted_iops: f64,
    /// Large-block MiB/s likewise.
    #[serde(default)]
    pub predicted_throughput_mibps: f64,
    /// What it is, and why chosen or not (or why it cannot be built).
    pub note: String,
}

/// One design of one AVS cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClusterDesign {
    /// Whether it can be built (`false`: its ANF side cannot meet its targets).
    pub feasible: bool,
    /// The cluster's host SKU in this design: the estate's, or (AV64 in a Gen 1 private
    /// cloud) the first-cluster SKU the design moves it to; empty in plans made before it
    /// was recorded.
    #[serde(default)]
    pub sku: String,
    /// Hosts (vSAN alone past 16: over several clusters).
    pub hosts: u32,
    /// Data those hosts' vSAN can hold full to the slack, GiB (policy by cluster size,
    /// slack, dedup, the raw capacity AVS uses itself); 0 when not worked out. The designs
    /// keep at most this / (1 + `headroom_pct` / 100) on it, the headroom the ANF
    /// datastores keep.
    pub vsan_usable_gib: f64,
    /// Data on vSAN, GiB.
    pub vsan_data_gib: f64,
    /// Data on ANF, GiB.
    pub anf_data_gib: f64,
    /// VMs on ANF.
    pub vms_on_anf: usize,
    /// Hosts, USD per month, where the host price is known.
    pub hosts_usd_per_month: Option<f64>,
    /// Its ANF datastores, USD per month, priced as [`ClusterDesign::anf_priced_on`] says:
    /// in a planned design (the chosen one; with a reservation or peak months every ANF
    /// design) its plan's figure, pay as you go (its pools of its own, or its share of the
    /// shared pools with its part of their rounding up to whole TiB); else as the design
    /// sizes its pools: a pool of its own (whole TiB), or a Standard, Premium or Ultra
    /// share of a shared pool priced per GiB of quota, before the pool's rounding, which the
    /// estate's row adds.
    pub anf_usd_per_month: f64,
    /// On which service level and pool its ANF figure is priced, in words
    /// (`flexible, pool-flexible-1 as planned`, `flexible, own pool of 3 TiB`, `standard,
    /// share of 2,262 GiB at the price per GiB`); empty without data on ANF, or in plans
    /// made before it was recorded.
    #[serde(default)]
    pub anf_priced_on: String,
    /// Hosts + ANF, USD per month (the estate's gateway is counted once, in the estate's
    /// totals), where the host price is known.
    pub total_usd_per_month: Option<f64>,
    /// What its storage is predicted to deliver, small-block IOPS: its vSAN envelope at its
    /// checked hosts (beside its ANF traffic) and its ANF datastores' predictions; 0 when
    /// not worked out.
    #[serde(default)]
    pub predicted_iops: f64,
    /// Large-block MiB/s likewise.
    #[serde(default)]
    pub predicted_throughput_mibps: f64,
    /// The share of the IOPS target its data on vSAN carries (its capacity share, or its
    /// VMs' own per-VM figures; the peak months' where higher); 0 without data on vSAN or
    /// a target. Its ANF side's share is its plan's `performance.iops_target` where planned.
    #[serde(default)]
    pub vsan_iops_target: f64,
    /// The share of the MiB/s target its data on vSAN carries, likewise.
    #[serde(default)]
    pub vsan_throughput_target_mibps: f64,
    /// What its vSAN delivers, small-block IOPS: the envelope at its checked hosts beside
    /// its ANF traffic over the same NICs (the vSAN part of `predicted_iops`; 0 without
    /// data on vSAN).
    #[serde(default)]
    pub vsan_predicted_iops: f64,
    /// Large-block MiB/s likewise (the vSAN part of `predicted_throughput_mibps`).
    #[serde(default)]
    pub vsan_predicted_throughput_mibps: f64,
}

/// One AVS cluster's three designs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct ClusterDesigns {
    /// The AVS cluster.
    pub cluster: String,
    /// Its hosts for compute in the chosen design (vCPU, memory, HA, and the management
    /// reservation when it is its private cloud's first cluster there).
    pub compute_hosts: u32,
    /// Its VMs.
    pub vms: usize,
    /// Its VMs' data after growth and snapshot reserve, GiB.
    pub data_gib: f64,
    /// Raw vSAN capacity AVS uses itself in it in the chosen design (management VMs in the
    /// first cluster of a private cloud, vSAN system usage in every other), TiB.
    pub reserved_raw_tib: f64,
    /// vSAN alone.
    pub vsan: ClusterDesign,
    /// ANF for all.
    pub anf: ClusterDesign,
    /// The hybrid split (the cheapest of every host count and split searched).
    pub hybrid: ClusterDesign,
    /// The VMs the hybrid design keeps on this cluster's vSAN, by name (the others are on
    /// its ANF datastores).
    pub hybrid_vms_on_vsan: Vec<String>,
    /// A cluster a design adds without VMs as a private cloud's first (`avs-seed-N`, an
    /// AV64 private cloud's first cluster of another SKU; `avs-mgmt-N`): its rows are its
    /// hosts in each design, 0 in a design that does not add it.
    #[serde(default)]
    pub added: bool,
}

/// The ExpressRoute virtual network gateway ANF datastores need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct GatewayLine {
    /// The gateway SKU.
    pub sku: String,
    /// Price of one gateway, USD per month (not regional).
    pub usd_per_month: f64,
    /// Private clouds one gateway links.
    pub private_clouds_per_gateway: u32,
    /// Gateways the customer already has (`existing_er_gateways`): not bought.
    pub existing: u32,
    /// Where the figures come from.
    pub source: String,
}

/// The three designs, for the estate and per cluster, and the one chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct EstateDesigns {
    /// The design chosen.
    pub chosen: Design,
    /// Whether `design` forced it.
    pub forced: bool,
    /// Why, in words.
    pub why: String,
    /// The estate's three designs (vSAN alone, ANF for all, hybrid).
    pub estate: Vec<DesignTotal>,
    /// Per AVS cluster of the chosen SKU: those with VMs, then the clusters a design adds
    /// without VMs as a private cloud's first ([`ClusterDesigns::added`]), so each design's
    /// rows add up to its hosts and (but for the ExpressRoute gateways and, where its pools
    /// are shared and not planned, their rounding) its total.
    pub clusters: Vec<ClusterDesigns>,
    /// The ExpressRoute gateway line.
    pub gateway: GatewayLine,
    /// How the hybrid split is searched and what it does not check.
    pub note: String,
}
