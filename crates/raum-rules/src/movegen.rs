//! Legal move generation with check and pin masks, and bulk-counting perft.
//!
//! One royal king per side: a non-king move is legal iff it stays on its pin
//! line (if pinned) and, in single check, captures the checker or blocks its
//! ray. King moves are tested against the enemy's attacks with the king lifted
//! off the board. En passant, which removes a second piece, is tested by
//! recomputing attacks on the king.
//!
//! On a wrapping board a line may be a cycle, and a slider then reaches the
//! king along either arc: pins, check blocks and castling paths are taken
//! per arc. Under the non-combatant rule (the hypertorus) only pieces that have
//! moved capture or are captured, and an unmoved king is never in check.

use crate::attacks::Sources;
use crate::moves::{Move, MoveKind, MoveList, Part};
use crate::piece::Kind;
use crate::position::Position;
use crate::variant::Geometry;
use crate::width::Width;
use raum_bitboard::CellSet;
use raum_geometry::Lines;

/// Receives generated moves: either collects them or only counts them.
trait Sink<S: CellSet> {
    /// Moves of a non-pawn piece from `from` to every cell of `targets`.
    fn piece(&mut self, from: usize, targets: S);
    /// Pawn moves; targets inside `promo` expand to one move per promotion kind.
    fn pawn(&mut self, from: usize, targets: S, promo: S, kinds: &[Kind]);
    /// Pawn moves by one vector for many pawns at once: each target `to` comes
    /// from `to - delta`.
    fn pawn_shifted(&mut self, targets: S, delta: i32, promo: S, kinds: &[Kind]);
    /// Double steps of many pawns at once: each target `to` comes from `to - delta`.
    fn doubles_shifted(&mut self, targets: S, delta: i32);
    /// One special move (double step, en passant, castling).
    fn special(&mut self, m: Move);
    /// Moves of `part` of the shared cell `from` (holding a `piece`) to every
    /// cell of `targets`.
    fn piece_part(&mut self, from: usize, targets: S, part: Part, piece: Kind);
    /// Pawn moves of `part` of the shared cell `from` (promotions expanded).
    fn pawn_part(&mut self, from: usize, targets: S, promo: S, kinds: &[Kind], part: Part, piece: Kind);
    /// Whether the sink takes slider moves word by word ([`Sink::word`]):
    /// only counting does, since it needs no cell numbers.
    const WORDWISE: bool = false;
    /// Moves of a slider from `from` to the cells of `bits`, bits of word
    /// `src` of the line lookups (`raum_geometry::Lines::bits_in`).
    fn word(&mut self, from: usize, src: usize, bits: u64, lines: &Lines<S>) {
        let mut b = bits;
        while b != 0 {
            self.special(Move::normal(from, lines.word_cell(src, b.trailing_zeros() as usize)));
            b &= b - 1;
        }
    }
}

impl<S: CellSet> Sink<S> for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: usize, targets: S) {
        for to in targets.cells() {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawn(&mut self, from: usize, targets: S, promo: S, kinds: &[Kind]) {
        for to in targets.cells() {
            self.push_pawn_move(from, to, promo.has(to), kinds);
        }
    }
    #[inline(always)]
    fn pawn_shifted(&mut self, targets: S, delta: i32, promo: S, kinds: &[Kind]) {
        for to in targets.cells() {
            self.push_pawn_move((to as i32 - delta) as usize, to, promo.has(to), kinds);
        }
    }
    #[inline(always)]
    fn doubles_shifted(&mut self, targets: S, delta: i32) {
        for to in targets.cells() {
            self.push(Move::new((to as i32 - delta) as usize, to, MoveKind::DoubleStep, None));
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
    fn piece_part(&mut self, from: usize, targets: S, part: Part, piece: Kind) {
        for to in targets.cells() {
            self.push(Move::normal(from, to).with_part(part, piece));
        }
    }
    fn pawn_part(&mut self, from: usize, targets: S, promo: S, kinds: &[Kind], part: Part, piece: Kind) {
        for to in targets.cells() {
            if promo.has(to) {
                for &k in kinds {
                    self.push(Move::new(from, to, MoveKind::Normal, Some(k)).with_part(part, piece));
                }
            } else {
                self.push(Move::normal(from, to).with_part(part, piece));
            }
        }
    }
}

impl MoveList {
    /// A pawn move, expanded to one move per promotion kind when it promotes.
    #[inline(always)]
    fn push_pawn_move(&mut self, from: usize, to: usize, promotes: bool, kinds: &[Kind]) {
        if promotes {
            for &k in kinds {
                self.push(Move::new(from, to, MoveKind::Normal, Some(k)));
            }
        } else {
            self.push(Move::normal(from, to));
        }
    }
}

struct Counter(u64);

impl<S: CellSet> Sink<S> for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: usize, targets: S) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn(&mut self, _from: usize, targets: S, promo: S, kinds: &[Kind]) {
        self.0 += targets.count() as u64;
        let promoting = targets & promo;
        if promoting.any() {
            self.0 += promoting.count() as u64 * (kinds.len() as u64).saturating_sub(1);
        }
    }
    #[inline(always)]
    fn pawn_shifted(&mut self, targets: S, _delta: i32, promo: S, kinds: &[Kind]) {
        <Self as Sink<S>>::pawn(self, 0, targets, promo, kinds);
    }
    #[inline(always)]
    fn doubles_shifted(&mut self, targets: S, _delta: i32) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
    fn piece_part(&mut self, _from: usize, targets: S, _part: Part, _piece: Kind) {
        self.0 += targets.count() as u64;
    }
    fn pawn_part(&mut self, from: usize, targets: S, promo: S, kinds: &[Kind], _part: Part, _piece: Kind) {
        <Self as Sink<S>>::pawn(self, from, targets, promo, kinds);
    }
    const WORDWISE: bool = true;
    #[inline(always)]
    fn word(&mut self, _from: usize, _src: usize, bits: u64, _lines: &Lines<S>) {
        self.0 += u64::from(bits.count_ones());
    }
}

/// The pins of a node, as the generator found them.
struct Pins<'a, S> {
    pinned: S,
    cells: &'a [u16],
    masks: &'a [S],
}

/// Most pinned pieces at once: one per line through the king.
pub(crate) const MAX_PINS: usize = 26;

impl<S: Width> Position<S> {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Every legal move, into `list` (cleared first): no copy of the list.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        S::legal_moves_into(self, list);
    }

    /// Number of legal moves, without listing them.
    pub fn count_legal(&self) -> u64 {
        S::count_legal(self)
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Legal leaf count at `depth` (bulk-counted at the last ply).
    ///
    /// ```
    /// use raum_rules::{Position, Variant, VariantId};
    /// let pos = Position::start(Variant::get(VariantId::Raumschach));
    /// assert_eq!(pos.perft(2), 3615);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        S::perft(self, depth)
    }
}

/// The generator's entry points. They are generic, but called only from the
/// [`Width`] implementations (`width.rs`), so that the generator is compiled
/// once per width in this crate: as generic public methods they would be
/// compiled again in every crate that calls them (at `opt-level = 3` Rust
/// shares no generic code between crates), each time in eight copies (two
/// sinks, the plain and hooked generator, two instruction sets).
impl<S: CellSet> Position<S> {
    /// [`Position::legal_moves_into`].
    pub(crate) fn generate_legal_into(&self, list: &mut MoveList) {
        list.clear();
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast() {
            // SAFETY: the CPU has the features (checked just above).
            return unsafe { self.generate_v3(list) };
        }
        self.generate(list);
    }

    /// [`Position::count_legal`].
    pub(crate) fn generate_count(&self) -> u64 {
        let mut c = Counter(0);
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast() {
            // SAFETY: the CPU has the features (checked just above).
            unsafe { self.generate_v3(&mut c) };
            return c.0;
        }
        self.generate(&mut c);
        c.0
    }

    /// [`Position::perft`].
    pub(crate) fn generate_perft(&self, depth: u32) -> u64 {
        let mut p = *self;
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast() {
            // SAFETY: the CPU has the features (checked just above).
            return unsafe { p.perft_v3(depth) };
        }
        p.perft_baseline(depth)
    }

    fn perft_baseline(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, |p, d| p.perft_baseline(d))
    }

    /// [`Position::perft`] compiled for x86-64-v3 ([`crate::cpu`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn perft_v3(&mut self, depth: u32) -> u64 {
        self.perft_with(depth, |p, d| p.perft_v3(d))
    }

    /// The generator compiled for x86-64-v3 ([`crate::cpu`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn generate_v3<K: Sink<S>>(&self, sink: &mut K) {
        self.generate(sink);
    }

    /// One level of perft; `recurse` is the same function compiled alike.
    #[inline(always)]
    fn perft_with(&mut self, depth: u32, recurse: impl Fn(&mut Self, u32) -> u64) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut c = Counter(0);
                self.generate(&mut c);
                c.0
            }
            _ => {
                let mut moves = MoveList::new();
                self.generate(&mut moves);
                let mut total = 0;
                for &m in moves.iter() {
                    let undo = self.play(m);
                    total += recurse(self, depth - 1);
                    self.unplay(m, undo);
                }
                total
            }
        }
    }

    /// Pins: an own piece alone between the king on `king` and an enemy
    /// slider of `sources`. Fills each pinned piece's cell and the cells it may
    /// still reach (its line, the slider included); returns the pinned set and
    /// how many were filled.
    #[inline(always)]
    pub(crate) fn pins(
        &self,
        king: usize,
        sources: &Sources<S>,
        own: S,
        occ: S,
        cells: &mut [u16; MAX_PINS],
        masks: &mut [S; MAX_PINS],
    ) -> (S, usize) {
        self.pins_with::<true>(king, sources, own, occ, cells, masks)
    }

    /// [`Position::pins`]; `CYCLIC` compiles in the second arc of cyclic lines.
    #[inline(always)]
    fn pins_with<const CYCLIC: bool>(
        &self,
        king: usize,
        sources: &Sources<S>,
        own: S,
        occ: S,
        cells: &mut [u16; MAX_PINS],
        masks: &mut [S; MAX_PINS],
    ) -> (S, usize) {
        let v = self.v;
        let mut pinned = S::EMPTY;
        let mut pins = 0;
        for (i, class) in v.slide_classes.iter().enumerate() {
            for s in (class.rays[king] & sources.sliders[i]).cells() {
                let between = v.geo.between(king, s);
                let blockers = between & occ;
                if blockers.any() && !blockers.several() && (blockers & own).any() && pins < MAX_PINS {
                    pinned |= blockers;
                    cells[pins] = blockers.lowest() as u16;
                    masks[pins] = between | S::single(s);
                    pins += 1;
                }
                if CYCLIC && v.cyclic {
                    // The other way round the cycle: a piece can be pinned on
                    // either arc (never on both: the arcs do not meet).
                    let alt = v.geo.between_alt(king, s);
                    let blockers = alt & occ;
                    if blockers.any() && !blockers.several() && (blockers & own).any() && pins < MAX_PINS {
                        pinned |= blockers;
                        cells[pins] = blockers.lowest() as u16;
                        masks[pins] = alt | S::single(s);
                        pins += 1;
                    }
                }
            }
        }
        (pinned, pins)
    }

    #[inline(always)]
    fn generate<K: Sink<S>>(&self, sink: &mut K) {
        // Two copies, chosen by the variant's one switch (`Variant::geometry`):
        // the rules of wrapped boards, unmoved men and shared cells cost the
        // other variants nothing.
        if self.v.geometry == Geometry::Hooked {
            self.generate_with::<K, true>(sink)
        } else {
            self.generate_with::<K, false>(sink)
        }
    }

    /// The generator; `EXOTIC` ([`Geometry::Hooked`]) compiles in the hooks of
    /// wrapping boards (two arcs), the non-combatant rule and shared cells.
    #[inline(always)]
    fn generate_with<K: Sink<S>, const EXOTIC: bool>(&self, sink: &mut K) {
        let v = self.v;
        let n = v.cells();
        let us = self.side;
        let them = us.opponent();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let all = v.geo.all();
        let empty = all & !occ;
        let king = self.king_cell(us);
        let king_bit = S::single(king);
        let sources = self.attack_sources_with::<EXOTIC>(them);
        // The non-combatant rule: only moved pieces capture or are captured;
        // `quiet_only` are the own pieces that may only move quietly.
        let (capturable, king_immune, quiet_only) = if EXOTIC && v.noncombatant {
            (enemy & !self.unmoved, self.unmoved.has(king), own & self.unmoved)
        } else {
            (enemy, false, S::EMPTY)
        };
        let checkers =
            if king_immune { S::EMPTY } else { self.attackers_with::<EXOTIC>(&sources, king, occ, S::EMPTY) };
        // Riding unicorns: shared cells move apart (below); a piece's quiet
        // move may also land on a lone friendly unicorn, joining it.
        let (stacks, land) = match v.rider.filter(|_| EXOTIC) {
            None => (S::EMPTY, empty),
            Some(r) => {
                let stacks = self.stacks();
                (stacks, empty | (self.by_kind[r.index()] & own & !stacks))
            }
        };

        // King moves: test each target with the king lifted off the board.
        let kk = v.king.index();
        let lanes = &self.lanes;
        let mut quiet = (v.move_leaps[kk * n + king] | v.piece_slide::<EXOTIC, false>(kk, king, occ, lanes)) & empty;
        if checkers.any() && !v.king_check_quiet.is_empty() {
            // Savard: in check the king steps quietly only orthogonally (a
            // test only in check, so both copies of the generator have it).
            quiet &= v.king_check_quiet[king];
        }
        let king_prey = if EXOTIC && quiet_only.has(king) { S::EMPTY } else { capturable };
        let captures =
            (v.capture_leaps[kk * n + king] | v.piece_slide::<EXOTIC, true>(kk, king, occ, lanes)) & king_prey;
        let mut king_legal = S::EMPTY;
        for t in (quiet | captures).cells() {
            if !self.is_attacked_with::<EXOTIC>(&sources, t, occ ^ king_bit, S::single(t)) {
                king_legal.insert(t);
            }
        }
        sink.piece(king, king_legal);
        if checkers.several() {
            return;
        }

        let check_mask = if checkers.any() {
            let c = checkers.lowest();
            let by_leap = match self.piece_at(c) {
                Some(p) if Some(p.kind) == v.pawn => true,
                Some(p) => v.capture_leaps_from[p.kind.index() * n + king].has(c),
                None => true,
            };
            if by_leap {
                checkers
            } else if !(EXOTIC && v.cyclic) {
                checkers | v.geo.between(king, c)
            } else {
                // Block the arc the check comes along; a slider that reaches
                // the king both ways round cannot be blocked.
                let (arc, alt) = (v.geo.between(king, c), v.geo.between_alt(king, c));
                match ((arc & occ).is_empty(), (alt & occ).is_empty()) {
                    (true, false) => checkers | arc,
                    (false, true) => checkers | alt,
                    _ => checkers,
                }
            }
        } else {
            all
        };

        let mut pin_cells = [0u16; MAX_PINS];
        let mut pin_masks = [S::EMPTY; MAX_PINS];
        let (pinned, pins) = if king_immune {
            (S::EMPTY, 0)
        } else {
            self.pins_with::<EXOTIC>(king, &sources, own, occ, &mut pin_cells, &mut pin_masks)
        };
        // Where a piece on `cell` may go: the check mask, and its pin line if pinned.
        // The pinned test is inline: a call per piece would cost more than the
        // piece's moves on wide boards.
        let pinned_mask = |cell: usize| -> S {
            let i = pin_cells[..pins].iter().position(|&c| c as usize == cell).unwrap_or(0);
            check_mask & pin_masks[i]
        };
        let restrict = |cell: usize| -> S { if pinned.has(cell) { pinned_mask(cell) } else { check_mask } };

        let pawn = v.pawn.map_or(usize::MAX, |k| k.index());
        let rider = if EXOTIC { v.rider.map_or(usize::MAX, |k| k.index()) } else { usize::MAX };
        // Where a piece may land: quietly (`land`), or capturing too. Under the
        // non-combatant rule an unmoved piece has only the first.
        let noncombatant = EXOTIC && v.noncombatant;
        let open = land | capturable;
        for k in 0..v.kinds {
            if k == kk || k == pawn || k == rider {
                continue;
            }
            let bb = self.by_kind[k] & own & !stacks;
            if bb.is_empty() {
                continue;
            }
            // Wide boards, counting, no check: an unpinned slider's lines are
            // counted word by word (one word read and masked per line) instead of
            // as sets of 512 cells. The lines through a cell share only that cell,
            // so their counts add up; a kind that also leaps (whose leaps may land
            // on its lines) is counted as a set instead.
            let slides = !v.capture_slides[k].lines.is_empty();
            let leaps = v.leaper_kinds.iter().any(|l| l.index() == k);
            let wordwise = K::WORDWISE
                && S::LANE_WORDS > 0
                && !noncombatant
                && checkers.is_empty()
                && v.symmetric[k]
                && v.capture_slides[k].one_way.is_empty()
                && !(EXOTIC && v.captures_in_range(k))
                && !(slides && leaps);
            for p in bb.cells() {
                let lanes = &self.lanes;
                if wordwise && !pinned.has(p) {
                    if slides {
                        for &l in &v.capture_slides[k].lines {
                            match v.lines.bits_in(p, l as usize, occ, lanes) {
                                Some((src, bits)) => sink.word(p, src, bits & !self.word_of(us, own, src), &v.lines),
                                None => sink.piece(p, v.lines.attacks_in(p, l as usize, occ, lanes) & !own),
                            }
                        }
                    } else {
                        sink.piece(p, v.capture_leaps[k * n + p] & !own & all);
                    }
                    continue;
                }
                let quiet = noncombatant && quiet_only.has(p);
                let t = if v.symmetric[k] {
                    (v.capture_leaps[k * n + p] | v.piece_slide::<EXOTIC, true>(k, p, occ, lanes))
                        & if quiet { land } else { open }
                } else {
                    let prey = if quiet { S::EMPTY } else { capturable };
                    ((v.move_leaps[k * n + p] | v.piece_slide::<EXOTIC, false>(k, p, occ, lanes)) & land)
                        | ((v.capture_leaps[k * n + p] | v.piece_slide::<EXOTIC, true>(k, p, occ, lanes)) & prey)
                };
                sink.piece(p, t & if pinned.has(p) { pinned_mask(p) } else { check_mask });
            }
        }

        if rider != usize::MAX {
            // Lone unicorns: onto an empty cell or mounting a friendly piece
            // (never the king, never one already ridden); no captures.
            let mounts = own & !self.by_kind[rider] & !king_bit;
            for p in (self.by_kind[rider] & own & !stacks).cells() {
                sink.piece(p, v.move_leaps[rider * n + p] & (empty | mounts) & restrict(p));
            }
        }

        // Octahedral's pawn-column rule: the columns holding one pawn or more and
        // two or more, counted once per node; a pawn is barred from the first
        // except its own column, unless another pawn shares that one.
        let (cols, once, twice) = match &v.columns {
            Some(cols) if pawn != usize::MAX => {
                let (mut once, mut twice) = (S::EMPTY, S::EMPTY);
                for q in self.by_kind[pawn].cells() {
                    if once.has(q) {
                        twice |= cols[q];
                    }
                    once |= cols[q];
                }
                (Some(cols), once, twice)
            }
            _ => (None, S::EMPTY, S::EMPTY),
        };
        let column_ban = |p: usize| -> S { cols.map_or(S::EMPTY, |c| once & (!c[p] | twice)) };
        let ui = self.pawn_set(us);
        if pawn != usize::MAX {
            let promo = v.promotion_zone[ui];
            let kinds = &v.promote_to[..];
            let pawns = self.by_kind[pawn] & own & !stacks;
            // Unpinned pawns move together, one shift per vector; pinned ones alone.
            let one_by_one = match &v.pawn_shifts {
                Some(shifts) => {
                    let free = pawns & !pinned;
                    if free.any() {
                        for sh in &shifts.steps[ui] {
                            let t = sh.apply(free) & land & check_mask;
                            sink.pawn_shifted(t, sh.delta, promo, kinds);
                        }
                        let fighting = free & !quiet_only;
                        for sh in &shifts.captures[ui] {
                            let t = sh.apply(fighting) & capturable & check_mask;
                            sink.pawn_shifted(t, sh.delta, promo, kinds);
                        }
                        // Double steps: through either middle cell that is empty.
                        let origins = free & v.double_origins[ui] & self.unmoved;
                        if origins.any() {
                            for [a, b] in &shifts.doubles[ui] {
                                let via_a = a.apply(origins) & empty;
                                let mut reach = b.apply(via_a);
                                if a.delta != b.delta {
                                    let via_b = b.apply(origins) & empty;
                                    reach |= a.apply(via_b);
                                }
                                sink.doubles_shifted(reach & land & check_mask, a.delta + b.delta);
                            }
                        }
                    }
                    pawns & pinned
                }
                None => pawns,
            };
            for p in one_by_one.cells() {
                let quiet = v.pawn_steps[ui * n + p] & land & !column_ban(p);
                let prey = if noncombatant && quiet_only.has(p) { S::EMPTY } else { capturable };
                let t = (quiet | (v.pawn_captures[ui * n + p] & prey)) & restrict(p);
                sink.pawn(p, t, promo, kinds);
            }
            if self.ep.any() {
                let victim = S::single(self.ep_victim as usize);
                for p in (pawns & !quiet_only).cells() {
                    for t in (v.pawn_captures[ui * n + p] & self.ep).cells() {
                        let after = (occ ^ S::single(p) ^ victim) | S::single(t);
                        if !self.is_attacked_with::<EXOTIC>(&sources, king, after, victim) {
                            sink.special(Move::new(p, t, MoveKind::EnPassant, None));
                        }
                    }
                }
            }
        }

        if pawn != usize::MAX {
            let one_by_one = match v.pawn_shifts {
                Some(_) => pinned,
                None => own,
            };
            let promo = v.promotion_zone[ui];
            for p in (self.by_kind[pawn] & one_by_one & !stacks & v.double_origins[ui] & self.unmoved).cells() {
                let r = restrict(p);
                let ban = column_ban(p);
                for d in &v.pawn_doubles[ui * n + p] {
                    let (to, mid) = (d.to as usize, d.via[0] as usize);
                    if r.has(to) && v.double_step_open(d, occ, land) && !ban.has(to) && !ban.has(mid) {
                        // Only on a board where a double step can reach the far
                        // side (Octahedral's short levels) does it promote.
                        if promo.has(to) {
                            sink.pawn(p, S::single(to), promo, &v.promote_to);
                        } else {
                            sink.special(Move::new(p, to, MoveKind::DoubleStep, None));
                        }
                    }
                }
            }
        }

        if EXOTIC && stacks.any() {
            let pins = Pins { pinned, cells: &pin_cells[..pins], masks: &pin_masks[..pins] };
            self.shared_cells(sink, own & stacks, check_mask, &pins, land, occ, king, &sources);
        }

        if self.castling != 0 && checkers.is_empty() {
            if !v.slots.is_empty() {
                self.castle_slots::<K, EXOTIC>(sink, occ, &sources);
            } else if let Some(rook) = v.castle_partner.filter(|_| self.castling >> us.index() & 1 == 1) {
                self.castles::<K, EXOTIC>(sink, king, rook, occ, &sources);
            }
        }
    }

    /// The moves from shared cells (a piece and its riding unicorn): the
    /// unicorn alone (onto an empty cell or a friendly piece without one),
    /// the piece alone (as a lone piece would move, joining included), or the
    /// pair by either man's move onto an empty or an enemy cell. A man that
    /// stays keeps the cell blocked, so a move of one man obeys the check mask
    /// but no pin; the pair obeys both (`restrict`).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn shared_cells<K: Sink<S>>(
        &self,
        sink: &mut K,
        cells: S,
        check_mask: S,
        pins: &Pins<'_, S>,
        land: S,
        occ: S,
        king: usize,
        sources: &Sources<S>,
    ) {
        let v = self.v;
        let n = v.cells();
        let Some(rider) = v.rider else { return };
        let u = rider.index();
        let own = self.by_color[self.side.index()];
        let enemy = self.by_color[self.side.opponent().index()];
        let empty = v.geo.all() & !occ;
        // A friendly piece a unicorn may mount: not the king, not already ridden.
        let mounts = own & !self.by_kind[u] & !self.by_kind[v.king.index()];
        let ui = self.pawn_set(self.side);
        let promo = v.promotion_zone[ui];
        let kinds = &v.promote_to[..];
        for s in cells.cells() {
            let Some(x) = self.piece_at(s) else { continue };
            let k = x.kind.index();
            let pair_mask = match pins.cells.iter().position(|&c| c as usize == s) {
                Some(i) if pins.pinned.has(s) => check_mask & pins.masks[i],
                _ => check_mask,
            };
            let leaps = v.move_leaps[u * n + s];
            sink.piece_part(s, leaps & (empty | mounts) & check_mask, Part::Unicorn, x.kind);
            let carried = leaps & (empty | enemy);
            if Some(x.kind) == v.pawn {
                let steps = v.pawn_steps[ui * n + s];
                let caps = v.pawn_captures[ui * n + s] & enemy;
                sink.pawn_part(s, ((steps & land) | caps) & check_mask, promo, kinds, Part::Piece, x.kind);
                sink.pawn_part(s, ((steps & empty) | caps | carried) & pair_mask, promo, kinds, Part::Whole, x.kind);
                if v.double_origins[ui].has(s) && self.unmoved.has(s) {
                    for d in &v.pawn_doubles[ui * n + s] {
                        let to = d.to as usize;
                        // The pawn alone may join a lone friendly unicorn; the pair needs an empty cell.
                        if !v.double_step_open(d, occ, land) || promo.has(to) {
                            continue;
                        }
                        let m = Move::new(s, to, MoveKind::DoubleStep, None);
                        if check_mask.has(to) {
                            sink.special(m.with_part(Part::Piece, x.kind));
                        }
                        if pair_mask.has(to) && empty.has(to) {
                            sink.special(m.with_part(Part::Whole, x.kind));
                        }
                    }
                }
                if self.ep.any() {
                    // Only the pawn alone takes en passant; the unicorn stays.
                    let victim = S::single(self.ep_victim as usize);
                    for t in (v.pawn_captures[ui * n + s] & self.ep).cells() {
                        let after = (occ ^ victim) | S::single(t);
                        if !self.is_attacked(sources, king, after, victim) {
                            sink.special(Move::new(s, t, MoveKind::EnPassant, None).with_part(Part::Piece, x.kind));
                        }
                    }
                }
            } else {
                let lanes = &self.lanes;
                let quiet = v.move_leaps[k * n + s] | v.piece_slide::<true, false>(k, s, occ, lanes);
                let capture = (v.capture_leaps[k * n + s] | v.piece_slide::<true, true>(k, s, occ, lanes)) & enemy;
                sink.piece_part(s, ((quiet & land) | capture) & check_mask, Part::Piece, x.kind);
                sink.piece_part(s, ((quiet & empty) | capture | carried) & pair_mask, Part::Whole, x.kind);
            }
        }
    }

    /// Word `src` of `side`'s cells `cells` as the line lookups number words:
    /// the set's own words, then the side's lanes.
    #[inline(always)]
    fn word_of(&self, side: crate::piece::Color, cells: S, src: usize) -> u64 {
        if src < S::WORDS { cells.word(src) } else { self.lanes[side.index()].as_ref()[src - S::WORDS] }
    }

    /// Castling with fixed partners (FIDE conditions): the right held, the
    /// slot's cells empty, the crossed cells and the destination not attacked.
    fn castle_slots<K: Sink<S>, const EXOTIC: bool>(&self, sink: &mut K, occ: S, sources: &Sources<S>) {
        for (i, slot) in self.v.slots.iter().enumerate() {
            if self.castling >> i & 1 == 0 || slot.color != self.side || (slot.empty & occ).any() {
                continue;
            }
            let [from, to] = slot.king.map(usize::from);
            let [rook_from, rook_to] = slot.rook.map(usize::from);
            if slot.crossed.cells().any(|c| self.is_attacked_with::<EXOTIC>(sources, c, occ, S::EMPTY)) {
                continue;
            }
            let after = (occ ^ S::single(from) ^ S::single(rook_from)) | S::single(to) | S::single(rook_to);
            if !self.is_attacked_with::<EXOTIC>(sources, to, after, S::EMPTY) {
                sink.special(Move::new(from, to, MoveKind::Castle, None));
            }
        }
    }

    /// Five Up swap castling: the king and an own rook on one orthogonal line,
    /// only empty cells between, none of them attacked, nor the rook's cell.
    /// On a cyclic line either arc may serve (one move, whichever does).
    fn castles<K: Sink<S>, const EXOTIC: bool>(
        &self,
        sink: &mut K,
        king: usize,
        rook: Kind,
        occ: S,
        sources: &Sources<S>,
    ) {
        let v = self.v;
        let rooks = self.pieces(self.side, rook) & v.castle_rays[king];
        for r in rooks.cells() {
            let safe = |c: usize| !self.is_attacked_with::<EXOTIC>(sources, c, occ, S::EMPTY);
            let between = v.geo.between(king, r);
            let path = ((between & occ).is_empty() && between.cells().all(safe))
                || (EXOTIC && v.cyclic && {
                    let alt = v.geo.between_alt(king, r);
                    (alt & occ).is_empty() && alt.cells().all(safe)
                });
            if path && safe(r) {
                sink.special(Move::new(king, r, MoveKind::Castle, None));
            }
        }
    }
}
