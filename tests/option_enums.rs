//! Every settings enum reads back what it shows (`to_string` then `parse`), and reads the
//! name its JSON gives it: a program can take a setting from a command line, a form or a
//! JSON file alike.

use std::fmt::Display;
use std::str::FromStr;

use dsplan::perf::RetrievalPolicy;
use dsplan::prelude::*;
use serde::Serialize;

/// `v` shown, then read: the same value; its JSON string read: the same value.
fn round_trips<T>(values: &[T])
where
    T: Display + FromStr + Serialize + PartialEq + std::fmt::Debug,
    T::Err: std::fmt::Debug,
{
    for v in values {
        let shown = v.to_string();
        let read: T = shown.parse().unwrap_or_else(|e| panic!("{shown:?}: {e:?}"));
        assert_eq!(&read, v, "{shown:?}");
        let json = serde_json::to_value(v).unwrap();
        if let Some(name) = json.as_str() {
            let read: T = name
                .parse()
                .unwrap_or_else(|e| panic!("JSON {name:?}: {e:?}"));
            assert_eq!(&read, v, "JSON {name:?}");
        }
    }
}

#[test]
fn every_settings_enum_reads_back_what_it_shows_and_its_json_name() {
    round_trips(&[
        CapacityBasis::InUse,
        CapacityBasis::Provisioned,
        CapacityBasis::GuestConsumed,
        CapacityBasis::Unshared,
    ]);
    round_trips(&[PerfBasis::Peak, PerfBasis::Average]);
    round_trips(&[MemoryBasis::Configured, MemoryBasis::Consumed]);
    round_trips(&[Grouping::SourceCluster, Grouping::Estate]);
    round_trips(&[HostTerm::PayAsYouGo, HostTerm::OneYear, HostTerm::ThreeYear]);
    round_trips(&[
        ServiceLevel::Standard,
        ServiceLevel::Premium,
        ServiceLevel::Ultra,
        ServiceLevel::Flexible,
    ]);
    round_trips(&[
        ReservationTerm::None,
        ReservationTerm::OneYear,
        ReservationTerm::ThreeYear,
    ]);
    round_trips(&[
        RetrievalPolicy::Default,
        RetrievalPolicy::OnRead,
        RetrievalPolicy::Never,
    ]);
    round_trips(&[Design::Vsan, Design::Anf, Design::Hybrid]);
    round_trips(&WarningKind::ALL);
    round_trips(&[
        dsplan::vsan::PolicyChoice::Auto,
        dsplan::vsan::PolicyChoice::Named("raid5-ftt1".into()),
    ]);
}

#[test]
fn a_misspelt_setting_is_refused_naming_what_was_given() {
    // Each error names the value given, so a form can show it back.
    let e = "in_use_mib".parse::<CapacityBasis>().unwrap_err();
    assert!(e.to_string().contains("in_use_mib"), "{e}");
    let e = "peek".parse::<PerfBasis>().unwrap_err();
    assert!(e.to_string().contains("peek"), "{e}");
    let e = "hybird".parse::<Design>().unwrap_err();
    assert!(e.to_string().contains("hybird"), "{e}");
}

#[test]
fn region_and_host_sku_read_the_names_microsofts_pages_write() {
    // A region's display name and ARM name are one region; its JSON keeps it as written.
    let r: Region = " North Europe ".parse().unwrap();
    assert_eq!(r.arm_name(), "northeurope");
    assert_eq!(r, Region::from("northeurope"));
    assert_eq!(r.to_string().parse::<Region>().unwrap(), r);
    assert!("".parse::<Region>().is_err());
    assert!("north europe;drop".parse::<Region>().is_err());
    // SKUs as the AVS pages write them, in the catalog's spelling.
    for (given, sku) in [
        ("AV36P", "av36p"),
        ("av52", "av52"),
        ("AV64 Gen2", "av64-gen2"),
    ] {
        let s: HostSkuName = given.parse().unwrap();
        assert_eq!(s, sku);
        assert_eq!(s.to_string().parse::<HostSkuName>().unwrap(), s);
    }
    // In the options' JSON both are plain strings.
    let o: PlanOptions =
        serde_json::from_str(r#"{"region": "West Europe", "host_sku": "av36p"}"#).unwrap();
    assert_eq!(o.region, "westeurope");
    assert_eq!(o.host_sku.as_deref(), Some("av36p"));
    let back = serde_json::to_value(&o).unwrap();
    assert_eq!(back["region"], "West Europe");
    assert_eq!(back["host_sku"], "av36p");
}
