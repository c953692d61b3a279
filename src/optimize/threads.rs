//! Independent pieces of work (host SKUs, clusters) run on scoped threads ([`in_threads`]).

use std::panic::AssertUnwindSafe;
use std::sync::Mutex;

use super::OptimizeError;

/// `work` applied to each item, on as many threads as the machine runs at once
/// (`std::thread::available_parallelism`, at most one per item: the calling thread and
/// scoped ones), each taking the next item not yet taken; the results in the items'
/// order. Fewer threads than items keep the
/// allocator's per-thread arenas, and the fresh pages each one touches, to the cores'
/// count. An item whose work panics gives [`OptimizeError::Solver`] (a bug) in its place;
/// the other items are done.
pub(super) fn in_threads<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> Result<R, OptimizeError> + Sync,
) -> Vec<Result<R, OptimizeError>> {
    let count = items.len();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count);
    let queue = Mutex::new(items.into_iter().enumerate());
    // Each worker takes the next item until none is left; the calling thread is one of
    // them (one thread fewer to start, and it is already running).
    let take_all = || {
        let mut done = Vec::new();
        // A poisoned lock (a thread panicked while taking an item) ends the taking; the
        // items not done get the error below.
        while let Some((i, item)) = queue.lock().ok().and_then(|mut q| q.next()) {
            if let Ok(r) = std::panic::catch_unwind(AssertUnwindSafe(|| work(item))) {
                done.push((i, r));
            }
        }
        done
    };
    let take_all = &take_all;
    let done: Vec<(usize, Result<R, OptimizeError>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(take_all)).collect();
        let mut done = take_all();
        for h in handles {
            done.extend(h.join().unwrap_or_default());
        }
        done
    });
    let mut results: Vec<Option<Result<R, OptimizeError>>> = (0..count).map(|_| None).collect();
    for (i, r) in done {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(r);
        }
    }
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| Err(OptimizeError::Solver("a planning thread panicked".into())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_with_more_items_than_threads() {
        // 40 items, more than any test machine's cores: item i gives i * i.
        let items: Vec<u64> = (0..40).collect();
        let out = in_threads(items, |i| Ok(i * i));
        let got: Vec<u64> = out.into_iter().map(|r| r.unwrap()).collect();
        let want: Vec<u64> = (0..40).map(|i| i * i).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_panicking_item_gives_a_solver_error_in_its_place() {
        // Item 3 panics; every other item's result is kept in its place.
        let out = in_threads((0..8u32).collect(), |i| {
            if i == 3 {
                panic!("item 3");
            }
            Ok(i + 100)
        });
        assert_eq!(out.len(), 8);
        for (i, r) in out.into_iter().enumerate() {
            match r {
                Ok(v) => assert_eq!(v, i as u32 + 100),
                Err(e) => assert!(matches!(e, OptimizeError::Solver(_)), "item {i}: {e:?}"),
            }
        }
    }
}
