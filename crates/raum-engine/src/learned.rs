//! Evaluation terms learned by self-play and adopted: `raum lab learn` plays a
//! game against itself under its built-in terms (for most games derived from
//! the pieces' motion, [`EvalParams::derived`]), fits the terms to those games
//! and plays the fit against the built-in terms; a fit that wins that match is
//! adopted by copying its listing (`name = value` lines, as `raum tune --out`
//! writes them) to `learned/<game>.txt` beside this crate and naming it below.
//! [`EvalParams::for_variant`] reads it over the built-in terms, so a listing
//! may leave a term out.
//!
//! The listings, the commands that made them and the matches that accepted
//! them are in BENCHMARKS.md ("Learned evaluations").

use crate::eval::EvalParams;
use crate::tune::parse_listing;
use raum_rules::VariantId;

/// Each adopted game's listing.
const LEARNED: &[(VariantId, &str)] = &[
    // +77 ± 32 Elo against Five Up's terms over 430 games, SPRT H1 (BENCHMARKS.md,
    // "Learned evaluations", for both).
    (VariantId::FiveUpCylinder, include_str!("../learned/five-up-cylinder.txt")),
    // +145 ± 46 Elo against Five Up's terms over 180 games, SPRT H1.
    (VariantId::FiveUpTorus, include_str!("../learned/five-up-torus.txt")),
    // +75 ± 33 Elo against the derived terms over 340 games, SPRT H1.
    (VariantId::Forced3d, include_str!("../learned/forced-3d.txt")),
];

/// The adopted listing of `id`, if there is one.
pub fn listing(id: VariantId) -> Option<&'static str> {
    LEARNED.iter().find(|(v, _)| *v == id).map(|(_, text)| *text)
}

/// `base` with `id`'s adopted listing read over it (a listing that does not
/// read, which a test rules out, leaves `base`).
pub(crate) fn over(id: VariantId, base: EvalParams) -> EvalParams {
    match listing(id) {
        Some(text) => parse_listing(&base, text).unwrap_or(base),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_adopted_listing_reads_over_its_built_in_terms() {
        for &(id, text) in LEARNED {
            let base = EvalParams::built_in(id);
            let learned = parse_listing(&base, text).unwrap_or_else(|e| panic!("learned/{id}.txt: {e}"));
            assert_ne!(learned, base, "{id}: the listing changes nothing");
            assert_eq!(EvalParams::for_variant(id), learned, "{id}");
        }
    }
}
