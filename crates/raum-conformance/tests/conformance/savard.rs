//! Savard's boards for two players (seed 001; RULES.md's reconstructions):
//! `wing-table`, `wing-table-alt`, `forced-3d`, `triquetral`. The seed's
//! move figures, cell counts and start counts, perft against the naive
//! reference (`naive_savard`, written from RULES.md alone) from every start
//! and from random-game positions, and each special rule: the king
//! restricted in check, pawns promoting inside the centre, the stalemate
//! that is not a draw, and bad position strings.

use raum_conformance::naive_savard::{self, SavardPosition};
use raum_notation::{format_move, format_position, parse_position};
use raum_rules::{Color, Outcome, Piece, Points, Position, Setup, Variant, VariantFn, VariantId, Width};

const BOARDS: [VariantId; 4] =
    [VariantId::WingTable, VariantId::WingTableAlt, VariantId::Forced3d, VariantId::Triquetral];

/// What a test asks of the fast generator, at whatever width the board has.
enum Ask<'a> {
    /// The sorted legal moves of a position string.
    Moves(&'a str),
    /// Perft of a position string.
    Perft(&'a str, u32),
    /// The position string of the given men (cell, letter) with `side` to move.
    Place(&'a [(&'a str, char)], Color),
    /// The start position string.
    Start,
    /// The cell count.
    Cells,
    /// The outcome of a position string, as text.
    Outcome(&'a str),
}

enum Answer {
    Moves(Vec<String>),
    Number(u64),
    Text(String),
}

impl VariantFn for Ask<'_> {
    type Output = Result<Answer, String>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let pos = |fen: &str| parse_position(v, fen).map_err(|e| e.to_string());
        Ok(match self {
            Ask::Moves(fen) => {
                let p = pos(fen)?;
                let mut m: Vec<String> = p.legal_moves().iter().map(|&m| format_move(v, m)).collect();
                m.sort();
                Answer::Moves(m)
            }
            Ask::Perft(fen, depth) => Answer::Number(pos(fen)?.perft(depth)),
            Ask::Place(men, side) => {
                let mut setup = Setup::empty(v.cells());
                setup.side = side;
                for &(name, letter) in men {
                    let cell = v.parse_cell(name).ok_or(format!("{name} is not a cell"))?;
                    let kind = v.kind_of(letter.to_ascii_uppercase()).ok_or(format!("no piece {letter}"))?;
                    let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
                    setup.board[cell] = Some(Piece::new(color, kind));
                }
                Answer::Text(format_position(&Position::from_setup(v, setup).map_err(|e| e.to_string())?))
            }
            Ask::Start => Answer::Text(format_position(&Position::start(v))),
            Ask::Cells => Answer::Number(v.cells() as u64),
            Ask::Outcome(fen) => Answer::Text(pos(fen)?.outcome().map_or("none".into(), |o| o.to_string())),
        })
    }
}

fn ask(id: VariantId, q: Ask<'_>) -> Answer {
    id.dispatch(q).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn moves(id: VariantId, fen: &str) -> Vec<String> {
    match ask(id, Ask::Moves(fen)) {
        Answer::Moves(m) => m,
        _ => unreachable!(),
    }
}

fn number(id: VariantId, q: Ask<'_>) -> u64 {
    match ask(id, q) {
        Answer::Number(n) => n,
        _ => unreachable!(),
    }
}

fn text(id: VariantId, q: Ask<'_>) -> String {
    match ask(id, q) {
        Answer::Text(t) => t,
        _ => unreachable!(),
    }
}

fn place(id: VariantId, men: &[(&str, char)], side: Color) -> String {
    text(id, Ask::Place(men, side))
}

/// The moves of the man on `from`, as destinations (promotions once each).
fn targets(id: VariantId, fen: &str, from: &str) -> Vec<String> {
    let mut t: Vec<String> = moves(id, fen)
        .iter()
        .filter_map(|m| m.strip_prefix(&format!("{from}-")).map(|t| t.split('=').next().unwrap_or(t).to_string()))
        .collect();
    t.sort();
    t.dedup();
    t
}

#[test]
fn cell_counts_and_start_move_counts() {
    for (id, cells, start) in [
        (VariantId::WingTable, 156, 20),
        (VariantId::WingTableAlt, 156, 12),
        (VariantId::Forced3d, 112, 12),
        (VariantId::Triquetral, 173, 22),
    ] {
        assert_eq!(number(id, Ask::Cells), cells, "{id}");
        let fen = text(id, Ask::Start);
        assert_eq!(moves(id, &fen).len(), start, "{id}");
        // The reference builds its start from RULES.md on its own.
        let naive = SavardPosition::start(id.name()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(naive.fen(), fen, "{id}: the two starts differ");
    }
}

#[test]
fn start_positions_are_rules_md_arrays() {
    // Wing Table: White on wing files b-e, the Airman army; Black turned 180
    // degrees about the vertical axis, so the kings face across the board
    // diagonally and the queens do not share a file.
    let wing = text(VariantId::WingTable, Ask::Start);
    assert_eq!(
        wing,
        "rnnr|baab|pppp|6|6|6|6|6|6|PPPP|BAAB|RNNR/ukqu|pppp|6|6|6|6|6|6|PPPP|UQKU/pppp|6|6|6|6|6|6|PPPP w - - 0 1"
    );
    let alt = text(VariantId::WingTableAlt, Ask::Start);
    assert_eq!(alt, wing.replace("baab", "buub").replace("BAAB", "BUUB"));
    // Forced 3D: Black's pawns stand in vertical columns on rank 8.
    assert_eq!(
        text(VariantId::Forced3d, Ask::Start),
        "r|bu|ppp|4|4|4|4|PPPP|BUUB|RNNR/n|uq|ppp|4|4|4|4|PPPP|UQKU/n|uk|ppp|4|4|4|4|PPPP/r|bu|ppp|4|4|4|4 w - - 0 1"
    );
    // Triquetral: levels 4-8, White's queen on 6c2 and Black's on 6c10.
    assert_eq!(
        text(VariantId::Triquetral, Ask::Start),
        "5|5|5|5|5/pppp|5|5|5|5|5|PPPP|BAAB|RNNR/ukqu|pppp|5|5|5|5|5|PPPP|UQKU/rnnr|baab|pppp|5|5|5|5|5|PPPP/5|5|5|5|5 w - - 0 1"
    );
}

/// Perft from the starts, held by the naive reference too (which agrees to
/// depth 4 in `perft_agrees_with_the_naive_reference_from_every_start`).
const START_PERFT: [(VariantId, [u64; 4]); 4] = [
    (VariantId::WingTable, [20, 400, 9_060, 205_208]),
    (VariantId::WingTableAlt, [12, 144, 2_340, 38_024]),
    (VariantId::Forced3d, [12, 144, 2_340, 38_023]),
    (VariantId::Triquetral, [22, 484, 12_254, 310_248]),
];

#[test]
fn perft_agrees_with_the_naive_reference_from_every_start() {
    for (id, counts) in START_PERFT {
        let fen = text(id, Ask::Start);
        let naive = SavardPosition::parse(id.name(), &fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (d, &n) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(number(id, Ask::Perft(&fen, depth)), n, "{id} perft({depth})");
            assert_eq!(naive_savard::perft(&naive, depth), n, "{id} naive perft({depth})");
        }
    }
}

/// Perft 1-3 from random-game positions, as the reference counted them.
const GAME_PERFT: [(VariantId, &str, [u64; 3]); 8] = [
    (
        VariantId::WingTable,
        "rnnr|b1ab|pppp|6|6|6|6|4B1|2P3|P1PP|2AB|RNNR/ukqu|p1pp|2p3|6|6|6|6|4A1|PPPP|UQKU/p1pp|1ap3|6|6|6|6|6|PPPP w - - 0 4",
        [41, 1191, 49601],
    ),
    (
        VariantId::WingTable,
        "rnnr|ba1b|pp1p|3p2|6|6|6|6|6|PPPP|B2B|RNNR/ukqu|p1pp|6|2p3|6|6|6|1P2AA|1PPP|UQKU/pppp|4a1|6|6|6|2P3|4P1|P1P1 w - - 2 7",
        [29, 1015, 33248],
    ),
    (
        VariantId::WingTableAlt,
        "rnnr|buub|p1pp|2p3|6|6|6|6|6|PPPP|BUUB|RN1R/ukqu|pppp|6|6|6|6|6|3PP1|PPN1|UQKU/2pp|1pp3|6|6|6|6|6|PPPP w - - 0 4",
        [29, 696, 21960],
    ),
    (
        VariantId::WingTableAlt,
        "rnnr|b1u1|pp1p|3p2|1b4|6|6|6|1P1N2|1PPP|RUUB|2NR/ukqu|pp1p|3p2|6|6|6|6|1P4|1PPP|UQKU/pp1p|4u1|3p2|6|6|6|1B4|PPPP w - - 4 7",
        [41, 1845, 79820],
    ),
    (
        VariantId::Forced3d,
        "r|bu|ppp|4|4|4|2P1|PP1P|BUUB|RNNR/n|uq|pkp|1p2|4|4|P1P1|1P1P|UQKU/n|u1|ppp|4|4|4|4|PPPP/r|bu|1pp|p3|4|4|4 w - - 1 4",
        [30, 716, 24091],
    ),
    (
        VariantId::Forced3d,
        "r|bu|ppp|4|4|4|PPP1|2KP|BUUB|RNNR/n|u1|p1p|1p2|4|4|P3|1PPP|UQ1U/n|uk|1p1|p1p1|3q|4|3P|PPP1/r|bu|ppp|4|4|4|4 w - - 2 7",
        [30, 1558, 47466],
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|5|5|5|1P3|1PPP|B2B|RNNR/ukqu|pppp|5|5|5|5|5|PPPP|UQKU/rnnr|ba1b|ppp1|3p1|3a1|5|5|1AA2|PPPP/5|5|5|5|5 w - - 1 4",
        [32, 832, 29519],
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|5|5|5|1P3|1PPP|BAAB|RNNR/uk1u|pppp|4a|5|5|2a2|5|PPPP|U1KU/rnnr|b2b|ppp1|3p1|5|5|1Q3|1P2P|1PP1/4q|5|5|5|5 w - - 1 7",
        [65, 4102, 250170],
    ),
];

#[test]
fn perft_agrees_with_the_reference_on_random_game_positions() {
    for (id, fen, counts) in GAME_PERFT {
        let naive = SavardPosition::parse(id.name(), fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (d, &n) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(number(id, Ask::Perft(fen, depth)), n, "{id} perft({depth}) of {fen}");
            if depth < 3 {
                assert_eq!(naive_savard::perft(&naive, depth), n, "{id} naive perft({depth}) of {fen}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The seed's figures: the Airman and the Unicorn from the middle of a 5x5x5
// block (the Triquetral centre, levels 4-8, files a-e, ranks 4-8).
// ---------------------------------------------------------------------------

/// Seed 001's Airman figure: five levels, each five text rows; a row's
/// characters stand at even columns, column 2k being file k. The extracted
/// text lost the empty cells of some rows, so a row is read as far as it goes.
const AIRMAN: &str = "\
-   -   -
  a   a
-   -   -
  a   a
-   -   -

a -   - a
-   -   -
  -   -
-   -   -
a -   - a

-   -   -
  -   -
-   A   -
  -   -
-   -   -

a -   - a
-   -   -
  -   -
-   -   -
a -   - a

-   -   -
  a   a
-   -   -
  a   a
-   -   -";

/// Seed 001's Unicorn figure, read the same way.
const UNICORN: &str = "\
b   -   b
  -   -
-   -   -
  -   -
b   -   b

  -   -
- b - b -
  -   -
- b - b -
  -   -

-   -   -
  -   -
-   B   -
  -   -
-   -   -

  -   -
- b - b -
  -   -
- b - b -
  -   -

b   -   b
  -   -
-   -   -
  -   -
b   -   b";

/// The marked cells of a figure level by level, as offsets from its middle
/// (file, rank, level), the figure's first level taken as the highest and
/// its first row as the farthest rank.
fn figure_marks(fig: &str, mark: char) -> Vec<(i8, i8, i8)> {
    let mut out = Vec::new();
    for (level, block) in fig.split("\n\n").enumerate() {
        for (row, line) in block.lines().enumerate() {
            for (col, ch) in line.chars().enumerate() {
                if ch == mark {
                    assert!(col % 2 == 0, "odd column in {line:?}");
                    out.push((col as i8 / 2 - 2, 2 - row as i8, 2 - level as i8));
                }
            }
        }
    }
    out.sort();
    out
}

/// A lone White `piece` on 6c6 (the Triquetral centre's middle), the kings
/// out of its way: its destinations as offsets from 6c6.
fn reach(piece: char) -> Vec<(i8, i8, i8)> {
    let id = VariantId::Triquetral;
    let fen = place(id, &[("6c6", piece), ("5b1", 'K'), ("7d11", 'k')], Color::White);
    let mut out: Vec<(i8, i8, i8)> = targets(id, &fen, "6c6")
        .iter()
        .map(|t| {
            let level: i8 = t[..1].parse().unwrap_or(0);
            let file = t.as_bytes()[1] as i8 - b'a' as i8;
            let rank: i8 = t[2..].parse().unwrap_or(0);
            (file - 2, rank - 6, level - 6)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn unicorn_figure_is_exact_within_the_block() {
    let marks = figure_marks(UNICORN, 'b');
    assert_eq!(marks.len(), 16);
    let within: Vec<_> =
        reach('U').into_iter().filter(|&(x, y, z)| x.abs() <= 2 && y.abs() <= 2 && z.abs() <= 2).collect();
    assert_eq!(within, marks);
}

#[test]
fn airman_figure_as_far_as_the_text_kept_it() {
    // The middle three levels are whole in the text: the (1,2,2)-leaper's
    // four cells one level away at (+-2, +-2), none on its own level.
    let marks = figure_marks(AIRMAN, 'a');
    let middle: Vec<_> = marks.iter().copied().filter(|m| m.2.abs() <= 1).collect();
    let airman = reach('A');
    let airman_middle: Vec<_> = airman.iter().copied().filter(|m| m.2.abs() <= 1).collect();
    assert_eq!(airman_middle, middle);
    // Two levels away the extracted rows lost cells: the text shows four
    // marks a level where the seed's words ("a 1-2-2 leaper") give eight,
    // (+-1, +-2) and (+-2, +-1). RULES.md follows the words.
    assert_eq!(marks.iter().filter(|m| m.2.abs() == 2).count(), 8);
    let far: Vec<_> = airman.iter().copied().filter(|m| m.2.abs() == 2).collect();
    assert_eq!(far.len(), 16);
    assert!(far.iter().all(|&(x, y, _)| (x.abs(), y.abs()) == (1, 2) || (x.abs(), y.abs()) == (2, 1)));
    assert_eq!(airman.len(), 24);
}

// ---------------------------------------------------------------------------
// The special rules.
// ---------------------------------------------------------------------------

#[test]
fn a_king_in_check_steps_only_orthogonally_but_captures_all_round() {
    let id = VariantId::WingTable;
    // The rook on 2c9 checks along the c file; a pawn on 1b6 (a 2D diagonal
    // away) and a knight on 3d7 (a 3D diagonal away) stand to be taken.
    let men = [("2c6", 'K'), ("2c9", 'r'), ("1b6", 'p'), ("3d7", 'n'), ("1e12", 'k')];
    let fen = place(id, &men, Color::White);
    assert_eq!(targets(id, &fen, "2c6"), ["1b6", "1c6", "2b6", "2d6", "3c6", "3d7"]);
    // Out of check the same king steps diagonally too.
    let free = place(id, &[("2c6", 'K'), ("1b6", 'p'), ("3d7", 'n'), ("1e12", 'k')], Color::White);
    let t = targets(id, &free, "2c6");
    for diagonal in ["2b5", "2d7", "3b7", "1d5", "3d5"] {
        assert!(t.iter().any(|c| c == diagonal), "{diagonal} missing out of check: {t:?}");
    }
    // The reference agrees on both.
    for f in [&fen, &free] {
        assert_eq!(SavardPosition::parse(id.name(), f).map(|p| p.legal_moves()), Ok(moves(id, f)));
    }
}

#[test]
fn a_king_in_check_cannot_take_a_man_its_enemy_king_guards_diagonally() {
    // As above, but Black's king on 1a5 guards the pawn on 1b6 along a 2D
    // diagonal and 2b6 along a 3D one: the restriction in check is on the
    // checked king's own quiet moves, never on what a king attacks.
    let id = VariantId::WingTable;
    let men = [("2c6", 'K'), ("2c9", 'r'), ("1b6", 'p'), ("3d7", 'n'), ("1a5", 'k')];
    let fen = place(id, &men, Color::White);
    assert_eq!(targets(id, &fen, "2c6"), ["1c6", "2d6", "3c6", "3d7"]);
    assert_eq!(SavardPosition::parse(id.name(), &fen).map(|p| p.legal_moves()), Ok(moves(id, &fen)));
}

#[test]
fn pawns_promote_inside_the_centre_where_their_file_ends() {
    // Wing Table files a and f end at rank 9 (the wings hold files b-e).
    let id = VariantId::WingTable;
    let fen = place(id, &[("1a8", 'P'), ("3f8", 'P'), ("2c2", 'K'), ("2d11", 'k')], Color::White);
    let m = moves(id, &fen);
    for file in ["1a8-1a9", "3f8-3f9"] {
        let promotions: Vec<_> = m.iter().filter(|x| x.starts_with(file)).collect();
        assert_eq!(promotions.len(), 6, "{file}: {promotions:?}");
        assert!(promotions.iter().all(|x| x.contains('=')), "{file}: {promotions:?}");
    }
    // Without Airmen in the army there are five choices.
    let alt = place(VariantId::WingTableAlt, &[("1a8", 'P'), ("2c2", 'K'), ("2d11", 'k')], Color::White);
    assert_eq!(moves(VariantId::WingTableAlt, &alt).iter().filter(|x| x.starts_with("1a8-1a9=")).count(), 5);
    // On level 3 a b-e file ends at rank 10, Black's pawn rank there.
    let deep = place(id, &[("3c9", 'P'), ("2c2", 'K'), ("2d11", 'k')], Color::White);
    assert_eq!(moves(id, &deep).iter().filter(|x| x.starts_with("3c9-3c10=")).count(), 6);
    // Black's pawns promote going down, here where file a ends at rank 4.
    let black = place(id, &[("1a5", 'p'), ("2c2", 'K'), ("2d11", 'k')], Color::Black);
    assert_eq!(moves(id, &black).iter().filter(|x| x.starts_with("1a5-1a4=")).count(), 6);
}

#[test]
fn stalemate_scores_three_fifths_for_the_side_that_gives_it() {
    // Black's king in the corner of White's wing, 1b1: White's queen on 1c3
    // covers its five neighbours (1c1, 1b2, 1c2, 2b2, 2c2) but not 1b1.
    let id = VariantId::WingTable;
    let fen = place(id, &[("1b1", 'k'), ("1c3", 'Q'), ("2e3", 'K')], Color::Black);
    assert!(moves(id, &fen).is_empty(), "{fen}: {:?}", moves(id, &fen));
    assert_eq!(text(id, Ask::Outcome(&fen)), "3/5-2/5 (White stalemates)");
    let o = Outcome::Stalemate { winner: Color::White };
    assert_eq!((o.points(Color::White), o.points(Color::Black)), (Points::THREE_FIFTHS, Points::TWO_FIFTHS));
}

#[test]
fn bad_position_strings_are_errors() {
    let id = VariantId::WingTable;
    let start = text(id, Ask::Start);
    let parse = |fen: &str| id.dispatch(Ask::Moves(fen)).err();
    // A rank with more cells than the board has there (rank 1 of level 1 has four).
    let wide = start.replacen("RNNR", "RNNRR", 1);
    assert!(parse(&wide).is_some_and(|e| e.contains("rank")), "{wide}");
    // A level too many.
    assert!(parse(&start.replacen(" w ", "/6 w ", 1)).is_some());
    // A pawn where it has no forward step (1a9: file a ends at rank 9).
    let stuck = place_err(id, &[("1a9", 'P'), ("2c2", 'K'), ("2d11", 'k')]);
    assert!(stuck.contains("promotion cell 1a9"), "{stuck}");
    // A side without a king.
    let kingless = place_err(id, &[("2c2", 'K'), ("2d6", 'q')]);
    assert!(kingless.contains("no king"), "{kingless}");
    // Cells that are not on the board.
    for cell in ["1a3", "3b2", "4c5", "1g5", "1a13", "0a5", "2c0"] {
        assert!(cell_on(id, cell).is_none(), "{cell} should not exist");
    }
    assert!(cell_on(VariantId::Triquetral, "3c5").is_none());
    assert!(cell_on(VariantId::Triquetral, "4c5").is_some());
    assert!(cell_on(VariantId::Forced3d, "4a10").is_some());
    assert!(cell_on(VariantId::Forced3d, "4d10").is_none());
    // The reference refuses the same strings.
    assert!(SavardPosition::parse(id.name(), &wide).is_err());
}

fn place_err(id: VariantId, men: &[(&str, char)]) -> String {
    match id.dispatch(Ask::Place(men, Color::White)) {
        Err(e) => e,
        Ok(_) => panic!("{men:?} was accepted"),
    }
}

fn cell_on(id: VariantId, name: &str) -> Option<usize> {
    struct Cell<'a>(&'a str);
    impl VariantFn for Cell<'_> {
        type Output = Option<usize>;
        fn call<S: Width>(self, v: &'static Variant<S>) -> Option<usize> {
            v.parse_cell(self.0)
        }
    }
    id.dispatch(Cell(name))
}

#[test]
fn every_board_is_labelled_a_reconstruction() {
    for id in BOARDS {
        struct Label;
        impl VariantFn for Label {
            type Output = (bool, String);
            fn call<S: Width>(self, v: &'static Variant<S>) -> (bool, String) {
                let p = Position::start(v);
                (v.is_reconstruction(), raum_notation::render_diagram(v, &p.to_setup(), None))
            }
        }
        let (flag, diagram) = id.dispatch(Label);
        assert!(flag, "{id}");
        assert!(diagram.contains(raum_notation::RECONSTRUCTION_NOTE), "{id}");
    }
    assert!(!Variant::get(VariantId::FiveUp).is_reconstruction());
}
