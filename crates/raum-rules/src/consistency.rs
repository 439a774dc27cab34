//! A position's check of itself, as Stockfish's debug builds run `pos_is_ok`
//! after every move: in debug builds [`Position::play`] and
//! [`Position::unplay`] check the position and panic on the first
//! disagreement, so every test that plays moves (perft, the differential and
//! property tests, engine searches) also checks the incremental state against
//! a recomputation.
//!
//! Checking costs far more than a move (a 512-cell board's sets, lanes and
//! hash are rebuilt, attackers and pins found by stepping), and some tests
//! play millions of moves; so by default the check runs after one move in
//! 64, chosen by the position's hash (the same games check the same
//! moves). [`set_full_checks`] makes it run after every move, as the
//! consistency soak (`raum-engine/tests/soak.rs`) does.

use core::sync::atomic::{AtomicBool, Ordering};

static FULL: AtomicBool = AtomicBool::new(false);

/// Debug builds: check the position after every move (`true`), or after one
/// move in 64 (`false`, the default). Release builds check nothing after
/// a move; [`Position::check_consistency`] runs every check whenever it is
/// called.
pub fn set_full_checks(on: bool) {
    FULL.store(on, Ordering::Relaxed);
}

use crate::movegen::MAX_PINS;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use raum_bitboard::CellSet;
use raum_geometry::{DIRECTIONS, Vector};

impl<S: CellSet> Position<S> {
    /// Checks the position against itself and says what disagrees:
    /// - the sets per kind and per colour are disjoint, cover each other and
    ///   lie on the board, and the mailbox holds exactly their pieces;
    /// - each side has one king;
    /// - the hash equals one computed from scratch, and the line lanes equal
    ///   lanes rebuilt from the board;
    /// - the attackers of each king, and the pieces pinned to the side to
    ///   move's king, equal those found by stepping along the board with each
    ///   piece's motion data (no attack table involved; round cyclic lines
    ///   both ways; moved pieces only under the non-combatant rule).
    ///
    /// It does not require the side not to move to be out of check: a
    /// make-and-test legality check plays moves that leave it in check.
    ///
    /// ```
    /// use raum_rules::{Position, Variant, VariantId};
    /// let mut pos = Position::start(Variant::get(VariantId::FiveUp));
    /// let m = pos.legal_moves()[0];
    /// pos.play(m);
    /// assert_eq!(pos.check_consistency(), Ok(()));
    /// ```
    pub fn check_consistency(&self) -> Result<(), String> {
        self.check_structure()?;
        self.check_attacks()
    }

    /// The sets, mailbox, kings, hash and lanes.
    fn check_structure(&self) -> Result<(), String> {
        let v = self.v;
        let all = v.geo.all();
        let n = v.cells();
        let [white, black] = self.by_color;
        if (white & black).any() {
            return Err("a cell belongs to both colours".into());
        }
        let occ = white | black;
        if (occ & !all).any() {
            return Err("a piece stands off the board".into());
        }
        // Riding unicorns are the one man that shares a cell (the mailbox
        // marks the cell); each kind's set minus them must be disjoint.
        let shared = (0..n).filter(|&c| self.rider_at(c)).fold(S::EMPTY, |s, c| s | S::single(c));
        let own_set = |k: usize| {
            if v.rider.is_some_and(|r| r.index() == k) { self.by_kind[k] & !shared } else { self.by_kind[k] }
        };
        if let Some(r) = v.rider {
            if (shared & !self.by_kind[r.index()]).any() {
                return Err("a cell marked shared holds no unicorn".into());
            }
            if (shared & (self.by_kind[v.king.index()] | own_set(r.index()))).any() {
                return Err("a unicorn rides with a king or another unicorn".into());
            }
        } else if shared.any() {
            return Err("a cell is marked shared in a variant without riders".into());
        }
        let mut kinds = S::EMPTY;
        for k in 0..v.kinds {
            if (kinds & own_set(k)).any() {
                return Err(format!("kind {} shares a cell with another kind", v.spec.pieces[k].letter));
            }
            kinds |= own_set(k);
        }
        if kinds != occ || self.by_kind[v.kinds..].iter().any(|b| b.any()) {
            return Err("the kind sets and the colour sets hold different cells".into());
        }
        for cell in occ.cells() {
            let color = if white.has(cell) { Color::White } else { Color::Black };
            let kind = (0..v.kinds).find(|&k| own_set(k).has(cell)).map(|k| Kind(k as u8));
            let expected = kind.map(|kind| Piece { color, kind });
            if self.piece_at(cell) != expected {
                return Err(format!(
                    "the mailbox has {:?} on {} but the sets have {expected:?}",
                    self.piece_at(cell),
                    v.cell_name(cell)
                ));
            }
        }
        let filled = self.mailbox.as_ref()[..n].iter().filter(|&&b| b != 0).count();
        if filled != occ.count() as usize || self.mailbox.as_ref()[n..].iter().any(|&b| b != 0) {
            return Err(format!("the mailbox holds {filled} pieces, the sets {}", occ.count()));
        }
        for c in Color::ALL {
            let kings = self.pieces(c, v.king).count();
            if kings != 1 {
                return Err(format!("{c} has {kings} kings"));
            }
        }
        if self.hash != self.compute_hash() {
            return Err(format!("hash {:#x}, computed {:#x}", self.hash, self.compute_hash()));
        }
        if S::LANE_WORDS > 0 {
            for c in Color::ALL {
                if self.lanes[c.index()] != v.lines.lanes_of(self.by_color[c.index()]) {
                    return Err(format!("{c}'s line lanes differ from its cells"));
                }
            }
        }
        Ok(())
    }

    /// Attackers of both kings and pins, by the tables and by stepping.
    fn check_attacks(&self) -> Result<(), String> {
        let v = self.v;
        let occ = self.occupied();
        for c in Color::ALL {
            let king = self.king_cell(c);
            let fast = self.attackers(&self.attack_sources(c.opponent()), king, occ, S::EMPTY);
            let slow = self.stepped_attackers(king, c.opponent(), occ);
            if fast != slow {
                return Err(format!(
                    "{c}'s king on {}: attackers {} by the tables, {} by stepping",
                    v.cell_name(king),
                    self.names(fast),
                    self.names(slow)
                ));
            }
        }
        let us = self.side;
        let king = self.king_cell(us);
        let (mut cells, mut masks) = ([0u16; MAX_PINS], [S::EMPTY; MAX_PINS]);
        let sources = self.attack_sources(us.opponent());
        let (fast, _) = self.pins(king, &sources, self.by_color[us.index()], occ, &mut cells, &mut masks);
        let slow = self.stepped_pins(king);
        if fast != slow {
            return Err(format!("pinned pieces {} by the tables, {} by stepping", self.names(fast), self.names(slow)));
        }
        Ok(())
    }

    /// The debug builds' check after every move (see the module's text):
    /// panics with the move and the disagreement.
    #[cfg(debug_assertions)]
    #[inline(never)]
    pub(crate) fn assert_consistent(&self, after: &str, m: crate::Move) {
        if !FULL.load(Ordering::Relaxed) && !self.hash.rotate_left(17).is_multiple_of(64) {
            return;
        }
        let checked = self.check_consistency();
        if let Err(e) = checked {
            let v = self.v;
            panic!(
                "position inconsistent after {after} {}-{}: {e}\n{:?}",
                v.cell_name(m.from()),
                v.cell_name(m.to()),
                self.to_setup()
            );
        }
    }

    fn names(&self, cells: S) -> String {
        let names: Vec<String> = cells.cells().map(|c| self.v.cell_name(c)).collect();
        if names.is_empty() { "none".into() } else { names.join(",") }
    }

    /// Whether `p` slides `steps` cells in direction `d` when it captures.
    fn slides_along(&self, p: Piece, d: Vector, steps: usize) -> bool {
        let v = self.v;
        if Some(p.kind) == v.pawn {
            return false;
        }
        let motion = &v.spec.pieces[p.kind.index()].captures;
        let dir = DIRECTIONS.iter().position(|&x| x == d).map(|i| i as u8);
        dir.and_then(|d| motion.reach(d)).is_some_and(|r| steps <= r as usize)
    }

    /// The pieces of `by` that attack `target`, found by stepping out of
    /// `target` along the board: in each direction to the first man, which
    /// attacks if it slides back along it; and back along every leap vector of
    /// each of `by`'s kinds (its pawns' capture vectors for pawns).
    fn stepped_attackers(&self, target: usize, by: Color, occ: S) -> S {
        let v = self.v;
        let board = &v.board;
        let fighters = self.combatants();
        let mut found = S::EMPTY;
        for d in DIRECTIONS {
            let mut at = target;
            let mut steps = 0;
            while let Some(next) = board.step(at, d) {
                if next == target {
                    break;
                }
                at = next;
                steps += 1;
                if occ.has(at) {
                    let back = Vector { x: -d.x, y: -d.y, z: -d.z };
                    if fighters.has(at)
                        && self.piece_at(at).is_some_and(|p| p.color == by && self.slides_along(p, back, steps))
                    {
                        found.insert(at);
                    }
                    break;
                }
            }
        }
        for k in 0..v.kinds {
            let kind = Kind(k as u8);
            let leaps = if Some(kind) == v.pawn {
                &v.spec.pawn_sets[self.pawn_set(by)].rules.captures
            } else {
                &v.spec.pieces[k].captures.leaps
            };
            // A unicorn attacks only while it rides (from a shared cell).
            let rides = v.rider == Some(kind);
            let holds = |f: usize| {
                if rides {
                    self.rider_at(f) && self.piece_at(f).is_some_and(|p| p.color == by)
                } else {
                    self.piece_at(f) == Some(Piece { color: by, kind })
                }
            };
            for l in leaps {
                let from = board.step(target, Vector { x: -l.x, y: -l.y, z: -l.z });
                if let Some(from) = from.filter(|&f| fighters.has(f) && holds(f)) {
                    found.insert(from);
                }
            }
        }
        found
    }

    /// The side to move's pieces pinned to its king on `king`: walking out of
    /// the king in every direction, an own piece followed by an enemy piece
    /// that slides back along that direction.
    fn stepped_pins(&self, king: usize) -> S {
        let board = &self.v.board;
        let us = self.side;
        let mut pinned = S::EMPTY;
        for d in DIRECTIONS {
            let back = Vector { x: -d.x, y: -d.y, z: -d.z };
            let mut at = king;
            let mut blocker = None;
            let mut steps = 0;
            while let Some(next) = board.step(at, d) {
                if next == king {
                    break;
                }
                at = next;
                steps += 1;
                let Some(p) = self.piece_at(at) else { continue };
                match blocker {
                    None if p.color == us => blocker = Some(at),
                    None => break,
                    Some(b) => {
                        if p.color != us && self.combatants().has(at) && self.slides_along(p, back, steps) {
                            pinned.insert(b);
                        }
                        break;
                    }
                }
            }
        }
        pinned
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Variant, VariantId, Width};
    use raum_bitboard::CellSet;

    fn played<S: Width>(v: &'static Variant<S>) -> Position<S> {
        let mut pos = Position::start(v);
        for _ in 0..6 {
            let m = pos.legal_moves()[3];
            pos.play(m);
        }
        assert_eq!(pos.check_consistency(), Ok(()));
        pos
    }

    fn fails<S: Width>(pos: &Position<S>, what: &str) {
        match pos.check_consistency() {
            Err(e) => assert!(e.contains(what), "expected '{what}' in: {e}"),
            Ok(()) => panic!("a corrupted position passed (expected '{what}')"),
        }
    }

    #[test]
    fn each_kind_of_corruption_is_caught() {
        let pos = played(Variant::get(VariantId::FiveUp));
        let mut p = pos;
        p.hash ^= 1;
        fails(&p, "hash");
        let mut p = pos;
        let cell = p.occupied().lowest();
        p.mailbox.as_mut()[cell] = 0;
        fails(&p, "mailbox");
        let mut p = pos;
        let king = p.king_cell(p.side);
        p.by_kind[p.v.king.index()] ^= 1u128 << king;
        fails(&p, "kind sets and the colour sets");
        let mut p = pos;
        let empty = (!p.occupied() & p.v.geo.all()).lowest();
        p.by_color[0] |= 1u128 << empty;
        fails(&p, "");
        // A second white king.
        let mut p = pos;
        let k = p.v.king.index();
        p.by_kind[k] |= 1u128 << empty;
        p.by_color[0] |= 1u128 << empty;
        p.mailbox.as_mut()[empty] = crate::Piece::new(crate::Color::White, p.v.king).code();
        fails(&p, "kings");
    }

    #[test]
    fn corrupted_lanes_are_caught() {
        let v = Variant::<raum_bitboard::Wide<8>>::at_width(VariantId::BetzaUpright);
        let mut p: Position<raum_bitboard::Wide<8>> = played(v);
        p.lanes[1].as_mut()[0] ^= 1;
        fails(&p, "lanes");
    }
}
