//! A variant compiled into the tables the move generator reads.

use crate::error::VariantError;
use crate::game_rules::SideDef;
use crate::piece::{Color, Kind, MAX_KINDS, Piece};
use crate::piece_def::{Motion, PieceDef, Role};
use crate::setup::Setup;
use crate::spec::{CastlingRule, CellNaming, Mirror, VariantId, VariantSpec};
use crate::zobrist::Zobrist;
use raum_bitboard::CellSet;
use raum_geometry::{Board, Coord, DIRECTIONS, Direction, Lines, Tables, Vector};

/// A double step from one start cell, as cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoubleStep {
    /// Destination.
    pub to: u16,
    /// The possible middle cells: one for a straight step, two for an L step.
    pub via: [u16; 2],
    /// How many of `via` are used (1 or 2).
    pub vias: u8,
}

/// A kind's sliding directions: whole lines (a direction and its opposite,
/// looked up in one step) and any one-way directions (scanned ray by ray).
#[derive(Clone, Debug, Default)]
pub(crate) struct SlideDirs {
    /// Line ids: the positive direction of each line slid both ways.
    pub lines: Vec<u8>,
    /// Directions slid one way only.
    pub one_way: Vec<u8>,
}

impl SlideDirs {
    fn new(dirs: &[u8]) -> Self {
        let both = |d: u8| dirs.contains(&d) && dirs.contains(&((d + 13) % 26));
        let lines = dirs.iter().copied().filter(|&d| d < 13 && both(d)).collect();
        let one_way = dirs.iter().copied().filter(|&d| !both(d)).collect();
        SlideDirs { lines, one_way }
    }
}

/// For a motion with a range along some direction (`O*2`): per cell, the
/// cells its slides may reach on an empty board; empty for a motion without one.
fn reach_table<S: CellSet>(motion: &Motion, board: &Board, geo: &Tables<S>) -> Vec<S> {
    if !motion.has_range() {
        return Vec::new();
    }
    let dirs = motion.slide_directions();
    (0..board.len())
        .map(|cell| dirs.iter().fold(S::EMPTY, |r, &d| r | reach_ray(board, geo, cell, d, motion.reach(d))))
        .collect()
}

/// The cells a slide from `cell` along direction `d` reaches on an empty
/// board, at most `range` of them (`None` or `u8::MAX`: the whole ray).
fn reach_ray<S: CellSet>(board: &Board, geo: &Tables<S>, cell: usize, d: u8, range: Option<u8>) -> S {
    let ray = geo.ray(cell, d as Direction);
    let Some(range) = range.filter(|&r| r != u8::MAX) else { return ray };
    let mut set = S::EMPTY;
    let mut at = cell;
    for _ in 0..range {
        match board.step(at, DIRECTIONS[d as usize]) {
            Some(next) if ray.has(next) => {
                set.insert(next);
                at = next;
            }
            _ => break,
        }
    }
    set
}

/// Pawns moving by one vector, all at once: on a full box with cells numbered
/// densely, a displacement is a constant shift of cell numbers. Where an axis
/// wraps it is not: a vector is then several shifts, one per way of crossing
/// the joined faces, each from the cells that cross them that way.
#[derive(Clone, Copy, Debug)]
pub struct PawnShift<S> {
    /// Cell-number offset of the vector.
    pub delta: i32,
    /// Cells from which the vector stays on the board.
    pub from: S,
}

impl<S: CellSet> PawnShift<S> {
    /// Where the pawns in `pawns` land (those that would leave the board are dropped).
    #[inline(always)]
    pub fn apply(&self, pawns: S) -> S {
        (pawns & self.from).shift(self.delta)
    }
}

/// Per pawn set ([`crate::PawnSet`]; the side's own in a position, see
/// [`crate::Position::pawn_set`]): the pawn's step and capture vectors as shifts
/// (a vector may be several shifts on a wrapping board).
#[derive(Clone, Debug)]
pub struct PawnShifts<S> {
    /// Single steps.
    pub steps: Vec<Vec<PawnShift<S>>>,
    /// Captures.
    pub captures: Vec<Vec<PawnShift<S>>>,
    /// Double steps as their two single steps (no double step crosses a
    /// joined face, or there are no shifts at all).
    pub doubles: Vec<Vec<[PawnShift<S>; 2]>>,
}

/// One castling move with fixed partners, compiled to cells.
#[derive(Clone, Debug)]
pub(crate) struct Slot<S> {
    pub color: Color,
    pub letter: Option<char>,
    pub king: [u16; 2],
    pub rook: [u16; 2],
    pub empty: S,
    pub crossed: S,
}

/// Directions of one class of sliding lines, and which kinds slide along them:
/// the unit of pin and slider-check detection.
#[derive(Clone, Debug)]
pub(crate) struct SlideClass<S> {
    /// Kinds that capture by sliding along these directions (bit per kind).
    pub kinds: u16,
    /// How far they slide (`u8::MAX`: without a limit).
    pub range: u8,
    /// Per cell: union of the empty-board rays in these directions.
    pub rays: Vec<S>,
}

/// A variant with every table built: what positions and the move generator use.
///
/// Build once; [`Variant::get`] keeps one per id for the program's lifetime.
///
/// ```
/// use raum_rules::{Variant, VariantId};
/// let v = Variant::get(VariantId::FiveUp);
/// assert_eq!(v.cells(), 125);
/// assert_eq!(v.piece_def(v.kind_of('W').unwrap()).name, "wizard");
/// ```
/// What the fast paths may assume of a game (see [`Variant::geometry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Plain chess geometry: a piece captures every enemy man it attacks, a
    /// pin or a check runs along one arc, a king moves where it attacks. The
    /// generator runs its plain copy, and shortcut generators outside the
    /// rules core may be used.
    Plain,
    /// Plain but for a king restricted in check (Savard's boards). The
    /// generator runs its plain copy, which reads the restriction only in
    /// check (the copy with the hooks cost Savard's boards 3 to 6% of perft's
    /// instructions); shortcut generators may not be used.
    KingRestricted,
    /// A line wraps, the non-combatant rule, shared cells or a rider with a
    /// range: the generator runs its copy with the hooks (`EXOTIC`), and
    /// shortcut generators may not be used.
    Hooked,
}

#[derive(Debug)]
pub struct Variant<S: CellSet> {
    pub(crate) spec: VariantSpec,
    pub(crate) board: Board,
    pub(crate) geo: Tables<S>,
    pub(crate) lines: Lines<S>,
    /// Whether some line is a cycle (see [`Tables::between_alt`]).
    pub(crate) cyclic: bool,
    /// The spec's non-combatant rule, kept beside the hot tables.
    pub(crate) noncombatant: bool,
    /// What the fast paths may assume ([`Variant::geometry`]): the one
    /// switch, chosen when the variant is built.
    pub(crate) geometry: Geometry,
    pub(crate) kinds: usize,
    pub(crate) king: Kind,
    pub(crate) pawn: Option<Kind>,
    /// The kind that rides with friendly pieces (Five Up's unicorn), and its
    /// index in `leaper_kinds` (a rider attacks only from a shared cell).
    pub(crate) rider: Option<Kind>,
    pub(crate) rider_leaper: usize,
    /// Per cell: the king's quiet steps while in check, where the variant
    /// restricts them (Savard); empty otherwise.
    pub(crate) king_check_quiet: Vec<S>,
    /// `[kind * cells + cell]`: leap targets for quiet moves and captures.
    pub(crate) move_leaps: Vec<S>,
    pub(crate) capture_leaps: Vec<S>,
    /// `[kind * cells + cell]`: cells from which `kind` captures `cell` by a leap.
    pub(crate) capture_leaps_from: Vec<S>,
    pub(crate) move_slides: Vec<SlideDirs>,
    pub(crate) capture_slides: Vec<SlideDirs>,
    /// Per kind with a range along some direction: where its moving slides
    /// may reach from each cell (see `reach_table`); empty for the others.
    pub(crate) move_reach: Vec<Vec<S>>,
    /// The same for its capturing slides.
    pub(crate) capture_reach: Vec<Vec<S>>,
    /// Kinds (not pawn, not king) whose moves equal their captures.
    pub(crate) symmetric: [bool; MAX_KINDS],
    pub(crate) leaper_kinds: Vec<Kind>,
    pub(crate) slide_classes: Vec<SlideClass<S>>,
    /// `[set * cells + cell]`, `set` a pawn set (White's and Black's in most variants).
    pub(crate) pawn_steps: Vec<S>,
    pub(crate) pawn_captures: Vec<S>,
    pub(crate) pawn_captures_from: Vec<S>,
    pub(crate) pawn_doubles: Vec<Vec<DoubleStep>>,
    /// Set-wise pawn moves; `None` where the board is not a full box.
    pub(crate) pawn_shifts: Option<PawnShifts<S>>,
    /// Per pawn set.
    pub(crate) double_origins: Vec<S>,
    pub(crate) promotion_zone: Vec<S>,
    pub(crate) pawn_en_passant: Vec<bool>,
    pub(crate) promote_to: Vec<Kind>,
    /// Octahedral's pawn-column rule: per cell, the cells of its (file, rank) column.
    pub(crate) columns: Option<Vec<S>>,
    pub(crate) castle_partner: Option<Kind>,
    /// Per cell: union of the orthogonal rays (swap castling's lines).
    pub(crate) castle_rays: Vec<S>,
    /// Fixed castling moves, one right each (empty for swap castling).
    pub(crate) slots: Vec<Slot<S>>,
    /// Per cell: the rights lost when a move leaves or lands on it.
    pub(crate) castle_clear: Vec<u16>,
    pub(crate) zobrist: Zobrist,
    pub(crate) start: Setup,
    /// White and Black as sides of a game ([`Variant::sides`]).
    pub(crate) sides: [SideDef; 2],
}

impl Variant<u128> {
    /// The shared, fully built variant for `id`, one of the boards of up to 128
    /// cells (Five Up, Raumschach); wider ones are reached through
    /// [`VariantId::dispatch`] or [`Variant::at_width`].
    pub fn get(id: VariantId) -> &'static Variant<u128> {
        Variant::at_width(id)
    }
}

impl<S: CellSet> Variant<S> {
    /// Compiles a variant description into tables.
    pub fn build(spec: VariantSpec) -> Result<Self, VariantError> {
        if spec.noncombatant && !spec.track_unmoved {
            return Err(VariantError::Unsupported("the non-combatant rule needs unmoved pieces tracked".into()));
        }
        let board = Board::new(spec.shape.clone(), spec.topology)?;
        let geo = Tables::<S>::new(&board)?;
        let lines = Lines::new(&board, &geo);
        let n = board.len();
        let kinds = spec.pieces.len();
        if kinds > MAX_KINDS {
            return Err(VariantError::TooManyKinds(kinds));
        }
        let kind_of = |letter: char| {
            spec.pieces
                .iter()
                .position(|p| p.letter == letter)
                .map(|i| Kind(i as u8))
                .ok_or(VariantError::UnknownLetter(letter))
        };
        let royal: Vec<usize> = (0..kinds).filter(|&k| spec.pieces[k].role == Role::King).collect();
        let [king_index] = royal[..] else {
            return Err(VariantError::Unsupported("exactly one royal kind is needed".into()));
        };
        let king = Kind(king_index as u8);
        let pawn = spec.pieces.iter().position(|p| p.role == Role::Pawn).map(|i| Kind(i as u8));
        let rider = spec.rider.map(kind_of).transpose()?;
        if let Some(r) = rider
            && (spec.pieces[r.index()].role != Role::Piece || spec.pieces[r.index()].moves.leaps.is_empty())
        {
            return Err(VariantError::Unsupported("a rider must be a leaping piece".into()));
        }

        let leap_table = |f: &dyn Fn(&PieceDef) -> &Motion| {
            let mut t = vec![S::EMPTY; kinds * n];
            for (k, def) in spec.pieces.iter().enumerate() {
                if def.role == Role::Pawn {
                    continue;
                }
                for cell in 0..n {
                    t[k * n + cell] = Tables::<S>::leaps(&board, cell, &f(def).leaps);
                }
            }
            t
        };
        let move_leaps = leap_table(&|d| &d.moves);
        let capture_leaps = leap_table(&|d| &d.captures);
        let mut capture_leaps_from = vec![S::EMPTY; kinds * n];
        for k in 0..kinds {
            for from in 0..n {
                for to in capture_leaps[k * n + from].cells() {
                    capture_leaps_from[k * n + to].insert(from);
                }
            }
        }
        let ranged = spec.pieces.iter().any(|p| p.moves.has_range() || p.captures.has_range());
        if ranged && geo.cyclic() {
            return Err(VariantError::Unsupported(
                "a rider with a range on a board whose lines wrap round (a range is counted one way round)".into(),
            ));
        }
        let move_slides: Vec<SlideDirs> =
            spec.pieces.iter().map(|p| SlideDirs::new(&p.moves.slide_directions())).collect();
        let capture_slides: Vec<SlideDirs> =
            spec.pieces.iter().map(|p| SlideDirs::new(&p.captures.slide_directions())).collect();
        let move_reach: Vec<Vec<S>> = spec.pieces.iter().map(|p| reach_table(&p.moves, &board, &geo)).collect();
        let capture_reach: Vec<Vec<S>> = spec.pieces.iter().map(|p| reach_table(&p.captures, &board, &geo)).collect();
        let mut symmetric = [false; MAX_KINDS];
        for (k, p) in spec.pieces.iter().enumerate() {
            symmetric[k] = p.role == Role::Piece && p.moves == p.captures;
        }
        let leaper_kinds: Vec<Kind> =
            (0..kinds).filter(|&k| !spec.pieces[k].captures.leaps.is_empty()).map(|k| Kind(k as u8)).collect();
        let rider_leaper = rider.and_then(|r| leaper_kinds.iter().position(|&k| k == r)).unwrap_or(usize::MAX);

        // Group the 26 directions by the kinds that capture along them and how
        // far: a class is a set of kinds sliding along its directions with one
        // range (most games: one class a family, every range unlimited).
        let mut slide_classes: Vec<SlideClass<S>> = Vec::new();
        // Per direction, each kind's reach along it (0: none).
        let reach_along = |d: usize| -> [u8; MAX_KINDS] {
            let mut r = [0; MAX_KINDS];
            for (k, p) in spec.pieces.iter().enumerate() {
                if p.role != Role::Pawn {
                    r[k] = p.captures.reach(d as u8).unwrap_or(0);
                }
            }
            r
        };
        let mut class_dirs: Vec<Vec<usize>> = Vec::new();
        for d in 0..26 {
            let reach = reach_along(d);
            if reach.iter().all(|&r| r == 0) {
                continue;
            }
            if reach_along((d + 13) % 26) != reach {
                return Err(VariantError::Unsupported("one-way sliders".into()));
            }
            let mut ranges: Vec<u8> = reach.iter().copied().filter(|&r| r != 0).collect();
            ranges.sort_unstable();
            ranges.dedup();
            for range in ranges {
                let mask = (0..kinds).filter(|&k| reach[k] == range).fold(0u16, |m, k| m | 1 << k);
                let i = match slide_classes.iter().position(|c| c.kinds == mask && c.range == range) {
                    Some(i) => i,
                    None => {
                        slide_classes.push(SlideClass { kinds: mask, range, rays: vec![S::EMPTY; n] });
                        class_dirs.push(Vec::new());
                        slide_classes.len() - 1
                    }
                };
                class_dirs[i].push(d);
            }
        }
        if slide_classes.len() > crate::attacks::MAX_CLASSES {
            return Err(VariantError::Unsupported("too many distinct slider groups".into()));
        }
        for (class, dirs) in slide_classes.iter_mut().zip(&class_dirs) {
            for cell in 0..n {
                for &d in dirs {
                    class.rays[cell] |= reach_ray(&board, &geo, cell, d as u8, Some(class.range));
                }
            }
        }

        // Pawns: one table per pawn set (White's and Black's, or Book's twelve axes).
        let dims = spec.shape.dims();
        let mirror = spec.mirror;
        let cell_for = |c: Color, at: Coord| -> Option<usize> {
            board.cell_at(if c == Color::White { at } else { mirror.cell(at, dims) })
        };
        let sets = spec.pawn_sets.len();
        if sets == 0 || spec.start_sets.iter().any(|&s| s as usize >= sets) {
            return Err(VariantError::Unsupported("the start pawn sets must exist".into()));
        }
        let mut pawn_steps = vec![S::EMPTY; sets * n];
        let mut pawn_captures = vec![S::EMPTY; sets * n];
        let mut pawn_captures_from = vec![S::EMPTY; sets * n];
        let mut pawn_doubles = vec![Vec::new(); sets * n];
        let mut double_origins = vec![S::EMPTY; sets];
        let mut promotion_zone = vec![S::EMPTY; sets];
        for (si, set) in spec.pawn_sets.iter().enumerate() {
            let rules = &set.rules;
            for cell in 0..n {
                pawn_steps[si * n + cell] = Tables::<S>::leaps(&board, cell, &rules.steps);
                pawn_captures[si * n + cell] = Tables::<S>::leaps(&board, cell, &rules.captures);
                for t in pawn_captures[si * n + cell].cells() {
                    pawn_captures_from[si * n + t].insert(cell);
                }
            }
            for &origin in &rules.double_origins {
                let Some(o) = board.cell_at(origin) else {
                    return Err(VariantError::Unsupported(format!("double-step origin {origin:?} is off the board")));
                };
                double_origins[si].insert(o);
                for &[a, b] in &rules.double_steps {
                    let (Some(mid_a), Some(to)) = (board.step(o, a), board.step(o, a.add(b))) else {
                        continue;
                    };
                    let mid_b = board.step(o, b);
                    let step = match mid_b {
                        Some(mb) if a != b => DoubleStep { to: to as u16, via: [mid_a as u16, mb as u16], vias: 2 },
                        _ => DoubleStep { to: to as u16, via: [mid_a as u16; 2], vias: 1 },
                    };
                    pawn_doubles[si * n + o].push(step);
                }
            }
            for &at in &rules.promotion_cells {
                if let Some(c) = board.cell_at(at) {
                    promotion_zone[si].insert(c);
                }
            }
        }
        let pawn_en_passant = spec.pawn_sets.iter().map(|s| s.rules.en_passant).collect();
        let box_board = spec.shape.dims().iter().map(|&d| d as usize).product::<usize>() == n;
        let pawn_shifts = box_board
            .then(|| {
                let [w, h, _] = dims.map(i32::from);
                let plain = |v: Vector| i32::from(v.x) + w * i32::from(v.y) + w * h * i32::from(v.z);
                // One shift per distinct cell-number offset the vector makes
                // (one on a bounded box; more where it crosses joined faces).
                let shifts = |vectors: &[Vector]| -> Vec<PawnShift<S>> {
                    let mut out: Vec<PawnShift<S>> = Vec::new();
                    for &v in vectors {
                        let first = out.len();
                        for c in 0..n {
                            let Some(t) = board.step(c, v) else { continue };
                            let delta = t as i32 - c as i32;
                            match out[first..].iter_mut().find(|s| s.delta == delta) {
                                Some(s) => s.from.insert(c),
                                None => out.push(PawnShift { delta, from: S::single(c) }),
                            }
                        }
                    }
                    out
                };
                // Double steps are shifted only where none crosses a joined face.
                // Each vector's shift is made once: the origins' checks below ask
                // for it again and again (thousands of times on the Book's board).
                let sets = &spec.pawn_sets;
                let mut made: Vec<(Vector, PawnShift<S>)> = Vec::new();
                for &v in sets.iter().flat_map(|s| s.rules.double_steps.iter().flatten()) {
                    if made.iter().all(|(u, _)| *u != v) {
                        let from = (0..n)
                            .filter(|&c| board.step(c, v) == Some((c as i32 + plain(v)) as usize))
                            .fold(S::EMPTY, |s, c| s | S::single(c));
                        made.push((v, PawnShift { delta: plain(v), from }));
                    }
                }
                let unwrapped = |v: Vector| {
                    made.iter()
                        .find(|(u, _)| *u == v)
                        .map_or(PawnShift { delta: plain(v), from: S::EMPTY }, |(_, s)| *s)
                };
                let doubles_stay_inside = sets.iter().all(|s| {
                    let r = &s.rules;
                    r.double_origins.iter().filter_map(|&o| board.cell_at(o)).all(|o| {
                        r.double_steps.iter().all(|&[a, b]| {
                            [a, b].iter().all(|&first| {
                                let second = if first == a { b } else { a };
                                let mid = board.step(o, first);
                                mid.is_none_or(|m| {
                                    unwrapped(first).from.has(o)
                                        && board.step(m, second).is_none_or(|_| unwrapped(second).from.has(m))
                                })
                            })
                        })
                    })
                });
                doubles_stay_inside.then(|| PawnShifts {
                    steps: sets.iter().map(|s| shifts(&s.rules.steps)).collect(),
                    captures: sets.iter().map(|s| shifts(&s.rules.captures)).collect(),
                    doubles: sets
                        .iter()
                        .map(|s| s.rules.double_steps.iter().map(|&[a, b]| [unwrapped(a), unwrapped(b)]).collect())
                        .collect(),
                })
            })
            .flatten();
        let first_rules = &spec.pawn_sets[0].rules;
        let promote_to = first_rules.promote_to.iter().map(|&l| kind_of(l)).collect::<Result<Vec<_>, _>>()?;
        let columns = first_rules.column_rule.then(|| {
            (0..n)
                .map(|cell| {
                    let c = board.coord(cell);
                    (0..n)
                        .filter(|&o| board.coord(o).x == c.x && board.coord(o).y == c.y)
                        .fold(S::EMPTY, |s, o| s | S::single(o))
                })
                .collect()
        });
        let mut slots = Vec::new();
        let mut castle_clear = vec![0u16; n];
        let castle_partner = match &spec.castling {
            CastlingRule::None => None,
            CastlingRule::SwapOnce { rook } => Some(kind_of(*rook)?),
            CastlingRule::Slots { rook, slots: list } => {
                if list.len() > 16 {
                    return Err(VariantError::Unsupported("more than 16 castling rights".into()));
                }
                let at = |c: Coord| {
                    board.cell_at(c).ok_or(VariantError::Unsupported(format!("castling cell {c:?} is off the board")))
                };
                let set =
                    |cs: &[Coord]| cs.iter().try_fold(S::EMPTY, |s, &c| Ok::<S, VariantError>(s | S::single(at(c)?)));
                for (i, slot) in list.iter().enumerate() {
                    let compiled = Slot {
                        color: slot.color,
                        letter: slot.letter,
                        king: [at(slot.king[0])? as u16, at(slot.king[1])? as u16],
                        rook: [at(slot.rook[0])? as u16, at(slot.rook[1])? as u16],
                        empty: set(&slot.empty)?,
                        crossed: set(&slot.crossed)?,
                    };
                    castle_clear[compiled.king[0] as usize] |= 1 << i;
                    castle_clear[compiled.rook[0] as usize] |= 1 << i;
                    slots.push(compiled);
                }
                Some(kind_of(*rook)?)
            }
        };

        let castle_rays = (0..n)
            .map(|cell| {
                (0..26).filter(|&d| DIRECTIONS[d].dimensions() == 1).fold(S::EMPTY, |acc, d| acc | geo.ray(cell, d))
            })
            .collect();
        let mut start = Setup::empty(n);
        for &(at, letter) in &spec.army {
            let kind = kind_of(letter)?;
            for color in Color::ALL {
                let cell = cell_for(color, at)
                    .ok_or(VariantError::Unsupported(format!("army cell {at:?} is off the board")))?;
                if Some(kind) == rider && start.board[cell].is_some() {
                    start.riders.push(cell);
                } else {
                    start.board[cell] = Some(Piece::new(color, kind));
                }
            }
        }
        start.riders.sort_unstable();
        start.castling = match spec.castling {
            CastlingRule::None => 0,
            CastlingRule::SwapOnce { .. } => 0b11,
            CastlingRule::Slots { .. } => ((1u32 << slots.len()) - 1) as u16,
        };
        start.pawn_sets = spec.start_sets;
        if spec.track_unmoved {
            let tracked = |p: Piece| spec.noncombatant || Some(p.kind) == pawn;
            start.unmoved = Some((0..n).filter(|&c| start.board[c].is_some_and(tracked)).collect());
        }
        let zobrist = Zobrist::new(spec.id.seed(), kinds, n, sets);
        let noncombatant = spec.noncombatant;
        let king_check_quiet: Vec<S> = match &spec.king_in_check {
            Some(m) if !m.slides.is_empty() || !m.rays.is_empty() || m.has_range() => {
                return Err(VariantError::Unsupported("the king's moves in check must be steps".into()));
            }
            Some(m) => (0..n).map(|cell| Tables::<S>::leaps(&board, cell, &m.leaps)).collect(),
            None => Vec::new(),
        };

        Ok(Variant {
            spec,
            board,
            cyclic: geo.cyclic(),
            noncombatant,
            geometry: if geo.cyclic() || noncombatant || rider.is_some() || ranged {
                Geometry::Hooked
            } else if !king_check_quiet.is_empty() {
                Geometry::KingRestricted
            } else {
                Geometry::Plain
            },
            geo,
            lines,
            kinds,
            king,
            pawn,
            rider,
            rider_leaper,
            king_check_quiet,
            move_leaps,
            capture_leaps,
            capture_leaps_from,
            move_slides,
            capture_slides,
            move_reach,
            capture_reach,
            symmetric,
            leaper_kinds,
            slide_classes,
            pawn_steps,
            pawn_captures,
            pawn_captures_from,
            pawn_doubles,
            pawn_shifts,
            double_origins,
            promotion_zone,
            pawn_en_passant,
            promote_to,
            columns,
            castle_partner,
            castle_rays,
            slots,
            castle_clear,
            zobrist,
            start,
            sides: [
                SideDef { letter: 'w', name: "White", map: Mirror::flips([false; 3]), team: 0 },
                SideDef { letter: 'b', name: "Black", map: mirror, team: 1 },
            ],
        })
    }

    /// White and Black, as the one game interface ([`crate::GameRules`])
    /// names sides: letters `w` and `b`, each its own team, Black's army
    /// White's through the variant's mirror.
    pub fn sides(&self) -> &[SideDef; 2] {
        &self.sides
    }

    /// The variant's id.
    pub fn id(&self) -> VariantId {
        self.spec.id
    }

    /// The variant's data description.
    pub fn spec(&self) -> &VariantSpec {
        &self.spec
    }

    /// The board (shape, topology, cell numbering).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Geometry tables (rays, between, lines).
    pub fn tables(&self) -> &Tables<S> {
        &self.geo
    }

    /// Line-attack tables (sliding attacks along the 13 lines through a cell).
    pub fn lines(&self) -> &Lines<S> {
        &self.lines
    }

    /// The pawn vectors as shifts of cell numbers, on boards that are full boxes.
    pub fn pawn_shifts(&self) -> Option<&PawnShifts<S>> {
        self.pawn_shifts.as_ref()
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.board.len()
    }

    /// How cells are named.
    pub fn naming(&self) -> CellNaming {
        self.spec.naming
    }

    /// The piece table.
    pub fn pieces(&self) -> &[PieceDef] {
        &self.spec.pieces
    }

    /// The definition of one kind.
    pub fn piece_def(&self, kind: Kind) -> &PieceDef {
        &self.spec.pieces[kind.index()]
    }

    /// The kind with this letter (either case).
    pub fn kind_of(&self, letter: char) -> Option<Kind> {
        let l = letter.to_ascii_uppercase();
        self.spec.pieces.iter().position(|p| p.letter == l).map(|i| Kind(i as u8))
    }

    /// The royal kind.
    pub fn king(&self) -> Kind {
        self.king
    }

    /// The pawn kind, if the variant has pawns.
    pub fn pawn(&self) -> Option<Kind> {
        self.pawn
    }

    /// Kinds a pawn may promote to, in the variant's order.
    pub fn promotion_kinds(&self) -> &[Kind] {
        &self.promote_to
    }

    /// Cells where pawns of pawn set `set` promote (see [`crate::Position::pawn_set`];
    /// in most variants set 0 is White's and 1 Black's).
    pub fn promotion_zone(&self, set: usize) -> S {
        self.promotion_zone[set]
    }

    /// How many pawn sets (orientations) the variant has.
    pub fn pawn_set_count(&self) -> usize {
        self.spec.pawn_sets.len()
    }

    /// The rules of a pawn set, vectors already turned its way.
    pub fn pawn_rules(&self, set: usize) -> &crate::PawnRules {
        &self.spec.pawn_sets[set].rules
    }

    /// The name of a pawn set (`+yz` in The Book of 3D-Chess).
    pub fn pawn_set_name(&self, set: usize) -> &str {
        &self.spec.pawn_sets[set].name
    }

    /// The pawn set with this name.
    pub fn pawn_set_by_name(&self, name: &str) -> Option<usize> {
        self.spec.pawn_sets.iter().position(|s| s.name == name)
    }

    /// `[kind * cells + cell]`: the cells a piece of `kind` on `cell` captures
    /// on by a leap (the leaps of its capture motion; none for pawns).
    pub fn capture_leap_table(&self) -> &[S] {
        &self.capture_leaps
    }

    /// `[cell]`: where the capturing slides of `kind` may reach on an empty
    /// board, for a kind with a range along some direction (`O*2`); empty for
    /// a kind without one (its slides go until blocked).
    pub fn capture_reach(&self, kind: Kind) -> &[S] {
        &self.capture_reach[kind.index()]
    }

    /// `[cell]`: where a pawn of pawn set `set` on each cell captures.
    pub fn pawn_capture_table(&self, set: usize) -> &[S] {
        let n = self.cells();
        &self.pawn_captures[set * n..(set + 1) * n]
    }

    /// `[cell]`: where a pawn of pawn set `set` on each cell steps (single steps).
    pub fn pawn_step_table(&self, set: usize) -> &[S] {
        let n = self.cells();
        &self.pawn_steps[set * n..(set + 1) * n]
    }

    /// Cells a pawn of pawn set `set` on `cell` captures on.
    pub fn pawn_captures(&self, set: usize, cell: usize) -> S {
        self.pawn_captures[set * self.cells() + cell]
    }

    /// Cells a pawn of pawn set `set` on `cell` steps to (single steps).
    pub fn pawn_steps(&self, set: usize, cell: usize) -> S {
        self.pawn_steps[set * self.cells() + cell]
    }

    /// Whether a side's pawn set is chosen per position (The Book of 3D-Chess).
    pub fn free_pawn_sets(&self) -> bool {
        self.spec.free_pawn_sets
    }

    /// Whether which pawns have moved is position state (a field of the
    /// position string).
    pub fn tracks_unmoved(&self) -> bool {
        self.spec.track_unmoved
    }

    /// Whether unmoved pieces can neither capture nor be captured (Five Up on
    /// the hypertorus); [`crate::Position::unmoved`] then holds every piece
    /// that has not moved.
    pub fn noncombatant(&self) -> bool {
        self.spec.noncombatant
    }

    /// Whether some line of the board is a cycle (an axis wraps), so that two
    /// cells may be joined by two arcs.
    pub fn cyclic(&self) -> bool {
        self.geo.cyclic()
    }

    /// What the fast paths may assume of this game's geometry and rules: the
    /// one switch for "the fast generator does not apply", chosen when the
    /// variant is built.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Whether the game plays on plain chess geometry ([`Geometry::Plain`]),
    /// so that shortcut generators outside the rules core (an engine's capture
    /// generator, a quick legality test of a hash move) may be used; elsewhere
    /// take moves from the legal generator.
    pub fn is_plain(&self) -> bool {
        self.geometry == Geometry::Plain
    }

    /// What a stalemate scores here.
    pub fn stalemate_rule(&self) -> crate::spec::StalemateRule {
        self.spec.stalemate
    }

    /// The half-moves without a capture or a pawn move after which a game
    /// of `sides` sides still in is drawn (the move-count rule: a move of
    /// every side, `spec.move_limit` times); `u32::MAX` where it has none.
    #[inline(always)]
    pub fn halfmove_limit(&self, sides: usize) -> u32 {
        match self.spec.move_limit {
            0 => u32::MAX,
            n => n as u32 * sides as u32,
        }
    }

    /// How many times a position must occur for a draw, if repetition draws.
    pub fn repetition_limit(&self) -> Option<usize> {
        (self.spec.repetition != 0).then_some(self.spec.repetition as usize)
    }

    /// Whether the board is a reconstruction (RULES.md: Savard's boards, whose
    /// pictures are lost), which an interface showing it must say.
    pub fn is_reconstruction(&self) -> bool {
        self.spec.reconstruction
    }

    /// The kind that rides with friendly pieces (Five Up's unicorn), if any.
    pub fn rider(&self) -> Option<Kind> {
        self.rider
    }

    /// Whether the variant has Octahedral's pawn-column rule.
    pub fn has_column_rule(&self) -> bool {
        self.columns.is_some()
    }

    /// Fixed castling moves (Octahedral, Betza) as (colour, right's letter or
    /// `None`, king's start, king's destination, rook's start): bit `i` of
    /// [`crate::Position::castling_rights`] is slot `i`. Empty where there are
    /// none or castling is Five Up's swap.
    pub fn castle_slots(&self) -> impl Iterator<Item = (Color, Option<char>, usize, usize, usize)> + '_ {
        self.slots.iter().map(|s| (s.color, s.letter, s.king[0] as usize, s.king[1] as usize, s.rook[0] as usize))
    }

    /// The start position.
    pub fn start_setup(&self) -> &Setup {
        &self.start
    }

    /// Whether the variant has castling.
    pub fn has_castling(&self) -> bool {
        self.castle_partner.is_some()
    }

    /// Whether `cell` is a double-step start cell for pawns of pawn set `set`.
    pub fn double_origin(&self, set: usize, cell: usize) -> bool {
        self.double_origins[set].has(cell)
    }

    /// Whether double steps exist.
    pub fn has_double_steps(&self) -> bool {
        self.double_origins.iter().any(|s| s.any())
    }

    /// Whether pawns can be taken en passant.
    pub fn has_en_passant(&self) -> bool {
        self.has_double_steps() && self.pawn_en_passant.iter().any(|&e| e)
    }

    /// Sliding targets from `cell` along `dirs` with blockers `occ`: one table
    /// lookup per line ([`Lines`]); one-way directions scan their ray (the
    /// first blocker is the lowest cell on positive rays, the highest on
    /// negative ones, since cell numbers are monotone along bounded rays).
    #[inline(always)]
    pub(crate) fn slide(&self, cell: usize, dirs: &SlideDirs, occ: S) -> S {
        let mut att = self.slide_one_way(cell, dirs, occ);
        for &l in &dirs.lines {
            att |= self.lines.attacks(cell, l as usize, occ);
        }
        att
    }

    /// [`Variant::slide`] for a position's own occupancy `occ`, whose lanes
    /// are `lanes` (one per side): one-word line lookups on wide boards.
    #[inline(always)]
    pub(crate) fn slide_in(&self, cell: usize, dirs: &SlideDirs, occ: S, lanes: &[S::Lanes]) -> S {
        let mut att = self.slide_one_way(cell, dirs, occ);
        for &l in &dirs.lines {
            att |= self.lines.attacks_in(cell, l as usize, occ, lanes);
        }
        att
    }

    /// The slides of a piece of kind `k` on `cell`, moving (`CAPTURE` false)
    /// or capturing, for a position's occupancy and lanes. `RANGED` compiles
    /// in riders with a range (the generator's copy with the hooks: a game
    /// with one is [`Geometry::Hooked`]), which stop at their range.
    #[inline(always)]
    pub(crate) fn piece_slide<const RANGED: bool, const CAPTURE: bool>(
        &self,
        k: usize,
        cell: usize,
        occ: S,
        lanes: &[S::Lanes],
    ) -> S {
        let dirs = if CAPTURE { &self.capture_slides[k] } else { &self.move_slides[k] };
        let att = self.slide_in(cell, dirs, occ, lanes);
        if RANGED {
            let reach = if CAPTURE { &self.capture_reach[k] } else { &self.move_reach[k] };
            if !reach.is_empty() {
                return att & reach[cell];
            }
        }
        att
    }

    /// Whether kind `k` captures with a range along some direction.
    #[inline(always)]
    pub(crate) fn captures_in_range(&self, k: usize) -> bool {
        !self.capture_reach[k].is_empty()
    }

    #[inline(always)]
    fn slide_one_way(&self, cell: usize, dirs: &SlideDirs, occ: S) -> S {
        let mut att = S::EMPTY;
        for &d in &dirs.one_way {
            let d = d as usize;
            let ray = self.geo.ray(cell, d);
            let blockers = ray & occ;
            if blockers.any() {
                let b = if d < 13 { blockers.lowest() } else { blockers.highest() };
                att |= ray ^ self.geo.ray(b, d);
            } else {
                att |= ray;
            }
        }
        att
    }

    /// Cells a piece on `cell` could move to, with `own` and `enemy` the occupied
    /// cells of its side and the other side: quiet moves onto empty cells plus
    /// captures, ignoring checks, castling and en passant. For pawns this includes
    /// double steps from a start cell. This is the "piece figure" query.
    ///
    /// ```
    /// use raum_rules::{Color, Piece, Variant, VariantId};
    /// let v = Variant::get(VariantId::FiveUp);
    /// let centre = v.board().cell_at(raum_geometry::Coord::new(2, 2, 2)).unwrap();
    /// let wizard = Piece::new(Color::White, v.kind_of('W').unwrap());
    /// assert_eq!(v.targets(wizard, centre, 0, 0).count_ones(), 40);
    /// ```
    pub fn targets(&self, piece: Piece, cell: usize, own: S, enemy: S) -> S {
        let n = self.cells();
        let k = piece.kind.index();
        let occ = own | enemy;
        let empty = !occ & self.geo.all();
        if Some(piece.kind) == self.pawn {
            let ci = self.spec.start_sets[piece.color.index()] as usize;
            let mut t = (self.pawn_steps[ci * n + cell] & empty) | (self.pawn_captures[ci * n + cell] & enemy);
            for d in &self.pawn_doubles[ci * n + cell] {
                if self.double_step_open(d, occ, empty) {
                    t.insert(d.to as usize);
                }
            }
            return t;
        }
        let within = |slid: S, reach: &[S]| if reach.is_empty() { slid } else { slid & reach[cell] };
        let quiet =
            self.move_leaps[k * n + cell] | within(self.slide(cell, &self.move_slides[k], occ), &self.move_reach[k]);
        let capture = self.capture_leaps[k * n + cell]
            | within(self.slide(cell, &self.capture_slides[k], occ), &self.capture_reach[k]);
        (quiet & empty) | (capture & enemy)
    }

    /// Whether a double step may be made with occupancy `occ`: its destination
    /// is in `land` (the empty cells, and where unicorns ride a lone friendly
    /// unicorn the pawn joins) and its path is open.
    #[inline(always)]
    pub(crate) fn double_step_open(&self, d: &DoubleStep, occ: S, land: S) -> bool {
        if !land.has(d.to as usize) {
            return false;
        }
        let a = occ.has(d.via[0] as usize);
        if d.vias == 1 { !a } else { !a || !occ.has(d.via[1] as usize) }
    }

    /// The unit vector of direction `d`.
    pub fn direction(d: Direction) -> Vector {
        DIRECTIONS[d]
    }
}
