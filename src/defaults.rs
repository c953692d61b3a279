//! The default of every plan setting, in one place.
//!
//! [`crate::PlanOptions::default`], the stage options' `Default` impls
//! ([`crate::demand::DemandOptions`], [`crate::optimize::OptimizeOptions`],
//! [`crate::vsan::VsanOptions`]) and the `dsplan` command's flags (clap default values) all
//! read these constants, so a library caller and a command-line user get the same plan for
//! the same input.
//!
//! This module imports nothing from the crate: every stage may use it.

/// AVS hosts in the cluster that mounts the datastores when none is given: 3, the AVS
/// minimum cluster size (`data/limits.csv`, `min_hosts`).
pub const HOSTS: u32 = 3;

/// Pricing region (ARM name): `eastus`.
pub const REGION: &str = "eastus";

/// Block size of the IOPS target, KiB: 8, the small-block shape of the published AVS
/// datastore measurements (`data/calibration/anf.csv`).
pub const BLOCK_SIZE_KIB: f64 = 8.0;

/// Read share of the IOPS target, percent: 70, the read/write mix of the published AVS
/// datastore measurements.
pub const READ_PCT: f64 = 70.0;

/// Random share of the IOPS target, percent: 80, a typical mixed virtual-machine workload
/// (the published tests are 100% random; a VM estate also streams logs and backups).
pub const RANDOM_PCT: f64 = 80.0;

/// Data growth to plan for, percent: 0.
pub const GROWTH_PCT: f64 = 0.0;

/// Capacity on top of the data, percent: 20 (datastores sized at 1.2 x the data, so 1/6 of
/// each stays free).
pub const HEADROOM_PCT: f64 = 20.0;

/// Space reserved for snapshots, percent of the data after growth: 0.
pub const SNAPSHOT_RESERVE_PCT: f64 = 0.0;

/// Share of the data that is cold, percent: 0 (RVTools holds no access data, so cool
/// access is not considered unless asked for).
pub const COLD_PCT: f64 = 0.0;

/// Share of the cold data moved between tiers per month, percent: 10.
pub const COOL_RETRIEVAL_PCT: f64 = 10.0;

/// Most datastores one AVS cluster may mount: 8, the AVS default ("The default maximum
/// number of Azure NetApp Files datastores is 8, but it can be increased to a maximum of
/// 256 by submitting a support ticket", learn.microsoft.com/azure/azure-vmware/
/// attach-azure-netapp-files-to-azure-vmware-solution-hosts, 2025-01-29; the benchmark
/// page speaks of "up to 64 datastores per AVS cluster" with nconnect 4,
/// learn.microsoft.com/azure/azure-netapp-files/performance-benchmarks-azure-vmware-solution,
/// 2024-12-03). More than 8 needs a support request (`data/limits.csv`).
pub const MAX_DATASTORES: u32 = 8;

/// TCP connections per host per datastore: 1, the case the published AVS datastore
/// measurements were taken with (`data/calibration/anf.csv`). AVS datastores also support
/// nconnect 4 (Gen 1 and Gen 2 private clouds, learn.microsoft.com/azure/azure-netapp-files/
/// performance-benchmarks-azure-vmware-solution); predictions at 4 are extrapolated.
pub const NCONNECT: u32 = 1;

/// AVS host SKU of the vSAN-only comparison: `av36p`.
pub const VSAN_HOST: &str = "av36p";

/// Capacity vSAN keeps free in the comparison, percent: 25 (AVS alerts at 75% consumed).
pub const VSAN_SLACK_PCT: f64 = 25.0;

/// Dedup/compression ratio assumed on vSAN: 1 (none), the conservative figure. AVS turns
/// deduplication and compression on by default on vSAN OSA hosts
/// (learn.microsoft.com/azure/azure-vmware/configure-vsan, 2023-12-07) and compression only
/// on ESA hosts (AV48, AV64 Gen 2; .../configure-vsan-esa, 2025-05-12), but no Microsoft
/// page gives a ratio: the Azure Migrate AVS assessment lets the user set 1..10 and states
/// no default (learn.microsoft.com/azure/migrate/
/// concepts-azure-vmware-solution-assessment-calculation, 2024-12-06); the ANF team's AVS
/// TCO estimator defaults to 1.2 (Azure/azure-netapp-files docs/avs-calc, 2025-06-04). A
/// measured ratio can be given (`vsan_dedup_ratio`).
pub const VSAN_DEDUP_RATIO: f64 = 1.0;

/// vCPUs per physical core when AVS hosts are sized: 4, the Azure Migrate AVS assessment's
/// stated default ("The default value in the calculations is 4 vCPU: 1 physical core",
/// learn.microsoft.com/azure/migrate/concepts-azure-vmware-solution-assessment-calculation,
/// 2024-12-06). The AVS + ANF TCO estimator (github.com/Azure/azure-netapp-files
/// `docs/avs-calc`, 2025-06-04) sizes an RVTools export by the export's own vHost "vCPUs
/// per Core" ratio and 600 MHz of demand per vCPU, and takes 4 only for manual input and
/// as its override.
pub const VCPU_PER_CORE: f64 = 4.0;

/// Memory overcommit when AVS hosts are sized: 1 (host memory counted once; the Azure
/// Migrate AVS assessment's "1 represents 100% memory use").
pub const MEMORY_OVERCOMMIT: f64 = 1.0;

/// Hosts per AVS cluster kept free for vSphere HA: 1 ("Azure VMware Solution configures each
/// cluster for n+1 availability through vSphere High Availability percentage-based
/// admission control", learn.microsoft.com/azure/azure-vmware/architecture-private-clouds,
/// 2025-08-14, include hosts-minimum-initial-deployment-statement, 2025-04-02).
pub const HA_HOSTS: u32 = 1;

/// `dsplan serve`'s TCP port (`--port`; 0 asks the system for a free one).
pub const SERVE_PORT: u16 = 8080;

/// `dsplan serve`'s address (`--bind`): loopback only, so the page is not reachable from
/// another machine unless asked for.
pub const SERVE_BIND: &str = "127.0.0.1";

/// Largest upload `dsplan serve` accepts, MiB (`--max-upload-mib`): a 100,000-VM RVTools
/// xlsx is about 100-200 MB, a zip of its CSV folder less.
pub const SERVE_MAX_UPLOAD_MIB: u64 = 512;

/// Most `--max-upload-mib` accepts, MiB (4 GiB): an upload is held in memory while it is
/// read (2 at once), beside the memory budget's kept inventories; 16 GiB is what a large
/// workstation has, and the largest RVTools export is far below 4 GiB.
pub const SERVE_MAX_UPLOAD_MIB_MAX: u64 = 4096;

/// `dsplan serve`'s memory budget, MiB (`--memory-budget-mib`): what the kept uploads'
/// inventories and their plans may take together (`web::budget`). 1,024 MiB holds a
/// 100,000-VM export with room to spare and keeps the server under 2 GiB with uploads
/// being read (BENCHMARKS.md, "serve: memory budget").
pub const SERVE_MEMORY_BUDGET_MIB: u64 = 1024;

/// How long `dsplan serve` waits for an upload's body, seconds (`--body-timeout-secs`),
/// counted from when its reading starts, and at most how long an upload waits for one of
/// the 2 reading slots: 60. 512 MiB takes about 1 s over loopback and 43 s over 100 Mbit/s;
/// a client trickling its body holds a slot no longer than this.
pub const SERVE_BODY_TIMEOUT_SECS: u64 = 60;

/// How long `dsplan serve` waits for a request's headers, seconds (`--header-timeout-secs`):
/// 30, hyper's own default once a timer is set.
pub const SERVE_HEADER_TIMEOUT_SECS: u64 = 30;

/// How long `dsplan serve` keeps an upload nobody plans, minutes
/// (`--session-idle-minutes`): 60, a meeting's length; the page asks for the files again
/// after it.
pub const SERVE_SESSION_IDLE_MINUTES: u64 = 60;

/// Largest `growth_pct`, `headroom_pct` and `snapshot_reserve_pct`: 1,000 percent (eleven
/// times the data). A plan past it is a typo, not a forecast; the check keeps a
/// 300-digit capacity out of the messages.
pub const MAX_GROWTH_PCT: f64 = 1000.0;

/// Largest IOPS target (`iops`, `peak_iops`): 1,000,000,000. Far above any AVS estate:
/// 96 hosts per private cloud (`data/limits.csv`) x 198,060 IOPS per host, the largest
/// measured per-host figure (`data/systems/anf-avs.csv`, \[AVS-PERF\]), is about 19 million.
pub const MAX_IOPS: f64 = 1e9;

/// Largest MiB/s target (`throughput_mibps`, `peak_throughput_mibps`): 10,000,000. Far
/// above any AVS estate: 96 hosts x one 100 GbE link (about 11,920 MiB/s) is about 1.1
/// million MiB/s.
pub const MAX_THROUGHPUT_MIBPS: f64 = 1e7;

/// Memory overcommit range when AVS hosts are sized: 0.1..=10 (a tenth of the VMs' memory to
/// ten times it; the Azure Migrate AVS assessment's factor is 1 by default).
pub const MEMORY_OVERCOMMIT_RANGE: (f64, f64) = (0.1, 10.0);
