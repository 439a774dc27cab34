//! The playing levels' Elo, per variant: the scale `UCI_Elo` reads.
//!
//! Each variant's scale is anchored on the random mover (Elo 0) and chained
//! from `raum match` results: random against the greedy capturer, level 1
//! against greedy, then every level against the one below (BENCHMARKS.md,
//! "Levels", has the matches, their error bars and the commands). A scale
//! lists the levels measured so far; a variant without a ladder of its own
//! reads Five Up's, the nearest game measured.
//!
//! The constants below are recorded measurements, not computed here: the
//! chain of `docs/levels-ladder.tsv`, whose rows name the commit that played
//! them and that build's bench signature. They stay true only while the
//! search does; `raum-cli`'s test `the_scale_is_the_ladder` recomputes the
//! chain from the file and fails once `raum bench --variant V` no longer
//! gives the rows' signature, so a change to the search must play the
//! ladder again.
//!
//! A strength between two levels plays each move at one of them
//! ([`crate::Skill::with_strength`]), so an Elo between two levels' is
//! reached by the fraction interpolated between their Elo.

use crate::LEVELS;
use raum_rules::VariantId;

/// Elo of levels 1, 2, ... in Five Up, random = 0 (BENCHMARKS.md, "Levels").
const FIVE_UP: &[f64] = &[
    460.0, 790.0, 1005.0, 1296.0, 1532.0, 1833.0, 2040.0, 2220.0, 2323.0, 2414.0, 2644.0, 2942.0, 3230.0, 3491.0,
    3701.0,
];

/// Elo of levels 1, 2, ... in Raumschach, random = 0.
const RAUMSCHACH: &[f64] =
    &[14.0, 312.0, 458.0, 646.0, 854.0, 1226.0, 1538.0, 1798.0, 1911.0, 2190.0, 2400.0, 2772.0, 3073.0, 3337.0, 3564.0];

/// A variant's measured scale: the Elo of levels 1..=n, n the levels
/// measured so far, and whether the ladder was played in this variant
/// (`false`: Five Up's, standing in).
///
/// ```
/// use raum_rules::VariantId;
/// let (elo, own) = raum_engine::level_elos(VariantId::FiveUp);
/// assert!(own && elo.len() >= 2 && elo.windows(2).all(|w| w[0] < w[1]));
/// assert!(!raum_engine::level_elos(VariantId::Octahedral).1);
/// ```
pub fn level_elos(id: VariantId) -> (&'static [f64], bool) {
    match id {
        VariantId::FiveUp => (FIVE_UP, true),
        VariantId::Raumschach => (RAUMSCHACH, true),
        _ => (FIVE_UP, false),
    }
}

/// The strength ([`crate::Skill::with_strength`]) that plays at `elo` in the
/// variant `id`, and whether `elo` lay within the measured scale (outside
/// it the strength is the nearest end's level).
///
/// ```
/// use raum_rules::VariantId;
/// let (elo, _) = raum_engine::level_elos(VariantId::FiveUp);
/// let half = (elo[0] + elo[1]) / 2.0;
/// assert_eq!(raum_engine::strength_for_elo(VariantId::FiveUp, half), (1.5, true));
/// assert_eq!(raum_engine::strength_for_elo(VariantId::FiveUp, -50.0), (1.0, false));
/// ```
pub fn strength_for_elo(id: VariantId, elo: f64) -> (f64, bool) {
    let (scale, _) = level_elos(id);
    let top = scale.len().min(LEVELS as usize);
    if elo.is_nan() || elo <= scale[0] {
        return (1.0, elo == scale[0]);
    }
    if elo >= scale[top - 1] {
        return (top as f64, elo == scale[top - 1]);
    }
    let i = scale.windows(2).position(|w| elo < w[1]).unwrap_or(top - 2);
    let frac = (elo - scale[i]) / (scale[i + 1] - scale[i]);
    ((i + 1) as f64 + frac, true)
}

/// The Elo a strength plays at in the variant `id`: interpolated between
/// its two levels, `None` beyond the measured ones.
///
/// ```
/// use raum_rules::VariantId;
/// let (elo, _) = raum_engine::level_elos(VariantId::Raumschach);
/// assert_eq!(raum_engine::elo_for_strength(VariantId::Raumschach, 2.0), Some(elo[1]));
/// assert_eq!(raum_engine::elo_for_strength(VariantId::Raumschach, 99.0), None);
/// ```
pub fn elo_for_strength(id: VariantId, strength: f64) -> Option<f64> {
    let (scale, _) = level_elos(id);
    if !(1.0..=scale.len() as f64).contains(&strength) {
        return None;
    }
    let i = (strength.floor() as usize - 1).min(scale.len().saturating_sub(2));
    let frac = strength - (i + 1) as f64;
    Some(match scale.get(i + 1) {
        Some(&next) => scale[i] + frac * (next - scale[i]),
        None => scale[i],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_rise_level_by_level_and_fit_the_table() {
        for id in VariantId::ALL {
            let (scale, _) = level_elos(id);
            assert!(!scale.is_empty() && scale.len() <= LEVELS as usize);
            assert!(scale.windows(2).all(|w| w[0] < w[1]), "{id:?}: {scale:?}");
        }
    }

    #[test]
    fn elo_and_strength_are_inverse_within_the_scale() {
        for id in [VariantId::FiveUp, VariantId::Raumschach] {
            let (scale, _) = level_elos(id);
            let (lo, hi) = (scale[0], scale[scale.len() - 1]);
            for k in 0..=40 {
                let elo = lo + (hi - lo) * f64::from(k) / 40.0;
                let (s, inside) = strength_for_elo(id, elo);
                assert!(inside);
                let back = elo_for_strength(id, s).unwrap();
                assert!((back - elo).abs() < 1e-6, "{id:?} {elo} -> {s} -> {back}");
            }
            assert_eq!(strength_for_elo(id, hi + 500.0), (scale.len() as f64, false));
            assert_eq!(strength_for_elo(id, f64::NAN), (1.0, false));
        }
    }
}
