//! Independent pieces of work (host SKUs, clusters) run on scoped threads ([`in_threads`]).

use super::OptimizeError;

/// `work` applied to each item on its own scoped thread; the results in the items' order. A
/// thread that panics gives [`OptimizeError::Solver`] (a bug) in its place.
pub(super) fn in_threads<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> Result<R, OptimizeError> + Sync,
) -> Vec<Result<R, OptimizeError>> {
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .into_iter()
            .map(|item| scope.spawn(move || work(item)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(OptimizeError::Solver("a planning thread panicked".into()))
                })
            })
            .collect()
    })
}
