//! Five Up's own variants (seed 000, "Variants of Variants"; RULES.md):
//! the hypercylinder (`five-up-cylinder`: files wrap) and the hypertorus
//! (`five-up-torus`: every axis wraps, and the non-combatant rule). The seed's
//! figure and example as exact tests, the start counts, and each rule that a
//! wrapping board or the non-combatant rule changes.

use crate::five_up_seed::CYLINDER_KNIGHT;
use raum_bitboard::CellSet;
use raum_conformance::seed_diagram::SeedDiagram;
use raum_notation::{format_move, format_position, parse_position};
use raum_rules::{Cells, Position, Variant, VariantId};
use std::collections::BTreeSet;

fn cylinder() -> &'static Variant<Cells> {
    Variant::get(VariantId::FiveUpCylinder)
}

fn torus() -> &'static Variant<Cells> {
    Variant::get(VariantId::FiveUpTorus)
}

fn cell(v: &Variant<Cells>, name: &str) -> usize {
    v.parse_cell(name).unwrap_or_else(|| panic!("{name} is not a cell"))
}

fn set(v: &Variant<Cells>, names: &[&str]) -> Cells {
    names.iter().fold(0, |s, n| s | 1u128 << cell(v, n))
}

fn names(v: &Variant<Cells>, cells: Cells) -> Vec<String> {
    let mut n: Vec<String> = cells.cells().map(|c| v.cell_name(c)).collect();
    n.sort();
    n
}

fn pos(v: &'static Variant<Cells>, s: &str) -> Position<Cells> {
    parse_position(v, s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn moves(p: &Position<Cells>) -> BTreeSet<String> {
    p.legal_moves().iter().map(|&m| format_move(p.variant(), m)).collect()
}

/// The moves from one cell, as destinations.
fn from(p: &Position<Cells>, name: &str) -> Vec<String> {
    let v = p.variant();
    let f = cell(v, name);
    names(v, p.legal_moves().iter().filter(|m| m.from() == f).fold(0, |s, m| s | 1u128 << m.to()))
}

// ---------------------------------------------------------------------------
// The hypercylinder
// ---------------------------------------------------------------------------

#[test]
fn hypercylinder_knight_on_ca3_is_the_seeds_figure() {
    let v = cylinder();
    let d = SeedDiagram::parse(CYLINDER_KNIGHT).unwrap();
    assert_eq!(d.get("Ca3"), Some('N'));
    let knight = SeedDiagram::piece_of(v, 'N').unwrap();
    let ours = v.targets(knight, cell(v, "Ca3"), 0, 0);
    assert_eq!(names(v, ours), names(v, d.cell_set(v, 'x')));
    assert_eq!(ours.count(), 24);
}

#[test]
fn rook_leaving_cb1_through_ca1_reenters_at_ce1() {
    let v = cylinder();
    let rook = SeedDiagram::piece_of(v, 'R').unwrap();
    let b1 = cell(v, "Cb1");
    // On an empty board the rook's file line is a cycle: all four other cells.
    let empty = v.targets(rook, b1, 0, 0);
    assert!(empty.has(cell(v, "Ce1")));
    // Rightward blocked at Cd1 (an own man): Ce1 is still reached, leftward.
    let own = set(v, &["Cd1"]);
    assert_eq!(
        v.targets(rook, b1, own, 0) & set(v, &["Ca1", "Cb1", "Cc1", "Cd1", "Ce1"]),
        set(v, &["Ca1", "Ce1", "Cc1"])
    );
    // Blocked both ways: no Ce1.
    let own = set(v, &["Cd1", "Ca1"]);
    assert!(!v.targets(rook, b1, own, 0).has(cell(v, "Ce1")));
}

#[test]
fn start_move_counts() {
    for (v, n) in [(cylinder(), 73), (torus(), 165)] {
        let p = Position::start(v);
        assert_eq!(p.legal_moves().len(), n, "{}", v.id());
        assert_eq!(p.count_legal(), n as u64);
        assert_eq!(p.perft(1), n as u64);
    }
}

#[test]
fn cylinder_start_gains_the_wrapping_moves() {
    // Five Up's 62, plus moves across the joined a/e faces: pawn captures
    // cannot happen yet, so the gain is the pieces' (the a- and e-file
    // knights and bishops and the queen's lines do not cross; the corner
    // knights and bishops do).
    let p = Position::start(cylinder());
    let five_up: BTreeSet<String> = moves(&Position::start(Variant::get(VariantId::FiveUp)));
    let ours = moves(&p);
    assert!(five_up.is_subset(&ours));
    assert_eq!(ours.len() - five_up.len(), 11);
    // The a-file knight jumps to the e-file: Da1 -> De3 is (-1, +2, 0) with files wrapping.
    assert!(ours.contains("Da1-De3"), "{ours:?}");
}

#[test]
fn a_piece_is_pinned_across_the_joined_faces() {
    // White king Ca1, knight Ce1 (its neighbour across the joined faces),
    // black rook Cd1; a black pawn on Cb1 closes the other arc. The knight
    // stands alone on the arc Ca1-Ce1-Cd1: pinned.
    let fen = "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|Kp1rN/5|5|5|5|5/5|5|5|5|5 w - - 0 1";
    let p = pos(cylinder(), fen);
    assert!(!p.is_check());
    assert!(from(&p, "Ce1").is_empty(), "{:?}", from(&p, "Ce1"));
    // On the bounded board the same knight is free.
    let flat = parse_position(Variant::get(VariantId::FiveUp), fen).unwrap();
    assert!(!from(&flat, "Ce1").is_empty());
}

#[test]
fn a_check_across_the_joined_faces_is_blocked_on_its_own_arc() {
    // The rook on Cd1 checks the king on Ca1 through Ce1 (Cb1 is closed).
    let p = pos(cylinder(), "k4|5|5|4N|5/5|5|5|5|5/5|5|5|5|Kp1r1/5|5|5|5|5/5|5|5|5|5 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(from(&p, "Ae2"), ["Ce1"]);
    // Both arcs open: the rook on Cc1 reaches the king both ways round, and
    // no single block helps (the knight could reach Ce1, which is one arc).
    let p = pos(cylinder(), "k4|5|5|4N|5/5|5|5|5|5/5|5|5|5|K1r2/5|5|5|5|5/5|5|5|5|5 w - - 0 1");
    assert!(p.is_check());
    assert!(from(&p, "Ae2").is_empty(), "{:?}", from(&p, "Ae2"));
}

#[test]
fn castling_goes_either_way_round() {
    // King Ec1, rook Ea1, the wizard on Eb1 between them: the way through
    // Ed1 and Ee1 is open.
    let fen = "5|5|2k2|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|RWK2 w K - 0 1";
    let castles = |p: &Position<Cells>| -> Vec<String> {
        p.legal_moves()
            .iter()
            .filter(|m| m.kind() == raum_rules::MoveKind::Castle)
            .map(|&m| format_move(p.variant(), m))
            .collect()
    };
    assert_eq!(castles(&pos(cylinder(), fen)), ["Ec1-Ea1"]);
    assert!(castles(&parse_position(Variant::get(VariantId::FiveUp), fen).unwrap()).is_empty());
    // A black rook on Ae1 attacks Ee1 (down the e-file of levels): that way is
    // closed too.
    let attacked = "5|5|2k2|5|4r/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|RWK2 w K - 0 1";
    assert!(castles(&pos(cylinder(), attacked)).is_empty());
}

#[test]
fn pawns_capture_across_the_joined_faces() {
    let p = pos(cylinder(), "k4|5|5|5|5/5|5|5|5|5/5|5|4n|P4|5/5|5|5|5|5/4K|5|5|5|5 w - - 0 1");
    assert_eq!(from(&p, "Ca2"), ["Ba2", "Ca3", "Ce3"]);
}

// ---------------------------------------------------------------------------
// The hypertorus and the non-combatant rule
// ---------------------------------------------------------------------------

#[test]
fn torus_start_string_lists_every_piece_as_unmoved() {
    let p = Position::start(torus());
    let s = format_position(&p);
    let fields: Vec<&str> = s.split(' ').collect();
    assert_eq!(fields.len(), 7, "{s}");
    assert_eq!(fields[4].split(',').count(), 40, "{s}");
    assert_eq!(pos(torus(), &s), p);
    // Every piece of both armies is untouchable: no capture, no check.
    assert!(p.legal_moves().iter().all(|m| p.piece_at(m.to()).is_none()));
}

#[test]
fn an_unmoved_king_is_never_in_check() {
    // White's king on Ec1 has not moved; Black's rook on Ec3 has, and a white
    // knight that has moved stands between them on one arc (the other arc,
    // Ec5-Ec4, is open round the wrapping ranks).
    let unmoved = pos(torus(), "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|2r2|2N2|2K2 w - - Aa5,Ec1 0 1");
    assert!(!unmoved.is_check());
    assert!(!from(&unmoved, "Ec2").is_empty(), "the knight is not pinned to an unmoved king");
    let moved = pos(torus(), "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|2r2|2N2|2K2 w - - Aa5 0 1");
    assert!(moved.is_check());
    assert!(from(&moved, "Ec2").is_empty(), "pinned on one arc, and the check comes along the other");
    // An unmoved king may stand attacked when it is not its side's move.
    pos(torus(), "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|2r2|5|2K2 b - - Aa5,Ec1 0 1");
}

#[test]
fn unmoved_men_neither_capture_nor_are_captured() {
    // White rooks Ca1 (moved) and Cc1 (unmoved); black knights Ca3 (unmoved)
    // and Cc3 (moved).
    let p = pos(torus(), "k4|5|5|5|5/5|5|5|5|5/5|5|n1n2|5|R1R2/5|5|5|5|5/4K|5|5|5|5 w - - Aa5,Cc1,Ca3,Ee5 0 1");
    let a = from(&p, "Ca1");
    assert!(!a.contains(&"Ca3".to_string()), "{a:?}");
    assert!(a.contains(&"Ca2".to_string()) && a.contains(&"Ca4".to_string()), "{a:?}");
    let c = from(&p, "Cc1");
    assert!(!c.contains(&"Cc3".to_string()), "{c:?}");
    assert!(c.contains(&"Cc2".to_string()), "{c:?}");
    // Once the knight on Ca3 has moved it can be taken.
    let p = pos(torus(), "k4|5|5|5|5/5|5|5|5|5/5|5|n1n2|5|R1R2/5|5|5|5|5/4K|5|5|5|5 w - - Aa5,Cc1,Ee5 0 1");
    assert!(from(&p, "Ca1").contains(&"Ca3".to_string()));
}

#[test]
fn unmoved_men_guard_nothing() {
    // White's king (moved) on Cc2 may take the moved knight on Cc3 while the
    // rook behind it on Cc5 has not moved; once the rook has moved it guards.
    let board = "k4|5|5|5|5/5|5|5|5|5/2r2|5|2n2|2K2|2N2/5|5|5|5|5/5|5|5|5|5 w -";
    let p = pos(torus(), &format!("{board} - Aa5,Cc5 0 1"));
    assert!(from(&p, "Cc2").contains(&"Cc3".to_string()));
    let p = pos(torus(), &format!("{board} - Aa5 0 1"));
    assert!(!from(&p, "Cc2").contains(&"Cc3".to_string()));
}

#[test]
fn only_unmoved_pawns_double_step_and_pawns_wrap() {
    let board = "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/4K|5|5|2P2|5 w - -";
    let p = pos(torus(), &format!("{board} Aa5,Ec2,Ee5 0 1"));
    assert_eq!(from(&p, "Ec2"), ["Cc2", "Dc2", "Dc3", "Ec3", "Ec4"]);
    let p = pos(torus(), &format!("{board} Aa5,Ee5 0 1"));
    assert_eq!(from(&p, "Ec2"), ["Dc2", "Ec3"]);
    // A pawn on rank 5 off the promotion level steps forward onto rank 1.
    let p = pos(torus(), "k4|5|5|5|5/5|5|5|5|5/2P2|5|5|5|5/5|5|5|5|5/4K|5|5|5|5 w - - Aa5,Ee5 0 1");
    assert_eq!(from(&p, "Cc5"), ["Bc5", "Cc1"]);
}

#[test]
fn bad_unmoved_fields_are_refused() {
    let board = "k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/4K|5|5|5|5 w - -";
    let e = parse_position(torus(), &format!("{board} Cc3 0 1")).unwrap_err().to_string();
    assert!(e.contains("Cc3 holds no piece"), "{e}");
    let e = parse_position(torus(), &format!("{board} Zz9 0 1")).unwrap_err().to_string();
    assert!(e.contains("unmoved"), "{e}");
    // The field is the torus's own: Five Up has none.
    assert!(parse_position(cylinder(), &format!("{board} Aa5 0 1")).is_err());
}

// ---------------------------------------------------------------------------
// Against the naive reference generator
// ---------------------------------------------------------------------------

/// Perft from the starts to depth 3, fast against naive (`raum_conformance::naive`,
/// written from RULES.md: displacements tried in every wrapped form, slides
/// walked cell by cell, legality by make-and-test), and the counts pinned.
#[test]
fn start_perft_to_depth_3_equals_the_naive_generator() {
    use raum_conformance::naive::{NaivePosition, perft};
    for (v, counts) in [(cylinder(), [73, 5_172, 406_043]), (torus(), [165, 26_838, 4_386_178])] {
        let fast = Position::start(v);
        let naive = NaivePosition::start(v.id().name()).unwrap();
        assert_eq!(naive.fen(), format_position(&fast));
        for (depth, want) in (1..=3).zip(counts) {
            assert_eq!(fast.perft(depth), want, "{} perft({depth})", v.id());
            assert_eq!(perft(&naive, depth), want, "{} naive perft({depth})", v.id());
        }
    }
}

// ---------------------------------------------------------------------------
// Riding on a unicorn
// ---------------------------------------------------------------------------

fn unicorn() -> &'static Variant<Cells> {
    Variant::get(VariantId::FiveUpUnicorn)
}

/// The moves from one cell, as coordinate text (with their `U:`, `W:`,
/// `W+U:` prefixes).
fn texts_from(p: &Position<Cells>, name: &str) -> Vec<String> {
    let f = cell(p.variant(), name);
    let mut t: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from() == f).map(|&m| format_move(p.variant(), m)).collect();
    t.sort();
    t
}

#[test]
fn unicorn_from_cc3_is_the_seeds_figure() {
    let v = unicorn();
    let d = SeedDiagram::parse(crate::five_up_seed::UNICORN).unwrap();
    assert_eq!(d.get("Cc3"), Some('U'));
    let u = SeedDiagram::piece_of(v, 'U').unwrap();
    let ours = v.targets(u, cell(v, "Cc3"), 0, 0);
    assert_eq!(names(v, ours), names(v, d.cell_set(v, 'x')));
    assert_eq!(ours.count(), 24);
}

#[test]
fn unicorn_start_has_71_moves() {
    let p = Position::start(unicorn());
    let s = format_position(&p);
    assert!(s.starts_with("r(wu)kgr|"), "{s}");
    assert!(s.contains("|R(WU)KGR w Kk -"), "{s}");
    assert_eq!(p.legal_moves().len(), 71);
    assert_eq!(p.count_legal(), 71);
    // Five Up's 62, the unicorn alone to four empty cells and onto the pawn on
    // Dd2, and the pair by the unicorn's leap to the four empty cells.
    assert_eq!(
        texts_from(&p, "Eb1"),
        [
            "U:Eb1-Ca2",
            "U:Eb1-Cc2",
            "U:Eb1-Da3",
            "U:Eb1-Dc3",
            "U:Eb1-Dd2",
            "W+U:Eb1-Ca2",
            "W+U:Eb1-Cc2",
            "W+U:Eb1-Da3",
            "W+U:Eb1-Dc3"
        ]
    );
    let five_up: BTreeSet<String> = moves(&Position::start(Variant::get(VariantId::FiveUp)));
    assert!(five_up.is_subset(&moves(&p)));
}

#[test]
fn unicorn_start_perft_to_depth_3_equals_the_naive_generator() {
    use raum_conformance::naive::{NaivePosition, perft};
    let fast = Position::start(unicorn());
    let naive = NaivePosition::start("five-up-unicorn").unwrap();
    assert_eq!(naive.fen(), format_position(&fast));
    for (depth, want) in (1..=3).zip([71, 4_896, 386_167]) {
        assert_eq!(fast.perft(depth), want, "perft({depth})");
        assert_eq!(perft(&naive, depth), want, "naive perft({depth})");
    }
}

/// Plays coordinate moves on both generators from `fen` (the start if `None`),
/// checking that they agree on the position string after each.
fn both_after(fen: Option<&str>, line: &str) -> (Position<Cells>, raum_conformance::naive::NaivePosition) {
    use raum_conformance::naive::NaivePosition;
    let (mut fast, mut naive) = match fen {
        Some(f) => (pos(unicorn(), f), NaivePosition::parse("five-up-unicorn", f).unwrap()),
        None => (Position::start(unicorn()), NaivePosition::start("five-up-unicorn").unwrap()),
    };
    for text in line.split_whitespace() {
        let m = raum_notation::parse_move(&fast, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        fast.play(m);
        naive = naive.play(text).unwrap_or_else(|e| panic!("naive {text}: {e}"));
        assert_eq!(naive.fen(), format_position(&fast), "after {text}");
    }
    (fast, naive)
}

/// RULES.md: a double step is a quiet move, so a pawn alone may double-step
/// onto its lone unicorn. In this random-game position Black's unmoved pawn on
/// Aa4 may do so after almost every White move (an independent count: 13,855).
#[test]
fn a_pawns_double_step_joins_its_lone_unicorn() {
    use raum_conformance::naive::perft;
    let line = "Ea2-Ea4 W+U:Ab5-Ca4 Ee2-De3 Ad4-Ad3 Eb2-Eb4 Ba4-Ba3 Ec2-Dc3 W:Ca4-Ac2 W+U:Eb1-Cc2 Ac4-Ac3 \
                Ec1-Ea1 Ad5-Ac4";
    let (fast, naive) = both_after(None, line);
    for (depth, want) in (1..=2).zip([144, 13_855]) {
        assert_eq!(fast.perft(depth), want, "perft({depth})");
        assert_eq!(perft(&naive, depth), want, "naive perft({depth})");
    }
    // After almost every White move the double step onto the unicorn on Ca4
    // is there: those are the 135 leaves the old rule missed.
    let mut joining = Vec::new();
    for &m in fast.legal_moves().iter() {
        let mut next = fast;
        next.play(m);
        if moves(&next).contains("Aa4-Ca4") {
            joining.push(format_move(unicorn(), m));
        }
    }
    assert_eq!(joining.len(), 135);
    // It forms a pair, with the passed cell as the en-passant cell.
    let (joined, _) = both_after(None, &format!("{line} {} Aa4-Ca4", joining[0]));
    let s = format_position(&joined);
    assert!(s.contains("(pu)") && s.contains(" Ba4 "), "{s}");
}

/// The pair formed by a double step onto a lone unicorn is taken en passant,
/// both men; the pair itself may not double-step onto a friendly cell, but the
/// pawn alone from a shared cell may.
#[test]
fn a_pair_formed_by_a_double_step_is_taken_en_passant_both_men() {
    // Black: king Ae5, pawn Aa4, a lone unicorn on Ca4; White: king Ee1, pawn Bb3.
    let start = "4k|p4|5|5|5/5|5|1P3|5|5/5|u4|5|5|5/5|5|5|5|5/5|5|5|5|4K b - - 0 1";
    let (p, _) = both_after(Some(start), "");
    assert!(moves(&p).contains("Aa4-Ca4"), "{:?}", moves(&p));
    let (joined, naive) = both_after(Some(start), "Aa4-Ca4");
    assert_eq!(format_position(&joined), "4k|5|5|5|5/5|5|1P3|5|5/5|(pu)4|5|5|5/5|5|5|5|5/5|5|5|5|4K w - Ba4 0 2");
    assert_eq!(joined.perft(2), raum_conformance::naive::perft(&naive, 2));
    let (taken, _) = both_after(Some(start), "Aa4-Ca4 Bb3-Ba4");
    assert_eq!(format_position(&taken), "4k|5|5|5|5/5|P4|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|4K b - - 0 2");
    let u = unicorn().kind_of('U').unwrap();
    assert!(taken.kind_cells(u).is_empty(), "the unicorn went with its pawn");

    // From a shared cell: the pawn alone may double-step onto another lone
    // unicorn; the pair may not (a pair lands only on an empty or enemy cell).
    let shared = "4k|(pu)4|5|5|5/5|5|5|5|5/5|u4|5|5|5/5|5|5|5|5/5|5|5|5|4K b - - 0 1";
    let (p, _) = both_after(Some(shared), "");
    let t = texts_from(&p, "Aa4");
    assert!(t.contains(&"P:Aa4-Ca4".to_string()), "{t:?}");
    assert!(!t.contains(&"P+U:Aa4-Ca4".to_string()), "{t:?}");
    let (joined, _) = both_after(Some(shared), "P:Aa4-Ca4");
    assert!(format_position(&joined).starts_with("4k|u4|5|5|5/5|5|5|5|5/5|(pu)4|"), "{}", format_position(&joined));
}

#[test]
fn a_lone_unicorn_neither_checks_nor_captures_but_a_pair_does() {
    let v = unicorn();
    // A black unicorn on Ad4 is a unicorn's leap from the white king on Cc3.
    let lone = pos(v, "5|3u1|5|5|5/5|5|5|5|5/5|5|2K2|5|5/5|5|5|5|5/5|5|5|5|k4 w - - 0 1");
    assert!(!lone.is_check());
    let pair = pos(v, "5|3(nu)1|5|5|5/5|5|5|5|5/5|5|2K2|5|5/5|5|5|5|5/5|5|5|5|k4 w - - 0 1");
    assert!(pair.is_check(), "the pair attacks by the unicorn's leap");
    // Nor does a lone unicorn take: the white knight on Cc3 is safe from it.
    let p = pos(v, "5|3u1|5|5|5/5|5|5|5|5/5|5|2N2|5|5/5|5|5|5|5/4K|5|5|5|k4 b - - 0 1");
    assert!(!texts_from(&p, "Ad4").iter().any(|m| m.ends_with("Cc3")));
}

#[test]
fn capturing_a_pair_takes_both_men() {
    let v = unicorn();
    let mut p = pos(v, "5|5|5|5|5/5|5|5|5|5/5|(nu)4|5|5|R4/5|5|5|5|5/4K|5|5|5|4k w - - 0 1");
    let m = raum_notation::parse_move(&p, "Ca1-Ca4").unwrap();
    p.play(m);
    let u = v.kind_of('U').unwrap();
    assert!(p.kind_cells(u).is_empty(), "the unicorn went with its knight");
    assert_eq!(format_position(&p), "5|5|5|5|5/5|5|5|5|5/5|R4|5|5|5/5|5|5|5|5/4K|5|5|5|4k b - - 0 1");
}

#[test]
fn a_pinned_pair_may_split_but_not_leave_together() {
    // White king Ca1, the rook and its unicorn on Cb1, a black rook on Ce1.
    let p = pos(unicorn(), "5|5|5|5|5/5|5|5|5|5/5|5|5|5|K(RU)2r/5|5|5|5|5/4k|5|5|5|5 w - - 0 1");
    let t = texts_from(&p, "Cb1");
    let pair: Vec<&String> = t.iter().filter(|m| m.starts_with("R+U:")).collect();
    assert_eq!(pair, ["R+U:Cb1-Cc1", "R+U:Cb1-Cd1", "R+U:Cb1-Ce1"]);
    assert!(t.contains(&"R:Cb1-Cb2".to_string()), "{t:?}");
    assert!(t.iter().any(|m| m.starts_with("U:")), "{t:?}");
}

#[test]
fn a_castling_rook_takes_its_unicorn_along() {
    let v = unicorn();
    let mut p = pos(v, "4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|(RU)1K2 w K - 0 1");
    let m = raum_notation::parse_move(&p, "Ec1-Ea1").unwrap();
    p.play(m);
    assert!(format_position(&p).starts_with("4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|K1(RU)2 b"));
}

#[test]
fn a_pawn_joins_a_lone_unicorn_and_promotes_but_never_to_a_unicorn() {
    // The white pawn on Bc5 steps up onto its own unicorn on Ac5, a promotion cell.
    let p = pos(unicorn(), "2U2|5|5|5|4k/2P2|5|5|5|5/5|5|5|5|5/5|5|5|5|5/4K|5|5|5|5 w - - 0 1");
    let t = texts_from(&p, "Bc5");
    let up: Vec<&String> = t.iter().filter(|m| m.contains("Ac5")).collect();
    assert_eq!(up, ["Bc5-Ac5=B", "Bc5-Ac5=G", "Bc5-Ac5=N", "Bc5-Ac5=Q", "Bc5-Ac5=R", "Bc5-Ac5=W"]);
    let mut q = p;
    q.play(raum_notation::parse_move(&p, "Bc5-Ac5=Q").unwrap());
    assert!(format_position(&q).starts_with("2(QU)2|"), "{}", format_position(&q));
}

#[test]
fn shared_cells_in_moves_and_descriptive_notation() {
    use raum_notation::{format_descriptive, parse_move};
    let p = Position::start(unicorn());
    for (text, descriptive) in
        [("U:Eb1-Dd2", "U-Dd2"), ("W+U:Eb1-Cc2", "W+U-Cc2"), ("U:Eb1-Cc2", "U-Cc2"), ("Dd1-Bc1", "N-Bc1")]
    {
        let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(format_move(unicorn(), m), text);
        assert_eq!(format_descriptive(&p, m), descriptive);
        assert_eq!(parse_move(&p, descriptive).unwrap(), m, "{descriptive}");
    }
    // Lower-case prefixes and `x` are accepted.
    assert!(parse_move(&p, "w+u:Eb1xCc2").is_ok());
    // From a shared cell the prefix is needed; from a single man it is refused.
    let e = parse_move(&p, "Eb1-Cc2").unwrap_err().to_string();
    assert!(e.contains("say who moves"), "{e}");
    let e = parse_move(&p, "U:Ec2-Ec4").unwrap_err().to_string();
    assert!(e.contains("holds one man"), "{e}");
}

#[test]
fn shared_cells_that_the_rules_forbid_are_refused() {
    let v = unicorn();
    let with = |cell: &str| format!("5|5|5|5|4k/5|5|5|5|5/5|5|2{cell}2|5|5/5|5|5|5|5/4K|5|5|5|5 w - - 0 1");
    for (cell, why) in [
        ("(KU)", "cannot share"),
        ("(UU)", "two unicorns"),
        ("(Wu)", "its own side"),
        ("(UW)", "piece comes first"),
        ("(WU", "closing"),
        ("(W)", "piece letter then"),
        ("(WUU)", "piece letter then"),
    ] {
        let e = parse_position(v, &with(cell)).unwrap_err().to_string();
        assert!(e.contains(why), "{cell}: {e}");
    }
    let e = parse_position(Variant::get(VariantId::FiveUp), &with("(WU)")).unwrap_err().to_string();
    assert!(e.contains("no riding unicorns"), "{e}");
}

#[test]
fn the_diagram_lists_the_shared_cells() {
    let v = unicorn();
    let text = raum_notation::render_diagram(v, v.start_setup(), None);
    assert!(text.ends_with("Riding unicorns: Ab5 (wu), Eb1 (WU)\n"), "{text}");
}

/// Along random games of the three variants (moves from shared cells
/// preferred, to reach many of them): every legal move keeps both kings on
/// the board and the mover's king unattacked, and is taken back exactly.
#[test]
fn every_legal_move_is_safe_and_undone_along_random_games() {
    use raum_conformance::rng::Rng;
    for v in [cylinder(), torus(), unicorn()] {
        let mut rng = Rng::new(0xC0FFEE ^ v.id().seed());
        let mut positions = 0;
        for _game in 0..40 {
            let mut pos = Position::start(v);
            for _ply in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                positions += 1;
                let us = pos.side_to_move();
                for &m in moves.iter() {
                    let before = pos;
                    let undo = pos.play(m);
                    let kings = pos.kind_cells(v.king());
                    assert_eq!(
                        kings.count(),
                        2,
                        "{} {}: a king left the board",
                        format_position(&before),
                        format_move(v, m)
                    );
                    assert!(
                        !pos.king_attacked(us),
                        "{} {}: the mover's king is attacked",
                        format_position(&before),
                        format_move(v, m)
                    );
                    assert_eq!(pos.check_consistency(), Ok(()), "{} {}", format_position(&before), format_move(v, m));
                    pos.unplay(m, undo);
                    assert!(pos == before, "{}: {} not undone", format_position(&before), format_move(v, m));
                }
                let shared: Vec<_> = moves.iter().copied().filter(|m| m.shared_piece().is_some()).collect();
                let m = if !shared.is_empty() && rng.below(2) == 0 {
                    shared[rng.below(shared.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.play(m);
            }
        }
        assert!(positions > 2000, "{}: {positions}", v.id());
    }
}
