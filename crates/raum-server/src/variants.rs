//! What the app is told about a variant: its board as cells with coordinates
//! and names, its pieces, and the rules page's data, all read from the rules
//! core's tables (so a variant added there is described here unchanged).

use crate::live_game::side_key;
use raum_engine::LEVELS;
use raum_geometry::{Family, Vector};
use raum_notation::{format_multi_position, start_string};
use raum_rules::multi::{MultiId, MultiPosition, MultiVariant};
use raum_rules::{
    CastlingRule, Color, GameId, Motion, MultiFn, Piece, Role, StalemateRule, Variant, VariantFn, VariantId, Width,
};
use serde::Serialize;

/// A variant in the list of variants.
#[derive(Serialize)]
pub struct VariantSummary {
    id: &'static str,
    name: String,
    cells: usize,
    reconstruction: bool,
    /// A multi-player game: its sides in turn order (absent for two players).
    #[serde(skip_serializing_if = "Option::is_none")]
    sides: Option<Vec<SideInfo>>,
    /// A multi-player game: whether the sides play in teams.
    #[serde(skip_serializing_if = "Option::is_none")]
    teams: Option<bool>,
    /// A two-player game: Raum's playing levels, weakest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    skill_levels: Option<Vec<LevelSummary>>,
}

/// One of Raum's playing levels in a variant.
#[derive(Serialize)]
pub struct LevelSummary {
    level: u32,
    /// Its Elo on the variant's scale (random mover 0), where the ladder has
    /// measured it in this variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    elo: Option<i32>,
    /// The top level: the engine at full strength.
    full: bool,
}

/// The levels of the variant `id`, with the Elo measured in it.
fn skill_levels(id: VariantId) -> Vec<LevelSummary> {
    let (scale, own) = raum_engine::level_elos(id);
    (1..=LEVELS)
        .map(|level| LevelSummary {
            level,
            elo: scale.get(level as usize - 1).filter(|_| own).map(|e| e.round() as i32),
            full: level == LEVELS,
        })
        .collect()
}

/// A side of a multi-player game.
#[derive(Clone, Serialize)]
pub struct SideInfo {
    /// Its name in lower case, as the API and links name it: `blue`.
    key: String,
    /// Its letter in position strings: `b`.
    letter: char,
    /// `Blue`.
    name: String,
    /// Its team (every side for itself: each its own).
    team: u8,
}

fn sides_info<S: Width>(v: &'static MultiVariant<S>) -> Vec<SideInfo> {
    v.sides()
        .iter()
        .map(|s| SideInfo { key: side_key(s).into(), letter: s.letter, name: s.name.into(), team: s.team })
        .collect()
}

/// A cell of the board.
#[derive(Serialize)]
struct Cell {
    x: i8,
    y: i8,
    z: i8,
    name: String,
}

/// A piece kind.
#[derive(Serialize)]
struct PieceKind {
    letter: char,
    name: &'static str,
    role: &'static str,
}

/// A variant's board and pieces (`GET /api/variants/{id}`).
#[derive(Serialize)]
pub struct VariantInfo {
    id: &'static str,
    name: &'static str,
    reconstruction: bool,
    dims: [i8; 3],
    wraps: [bool; 3],
    levels: Vec<String>,
    files: Vec<String>,
    ranks: Vec<String>,
    cells: Vec<Cell>,
    pieces: Vec<PieceKind>,
    promotions: Vec<char>,
    start: String,
    /// A multi-player game: its sides in turn order; men are then two
    /// letters, the side's then the piece's (`wK`, `bP`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sides: Option<Vec<SideInfo>>,
    /// A multi-player game: whether the sides play in teams.
    #[serde(skip_serializing_if = "Option::is_none")]
    teams: Option<bool>,
}

/// A piece alone on the board, for the rules page.
#[derive(Serialize)]
struct PieceFigure {
    letter: char,
    name: &'static str,
    role: &'static str,
    cell: usize,
    moves: Vec<usize>,
    captures: Vec<usize>,
    text: String,
}

/// The rules page's data (`GET /api/variants/{id}/rules`).
#[derive(Serialize)]
pub struct RulesInfo {
    id: &'static str,
    name: &'static str,
    reconstruction: bool,
    pieces: Vec<PieceFigure>,
    rules: Vec<String>,
}

/// The list entry of one game (a loaded variant file's, after an upload).
pub fn summary(id: GameId) -> VariantSummary {
    match id {
        GameId::Two(v) => v.dispatch(Summary),
        GameId::Multi(m) => m.dispatch(Summary),
    }
}

/// Every variant the web app offers, the multi-player games last. Read from
/// their files once: listing builds no game's tables (each game's are built
/// when it is first played or described).
pub fn list() -> &'static [VariantSummary] {
    static LIST: std::sync::OnceLock<Vec<VariantSummary>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        let two = VariantId::ALL.iter().map(|&id| from_file(GameId::Two(id)));
        two.chain(MultiId::ALL.iter().map(|&id| from_file(GameId::Multi(id)))).collect()
    })
}

/// A built-in game's list entry, from its file alone.
fn from_file(id: GameId) -> VariantSummary {
    let name = id.name();
    let def = raum_rules::file::builtin_text(name).and_then(|text| raum_rules::file::read(text, name).ok());
    // Every built-in file reads (the rules core's tests); were one not to, its tables would say.
    let Some(def) = def else { return summary(id) };
    let multi = matches!(id, GameId::Multi(_));
    let side = |(letter, name, team): (char, &str, u8)| SideInfo {
        key: crate::live_game::key_of(name).into(),
        letter,
        name: name.into(),
        team,
    };
    VariantSummary {
        id: name,
        name: def.title().into(),
        cells: def.cells(),
        reconstruction: def.is_reconstruction(),
        sides: multi.then(|| def.sides().into_iter().map(side).collect()),
        teams: multi.then(|| def.plays_in_teams()),
        skill_levels: match id {
            GameId::Two(v) => Some(skill_levels(v)),
            GameId::Multi(_) => None,
        },
    }
}

struct Summary;
impl VariantFn for Summary {
    type Output = VariantSummary;
    fn call<S: Width>(self, v: &'static Variant<S>) -> VariantSummary {
        let id = v.id();
        VariantSummary {
            id: id.name(),
            name: v.spec().title.into(),
            cells: v.cells(),
            reconstruction: v.is_reconstruction(),
            sides: None,
            teams: None,
            skill_levels: Some(skill_levels(id)),
        }
    }
}

impl MultiFn for Summary {
    type Output = VariantSummary;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> VariantSummary {
        VariantSummary {
            id: v.id().name(),
            name: v.title().into(),
            cells: v.cells(),
            reconstruction: v.board().is_reconstruction(),
            sides: Some(sides_info(v)),
            teams: Some(v.teams()),
            skill_levels: None,
        }
    }
}

/// The board and pieces of multi-player game `id`.
pub fn multi_info(id: MultiId) -> VariantInfo {
    id.dispatch(Info)
}

/// The rules page's data for multi-player game `id`.
pub fn multi_rules(id: MultiId) -> RulesInfo {
    id.dispatch(Rules)
}

/// The board and pieces of `id`.
pub fn info(id: VariantId) -> VariantInfo {
    id.dispatch(Info)
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::King => "king",
        Role::Pawn => "pawn",
        Role::Piece => "piece",
    }
}

struct Info;

impl MultiFn for Info {
    type Output = VariantInfo;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> VariantInfo {
        VariantInfo {
            id: v.id().name(),
            name: v.title(),
            start: format_multi_position(&MultiPosition::start(v)),
            sides: Some(sides_info(v)),
            teams: Some(v.teams()),
            ..VariantFn::call(Info, v.board())
        }
    }
}

impl VariantFn for Info {
    type Output = VariantInfo;
    fn call<S: Width>(self, v: &'static Variant<S>) -> VariantInfo {
        let board = v.board();
        let dims = board.shape().dims();
        let topology = board.topology();
        let cells = (0..v.cells())
            .map(|i| {
                let c = board.coord(i);
                Cell { x: c.x, y: c.y, z: c.z, name: v.cell_name(i) }
            })
            .collect();
        VariantInfo {
            id: v.id().name(),
            name: v.spec().title,
            reconstruction: v.is_reconstruction(),
            dims,
            wraps: topology.wrap,
            levels: (0..dims[2]).map(|z| v.level_name(z)).collect(),
            files: (0..dims[0]).map(|x| file_name(v, x)).collect(),
            ranks: (0..dims[1]).map(|y| (y + 1).to_string()).collect(),
            cells,
            pieces: v
                .pieces()
                .iter()
                .map(|p| PieceKind { letter: p.letter, name: p.name, role: role_name(p.role) })
                .collect(),
            promotions: v.promotion_kinds().iter().map(|&k| v.piece_def(k).letter).collect(),
            start: start_string(v),
            sides: None,
            teams: None,
        }
    }
}

/// The letter a file is written with: lower case after the level (`Cc3`),
/// upper case before the rank where the level comes last (`E2α`).
fn file_name<S: Width>(v: &Variant<S>, x: i8) -> String {
    let upper = v.level_name(0).chars().all(|c| !c.is_ascii());
    let c = (if upper { b'A' } else { b'a' } + x as u8) as char;
    c.to_string()
}

/// The rules page's data for `id`.
pub fn rules(id: VariantId) -> RulesInfo {
    id.dispatch(Rules)
}

struct Rules;

impl MultiFn for Rules {
    type Output = RulesInfo;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> RulesInfo {
        let mut info = pieces_and_board(v.board());
        info.id = v.id().name();
        info.name = v.title();
        info.rules.extend(multi_texts(v));
        info
    }
}

impl VariantFn for Rules {
    type Output = RulesInfo;
    fn call<S: Width>(self, v: &'static Variant<S>) -> RulesInfo {
        let mut info = pieces_and_board(v);
        info.rules.push(end_text(v));
        info
    }
}

/// The rules page's pieces, and the rules of the board and its pieces (not
/// how the game ends, which differs for more than two players).
fn pieces_and_board<S: Width>(v: &'static Variant<S>) -> RulesInfo {
    let pieces = v
        .pieces()
        .iter()
        .filter_map(|def| {
            let kind = v.kind_of(def.letter)?;
            let piece = Piece::new(Color::White, kind);
            let cell = figure_cell(v, piece)?;
            let moves = v.targets(piece, cell, S::EMPTY, S::EMPTY).cells().collect();
            // A capture is a move onto an enemy: with one enemy at a time,
            // sliders are not blocked by the others.
            let captures = (0..v.cells())
                .filter(|&t| t != cell && v.targets(piece, cell, S::EMPTY, S::single(t)).has(t))
                .collect();
            let text = match def.role {
                Role::Pawn => pawn_text(v),
                _ if def.moves == def.captures => format!("{}.", motion_text(&def.moves)),
                _ => format!("Moves: {}. Captures: {}.", motion_text(&def.moves), motion_text(&def.captures)),
            };
            Some(PieceFigure {
                letter: def.letter,
                name: def.name,
                role: role_name(def.role),
                cell,
                moves,
                captures,
                text,
            })
        })
        .collect();
    RulesInfo {
        id: v.id().name(),
        name: v.spec().title,
        reconstruction: v.is_reconstruction(),
        pieces,
        rules: rule_texts(v),
    }
}

/// Where a piece is shown alone: a pawn on one of White's start cells for
/// it (so its double steps show), any other piece on the cell nearest the
/// board's centre.
fn figure_cell<S: Width>(v: &Variant<S>, piece: Piece) -> Option<usize> {
    let setup = v.start_setup();
    if Some(piece.kind) == v.pawn() {
        let cells: Vec<usize> = (0..v.cells()).filter(|&c| setup.board[c] == Some(piece)).collect();
        return cells.get(cells.len() / 2).copied().or(Some(0));
    }
    let dims = v.board().shape().dims();
    let centre = |i: usize| f64::from(dims[i] - 1) / 2.0;
    (0..v.cells()).min_by(|&a, &b| {
        let d = |c: usize| {
            let p = v.board().coord(c);
            (f64::from(p.x) - centre(0)).powi(2)
                + (f64::from(p.y) - centre(1)).powi(2)
                + (f64::from(p.z) - centre(2)).powi(2)
        };
        d(a).total_cmp(&d(b))
    })
}

fn family_text(f: Family) -> &'static str {
    match f {
        Family::Orthogonal => "the 6 orthogonal directions (rook lines)",
        Family::Diagonal2D => "the 12 two-dimensional diagonals",
        Family::Diagonal3D => "the 8 three-dimensional diagonals (triagonals)",
    }
}

/// A leap's shape, `(0,1,2)`: its coordinates' sizes, ascending.
fn leap_shape(v: Vector) -> [i8; 3] {
    let mut s = [v.x.abs(), v.y.abs(), v.z.abs()];
    s.sort_unstable();
    s
}

/// A motion in words: `slides along ...; leaps (0,1,2)`.
fn motion_text(m: &Motion) -> String {
    let mut parts = Vec::new();
    if !m.slides.is_empty() {
        let fams: Vec<&str> = m.slides.iter().map(|&f| family_text(f)).collect();
        parts.push(format!("slides any distance along {}", fams.join(" and ")));
    }
    if !m.rays.is_empty() {
        parts.push(format!("slides any distance along {} directions", m.rays.len()));
    }
    let mut ranges: Vec<u8> = m.ranged.iter().map(|&(_, r)| r).collect();
    ranges.sort_unstable();
    ranges.dedup();
    for r in ranges {
        let n = m.ranged.iter().filter(|&&(_, x)| x == r).count();
        parts.push(format!("slides up to {r} cells along {n} directions"));
    }
    let mut shapes: Vec<[i8; 3]> = m.leaps.iter().map(|&v| leap_shape(v)).collect();
    shapes.sort_unstable();
    shapes.dedup();
    for s in shapes {
        let n = m.leaps.iter().filter(|&&v| leap_shape(v) == s).count();
        if s.iter().all(|&c| c <= 1) {
            parts.push(format!("steps one cell ({n} directions of shape ({},{},{}))", s[0], s[1], s[2]));
        } else {
            parts.push(format!("leaps ({},{},{}) over anything ({n} targets)", s[0], s[1], s[2]));
        }
    }
    if parts.is_empty() { "does not move".into() } else { capitalise(&parts.join("; ")) }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn pawn_text<S: Width>(v: &Variant<S>) -> String {
    let r = v.pawn_rules(v.spec().start_sets[0] as usize);
    let mut t = format!(
        "Moves without capturing one step in {} direction{}, captures in {} direction{}",
        r.steps.len(),
        if r.steps.len() == 1 { "" } else { "s" },
        r.captures.len(),
        if r.captures.len() == 1 { "" } else { "s" },
    );
    if !r.double_steps.is_empty() {
        t.push_str("; from its start cells it may also make a double step");
    }
    if r.en_passant {
        t.push_str(", which can be taken en passant");
    }
    if !r.promote_to.is_empty() {
        let to: Vec<String> = r.promote_to.iter().map(char::to_string).collect();
        t.push_str(&format!("; on reaching a promotion cell it becomes one of {}", to.join(", ")));
    }
    t.push('.');
    t
}

/// The special rules in words, from the variant's data.
fn rule_texts<S: Width>(v: &Variant<S>) -> Vec<String> {
    let mut out = Vec::new();
    let dims = v.board().shape().dims();
    let levels: Vec<String> = (0..dims[2]).map(|z| v.level_name(z)).collect();
    out.push(format!(
        "The board: {} cells on {} levels ({}), each level up to {} files by {} ranks.",
        v.cells(),
        dims[2],
        levels.join(", "),
        dims[0],
        dims[1]
    ));
    let wraps = v.board().topology().wrap;
    if wraps.iter().any(|&w| w) {
        let names = ["files", "ranks", "levels"];
        let joined: Vec<&str> = (0..3).filter(|&i| wraps[i]).map(|i| names[i]).collect();
        out.push(format!("The board wraps around: the {} join end to end.", joined.join(" and ")));
    }
    if v.is_reconstruction() {
        out.push(
            "This board is a reconstruction: the seed's pictures are lost, and RULES.md rebuilds it from every \
             sentence of the seed."
                .into(),
        );
    }
    if v.spec().king_in_check.is_some() {
        out.push(
            "While in check the king moves without capturing only one step along the 6 orthogonal directions; it \
             still captures in all 26."
                .into(),
        );
    }
    if v.free_pawn_sets() {
        out.push("Each side chooses the axes its pawns move along; the choice is part of the position.".into());
    }
    if v.has_column_rule() {
        out.push(
            "The pawn-column rule: a quiet pawn move may not end on, or pass through, a cell whose file and rank \
             already hold another pawn on any level."
                .into(),
        );
    }
    match &v.spec().castling {
        CastlingRule::None => out.push("There is no castling.".into()),
        CastlingRule::SwapOnce { rook } => out.push(format!(
            "Castling: once per game the king swaps places with one of its own {} pieces on the same orthogonal line \
             with only empty cells between; not out of, through or into check. Written king's cell to the partner's \
             cell.",
            rook
        )),
        CastlingRule::Slots { rook, slots } => out.push(format!(
            "Castling: the king castles with a {rook} that has not moved, as in chess, with {} fixed pairings for the \
             two sides; not out of, through or into check. Written as the king's cell to the partner's cell.",
            slots.len()
        )),
    }
    out
}

/// How a two-player game ends.
fn end_text<S: Width>(v: &Variant<S>) -> String {
    match v.stalemate_rule() {
        StalemateRule::Draw => "The game ends by checkmate. It is drawn by stalemate, by the 50-move rule (100 plies \
                                without a capture or a pawn move), by the third occurrence of a position, or when only \
                                the kings are left."
            .into(),
        StalemateRule::ThreeFifths => "The game ends by checkmate, or by stalemate, which scores 3/5 for the side \
                                       that stalemates and 2/5 for the side stalemated (3/5-2/5). It is drawn by the \
                                       50-move rule (100 plies without a capture or a pawn move), by the third \
                                       occurrence of a position, or when only the kings are left."
            .into(),
    }
}

/// The rules of a game for more than two (RULES.md "Savard's multi-player
/// forms"), from its sides' data.
fn multi_texts<S: Width>(v: &MultiVariant<S>) -> Vec<String> {
    let sides = v.sides();
    let named: Vec<String> = sides.iter().map(|s| format!("{} ({})", s.name, s.letter)).collect();
    let mut out = vec![format!(
        "{} sides, in turn order: {}. Each side's army and pawn directions are White's, turned onto its own \
         wing; a man is written with its side's letter and its piece's (wK, bP).",
        sides.len(),
        named.join(", ")
    )];
    if v.teams() {
        let mut teams: Vec<u8> = sides.iter().map(|s| s.team).collect();
        teams.sort_unstable();
        teams.dedup();
        let team_names: Vec<String> = teams
            .iter()
            .map(|&t| sides.iter().filter(|s| s.team == t).map(|s| s.name).collect::<Vec<_>>().join(", "))
            .collect();
        out.push(format!(
            "Two teams: {}. Partners block each other's lines but never capture each other's men or give each \
             other check.",
            team_names.join(" against ")
        ));
        out.push(
            "The first side with no legal move on its turn ends the game: checkmated, its team loses (0 against 1 \
             for each side of the other team); stalemated, its team scores 2/5 and the other 3/5."
                .into(),
        );
    } else {
        out.push("Every side for itself: a king is attacked by the men of every other side still in.".into());
        out.push(
            "A side with no legal move on its turn is out, checkmated or stalemated alike: its men leave the board \
             at once and the turn passes to the next side still in. The last side in wins."
                .into(),
        );
    }
    out.push(
        "Kings are never captured: a king may stand attacked when it is not its owner's turn, and its owner must \
         answer on its own turn. A move may not leave the mover's own king attacked."
            .into(),
    );
    out.push(if v.teams() {
        "Draws (1/2 to every side): only kings left, the third occurrence of a position with the same side to \
         move, or 50 rounds without a capture or a pawn move."
            .into()
    } else {
        "Draws (1/k to each of the k sides still in, 0 to a side that is out): only kings left, the third \
         occurrence of a position with the same side to move, or 50 rounds without a capture or a pawn move."
            .into()
    });
    out.push(if v.teams() {
        "In the web app a side may resign: its team loses.".into()
    } else {
        "In the web app a side may resign: it is out, as a side with no legal move is, and the others play on.".into()
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list read from the files says what the built tables say.
    #[test]
    fn the_list_from_the_files_is_the_list_from_the_tables() {
        let from_files = serde_json::to_value(list()).unwrap();
        let built: Vec<VariantSummary> = VariantId::ALL
            .iter()
            .map(|&id| summary(GameId::Two(id)))
            .chain(MultiId::ALL.iter().map(|&id| summary(GameId::Multi(id))))
            .collect();
        assert_eq!(from_files, serde_json::to_value(built).unwrap());
    }
}
