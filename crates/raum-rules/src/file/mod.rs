//! Variant files: a game written down in TOML (`docs/variants.md`), read into
//! the data the rules core compiles ([`crate::VariantSpec`]). Every built-in
//! game is such a file ([`builtin`]).
//!
//! Reading reports every problem it finds, each with its file, line, column
//! and key ([`FileError`]); it never panics on any input.
//!
//! ```
//! use raum_rules::file::{builtin_text, read};
//! let def = read(builtin_text("raumschach").unwrap(), "variants/raumschach.toml").unwrap();
//! assert_eq!(def.title(), "Raumschach");
//! let errors = read("format = 1\nid = \"x\"\ntitle = \"X\"\n[board]\nsize = \"5x5\"\n", "x.toml").unwrap_err();
//! // Every problem, each with file, line, column and key:
//! let text = errors.to_string();
//! assert!(text.lines().any(|l| l.starts_with("x.toml:5:8: board.size: '5x5' is not a size")), "{text}");
//! assert!(text.lines().any(|l| l == "x.toml:4:1: board.names: missing"), "{text}");
//! ```

mod board;
mod builtin;
mod error;
mod frame;
mod motion;
mod pawns;
mod pieces;
mod reader;
pub(crate) mod registry;
mod rules;
mod tree;

pub use board::MAX_CELLS;
pub use builtin::{BUILTIN, builtin_text};
pub use error::{FileError, FileErrors};
pub(crate) use frame::parse_orientation;
pub use registry::{CustomId, LoadError, MAX_LOADED, load, variant_hash};

use crate::game_rules::SideDef;
use crate::multi::{MultiId, MultiSpec};
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnSet, StalemateRule, VariantId, VariantSpec};
use error::Sources;
use raum_geometry::{Coord, Shape, Topology};
use reader::{Reader, Table};
use tree::{Loc, Node, Val};

/// The format version this reader knows.
pub const FORMAT: i64 = 1;

/// The keys of `[army]`.
const ARMY_KEYS: &[&str] = &["white", "black"];

/// The keys of a `[[side]]` table.
const SIDE_KEYS: &[&str] = &["letter", "name", "map", "team"];

/// How deep `extends` may chain.
const MAX_EXTENDS: usize = 8;

/// A variant as a file describes it: everything the rules core needs, under
/// the file's own id. It owns its names (title, pieces', sides'): reading a
/// file keeps nothing for good; only the spec a game is built from holds
/// them for the program's life ([`VariantDef::spec`], called when a game is
/// loaded: at most [`MAX_LOADED`] times).
#[derive(Clone, Debug, PartialEq)]
pub struct VariantDef {
    id: String,
    title: String,
    /// Each piece's name, in the order of `pieces` (whose names are left empty).
    piece_names: Vec<String>,
    /// Each side's name, in the order of `sides` (whose names are left empty).
    side_names: Vec<String>,
    shape: Shape,
    topology: Topology,
    naming: CellNaming,
    pieces: Vec<PieceDef>,
    army: Vec<(Coord, char)>,
    mirror: Mirror,
    pawn_sets: Vec<PawnSet>,
    start_sets: [u8; 2],
    free_pawn_sets: bool,
    track_unmoved: bool,
    noncombatant: bool,
    rider: Option<char>,
    castling: CastlingRule,
    king_in_check: Option<Motion>,
    stalemate: StalemateRule,
    move_limit: u16,
    repetition: u8,
    reconstruction: bool,
    /// The sides of a game of more than two, in turn order (empty for two).
    sides: Vec<SideDef>,
    teams: bool,
    perft: Vec<PerftLine>,
}

/// A `[[perft]]` expectation of a file: from the start, or from `fen`, after
/// `moves`, `depth` plies give `count` leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftLine {
    /// A position string to start from, instead of the start.
    pub fen: Option<String>,
    /// Coordinate moves played first, separated by spaces.
    pub moves: Option<String>,
    /// Plies.
    pub depth: u32,
    /// Leaves expected.
    pub count: u64,
    /// Where the `[[perft]]` table starts: its line in the file.
    pub line: u32,
}

impl VariantDef {
    /// The file's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Whether the board is a reconstruction (RULES.md).
    pub fn is_reconstruction(&self) -> bool {
        self.reconstruction
    }

    /// A game of more than two: its sides in turn order, each its letter,
    /// name and team (empty for a game of two).
    pub fn sides(&self) -> Vec<(char, &str, u8)> {
        self.sides.iter().zip(&self.side_names).map(|(s, n)| (s.letter, n.as_str(), s.team)).collect()
    }

    /// Whether the sides of a game of more than two play in teams.
    pub fn plays_in_teams(&self) -> bool {
        self.teams
    }

    /// The file's `[[perft]]` expectations.
    pub fn perft_lines(&self) -> &[PerftLine] {
        &self.perft
    }

    /// How many sides play: 2, or the number of `[[side]]` tables.
    pub fn side_count(&self) -> usize {
        if self.sides.is_empty() { 2 } else { self.sides.len() }
    }

    /// The board's cell count.
    pub fn cells(&self) -> usize {
        let [w, h, d] = self.shape.dims();
        (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
            .filter(|&c| self.shape.contains(c))
            .count()
    }

    /// The two-player spec, under the rules core's id `id`.
    pub fn spec(&self, id: VariantId) -> VariantSpec {
        VariantSpec {
            id,
            title: intern(&self.title),
            shape: self.shape.clone(),
            topology: self.topology,
            naming: self.naming,
            pieces: self
                .pieces
                .iter()
                .zip(&self.piece_names)
                .map(|(p, name)| PieceDef { name: intern(name), ..p.clone() })
                .collect(),
            army: self.army.clone(),
            mirror: self.mirror,
            pawn_sets: self.pawn_sets.clone(),
            start_sets: self.start_sets,
            free_pawn_sets: self.free_pawn_sets,
            track_unmoved: self.track_unmoved,
            noncombatant: self.noncombatant,
            rider: self.rider,
            castling: self.castling.clone(),
            king_in_check: self.king_in_check.clone(),
            stalemate: self.stalemate,
            move_limit: self.move_limit,
            repetition: self.repetition,
            reconstruction: self.reconstruction,
        }
    }

    /// The multi-player spec, under the rules core's ids: `id`, and `board`
    /// for the board's tables.
    pub fn multi_spec(&self, id: MultiId, board: VariantId) -> MultiSpec {
        let sides = self.sides.iter().zip(&self.side_names).map(|(s, name)| SideDef { name: intern(name), ..*s });
        MultiSpec { id, title: intern(&self.title), board: self.spec(board), sides: sides.collect(), teams: self.teams }
    }
}

/// A string that lives as long as the program. The rules core's specs hold
/// `&'static str` names; each distinct string is kept once. Only a spec being
/// built interns ([`VariantDef::spec`]), never the reader.
fn intern(s: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&s) = seen.get(s) {
        return s;
    }
    let leaked: &'static str = Box::leak(s.to_string().into_boxed_str());
    seen.insert(leaked);
    leaked
}

/// Whether `s` may be a file's id: 1 to 40 characters a-z, 0-9 and '-'.
pub fn is_valid_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 40 && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Reads a variant file. `name` is how errors name the file. `extends`
/// names a built-in game.
pub fn read(text: &str, name: &str) -> Result<VariantDef, FileErrors> {
    let mut sources = Sources::default();
    let tree = load_tree(text, name, &mut sources, &mut Vec::new()).map_err(|e| FileErrors(vec![e]))?;
    let mut r = Reader { sources: &sources, errors: Vec::new() };
    let def = interpret(&tree, &mut r);
    let mut errors = r.errors;
    errors.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    errors.dedup();
    match def {
        Some(def) if errors.is_empty() => Ok(def),
        _ if errors.is_empty() => Err(FileErrors(vec![sources.error(0, 0, "", "the file describes no game".into())])),
        _ => Err(FileErrors(errors)),
    }
}

/// Parses a file and the files it extends, merged.
fn load_tree(text: &str, name: &str, sources: &mut Sources, chain: &mut Vec<String>) -> Result<Node, error::FileError> {
    let src = sources.add(name, text);
    let tree = tree::parse(text, src, sources)?;
    let Val::Table(entries) = &tree.val else { return Ok(tree) };
    let Some(e) = entries.iter().find(|e| e.key == "extends") else { return Ok(tree) };
    let Val::Str(base) = &e.node.val else {
        return Err(sources.error(src, e.node.at.start, "extends", "expected the id of a built-in game".into()));
    };
    if chain.contains(base) || chain.len() >= MAX_EXTENDS {
        return Err(sources.error(src, e.node.at.start, "extends", format!("'{base}' extends itself, round a circle")));
    }
    let Some(base_text) = builtin_text(base) else {
        let known = BUILTIN.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", ");
        return Err(sources.error(
            src,
            e.node.at.start,
            "extends",
            format!("no built-in game '{base}' (known: {known})"),
        ));
    };
    chain.push(base.clone());
    let base_tree = load_tree(base_text, &format!("variants/{base}.toml"), sources, chain)?;
    // The base's own id, title, extends and perft expectations never carry over.
    let Node { at, val: Val::Table(mut base_entries) } = base_tree else { return Ok(tree) };
    base_entries.retain(|e| !matches!(e.key.as_str(), "id" | "title" | "extends" | "perft"));
    Ok(tree::merge(Node { at, val: Val::Table(base_entries) }, tree))
}

/// Reads the merged tree.
fn interpret(tree: &Node, r: &mut Reader) -> Option<VariantDef> {
    let mut top = Table::of(tree, "", r)?;
    match top.int("format", r) {
        Some((FORMAT, _)) => {}
        Some((n, at)) => r.error(at, "format", format!("format {n} is not known: this reader reads format {FORMAT}")),
        None if top.get("format").is_none() => r.error(top.at, "format", "missing: write format = 1 first"),
        None => {}
    }
    let id = top.req_str("id", r).and_then(|(s, at)| {
        let ok = is_valid_id(s);
        if !ok {
            r.error(at, "id", "an id is 1 to 40 characters a-z, 0-9 and '-'");
        }
        ok.then(|| s.to_string())
    });
    let title = top.req_str("title", r).map(|(s, _)| s.to_string());
    top.str("extends", r);
    let reconstruction = top.bool("reconstruction", r);
    let board = match top.table("board", r) {
        Some(t) => board::read_board(t, r),
        None => {
            r.error(top.at, "board", "missing: the [board] section");
            None
        }
    };
    let pieces_at = top.get("pieces").map_or(top.at, |n| n.at);
    let (pieces, piece_names): (Vec<PieceDef>, Vec<String>) = match top.table("pieces", r) {
        Some(t) => pieces::read_pieces(t, r).into_iter().unzip(),
        None => {
            r.error(top.at, "pieces", "missing: the [pieces] section");
            Default::default()
        }
    };
    let mut army_t = top.table("army", r);
    if army_t.is_none() {
        r.error(top.at, "army", "missing: the [army] section");
    }
    let side_tables = top.tables("side", r);
    let pawn_t = top.table("pawn", r);
    let castling_t = top.table("castling", r);
    let rules_t = top.table("rules", r);
    let perft = top.tables("perft", r).into_iter().filter_map(|t| perft_line(t, r)).collect();
    top.finish(
        r,
        &[
            "format",
            "id",
            "title",
            "extends",
            "reconstruction",
            "board",
            "pieces",
            "army",
            "side",
            "pawn",
            "castling",
            "rules",
            "perft",
        ],
    );

    let Some(board) = board else {
        // The cells these tables name cannot be read without the board; their keys can.
        army_t.into_iter().for_each(|t| t.unknown_keys(r, ARMY_KEYS));
        side_tables.into_iter().for_each(|t| t.unknown_keys(r, SIDE_KEYS));
        pawn_t.into_iter().for_each(|t| t.unknown_keys(r, pawns::KEYS));
        castling_t.into_iter().for_each(|t| t.unknown_keys(r, rules::CASTLING_KEYS));
        rules_t.into_iter().for_each(|t| t.unknown_keys(r, rules::RULES_KEYS));
        return None;
    };
    let dims = board.dims;
    // The sides: Black's symmetry for two, the [[side]] tables for more.
    let black = army_t.as_mut().and_then(|t| t.str("black", r).map(|(s, at)| (s, at, t.key_path("black"))));
    let (sides, teams, maps) = read_sides(side_tables, black, dims, army_t.as_ref().map_or(tree.at, |t| t.at), r);
    let shape = board::shape(&board, &maps, r)?;
    let rules = rules::read_rules(rules_t, &pieces, r);
    let mirror = if sides.is_empty() { maps.first().map(|m| m.0) } else { None };
    let errors_before_army = r.errors.len();
    let mut white_at = tree.at;
    let army = match army_t {
        Some(mut t) => {
            white_at = t.get("white").map_or(t.at, |n| n.at);
            let rows = t.strs("white", r);
            if rows.is_none() {
                r.error(t.at, "army.white", "missing: White's rows, as [\"Ea1 RWKGR\", ...]");
            }
            t.finish(r, ARMY_KEYS);
            pieces::read_army(rows.unwrap_or_default(), &pieces, rules.rider, board.naming, &shape, r)
        }
        None => Vec::new(),
    };
    let army_read = r.errors.len() == errors_before_army;
    let has_pawn = pieces.iter().any(|p| p.role == Role::Pawn);
    let pawn = match pawn_t {
        Some(t) => {
            if !has_pawn {
                r.error(t.at, "pawn", "no piece has role \"pawn\"");
            }
            pawns::read_pawn(t, &pieces, board.naming, dims, r)
        }
        None => {
            if has_pawn {
                r.error(
                    pieces_at,
                    "pawn",
                    "missing: a piece has role \"pawn\", so the [pawn] section says how it moves",
                );
            }
            None
        }
    };
    if pieces.iter().filter(|p| p.role == Role::Pawn).count() > 1 {
        r.error(pieces_at, "pieces", "more than one piece has role \"pawn\"");
    }
    if !pieces.iter().any(|p| p.role == Role::King) {
        r.error(pieces_at, "pieces", "no piece has role \"king\": every side needs a royal piece");
    } else if army_read {
        let kings = army.iter().filter(|&&(_, l)| pieces.iter().any(|p| p.letter == l && p.role == Role::King)).count();
        match kings {
            1 => {}
            0 => r.error(white_at, "army.white", "the army has no king"),
            _ => r.error(white_at, "army.white", format!("the army has {kings} kings; a side has exactly one")),
        }
    }
    let castling = rules::read_castling(castling_t, &pieces, board.naming, &shape, mirror, r);
    let (pawn_sets, start_sets) = match &pawn {
        Some(p) => p.sets(&shape, mirror),
        // A game without pawns: sets that say nothing, as the rules core wants one a side.
        None => {
            let none = crate::spec::PawnRules {
                steps: Vec::new(),
                captures: Vec::new(),
                double_origins: Vec::new(),
                double_steps: Vec::new(),
                en_passant: false,
                promotion_cells: Vec::new(),
                promote_to: Vec::new(),
                column_rule: false,
            };
            match mirror {
                Some(m) => (VariantSpec::mirrored_pawns(none, m, shape.dims()), [0, 1]),
                None => (vec![PawnSet { name: "white".into(), rules: none }], [0, 0]),
            }
        }
    };
    if army_read {
        start_conflicts(&army, &pieces, &sides, mirror, &pawn_sets, &shape, board.naming, white_at, r);
    }
    let free_pawn_sets = pawn.as_ref().is_some_and(|p| p.free_orientation());
    let track_unmoved = rules.noncombatant || pawn.as_ref().is_some_and(|p| p.doubles_from_unmoved());
    let mirror = mirror.or_else(|| sides.get(1).map(|(s, _)| s.map)).unwrap_or(Mirror::flips([false; 3]));
    let (sides, side_names) = sides.into_iter().unzip();
    Some(VariantDef {
        id: id?,
        title: title?,
        piece_names,
        side_names,
        shape,
        topology: board.topology,
        naming: board.naming,
        pieces,
        army,
        mirror,
        pawn_sets,
        start_sets,
        free_pawn_sets,
        track_unmoved,
        noncombatant: rules.noncombatant,
        rider: rules.rider,
        castling,
        king_in_check: rules.king_in_check,
        stalemate: rules.stalemate,
        move_limit: rules.move_limit,
        repetition: rules.repetition,
        reconstruction,
        sides,
        teams,
        perft,
    })
}

/// What would make the start no position: two sides' men on one cell, or a
/// pawn on its own promotion cell.
#[allow(clippy::too_many_arguments)]
fn start_conflicts(
    army: &[(Coord, char)],
    pieces: &[PieceDef],
    sides: &[(SideDef, String)],
    mirror: Option<Mirror>,
    pawn_sets: &[PawnSet],
    shape: &Shape,
    naming: CellNaming,
    at: Loc,
    r: &mut Reader,
) {
    let identity = Mirror::flips([false; 3]);
    let maps: Vec<(String, Mirror, usize)> = match mirror {
        Some(m) => vec![("White".into(), identity, 0), ("Black".into(), m, 1)],
        None => sides.iter().map(|(s, name)| (name.clone(), s.map, 0)).collect(),
    };
    let dims = shape.dims();
    let name = |c: Coord| crate::naming::coord_name(naming, c);
    let mut taken: Vec<(Coord, usize)> = Vec::new();
    for (i, (side, map, set)) in maps.iter().enumerate() {
        for &(c, l) in army {
            let to = map.cell(c, dims);
            if let Some(&(_, j)) = taken.iter().find(|&&(t, j)| t == to && j != i) {
                r.error(
                    at,
                    "army.white",
                    format!("{side}'s man from {} and {}'s land on one cell, {}", name(c), maps[j].0, name(to)),
                );
                return;
            }
            taken.push((to, i));
            let pawn = pieces.iter().any(|p| p.letter == l && p.role == Role::Pawn);
            // A side's pawns are its map's image of White's (its own set with two sides).
            let promotes = match mirror {
                Some(_) => pawn_sets.get(*set).is_some_and(|s| s.rules.promotion_cells.contains(&to)),
                None => pawn_sets.first().is_some_and(|s| s.rules.promotion_cells.contains(&c)),
            };
            if pawn && promotes {
                r.error(
                    at,
                    "army.white",
                    format!("{side}'s pawn from {} starts on its promotion cell {}", name(c), name(to)),
                );
                return;
            }
        }
    }
}

/// One `[[perft]]` table.
fn perft_line(mut t: Table, r: &mut Reader) -> Option<PerftLine> {
    let line = r.sources.error(t.at.src, t.at.start, "", String::new()).line;
    let fen = t.str("fen", r).map(|(s, _)| s.to_string());
    let moves = t.str("moves", r).map(|(s, _)| s.to_string());
    let depth = match t.int("depth", r) {
        Some((d, _)) if (1..=8).contains(&d) => Some(d as u32),
        Some((_, at)) => {
            r.error(at, &t.key_path("depth"), "a depth of 1 to 8 plies");
            None
        }
        None => {
            r.error(t.at, &t.key_path("depth"), "missing");
            None
        }
    };
    let count = match t.int("count", r) {
        Some((c, _)) if c >= 0 => Some(c as u64),
        Some((_, at)) => {
            r.error(at, &t.key_path("count"), "a count is 0 or more");
            None
        }
        None => {
            r.error(t.at, &t.key_path("count"), "missing");
            None
        }
    };
    t.finish(r, &["fen", "moves", "depth", "count"]);
    Some(PerftLine { fen, moves, depth: depth?, count: count?, line })
}

/// The sides: for two, Black by `army.black`; for three to six, the
/// `[[side]]` tables. Returns the sides (empty for two), whether they play in
/// teams, and every symmetry with where it was written.
#[allow(clippy::type_complexity)]
fn read_sides(
    tables: Vec<Table>,
    black: Option<(&str, Loc, String)>,
    dims: [i8; 3],
    army_at: Loc,
    r: &mut Reader,
) -> (Vec<(SideDef, String)>, bool, Vec<(Mirror, Loc, String)>) {
    let mut maps = Vec::new();
    if tables.is_empty() {
        match black {
            Some((s, at, path)) => match board::symmetry(s, dims) {
                Ok(m) => maps.push((m, at, path)),
                Err(m) => r.error(at, &path, m),
            },
            None => r.error(
                army_at,
                "army.black",
                "missing: the symmetry that carries White's army onto Black's, as \"x -y -z\"",
            ),
        }
        return (Vec::new(), false, maps);
    }
    if let Some((_, at, path)) = black {
        r.error(at, &path, "a game with [[side]] tables gives each side's symmetry there");
    }
    if tables.len() < 3 || tables.len() > crate::multi::MAX_SIDES {
        r.error(
            tables[0].at,
            "side",
            format!("{} sides: [[side]] lists three to six (two play by army.black)", tables.len()),
        );
        return (Vec::new(), false, maps);
    }
    let mut sides = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for (i, mut t) in tables.into_iter().enumerate() {
        let letter = t.req_str("letter", r).and_then(|(s, at)| {
            let l = reader::letter(s).filter(|c| c.is_ascii_lowercase() && *c != '-');
            if l.is_none() {
                r.error(at, &t.key_path("letter"), "a side's letter is one lower-case letter");
            } else if sides.iter().any(|(s, _): &(SideDef, String)| Some(s.letter) == l) {
                r.error(at, &t.key_path("letter"), format!("two sides have the letter '{s}'"));
            }
            l
        });
        let name = t.req_str("name", r).map(|(s, _)| s.to_string());
        let map = t.req_str("map", r).and_then(|(s, at)| match board::symmetry(s, dims) {
            Ok(m) => {
                if i == 0 && m != Mirror::flips([false; 3]) {
                    r.error(at, &t.key_path("map"), "the first side plays the army as written: its map is \"x y z\"");
                }
                maps.push((m, at, t.key_path("map")));
                Some(m)
            }
            Err(m) => {
                r.error(at, &t.key_path("map"), m);
                None
            }
        });
        let label = match t.get("team") {
            None => format!("side {i}"),
            Some(Node { val: Val::Int(n), .. }) => n.to_string(),
            Some(Node { val: Val::Str(s), .. }) => s.clone(),
            Some(n) => {
                r.error(n.at, &t.key_path("team"), "a team is a number or a name");
                format!("side {i}")
            }
        };
        let team = labels.iter().position(|l| *l == label).unwrap_or(i) as u8;
        labels.push(label);
        t.finish(r, SIDE_KEYS);
        if let (Some(letter), Some(name), Some(map)) = (letter, name, map) {
            sides.push((SideDef { letter, name: "", map, team }, name));
        }
    }
    let teams = sides.iter().enumerate().any(|(i, (s, _))| s.team as usize != i);
    (sides, teams, maps)
}

#[cfg(test)]
mod tests;
