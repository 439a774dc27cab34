//! Game results: checkmate, stalemate and the draw rules, and the position's
//! own outcome (repetition needs the game: see [`Game`](crate::Game)); how a
//! game of any number of sides ended and what each side scored ([`End`],
//! [`GameResult`]), the form every interface reads.

use crate::piece::Color;
use crate::position::Position;
use crate::spec::StalemateRule;
use crate::width::Width;

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 100 plies without a capture or a pawn move.
    FiftyMoves,
    /// The same position (side to move, rights, en-passant options) a third time.
    Repetition,
    /// Only the two kings are left.
    BareKings,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` checkmated the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// `winner` stalemated the other side where a stalemate is scored, not
    /// drawn (Savard's boards: 3/5 to the winner, 2/5 to the other side).
    Stalemate {
        /// The side that stalemated.
        winner: Color,
    },
    /// A draw.
    Draw(DrawReason),
}

/// A side's score from a game, exact: in sixtieths of a point, so that
/// halves, fifths (Savard's stalemate) and the thirds and sixths of games
/// with more sides are all whole numbers.
///
/// ```
/// use raum_rules::{Color, Outcome, Points};
/// let o = Outcome::Stalemate { winner: Color::Black };
/// assert_eq!(o.points(Color::Black), Points::THREE_FIFTHS);
/// assert_eq!(o.points(Color::White).to_string(), "2/5");
/// assert_eq!(o.points(Color::White).as_f64(), 0.4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u8);

impl Points {
    /// Nothing.
    pub const ZERO: Points = Points(0);
    /// A draw's half point.
    pub const HALF: Points = Points(30);
    /// Savard's stalemate, the side stalemated.
    pub const TWO_FIFTHS: Points = Points(24);
    /// Savard's stalemate, the side that stalemates.
    pub const THREE_FIFTHS: Points = Points(36);
    /// A win.
    pub const ONE: Points = Points(60);

    /// The score as a number of points (0.0 to 1.0).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 60.0
    }
}

impl core::fmt::Display for Points {
    /// `1`, `0`, or the lowest-terms fraction: `1/2`, `3/5`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (mut a, mut b) = (u32::from(self.0), 60u32);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let (num, den) = (u32::from(self.0) / a.max(1), 60 / a.max(1));
        if self.0 == 0 {
            f.write_str("0")
        } else if den == 1 {
            write!(f, "{num}")
        } else {
            write!(f, "{num}/{den}")
        }
    }
}

impl Outcome {
    /// What `side` scores.
    pub fn points(self, side: Color) -> Points {
        match self {
            Outcome::Checkmate { winner } if winner == side => Points::ONE,
            Outcome::Checkmate { .. } => Points::ZERO,
            Outcome::Stalemate { winner } if winner == side => Points::THREE_FIFTHS,
            Outcome::Stalemate { .. } => Points::TWO_FIFTHS,
            Outcome::Draw(_) => Points::HALF,
        }
    }

    /// The side that scored more, if one did.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Outcome::Checkmate { winner: Color::White } => f.write_str("1-0 (White mates)"),
            Outcome::Checkmate { winner: Color::Black } => f.write_str("0-1 (Black mates)"),
            Outcome::Stalemate { winner: Color::White } => f.write_str("3/5-2/5 (White stalemates)"),
            Outcome::Stalemate { winner: Color::Black } => f.write_str("2/5-3/5 (Black stalemates)"),
            Outcome::Draw(DrawReason::Stalemate) => f.write_str("1/2-1/2 (stalemate)"),
            Outcome::Draw(DrawReason::FiftyMoves) => f.write_str("1/2-1/2 (50-move rule)"),
            Outcome::Draw(DrawReason::Repetition) => f.write_str("1/2-1/2 (threefold repetition)"),
            Outcome::Draw(DrawReason::BareKings) => f.write_str("1/2-1/2 (bare kings)"),
        }
    }
}

/// Why a game ended, for two sides or more (the form
/// [`GameRules::result`](crate::GameRules::result) gives). A two-player game is
/// played by two teams of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// With teams: this side had no legal move and was in check; its team loses.
    Checkmate {
        /// The side mated.
        side: usize,
    },
    /// With teams, where a stalemate is scored (Savard's boards): this side
    /// had no legal move and was not in check; its team scores 2/5 and the
    /// other 3/5. (Where a stalemate is drawn: [`End::Draw`].)
    Stalemate {
        /// The side stalemated.
        side: usize,
    },
    /// With teams: this side resigned; its team scores 0, the other 1.
    /// (Every side for itself a resigning side is out, and the game ends
    /// only when one side is left: [`End::LastSide`].)
    Resignation {
        /// The side that resigned.
        side: usize,
    },
    /// Every side for itself: the others are out and this side wins.
    LastSide {
        /// The winner.
        side: usize,
    },
    /// A draw: a stalemate where it is drawn, only royals left, threefold
    /// repetition, or 50 moves (rounds) without a capture or a pawn move.
    Draw(DrawReason),
}

/// A finished game: why, and each side's score in turn order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Why it ended.
    pub end: End,
    /// Each side's score, in turn order.
    pub scores: Vec<Points>,
}

impl Outcome {
    /// The same result in the form for any number of sides (White is side 0).
    ///
    /// ```
    /// use raum_rules::{Color, End, Outcome, Points};
    /// let r = Outcome::Checkmate { winner: Color::Black }.result();
    /// assert_eq!(r.end, End::Checkmate { side: 0 });
    /// assert_eq!(r.scores, [Points::ZERO, Points::ONE]);
    /// ```
    pub fn result(self) -> GameResult {
        let end = match self {
            Outcome::Checkmate { winner } => End::Checkmate { side: winner.opponent().index() },
            Outcome::Stalemate { winner } => End::Stalemate { side: winner.opponent().index() },
            Outcome::Draw(reason) => End::Draw(reason),
        };
        GameResult { end, scores: Color::ALL.iter().map(|&c| self.points(c)).collect() }
    }
}

impl<S: Width> Position<S> {
    /// The result if the game is over by a rule that the position alone decides
    /// (everything but repetition, which needs the history: see [`Game`]).
    /// Mate and stalemate take precedence over the 50-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_legal() == 0 {
            return Some(if self.is_check() {
                Outcome::Checkmate { winner: self.side.opponent() }
            } else {
                match self.v.spec.stalemate {
                    StalemateRule::Draw => Outcome::Draw(DrawReason::Stalemate),
                    StalemateRule::ThreeFifths => Outcome::Stalemate { winner: self.side.opponent() },
                }
            });
        }
        if self.halfmove >= self.v.halfmove_limit(2) {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if (self.by_kind[self.v.king.index()] ^ self.occupied()).is_empty() {
            return Some(Outcome::Draw(DrawReason::BareKings));
        }
        None
    }
}
