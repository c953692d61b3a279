// The fitted parameters of the built-in profiles (`src/perf/fit.rs`): (system, parameter,
// f64 bits), in fitting order, as the search finds them from data/systems/*.csv and
// data/calibration/*.csv. Generated: `DSPLAN_BLESS_FIT=1 cargo test --lib fitted_params_file`
// rewrites it, and that test fails while it is stale.
&[
    ("anf-avs", "flow_iops", 0x40f28e0000000003), // 76000.00000000004
    ("anf-avs", "flow_mibps", 0x40a0c80000000005), // 2148.0000000000023
    ("anf-avs", "volume_read_op_fixed_us", 0x3fedea58d0c7d8dc), // 0.934856803679192
    ("anf-avs", "volume_read_op_per_kib_us", 0x3fd3d32ca2bd73aa), // 0.30976405994970924
    ("anf-avs", "volume_write_op_ratio", 0x3fd62a88e4161841), // 0.346346113911185
    ("anf-avs", "usl_sigma", 0x3fb8c4982d6de838), // 0.09674979313959475
    ("anf-avs", "usl_kappa", 0x3f944844063a71fb), // 0.019806921844621055
    ("anf-avs", "nic_efficiency", 0x3feb815418003dc2), // 0.8595371693390279
    ("anf-avs", "vm_iops", 0x4101f1bfffffffff), // 146999.99999999997
    ("anf-avs", "cool_seq_read_mibps", 0x409b38000000000c), // 1742.0000000000027
    ("anf-avs", "cool_random_read_mibps", 0x4071800000000000), // 280.0
    ("anf-linux", "host_write_mibps", 0x40a2c00000000004), // 2400.000000000002
    ("vsan-hybrid", "usl_unit_iops", 0x40e0028197e36e1a), // 32788.0497910643
    ("vsan-hybrid", "usl_sigma", 0x3fbbf2aca28a7982), // 0.10917166679653259
    ("vsan-hybrid", "ios_per_transaction", 0x4041747a8007b22d), // 34.90998840690404
    ("vsan-hybrid", "miss_iops", 0x40b9002a1f605b30), // 6400.164541265738
    ("afa-smb3", "host_iops", 0x40d1940000000002), // 18000.000000000007
    ("afa-smb3", "link_efficiency", 0x3fe2dfd694ccab40), // 0.5898240000000001
]
