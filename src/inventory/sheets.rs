//! The names an input gives the sheets and columns dsplan speaks of in its messages and
//! inventory lines: RVTools' tabs (`vInfo`, `vHost`, `vMemory`), or a Live Optics
//! workbook's own sheets (`VMs`, `ESX Hosts`), so a Live Optics input is described in its
//! own words.

use super::{Inventory, Source};

/// [`Source::format`](super::Source::format) of a Live Optics workbook.
pub const LIVE_OPTICS_FORMAT: &str = "Live Optics";

/// The words for the sheets and columns of one kind of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetWords {
    /// The sheet of VMs (`vInfo`; Live Optics `VMs`).
    pub vms: &'static str,
    /// The sheet of ESXi hosts (`vHost`; Live Optics `ESX Hosts`).
    pub hosts: &'static str,
    /// Where a VM's consumed memory is read (`vMemory`; Live Optics `VMs` `Consumed
    /// Memory`).
    pub consumed_memory: &'static str,
    /// The sheets a VM's template flag, power state or cluster is read from (`vInfo, vCPU
    /// or vMemory`; Live Optics `VMs`).
    pub vm_attributes: &'static str,
    /// The in-use capacity column (`In Use`; Live Optics `Virtual Disk Used`).
    pub in_use: &'static str,
    /// The provisioned capacity column (`Provisioned`; Live Optics `Virtual Disk Size`).
    pub provisioned: &'static str,
}

/// RVTools' words.
pub const RVTOOLS_WORDS: SheetWords = SheetWords {
    vms: "vInfo",
    hosts: "vHost",
    consumed_memory: "vMemory",
    vm_attributes: "vInfo, vCPU or vMemory",
    in_use: "In Use",
    provisioned: "Provisioned",
};

/// A Live Optics workbook's words.
pub const LIVE_OPTICS_WORDS: SheetWords = SheetWords {
    vms: "VMs",
    hosts: "ESX Hosts",
    consumed_memory: "VMs `Consumed Memory`",
    vm_attributes: "VMs",
    in_use: "Virtual Disk Used",
    provisioned: "Virtual Disk Size",
};

/// The words of RVTools and Live Optics inputs read together.
pub const MIXED_WORDS: SheetWords = SheetWords {
    vms: "vInfo / VMs",
    hosts: "vHost / ESX Hosts",
    consumed_memory: "vMemory / VMs `Consumed Memory`",
    vm_attributes: "vInfo, vCPU or vMemory / VMs",
    in_use: "In Use / Virtual Disk Used",
    provisioned: "Provisioned / Virtual Disk Size",
};

impl Inventory {
    /// The words of the inventory's inputs: Live Optics' when every input is a Live Optics
    /// workbook, both kinds' when some are, else RVTools' (also for an inventory of no
    /// input).
    pub fn sheet_words(&self) -> &'static SheetWords {
        let live_optics = self
            .sources
            .iter()
            .filter(|s| s.format == LIVE_OPTICS_FORMAT)
            .count();
        match live_optics {
            0 => &RVTOOLS_WORDS,
            n if n == self.sources.len() => &LIVE_OPTICS_WORDS,
            _ => &MIXED_WORDS,
        }
    }

    /// The words of the input `file` (a path as given): Live Optics' for a Live Optics
    /// workbook, else RVTools'.
    pub fn sheet_words_of(&self, file: &str) -> &'static SheetWords {
        self.sources
            .iter()
            .find(|s| s.file == file)
            .map_or(&RVTOOLS_WORDS, Source::words)
    }
}

impl Source {
    /// The input's words: Live Optics' for a Live Optics workbook, else RVTools'.
    pub fn words(&self) -> &'static SheetWords {
        if self.format == LIVE_OPTICS_FORMAT {
            &LIVE_OPTICS_WORDS
        } else {
            &RVTOOLS_WORDS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source read from `file` in `format` (the other fields unknown or empty).
    fn source(file: &str, format: &str) -> Source {
        let value = serde_json::json!({"file": file, "format": format, "tabs": []});
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn the_words_follow_the_inputs_formats() {
        let inventory = |sources: Vec<Source>| Inventory {
            sources,
            ..Inventory::default()
        };
        let rv = || source("a.xlsx", "xlsx");
        let lo = || source("lo.xlsx", LIVE_OPTICS_FORMAT);
        assert_eq!(inventory(vec![]).sheet_words(), &RVTOOLS_WORDS);
        assert_eq!(inventory(vec![rv()]).sheet_words(), &RVTOOLS_WORDS);
        assert_eq!(inventory(vec![lo()]).sheet_words(), &LIVE_OPTICS_WORDS);
        let both = inventory(vec![rv(), lo()]);
        assert_eq!(both.sheet_words(), &MIXED_WORDS);
        assert_eq!(both.sheet_words_of("lo.xlsx").hosts, "ESX Hosts");
        assert_eq!(both.sheet_words_of("a.xlsx").hosts, "vHost");
        assert_eq!(both.sheet_words_of("other.csv"), &RVTOOLS_WORDS);
    }
}
