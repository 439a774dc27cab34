//! A deliberately naive, obviously-correct reference move generator for John Savard's
//! multi-player 3D chess boards (seed 001): `wing-table-4p`, `triquetral-3p` and `triquetral-6p`.
//!
//! This module is independent of Raum's fast generator and uses only `std`; it was written from
//! `RULES.md` ("Shared formats", "Savard's boards", "Savard's multi-player forms"), not from Raum's
//! code, so that the two can be compared by perft. Speed is not a goal: clarity is.
//!
//! * Coordinates are the rules' own, 1-based: x = file (a = 1), y = rank, z = level (1 = bottom).
//!   Cells are named `<level><file><rank>`, e.g. `2g2`, `10f6`.
//! * The board is a mailbox over one 12x12x11 bounding box that holds every board here. Which
//!   cells exist is built from the rules' sentences: the centre block, plus White's wing pushed
//!   through the map that places each side of the game.
//! * Every side's army and its pawn vectors are White's pushed through that side's map (vectors
//!   through its linear part, taken as `map(d) - map(0)` of the affine map), never typed in by hand.
//! * Sliders step cell by cell and stop at the first occupied or non-existent cell; leapers land
//!   on any existing cell. Legality is make-and-test: the move is played on a copy and the mover's
//!   kings are asked whether any man of an opposed side attacks them. An attack is decided per man
//!   from the vector between the two cells, walking the cells in between for sliders.
//! * Opposed sides: with teams, the sides of the other team; every side for itself, every other
//!   side (a side that is out has no men, so it attacks nothing). Partners block each other but
//!   never capture each other's men nor give each other check. A king is never captured: a cell
//!   holding an enemy king is never a destination, and a king may stand attacked while it is not
//!   its owner's turn.

use std::sync::OnceLock;

/// Files in the bounding box (1..=NX): a..l.
const NX: i32 = 12;
/// Ranks in the bounding box (1..=NY).
const NY: i32 = 12;
/// Levels in the bounding box (1..=NZ).
const NZ: i32 = 11;
/// Cells in the bounding box.
const BOX: usize = (NX * NY * NZ) as usize;

/// (file, rank, level), either a cell or an offset between cells.
type Vec3 = (i32, i32, i32);

/// One rank of the position-string layout: its number and the files of its cells.
type LayoutRank = (i32, Vec<i32>);
/// One level of the position-string layout: its number and its ranks.
type LayoutLevel = (i32, Vec<LayoutRank>);

fn add(a: Vec3, b: Vec3) -> Vec3 {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2)
}

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    (a.0 - b.0, a.1 - b.1, a.2 - b.2)
}

/// How many coordinates an offset changes.
fn changed(d: Vec3) -> usize {
    [d.0, d.1, d.2].iter().filter(|v| **v != 0).count()
}

fn in_box((x, y, z): Vec3) -> bool {
    (1..=NX).contains(&x) && (1..=NY).contains(&y) && (1..=NZ).contains(&z)
}

/// Mailbox index of an in-box cell; callers check [`in_box`] (or existence) first.
fn index((x, y, z): Vec3) -> usize {
    (((z - 1) * NY + (y - 1)) * NX + (x - 1)) as usize
}

/// The 26 unit steps (every coordinate in -1..=1, not all zero), computed once.
fn unit_steps() -> &'static [Vec3] {
    static STEPS: OnceLock<Vec<Vec3>> = OnceLock::new();
    STEPS.get_or_init(|| {
        let mut v = Vec::new();
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy, dz) != (0, 0, 0) {
                        v.push((dx, dy, dz));
                    }
                }
            }
        }
        v
    })
}

/// Every signed permutation of (a, b, c): the offsets of an (a,b,c)-leaper. Built by filtering
/// all small offsets on their sorted absolute values, so no permutation can be forgotten.
fn leaps(a: i32, b: i32, c: i32) -> Vec<Vec3> {
    let mut want = [a, b, c];
    want.sort();
    let mut v = Vec::new();
    for dz in -3i32..=3 {
        for dy in -3i32..=3 {
            for dx in -3i32..=3 {
                let mut got = [dx.abs(), dy.abs(), dz.abs()];
                got.sort();
                if got == want {
                    v.push((dx, dy, dz));
                }
            }
        }
    }
    v
}

// ----- sides ------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    White,
    Black,
    Red,
    Blue,
    Green,
    Yellow,
}

const SIDE_LETTERS: [(char, Side); 6] = [
    ('w', Side::White),
    ('k', Side::Black),
    ('r', Side::Red),
    ('b', Side::Blue),
    ('g', Side::Green),
    ('y', Side::Yellow),
];

impl Side {
    fn letter(self) -> char {
        SIDE_LETTERS.iter().find(|(_, s)| *s == self).map(|(c, _)| *c).unwrap_or('?')
    }

    fn from_letter(c: char) -> Option<Side> {
        SIDE_LETTERS.iter().find(|(l, _)| *l == c).map(|(_, s)| *s)
    }
}

// ----- pieces -----------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Unicorn,
    Knight,
    Airman,
    Pawn,
}

const KINDS: [(char, Kind); 8] = [
    ('K', Kind::King),
    ('Q', Kind::Queen),
    ('R', Kind::Rook),
    ('B', Kind::Bishop),
    ('U', Kind::Unicorn),
    ('N', Kind::Knight),
    ('A', Kind::Airman),
    ('P', Kind::Pawn),
];

/// What a pawn may promote to (every army here has Airmen).
const PROMOTIONS: [Kind; 6] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Unicorn, Kind::Airman];

impl Kind {
    fn letter(self) -> char {
        KINDS.iter().find(|(_, k)| *k == self).map(|(c, _)| *c).unwrap_or('?')
    }

    fn from_letter(c: char) -> Option<Kind> {
        KINDS.iter().find(|(l, _)| *l == c).map(|(_, k)| *k)
    }

    /// Whether a slider of this kind moves along unit step `d`.
    fn slides_along(self, d: Vec3) -> bool {
        match self {
            Kind::Rook => changed(d) == 1,
            Kind::Bishop => changed(d) == 2,
            Kind::Unicorn => changed(d) == 3,
            Kind::Queen => changed(d) >= 1,
            _ => false,
        }
    }

    fn leaper_offsets(self) -> &'static [Vec3] {
        static KNIGHT: OnceLock<Vec<Vec3>> = OnceLock::new();
        static AIRMAN: OnceLock<Vec<Vec3>> = OnceLock::new();
        match self {
            Kind::Knight => KNIGHT.get_or_init(|| leaps(0, 1, 2)),
            Kind::Airman => AIRMAN.get_or_init(|| leaps(1, 2, 2)),
            _ => &[],
        }
    }
}

/// A man: whose it is and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Man {
    side: Side,
    kind: Kind,
}

impl Man {
    /// Two letters: side lower case, then piece upper case (`wK`, `kP`).
    fn text(self) -> String {
        format!("{}{}", self.side.letter(), self.kind.letter())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    from: Vec3,
    to: Vec3,
    promotion: Option<Kind>,
}

// ----- variants ---------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    WingTable4p,
    Triquetral3p,
    Triquetral6p,
}

const VARIANTS: [(&str, Variant); 3] = [
    ("wing-table-4p", Variant::WingTable4p),
    ("triquetral-3p", Variant::Triquetral3p),
    ("triquetral-6p", Variant::Triquetral6p),
];

/// Per-variant tables, built once from the rules' sentences.
struct Tables {
    /// Existence of every bounding-box cell, by [`index`].
    exists: Vec<bool>,
    /// Every existing cell in ascending (level, rank, file) order.
    cells: Vec<Vec3>,
    /// The position-string layout.
    layout: Vec<LayoutLevel>,
}

impl Variant {
    fn from_id(id: &str) -> Result<Variant, String> {
        VARIANTS.iter().find(|(name, _)| *name == id).map(|(_, v)| *v).ok_or_else(|| {
            let ids: Vec<&str> = VARIANTS.iter().map(|(name, _)| *name).collect();
            format!("unknown variant '{id}' (expected one of: {})", ids.join(", "))
        })
    }

    fn id(self) -> &'static str {
        VARIANTS.iter().find(|(_, v)| *v == self).map(|(name, _)| *name).unwrap_or("?")
    }

    fn slot(self) -> usize {
        VARIANTS.iter().position(|(_, v)| *v == self).unwrap_or(0)
    }

    /// The sides of the game in turn order.
    fn turn_order(self) -> &'static [Side] {
        use Side::*;
        match self {
            // Clockwise seen from above: south, west, north, east.
            Variant::WingTable4p => &[White, Red, Black, Blue],
            Variant::Triquetral3p => &[White, Blue, Green],
            Variant::Triquetral6p => &[White, Black, Blue, Red, Green, Yellow],
        }
    }

    fn plays(self, s: Side) -> bool {
        self.turn_order().contains(&s)
    }

    /// The team of a side, or `None` when every side plays for itself.
    fn team(self, s: Side) -> Option<u8> {
        use Side::*;
        match self {
            Variant::WingTable4p => Some(if matches!(s, White | Black) { 0 } else { 1 }),
            Variant::Triquetral3p => None,
            Variant::Triquetral6p => Some(if matches!(s, White | Blue | Green) { 0 } else { 1 }),
        }
    }

    fn has_teams(self) -> bool {
        self.team(Side::White).is_some()
    }

    /// Whether `a` and `b` are enemies (may capture each other's men and check each other).
    fn opposed(self, a: Side, b: Side) -> bool {
        a != b
            && match (self.team(a), self.team(b)) {
                (Some(ta), Some(tb)) => ta != tb,
                _ => true,
            }
    }

    /// The map that places side `s`: it carries White's wing and army to `s`'s.
    fn place(self, s: Side, c: Vec3) -> Vec3 {
        let (x, y, z) = c;
        match self {
            Variant::WingTable4p => match s {
                Side::Black => (13 - x, 13 - y, z),
                Side::Red => (y, 13 - x, z),
                Side::Blue => (13 - y, x, z),
                // White; Green and Yellow are not sides of this game and are never asked for.
                _ => c,
            },
            Variant::Triquetral3p | Variant::Triquetral6p => {
                // R: the three-fold turn about the cube's diagonal; P: the point reflection
                // through the centre cell (6, 6, 6).
                let r = |(x, y, z): Vec3| (z, x, y);
                let p = |(x, y, z): Vec3| (12 - x, 12 - y, 12 - z);
                match s {
                    Side::White => c,
                    Side::Green => r(c),
                    Side::Blue => r(r(c)),
                    Side::Black => p(c),
                    Side::Yellow => p(r(c)),
                    Side::Red => p(r(r(c))),
                }
            }
        }
    }

    /// The linear part of [`Variant::place`], for direction vectors (the maps are affine).
    fn linear(self, s: Side, d: Vec3) -> Vec3 {
        sub(self.place(s, d), self.place(s, (0, 0, 0)))
    }

    /// How far White's two-player array (files b..e, levels 1..3) is moved on this board:
    /// three files right, and on the triquetral boards also four levels up (levels 5..7).
    fn white_shift(self) -> Vec3 {
        match self {
            Variant::WingTable4p => (3, 0, 0),
            Variant::Triquetral3p | Variant::Triquetral6p => (3, 0, 4),
        }
    }

    /// The central block, as the rules give it.
    fn in_centre(self, (x, y, z): Vec3) -> bool {
        let (files, ranks, levels) = match self {
            Variant::WingTable4p => (4..=9, 4..=9, 1..=3),
            Variant::Triquetral3p | Variant::Triquetral6p => (4..=8, 4..=8, 4..=8),
        };
        files.contains(&x) && ranks.contains(&y) && levels.contains(&z)
    }

    /// White's 24-cell wing: in two-player coordinates, files b..e, rank 3 on levels 1..3, rank 2
    /// on levels 1..2, rank 1 on level 1 (rank y exists on levels 1..=y); then moved.
    fn in_white_wing(self, c: Vec3) -> bool {
        let (x, y, z) = sub(c, self.white_shift());
        (2..=5).contains(&x) && (1..=3).contains(&y) && (1..=y).contains(&z)
    }

    /// White's army as the rules list it (two-player coordinates, then moved).
    fn white_army(self) -> Vec<(Vec3, Kind)> {
        use Kind::*;
        let rows: [(i32, i32, [Kind; 4]); 3] = [
            // (rank, level, men on files b..e)
            (1, 1, [Rook, Knight, Knight, Rook]),
            (2, 1, [Bishop, Airman, Airman, Bishop]),
            (2, 2, [Unicorn, Queen, King, Unicorn]),
        ];
        let mut army = Vec::new();
        for (y, z, kinds) in rows {
            for (x, k) in (2..).zip(kinds) {
                army.push(((x, y, z), k));
            }
        }
        for z in 1..=3 {
            for x in 2..=5 {
                army.push(((x, 3, z), Pawn));
            }
        }
        army.into_iter().map(|(c, k)| (add(c, self.white_shift()), k)).collect()
    }

    fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 3] = [const { OnceLock::new() }; 3];
        TABLES[self.slot()].get_or_init(|| self.build_tables())
    }

    fn build_tables(self) -> Tables {
        let mut exists = vec![false; BOX];
        let mut all_box = Vec::new();
        for z in 1..=NZ {
            for y in 1..=NY {
                for x in 1..=NX {
                    all_box.push((x, y, z));
                }
            }
        }
        for &c in &all_box {
            if self.in_centre(c) {
                exists[index(c)] = true;
            }
            if self.in_white_wing(c) {
                for &s in self.turn_order() {
                    let placed = self.place(s, c);
                    if in_box(placed) {
                        exists[index(placed)] = true;
                    }
                }
            }
        }
        let cells: Vec<Vec3> = all_box.iter().copied().filter(|c| exists[index(*c)]).collect();
        let mut layout = Vec::new();
        for z in 1..=NZ {
            let mut ranks = Vec::new();
            for y in (1..=NY).rev() {
                let files: Vec<i32> = (1..=NX).filter(|x| exists[index((*x, y, z))]).collect();
                if !files.is_empty() {
                    ranks.push((y, files));
                }
            }
            if !ranks.is_empty() {
                layout.push((z, ranks));
            }
        }
        Tables { exists, cells, layout }
    }

    /// Whether a cell is part of the board. Safe for any coordinates.
    fn exists(self, c: Vec3) -> bool {
        in_box(c) && self.tables().exists[index(c)]
    }

    fn cells(self) -> &'static [Vec3] {
        &self.tables().cells
    }

    fn layout(self) -> &'static [LayoutLevel] {
        &self.tables().layout
    }

    fn cell_name(self, (x, y, z): Vec3) -> String {
        let file = char::from_u32('a' as u32 + (x - 1) as u32).unwrap_or('?');
        format!("{z}{file}{y}")
    }

    /// Parses `<level><file><rank>`; the cell must exist on this board.
    fn parse_cell(self, s: &str) -> Result<Vec3, String> {
        let bad = |why: &str| format!("bad cell name '{s}' for {}: {why}", self.id());
        let number = |t: &str| -> Option<i32> {
            if t.is_empty() || t.len() > 2 || t.starts_with('0') || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            t.parse().ok()
        };
        let level_len = s.bytes().take_while(|b| b.is_ascii_digit()).count();
        let (level, rest) = s.split_at(level_len);
        let z = number(level).ok_or_else(|| bad("expected a level number first"))?;
        let mut chars = rest.chars();
        let x = match chars.next() {
            Some(f @ 'a'..='z') => f as i32 - 'a' as i32 + 1,
            _ => return Err(bad("expected a file letter after the level")),
        };
        let y = number(chars.as_str()).ok_or_else(|| bad("expected a rank number after the file"))?;
        if self.exists((x, y, z)) { Ok((x, y, z)) } else { Err(bad("no such cell on this board")) }
    }
}

// ----- the position -----------------------------------------------------------------------------

/// A position of one of Savard's multi-player games, for the naive reference generator.
#[derive(Clone, PartialEq, Debug)]
pub struct MultiNaive {
    variant: Variant,
    board: [Option<Man>; BOX],
    side: Side,
    halfmove: u32,
    fullmove: u32,
}

impl MultiNaive {
    /// The start position of `variant` (`wing-table-4p`, `triquetral-3p`, `triquetral-6p`), built
    /// from the rules' army and maps rather than from a stored string. White moves first.
    pub fn start(variant: &str) -> Result<MultiNaive, String> {
        let v = Variant::from_id(variant)?;
        let mut board = [None; BOX];
        for (c, kind) in v.white_army() {
            for &side in v.turn_order() {
                let placed = v.place(side, c);
                if !v.exists(placed) {
                    return Err(format!("internal: {side:?}'s army leaves the {} board", v.id()));
                }
                board[index(placed)] = Some(Man { side, kind });
            }
        }
        Ok(MultiNaive { variant: v, board, side: Side::White, halfmove: 0, fullmove: 1 })
    }

    /// Parses `<board> <side> - - [<halfmove> <fullmove>]` (halfmove and fullmove default to 0
    /// and 1). Malformed or impossible input gives `Err`, never a panic. Impossible here means: a
    /// man of a side that does not play this game, a side with more than one king, a pawn with no
    /// straight-forward step (it would have promoted), or a side to move that has no men (it is
    /// out). A side without a king is accepted (it has no royal to keep safe), and so is a king
    /// that stands attacked while it is not its owner's turn (several sides move in between).
    pub fn parse(variant: &str, fen: &str) -> Result<MultiNaive, String> {
        let v = Variant::from_id(variant)?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(format!(
                "{variant} position string needs '<board> <side> - - [<halfmove> <fullmove>]', got {} fields",
                fields.len()
            ));
        }
        let board = parse_board(v, fields[0])?;
        let letters: String = v.turn_order().iter().map(|s| s.letter()).collect();
        let mut side_chars = fields[1].chars();
        let side = match (side_chars.next(), side_chars.next()) {
            (Some(c), None) => Side::from_letter(c).filter(|s| v.plays(*s)),
            _ => None,
        }
        .ok_or_else(|| format!("bad side to move '{}' for {variant} (expected one of '{letters}')", fields[1]))?;
        if fields[2] != "-" || fields[3] != "-" {
            return Err(format!(
                "{variant} has no castling and no en passant: fields 3 and 4 must be '-', got '{}' '{}'",
                fields[2], fields[3]
            ));
        }
        let halfmove = match fields.get(4) {
            Some(s) => s.parse::<u32>().map_err(|_| format!("bad halfmove clock '{s}' (expected a whole number)"))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(format!("bad fullmove number '{s}' (expected a whole number >= 1)")),
            },
            None => 1,
        };
        let pos = MultiNaive { variant: v, board, side, halfmove, fullmove };
        for &s in v.turn_order() {
            let kings = pos.men().filter(|(_, m)| *m == Man { side: s, kind: Kind::King }).count();
            if kings > 1 {
                return Err(format!("{s:?} has {kings} kings; at most one is allowed"));
            }
        }
        for (c, m) in pos.men() {
            if m.kind == Kind::Pawn && !v.exists(add(c, pos.pawn_forward(m.side))) {
                return Err(format!(
                    "{:?} pawn on {} has no straight-forward step (it would have promoted)",
                    m.side,
                    v.cell_name(c)
                ));
            }
        }
        if !pos.has_men(side) {
            return Err(format!("the side to move ({side:?}) has no men on the board (it is out)"));
        }
        Ok(pos)
    }

    /// The position string, always with halfmove and fullmove fields.
    pub fn fen(&self) -> String {
        let levels: Vec<String> = self
            .variant
            .layout()
            .iter()
            .map(|(z, ranks)| {
                let ranks: Vec<String> = ranks
                    .iter()
                    .map(|(y, files)| {
                        let mut s = String::new();
                        let mut empty = 0;
                        for &x in files {
                            match self.at((x, *y, *z)) {
                                None => empty += 1,
                                Some(m) => {
                                    if empty > 0 {
                                        s.push_str(&empty.to_string());
                                        empty = 0;
                                    }
                                    s.push_str(&m.text());
                                }
                            }
                        }
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                        }
                        s
                    })
                    .collect();
                ranks.join("|")
            })
            .collect();
        format!("{} {} - - {} {}", levels.join("/"), self.side.letter(), self.halfmove, self.fullmove)
    }

    /// Number of cells of the board.
    pub fn cell_count(&self) -> usize {
        self.variant.cells().len()
    }

    /// Every cell's name, in ascending (level, rank, file) order.
    pub fn cell_names(&self) -> Vec<String> {
        self.variant.cells().iter().map(|c| self.variant.cell_name(*c)).collect()
    }

    /// The man on `cell` as two letters (`wQ`), or `None` for an empty cell or a bad name.
    pub fn piece_at(&self, cell: &str) -> Option<String> {
        let c = self.variant.parse_cell(cell).ok()?;
        self.at(c).map(|m| m.text())
    }

    /// The side to move's letter.
    pub fn side_to_move(&self) -> char {
        self.side.letter()
    }

    /// The letters of the sides still in (with a man on the board), in turn order.
    pub fn sides_in(&self) -> Vec<char> {
        self.variant.turn_order().iter().filter(|s| self.has_men(**s)).map(|s| s.letter()).collect()
    }

    /// Whether the side to move's king is attacked by a side opposed to it.
    pub fn in_check(&self) -> bool {
        self.royals_attacked(self.side)
    }

    /// All legal moves as coordinate strings (`2e3-2e4`, `1d8-1d9=Q`), sorted ascending, each
    /// promotion choice a separate move.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal().iter().map(|m| self.move_text(m)).collect();
        v.sort();
        v
    }

    /// Plays `mv` (one of [`MultiNaive::legal_moves`]; `x` accepted in place of `-`, promotion
    /// letter in either case) and returns the new position: the turn passes to the next side in
    /// turn order that still has men, and the clocks are updated.
    pub fn play(&self, mv: &str) -> Result<MultiNaive, String> {
        let m = self.parse_move(mv)?;
        if self.legal().contains(&m) {
            Ok(self.apply(&m))
        } else {
            Err(format!("move '{mv}' is not legal in position '{}'", self.fen()))
        }
    }

    /// Every side for itself only: takes the side to move's men off the board and passes the turn
    /// to the next side still in (what the game does to a side with no legal move). The halfmove
    /// clock is kept (taking a side out does not reset the count); the fullmove number goes up
    /// when the turn wraps round the turn order, as after a move. In a team game (where a side
    /// with no legal move ends the game) the position is returned unchanged.
    pub fn eliminate(&self) -> MultiNaive {
        let mut next = self.clone();
        if self.variant.has_teams() {
            return next;
        }
        for &c in self.variant.cells() {
            if self.at(c).is_some_and(|m| m.side == self.side) {
                next.board[index(c)] = None;
            }
        }
        next.pass_turn();
        next
    }

    // ----- board access -------------------------------------------------------------------------

    fn at(&self, c: Vec3) -> Option<Man> {
        if self.variant.exists(c) { self.board[index(c)] } else { None }
    }

    fn exists(&self, c: Vec3) -> bool {
        self.variant.exists(c)
    }

    /// Every man on the board with its cell.
    fn men(&self) -> impl Iterator<Item = (Vec3, Man)> + '_ {
        self.variant.cells().iter().filter_map(|&c| self.at(c).map(|m| (c, m)))
    }

    fn has_men(&self, s: Side) -> bool {
        self.men().any(|(_, m)| m.side == s)
    }

    /// Passes the turn to the next side in turn order (after the side to move, wrapping round)
    /// that has men; the fullmove number goes up when the turn wraps (a round ended). If no side
    /// has men the turn stays where it is.
    fn pass_turn(&mut self) {
        let order = self.variant.turn_order();
        let Some(i) = order.iter().position(|s| *s == self.side) else { return };
        for k in 1..=order.len() {
            let j = (i + k) % order.len();
            if self.has_men(order[j]) {
                if j <= i {
                    self.fullmove = self.fullmove.saturating_add(1);
                }
                self.side = order[j];
                return;
            }
        }
    }

    fn pawn_forward(&self, s: Side) -> Vec3 {
        self.variant.linear(s, (0, 1, 0))
    }

    /// The four forward 3D diagonals: White's (±1, +1, ±1) through the side's map.
    fn pawn_captures(&self, s: Side) -> Vec<Vec3> {
        [(-1, 1, -1), (1, 1, -1), (-1, 1, 1), (1, 1, 1)].into_iter().map(|d| self.variant.linear(s, d)).collect()
    }

    // ----- attacks ------------------------------------------------------------------------------

    /// Whether the man standing on `from` attacks cell `to` (could capture a man there if that
    /// man were its enemy and not a king), whatever stands on `to`.
    fn attacks_from(&self, from: Vec3, to: Vec3) -> bool {
        let Some(m) = self.at(from) else { return false };
        let d = sub(to, from);
        if d == (0, 0, 0) {
            return false;
        }
        match m.kind {
            Kind::Pawn => self.pawn_captures(m.side).contains(&d),
            // Its quiet moves shrink in check; its captures, and so its attack, never do.
            Kind::King => unit_steps().contains(&d),
            Kind::Knight | Kind::Airman => m.kind.leaper_offsets().contains(&d),
            Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Unicorn => {
                // Only a whole multiple of a unit step can be on one of its lines.
                let n = d.0.abs().max(d.1.abs()).max(d.2.abs());
                let step = (d.0 / n, d.1 / n, d.2 / n);
                if (step.0 * n, step.1 * n, step.2 * n) != d || !m.kind.slides_along(step) {
                    return false;
                }
                // Every cell strictly between must exist (no crossing gaps) and be empty.
                let mut c = add(from, step);
                while c != to {
                    if !self.exists(c) || self.at(c).is_some() {
                        return false;
                    }
                    c = add(c, step);
                }
                true
            }
        }
    }

    /// Whether any man of a side opposed to `victim` attacks cell `target`.
    fn attacked_against(&self, target: Vec3, victim: Side) -> bool {
        self.men().any(|(c, m)| self.variant.opposed(m.side, victim) && self.attacks_from(c, target))
    }

    /// Whether any king of `s` is attacked by a side opposed to it.
    fn royals_attacked(&self, s: Side) -> bool {
        self.men().any(|(c, m)| m == Man { side: s, kind: Kind::King } && self.attacked_against(c, s))
    }

    // ----- move generation ----------------------------------------------------------------------

    /// Whether the side to move may end a move on `to`: an existing cell, empty or holding a man
    /// of an opposed side that is not a king.
    fn can_land(&self, to: Vec3) -> bool {
        self.exists(to)
            && match self.at(to) {
                None => true,
                Some(q) => self.variant.opposed(self.side, q.side) && q.kind != Kind::King,
            }
    }

    /// Moves that obey how the men move, before the make-and-test for check.
    fn pseudo_legal(&self) -> Vec<Move> {
        let me = self.side;
        let in_check = self.in_check();
        let mut out = Vec::new();
        for (from, man) in self.men() {
            if man.side != me {
                continue;
            }
            match man.kind {
                Kind::Pawn => {
                    let fwd = self.pawn_forward(me);
                    let mut targets = Vec::new();
                    let step = add(from, fwd);
                    if self.exists(step) && self.at(step).is_none() {
                        targets.push(step);
                    }
                    for d in self.pawn_captures(me) {
                        let to = add(from, d);
                        if self.at(to).is_some() && self.can_land(to) {
                            targets.push(to);
                        }
                    }
                    for to in targets {
                        // Promotion is decided by the arrival cell alone, also after a capture.
                        if self.exists(add(to, fwd)) {
                            out.push(Move { from, to, promotion: None });
                        } else {
                            for k in PROMOTIONS {
                                out.push(Move { from, to, promotion: Some(k) });
                            }
                        }
                    }
                }
                Kind::King => {
                    for &d in unit_steps() {
                        let to = add(from, d);
                        if !self.can_land(to) {
                            continue;
                        }
                        let capture = self.at(to).is_some();
                        if capture || !in_check || changed(d) == 1 {
                            out.push(Move { from, to, promotion: None });
                        }
                    }
                }
                Kind::Knight | Kind::Airman => {
                    for &d in man.kind.leaper_offsets() {
                        let to = add(from, d);
                        if self.can_land(to) {
                            out.push(Move { from, to, promotion: None });
                        }
                    }
                }
                Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Unicorn => {
                    for d in unit_steps().iter().copied().filter(|d| man.kind.slides_along(*d)) {
                        let mut to = add(from, d);
                        while self.exists(to) {
                            let occupied = self.at(to).is_some();
                            if self.can_land(to) {
                                out.push(Move { from, to, promotion: None });
                            }
                            if occupied {
                                break;
                            }
                            to = add(to, d);
                        }
                    }
                }
            }
        }
        out
    }

    fn legal(&self) -> Vec<Move> {
        self.pseudo_legal().into_iter().filter(|m| !self.apply(m).royals_attacked(self.side)).collect()
    }

    fn apply(&self, m: &Move) -> MultiNaive {
        let mut next = self.clone();
        let Some(man) = self.at(m.from) else { return next };
        let capture = self.at(m.to).is_some();
        next.board[index(m.from)] = None;
        next.board[index(m.to)] = Some(Man { side: man.side, kind: m.promotion.unwrap_or(man.kind) });
        next.halfmove = if capture || man.kind == Kind::Pawn { 0 } else { self.halfmove.saturating_add(1) };
        next.pass_turn();
        next
    }

    fn move_text(&self, m: &Move) -> String {
        let v = self.variant;
        let mut s = format!("{}-{}", v.cell_name(m.from), v.cell_name(m.to));
        if let Some(k) = m.promotion {
            s.push('=');
            s.push(k.letter());
        }
        s
    }

    fn parse_move(&self, mv: &str) -> Result<Move, String> {
        let v = self.variant;
        let mv = mv.trim();
        let (body, promotion) = match mv.split_once('=') {
            None => (mv, None),
            Some((body, letter)) => {
                let mut chars = letter.chars();
                let kind = match (chars.next(), chars.next()) {
                    (Some(c), None) => Kind::from_letter(c.to_ascii_uppercase()),
                    _ => None,
                };
                match kind {
                    Some(k) if PROMOTIONS.contains(&k) => (body, Some(k)),
                    _ => return Err(format!("bad promotion '={letter}' in move '{mv}' for {}", v.id())),
                }
            }
        };
        // Cell names hold only digits and the files a..l, so '-' or 'x' cannot be part of one.
        let Some((from, to)) = body.split_once(['-', 'x']) else {
            return Err(format!("bad move '{mv}' (expected <from>-<to>[=X], e.g. 2e3-2e4)"));
        };
        Ok(Move { from: v.parse_cell(from)?, to: v.parse_cell(to)?, promotion })
    }
}

/// Parses the board field against the variant's layout.
fn parse_board(v: Variant, field: &str) -> Result<[Option<Man>; BOX], String> {
    let mut board = [None; BOX];
    let layout = v.layout();
    let level_texts: Vec<&str> = field.split('/').collect();
    if level_texts.len() != layout.len() {
        return Err(format!(
            "{} board needs {} levels separated by '/', got {}",
            v.id(),
            layout.len(),
            level_texts.len()
        ));
    }
    for ((z, ranks), level_text) in layout.iter().zip(&level_texts) {
        let rank_texts: Vec<&str> = level_text.split('|').collect();
        if rank_texts.len() != ranks.len() {
            return Err(format!("level {z} needs {} ranks separated by '|', got {}", ranks.len(), rank_texts.len()));
        }
        for ((y, files), rank_text) in ranks.iter().zip(&rank_texts) {
            let where_ = format!("level {z} rank {y}");
            let mut i = 0usize;
            let mut chars = rank_text.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    let mut digits = ch.to_string();
                    while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
                        digits.push(d);
                    }
                    let n: usize = match digits.parse() {
                        Ok(n) if n > 0 && !digits.starts_with('0') => n,
                        _ => return Err(format!("bad empty-cell count '{digits}' in {where_}")),
                    };
                    if n > files.len() - i {
                        return Err(format!("{where_} has more than {} cells", files.len()));
                    }
                    i += n;
                } else {
                    let piece = chars.next();
                    let side = Side::from_letter(ch).filter(|s| v.plays(*s));
                    let kind = piece.filter(|c| c.is_ascii_uppercase()).and_then(Kind::from_letter);
                    let (Some(side), Some(kind)) = (side, kind) else {
                        let text: String = [Some(ch), piece].into_iter().flatten().collect();
                        return Err(format!(
                            "bad man '{text}' in {where_} for {} (expected a side letter of '{}' then one of \
                             KQRBUNAP)",
                            v.id(),
                            v.turn_order().iter().map(|s| s.letter()).collect::<String>()
                        ));
                    };
                    if i >= files.len() {
                        return Err(format!("{where_} has more than {} cells", files.len()));
                    }
                    board[index((files[i], *y, *z))] = Some(Man { side, kind });
                    i += 1;
                }
            }
            if i != files.len() {
                return Err(format!("{where_} has {i} cells, expected {}", files.len()));
            }
        }
    }
    Ok(board)
}

/// Number of legal move sequences of length `depth` from `pos` (leaf count; no draw rules). A
/// position whose side to move has no legal move is a leaf: no side is taken out here.
pub fn perft(pos: &MultiNaive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&pos.apply(m), depth - 1)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [&str; 3] = ["wing-table-4p", "triquetral-3p", "triquetral-6p"];

    fn variant(id: &str) -> Variant {
        Variant::from_id(id).expect("variant")
    }

    fn start(id: &str) -> MultiNaive {
        MultiNaive::start(id).expect("start")
    }

    fn pos(id: &str, fen: &str) -> MultiNaive {
        MultiNaive::parse(id, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The position string with the given men (`(cell, "wQ")`) and side to move, written out
    /// directly from the layout (independently of [`MultiNaive::fen`]).
    fn raw(id: &str, men: &[(&str, &str)], side: char) -> String {
        let v = variant(id);
        let cells: Vec<Vec3> = men.iter().map(|(name, _)| v.parse_cell(name).expect("cell")).collect();
        let levels: Vec<String> = v
            .layout()
            .iter()
            .map(|(z, ranks)| {
                let ranks: Vec<String> = ranks
                    .iter()
                    .map(|(y, files)| {
                        let mut out = String::new();
                        let mut empty = 0;
                        for &x in files {
                            match cells.iter().position(|c| *c == (x, *y, *z)) {
                                None => empty += 1,
                                Some(i) => {
                                    if empty > 0 {
                                        out += &empty.to_string();
                                    }
                                    empty = 0;
                                    out += men[i].1;
                                }
                            }
                        }
                        if empty > 0 {
                            out += &empty.to_string();
                        }
                        out
                    })
                    .collect();
                ranks.join("|")
            })
            .collect();
        format!("{} {side} - - 0 1", levels.join("/"))
    }

    fn setup(id: &str, men: &[(&str, &str)], side: char) -> MultiNaive {
        pos(id, &raw(id, men, side))
    }

    /// Legal moves of the man on `from`.
    fn moves_from(p: &MultiNaive, from: &str) -> Vec<String> {
        p.legal_moves().into_iter().filter(|m| m.split('-').next() == Some(from)).collect()
    }

    /// The destination cell of a coordinate move.
    fn dest(m: &str) -> &str {
        let to = m.split_once('-').map(|(_, t)| t).unwrap_or("");
        to.split_once('=').map(|(t, _)| t).unwrap_or(to)
    }

    fn dests(p: &MultiNaive, from: &str) -> Vec<String> {
        moves_from(p, from).iter().map(|m| dest(m).to_string()).collect()
    }

    fn has(p: &MultiNaive, mv: &str) -> bool {
        p.legal_moves().iter().any(|m| m == mv)
    }

    /// A small deterministic generator for random playouts.
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n
        }
    }

    #[test]
    fn cell_counts() {
        let counts: Vec<usize> = ALL.iter().map(|id| start(id).cell_count()).collect();
        assert_eq!(counts, [204, 197, 269]);
        for id in ALL {
            let p = start(id);
            let names = p.cell_names();
            assert_eq!(names.len(), p.cell_count());
            // Names are unique and parse back to themselves.
            let mut sorted = names.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{id}");
            for n in &names {
                let c = variant(id).parse_cell(n).expect("cell");
                assert_eq!(&variant(id).cell_name(c), n);
            }
        }
    }

    #[test]
    fn boards_are_the_centre_plus_disjoint_wings() {
        for id in ALL {
            let v = variant(id);
            let centre = v.cells().iter().filter(|c| v.in_centre(**c)).count();
            let mut wing_cells = Vec::new();
            for &c in v.cells() {
                if v.in_white_wing(c) {
                    for &s in v.turn_order() {
                        wing_cells.push(v.place(s, c));
                    }
                }
            }
            let n_wings = wing_cells.len();
            assert_eq!(n_wings, 24 * v.turn_order().len(), "{id}");
            wing_cells.sort();
            wing_cells.dedup();
            assert_eq!(wing_cells.len(), n_wings, "{id}: wings overlap");
            assert!(wing_cells.iter().all(|c| !v.in_centre(*c)), "{id}: a wing overlaps the centre");
            assert_eq!(centre + n_wings, v.cells().len(), "{id}");
            // White's wing is exactly the cells of White's army.
            let mut army: Vec<Vec3> = v.white_army().into_iter().map(|(c, _)| c).collect();
            army.sort();
            let mut wing: Vec<Vec3> = v.cells().iter().copied().filter(|c| v.in_white_wing(*c)).collect();
            wing.sort();
            assert_eq!(army, wing, "{id}");
            // The maps are affine and their linear parts are what pawns use.
            for &s in v.turn_order() {
                for &c in v.cells() {
                    for &d in unit_steps() {
                        assert_eq!(sub(v.place(s, add(c, d)), v.place(s, c)), v.linear(s, d), "{id}");
                    }
                }
            }
        }
        // Bounding boxes: triquetral-3p fits files a..h, ranks 1..8, levels 1..8; the others as stated.
        let fits = |id: &str, (nx, ny, nz): Vec3| {
            variant(id).cells().iter().all(|&(x, y, z)| x <= nx && y <= ny && z <= nz)
                && [0, 1, 2].iter().all(|&axis| {
                    let max = variant(id).cells().iter().map(|c| [c.0, c.1, c.2][axis]).max().unwrap_or(0);
                    max == [nx, ny, nz][axis]
                })
        };
        assert!(fits("triquetral-3p", (8, 8, 8)));
        assert!(fits("triquetral-6p", (11, 11, 11)));
        assert!(fits("wing-table-4p", (12, 12, 3)));
        // The level count of the position strings.
        assert_eq!(variant("wing-table-4p").layout().len(), 3);
        assert_eq!(variant("triquetral-3p").layout().len(), 8);
        assert_eq!(variant("triquetral-6p").layout().len(), 11);
    }

    #[test]
    fn start_armies() {
        for id in ALL {
            let v = variant(id);
            let p = start(id);
            for &s in v.turn_order() {
                let men: Vec<Man> = p.men().map(|(_, m)| m).filter(|m| m.side == s).collect();
                assert_eq!(men.len(), 24, "{id} {s:?}");
                let count = |k: Kind| men.iter().filter(|m| m.kind == k).count();
                assert_eq!(
                    [count(Kind::Pawn), count(Kind::King), count(Kind::Queen), count(Kind::Airman)],
                    [12, 1, 1, 2],
                    "{id}"
                );
                assert_eq!([count(Kind::Rook), count(Kind::Knight), count(Kind::Bishop), count(Kind::Unicorn)], [2; 4]);
            }
            assert_eq!(p.men().count(), 24 * v.turn_order().len());
            assert!(!p.in_check(), "{id}");
            let order: String = v.turn_order().iter().map(|s| s.letter()).collect();
            assert_eq!(p.sides_in().into_iter().collect::<String>(), order);
            assert_eq!(p.side_to_move(), 'w');
        }
    }

    #[test]
    fn kings_and_queens_where_the_rules_put_them() {
        let at = |id: &str, cell: &str| start(id).piece_at(cell);
        assert_eq!(at("wing-table-4p", "2g2").as_deref(), Some("wK"));
        assert_eq!(at("wing-table-4p", "2f2").as_deref(), Some("wQ"));
        // Black: (13-x, 13-y, z); Red: (y, 13-x, z); Blue: (13-y, x, z).
        assert_eq!(at("wing-table-4p", "2f11").as_deref(), Some("kK"));
        assert_eq!(at("wing-table-4p", "2b6").as_deref(), Some("rK"));
        assert_eq!(at("wing-table-4p", "2k7").as_deref(), Some("bK"));
        assert_eq!(at("wing-table-4p", "1a5").as_deref(), Some("rR"));
        assert_eq!(at("wing-table-4p", "3c8").as_deref(), Some("rP"));
        assert_eq!(at("triquetral-6p", "6f2").as_deref(), Some("wQ"));
        assert_eq!(at("triquetral-6p", "6g2").as_deref(), Some("wK"));
        assert_eq!(at("triquetral-6p", "2f6").as_deref(), Some("gQ"));
        assert_eq!(at("triquetral-6p", "10f6").as_deref(), Some("yQ"));
        assert_eq!(at("triquetral-6p", "6f10").as_deref(), Some("kQ"));
        assert_eq!(at("triquetral-3p", "2f6").as_deref(), Some("gQ"));
        assert_eq!(at("triquetral-3p", "6f2").as_deref(), Some("wQ"));
        // Blue = R(R(White)) = (y, z, x): White's queen (6, 2, 6) goes to (2, 6, 6).
        assert_eq!(at("triquetral-3p", "6b6").as_deref(), Some("bQ"));
        assert_eq!(at("triquetral-6p", "6j6").as_deref(), Some("rQ"));
        assert_eq!(at("triquetral-3p", "10f6"), None, "no such cell on the three-player board");
        assert_eq!(at("triquetral-3p", "nonsense"), None);
        assert_eq!(at("triquetral-3p", "6f6"), None, "empty");
        // Pawn directions: White +y; Red (west) +x; Blue (east) -x; Green up; Yellow down.
        let p = start("wing-table-4p");
        assert_eq!(p.pawn_forward(Side::Red), (1, 0, 0));
        assert_eq!(p.pawn_forward(Side::Blue), (-1, 0, 0));
        assert_eq!(p.pawn_forward(Side::Black), (0, -1, 0));
        let mut caps = p.pawn_captures(Side::Red);
        caps.sort();
        assert_eq!(caps, [(1, -1, -1), (1, -1, 1), (1, 1, -1), (1, 1, 1)]);
        let t = start("triquetral-6p");
        let fwd: Vec<Vec3> = t.variant.turn_order().iter().map(|s| t.pawn_forward(*s)).collect();
        // White, Black, Blue, Red, Green, Yellow.
        assert_eq!(fwd, [(0, 1, 0), (0, -1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)]);
    }

    #[test]
    fn start_move_counts() {
        for (id, want) in ALL.iter().zip([20, 22, 22]) {
            let p = start(id);
            let moves = p.legal_moves();
            assert_eq!(moves.len(), want, "{id}: {moves:?}");
            // Every side's start is White's image, so each has as many moves.
            for s in p.sides_in() {
                let q = pos(id, &p.fen().replace(" w - - ", &format!(" {s} - - ")));
                assert_eq!(q.legal_moves().len(), want, "{id} {s}");
            }
        }
    }

    #[test]
    fn fen_round_trip_and_random_games() {
        let mut rng = Lcg(0x5a7a_4d17);
        for id in ALL {
            let p = start(id);
            let fen = p.fen();
            assert_eq!(pos(id, &fen), p, "{id}");
            assert_eq!(pos(id, &fen).fen(), fen, "{id}");
            // Halfmove and fullmove are optional on input.
            assert_eq!(pos(id, fen.trim_end_matches(" 0 1")), p, "{id}");
            for _ in 0..4 {
                let mut q = p.clone();
                for _ in 0..60 {
                    assert_eq!(pos(id, &q.fen()), q, "{id}");
                    // The capture targets are exactly the capturable men the side to move attacks.
                    let mut caps: Vec<Vec3> =
                        q.pseudo_legal().into_iter().filter(|m| q.at(m.to).is_some()).map(|m| m.to).collect();
                    caps.sort();
                    caps.dedup();
                    let mut attacked: Vec<Vec3> = q
                        .men()
                        .filter(|(c, m)| {
                            q.variant.opposed(q.side, m.side)
                                && m.kind != Kind::King
                                && q.men().any(|(a, am)| am.side == q.side && q.attacks_from(a, *c))
                        })
                        .map(|(c, _)| c)
                        .collect();
                    attacked.sort();
                    assert_eq!(caps, attacked, "{}", q.fen());
                    let moves = q.legal_moves();
                    if moves.is_empty() {
                        if q.variant.has_teams() {
                            break;
                        }
                        q = q.eliminate();
                        continue;
                    }
                    let mover = q.side;
                    q = q.play(&moves[rng.below(moves.len())]).expect("play");
                    // The mover's king is never left attacked by an opposed side.
                    assert!(!q.royals_attacked(mover), "{}", q.fen());
                }
                assert_eq!(pos(id, &q.fen()), q, "{id}");
            }
        }
    }

    #[test]
    fn parse_errors() {
        let p = start("wing-table-4p");
        let fen = p.fen();
        let board = fen.split(' ').next().unwrap_or("").to_string();
        let levels: Vec<&str> = board.split('/').collect();
        let bad_inputs = [
            // Wrong level count.
            format!("{}/{} w - -", levels[0], levels[1]),
            format!("{board}/{} w - -", levels[2]),
            // Bad man letters: upper-case side, unknown piece, a side not in this game, half a man.
            fen.replacen("wR", "WR", 1),
            fen.replacen("wR", "wX", 1),
            fen.replacen("wR", "gR", 1),
            fen.replacen("wR", "w", 1),
            fen.replacen("wR", "R", 1),
            // Bad side letters.
            fen.replace(" w - - ", " x - - "),
            fen.replace(" w - - ", " g - - "),
            fen.replace(" w - - ", " W - - "),
            fen.replace(" w - - ", " wr - - "),
            // Rank contents and counts.
            fen.replacen("|6|", "|7|", 1),
            fen.replacen("|6|", "|06|", 1),
            fen.replacen("|6|", "|6|6|", 1),
            // Fields.
            fen.replace(" w - - ", " w KQkq - "),
            fen.replace(" w - - ", " w - 1e3 "),
            fen.replace(" 0 1", " 0 0"),
            fen.replace(" 0 1", " -1 1"),
            fen.replace(" 0 1", " 0"),
            String::new(),
        ];
        for bad in &bad_inputs {
            let e = MultiNaive::parse("wing-table-4p", bad);
            assert!(e.is_err(), "accepted: {bad}");
        }
        assert!(MultiNaive::parse("wing-table-4p", &fen.replacen("wR", "wX", 1)).is_err_and(|e| e.contains("bad man")));
        assert!(
            MultiNaive::parse("wing-table-4p", &fen.replace(" w - - ", " y - - ")).is_err_and(|e| e.contains("side"))
        );
        assert!(MultiNaive::parse("wing-table", &fen).is_err());
        assert!(MultiNaive::start("triquetral").is_err());
        // The 3p board has no Black, Red or Yellow.
        let t = start("triquetral-3p").fen();
        assert!(MultiNaive::parse("triquetral-3p", &t.replacen("wR", "kR", 1)).is_err());
        assert!(MultiNaive::parse("triquetral-3p", &t.replace(" w - - ", " k - - ")).is_err());
        assert!(MultiNaive::parse("triquetral-6p", &t).is_err(), "3p string on the 6p board");
        // Two kings; a pawn that would have promoted; a side to move that is out.
        let two = raw("wing-table-4p", &[("2g2", "wK"), ("2e5", "wK"), ("2f11", "kK")], 'w');
        assert!(MultiNaive::parse("wing-table-4p", &two).is_err());
        let spent = raw("wing-table-4p", &[("2g2", "wK"), ("1d9", "wP")], 'w');
        assert!(MultiNaive::parse("wing-table-4p", &spent).is_err());
        let red_spent = raw("wing-table-4p", &[("2g2", "wK"), ("2i4", "rP")], 'w');
        assert!(MultiNaive::parse("wing-table-4p", &red_spent).is_err());
        let out = raw("wing-table-4p", &[("2g2", "wK")], 'r');
        assert!(MultiNaive::parse("wing-table-4p", &out).is_err_and(|e| e.contains("out")));
        // Garbage never panics.
        for s in ["", "/", "|||", "w", "1/1/1 w - -", "99999999999999999999 w - -", "é/é/é w - -", "-1 w - -"] {
            for id in ALL {
                assert!(MultiNaive::parse(id, s).is_err(), "{id} {s}");
            }
        }
        // Bad moves.
        for mv in ["2e3-2e5", "2e3", "2e3-", "", "2e3-2e4=K", "2e3-2e4=Qx", "2z3-2z4", "4e3-4e4", "2e03-2e4"] {
            assert!(p.play(mv).is_err(), "{mv}");
        }
        assert!(p.play("2e3-2e4").is_ok());
        assert!(p.play("2e3x2e4").is_ok());
    }

    #[test]
    fn slides_stop_at_the_gap() {
        // 1e1 -> 1d2 -> 1c3 -> 1b4 -> 1a5: only 1a5 (Red's corner) exists; the line leaves the board
        // and comes back, and is not followed across the gap.
        let v = variant("wing-table-4p");
        for name in ["1d2", "1c3", "1b4"] {
            assert!(v.parse_cell(name).is_err(), "{name} should not exist");
        }
        assert!(v.parse_cell("1a5").is_ok());
        let men = [("1e1", "wQ"), ("1a5", "rR"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        let p = setup("wing-table-4p", &men, 'w');
        let q = dests(&p, "1e1");
        assert!(!q.iter().any(|d| d == "1a5"), "{q:?}");
        assert!(!p.attacks_from((5, 1, 1), (1, 5, 1)));
        // The queen's other lines: along rank 1 to 1h1 and no further; up file e through the
        // centre and on through Black's wing to 1e12 (level 1 has Black's ranks 10..12).
        assert!(q.contains(&"1h1".to_string()) && !q.contains(&"1i1".to_string()));
        assert!(q.contains(&"1e12".to_string()), "{q:?}");
        // The same men as a literal position string, Red to move. Level 1, ranks 12..1: Black's
        // wing (4 cells) on ranks 12..10, the centre (6) on 9, Red's wing + centre + Blue's wing
        // (3 + 6 + 3) on 8..5, the centre on 4, White's wing on 3..1. Red's rook on 1a5 does not
        // reach 1e1 either (the same line backwards).
        let lit = "4|4|4|6|12|12|12|rR11|6|4|4|wQ3/4|4|6|10|10|rK9|10|6|4|2wK1/4|6|8|8|8|8|6|4 r - - 0 1";
        let built = raw("wing-table-4p", &[("1e1", "wQ"), ("1a5", "rR"), ("2b6", "rK"), ("2g2", "wK")], 'r');
        assert_eq!(built, lit);
        let r = pos("wing-table-4p", lit);
        assert_eq!(r.fen(), lit);
        assert!(!dests(&r, "1a5").iter().any(|d| d == "1e1"));
        assert_eq!(r.sides_in(), ['w', 'r']);
    }

    #[test]
    fn partners_and_enemy_kings() {
        // wing-table-4p: White and Black are partners; Red and Blue the other team.
        // White queen on 2e5 with Black's rook on 2e7 up the file, Red's rook on 2c5 to the west,
        // Red's king on 2h8 on a diagonal (2f6, 2g7 empty), Blue's king on 2h5 east along the rank.
        let men =
            [("2e5", "wQ"), ("2e7", "kR"), ("2c5", "rR"), ("2h8", "rK"), ("2h5", "bK"), ("2g2", "wK"), ("2f11", "kK")];
        let p = setup("wing-table-4p", &men, 'w');
        let q = dests(&p, "2e5");
        assert!(q.contains(&"2e6".to_string()) && !q.contains(&"2e7".to_string()), "partner blocks: {q:?}");
        assert!(!q.contains(&"2e8".to_string()));
        assert!(q.contains(&"2d5".to_string()) && q.contains(&"2c5".to_string()), "enemy captured: {q:?}");
        assert!(!q.contains(&"2b5".to_string()));
        assert!(q.contains(&"2g7".to_string()) && !q.contains(&"2h8".to_string()), "enemy king: {q:?}");
        assert!(q.contains(&"2g5".to_string()) && !q.contains(&"2h5".to_string()), "enemy king: {q:?}");
        // Red's and Blue's kings stand attacked while it is not their turn; they are not captured
        // by anyone, and White's moves are otherwise unaffected.
        assert!(p.attacked_against((8, 8, 2), Side::Red));
        assert!(p.attacked_against((8, 5, 2), Side::Blue));
        assert!(p.legal_moves().iter().all(|m| dest(m) != "2h8" && dest(m) != "2h5"));
        // Black (White's partner) to move: its rook could "take" White's queen? Never: partners.
        let b = setup("wing-table-4p", &men, 'k');
        assert!(!dests(&b, "2e7").contains(&"2e5".to_string()));
        // Black's king next to White's queen is not in check from it (partners give no check).
        let near = [("2e5", "wQ"), ("2f6", "kK"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
        assert!(!setup("wing-table-4p", &near, 'k').in_check());
        // But Red's king next to it is in check on Red's turn, and must answer it.
        let near_red = [("2e5", "wQ"), ("2f6", "rK"), ("2g2", "wK"), ("2f11", "kK"), ("2k7", "bK")];
        let r = setup("wing-table-4p", &near_red, 'r');
        assert!(r.in_check());
        // It may capture the queen (captures stay 26) and step orthogonally off its lines.
        let k = dests(&r, "2f6");
        assert!(k.contains(&"2e5".to_string()), "{k:?}");
        assert!(k.iter().all(|d| {
            let c = r.variant.parse_cell(d).expect("cell");
            r.at(c).is_some() || changed(sub(c, (6, 6, 2))) == 1
        }));
        // A move may leave the partner's king attacked: White's rook moves off Black's king's line.
        let open = [("2f5", "wR"), ("2f11", "kK"), ("2f3", "rR"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
        let o = setup("wing-table-4p", &open, 'w');
        assert!(has(&o, "2f5-2e5"), "{:?}", o.legal_moves());
        // ... but not leave its own king attacked: with White's king behind it, the rook is pinned
        // by Red's rook on the file (it may move along the file, or take the pinner).
        let pin = [("2f5", "wR"), ("2f4", "wK"), ("2f9", "rR"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        let o = setup("wing-table-4p", &pin, 'w');
        assert!(!has(&o, "2f5-2e5") && has(&o, "2f5-2f9") && has(&o, "2f5-2f6"), "{:?}", o.legal_moves());
        // A partner's man between an enemy slider and the king still shields it.
        let shield = [("2f5", "kR"), ("2f4", "wK"), ("2f9", "rR"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        assert!(!setup("wing-table-4p", &shield, 'w').in_check());
    }

    #[test]
    fn every_side_for_itself() {
        // triquetral-3p: White, Blue and Green each against both others.
        let men = [("6f6", "wQ"), ("6f7", "bR"), ("6e6", "gR"), ("6g2", "wK"), ("7b6", "bK"), ("2f7", "gK")];
        let p = setup("triquetral-3p", &men, 'w');
        let q = dests(&p, "6f6");
        assert!(q.contains(&"6f7".to_string()) && q.contains(&"6e6".to_string()), "{q:?}");
        // On Blue's turn Blue's rook takes White's queen down the file.
        let b = setup("triquetral-3p", &men, 'b');
        assert!(dests(&b, "6f7").contains(&"6f6".to_string()));
        // Both Blue's and Green's men check White's king.
        let chk = [("6g5", "bR"), ("6g2", "wK"), ("7b6", "bK"), ("2f7", "gK")];
        assert!(setup("triquetral-3p", &chk, 'w').in_check());
        let chk = [("6g5", "gR"), ("6g2", "wK"), ("7b6", "bK"), ("2f7", "gK")];
        assert!(setup("triquetral-3p", &chk, 'w').in_check());
        // Elimination: Green to move is taken out and the turn wraps to White (a new round).
        let g = setup("triquetral-3p", &men, 'g');
        let e = g.eliminate();
        assert_eq!(e.sides_in(), ['w', 'b']);
        assert_eq!(e.side_to_move(), 'w');
        assert_eq!(e.fullmove, 2);
        assert_eq!(e.halfmove, g.halfmove);
        assert_eq!(e.piece_at("6e6"), None);
        // White moves, and the turn skips nobody: Blue next, then White again (Green is out).
        let w = e.play("6f6-6f5").expect("move");
        assert_eq!(w.side_to_move(), 'b');
        assert_eq!(w.halfmove, 1);
        let bm = w.legal_moves();
        let w2 = w.play(&bm[0]).expect("move");
        assert_eq!(w2.side_to_move(), 'w');
        assert_eq!(w2.fullmove, 3);
        // In a team game eliminate() changes nothing.
        let t = start("wing-table-4p");
        assert_eq!(t.eliminate(), t);
    }

    #[test]
    fn turns_and_clocks() {
        // wing-table-4p: White, Red, Black, Blue; the round number goes up after Blue.
        let mut p = start("wing-table-4p");
        let mut seen = Vec::new();
        for _ in 0..5 {
            seen.push((p.side_to_move(), p.fullmove));
            let m = p.legal_moves()[0].clone();
            p = p.play(&m).expect("move");
        }
        assert_eq!(seen, [('w', 1), ('r', 1), ('k', 1), ('b', 1), ('w', 2)]);
        let mut p = start("triquetral-6p");
        let mut seen = Vec::new();
        for _ in 0..7 {
            seen.push(p.side_to_move());
            let m = p.legal_moves().last().cloned().expect("a move");
            p = p.play(&m).expect("move");
        }
        assert_eq!(seen.into_iter().collect::<String>(), "wkbrgyw");
        assert_eq!(p.fullmove, 2);
        // A side with no men left is skipped: Red is out here (no king given in this test position).
        let men = [("2e5", "wR"), ("2g2", "wK"), ("2f11", "kK"), ("2k7", "bK")];
        let q = setup("wing-table-4p", &men, 'w');
        assert_eq!(q.sides_in(), ['w', 'k', 'b']);
        assert_eq!(q.play("2e5-2e6").expect("move").side_to_move(), 'k');
        // A capture resets the halfmove clock; a quiet piece move counts up.
        let men = [("2e5", "wR"), ("2e8", "rN"), ("2g2", "wK"), ("2b6", "rK"), ("2f11", "kK"), ("2k7", "bK")];
        let q = pos("wing-table-4p", &raw("wing-table-4p", &men, 'w').replace(" 0 1", " 7 3"));
        assert_eq!(q.play("2e5-2e8").expect("capture").halfmove, 0);
        assert_eq!(q.play("2e5-2e6").expect("quiet").halfmove, 8);
        assert!(q.fen().ends_with(" w - - 7 3"));
    }

    #[test]
    fn king_restricted_in_check() {
        // Black's king on 2f8 checked by Red's rook on 2c8 along rank 8. Quiet steps: only the 6
        // orthogonal ones that are not on the rook's line; captures stay 26.
        let men = [("2f8", "kK"), ("2c8", "rR"), ("1g7", "bR"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
        let p = setup("wing-table-4p", &men, 'k');
        assert!(p.in_check());
        let k = dests(&p, "2f8");
        assert!(k.contains(&"1g7".to_string()), "a 3D-diagonal capture is kept: {k:?}");
        for quiet in ["2f9", "2f7", "1f8", "3f8"] {
            assert!(k.contains(&quiet.to_string()), "{quiet}: {k:?}");
        }
        for quiet in ["2g9", "3g9", "2e7", "3e7"] {
            let c = p.variant.parse_cell(quiet).expect("cell");
            assert!(!p.attacked_against(c, Side::Black), "{quiet} is safe");
            assert!(!k.contains(&quiet.to_string()), "diagonal quiet step {quiet}: {k:?}");
        }
        // Not in check (rook removed): every free neighbour is a move.
        let men = [("2f8", "kK"), ("1g7", "bR"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
        let q = setup("wing-table-4p", &men, 'k');
        assert!(!q.in_check());
        assert!(dests(&q, "2f8").contains(&"2g9".to_string()));
        // Partner's piece adjacent does not count as check (White's rook on 2c8 instead).
        let men = [("2f8", "kK"), ("2c8", "wR"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
        assert!(!setup("wing-table-4p", &men, 'k').in_check());
    }

    #[test]
    fn pawns_promote() {
        // White's pawn on 1d8: 1d9 has no forward step (Black's wing is files e..h).
        let men = [("1d8", "wP"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        let p = setup("wing-table-4p", &men, 'w');
        let m = moves_from(&p, "1d8");
        let want: Vec<String> = ["A", "B", "N", "Q", "R", "U"].iter().map(|k| format!("1d8-1d9={k}")).collect();
        assert_eq!(m, want);
        let q = p.play("1d8x1d9=u").expect("promote");
        assert_eq!(q.piece_at("1d9").as_deref(), Some("wU"));
        assert!(p.play("1d8-1d9").is_err(), "promotion must be chosen");
        // Red's pawn moves east: 2h5 -> 2i5 is the last centre file with nothing east on rank 4.
        let men = [("2h4", "rP"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        let r = setup("wing-table-4p", &men, 'r');
        assert_eq!(moves_from(&r, "2h4").len(), 6);
        // ... but on rank 5 it goes on into Blue's wing (2j5 exists; 2k5 too on level 2).
        let men = [("2i5", "rP"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        let r = setup("wing-table-4p", &men, 'r');
        assert_eq!(moves_from(&r, "2i5"), ["2i5-2j5"]);
        // Green's pawn moves up; on triquetral-3p it promotes on level 8 (nothing above).
        let men = [("7f6", "gP"), ("6g2", "wK"), ("7b6", "bK"), ("2f7", "gK")];
        let g = setup("triquetral-3p", &men, 'g');
        assert_eq!(moves_from(&g, "7f6").len(), 6);
        // ... while on triquetral-6p it goes on into Yellow's wing (level 9 exists over f6).
        let men = [("8f6", "gP"), ("6g2", "wK"), ("2f7", "gK"), ("10f5", "yK")];
        let g = setup("triquetral-6p", &men, 'g');
        assert_eq!(moves_from(&g, "8f6"), ["8f6-9f6"]);
        // Pawn captures: White's (±1, +1, ±1) only, of enemy men only.
        let mut men = vec![("2f5", "wP"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
        for c in ["1e6", "3g6", "2e6", "2g6", "1f6"] {
            men.push((c, "rN"));
        }
        men.push(("1g6", "kN"));
        men.push(("3e6", "bK"));
        men.retain(|(c, _)| *c != "2k7");
        let p = setup("wing-table-4p", &men, 'w');
        assert_eq!(dests(&p, "2f5"), ["1e6", "2f6", "3g6"]);
    }

    /// perft 1..3 from each start, printed with `--nocapture`. The numbers are this generator's
    /// own (pinned so that a change to it shows); the 2-ply counts are explained in comments.
    #[test]
    fn perft_shallow() {
        // wing-table-4p: 20 x 20, except that 1f2-2d4 offers Red two pawn captures (22) and
        // 2e3-2e4 opens White's queen's diagonal 2f2-2b6, pinning Red's pawn on 2c5 (19).
        // triquetral-3p: 20 x 22, plus 5f2-4d4 (Blue may take the Airman: 23) and 5f2-6d4 (the
        // Airman checks Blue's king on 7b6; only the two pawn captures answer it: 2).
        // triquetral-6p: Black, who replies, is out of reach: 22 x 22.
        let want = [[20, 401, 8040], [22, 465, 9894], [22, 484, 9858]];
        for (id, want) in ALL.iter().zip(want) {
            let p = start(id);
            let counts: Vec<u64> = (1..=3).map(|d| perft(&p, d)).collect();
            println!("{id}: {}", p.fen());
            println!("  perft 1..3 = {counts:?}");
            assert_eq!(counts[0], p.legal_moves().len() as u64);
            assert_eq!(counts, want, "{id}");
        }
    }

    /// perft(4) from each start, and perft 1..3 from positions a few seeded random plies in
    /// (`--ignored --nocapture`).
    #[test]
    #[ignore]
    fn perft_four() {
        for (id, want) in ALL.iter().zip([161602, 250617, 200722]) {
            let p = start(id);
            let t = std::time::Instant::now();
            let n = perft(&p, 4);
            println!("{id}: perft 4 = {n} ({:.2?})", t.elapsed());
            assert_eq!(n, want, "{id}");
            let mut rng = Lcg(0x5eed_0001);
            for plies in [8, 16, 24] {
                let mut q = p.clone();
                let mut line = Vec::new();
                for _ in 0..plies {
                    let moves = q.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())].clone();
                    q = q.play(&m).expect("play");
                    line.push(m);
                }
                let counts: Vec<u64> = (1..=3).map(|d| perft(&q, d)).collect();
                println!("  after {}:\n    {}\n    perft 1..3 = {counts:?}", line.join(" "), q.fen());
            }
        }
    }
}
