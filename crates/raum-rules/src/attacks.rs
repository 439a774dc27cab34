//! Attack detection: which enemy pieces attack a cell.
//!
//! The enemy's pieces are grouped once per node ([`Sources`]) by how they
//! attack: per leaper kind, pawns, and per slide class. Then asking whether a
//! cell is attacked is a few table lookups plus one between-set test per
//! aligned slider (two on a cyclic line, one per arc).
//!
//! Under the non-combatant rule only pieces that have moved are sources.

use crate::piece::{Color, MAX_KINDS};
use crate::position::Position;
use crate::variant::Geometry;
use raum_bitboard::CellSet;

/// Most slide classes a variant may have (distinct sets of kinds sliding along a direction).
pub(crate) const MAX_CLASSES: usize = 8;

/// One side's pieces grouped by how they attack.
#[derive(Clone, Copy)]
pub(crate) struct Sources<S> {
    /// The side's pawn set (the orientation of its pawns).
    pub pawn_set: usize,
    /// Parallel to `Variant::leaper_kinds`.
    pub leapers: [S; MAX_KINDS],
    pub pawns: S,
    /// Parallel to `Variant::slide_classes`.
    pub sliders: [S; MAX_CLASSES],
}

impl<S: CellSet> Position<S> {
    /// Groups `by`'s pieces for attack queries.
    #[inline(always)]
    pub(crate) fn attack_sources(&self, by: Color) -> Sources<S> {
        if self.v.geometry == Geometry::Hooked {
            self.attack_sources_with::<true>(by)
        } else {
            self.attack_sources_with::<false>(by)
        }
    }

    /// [`Position::attack_sources`]; `EXOTIC` compiles in the non-combatant
    /// rule and riders (the generator's plain copy passes `false`).
    #[inline(always)]
    pub(crate) fn attack_sources_with<const EXOTIC: bool>(&self, by: Color) -> Sources<S> {
        let v = self.v;
        let mut theirs = self.by_color[by.index()];
        if EXOTIC && v.noncombatant {
            theirs &= !self.unmoved;
        }
        let mut src = Sources {
            pawn_set: self.pawn_set(by),
            leapers: [S::EMPTY; MAX_KINDS],
            pawns: S::EMPTY,
            sliders: [S::EMPTY; MAX_CLASSES],
        };
        for (i, k) in v.leaper_kinds.iter().enumerate() {
            src.leapers[i] = self.by_kind[k.index()] & theirs;
        }
        if EXOTIC && v.rider_leaper != usize::MAX {
            self.only_riding(&mut src);
        }
        if let Some(p) = v.pawn {
            src.pawns = self.by_kind[p.index()] & theirs;
        }
        for (i, class) in v.slide_classes.iter().enumerate() {
            let mut mask = class.kinds;
            let mut set = S::EMPTY;
            while mask != 0 {
                set |= self.by_kind[mask.trailing_zeros() as usize];
                mask &= mask - 1;
            }
            src.sliders[i] = set & theirs;
        }
        src
    }

    /// A lone unicorn attacks nothing; one riding a piece attacks (kept out
    /// of line: plain variants never come here).
    #[cold]
    #[inline(never)]
    fn only_riding(&self, src: &mut Sources<S>) {
        src.leapers[self.v.rider_leaper] &= self.stacks();
    }

    /// Whether aligned cells `a` and `b` are joined by a line free of `occ`:
    /// the one arc between them, or on a cyclic line either arc (`EXOTIC`
    /// compiles the second arc in).
    #[inline(always)]
    fn joined_with<const EXOTIC: bool>(&self, a: usize, b: usize, occ: S) -> bool {
        let geo = &self.v.geo;
        (geo.between(a, b) & occ).is_empty() || (EXOTIC && self.v.cyclic && (geo.between_alt(a, b) & occ).is_empty())
    }

    /// The pieces that can capture and be captured: those that have moved
    /// under the non-combatant rule, every cell elsewhere.
    #[inline(always)]
    pub(crate) fn combatants(&self) -> S {
        if self.v.noncombatant { self.v.geo.all() & !self.unmoved } else { self.v.geo.all() }
    }

    /// The pieces of `src` (minus `exclude`) attacking `cell` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn attackers(&self, src: &Sources<S>, cell: usize, occ: S, exclude: S) -> S {
        self.attackers_with::<true>(src, cell, occ, exclude)
    }

    /// [`Position::attackers`]; `EXOTIC` compiles in cyclic lines' second arc.
    #[inline(always)]
    pub(crate) fn attackers_with<const EXOTIC: bool>(&self, src: &Sources<S>, cell: usize, occ: S, exclude: S) -> S {
        let v = self.v;
        let n = v.cells();
        let mut found = S::EMPTY;
        for (i, k) in v.leaper_kinds.iter().enumerate() {
            found |= v.capture_leaps_from[k.index() * n + cell] & src.leapers[i];
        }
        found |= v.pawn_captures_from[src.pawn_set * n + cell] & src.pawns;
        for (i, class) in v.slide_classes.iter().enumerate() {
            for c in (class.rays[cell] & src.sliders[i] & !exclude).cells() {
                if self.joined_with::<EXOTIC>(cell, c, occ) {
                    found.insert(c);
                }
            }
        }
        found & !exclude
    }

    /// Whether any piece of `src` (minus `exclude`) attacks `cell` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn is_attacked(&self, src: &Sources<S>, cell: usize, occ: S, exclude: S) -> bool {
        self.is_attacked_with::<true>(src, cell, occ, exclude)
    }

    /// [`Position::is_attacked`]; `EXOTIC` compiles in cyclic lines' second arc.
    #[inline(always)]
    pub(crate) fn is_attacked_with<const EXOTIC: bool>(
        &self,
        src: &Sources<S>,
        cell: usize,
        occ: S,
        exclude: S,
    ) -> bool {
        let v = self.v;
        let n = v.cells();
        let mut found = v.pawn_captures_from[src.pawn_set * n + cell] & src.pawns;
        for (i, k) in v.leaper_kinds.iter().enumerate() {
            found |= v.capture_leaps_from[k.index() * n + cell] & src.leapers[i];
        }
        if (found & !exclude).any() {
            return true;
        }
        for (i, class) in v.slide_classes.iter().enumerate() {
            for c in (class.rays[cell] & src.sliders[i] & !exclude).cells() {
                if self.joined_with::<EXOTIC>(cell, c, occ) {
                    return true;
                }
            }
        }
        false
    }
}
