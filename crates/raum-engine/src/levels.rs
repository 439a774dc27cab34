//! Playing levels for people: from "a beginner can win" to the full engine.
//!
//! A level is a search budget (a depth or a node count, so that it plays
//! the same on any machine; the time limit only guards against a slow one)
//! and a way of choosing among the best moves it finds: the search keeps
//! several lines (MultiPV) and the level picks one at random, each line's
//! chance falling by a factor e for every `spread` centipawns it scores
//! below the best. A low level thus plays reasonable-looking moves and now
//! and then a worse one, as a weaker player does, rather than random
//! blunders; the top level is the engine itself. One level chooses as a
//! beginner who grabs material instead ([`Level::grab`]: Raumschach's level
//! 2, where the ladder needed it). The random choice is seeded
//! ([`Skill::new`]), so a game between levels repeats exactly.
//!
//! Levels between the whole ones ([`Skill::with_strength`], the protocol's
//! `UCI_Elo`) play each move at one of the two neighbouring levels, the
//! upper one with the fraction's chance, so their strength lies between.

use crate::{Limits, Score, SearchInfo};
use raum_rules::{Kind, Move, MoveKind, Position, VariantId, Width};
use std::time::Duration;

/// The number of levels; the last is the full engine.
pub const LEVELS: u32 = 15;

/// What one level searches and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Iterations to complete, if the level stops at a depth.
    pub depth: Option<u32>,
    /// Nodes per move.
    pub nodes: u64,
    /// Lines searched to choose among (1: the best move, always).
    pub lines: usize,
    /// Centipawns below the best line that divide a line's chance by e.
    pub spread: i32,
    /// Chooses as a beginner who grabs material instead of weighing lines
    /// (`lines` and `spread` then go unused): mates in one when it can, else
    /// takes the most valuable piece it can, else plays any move, but never
    /// one that lets the opponent mate in one while another does not (ties
    /// at random). The greedy capturer `raum match` anchors the levels with,
    /// made safe against the one blunder a beginner learns first.
    pub grab: bool,
}

/// The levels 1..=[`LEVELS`], weakest first, as Five Up's ladder set them
/// and as every variant without a table of its own plays them
/// ([`level_table`]; `docs/levels-ladder.tsv`, BENCHMARKS.md "Levels"):
/// level 1 loses most games to a player that only grabs material, level 2
/// beats it, and each level scores 60% to 90% against the one below. The
/// weakest levels look one move ahead and choose among all moves, a wide
/// spread making the choice nearly blind; then the spread narrows, the depth
/// grows, and the top levels are the engine's own search at growing node
/// budgets.
pub const LEVEL_TABLE: [Level; LEVELS as usize] = [
    spread(Some(1), 100_000, 256, 2000),
    spread(Some(1), 100_000, 256, 250),
    spread(Some(1), 100_000, 256, 150),
    spread(Some(1), 100_000, 256, 90),
    spread(Some(1), 100_000, 256, 55),
    spread(Some(2), 100_000, 12, 100),
    spread(Some(2), 100_000, 12, 50),
    spread(Some(2), 100_000, 12, 20),
    spread(Some(3), 100_000, 8, 60),
    spread(None, 6_000, 3, 20),
    spread(None, 8_000, 2, 15),
    spread(None, 10_000, 1, 0),
    spread(None, 25_000, 1, 0),
    spread(None, 60_000, 1, 0),
    spread(None, 150_000, 1, 0),
];

/// Raumschach's levels: Five Up's but for levels 2 and 3. There the greedy
/// capturer draws a quarter of its games even against the random mover, so
/// a level that beats it by weighing lines, as Five Up's level 2 does,
/// converts against level 1 nearly every time (95.5%); the grabbing beginner
/// beats greedy and scores 60% to 90% against level 1, and level 3 chooses
/// with a spread between the two it stands between.
const RAUMSCHACH_TABLE: [Level; LEVELS as usize] = {
    let mut t = LEVEL_TABLE;
    t[1] = Level { depth: Some(1), nodes: 100_000, lines: 1, spread: 0, grab: true };
    t[2] = spread(Some(1), 100_000, 256, RAUMSCHACH_L3_SPREAD);
    t
};

const RAUMSCHACH_L3_SPREAD: i32 = 120;

const fn spread(depth: Option<u32>, nodes: u64, lines: usize, spread: i32) -> Level {
    Level { depth, nodes, lines, spread, grab: false }
}

/// The levels of the variant `id`: its own table where its ladder set one
/// (Raumschach), else Five Up's ([`LEVEL_TABLE`]). The budgets (depth,
/// nodes) are the same in every table; only the ways of choosing differ.
///
/// ```
/// use raum_rules::VariantId;
/// assert!(raum_engine::level_table(VariantId::Raumschach)[1].grab);
/// assert_eq!(raum_engine::level_table(VariantId::Octahedral), &raum_engine::LEVEL_TABLE);
/// ```
pub fn level_table(id: VariantId) -> &'static [Level; LEVELS as usize] {
    match id {
        VariantId::Raumschach => &RAUMSCHACH_TABLE,
        _ => &LEVEL_TABLE,
    }
}

/// Node budgets of the levels 1..=[`LEVELS`] (the search's own caps; see [`LEVEL_TABLE`]).
pub const LEVEL_NODES: [u64; LEVELS as usize] = {
    let mut n = [0; LEVELS as usize];
    let mut i = 0;
    while i < n.len() {
        n[i] = LEVEL_TABLE[i].nodes;
        i += 1;
    }
    n
};

/// The search limits of playing level `level` (1..=[`LEVELS`]), `None` outside that
/// range; the same in every variant ([`level_table`]). The level's way of
/// choosing is [`Skill`]'s.
///
/// ```
/// assert_eq!(raum_engine::level_limits(1).unwrap().depth, Some(1));
/// assert_eq!(raum_engine::level_limits(raum_engine::LEVELS).unwrap().nodes, Some(150_000));
/// assert!(raum_engine::level_limits(raum_engine::LEVELS + 1).is_none());
/// ```
pub fn level_limits(level: u32) -> Option<Limits> {
    let l = LEVEL_TABLE.get((level as usize).wrapping_sub(1))?;
    Some(Limits { nodes: Some(l.nodes), depth: l.depth, movetime: Some(Duration::from_secs(60)), ..Limits::default() })
}

/// A level at play: which one, and the seeded choices it makes.
///
/// ```
/// use raum_engine::{Engine, Limits, Skill};
/// use raum_rules::{Game, Position, Variant, VariantId};
/// use std::sync::{Arc, atomic::AtomicBool};
/// let game = Game::new(Position::start(Variant::get(VariantId::FiveUp)));
/// let mut engine = Engine::new(1, 1);
/// engine.set_skill(Skill::new(2, 7));
/// let r = engine.search(&game, &Limits::default(), Arc::new(AtomicBool::new(false)), &mut |_| {});
/// assert!(game.position().is_legal(r.best.unwrap()));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    /// 1.0..=LEVELS; a fraction mixes two levels.
    strength: f64,
    /// A level of one's own instead ([`Skill::custom`]); boxed, as the
    /// engine that holds a skill is moved between threads by value.
    custom: Option<Box<Level>>,
    rng: u64,
}

impl Skill {
    /// Level `level` (1..=[`LEVELS`]) choosing with the seed `seed`;
    /// `None` outside the range.
    pub fn new(level: u32, seed: u64) -> Option<Skill> {
        (1..=LEVELS).contains(&level).then(|| Skill { strength: f64::from(level), custom: None, rng: seed })
    }

    /// A strength between the levels (`3.25`: level 3, and a quarter of the
    /// moves at level 4), clamped to 1..=[`LEVELS`].
    pub fn with_strength(strength: f64, seed: u64) -> Skill {
        let strength = if strength.is_nan() { 1.0 } else { strength.clamp(1.0, f64::from(LEVELS)) };
        Skill { strength, custom: None, rng: seed }
    }

    /// A level outside the table, for calibrating one: every move searches
    /// `level`'s budget and chooses as it says. Its [`Skill::strength`] is 1.
    pub fn custom(level: Level, seed: u64) -> Skill {
        Skill { strength: 1.0, custom: Some(Box::new(level)), rng: seed }
    }

    /// The strength: a whole level, or between two.
    pub fn strength(&self) -> f64 {
        self.strength
    }

    /// Whether this is the top level: the engine as it is.
    pub fn is_full(&self) -> bool {
        self.custom.is_none() && self.strength >= f64::from(LEVELS)
    }

    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The level that plays the next move (of the two around a fraction) in
    /// the variant `id`.
    pub(crate) fn level_for_move(&mut self, id: VariantId) -> Level {
        if let Some(level) = &self.custom {
            return **level;
        }
        let low = self.strength.floor();
        let frac = self.strength - low;
        let level = if frac > 0.0 && self.unit() < frac { low + 1.0 } else { low };
        level_table(id)[(level as usize).clamp(1, LEVELS as usize) - 1]
    }

    /// The index of the line to play among `lines` (best first).
    pub(crate) fn choose(&mut self, level: &Level, lines: &[SearchInfo]) -> usize {
        if lines.len() <= 1 || level.spread <= 0 {
            return 0;
        }
        let value = |s: Score| match s {
            Score::Cp(cp) => f64::from(cp),
            // Mates far beyond any material: a found mate is (almost) always played.
            Score::Mate(n) if n > 0 => 100_000.0 - f64::from(n),
            Score::Mate(n) => -100_000.0 - f64::from(n),
        };
        let best = lines.iter().map(|l| value(l.score)).fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> =
            lines.iter().map(|l| (-(best - value(l.score)) / f64::from(level.spread)).exp()).collect();
        let mut pick = self.unit() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if pick < *w {
                return i;
            }
            pick -= w;
        }
        0
    }
}

impl Skill {
    /// The grabbing beginner's move ([`Level::grab`]) in `pos`, pieces valued by
    /// `value`; `None` when there is no legal move.
    pub(crate) fn grab<S: Width>(&mut self, pos: &Position<S>, value: impl Fn(Kind) -> i32) -> Option<Move> {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mates = |p: &Position<S>| p.is_check() && p.count_legal() == 0;
        let mating: Vec<Move> = moves.iter().copied().filter(|&m| mates(&pos.play_copy(m))).collect();
        if !mating.is_empty() {
            return Some(mating[self.below(mating.len())]);
        }
        // Tiers by the value taken, the biggest first (a move that takes
        // nothing below any capture); in each, the moves in a random order.
        let mut tiers: Vec<(i32, Vec<Move>)> = Vec::new();
        for &m in &moves {
            let taken = captured(pos, m).map_or(-1, &value);
            match tiers.iter_mut().find(|t| t.0 == taken) {
                Some(t) => t.1.push(m),
                None => tiers.push((taken, vec![m])),
            }
        }
        tiers.sort_by_key(|t| std::cmp::Reverse(t.0));
        for (_, tier) in &mut tiers {
            for i in (1..tier.len()).rev() {
                let j = self.below(i + 1);
                tier.swap(i, j);
            }
        }
        let allows_mate = |m: Move| {
            let after = pos.play_copy(m);
            after.legal_moves().iter().any(|&r| mates(&after.play_copy(r)))
        };
        let safe = tiers.iter().flat_map(|t| t.1.iter()).copied().find(|&m| !allows_mate(m));
        // Every move allows a mate: the grab, then.
        safe.or_else(|| tiers.first().and_then(|t| t.1.first().copied()))
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n - 1)
    }
}

/// The kind a legal move `m` takes, if it takes one.
fn captured<S: Width>(pos: &Position<S>, m: Move) -> Option<Kind> {
    match m.kind() {
        MoveKind::Castle => None,
        // The pawn taken is of the taker's kind.
        MoveKind::EnPassant => pos.piece_at(m.from()).map(|p| p.kind),
        _ => pos.piece_at(m.to()).filter(|p| p.color != pos.side_to_move()).map(|p| p.kind),
    }
}

/// `limits` cut to `level`'s budget.
pub(crate) fn capped(limits: &Limits, level: &Level) -> Limits {
    let mut l = limits.clone();
    l.nodes = Some(l.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
    if let Some(d) = level.depth {
        l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::Move;

    fn line(cp: i32, mv: usize) -> SearchInfo {
        SearchInfo {
            depth: 1,
            seldepth: 1,
            score: Score::Cp(cp),
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![Move::normal(mv, mv + 1)],
            multipv: 1,
            hashfull: 0,
        }
    }

    #[test]
    fn choices_favour_the_better_lines_and_repeat_under_a_seed() {
        let lines = [line(50, 0), line(40, 1), line(-300, 2)];
        let level = spread(Some(2), 1000, 3, 80);
        let mut a = Skill::new(3, 11).unwrap();
        let mut b = Skill::new(3, 11).unwrap();
        let mut counts = [0; 3];
        for _ in 0..3000 {
            let i = a.choose(&level, &lines);
            assert_eq!(i, b.choose(&level, &lines));
            counts[i] += 1;
        }
        // Weights 1, e^(-1/8), e^(-350/80): about 52%, 46%, 0.7%.
        assert!(counts[0] > counts[1] && counts[1] > 20 * counts[2], "{counts:?}");
        assert!(counts[2] > 0, "{counts:?}");
    }

    #[test]
    fn the_top_level_and_single_lines_take_the_best() {
        let lines = [line(0, 0), line(0, 1)];
        let mut s = Skill::new(LEVELS, 1).unwrap();
        assert!(s.is_full());
        for _ in 0..100 {
            assert_eq!(s.choose(&LEVEL_TABLE[LEVELS as usize - 1], &lines), 0);
        }
        assert_eq!(Skill::new(0, 1), None);
        assert_eq!(Skill::new(LEVELS + 1, 1), None);
        assert_eq!(Skill::with_strength(f64::NAN, 1).strength(), 1.0);
        assert_eq!(Skill::with_strength(99.0, 1).strength(), f64::from(LEVELS));
    }

    #[test]
    fn a_fraction_mixes_the_two_levels() {
        let mut s = Skill::with_strength(2.25, 5);
        let upper = (0..4000).filter(|_| s.level_for_move(VariantId::FiveUp) == LEVEL_TABLE[2]).count();
        assert!((800..1200).contains(&upper), "{upper}");
    }

    #[test]
    fn a_custom_level_plays_every_move_as_it_says() {
        let own = spread(Some(2), 777, 9, 123);
        let mut s = Skill::custom(own, 3);
        assert!(!s.is_full(), "a custom level is never the full engine");
        assert!((0..50).all(|_| s.level_for_move(VariantId::Raumschach) == own));
        // Even one line without a spread: a budget of its own.
        assert!(!Skill::custom(spread(None, 10, 1, 0), 3).is_full());
    }

    #[test]
    fn every_variant_has_the_same_budgets_level_by_level() {
        for id in VariantId::ALL {
            for (own, five) in level_table(id).iter().zip(&LEVEL_TABLE) {
                assert_eq!((own.depth, own.nodes), (five.depth, five.nodes), "{id:?}");
            }
        }
    }

    #[test]
    fn budgets_cap_the_asked_limits() {
        let asked = Limits { nodes: Some(5_000), depth: Some(9), ..Limits::default() };
        let l = capped(&asked, &LEVEL_TABLE[0]);
        assert_eq!((l.nodes, l.depth), (Some(5_000), Some(1)));
        let l = capped(&Limits::default(), &spread(None, 30_000, 3, 20));
        assert_eq!((l.nodes, l.depth), (Some(30_000), None));
    }
}
