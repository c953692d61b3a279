//! Uploaded inventories kept in memory between requests, so changing an option re-plans
//! without uploading again. A session is the inventory read from one upload (its files'
//! bytes are dropped once read: the inventory is all a plan needs). The store holds at
//! most [`MAX_SESSIONS`] sessions and [`Sessions::max_bytes`] upload bytes; the oldest is
//! evicted first, and a request naming an evicted session gets `None` (the server answers
//! 410, asking the page to upload again).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};

use crate::inventory::Inventory;

/// Most sessions kept at once: several browsers (or tabs) at once, each with its upload.
pub const MAX_SESSIONS: usize = 16;

/// One upload's inventory.
#[derive(Debug)]
pub struct Session {
    /// The inventory read from the upload (merged, data-quality checked).
    pub inventory: Arc<Inventory>,
    /// Upload bytes it was read from (its weight in the store's byte cap).
    pub upload_bytes: u64,
    /// Insertion order: lower is older.
    seq: u64,
}

/// The session store: a mutex over a map, capped in count and upload bytes.
#[derive(Debug)]
pub struct Sessions {
    inner: Mutex<Inner>,
    /// Most upload bytes over all sessions kept (at least one session is always kept).
    max_bytes: u64,
}

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<String, Session>,
    next_seq: u64,
    bytes: u64,
}

impl Sessions {
    /// An empty store that keeps at most `max_bytes` upload bytes (the newest session is
    /// kept whatever its size).
    pub fn new(max_bytes: u64) -> Sessions {
        Sessions {
            inner: Mutex::new(Inner::default()),
            max_bytes,
        }
    }

    /// The cap on upload bytes kept.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Keeps an inventory; returns its session id (32 hex digits), evicting the oldest
    /// sessions past [`MAX_SESSIONS`] or the byte cap.
    pub fn insert(&self, inventory: Inventory, upload_bytes: u64) -> String {
        let id = new_id();
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let seq = inner.next_seq;
        inner.next_seq += 1;
        inner.bytes = inner.bytes.saturating_add(upload_bytes);
        inner.map.insert(
            id.clone(),
            Session {
                inventory: Arc::new(inventory),
                upload_bytes,
                seq,
            },
        );
        while inner.map.len() > 1
            && (inner.map.len() > MAX_SESSIONS || inner.bytes > self.max_bytes)
        {
            let Some(oldest) = inner
                .map
                .iter()
                .min_by_key(|(_, s)| s.seq)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some(gone) = inner.map.remove(&oldest) {
                inner.bytes = inner.bytes.saturating_sub(gone.upload_bytes);
            }
        }
        id
    }

    /// The inventory of a session; `None` when it is unknown or was evicted.
    pub fn get(&self, id: &str) -> Option<Arc<Inventory>> {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.map.get(id).map(|s| Arc::clone(&s.inventory))
    }

    /// How many sessions are kept.
    pub fn len(&self) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.map.len()
    }

    /// Whether no session is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// 128 random bits as 32 hex digits, from the standard library's randomly seeded hasher
/// (a fresh random key per `RandomState`); enough that one browser cannot guess another's
/// session on the same machine.
fn new_id() -> String {
    let mut out = String::with_capacity(32);
    for _ in 0..2 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        out.push_str(&format!("{:016x}", h.finish()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_sessions_go_first_by_count_and_bytes() {
        let store = Sessions::new(100);
        let first = store.insert(Inventory::default(), 60);
        let second = store.insert(Inventory::default(), 30);
        // 60 + 30 = 90 <= 100: both kept.
        assert!(store.get(&first).is_some() && store.get(&second).is_some());
        // 90 + 20 = 110 > 100: the oldest (60) goes, 50 left.
        let third = store.insert(Inventory::default(), 20);
        assert!(store.get(&first).is_none());
        assert!(store.get(&second).is_some() && store.get(&third).is_some());
        // One session larger than the cap is still kept (alone).
        let big = store.insert(Inventory::default(), 500);
        assert_eq!(store.len(), 1);
        assert!(store.get(&big).is_some());
        // Count cap: MAX_SESSIONS + 4 small ones keep the newest MAX_SESSIONS.
        let store = Sessions::new(u64::MAX);
        let ids: Vec<String> = (0..MAX_SESSIONS + 4)
            .map(|_| store.insert(Inventory::default(), 1))
            .collect();
        assert_eq!(store.len(), MAX_SESSIONS);
        assert!(store.get(&ids[3]).is_none());
        assert!(store.get(&ids[4]).is_some());
        assert_ne!(ids[0], ids[1]);
        assert_eq!(ids[0].len(), 32);
    }
}
