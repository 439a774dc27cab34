//! Savard's multi-player forms (seed 001; RULES.md "Savard's multi-player
//! forms" and "Savard's boards"): `wing-table-4p`, `triquetral-3p` and
//! `triquetral-6p`. The starts against RULES.md and against the naive
//! reference (`naive_multi`, written from RULES.md alone), perft, a
//! differential run over seeded random games, make/unmake and hash
//! properties along those games, each special rule of the multi-player
//! forms (enemy kings never taken, gaps, partners, sides leaving, team and
//! every-side-for-itself scores, draws), and bad input.

use std::collections::BTreeMap;
use std::time::Instant;

use raum_bitboard::Wide;
use raum_conformance::naive_multi::{self, MultiNaive};
use raum_conformance::rng::Rng;
use raum_notation::{format_multi_move, format_multi_position, parse_multi_move, parse_multi_position};
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{DrawReason, MultiFn, Points, Width};
use raum_rules::{End, GameResult};

/// Runs a function generic over the cell width on game `$id` at its width
/// (the first argument passed is the built game).
macro_rules! on {
    ($id:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $id {
            MultiId::Triquetral6p => $f(MultiVariant::<Wide<8>>::at_width(MultiId::Triquetral6p) $(, $arg)*),
            id => $f(MultiVariant::<Wide<4>>::at_width(id) $(, $arg)*),
        }
    };
}

type W4 = Wide<4>;
type W8 = Wide<8>;

fn four() -> &'static MultiVariant<W4> {
    MultiVariant::<W4>::at_width(MultiId::WingTable4p)
}

fn three() -> &'static MultiVariant<W4> {
    MultiVariant::<W4>::at_width(MultiId::Triquetral3p)
}

fn six() -> &'static MultiVariant<W8> {
    MultiVariant::<W8>::at_width(MultiId::Triquetral6p)
}

/// Perft from the starts (RULES.md: a side with no move is a leaf), as the
/// naive reference counts them.
const START_PERFT: [(MultiId, [u64; 4]); 3] = [
    (MultiId::WingTable4p, [20, 401, 8_040, 161_602]),
    (MultiId::Triquetral3p, [22, 465, 9_894, 250_617]),
    (MultiId::Triquetral6p, [22, 484, 9_858, 200_722]),
];

// ---------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------

fn cell<S: Width>(v: &MultiVariant<S>, name: &str) -> usize {
    v.board().parse_cell(name).unwrap_or_else(|| panic!("{}: {name} is not a cell", v.id()))
}

fn side<S: Width>(v: &MultiVariant<S>, letter: char) -> usize {
    v.side_of(letter).unwrap_or_else(|| panic!("{}: no side {letter}", v.id()))
}

/// The man on `name` as two letters (`wK`).
fn man<S: Width>(p: &MultiPosition<S>, name: &str) -> Option<String> {
    let v = p.variant();
    p.man_at(cell(v, name)).map(|(s, k)| format!("{}{}", v.sides()[s].letter, v.board().piece_def(k).letter))
}

fn pos<S: Width>(v: &'static MultiVariant<S>, fen: &str) -> MultiPosition<S> {
    parse_multi_position(v, fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.id()))
}

fn naive(id: MultiId, fen: &str) -> MultiNaive {
    MultiNaive::parse(id.name(), fen).unwrap_or_else(|e| panic!("{id}: naive: {fen}: {e}"))
}

/// The sorted legal moves in coordinates.
fn moves<S: Width>(p: &MultiPosition<S>) -> Vec<String> {
    let mut m: Vec<String> = p.legal_moves().iter().map(|&m| format_multi_move(p.variant(), m)).collect();
    m.sort();
    m
}

/// The destinations of the man on `from` (promotions once each).
fn dests<S: Width>(p: &MultiPosition<S>, from: &str) -> Vec<String> {
    let mut d: Vec<String> = moves(p)
        .iter()
        .filter_map(|m| m.strip_prefix(&format!("{from}-")).map(|t| t.split('=').next().unwrap_or(t).to_string()))
        .collect();
    d.sort();
    d.dedup();
    d
}

fn play<S: Width>(g: &mut MultiGame<S>, mv: &str) {
    let m = parse_multi_move(g.position(), mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", format_multi_position(g.position())));
    g.play(m).unwrap_or_else(|_| panic!("{mv} refused in {}", format_multi_position(g.position())));
}

/// The position string with `side` to move in place of the one given.
fn with_mover(fen: &str, side: char) -> String {
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    f[1] = side.to_string();
    f.join(" ")
}

/// One level of [`raw`]'s layout: rank (highest first) -> [(file, cell name)].
type Ranks<'a> = BTreeMap<std::cmp::Reverse<u32>, Vec<(char, &'a str)>>;

/// A position string written straight from the board's cell list, as the
/// naive reference lists the cells (level ascending; each level's ranks from
/// the highest; each rank's files from a): no fast code involved, and no
/// check that the men make a legal position.
fn raw(id: MultiId, men: &[(&str, &str)], side: char, clocks: (u32, u32)) -> String {
    let start = MultiNaive::start(id.name()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let names = start.cell_names();
    for (name, _) in men {
        assert!(names.iter().any(|n| n == name), "{id}: {name} is not a cell");
    }
    // level -> rank (descending) -> [(file, name)]
    let mut levels: BTreeMap<u32, Ranks> = BTreeMap::new();
    for n in &names {
        let at = n.find(|c: char| c.is_ascii_lowercase()).expect("a file letter");
        let level: u32 = n[..at].parse().expect("level");
        let file = n[at..].chars().next().expect("file");
        let rank: u32 = n[at + 1..].parse().expect("rank");
        levels.entry(level).or_default().entry(std::cmp::Reverse(rank)).or_default().push((file, n));
    }
    let board: Vec<String> = levels
        .values()
        .map(|ranks| {
            ranks
                .values()
                .map(|cells| {
                    let mut cells = cells.clone();
                    cells.sort();
                    let mut out = String::new();
                    let mut empty = 0;
                    for (_, name) in cells {
                        match men.iter().find(|(n, _)| *n == name) {
                            Some((_, m)) => {
                                if empty > 0 {
                                    out += &empty.to_string();
                                    empty = 0;
                                }
                                out += m;
                            }
                            None => empty += 1,
                        }
                    }
                    if empty > 0 {
                        out += &empty.to_string();
                    }
                    out
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    format!("{} {side} - - {} {}", board.join("/"), clocks.0, clocks.1)
}

/// `raw` read by both generators, which must agree on the string.
fn setup<S: Width>(v: &'static MultiVariant<S>, men: &[(&str, &str)], side: char) -> MultiPosition<S> {
    setup_clocks(v, men, side, (0, 1))
}

fn setup_clocks<S: Width>(
    v: &'static MultiVariant<S>,
    men: &[(&str, &str)],
    side: char,
    clocks: (u32, u32),
) -> MultiPosition<S> {
    let fen = raw(v.id(), men, side, clocks);
    let p = pos(v, &fen);
    assert_eq!(format_multi_position(&p), fen);
    assert_eq!(naive(v.id(), &fen).fen(), fen);
    p
}

/// The fast and naive legal moves agree on a position string.
fn agree<S: Width>(p: &MultiPosition<S>) -> Vec<String> {
    let fen = format_multi_position(p);
    let m = moves(p);
    assert_eq!(m, naive(p.variant().id(), &fen).legal_moves(), "{fen}");
    m
}

fn scores(list: &[u8]) -> Vec<Points> {
    list.iter().map(|&p| Points(p)).collect()
}

// ---------------------------------------------------------------------------
// 1. Starts.
// ---------------------------------------------------------------------------

/// What the start of a game looks like: cell count, position string, legal
/// moves, and the men on the asked cells.
struct StartFacts<'a>(&'a [&'a str]);

struct Facts {
    cells: usize,
    fen: String,
    moves: Vec<String>,
    men: Vec<Option<String>>,
    /// Per side in turn order: letter, men, kings, queens, pawns, first moves.
    sides: Vec<(char, usize, usize, usize, usize, usize)>,
}

impl MultiFn for StartFacts<'_> {
    type Output = Facts;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Facts {
        let p = MultiPosition::start(v);
        let b = v.board();
        let fen = format_multi_position(&p);
        let sides = (0..v.sides().len())
            .map(|s| {
                let mine: Vec<_> = p.men().into_iter().filter(|&(_, t, _)| t as usize == s).collect();
                let count = |k| mine.iter().filter(|&&(_, _, kind)| kind == k).count();
                let letter = v.sides()[s].letter;
                let first = pos(v, &with_mover(&fen, letter)).legal_moves().len();
                let pawn = b.pawn().expect("pawns");
                (letter, mine.len(), count(b.king()), count(b.kind_of('Q').expect("Q")), count(pawn), first)
            })
            .collect();
        Facts {
            cells: v.cells(),
            fen: fen.clone(),
            moves: moves(&p),
            men: self.0.iter().map(|c| man(&p, c)).collect(),
            sides,
        }
    }
}

/// A game, its cell count, its first-move count, its side letters in turn
/// order, and men on their start cells (`""`: empty).
type StartCase = (MultiId, usize, usize, &'static str, &'static [(&'static str, &'static str)]);

#[test]
fn starts_are_rules_md_arrays_and_the_references() {
    // (game, cells, first moves, sides in turn order, [(cell, man)])
    let cases: [StartCase; 3] = [
        (
            MultiId::WingTable4p,
            204,
            20,
            "wrkb",
            // White's king and queen as RULES.md puts them; the others are
            // White's turned: Black (13-x, 13-y, z), Red (y, 13-x, z), Blue
            // (13-y, x, z).
            &[
                ("2g2", "wK"),
                ("2f2", "wQ"),
                ("2f11", "kK"),
                ("2g11", "kQ"),
                ("2b6", "rK"),
                ("2b7", "rQ"),
                ("2k7", "bK"),
                ("2k6", "bQ"),
                ("1e1", "wR"),
                ("1a5", "rR"),
                ("3c8", "rP"),
                ("2e3", "wP"),
            ],
        ),
        (
            MultiId::Triquetral3p,
            197,
            22,
            "wbg",
            &[("6f2", "wQ"), ("6g2", "wK"), ("6b6", "bQ"), ("7b6", "bK"), ("2f6", "gQ"), ("2f7", "gK"), ("6f6", "")],
        ),
        (
            MultiId::Triquetral6p,
            269,
            22,
            "wkbrgy",
            &[
                ("6f2", "wQ"),
                ("6g2", "wK"),
                ("2f6", "gQ"),
                ("2f7", "gK"),
                ("10f6", "yQ"),
                ("10f5", "yK"),
                ("6f10", "kQ"),
                ("6e10", "kK"),
                ("6b6", "bQ"),
                ("7b6", "bK"),
                ("6j6", "rQ"),
                ("5j6", "rK"),
            ],
        ),
    ];
    for (id, cells, first, letters, men) in cases {
        let names: Vec<&str> = men.iter().map(|(c, _)| *c).collect();
        let facts = id.dispatch(StartFacts(&names));
        assert_eq!(facts.cells, cells, "{id}");
        assert_eq!(id.cells(), cells, "{id}");
        let reference = MultiNaive::start(id.name()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(reference.cell_count(), cells, "{id}");
        assert_eq!(facts.fen, reference.fen(), "{id}: the two starts differ");
        assert!(facts.fen.ends_with(" w - - 0 1"), "{}", facts.fen);
        assert_eq!(facts.moves.len(), first, "{id}: {:?}", facts.moves);
        assert_eq!(facts.moves, reference.legal_moves(), "{id}");
        for ((c, want), got) in men.iter().zip(&facts.men) {
            let want = (!want.is_empty()).then(|| want.to_string());
            assert_eq!(got, &want, "{id} {c}");
            assert_eq!(reference.piece_at(c), want, "{id} {c} (naive)");
        }
        // Every side: 24 men, one king, one queen, 12 pawns, and as many
        // first moves as White (its army is White's image).
        let got: String = facts.sides.iter().map(|s| s.0).collect();
        assert_eq!(got, letters, "{id}: turn order");
        for &(letter, n, kings, queens, pawns, moves) in &facts.sides {
            assert_eq!((n, kings, queens, pawns, moves), (24, 1, 1, 12, first), "{id} side {letter}");
        }
        assert_eq!(reference.sides_in().into_iter().collect::<String>(), letters, "{id}");
    }
    // The Triquetral's 3p board is the 6p board less the Black, Red and
    // Yellow wings: Green's and Yellow's queens face each other only on 6p.
    assert!(three().board().parse_cell("10f6").is_none());
    assert!(six().board().parse_cell("10f6").is_some());
    // And the position strings have 3, 8 and 11 levels.
    for (id, levels) in [(MultiId::WingTable4p, 3), (MultiId::Triquetral3p, 8), (MultiId::Triquetral6p, 11)] {
        let fen = id.dispatch(StartFacts(&[])).fen;
        assert_eq!(fen.split(' ').next().map(|b| b.split('/').count()), Some(levels), "{id}");
    }
}

#[test]
fn the_cells_rules_md_leaves_out_do_not_exist() {
    let v = four();
    // 1e1 -> 1d2 -> 1c3 -> 1b4 -> 1a5: the corners of two wings, no cells between.
    for name in ["1d2", "1c3", "1b4", "3e2", "2e1", "1a4", "1a9", "4e5", "0e5", "1m5", "1e13"] {
        assert!(v.board().parse_cell(name).is_none(), "wing-table-4p {name}");
    }
    for name in ["1e1", "1a5", "1a8", "3c8", "1l8", "3j8", "3h10", "1d4", "3i9"] {
        assert!(v.board().parse_cell(name).is_some(), "wing-table-4p {name}");
    }
    assert!(v.board().parse_cell("3i10").is_none());
    // The three-player board has no Red wing (files i-k) and no levels 9-11.
    assert!(three().board().parse_cell("5j6").is_none());
    assert!(six().board().parse_cell("5j6").is_some());
    assert!(three().board().parse_cell("3e6").is_some());
    assert!(three().board().parse_cell("9g6").is_none());
    assert!(six().board().parse_cell("11g7").is_some());
    assert!(six().board().parse_cell("11g8").is_none());
}

// ---------------------------------------------------------------------------
// 2. Perft.
// ---------------------------------------------------------------------------

fn fast_perft<S: Width>(v: &'static MultiVariant<S>, depth: u32) -> u64 {
    MultiPosition::start(v).perft(depth)
}

fn perft_agrees(max_depth: usize) {
    for (id, counts) in START_PERFT {
        let reference = MultiNaive::start(id.name()).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (d, &n) in counts.iter().enumerate().take(max_depth) {
            let depth = d as u32 + 1;
            let t = Instant::now();
            let fast = on!(id, fast_perft(depth));
            let tf = t.elapsed();
            let t = Instant::now();
            let slow = naive_multi::perft(&reference, depth);
            println!("{id} perft({depth}): fast {fast} ({tf:.2?}), naive {slow} ({:.2?})", t.elapsed());
            assert_eq!(fast, slow, "{id} perft({depth}): fast against naive");
            assert_eq!(fast, n, "{id} perft({depth})");
        }
    }
}

#[test]
fn perft_agrees_with_the_naive_reference_to_depth_3() {
    perft_agrees(3);
}

#[test]
#[ignore = "slow: perft(4) of the naive reference (run with --ignored --nocapture)"]
fn perft_agrees_with_the_naive_reference_to_depth_4() {
    perft_agrees(4);
}

// ---------------------------------------------------------------------------
// 3 and 4. Random games: the naive reference, and properties.
// ---------------------------------------------------------------------------

/// Longest random game before a new one starts.
const MAX_PLIES: usize = 250;

/// What a walk saw.
#[derive(Debug, Default)]
struct Walk {
    positions: usize,
    games: usize,
    sides_removed: usize,
    checks: usize,
    captures: usize,
    promotions: usize,
    ends: BTreeMap<String, usize>,
}

/// Plays seeded random games of `v` (moves drawn uniformly among the legal
/// ones) through [`MultiGame`], so that every side for itself a side with no
/// legal move is taken out, until `positions` positions have been seen; each
/// is handed to `visit` with the naive reference's position, which follows
/// the same moves (and [`MultiNaive::eliminate`] for each side taken out)
/// when `with_naive` is set.
fn walk<S: Width>(
    v: &'static MultiVariant<S>,
    seed: u64,
    positions: usize,
    with_naive: bool,
    mut visit: impl FnMut(&MultiPosition<S>, Option<&MultiNaive>, &mut Rng),
) -> Walk {
    let mut rng = Rng::new(seed);
    let mut w = Walk::default();
    while w.positions < positions {
        w.games += 1;
        let mut game = MultiGame::new(MultiPosition::start(v));
        let mut reference = with_naive.then(|| MultiNaive::start(v.id().name()).expect("start"));
        let mut plies = 0;
        loop {
            let p = game.position();
            w.positions += 1;
            w.checks += usize::from(p.is_check());
            visit(p, reference.as_ref(), &mut rng);
            if let Some(o) = game.outcome() {
                *w.ends.entry(format!("{:?}", o.end)).or_default() += 1;
                break;
            }
            if w.positions >= positions || plies >= MAX_PLIES {
                break;
            }
            let list = p.legal_moves();
            assert!(!list.is_empty(), "{}: no move but no outcome: {}", v.id(), format_multi_position(p));
            let m = list[rng.below(list.len())];
            let text = format_multi_move(v, m);
            w.captures += usize::from(p.man_at(m.to()).is_some());
            w.promotions += usize::from(m.promotion().is_some());
            let before = game.removed().len();
            game.play(m).unwrap_or_else(|_| panic!("{text} refused"));
            plies += 1;
            if let Some(r) = reference.as_mut() {
                *r = r.play(&text).unwrap_or_else(|e| panic!("{}: naive refuses {text}: {e}", v.id()));
                for &(at, out) in &game.removed()[before..] {
                    assert_eq!(at, game.moves().len());
                    assert_eq!(r.side_to_move(), v.sides()[out].letter, "{}", r.fen());
                    assert!(r.legal_moves().is_empty(), "{}: fast took out a side with moves: {}", v.id(), r.fen());
                    *r = r.eliminate();
                    w.sides_removed += 1;
                }
            }
        }
    }
    w
}

/// Positions per game in the normal suite, and in the ignored long run.
const DIFF_POSITIONS: usize = 10_000;
const DIFF_POSITIONS_LONG: usize = 50_000;

/// At every position: the same position string, the same sorted legal moves,
/// the same check (for the side to move and, asked with each other side to
/// move, for every side still in), and perft(2) now and then.
fn differential<S: Width>(v: &'static MultiVariant<S>, seed: u64, positions: usize) -> Walk {
    let id = v.id();
    let mut n = 0usize;
    let w = walk(v, seed, positions, true, |p, r, _| {
        let r = r.expect("reference");
        let fen = format_multi_position(p);
        assert_eq!(fen, r.fen(), "{id}: position strings differ");
        let m = moves(p);
        assert_eq!(m, r.legal_moves(), "{id}: legal moves differ in {fen}");
        assert_eq!(p.is_check(), r.in_check(), "{id}: check differs in {fen}");
        let letters: String = p.sides_in().iter().map(|&s| v.sides()[s].letter).collect();
        assert_eq!(letters, r.sides_in().into_iter().collect::<String>(), "{id}: {fen}");
        for s in p.sides_in() {
            if s != p.side_to_move() {
                let other = naive(id, &with_mover(&fen, v.sides()[s].letter));
                assert_eq!(p.king_attacked(s), other.in_check(), "{id}: side {s} attacked? {fen}");
            }
        }
        n += 1;
        if n.is_multiple_of(250) {
            let q = p.clone();
            assert_eq!(q.perft(2), naive_multi::perft(r, 2), "{id}: perft(2) of {fen}");
        }
    });
    println!(
        "{id}: {} positions in {} games; {} checks, {} captures, {} promotions, {} sides taken out; ends {:?}",
        w.positions, w.games, w.checks, w.captures, w.promotions, w.sides_removed, w.ends
    );
    w
}

fn differential_all(positions: usize) {
    let t0 = Instant::now();
    for (i, id) in MultiId::ALL.into_iter().enumerate() {
        let t = Instant::now();
        let w = on!(id, differential(0x5A7A_3D00 + i as u64, positions));
        assert_eq!(w.positions, positions, "{id}");
        println!("{id}: differential {:.2?}", t.elapsed());
    }
    println!("differential, all three: {:.2?}", t0.elapsed());
}

#[test]
fn random_games_agree_with_the_naive_reference() {
    differential_all(DIFF_POSITIONS);
}

#[test]
#[ignore = "long: 50,000 random-game positions per game against the naive reference"]
fn random_games_agree_with_the_naive_reference_long() {
    differential_all(DIFF_POSITIONS_LONG);
}

/// At every position: the string reads back to the same position and hash
/// and writes back the same; the hash is the one computed from scratch; and
/// for every legal move, play then unplay restores the position, its hash
/// and its bitboards, the position after it matches `play_copy`, its hash is
/// the computed one, and the mover's king is not left attacked; some moves'
/// text reads back to the move.
fn properties<S: Width>(v: &'static MultiVariant<S>, seed: u64, positions: usize) -> Walk {
    let id = v.id();
    let sides = v.sides().len();
    let bitboards = |p: &MultiPosition<S>| {
        let mut out: Vec<Vec<usize>> = (0..sides).map(|s| p.side_cells(s).cells().collect()).collect();
        out.push(p.occupied().cells().collect());
        out
    };
    walk(v, seed, positions, false, |p, _, rng| {
        let fen = format_multi_position(p);
        let back = pos(v, &fen);
        assert_eq!(&back, p, "{id}: {fen}");
        assert_eq!(back.hash(), p.hash(), "{id}: {fen}");
        assert_eq!(format_multi_position(&back), fen, "{id}");
        assert_eq!(p.hash(), p.compute_hash(), "{id}: incremental hash in {fen}");
        // The bitboards say what the mailbox says.
        let mut by_side = vec![Vec::new(); sides];
        for (c, s, _) in p.men() {
            by_side[s as usize].push(c);
        }
        let mut expect = by_side.clone();
        expect.push(p.men().iter().map(|m| m.0).collect());
        assert_eq!(bitboards(p), expect, "{id}: {fen}");
        let before = bitboards(p);
        let list = p.legal_moves();
        let mut q = p.clone();
        let mover = p.side_to_move();
        for &m in list.iter() {
            let undo = q.play(m);
            assert_eq!(q.hash(), q.compute_hash(), "{id}: hash after {} in {fen}", format_multi_move(v, m));
            assert_eq!(q, p.play_copy(m), "{id}");
            assert!(!q.king_attacked(mover), "{id}: {} leaves the mover attacked in {fen}", format_multi_move(v, m));
            assert_ne!(q.side_to_move(), mover, "{id}: the turn passes");
            q.unplay(m, undo);
            assert_eq!(&q, p, "{id}: unplay of {} in {fen}", format_multi_move(v, m));
            assert_eq!(q.hash(), p.hash(), "{id}: hash after unplay of {} in {fen}", format_multi_move(v, m));
            assert_eq!(bitboards(&q), before, "{id}: bitboards after unplay of {}", format_multi_move(v, m));
        }
        for _ in 0..2.min(list.len()) {
            let m = list[rng.below(list.len())];
            let text = format_multi_move(v, m);
            assert_eq!(parse_multi_move(p, &text), Ok(m), "{id}: {text} in {fen}");
            assert_eq!(parse_multi_move(p, &text.replace('-', "x")), Ok(m), "{id}: {text} with x");
        }
    })
}

#[test]
fn make_unmake_hash_and_strings_hold_along_random_games() {
    let t0 = Instant::now();
    for (i, id) in MultiId::ALL.into_iter().enumerate() {
        let t = Instant::now();
        let w = on!(id, properties(0xC0FF_EE00 + i as u64, DIFF_POSITIONS));
        println!("{id}: properties over {} positions in {} games: {:.2?}", w.positions, w.games, t.elapsed());
    }
    println!("properties, all three: {:.2?}", t0.elapsed());
}

// ---------------------------------------------------------------------------
// 5. The rules.
// ---------------------------------------------------------------------------

#[test]
fn a_king_attacked_off_its_turn_is_never_taken() {
    // wing-table-4p: White's queen on 2e5 sees Red's king on 2h8 (2f6, 2g7
    // empty) and Blue's on 2h5 (2f5, 2g5 empty); it is White's turn.
    let v = four();
    let men = [("2e5", "wQ"), ("2h8", "rK"), ("2h5", "bK"), ("2g2", "wK"), ("2f11", "kK")];
    let p = setup(v, &men, 'w');
    assert!(p.king_attacked(side(v, 'r')) && p.king_attacked(side(v, 'b')));
    assert!(!p.is_check());
    let d = dests(&p, "2e5");
    assert!(d.contains(&"2g7".into()) && d.contains(&"2g5".into()), "{d:?}");
    assert!(moves(&p).iter().all(|m| !m.ends_with("-2h8") && !m.ends_with("-2h5")), "{:?}", moves(&p));
    assert!(parse_multi_move(&p, "2e5-2h8").is_err());
    assert!(parse_multi_move(&p, "2e5x2h5").is_err());
    agree(&p);
    // Red, on its turn, must answer: every move leaves its king safe.
    let r = setup(v, &men, 'r');
    assert!(r.is_check());
    for &m in r.legal_moves().iter() {
        assert!(!r.play_copy(m).king_attacked(side(v, 'r')), "{}", format_multi_move(v, m));
    }
    agree(&r);

    // triquetral-3p, every side for itself: White's rook on 7d6 and Green's
    // on 5b6 both attack Blue's king on 7b6; neither may take it.
    let v = three();
    let men = [("7d6", "wR"), ("5b6", "gR"), ("7b6", "bK"), ("6g2", "wK"), ("2f7", "gK")];
    for mover in ['w', 'g'] {
        let p = setup(v, &men, mover);
        assert!(p.king_attacked(side(v, 'b')));
        assert!(moves(&p).iter().all(|m| !m.ends_with("-7b6")), "{mover}: {:?}", moves(&p));
        agree(&p);
    }
    let b = setup(v, &men, 'b');
    assert!(b.is_check());
    assert!(!b.legal_moves().is_empty());
    for &m in b.legal_moves().iter() {
        assert!(!b.play_copy(m).king_attacked(side(v, 'b')), "{}", format_multi_move(v, m));
    }
    agree(&b);
}

#[test]
fn slides_stop_at_the_gap() {
    // 1e1 -> 1d2 -> 1c3 -> 1b4 -> 1a5: only the ends exist (White's and Red's
    // wing corners); the line leaves the board and is not followed across.
    let v = four();
    let men = [("1e1", "wQ"), ("1a5", "rR"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
    let p = setup(v, &men, 'w');
    let d = dests(&p, "1e1");
    assert!(!d.contains(&"1a5".into()), "{d:?}");
    // Its other lines run on: along rank 1 to 1h1, up file e through the
    // centre into Black's wing at 1e12.
    assert!(d.contains(&"1h1".into()) && d.contains(&"1e12".into()), "{d:?}");
    agree(&p);
    // RULES.md's layout written out by hand, Red to move: Red's rook does not
    // reach 1e1 either, nor does it attack White's queen.
    let lit = "4|4|4|6|12|12|12|rR11|6|4|4|wQ3/4|4|6|10|10|rK9|10|6|4|2wK1/4|6|8|8|8|8|6|4 r - - 0 1";
    assert_eq!(
        raw(MultiId::WingTable4p, &[("1e1", "wQ"), ("1a5", "rR"), ("2b6", "rK"), ("2g2", "wK")], 'r', (0, 1)),
        lit
    );
    let r = pos(v, lit);
    assert_eq!(format_multi_position(&r), lit);
    assert_eq!(man(&r, "1e1").as_deref(), Some("wQ"));
    assert_eq!(man(&r, "1a5").as_deref(), Some("rR"));
    assert!(!dests(&r, "1a5").contains(&"1e1".into()));
    assert!(!r.king_attacked(side(v, 'w')));
    assert_eq!(r.sides_in(), [side(v, 'w'), side(v, 'r')]);
    agree(&r);
    // With White's king on 1e1 instead, Red's rook on 1a5 gives no check
    // across the gap.
    let k = setup(v, &[("1e1", "wK"), ("1a5", "rQ"), ("2b6", "rK")], 'w');
    assert!(!k.is_check());
    agree(&k);
}

#[test]
fn partners_neither_capture_nor_check_each_other() {
    // wing-table-4p: White and Black partners, Red and Blue the other team.
    let v = four();
    let men =
        [("2e5", "wQ"), ("2e7", "kR"), ("2c5", "rR"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
    let p = setup(v, &men, 'w');
    let d = dests(&p, "2e5");
    assert!(d.contains(&"2e6".into()) && !d.contains(&"2e7".into()) && !d.contains(&"2e8".into()), "{d:?}");
    assert!(d.contains(&"2c5".into()) && !d.contains(&"2b5".into()), "{d:?}");
    agree(&p);
    let k = setup(v, &men, 'k');
    assert!(!dests(&k, "2e7").contains(&"2e5".into()));
    assert!(parse_multi_move(&k, "2e7-2e5").is_err());
    agree(&k);
    // A partner's queen next to the king gives no check; an enemy's does.
    let near = setup(v, &[("2e5", "wQ"), ("2f6", "kK"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")], 'k');
    assert!(!near.is_check());
    agree(&near);
    let near = setup(v, &[("2e5", "rQ"), ("2f6", "kK"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")], 'k');
    assert!(near.is_check());
    agree(&near);
    // A move may leave the partner's king attacked: White's rook leaves the
    // file between Red's rook and Black's king. Black must answer on its turn.
    let open = [("2f5", "wR"), ("2f11", "kK"), ("2f3", "rR"), ("2g2", "wK"), ("2b6", "rK"), ("2k7", "bK")];
    let mut g = MultiGame::new(setup(v, &open, 'w'));
    assert!(!g.position().king_attacked(side(v, 'k')));
    play(&mut g, "2f5-2e5");
    assert!(g.position().king_attacked(side(v, 'k')));
    assert_eq!(g.outcome(), None);
    play(&mut g, "2b6-2b7"); // Red does not (cannot) take the king.
    assert_eq!(g.position().side_to_move(), side(v, 'k'));
    assert!(g.position().is_check());
    let b = g.position();
    assert!(!b.legal_moves().is_empty());
    for &m in b.legal_moves().iter() {
        assert!(!b.play_copy(m).king_attacked(side(v, 'k')));
    }
    agree(b);
    // But not its own: with White's king behind it the rook is pinned.
    let pin =
        setup(v, &[("2f5", "wR"), ("2f4", "wK"), ("2f9", "rR"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")], 'w');
    let d = dests(&pin, "2f5");
    assert!(!d.contains(&"2e5".into()) && d.contains(&"2f9".into()) && d.contains(&"2f6".into()), "{d:?}");
    agree(&pin);

    // triquetral-6p: White, Blue, Green against Black, Red, Yellow. White's
    // queen on 6f6 is blocked by Blue's rook on 6f7 and takes Black's on 6e6;
    // Blue's rook does not check White's king on 6f8 through... nothing: it
    // stands next to it, a partner.
    let v = six();
    let kings = [("6e10", "kK"), ("7b6", "bK"), ("5j6", "rK"), ("2f7", "gK"), ("10f5", "yK")];
    let mut men = vec![("6f6", "wQ"), ("6f7", "bR"), ("6e6", "kR"), ("6f8", "wK")];
    men.extend(kings);
    let p = setup(v, &men, 'w');
    let d = dests(&p, "6f6");
    assert!(d.contains(&"6e6".into()) && !d.contains(&"6f7".into()), "{d:?}");
    assert!(!p.is_check(), "a partner's rook next to the king");
    agree(&p);
    // The same rook Black's: White is in check and its queen may take it.
    let mut men = vec![("6f6", "wQ"), ("6f7", "kR"), ("6f8", "wK")];
    men.extend(kings);
    let p = setup(v, &men, 'w');
    assert!(p.is_check());
    assert!(dests(&p, "6f6").contains(&"6f7".into()));
    agree(&p);
}

/// triquetral-3p men: Green's king in its corner 1e5, mated by White's rook
/// on 1e8 (file e) and White's queen on 3e6 (which covers 1e6 and 2e5; 1d5,
/// 1e4 and 1f5 do not exist); Blue's king free on 7b6.
const GREEN_MATED: [(&str, &str); 5] = [("1e5", "gK"), ("1e8", "wR"), ("3e6", "wQ"), ("6g2", "wK"), ("7b6", "bK")];

#[test]
fn every_side_for_itself_a_side_without_a_move_leaves() {
    let v = three();
    let (w, b, g) = (side(v, 'w'), side(v, 'b'), side(v, 'g'));
    let green = setup(v, &GREEN_MATED, 'g');
    assert!(green.legal_moves().is_empty() && green.is_check());
    assert!(naive(MultiId::Triquetral3p, &format_multi_position(&green)).legal_moves().is_empty());
    // Blue moves; Green has no move and is out at once: its men leave the
    // board and the turn passes to White, in a new round.
    let start = setup_clocks(v, &GREEN_MATED, 'b', (0, 1));
    let mut game = MultiGame::new(start.clone());
    assert!(game.removed().is_empty());
    play(&mut game, "7b6-7c6");
    assert_eq!(game.removed(), [(1, g)]);
    let p = game.position();
    assert_eq!(p.sides_in(), [w, b]);
    assert_eq!(p.side_to_move(), w);
    assert_eq!(man(p, "1e5"), None);
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (1, 2));
    assert_eq!(p.hash(), p.compute_hash());
    assert_eq!(game.outcome(), None);
    // The naive reference after the same move and its elimination.
    let r = naive(MultiId::Triquetral3p, &format_multi_position(&start)).play("7b6-7c6").expect("naive move");
    assert!(r.legal_moves().is_empty() && r.in_check());
    assert_eq!(format_multi_position(p), r.eliminate().fen());
    // The position reads back with Green out.
    assert_eq!(&pos(v, &format_multi_position(p)), p);
    // Taking the move back brings Green back.
    assert!(game.undo());
    assert_eq!(game.position(), &start);
    assert!(game.removed().is_empty());
    // A position string with Green to move and no move: a new game takes it
    // out at once (and it is Green's stalemate alike: the queen alone).
    let stale = [("1e5", "gK"), ("3e6", "wQ"), ("6g2", "wK"), ("7b6", "bK")];
    let s = setup(v, &stale, 'g');
    assert!(s.legal_moves().is_empty() && !s.is_check());
    let game = MultiGame::new(s);
    assert_eq!(game.removed(), [(0, g)]);
    assert_eq!(game.position().side_to_move(), w);
    // perft does not take sides out: a side with no move is a leaf.
    let s = setup(v, &stale, 'g');
    assert_eq!(s.perft(1), 0);
    assert_eq!(s.perft(3), 0);
}

#[test]
fn every_side_for_itself_the_last_side_in_wins() {
    // White's queen steps to 6c5 and stalemates Blue's king in its corner
    // 5a5; Blue is out, then Green (mated as above) is out: White wins alone.
    let v = three();
    let (w, b, g) = (side(v, 'w'), side(v, 'b'), side(v, 'g'));
    let men = [("5a5", "bK"), ("6c7", "wQ"), ("1e5", "gK"), ("1e8", "wR"), ("3e6", "wQ"), ("6g2", "wK")];
    let start = setup(v, &men, 'w');
    let mut game = MultiGame::new(start.clone());
    assert_eq!(game.outcome(), None);
    play(&mut game, "6c7-6c5");
    assert_eq!(game.removed(), [(1, b), (1, g)]);
    assert_eq!(game.position().sides_in(), [w]);
    assert_eq!(game.outcome(), Some(GameResult { end: End::LastSide { side: w }, scores: scores(&[60, 0, 0]) }));
    assert!(game.play(game.position().legal_moves()[0]).is_err(), "the game is over");
    // The reference agrees that Blue, then Green, have no move.
    let r = naive(MultiId::Triquetral3p, &format_multi_position(&start)).play("6c7-6c5").expect("move");
    assert!(r.legal_moves().is_empty() && !r.in_check(), "{}", r.fen());
    let r = r.eliminate();
    assert!(r.legal_moves().is_empty() && r.in_check(), "{}", r.fen());
    assert_eq!(r.eliminate().sides_in(), ['w']);
}

#[test]
fn team_checkmate_and_stalemate_score_by_team() {
    // wing-table-4p, turn order White, Red, Black, Blue. Red's king in its
    // corner 1a8; White's queen steps 1c5-1c7 and covers 1a7, 1b7, 1b8, 2b7,
    // 2b8. With White's rook on 1a5 checking up file a it is mate.
    let v = four();
    let (w, r) = (side(v, 'w'), side(v, 'r'));
    let kings = [("2g2", "wK"), ("2f11", "kK"), ("2k7", "bK"), ("1a8", "rK")];
    let mut men = vec![("1c5", "wQ"), ("1a5", "wR")];
    men.extend(kings);
    let mut game = MultiGame::new(setup(v, &men, 'w'));
    play(&mut game, "1c5-1c7");
    assert!(game.position().is_check());
    agree(game.position());
    let mate = GameResult { end: End::Checkmate { side: r }, scores: scores(&[60, 0, 60, 0]) };
    assert_eq!(game.outcome(), Some(mate.clone()));
    assert!(game.position().legal_moves().is_empty());
    assert!(game.play(raum_rules::Move::normal(cell(v, "1a8"), cell(v, "1a7"))).is_err());
    // A mate beats a simultaneous 50-round draw (here 200 plies with four in).
    let mut game = MultiGame::new(setup_clocks(v, &men, 'w', (199, 60)));
    play(&mut game, "1c5-1c7");
    assert_eq!(game.position().halfmove_clock(), 200);
    assert_eq!(game.outcome(), Some(mate));
    // Without the rook: stalemate; Red's team (Red, Blue) 2/5, the other 3/5.
    let mut men = vec![("1c5", "wQ")];
    men.extend(kings);
    let mut game = MultiGame::new(setup(v, &men, 'w'));
    play(&mut game, "1c5-1c7");
    assert!(!game.position().is_check());
    assert!(agree(game.position()).is_empty());
    assert_eq!(game.outcome(), Some(GameResult { end: End::Stalemate { side: r }, scores: scores(&[36, 24, 36, 24]) }));
    assert_eq!(Points::THREE_FIFTHS, Points(36));
    assert_eq!(Points::TWO_FIFTHS, Points(24));
    let _ = w;

    // triquetral-6p, turn order White, Black, Blue, Red, Green, Yellow: Green
    // moves, and Yellow's king in its corner 11g7 has no move against White's
    // queen on 9g6. Yellow's team (Black, Red, Yellow) 2/5, the other 3/5.
    let v = six();
    let men =
        [("11g7", "yK"), ("9g6", "wQ"), ("6g2", "wK"), ("6e10", "kK"), ("7b6", "bK"), ("5j6", "rK"), ("2f7", "gK")];
    let mut game = MultiGame::new(setup(v, &men, 'g'));
    assert_eq!(game.outcome(), None);
    play(&mut game, "2f7-2f8");
    let y = side(v, 'y');
    assert_eq!(game.position().side_to_move(), y);
    assert!(agree(game.position()).is_empty());
    assert_eq!(
        game.outcome(),
        Some(GameResult { end: End::Stalemate { side: y }, scores: scores(&[36, 24, 36, 24, 36, 24]) })
    );
    // Teams: a side with no move is never taken out.
    assert!(game.removed().is_empty());
    assert_eq!(game.position().sides_in().len(), 6);
}

/// triquetral-3p: each king steps out and back; a knight stays so that more
/// than royals are left.
const SHUFFLE: [&str; 6] = ["6g2-6g3", "7b6-7c6", "2f7-2f8", "6g3-6g2", "7c6-7b6", "2f8-2f7"];

#[test]
fn draws_every_side_for_itself_share_among_the_sides_in() {
    let v = three();
    let men = [("6g2", "wK"), ("5e1", "wN"), ("7b6", "bK"), ("2f7", "gK")];
    let third = scores(&[20, 20, 20]);
    // Threefold repetition: the start comes back after 6 and after 12 plies.
    let mut game = MultiGame::new(setup(v, &men, 'w'));
    for (i, mv) in SHUFFLE.iter().chain(&SHUFFLE).enumerate() {
        assert_eq!(game.outcome(), None, "after {i} plies");
        play(&mut game, mv);
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::Repetition), scores: third.clone() }));
    // 50 rounds with three in are 150 plies: 100 are not enough.
    let mut game = MultiGame::new(setup_clocks(v, &men, 'w', (98, 40)));
    play(&mut game, SHUFFLE[0]);
    play(&mut game, SHUFFLE[1]);
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(game.outcome(), None);
    let mut game = MultiGame::new(setup_clocks(v, &men, 'w', (148, 60)));
    play(&mut game, SHUFFLE[0]);
    assert_eq!(game.outcome(), None);
    play(&mut game, SHUFFLE[1]);
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::FiftyMoves), scores: third.clone() }));
    // A pawn move or a capture resets the count.
    let mut men_p = men.to_vec();
    men_p.push(("5f3", "wP"));
    let mut game = MultiGame::new(setup_clocks(v, &men_p, 'w', (149, 60)));
    play(&mut game, "5f3-5f4");
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.outcome(), None);
    // Only kings left: White's king takes Blue's knight.
    let bare = setup(v, &[("6g2", "wK"), ("6g3", "bN"), ("7b6", "bK"), ("2f7", "gK")], 'w');
    let mut game = MultiGame::new(bare);
    play(&mut game, "6g2-6g3");
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::BareKings), scores: third }));
}

#[test]
fn draws_with_a_side_out_score_half_to_the_two_in() {
    let v = three();
    let half = scores(&[30, 30, 0]);
    // Green is out (no men): repetition after 8 plies of White and Blue.
    let men = [("6g2", "wK"), ("5e1", "wN"), ("7b6", "bK")];
    let mut game = MultiGame::new(setup(v, &men, 'w'));
    let two = ["6g2-6g3", "7b6-7c6", "6g3-6g2", "7c6-7b6"];
    for mv in two.iter().chain(&two) {
        assert_eq!(game.outcome(), None);
        play(&mut game, mv);
    }
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::Repetition), scores: half.clone() }));
    // 50 rounds with two in are 100 plies; taking Green out does not reset
    // the count: at 99 Blue moves (100), Green is mated and out, and with
    // two in the 100 plies are a draw.
    let mut game = MultiGame::new(setup_clocks(v, &GREEN_MATED, 'b', (99, 34)));
    assert_eq!(game.outcome(), None, "99 plies with three in");
    play(&mut game, "7b6-7c6");
    assert_eq!(game.removed().len(), 1);
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::FiftyMoves), scores: half.clone() }));
    // Only kings left with Green out.
    let mut game = MultiGame::new(setup(v, &[("6g2", "wK"), ("6g3", "bN"), ("7b6", "bK")], 'w'));
    play(&mut game, "6g2-6g3");
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::BareKings), scores: half }));
}

#[test]
fn draws_with_teams_score_half_each() {
    let v = four();
    let halves = scores(&[30; 4]);
    let mut game =
        MultiGame::new(setup(v, &[("2g2", "wK"), ("2g3", "rN"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")], 'w'));
    play(&mut game, "2g2-2g3");
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::BareKings), scores: halves.clone() }));
    // 50 rounds with four in: 200 plies.
    let men = [("2g2", "wK"), ("2e5", "wR"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
    let mut game = MultiGame::new(setup_clocks(v, &men, 'w', (198, 50)));
    play(&mut game, "2e5-2e6");
    assert_eq!(game.outcome(), None);
    play(&mut game, "2b6-2b7");
    assert_eq!(game.outcome(), Some(GameResult { end: End::Draw(DrawReason::FiftyMoves), scores: halves }));
}

// ---------------------------------------------------------------------------
// 6. Bad input.
// ---------------------------------------------------------------------------

fn parse_err<S: Width>(v: &'static MultiVariant<S>, fen: &str) -> String {
    match parse_multi_position(v, fen) {
        Ok(_) => panic!("{}: accepted {fen}", v.id()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_position_strings_are_errors_that_say_why() {
    let v = four();
    let start = format_multi_position(&MultiPosition::start(v));
    let board = start.split(' ').next().expect("board").to_string();
    let levels: Vec<&str> = board.split('/').collect();
    let check = |fen: &str, needles: &[&str]| {
        let e = parse_err(v, fen);
        for n in needles {
            assert!(e.contains(n), "{fen}: {e:?} does not say {n:?}");
        }
        assert!(MultiNaive::parse("wing-table-4p", fen).is_err(), "naive accepts {fen}");
        e
    };
    // Level count.
    check(&format!("{}/{} w - - 0 1", levels[0], levels[1]), &["3 levels", "found 2"]);
    check(&format!("{board}/{} w - - 0 1", levels[2]), &["3 levels", "found 4"]);
    // Bad men: an unknown side letter, an unknown piece letter, a side letter alone.
    check(&start.replacen("wR", "xQ", 1), &["'xQ'", "not a man"]);
    check(&start.replacen("wR", "wZ", 1), &["'wZ'", "not a man", "piece"]);
    check(&start.replacen("wR", "WR", 1), &["'WR'", "not a man"]);
    check(&start.replacen("wR", "gR", 1), &["'gR'", "not a man"]);
    // Level 1, rank 1 is White's "wRwNwNwR": end it with a lone w.
    assert!(start.contains("|wRwNwNwR/"), "{start}");
    let lone = start.replacen("|wRwNwNwR/", "|wRwNwNw/", 1);
    check(&lone, &["'w'", "not a man"]);
    // Bad side letters: none such, one not in this game, upper case, two.
    check(&with_mover(&start, 'x'), &["side to move", "'x'"]);
    check(&with_mover(&start, 'g'), &["side to move", "'g'"]);
    check(&with_mover(&start, 'W'), &["side to move", "'W'"]);
    check(&start.replacen(" w - - ", " wr - - ", 1), &["side to move", "'wr'"]);
    // A side with two kings (and one with none).
    let two = raw(MultiId::WingTable4p, &[("2g2", "wK"), ("2e5", "wK"), ("2f11", "kK")], 'w', (0, 1));
    check(&two, &["White", "2 kings"]);
    let none = raw(MultiId::WingTable4p, &[("2g2", "wK"), ("2e5", "kQ")], 'w', (0, 1));
    let e = parse_err(v, &none);
    assert!(e.contains("Black") && e.contains("0 kings"), "{e}");
    // A pawn on its promotion cell: White's on 1d9 (file d ends at rank 9
    // on level 1), Red's on 2i4 (moving east, rank 4 ends at file i).
    let spent = raw(MultiId::WingTable4p, &[("2g2", "wK"), ("2f11", "kK"), ("1d9", "wP")], 'w', (0, 1));
    check(&spent, &["White pawn", "promotion cell 1d9"]);
    let spent = raw(MultiId::WingTable4p, &[("2g2", "wK"), ("2b6", "rK"), ("2i4", "rP")], 'w', (0, 1));
    check(&spent, &["Red pawn", "promotion cell 2i4"]);
    // Castling and en-passant fields must be '-'.
    check(&start.replacen(" w - - ", " w KQkq - ", 1), &["castling", "KQkq"]);
    check(&start.replacen(" w - - ", " w - 2e4 ", 1), &["en passant", "2e4"]);
    // Field count, clocks, a rank too long, a side to move that is out.
    check(&start.replace(" 0 1", " 0"), &["fields"]);
    check(&start.replace(" 0 1", " 0 0"), &["fullmove"]);
    check(&start.replace(" 0 1", " x 1"), &["halfmove"]);
    check(&start.replacen("|6|", "|7|", 1), &["cells"]);
    check(&start.replacen("|6|", "|6|6|", 1), &["ranks"]);
    let out = raw(MultiId::WingTable4p, &[("2g2", "wK"), ("2f11", "kK")], 'r', (0, 1));
    check(&out, &["Red", "no men"]);
    // One side alone (the naive reference reads this one; RULES.md calls it
    // a finished game, not a position to play from).
    let alone = raw(MultiId::WingTable4p, &[("2g2", "wK")], 'w', (0, 1));
    let e = parse_err(v, &alone);
    assert!(e.contains("only 1 side"), "{e}");
    // Garbage never panics.
    for s in ["", "/", "|||", "w", "1/1/1 w - -", "99999999999999999999 w - -", "é/é/é w - -", "-1 w - -"] {
        assert!(parse_multi_position(v, s).is_err(), "{s}");
        assert!(parse_multi_position(six(), s).is_err(), "{s}");
    }
    // Strings of one game are not another's.
    let t = format_multi_position(&MultiPosition::start(three()));
    assert!(parse_multi_position(six(), &t).is_err());
    check_3p(&t);
}

fn check_3p(t: &str) {
    let v = three();
    // No Black, Red or Yellow on the three-player board.
    for bad in [t.replacen("wR", "kR", 1), t.replacen("wR", "yR", 1), with_mover(t, 'k'), with_mover(t, 'r')] {
        parse_err(v, &bad);
        assert!(MultiNaive::parse("triquetral-3p", &bad).is_err(), "naive accepts {bad}");
    }
}

#[test]
fn bad_moves_are_errors() {
    let v = four();
    let p = MultiPosition::start(v);
    let err = |mv: &str| match parse_multi_move(&p, mv) {
        Ok(m) => panic!("{mv} accepted as {}", format_multi_move(v, m)),
        Err(e) => e.to_string(),
    };
    // Off the board.
    for mv in ["4e3-4e4", "2e3-1d2", "2z3-2z4", "1a1-1a2", "2e3-2e13"] {
        let e = err(mv);
        assert!(e.contains("not a cell"), "{mv}: {e}");
    }
    // Another side's man: Black's pawn (partner), Red's (enemy), an empty cell.
    for mv in ["2e10-2e9", "2c5-2d5", "2e5-2e6"] {
        let e = err(mv);
        assert!(e.contains("no White piece"), "{mv}: {e}");
    }
    // Illegal: too far, onto its own man, a promotion that is none, onto its own man again.
    for mv in ["2e3-2e5", "2e3-2f3", "2e3-2e4=Q", "1f1-1f2"] {
        let e = err(mv);
        assert!(e.contains("not legal"), "{mv}: {e}");
    }
    for mv in ["", "2e3", "2e3-", "2e3-2e4=Z"] {
        err(mv);
    }
    // Good ones, in both spellings.
    assert!(parse_multi_move(&p, "2e3-2e4").is_ok() && parse_multi_move(&p, "2e3x2e4").is_ok());
    // A promotion must be chosen.
    let men = [("1d8", "wP"), ("2g2", "wK"), ("2f11", "kK"), ("2b6", "rK"), ("2k7", "bK")];
    let q = setup(v, &men, 'w');
    assert_eq!(dests(&q, "1d8"), ["1d9"]);
    assert_eq!(moves(&q).iter().filter(|m| m.starts_with("1d8-1d9=")).count(), 6);
    assert!(parse_multi_move(&q, "1d8-1d9").is_err_and(|e| e.to_string().contains("promotion")));
    assert!(parse_multi_move(&q, "1d8-1d9=u").is_ok());
    assert!(parse_multi_move(&q, "1d8-1d9=K").is_err());
    agree(&q);
}
