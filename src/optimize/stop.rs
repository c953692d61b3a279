//! [`Stop`]: a caller's request to stop a plan, checked between host SKUs, clusters and service levels.

use std::fmt;
use std::sync::Arc;

use super::OptimizeError;

/// A caller's request to stop planning: a test the optimizer calls between host SKUs,
/// clusters and the service levels of one cluster's search, ending the plan with [`OptimizeError::Stopped`] once it answers
/// `true`. The service level under way is searched to its end first, so a plan stops
/// within one level's MILPs. The default never stops.
///
/// A service that re-plans as its user types stops the plan nobody waits for any more:
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use dsplan::optimize::Stop;
///
/// let superseded = Arc::new(AtomicBool::new(false));
/// let watch = Arc::clone(&superseded);
/// let stop = Stop::when(move || watch.load(Ordering::Relaxed));
/// assert!(stop.check().is_ok());
/// superseded.store(true, Ordering::Relaxed);
/// assert!(stop.check().is_err());
/// ```
#[derive(Clone, Default)]
pub struct Stop(Option<Arc<dyn Fn() -> bool + Send + Sync>>);

impl Stop {
    /// A stop that `stopped` decides: planning ends at the next check after it answers
    /// `true`. It is called once per host SKU, cluster and level searched, from the
    /// planning threads, so it should be quick (an atomic load).
    pub fn when(stopped: impl Fn() -> bool + Send + Sync + 'static) -> Stop {
        Stop(Some(Arc::new(stopped)))
    }

    /// Whether the caller asked to stop.
    pub fn requested(&self) -> bool {
        self.0.as_ref().is_some_and(|stopped| stopped())
    }

    /// `Ok` while planning may go on.
    ///
    /// # Errors
    /// [`OptimizeError::Stopped`] once the caller asked to stop.
    pub fn check(&self) -> Result<(), OptimizeError> {
        if self.requested() {
            Err(OptimizeError::Stopped)
        } else {
            Ok(())
        }
    }
}

impl fmt::Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Stop::when(..)"
        } else {
            "Stop::never"
        })
    }
}

/// Every stop is equal to every other: options compare by what they plan, and a stop
/// changes no figure of a plan, only whether it is finished.
impl PartialEq for Stop {
    fn eq(&self, _: &Stop) -> bool {
        true
    }
}
