//! Scores: mate and draw values, their conversion for the protocol and the
//! transposition table.

use super::MAX_PLY;
use crate::Score;
use crate::tt::Bound;
use raum_rules::{Position, StalemateRule, Width};

/// The score of delivering mate now; mate in `p` plies scores `MATE - p`.
pub(crate) const MATE: i32 = 32_000;

/// Scores at least this large in magnitude are mates.
pub(super) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

pub(super) const INF: i32 = 32_500;

pub(super) const DRAW: i32 = 0;

/// What stalemating the opponent is worth, in centipawns, where the variant
/// scores a stalemate (Savard's boards: 3/5 of a point to the side that
/// stalemates, 2/5 to the side stalemated); the stalemated side to move
/// scores `-STALEMATE`. Elsewhere a stalemate is a draw.
// A certain 3/5 is a tenth of a point above a draw and two fifths below a
// win. On the logistic scale `raum match` reports, 3/5 is the expected score
// of a side about 70 Elo stronger: a modest edge, of the order of an extra
// pawn, not a won game. The evaluation's pawn is 100 (Savard's boards derive
// their values with the pawn at 100), so a stalemate counts as a pawn: the
// search takes it over a draw or a level game, plays on when a piece or more
// up (which usually wins, worth more than 3/5), always prefers mate (mate
// scores are over 300 times higher), and the side about to be stalemated
// accepts it only when it is more than a pawn down.
pub(super) const STALEMATE: i32 = 100;

/// The score of the side to move in `pos` when it has no move and is not
/// in check: a draw, or being stalemated where the variant scores that.
pub(super) fn stalemated<S: Width>(pos: &Position<S>) -> i32 {
    match pos.variant().stalemate_rule() {
        StalemateRule::Draw => DRAW,
        StalemateRule::ThreeFifths => -STALEMATE,
    }
}

/// The score in the protocol's terms.
pub(super) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

/// Mate scores are stored relative to the node, not the root.
pub(super) fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub(super) fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The stored score if its bound settles the window `(alpha, beta)`.
#[inline(always)]
pub(super) fn tt_cutoff(bound: Bound, score: i32, alpha: i32, beta: i32) -> Option<i32> {
    let cut = match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    cut.then_some(score)
}

/// The bound a node's score `best` is: a lower bound if it failed high, exact
/// if it raised alpha (from `original_alpha` to `alpha`), else an upper bound.
#[inline(always)]
pub(super) fn bound(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
