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

pub(super) fn stored(e: StoreError) -> Refusal {
    eprintln!("raum serve: {e}");
    Refusal::new(500, format!("the game could not be stored: {e}"))
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
