//! [`Refusal`]: a refused or failed request, as an HTTP status and a
//! message; and a store's failure as a refusal.

use crate::engine_pool::PoolError;
use crate::store::StoreError;

/// A refused or failed request: an HTTP status and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status.
    pub status: u16,
    /// What was wrong, for people.
    pub message: String,
}

impl Refusal {
    /// A refusal with this status.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        Refusal { status, message: message.into() }
    }
}

/// A store's failure: `409` for a move another request (or another server
/// instance) stored first, `503` for a database without a free connection,
/// `500` otherwise.
pub(super) fn stored(e: StoreError) -> Refusal {
    let status = match e {
        StoreError::OutOfOrder(..) | StoreError::Finished(..) => 409,
        StoreError::Busy(_) => 503,
        _ => {
            tracing::error!(error = %e, "the store failed");
            500
        }
    };
    Refusal::new(status, format!("the game could not be stored: {e}"))
}

/// The engine pool's refusals as answers: a full queue is `503`, a cap `429`.
impl From<PoolError> for Refusal {
    fn from(e: PoolError) -> Self {
        let status = match e {
            PoolError::Busy(_) => 503,
            PoolError::Limit(_) => 429,
            PoolError::Failed => 500,
        };
        Refusal::new(status, e.to_string())
    }
}
