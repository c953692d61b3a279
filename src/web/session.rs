//! Uploaded inventories kept in memory between requests, so changing an option re-plans
//! without uploading again. A session is the inventory read from one upload (its files'
//! bytes are dropped once read: the inventory is all a plan needs).
//!
//! The store holds a memory budget ([`SessionLimits::budget_bytes`], `--memory-budget-mib`)
//! over what it keeps: each session is charged what its inventory holds
//! ([`super::budget::charge_bytes`]) and is kept only when its plan would fit beside the
//! others ([`super::budget::plan_bytes`]); a plan holds a [`Reservation`] of its bytes while
//! it runs, and an upload is read within the room left ([`Sessions::room`]), so the kept
//! inventories, the plans being made and the upload being read stay within the budget
//! together. An expired session's charge is returned as soon as it expires
//! ([`Sessions::expire_now`], every [`EXPIRY_CHECK`]). A new session makes room by evicting the least recently used sessions;
//! a session used within [`SessionLimits::protected`] is never evicted for another, so a
//! client cannot push out every other session with a stream of tiny uploads (on loopback
//! every client has the same address: fairness per client cannot tell them apart, a
//! minimum lifetime can). A session idle for [`SessionLimits::idle`] expires. Ids are 128
//! bits from the operating system's random source (`getrandom`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::inventory::Inventory;

/// The store's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Most bytes charged over all sessions ([`super::budget::charge_bytes`]).
    pub budget_bytes: u64,
    /// A session not used for this long expires ([`crate::defaults::SERVE_SESSION_IDLE_MINUTES`]).
    pub idle: Duration,
    /// A session used within this long is not evicted to make room for another
    /// ([`PROTECTED`]).
    pub protected: Duration,
}

/// A session used within the last 10 minutes is not evicted for another: long enough to
/// read a plan and change an option, short enough that a forgotten tab frees its memory
/// for the next upload.
pub const PROTECTED: Duration = Duration::from_secs(10 * 60);

/// How often expired sessions are dropped, so their charge returns to the budget: 10 s.
pub const EXPIRY_CHECK: Duration = Duration::from_secs(10);

/// What a plan request gets: the inventory and the lock its plans take in turn.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The inventory read from the upload (merged, data-quality checked).
    pub inventory: Arc<Inventory>,
    /// Held while the session is planned: one plan of it at a time.
    pub plan_lock: Arc<tokio::sync::Mutex<()>>,
    /// What a plan of it is charged while it runs ([`super::budget::plan_bytes`]).
    pub plan_bytes: u64,
    /// Plan requests of it so far (for the page's plans: the latest wins, an earlier one
    /// still waiting is not planned).
    pub plan_requests: Arc<std::sync::atomic::AtomicU64>,
}

/// Bytes of the budget held while a plan runs (or an upload is read); returned when
/// dropped.
#[derive(Debug)]
pub struct Reservation<'s> {
    sessions: &'s Sessions,
    bytes: u64,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut store = self.sessions.lock();
        store.reserved = store.reserved.saturating_sub(self.bytes);
    }
}

/// The sessions and the bytes reserved by running plans.
#[derive(Debug, Default)]
struct Store {
    map: HashMap<String, Session>,
    reserved: u64,
}

/// One upload's inventory.
#[derive(Debug)]
struct Session {
    kept: Kept,
    /// Bytes charged to the budget.
    charge_bytes: u64,
    /// When it was made or last planned.
    last_used: Instant,
}

/// Why a new session is not kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The session and its plan alone need more than the budget.
    #[error(
        "this upload needs about {} MiB of memory to keep and plan, more than the server's \
         memory budget of {} MiB (`dsplan serve --memory-budget-mib`); plan it with \
         `dsplan plan`, or serve with a larger budget",
        mib_up(*.charge_bytes),
        .budget_bytes >> 20
    )]
    TooLarge {
        /// What it would be charged, bytes.
        charge_bytes: u64,
        /// The budget, bytes.
        budget_bytes: u64,
    },
    /// Sessions used within the protected time hold the budget.
    #[error(
        "the server's memory budget of {} MiB (`dsplan serve --memory-budget-mib`) is held \
         by {sessions} upload(s) used in the last {} minutes; this one needs about {} MiB: \
         try again later",
        .budget_bytes >> 20,
        .protected_minutes,
        mib_up(*.charge_bytes)
    )]
    Busy {
        /// What it would be charged, bytes.
        charge_bytes: u64,
        /// The budget, bytes.
        budget_bytes: u64,
        /// Sessions kept.
        sessions: usize,
        /// [`SessionLimits::protected`], minutes.
        protected_minutes: u64,
    },
    /// The operating system's random source failed: no session id can be made.
    #[error("cannot make a session id: the operating system's random source failed ({detail})")]
    Random {
        /// The random source's error.
        detail: String,
    },
}

/// Bytes as whole MiB, rounded up.
fn mib_up(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// The session store: a mutex over a map, within a memory budget.
#[derive(Debug)]
pub struct Sessions {
    inner: Mutex<Store>,
    limits: SessionLimits,
}

impl Sessions {
    /// An empty store.
    pub fn new(limits: SessionLimits) -> Sessions {
        Sessions {
            inner: Mutex::new(Store::default()),
            limits,
        }
    }

    /// The store's limits.
    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The budget an upload may be read within: the budget less the reserved bytes and
    /// the charges of the sessions a new one cannot evict (used within
    /// [`SessionLimits::protected`], other than `replaces`). Expired sessions go first.
    pub fn room(&self, replaces: Option<&str>) -> u64 {
        let now = Instant::now();
        let mut store = self.lock();
        self.expire(&mut store.map, now);
        let held: u64 = store
            .map
            .iter()
            .filter(|(id, s)| !self.evictable(id, s, replaces, now))
            .map(|(_, s)| s.charge_bytes)
            .sum();
        self.limits
            .budget_bytes
            .saturating_sub(held)
            .saturating_sub(store.reserved)
    }

    /// Reserves `bytes` for a plan of session `spare` while it runs, evicting the least
    /// recently used sessions not used within [`SessionLimits::protected`] (never `spare`)
    /// when the budget needs it; `None` when it does not fit (nothing is evicted then).
    pub fn reserve(&self, bytes: u64, spare: &str) -> Option<Reservation<'_>> {
        let now = Instant::now();
        let mut store = self.lock();
        self.expire(&mut store.map, now);
        let Store { map, reserved } = &mut *store;
        let need = bytes.saturating_add(*reserved);
        let evicted = self.to_evict(map, need, None, Some(spare), now)?;
        for id in evicted {
            map.remove(&id);
        }
        *reserved = reserved.saturating_add(bytes);
        Some(Reservation {
            sessions: self,
            bytes,
        })
    }

    /// Reserves up to `bytes` for an upload being read: as much of it as the budget has
    /// free (less the charges and the reservations), evicting nothing, so plans that start
    /// meanwhile wait for it (an upload read beside them is not counted twice).
    pub fn hold(&self, bytes: u64) -> Reservation<'_> {
        let mut store = self.lock();
        let used: u64 = store.map.values().map(|s| s.charge_bytes).sum();
        let free = self
            .limits
            .budget_bytes
            .saturating_sub(used)
            .saturating_sub(store.reserved);
        let bytes = bytes.min(free);
        store.reserved = store.reserved.saturating_add(bytes);
        Reservation {
            sessions: self,
            bytes,
        }
    }

    /// Drops the expired sessions now, returning their charge to the budget.
    pub fn expire_now(&self) {
        let mut store = self.lock();
        self.expire(&mut store.map, Instant::now());
    }

    /// Whether a new session (replacing `replaces`) may evict `s`.
    fn evictable(&self, id: &str, s: &Session, replaces: Option<&str>, now: Instant) -> bool {
        Some(id) == replaces || now.saturating_duration_since(s.last_used) >= self.limits.protected
    }

    /// Keeps an inventory charged `charge_bytes` whose plans take `plan_bytes`; returns its
    /// session id (32 hex digits). Expired sessions go first, then `replaces` (the session
    /// this upload replaces on its page, if kept), then the least recently used ones not
    /// used within [`SessionLimits::protected`], until the charges and its plan fit the
    /// budget.
    ///
    /// # Errors
    /// [`Refused::TooLarge`] when the charge and its plan alone pass the budget;
    /// [`Refused::Busy`] when they fit only by evicting recently used sessions;
    /// [`Refused::Random`] when the random source fails.
    pub fn insert(
        &self,
        inventory: Inventory,
        (charge_bytes, plan_bytes): (u64, u64),
        replaces: Option<&str>,
    ) -> Result<String, Refused> {
        self.insert_at(
            inventory,
            (charge_bytes, plan_bytes),
            replaces,
            Instant::now(),
        )
    }

    fn insert_at(
        &self,
        inventory: Inventory,
        (charge_bytes, plan_bytes): (u64, u64),
        replaces: Option<&str>,
        now: Instant,
    ) -> Result<String, Refused> {
        let budget_bytes = self.limits.budget_bytes;
        let need = charge_bytes.saturating_add(plan_bytes);
        if need > budget_bytes {
            return Err(Refused::TooLarge {
                charge_bytes: need,
                budget_bytes,
            });
        }
        let id = new_id().map_err(|e| Refused::Random {
            detail: e.to_string(),
        })?;
        let mut store = self.lock();
        let map = &mut store.map;
        self.expire(map, now);
        let evicted = self
            .to_evict(map, need, replaces, None, now)
            .ok_or(Refused::Busy {
                charge_bytes: need,
                budget_bytes,
                sessions: map.len(),
                protected_minutes: self.limits.protected.as_secs() / 60,
            })?;
        for id in evicted {
            map.remove(&id);
        }
        map.insert(
            id.clone(),
            Session {
                kept: Kept {
                    inventory: Arc::new(inventory),
                    plan_lock: Arc::new(tokio::sync::Mutex::new(())),
                    plan_bytes,
                    plan_requests: Arc::default(),
                },
                charge_bytes,
                last_used: now,
            },
        );
        Ok(id)
    }

    /// The sessions to evict for `charge_bytes` more to fit the budget, in order: `replaces`,
    /// then the least recently used not used within [`SessionLimits::protected`], never
    /// `spare`; `None` when evicting all of them is not enough (nothing is evicted then).
    fn to_evict(
        &self,
        map: &HashMap<String, Session>,
        charge_bytes: u64,
        replaces: Option<&str>,
        spare: Option<&str>,
        now: Instant,
    ) -> Option<Vec<String>> {
        let used: u64 = map.values().map(|s| s.charge_bytes).sum();
        let mut over = used
            .saturating_add(charge_bytes)
            .saturating_sub(self.limits.budget_bytes);
        let mut candidates: Vec<(&String, &Session)> = map
            .iter()
            .filter(|(id, s)| Some(id.as_str()) != spare && self.evictable(id, s, replaces, now))
            .collect();
        // The replaced session first, then the least recently used.
        candidates.sort_by_key(|(id, s)| (Some(id.as_str()) != replaces, s.last_used));
        let mut evicted = Vec::new();
        for (id, session) in candidates {
            if over == 0 {
                break;
            }
            over = over.saturating_sub(session.charge_bytes);
            evicted.push(id.clone());
        }
        (over == 0).then_some(evicted)
    }

    /// A session's inventory and plan lock, marking it used; `None` when it is unknown,
    /// was evicted or has expired.
    pub fn get(&self, id: &str) -> Option<Kept> {
        self.get_at(id, Instant::now())
    }

    fn get_at(&self, id: &str, now: Instant) -> Option<Kept> {
        let mut store = self.lock();
        self.expire(&mut store.map, now);
        let session = store.map.get_mut(id)?;
        session.last_used = now;
        Some(session.kept.clone())
    }

    /// Drops the sessions idle for [`SessionLimits::idle`] or longer.
    fn expire(&self, map: &mut HashMap<String, Session>, now: Instant) {
        map.retain(|_, s| now.saturating_duration_since(s.last_used) < self.limits.idle);
    }

    /// How many sessions are kept.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether no session is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// 128 bits from the operating system's random source as 32 hex digits: another client
/// of the server cannot guess a session.
///
/// # Errors
/// The random source's error (none on Linux, macOS or Windows once booted).
fn new_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    fn store(budget_bytes: u64) -> Sessions {
        Sessions::new(SessionLimits {
            budget_bytes,
            idle: 60 * MINUTE,
            protected: PROTECTED,
        })
    }

    fn keep(store: &Sessions, charge: u64, at: Instant) -> Result<String, Refused> {
        store.insert_at(Inventory::default(), (charge, 0), None, at)
    }

    #[test]
    fn least_recently_used_sessions_go_first_within_the_budget() {
        let store = store(100);
        let t0 = Instant::now();
        let first = keep(&store, 60, t0).unwrap();
        let second = keep(&store, 30, t0 + MINUTE).unwrap();
        // 60 + 30 = 90 <= 100: both kept. The first is planned at 12 min, so the second
        // (last used at 1 min) is the least recently used.
        assert!(store.get_at(&first, t0 + 12 * MINUTE).is_some());
        // At 15 min: 90 + 20 = 110 > 100; the second (idle 14 min > 10) goes, 80 left.
        let third = keep(&store, 20, t0 + 15 * MINUTE).unwrap();
        assert!(store.get_at(&second, t0 + 15 * MINUTE).is_none());
        assert!(store.get_at(&first, t0 + 15 * MINUTE).is_some());
        assert!(store.get_at(&third, t0 + 15 * MINUTE).is_some());
        // One session larger than the budget is refused, naming the limit and the flag.
        let refused = keep(&store, 101, t0 + 15 * MINUTE).unwrap_err();
        assert!(matches!(refused, Refused::TooLarge { .. }));
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn tiny_uploads_cannot_evict_a_session_in_use() {
        // A 1 MiB budget; the victim charged 512 KiB, each other upload 64 KiB: 8 fit beside the victim (512 + 8 x 64 = 1,024 KiB).
        let store = store(1 << 20);
        let t0 = Instant::now();
        let victim = keep(&store, 512 << 10, t0).unwrap();
        let mut refused = 0;
        for i in 0..100u32 {
            let at = t0 + Duration::from_secs(u64::from(i));
            if keep(&store, 64 << 10, at).is_err() {
                refused += 1;
            }
        }
        // 100 tries, 8 kept, 92 refused as busy: the victim, used 99 s ago, stays.
        assert_eq!(refused, 92);
        assert!(
            store
                .get_at(&victim, t0 + 100 * Duration::from_secs(1))
                .is_some()
        );
        assert_eq!(store.len(), 9);
        // The victim's own page replaces it: dropping the 512 KiB it replaces leaves room
        // for 512 KiB, not 768 KiB (the tiny ones, all used within 10 minutes, stay):
        // refused, the victim kept; a 512 KiB one takes its place.
        let at = t0 + 101 * Duration::from_secs(1);
        let again = store.insert_at(Inventory::default(), (768 << 10, 0), Some(&victim), at);
        assert!(matches!(again, Err(Refused::Busy { .. })), "{again:?}");
        assert!(store.get_at(&victim, at).is_some());
        let again = store.insert_at(Inventory::default(), (512 << 10, 0), Some(&victim), at);
        assert!(store.get_at(&again.unwrap(), at).is_some());
        assert!(store.get_at(&victim, at).is_none());
        assert_eq!(store.len(), 9);
    }

    #[test]
    fn a_plan_reserves_its_bytes_and_a_session_needs_room_for_one() {
        let store = store(100);
        let t0 = Instant::now();
        // Charged 40, plans of 30: 70 <= 100, kept; a second: 40 + 40 + 30 = 110 > 100,
        // refused while the first is protected.
        let first = store
            .insert_at(Inventory::default(), (40, 30), None, t0)
            .unwrap();
        let second = store.insert_at(Inventory::default(), (40, 30), None, t0);
        assert!(matches!(second, Err(Refused::Busy { .. })), "{second:?}");
        // A plan of the first reserves 30: the room for an upload is 100 - 40 - 30 = 30,
        // and 60 once the plan is done.
        let plan = store.reserve(30, &first).unwrap();
        assert_eq!(store.room(None), 30);
        // A second plan of 40 does not fit beside it (40 + 30 + 40 = 110).
        assert!(store.reserve(40, &first).is_none());
        drop(plan);
        assert_eq!(store.room(None), 60);
        // An upload being read holds what is free of its need, evicting nothing: 60 of
        // 80, then a plan of 30 of the first does not fit (40 + 60 + 30 = 130 > 100).
        let reading = store.hold(80);
        assert_eq!(store.room(None), 0);
        assert!(store.reserve(30, &first).is_none());
        drop(reading);
        assert!(store.reserve(30, &first).is_some());
        // The replaced session's charge counts as room.
        assert_eq!(store.room(Some(&first)), 100);
    }

    #[test]
    fn idle_sessions_expire() {
        let store = store(u64::MAX);
        let t0 = Instant::now();
        let id = keep(&store, 1, t0).unwrap();
        // Used at 59 min: kept, and its hour starts again.
        assert!(store.get_at(&id, t0 + 59 * MINUTE).is_some());
        assert!(store.get_at(&id, t0 + 118 * MINUTE).is_some());
        // Idle 60 min: gone.
        assert!(store.get_at(&id, t0 + 178 * MINUTE).is_none());
        assert!(store.is_empty());
    }

    #[test]
    fn ids_are_random_hex() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| new_id().unwrap()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(ids.iter().all(|id| {
            id.len() == 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        }));
    }
}
