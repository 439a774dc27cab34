//! Static evaluation. The terms of each variant are data ([`EvalParams`], pieces
//! named by letter); they are compiled once per variant into [`EvalTables`]
//! (values per kind, attack tables, pawn-advancement bonus per cell, king zones).
//!
//! Terms, from the side to move's point of view:
//! - material: per-kind values;
//! - mobility: per piece, the cells it attacks that hold no own piece, minus a
//!   per-kind baseline (half its average empty-board count), times a per-kind weight;
//! - pawn advancement: a bonus by the number of single pawn steps still needed
//!   to reach the promotion zone (BFS over the pawn's step vectors), growing as
//!   the enemy's pieces come off;
//! - king safety: enemy attacks on the king's cell and its 26 neighbours,
//!   counted per attacking piece, scaled by the enemy's remaining pieces;
//! - a small bonus for having the move.

use raum_geometry::{DIRECTIONS, Lines, Vector};
use raum_rules::{Color, Kind, MAX_KINDS, Move, MoveKind, Position, Role, Variant, VariantFn, VariantId, Width};
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A variant's evaluation terms, as data. Pieces are named by letter, so the
/// same description survives a reordering of the variant's piece table, and a
/// new variant plugs in by giving its own table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material in centipawns per piece letter (the king is not counted).
    pub piece_values: Vec<(char, i32)>,
    /// Centipawns per attacked cell not holding an own piece, per piece letter
    /// (pawns and the king have no mobility term).
    pub mobility: Vec<(char, i32)>,
    /// Pawn bonus by the number of single steps still needed to promote
    /// (index 1: one step away; index 0 is unused). Missing entries are 0.
    pub pawn_advance: Vec<i32>,
    /// Penalty per enemy (piece, cell) attack on the king's cell or a neighbour,
    /// at full enemy material.
    pub king_zone_attack: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl EvalParams {
    /// The built-in terms for a variant.
    ///
    /// Five Up's are tuned in two fits. The first fitted 2,000 engine self-play
    /// games' results, starting from the seed's "Piece Values" (seed 000: P 1,
    /// R 3, B 5, N 5, G 6, W 7, Q 9) and hand-set terms (`tuning/five-up-untuned.txt`),
    /// and beat them by +69 ± 24 Elo over 800 games (`tuning/five-up-first-fit.txt`).
    /// The built-in set continued from it with `raum tune --resolve
    /// --search-labels 3000 --lambda 0.8` on 2,020 new self-play games and beat
    /// the first fit by +29 ± 22 (5,000 nodes) and +43 ± 22 (10,000 nodes) over
    /// 800 games each (BENCHMARKS.md).
    ///
    /// Raumschach's are tuned too, from hand-set terms (`tuning/raumschach-untuned.txt`:
    /// the rook, bishop and knight Five Up's seed values, the unicorn about 2 as the seed
    /// puts "a piece that could move only on 3D diagonals", the queen 3 + 5 + 2 = 10).
    /// Fits to game results alone lost to them; the built-in set was fitted with
    /// `raum tune --resolve --search-labels 3000 --lambda 0.8` to 1,995 self-play games
    /// (labels mostly the engine's own 3,000-node verdicts) and beat the hand-set terms
    /// by +56 ± 21 Elo over 800 games (BENCHMARKS.md).
    ///
    /// Every other variant starts from [`EvalParams::derived`], and keeps them
    /// until `raum lab learn` fits terms that beat them in a match; those are
    /// adopted as data (`learned/<game>.txt`, read by `crate::learned`).
    pub fn for_variant(id: VariantId) -> EvalParams {
        crate::learned::over(id, EvalParams::built_in(id))
    }

    /// The terms a game has before any adopted listing: tuned, borrowed or derived.
    pub(crate) fn built_in(id: VariantId) -> EvalParams {
        match id {
            VariantId::FiveUp => EvalParams {
                piece_values: vec![('P', 85), ('R', 275), ('B', 375), ('N', 395), ('G', 645), ('W', 710), ('Q', 1080)],
                mobility: vec![('R', 9), ('B', 0), ('N', 4), ('G', 8), ('W', 2), ('Q', 2)],
                pawn_advance: vec![0, 155, 85, 45, 25, 8, -7, 5, 0],
                king_zone_attack: 48,
                tempo: 25,
            },
            // Five Up's men on boards without edges: Five Up's terms (its pieces'
            // relative worth is what was tuned; the motion-derived formula
            // undervalues its rook against the knight there too).
            VariantId::FiveUpCylinder | VariantId::FiveUpTorus => EvalParams::built_in(VariantId::FiveUp),
            // Five Up's terms and the unicorn, set by hand (not tuned): a leaper
            // of the knight's reach that captures only while it carries a piece,
            // so somewhat below Five Up's knight.
            VariantId::FiveUpUnicorn => {
                let mut p = EvalParams::built_in(VariantId::FiveUp);
                p.piece_values.push(('U', 250));
                p.mobility.push(('U', 4));
                p
            }
            VariantId::Raumschach => EvalParams {
                piece_values: vec![('P', 100), ('R', 300), ('B', 460), ('N', 470), ('U', 185), ('Q', 1090)],
                mobility: vec![('R', 4), ('B', 3), ('N', 4), ('U', 3), ('Q', 2)],
                pawn_advance: vec![0, 175, 115, 65, 40, 28, 18, 10, 0],
                king_zone_attack: 8,
                tempo: 0,
            },
            // The other games: terms derived from the pieces' motion.
            _ => id.dispatch(Derive),
        }
    }
}

impl EvalParams {
    /// Terms derived from the pieces' own motion, for variants not tuned yet.
    ///
    /// A piece is worth its [`average_reach`] in knights, a knight 300 (a hand
    /// estimate of the same measure on the 2D board gives N 300, B ~350, R ~540,
    /// Q ~890, near the classical 3 / 3.25 / 5 / 9). A pawn is 100. Mobility is a twelfth of a piece's
    /// value per cell of reach (so full reach is worth about 8% of the piece);
    /// the pawn-advance table rewards the last steps, king-zone attacks are
    /// weighted as in Raumschach, and there is no tempo term.
    ///
    /// ```
    /// use raum_engine::EvalParams;
    /// use raum_rules::VariantId;
    /// let p = EvalParams::for_variant(VariantId::BetzaUpright);
    /// let value = |l| p.piece_values.iter().find(|v| v.0 == l).unwrap().1;
    /// assert_eq!(value('N'), 300);
    /// assert!(value('Q') > value('R') && value('R') > value('B'));
    /// ```
    pub fn derived<S: Width>(v: &Variant<S>) -> EvalParams {
        let reach: Vec<(char, f64)> = v
            .pieces()
            .iter()
            .enumerate()
            .filter(|(_, d)| d.role == Role::Piece)
            .map(|(k, d)| (d.letter, average_reach(v, Kind(k as u8))))
            .collect();
        let knight = reach.iter().find(|r| r.0 == 'N').map_or(5.25, |r| r.1);
        let value = |m: f64| (300.0 * m / knight).round() as i32;
        let mut piece_values = vec![('P', 100)];
        piece_values.extend(reach.iter().map(|&(l, m)| (l, value(m))));
        let mobility =
            reach.iter().map(|&(l, m)| (l, ((value(m) as f64 / (12.0 * m)).round() as i32).max(1))).collect();
        EvalParams {
            piece_values,
            mobility,
            pawn_advance: vec![0, 120, 80, 50, 30, 20, 12, 8, 4, 2, 0],
            king_zone_attack: 8,
            tempo: 0,
        }
    }
}

/// [`EvalParams::derived`] through the width dispatch.
struct Derive;

impl VariantFn for Derive {
    type Output = EvalParams;
    fn call<S: Width>(self, v: &'static Variant<S>) -> EvalParams {
        EvalParams::derived(v)
    }
}

/// A piece's average reach: attacked cells per cell, over every cell, as the
/// mean of an empty board and boards filled at the start position's density
/// (a deterministic sample), so that sliders are judged as they will be
/// blocked. [`EvalParams::derived`]'s measure of a piece.
pub fn average_reach<S: Width>(v: &Variant<S>, kind: Kind) -> f64 {
    let n = v.cells();
    let all = v.tables().all();
    let start = v.start_setup();
    let men = start.board.iter().filter(|p| p.is_some()).count();
    let piece = raum_rules::Piece::new(Color::White, kind);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut random_board = || {
        (0..n)
            .filter(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % n as u64) < men as u64
            })
            .fold(S::EMPTY, |s, c| s | S::single(c))
    };
    const SAMPLES: usize = 4;
    let (mut empty, mut dense) = (0u64, 0u64);
    for cell in 0..n {
        empty += v.targets(piece, cell, S::single(cell), S::EMPTY).count() as u64;
        for _ in 0..SAMPLES {
            let occ = random_board() & all & !S::single(cell);
            dense += v.targets(piece, cell, S::single(cell), occ).count() as u64;
        }
    }
    (empty as f64 / n as f64 + dense as f64 / (n * SAMPLES) as f64) / 2.0
}

/// Under the non-combatant rule, what a king that has not moved is worth to
/// its side (set by hand, accepted by `raum match`: BENCHMARKS.md).
pub const UNMOVED_KING: i32 = 150;

/// One variant's evaluation terms compiled into tables indexed by kind and cell,
/// at the variant's cell-set width `S`.
#[derive(Debug)]
pub struct EvalTables<S: Width> {
    params: EvalParams,
    cells: usize,
    /// The non-combatant rule (the hypertorus): an unmoved king is worth
    /// [`UNMOVED_KING`] to its side.
    noncombatant: bool,
    /// Riding unicorns: a piece that mounts a lone unicorn can check by the
    /// unicorn's leap, so [`EvalTables::may_check`] cannot rule a check out.
    riders: bool,
    pawn: Option<Kind>,
    value: [i32; MAX_KINDS],
    mobility: [i32; MAX_KINDS],
    mobility_base: [i32; MAX_KINDS],
    /// Kinds whose attacks the evaluation computes (neither pawn nor king).
    pieces: Vec<usize>,
    /// `[kind * cells + cell]`: capture leaps (the rules core's table).
    leaps: &'static [S],
    /// Per kind: whole lines slid along both ways (ids `0..13`, see [`Lines`]).
    line_ids: [Vec<u8>; MAX_KINDS],
    /// Per kind: the one-way slide directions, positive ones first (none in Raum's variants).
    one_way: [Vec<u8>; MAX_KINDS],
    /// Per kind: how many of `one_way` are positive.
    one_way_positive: [usize; MAX_KINDS],
    /// Per kind with a range along some direction (`O*2`): `[cell]`, where its
    /// slides may reach (the rules core's table); empty for the others.
    slide_reach: [&'static [S]; MAX_KINDS],
    /// Line-attack tables (a lookup per line instead of two ray scans).
    line_attacks: &'static Lines<S>,
    /// `[cell * 26 + direction]`: the empty-board ray, the board's own (see
    /// [`slide`] for why the board's cells suffice as a bit scan's sentinels).
    rays: &'static [S],
    /// `[color][cell]`: pawn captures (the rules core's table of the side's pawn set).
    pawn_attacks: [&'static [S]; 2],
    /// `[color][cell]`: pawn single steps (the rules core's table of the side's pawn set).
    pawn_steps: [&'static [S]; 2],
    /// `[color][cell]`: pawn-advancement bonus.
    pawn_bonus: [Vec<i32>; 2],
    /// `[color][cell]`: single pawn steps still needed to promote (`u8::MAX`: never).
    pawn_distance: [Vec<u8>; 2],
    /// Per cell: the cell and its 26 neighbours.
    king_zone: Vec<S>,
    /// `[color][cell]`: the cells from which a pawn of `color` attacks some cell of
    /// `king_zone[cell]`, so king safety visits only the pawns that count.
    zone_pawn_sources: [Vec<S>; 2],
    /// `[kind * cells + cell]`: cells a piece (pawns: of White, then `[kinds * cells..]` Black's)
    /// attacks on an empty board.
    reach: Vec<S>,
    /// Kinds that capture by sliding.
    sliders: Vec<usize>,
    /// Per cell: every cell on a line (any of the 26 directions) through it.
    aligned: Vec<S>,
    /// Non-pawn material of one side in the start position.
    start_npm: i32,
    /// The most valuable promotion kind.
    best_promotion: Option<Kind>,
    /// Per kind: whether the piece moves as it captures (so [`EvalTables::attacks_in`] are its moves too).
    moves_as_captures: [bool; MAX_KINDS],
}

impl<S: Width> EvalTables<S> {
    /// The shared tables of a built-in variant at its width, built on first use.
    ///
    /// # Panics
    /// If `id` is not built at width `S` (as [`Variant::at_width`]); through
    /// [`VariantId::dispatch`] it always is.
    pub fn get(id: VariantId) -> &'static EvalTables<S> {
        // A static in a generic function is one static for every `S`, so the
        // slots hold type-erased tables. Each variant has exactly one width
        // (`Variant::at_width` refuses any other), so one slot per variant
        // suffices and the downcast, a type-id comparison once per search,
        // never fails.
        static CACHE: [OnceLock<Box<dyn Any + Send + Sync>>; VariantId::ALL.len()] =
            [const { OnceLock::new() }; VariantId::ALL.len()];
        // Games loaded from files: built once each, kept as long as the game.
        type Loaded = HashMap<VariantId, &'static (dyn Any + Send + Sync)>;
        static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
        let build = || EvalTables::new(Variant::<S>::at_width(id), EvalParams::for_variant(id));
        let tables: &'static (dyn Any + Send + Sync) = match VariantId::ALL.iter().position(|&v| v == id) {
            Some(slot) => CACHE[slot].get_or_init(|| Box::new(build())).as_ref(),
            None => {
                let mut loaded = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
                *loaded.entry(id).or_insert_with(|| Box::leak(Box::new(build())))
            }
        };
        tables.downcast_ref().unwrap_or_else(|| panic!("variant {id} is not built at this width"))
    }

    /// Compiles `params` for a variant.
    pub fn new(v: &'static Variant<S>, params: EvalParams) -> EvalTables<S> {
        let n = v.cells();
        let board = v.board();
        let kinds = v.pieces().len();
        let lookup = |table: &[(char, i32)], k: usize| {
            let letter = v.pieces()[k].letter;
            table.iter().find(|(l, _)| l.eq_ignore_ascii_case(&letter)).map_or(0, |&(_, x)| x)
        };
        let mut value = [0; MAX_KINDS];
        let mut mobility = [0; MAX_KINDS];
        let mut slides: [Vec<u8>; MAX_KINDS] = Default::default();
        let mut positive = [0; MAX_KINDS];
        let mut line_ids: [Vec<u8>; MAX_KINDS] = Default::default();
        let mut one_way: [Vec<u8>; MAX_KINDS] = Default::default();
        let mut one_way_positive = [0; MAX_KINDS];
        // The attack tables are the rules core's: a copy would only double
        // what the cache holds.
        let leaps = v.capture_leap_table();
        let rays = v.tables().rays();
        let mut pieces = Vec::new();
        for (k, def) in v.pieces().iter().enumerate() {
            if def.role != Role::King {
                value[k] = lookup(&params.piece_values, k);
            }
            if def.role == Role::Piece {
                mobility[k] = lookup(&params.mobility, k);
                pieces.push(k);
            }
            if def.role != Role::Pawn {
                let dirs = def.captures.slide_directions();
                positive[k] = dirs.iter().filter(|&&d| d < 13).count();
                let both = |d: u8| dirs.contains(&(d % 13)) && dirs.contains(&(d % 13 + 13));
                line_ids[k] = dirs.iter().copied().filter(|&d| d < 13 && both(d)).collect();
                one_way[k] = dirs.iter().copied().filter(|&d| !both(d)).collect();
                one_way_positive[k] = one_way[k].iter().filter(|&&d| d < 13).count();
                slides[k] = dirs;
            }
        }
        let slide_reach: [&'static [S]; MAX_KINDS] =
            core::array::from_fn(|k| if k < kinds { v.capture_reach(Kind(k as u8)) } else { &[] });
        let mut mobility_base = [0; MAX_KINDS];
        for &k in &pieces {
            let total: u32 = (0..n)
                .map(|cell| {
                    let mut sl = slide(rays, cell, &slides[k], positive[k], S::EMPTY);
                    if !slide_reach[k].is_empty() {
                        sl &= slide_reach[k][cell];
                    }
                    (leaps[k * n + cell] | sl).count()
                })
                .sum();
            mobility_base[k] = (total / (2 * n as u32)) as i32;
        }

        let spec = v.spec();
        // Each side's pawns as the start position orients them (pawn set = colour
        // in every variant whose pawn sets are fixed).
        let pawn_vectors = |c: Color, vs: fn(&raum_rules::PawnRules) -> &[Vector]| -> Vec<Vector> {
            vs(v.pawn_rules(spec.start_sets[c.index()] as usize)).to_vec()
        };
        let pawn_attacks = Color::ALL.map(|c| v.pawn_capture_table(spec.start_sets[c.index()] as usize));
        let pawn_steps = Color::ALL.map(|c| v.pawn_step_table(spec.start_sets[c.index()] as usize));
        let mut pawn_bonus: [Vec<i32>; 2] = Default::default();
        let mut pawn_distance: [Vec<u8>; 2] = Default::default();
        for c in Color::ALL {
            let steps = pawn_vectors(c, |r| &r.steps);
            let zone = v.promotion_zone(spec.start_sets[c.index()] as usize);
            let mut dist = vec![u8::MAX; n];
            for cell in zone.cells() {
                dist[cell] = 0;
            }
            let mut changed = true;
            while changed {
                changed = false;
                for cell in 0..n {
                    let best = steps
                        .iter()
                        .filter_map(|&s| board.step(cell, s))
                        .map(|t| dist[t].saturating_add(1))
                        .min()
                        .unwrap_or(u8::MAX);
                    if best < dist[cell] {
                        dist[cell] = best;
                        changed = true;
                    }
                }
            }
            pawn_bonus[c.index()] =
                dist.iter().map(|&d| params.pawn_advance.get(d as usize).copied().unwrap_or(0)).collect();
            pawn_distance[c.index()] = dist;
        }
        let mut reach = vec![S::EMPTY; (kinds + 1) * n];
        for k in 0..kinds {
            for cell in 0..n {
                reach[k * n + cell] = if Some(Kind(k as u8)) == v.pawn() {
                    pawn_attacks[0][cell]
                } else {
                    leaps[k * n + cell] | slide(rays, cell, &slides[k], positive[k], S::EMPTY)
                };
                if Some(Kind(k as u8)) == v.pawn() {
                    reach[kinds * n + cell] = pawn_attacks[1][cell];
                }
            }
        }
        let aligned = (0..n).map(|cell| (0..26).fold(S::EMPTY, |acc, d| acc | rays[cell * 26 + d])).collect();
        let sliders = (0..kinds).filter(|&k| Some(Kind(k as u8)) != v.pawn() && !slides[k].is_empty()).collect();
        let king_zone = (0..n)
            .map(|cell| {
                DIRECTIONS.iter().filter_map(|&d| board.step(cell, d)).fold(S::single(cell), |z, t| z | S::single(t))
            })
            .collect::<Vec<S>>();
        let zone_pawn_sources = [0, 1].map(|ci| {
            king_zone
                .iter()
                .map(|&zone| {
                    (0..n).filter(|&p| (pawn_attacks[ci][p] & zone).any()).fold(S::EMPTY, |s, p| s | S::single(p))
                })
                .collect()
        });
        let start = Position::start(v);
        let start_npm = pieces
            .iter()
            .map(|&k| start.pieces(Color::White, Kind(k as u8)).count() as i32 * value[k])
            .sum::<i32>()
            .max(1);
        let best_promotion =
            v.promotion_kinds().iter().copied().max_by_key(|k| (value[k.index()], std::cmp::Reverse(k.0)));
        EvalTables {
            params,
            cells: n,
            pawn: v.pawn(),
            value,
            mobility,
            mobility_base,
            pieces,
            leaps,
            line_ids,
            one_way,
            one_way_positive,
            slide_reach,
            line_attacks: v.lines(),
            rays,
            pawn_attacks,
            pawn_steps,
            pawn_bonus,
            pawn_distance,
            king_zone,
            zone_pawn_sources,
            reach,
            sliders,
            aligned,
            start_npm,
            best_promotion,
            noncombatant: v.noncombatant(),
            riders: v.rider().is_some(),
            moves_as_captures: std::array::from_fn(|k| v.pieces().get(k).is_some_and(|d| d.moves == d.captures)),
        }
    }

    /// Whether a piece of kind `k` moves as it captures (not so the Five Up king).
    #[inline(always)]
    pub fn moves_as_captures(&self, k: Kind) -> bool {
        self.moves_as_captures[k.index()]
    }

    /// The terms these tables were built from.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Material value of a kind (0 for the king).
    #[inline(always)]
    pub fn value(&self, k: Kind) -> i32 {
        self.value[k.index()]
    }

    /// The most valuable kind a pawn may promote to.
    pub fn best_promotion(&self) -> Option<Kind> {
        self.best_promotion
    }

    /// Single pawn steps a pawn of `color` on `cell` still needs to promote.
    pub fn pawn_distance(&self, color: Color, cell: usize) -> Option<u8> {
        self.pawn_distance[color.index()].get(cell).copied().filter(|&d| d != u8::MAX)
    }

    /// Cells a non-pawn piece of kind `k` on `cell` attacks in `pos`, its
    /// slides going until blocked whatever their range (see
    /// [`EvalTables::attacks_within`]). The line lookups read the position's
    /// lanes (one word a line on wide boards).
    #[inline(always)]
    pub fn attacks_in(&self, k: usize, cell: usize, pos: &Position<S>) -> S {
        let occ = pos.occupied();
        let mut att = self.leaps[k * self.cells + cell];
        for &l in &self.line_ids[k] {
            att |= self.line_attacks.attacks_in(cell, l as usize, occ, pos.lanes());
        }
        if !self.one_way[k].is_empty() {
            att |= slide(self.rays, cell, &self.one_way[k], self.one_way_positive[k], occ);
        }
        att
    }

    /// [`EvalTables::attacks_in`] for any kind: a kind with a range
    /// (`O*2`) stops at its range. (`attacks_in` lets every slide go until
    /// blocked: the shortcuts that call it run only in plain games, which
    /// have no range.)
    #[inline(always)]
    pub fn attacks_within(&self, k: usize, cell: usize, pos: &Position<S>) -> S {
        let att = self.attacks_in(k, cell, pos);
        match self.slide_reach[k] {
            [] => att,
            reach => att & (reach[cell] | self.leaps[k * self.cells + cell]),
        }
    }

    /// Cells a pawn of `color` on `cell` captures on.
    #[inline(always)]
    pub fn pawn_attacks(&self, color: Color, cell: usize) -> S {
        self.pawn_attacks[color.index()][cell]
    }

    /// Cells a pawn of `color` on `cell` steps to (single steps).
    #[inline(always)]
    pub fn pawn_steps(&self, color: Color, cell: usize) -> S {
        self.pawn_steps[color.index()][cell]
    }

    /// Whether a move of a `piece` from `from` to `to` could give check to a
    /// king on `king`: the piece reaches the king from `to` on an empty board,
    /// or `from` is in `discoveries` ([`EvalTables::discoveries`] of the
    /// position before the move). A cheap filter: `false` is certain, `true`
    /// needs the real test.
    #[inline(always)]
    pub fn may_check(&self, piece: raum_rules::Piece, from: usize, to: usize, king: usize, discoveries: S) -> bool {
        if self.riders {
            return true;
        }
        let n = self.cells;
        let k = piece.kind.index();
        let row =
            if Some(piece.kind) == self.pawn && piece.color == Color::Black { self.reach.len() / n - 1 } else { k };
        self.reach[row * n + to].has(king) || discoveries.has(from)
    }

    /// The cells a piece of the side to move could leave to discover a check:
    /// those between the enemy king and each of the side's pieces that reaches
    /// the king's cell on an empty board.
    #[inline]
    pub fn discoveries(&self, pos: &Position<S>) -> S {
        let us = pos.side_to_move();
        let king = pos.king_cell(us.opponent());
        let n = self.cells;
        let geo = pos.variant().tables();
        let cyclic = geo.cyclic();
        let mut out = S::EMPTY;
        let aligned = self.aligned[king];
        for &k in &self.sliders {
            for s in (pos.pieces(us, Kind(k as u8)) & aligned).cells() {
                if self.reach[k * n + s].has(king) {
                    out |= geo.between(king, s);
                    // On a cyclic line the other way round too (where there is one).
                    if cyclic && geo.between_alt(king, s) != geo.all() {
                        out |= geo.between_alt(king, s);
                    }
                }
            }
        }
        out
    }

    /// Every cell on a line (any of the 26 directions) through `cell`.
    #[inline(always)]
    pub fn aligned(&self, cell: usize) -> S {
        self.aligned[cell]
    }

    /// Kinds other than the pawn that capture by sliding.
    #[inline(always)]
    pub fn sliders(&self) -> &[usize] {
        &self.sliders
    }

    /// Whether a side has material other than pawns and the king.
    #[inline]
    pub fn has_pieces(&self, pos: &Position<S>, c: Color) -> bool {
        self.pieces.iter().any(|&k| pos.pieces(c, Kind(k as u8)).any())
    }

    /// Material, pawn advancement and tempo: the cheap part of
    /// [`EvalTables::evaluate`], which adds mobility and king safety.
    #[inline]
    pub fn basic(&self, pos: &Position<S>) -> Basic {
        self.basic_from(pos, self.material(pos))
    }

    /// Each side's material and pawn advancement, counted from scratch.
    pub fn material(&self, pos: &Position<S>) -> Material {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast_bits() {
            // SAFETY: the CPU has the instruction (checked just above).
            return unsafe { self.material_popcnt(pos) };
        }
        self.material_generic(pos)
    }

    /// [`EvalTables::material`] compiled for [`crate::cpu::fast_bits`] CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn material_popcnt(&self, pos: &Position<S>) -> Material {
        self.material_generic(pos)
    }

    #[inline(always)]
    fn material_generic(&self, pos: &Position<S>) -> Material {
        let mut m = Material::default();
        for c in Color::ALL {
            let ci = c.index();
            for &k in &self.pieces {
                m.npm[ci] += pos.pieces(c, Kind(k as u8)).count() as i32 * self.value[k];
            }
            if let Some(p) = self.pawn {
                let pawns = pos.pieces(c, p);
                let bonus = &self.pawn_bonus[ci];
                m.pawns[ci] = pawns.count() as i32 * self.value[p.index()];
                m.advance[ci] = pawns.cells().map(|cell| bonus[cell]).sum();
            }
        }
        m
    }

    /// [`EvalTables::material`] after `m` from `pos` (the position before the
    /// move), from the material before it: only what the move takes, moves or
    /// promotes changes. `None` for en passant and castling, whose effects are
    /// easier counted again after the move.
    #[inline(always)]
    pub fn material_after(&self, pos: &Position<S>, m: Move, before: Material) -> Option<Material> {
        // Shared cells (riding unicorns) move or fall two men at a time: count again.
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep) || pos.variant().rider().is_some() {
            return None;
        }
        let mut after = before;
        let (from, to) = (m.from(), m.to());
        let us = pos.side_to_move().index();
        if let Some(victim) = pos.piece_at(to) {
            let them = victim.color.index();
            if Some(victim.kind) == self.pawn {
                after.pawns[them] -= self.value[victim.kind.index()];
                after.advance[them] -= self.pawn_bonus[them][to];
            } else {
                after.npm[them] -= self.value[victim.kind.index()];
            }
        }
        let mover = pos.piece_at(from)?;
        if Some(mover.kind) == self.pawn {
            after.advance[us] -= self.pawn_bonus[us][from];
            if let Some(k) = m.promotion() {
                after.pawns[us] -= self.value[mover.kind.index()];
                after.npm[us] += self.value[k.index()];
            } else {
                after.advance[us] += self.pawn_bonus[us][to];
            }
        }
        Some(after)
    }

    /// [`EvalTables::basic`] from the position's [`Material`].
    #[inline(always)]
    pub fn basic_from(&self, pos: &Position<S>, m: Material) -> Basic {
        let s = self.start_npm;
        // Advancement counts up to twice as much when the enemy's pieces are gone.
        let side = [0, 1].map(|ci| m.npm[ci] + m.pawns[ci] + m.advance[ci] * (2 * s - m.npm[1 - ci].min(s)) / s);
        let white = side[0] - side[1];
        let stm = if pos.side_to_move() == Color::White { white } else { -white };
        Basic { score: stm + self.params.tempo, npm: m.npm }
    }

    /// The full evaluation from its cheap part; records the attacks of the side
    /// to move's pieces (neither pawns nor king) in `attacks`.
    pub fn finish(&self, pos: &Position<S>, basic: Basic, attacks: &mut PieceAttacks<S>) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::fast_bits() {
            // SAFETY: the CPU has the instruction (checked just above).
            return unsafe { self.finish_popcnt(pos, basic, attacks) };
        }
        self.finish_generic(pos, basic, attacks)
    }

    /// [`EvalTables::finish`] compiled for [`crate::cpu::fast_bits`] CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn finish_popcnt(&self, pos: &Position<S>, basic: Basic, attacks: &mut PieceAttacks<S>) -> i32 {
        self.finish_generic(pos, basic, attacks)
    }

    #[inline(always)]
    fn finish_generic(&self, pos: &Position<S>, basic: Basic, attacks: &mut PieceAttacks<S>) -> i32 {
        let npm = basic.npm;
        let us = pos.side_to_move();
        let kings = [pos.king_cell(Color::White), pos.king_cell(Color::Black)];
        let zones = [self.king_zone[kings[0]], self.king_zone[kings[1]]];
        let mut mobility = [0i32; 2];
        // danger[c]: enemy attacks on c's king zone.
        let mut danger = [0i32; 2];
        attacks.len = 0;
        for c in Color::ALL {
            let ci = c.index();
            let own = pos.color_cells(c);
            let enemy_zone = zones[1 - ci];
            for &k in &self.pieces {
                let ranged = !self.slide_reach[k].is_empty();
                for cell in pos.pieces(c, Kind(k as u8)).cells() {
                    let att = if ranged { self.attacks_within(k, cell, pos) } else { self.attacks_in(k, cell, pos) };
                    mobility[ci] += ((att & !own).count() as i32 - self.mobility_base[k]) * self.mobility[k];
                    danger[1 - ci] += (att & enemy_zone).count() as i32;
                    if c == us && attacks.len < attacks.list.len() {
                        attacks.list[attacks.len] = (cell as u16, k as u8, att);
                        attacks.len += 1;
                    }
                }
            }
            if let Some(p) = self.pawn {
                let table = &self.pawn_attacks[ci];
                for cell in (pos.pieces(c, p) & self.zone_pawn_sources[ci][kings[1 - ci]]).cells() {
                    danger[1 - ci] += (table[cell] & enemy_zone).count() as i32;
                }
            }
        }
        attacks.complete = attacks.len < attacks.list.len();
        if self.noncombatant {
            // Attacks around a king that cannot be checked gain nothing, and
            // hemming it in only risks stalemate: it must be let out to be mated.
            let unmoved = pos.unmoved();
            for ci in 0..2 {
                if unmoved.has(kings[ci]) {
                    danger[ci] = 0;
                }
            }
        }
        let s = self.start_npm;
        let mut side = [0i32; 2];
        for ci in 0..2 {
            let king = danger[ci] * self.params.king_zone_attack * npm[1 - ci].min(s) / s;
            side[ci] = mobility[ci] - king;
        }
        if self.noncombatant {
            // A king that has not moved can never be checked, so never mated:
            // keeping it home is worth much; the enemy's must be made to move.
            let unmoved = pos.unmoved();
            for ci in 0..2 {
                if unmoved.has(kings[ci]) {
                    side[ci] += UNMOVED_KING;
                }
            }
        }
        let white = side[0] - side[1];
        basic.score + if us == Color::White { white } else { -white }
    }

    /// The evaluation of `pos` in centipawns, from the side to move's view.
    pub fn evaluate(&self, pos: &Position<S>) -> i32 {
        self.finish(pos, self.basic(pos), &mut PieceAttacks::default())
    }
}

/// Each side's material and pawn advancement (indexed by colour), the terms a
/// move changes only where it takes, moves or promotes: the search keeps them
/// move by move instead of counting the board at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// Material in pieces other than pawns and the king.
    pub npm: [i32; 2],
    /// Material in pawns.
    pub pawns: [i32; 2],
    /// The sum of the pawns' advancement bonuses.
    pub advance: [i32; 2],
}

/// The cheap part of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Basic {
    /// Material, pawn advancement and tempo, from the side to move's view.
    pub score: i32,
    /// Each side's material in pieces other than pawns and the king.
    pub npm: [i32; 2],
}

/// The cells attacked by each of the side to move's pieces (neither pawns
/// nor the king), as the full evaluation found them.
#[derive(Clone, Debug)]
pub struct PieceAttacks<S: Width> {
    /// `(cell, kind index, attacked cells)` in `list[..len]`.
    pub list: [(u16, u8, S); 64],
    /// How many entries are used.
    pub len: usize,
    /// Whether every piece found room in `list`.
    pub complete: bool,
}

impl<S: Width> Default for PieceAttacks<S> {
    fn default() -> Self {
        PieceAttacks { list: [(0, 0, S::EMPTY); 64], len: 0, complete: false }
    }
}

/// Sliding attacks from `cell` along `dirs` (the first `positive` of them
/// positive) with blockers `occ`; `rays` has one row of 26 per cell of the
/// board. A ray's cell numbers rise in a positive direction and fall in a
/// negative one, so the first blocker is one bit scan; the scans' sentinels
/// (the board's last cell above, cell 0 below) have empty rays in the scanned
/// direction, so a ray without blockers needs no branch.
#[inline(always)]
fn slide<S: Width>(rays: &[S], cell: usize, dirs: &[u8], positive: usize, occ: S) -> S {
    let mut att = S::EMPTY;
    let row = &rays[cell * 26..cell * 26 + 26];
    let (up, down) = dirs.split_at(positive);
    let last = S::single(rays.len() / 26 - 1);
    for &d in up {
        let d = d as usize;
        let ray = row[d];
        let b = ((ray & occ) | last).lowest();
        att |= ray ^ rays[b * 26 + d];
    }
    for &d in down {
        let d = d as usize;
        let ray = row[d];
        let b = ((ray & occ) | S::single(0)).highest();
        att |= ray ^ rays[b * 26 + d];
    }
    att
}

/// The static evaluation of `pos` in centipawns, from the side to move's point of view.
///
/// ```
/// use raum_engine::EvalParams;
/// use raum_rules::{Position, Variant, VariantId};
/// let pos = Position::start(Variant::get(VariantId::FiveUp));
/// // The start is symmetric: only the bonus for the side to move is left.
/// assert_eq!(raum_engine::evaluate(&pos), EvalParams::for_variant(VariantId::FiveUp).tempo);
/// ```
pub fn evaluate<S: Width>(pos: &Position<S>) -> i32 {
    EvalTables::get(pos.variant().id()).evaluate(pos)
}

#[cfg(test)]
mod tests {

    /// The derived terms of every untuned variant are sane: the knight is 300 by
    /// definition, the queen outweighs the rook, mobility is positive.
    #[test]
    fn derived_terms() {
        let tuned = |id| {
            matches!(
                id,
                VariantId::FiveUp
                    | VariantId::FiveUpCylinder
                    | VariantId::FiveUpTorus
                    | VariantId::FiveUpUnicorn
                    | VariantId::Raumschach
            )
        };
        // The terms before any adopted listing (`learned.rs`): derived for these games.
        for id in VariantId::ALL.into_iter().filter(|&id| !tuned(id)) {
            let p = EvalParams::built_in(id);
            eprintln!("{id}: {:?} mobility {:?}", p.piece_values, p.mobility);
            let value = |l: char| p.piece_values.iter().find(|v| v.0 == l).map(|v| v.1);
            assert_eq!(value('N'), Some(300), "{id}");
            // The queen outweighs everything; a rook is a fair piece, though in
            // 3D not always above the knight (Raumschach's tuned rook is 300
            // against a 470 knight; Forced 3D's small centre derives 289).
            assert!(p.piece_values.iter().all(|v| v.0 == 'Q' || value('Q') > Some(v.1)), "{id}");
            assert!(value('R') > Some(250), "{id}");
            assert!(p.mobility.iter().all(|m| m.1 >= 1), "{id}");
        }
        // For comparison with tuned terms (BENCHMARKS.md).
        for id in [VariantId::FiveUp, VariantId::Raumschach] {
            eprintln!("{id} derived: {:?}", EvalParams::derived(Variant::get(id)).piece_values);
        }
    }

    use super::*;
    use raum_rules::VariantFn;

    /// A xorshift step: the tests' random games.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn pawn_distances_match_coordinates() {
        let v = Variant::get(VariantId::FiveUp);
        let t = EvalTables::<u128>::get(VariantId::FiveUp);
        for cell in 0..v.cells() {
            let c = v.board().coord(cell);
            // White: forward (+rank) and up (towards level A, z = 0).
            assert_eq!(t.pawn_distance(Color::White, cell), Some((4 - c.y + c.z) as u8));
            assert_eq!(t.pawn_distance(Color::Black, cell), Some((c.y + 4 - c.z) as u8));
        }
        let v = Variant::get(VariantId::Raumschach);
        let t = EvalTables::<u128>::get(VariantId::Raumschach);
        for cell in 0..v.cells() {
            let c = v.board().coord(cell);
            assert_eq!(t.pawn_distance(Color::White, cell), Some((4 - c.y + 4 - c.z) as u8));
            assert_eq!(t.pawn_distance(Color::Black, cell), Some((c.y + c.z) as u8));
        }
    }

    #[test]
    fn start_positions_are_balanced_and_symmetric() {
        struct Start;
        impl VariantFn for Start {
            type Output = i32;
            fn call<S: Width>(self, v: &'static Variant<S>) -> i32 {
                evaluate(&Position::start(v))
            }
        }
        for id in VariantId::ALL {
            // Both sides' terms cancel: only the tempo bonus is left.
            assert_eq!(id.dispatch(Start), EvalParams::for_variant(id).tempo, "{id}");
        }
    }

    /// Engine-side attack tables against the rules' piece figures (captures
    /// only), and the check filter, in positions of random games; returns how
    /// many checks the filter lets through only by its discovered-check cells.
    struct AttacksAgree<'a>(&'a mut u64);
    impl VariantFn for AttacksAgree<'_> {
        type Output = usize;
        fn call<S: Width>(self, v: &'static Variant<S>) -> usize {
            let (seed, id) = (self.0, v.id());
            let t = EvalTables::<S>::get(id);
            let mut discovered = 0;
            for _game in 0..20 {
                let mut pos = Position::start(v);
                for _ply in 0..120 {
                    for cell in pos.occupied().cells() {
                        let p = pos.piece_at(cell).expect("occupied");
                        let own = pos.color_cells(p.color);
                        let enemy = pos.color_cells(p.color.opponent());
                        let rules = v.targets(p, cell, own, enemy) & enemy;
                        let ours = if Some(p.kind) == v.pawn() {
                            t.pawn_attacks(p.color, cell)
                        } else {
                            t.attacks_within(p.kind.index(), cell, &pos)
                        };
                        assert_eq!(ours & enemy, rules, "{id} {cell}");
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let them = pos.side_to_move().opponent();
                    for &m in moves.iter() {
                        let gives_check = pos.play_copy(m).is_check();
                        if gives_check && m.kind() != raum_rules::MoveKind::Castle {
                            let p = pos.piece_at(m.from()).expect("mover");
                            let placed = m.promotion().map_or(p, |k| raum_rules::Piece::new(p.color, k));
                            let disc = t.discoveries(&pos);
                            assert!(t.may_check(placed, m.from(), m.to(), pos.king_cell(them), disc), "{id} {m:?}");
                            discovered +=
                                !t.may_check(placed, m.from(), m.to(), pos.king_cell(them), S::EMPTY) as usize;
                        }
                    }
                    pos.play(moves[(next(seed) % moves.len() as u64) as usize]);
                }
            }
            discovered
        }
    }

    #[test]
    fn attacks_agree_with_the_rules_on_captures() {
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        let discovered: usize = VariantId::ALL.iter().map(|id| id.dispatch(AttacksAgree(&mut seed))).sum();
        assert!(discovered > 0, "no discovered check was met");
        // And riders with a range, from a variant file.
        let text = include_str!("../../../examples/variants/short-riders.toml");
        let Ok(raum_rules::GameId::Two(id)) = raum_rules::file::load(text, "short-riders.toml") else {
            panic!("the example file loads");
        };
        id.dispatch(AttacksAgree(&mut seed));
    }

    /// Every legal move of random games (captures, promotions, castling and en
    /// passant included): the update from the move equals counting the board
    /// after it. Returns how many moves were special, promotions and captures.
    struct MaterialKept<'a>(&'a mut u64);
    impl VariantFn for MaterialKept<'_> {
        type Output = [usize; 3];
        fn call<S: Width>(self, v: &'static Variant<S>) -> [usize; 3] {
            let (seed, id) = (self.0, v.id());
            let t = EvalTables::<S>::get(id);
            let (mut special, mut promotions, mut captures) = (0, 0, 0);
            for _game in 0..30 {
                let mut pos = Position::start(v);
                let mut material = t.material(&pos);
                for _ply in 0..200 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let after = pos.play_copy(m);
                        match t.material_after(&pos, m, material) {
                            Some(kept) => {
                                assert_eq!(kept, t.material(&after), "{id} {m:?}");
                                promotions += m.promotion().is_some() as usize;
                                captures += pos.piece_at(m.to()).is_some() as usize;
                            }
                            None => special += 1,
                        }
                    }
                    let m = moves[(next(seed) % moves.len() as u64) as usize];
                    material = t.material_after(&pos, m, material).unwrap_or_else(|| t.material(&pos.play_copy(m)));
                    pos.play(m);
                    assert_eq!(material, t.material(&pos), "{id} {m:?}");
                    assert_eq!(t.basic_from(&pos, material), t.basic(&pos));
                }
            }
            [special, promotions, captures]
        }
    }

    #[test]
    fn material_kept_move_by_move_equals_a_recount() {
        let mut seed = 0x5EED_0FA7_E51A_1D00_u64;
        let mut n = [0; 3];
        for id in VariantId::ALL {
            let counts = id.dispatch(MaterialKept(&mut seed));
            for (total, c) in n.iter_mut().zip(counts) {
                *total += c;
            }
        }
        let [special, promotions, captures] = n;
        assert!(special > 0 && promotions > 0 && captures > 0, "{special} {promotions} {captures}");
    }
}
