//! One copy of each repeated text of one read ([`Strings`]): the input's file and sheet
//! names in every record's [`Origin`], a VM's cluster, host, datacenter, vCenter and home
//! datastore, a disk's mode, datastore and controller, which thousands of rows repeat. A record is made with its own copies and shared as it is
//! kept ([`Share::share`]), so 1,000 VMs of one cluster hold one `Arc` of its name.

use std::collections::HashSet;
use std::sync::Arc;

use crate::inventory::{Cluster, Datastore, Host, Origin, Partition, Snapshot, VirtualDisk, Vm};

/// The texts of one read, each held once: a set of `Arc<str>` that hands out clones.
#[derive(Debug, Default)]
pub(crate) struct Strings(HashSet<Arc<str>>);

impl Strings {
    /// The one copy of `text` (the first one given, kept from then on).
    pub(crate) fn share(&mut self, text: &Arc<str>) -> Arc<str> {
        if let Some(kept) = self.0.get(&**text) {
            return Arc::clone(kept);
        }
        self.0.insert(Arc::clone(text));
        Arc::clone(text)
    }

    /// [`Strings::share`] of a text not yet in an `Arc` (copied only the first time).
    pub(crate) fn share_str(&mut self, text: &str) -> Arc<str> {
        match self.0.get(text) {
            Some(kept) => Arc::clone(kept),
            None => {
                let kept: Arc<str> = Arc::from(text);
                self.0.insert(Arc::clone(&kept));
                kept
            }
        }
    }

    /// [`Strings::share`] of an optional text, in place.
    pub(crate) fn share_in(&mut self, text: &mut Option<Arc<str>>) {
        if let Some(t) = text {
            *t = self.share(t);
        }
    }
}

/// A record whose repeated texts [`Strings`] can share.
pub(crate) trait Share {
    /// Replaces the record's repeated texts by the read's one copy of each.
    fn share(&mut self, strings: &mut Strings);
}

impl Share for Origin {
    fn share(&mut self, strings: &mut Strings) {
        self.file = strings.share(&self.file);
        self.sheet = strings.share(&self.sheet);
    }
}

impl Share for Vm {
    fn share(&mut self, strings: &mut Strings) {
        self.origin.share(strings);
        strings.share_in(&mut self.cluster);
        strings.share_in(&mut self.host);
        strings.share_in(&mut self.datacenter);
        strings.share_in(&mut self.vi_sdk_server);
        strings.share_in(&mut self.vi_sdk_uuid);
        strings.share_in(&mut self.home_datastore);
    }
}

impl Share for VirtualDisk {
    fn share(&mut self, strings: &mut Strings) {
        self.origin.share(strings);
        strings.share_in(&mut self.disk_mode);
        strings.share_in(&mut self.datastore);
        strings.share_in(&mut self.controller);
    }
}

/// Records whose only repeated text is where they were read.
macro_rules! share_origin {
    ($($record:ty),*) => {
        $(impl Share for $record {
            fn share(&mut self, strings: &mut Strings) {
                self.origin.share(strings);
            }
        })*
    };
}

share_origin!(
    Partition,
    Host,
    Cluster,
    Datastore,
    Snapshot,
    crate::ingest::vmrows::VmRow
);

/// A child row with its key cells (vDisk, vPartition, vSnapshot): the record's texts.
impl<T: Share> Share for (crate::ingest::tab_match::RowKey, T) {
    fn share(&mut self, strings: &mut Strings) {
        self.1.share(strings);
    }
}

/// vMetaData's one row: nothing repeats.
impl Share for crate::ingest::tabs::Metadata {
    fn share(&mut self, _: &mut Strings) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_become_one_copy() {
        let mut strings = Strings::default();
        let a = strings.share(&Arc::from("Cluster1"));
        let b = strings.share(&Arc::from("Cluster1"));
        let c = strings.share(&Arc::from("Cluster2"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        // The set and the two clones handed out.
        assert_eq!(Arc::strong_count(&a), 3);
        let mut none = None;
        strings.share_in(&mut none);
        assert_eq!(none, None);
    }
}
