//! Playing levels for people: node budgets, so that a level plays the same
//! on any machine (the time limit only guards against a slow one).

use crate::Limits;
use std::time::Duration;

/// Node budgets of the levels 1..=10: deterministic strength steps.
pub const LEVEL_NODES: [u64; 10] =
    [1_000, 4_000, 15_000, 50_000, 150_000, 400_000, 1_000_000, 2_500_000, 6_000_000, 15_000_000];

/// The search limits of playing level `level` (1..=10), `None` outside that range.
///
/// ```
/// assert_eq!(raum_engine::level_limits(1).unwrap().nodes, Some(1_000));
/// assert!(raum_engine::level_limits(11).is_none());
/// ```
pub fn level_limits(level: u32) -> Option<Limits> {
    let &nodes = LEVEL_NODES.get((level as usize).wrapping_sub(1))?;
    Some(Limits { nodes: Some(nodes), movetime: Some(Duration::from_secs(60)), ..Limits::default() })
}
