//! Search features that can be switched off one at a time, so that a match
//! between the full engine and the engine without one feature measures what
//! that feature is worth (`raum match --a engine:nodes=N --b engine:nodes=N,off=lmr`).

use raum_rules::VariantId;
use std::fmt;
use std::str::FromStr;

/// One switchable part of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// Aspiration windows around the previous iteration's score.
    Aspiration,
    /// Principal-variation search: zero windows after the first move (off: full windows).
    Pvs,
    /// Quiescence search at the leaves (off: the static evaluation).
    Qsearch,
    /// Transposition-table cutoffs and hash move (the table is still written).
    Tt,
    /// One more ply for a side in check.
    CheckExtension,
    /// Null-move pruning.
    NullMove,
    /// Late-move reductions.
    Lmr,
    /// Captures ordered by victim and attacker, losing captures last (off: in generation order).
    MvvLva,
    /// Two killer moves per ply.
    Killers,
    /// History ordering of quiet moves.
    History,
    /// Reverse futility pruning (static evaluation far above beta near the leaves).
    ReverseFutility,
    /// Futility pruning of quiet moves (static evaluation far below alpha).
    Futility,
    /// Late-move pruning of quiet moves near the leaves.
    LateMovePruning,
    /// Delta pruning and the losing-capture filter in quiescence.
    Delta,
}

impl Feature {
    /// Every feature, in the order of [`Feature::name`]'s table.
    pub const ALL: [Feature; 14] = [
        Feature::Aspiration,
        Feature::Pvs,
        Feature::Qsearch,
        Feature::Tt,
        Feature::CheckExtension,
        Feature::NullMove,
        Feature::Lmr,
        Feature::MvvLva,
        Feature::Killers,
        Feature::History,
        Feature::ReverseFutility,
        Feature::Futility,
        Feature::LateMovePruning,
        Feature::Delta,
    ];

    /// The feature's short name, as `off=` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Aspiration => "aspiration",
            Feature::Pvs => "pvs",
            Feature::Qsearch => "qsearch",
            Feature::Tt => "tt",
            Feature::CheckExtension => "check-extension",
            Feature::NullMove => "null-move",
            Feature::Lmr => "lmr",
            Feature::MvvLva => "mvv-lva",
            Feature::Killers => "killers",
            Feature::History => "history",
            Feature::ReverseFutility => "reverse-futility",
            Feature::Futility => "futility",
            Feature::LateMovePruning => "lmp",
            Feature::Delta => "delta",
        }
    }

    fn bit(self) -> u32 {
        1 << self as u32
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Feature`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search feature '{0}' (features: {names})", names = feature_names())]
pub struct UnknownFeature(pub String);

fn feature_names() -> String {
    Feature::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

impl FromStr for Feature {
    type Err = UnknownFeature;

    /// ```
    /// use raum_engine::Feature;
    /// assert_eq!("lmr".parse::<Feature>(), Ok(Feature::Lmr));
    /// assert!("magic".parse::<Feature>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Feature, UnknownFeature> {
        let s = s.trim();
        Feature::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(s)).ok_or_else(|| UnknownFeature(s.to_string()))
    }
}

/// The set of features a search uses; [`Features::default`] has them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features(u32);

impl Default for Features {
    fn default() -> Features {
        Features(Feature::ALL.iter().fold(0, |bits, f| bits | f.bit()))
    }
}

impl Features {
    /// The features a variant's search uses unless told otherwise: those that
    /// won their matches in that variant (BENCHMARKS.md). In Raumschach the
    /// null move and the check extension lost at 5,000 and at 25,000 nodes a
    /// move (the null move again with its deeper reduction, at 40,000 nodes),
    /// and killers scored nothing measurable over 3,200 games from 5,000 to
    /// 40,000 nodes (+0.5 ± 10.1 Elo; +6.1 ± 13.9 over the 1,600 at 40,000), so the simpler
    /// search goes without them there; Five Up uses all.
    ///
    /// ```
    /// use raum_engine::{Feature, Features};
    /// use raum_rules::VariantId;
    /// assert!(Features::for_variant(VariantId::FiveUp).off().is_empty());
    /// let rs = Features::for_variant(VariantId::Raumschach);
    /// assert_eq!(rs.off(), [Feature::CheckExtension, Feature::NullMove, Feature::Killers]);
    /// ```
    pub fn for_variant(id: VariantId) -> Features {
        match id {
            VariantId::FiveUp => Features::default(),
            VariantId::Raumschach => Features::default()
                .without(Feature::NullMove)
                .without(Feature::CheckExtension)
                .without(Feature::Killers),
            _ => Features::default(),
        }
    }

    /// Whether `f` is on.
    #[inline(always)]
    pub fn has(self, f: Feature) -> bool {
        self.0 & f.bit() != 0
    }

    /// These features without `f`.
    pub fn without(self, f: Feature) -> Features {
        Features(self.0 & !f.bit())
    }

    /// These features with `f`.
    pub fn with(self, f: Feature) -> Features {
        Features(self.0 | f.bit())
    }

    /// The features that are off.
    pub fn off(self) -> Vec<Feature> {
        Feature::ALL.into_iter().filter(|&f| !self.has(f)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bits_are_distinct() {
        let mut seen = 0;
        for f in Feature::ALL {
            assert_eq!(f.name().parse::<Feature>(), Ok(f));
            assert_eq!(seen & f.bit(), 0);
            seen |= f.bit();
            let s = Features::default().without(f);
            assert!(!s.has(f));
            assert_eq!(s.off(), vec![f]);
        }
        assert!(Features::default().off().is_empty());
        let e = "nmp".parse::<Feature>().unwrap_err().to_string();
        assert!(e.contains("'nmp'") && e.contains("null-move"), "{e}");
    }
}
