//! Seed facts of the wide boards (seeds 002, 003, 004 and RULES.md), each an
//! exact test: Octahedral's pawn, Betza's Upright pawn and knight and the
//! seed's two example lines, The Book of 3D-Chess's cell names; castling on
//! the fixed-partner boards, checked against the naive reference too.

use raum_bitboard::{CellSet, Wide};
use raum_conformance::naive_wide::WidePosition;
use raum_notation::{format_move, format_position, parse_move, parse_position};
use raum_rules::{Color, Piece, Position, Setup, Variant, VariantId};

type W8 = Wide<8>;

fn variant(id: VariantId) -> &'static Variant<W8> {
    Variant::at_width(id)
}

fn names(v: &Variant<W8>, cells: W8) -> Vec<String> {
    let mut n: Vec<String> = cells.cells().map(|c| v.cell_name(c)).collect();
    n.sort();
    n
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A position of `men` (`(letter, cell)`, upper case White), White to move.
fn position(id: VariantId, men: &[(char, &str)], castling: u16) -> Position<W8> {
    let v = variant(id);
    let mut setup = Setup::empty(v.cells());
    for &(letter, cell) in men {
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        let at = v.parse_cell(cell).unwrap_or_else(|| panic!("{cell}"));
        setup.board[at] = Some(Piece::new(color, v.kind_of(letter).unwrap()));
    }
    setup.castling = castling;
    if v.tracks_unmoved() {
        setup.unmoved = Some(Vec::new());
    }
    Position::from_setup(v, setup).unwrap_or_else(|e| panic!("{e}"))
}

fn moves_from(pos: &Position<W8>, cell: &str) -> Vec<String> {
    let v = pos.variant();
    let from = v.parse_cell(cell).unwrap();
    let mut m: Vec<String> =
        pos.legal_moves().iter().filter(|m| m.from() == from).map(|&m| v.cell_name(m.to())).collect();
    m.sort();
    m
}

/// What `piece` on `cell` attacks: its targets with an enemy on every other cell.
fn attacks(v: &Variant<W8>, piece: Piece, cell: usize) -> W8 {
    let own = W8::single(cell);
    v.targets(piece, cell, own, v.tables().all() & !own)
}

#[test]
fn octahedral_pawn_on_ve5() {
    // Seed 002: "a pawn a Ve5 could move to IVe5, IVe6, Ve6, VIe6, or VIe5" and
    // attacks the ten cells one file left and right of those.
    let pos = position(VariantId::Octahedral, &[('K', "Va1"), ('k', "Vj10"), ('P', "Ve5")], 0);
    assert_eq!(moves_from(&pos, "Ve5"), sorted(&["IVe5", "IVe6", "Ve6", "VIe6", "VIe5"]));
    let v = pos.variant();
    let pawn = Piece::new(Color::White, v.pawn().unwrap());
    let cell = v.parse_cell("Ve5").unwrap();
    assert_eq!(
        names(v, attacks(v, pawn, cell)),
        sorted(&["IVd5", "IVf5", "IVd6", "IVf6", "Vd6", "Vf6", "VId6", "VIf6", "VId5", "VIf5"])
    );
}

#[test]
fn octahedral_pawn_column_rule() {
    // Seed 002: "A pawn may not move to a square on the same rank and file as another
    // pawn of either color ... When capturing a pawn may not be blocked in this way."
    // Black's pawn on VIe3 closes the e3 column to Ve2's quiet steps; the capture on
    // VIf3 stays open although Black's pawn there shares its column with nothing.
    let men = [('K', "Va1"), ('k', "Vj10"), ('P', "Ve2"), ('p', "VIe3"), ('p', "VIf3")];
    let pos = position(VariantId::Octahedral, &men, 0);
    assert_eq!(moves_from(&pos, "Ve2"), sorted(&["IVe2", "VIe2", "VIf3"]));
    let v = pos.variant();
    let fen = format_position(&pos);
    let naive = WidePosition::parse("octahedral", &fen).unwrap();
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|&m| format_move(v, m)).collect();
    fast.sort();
    assert_eq!(fast, naive.legal_moves());
    // An unmoved pawn double-steps in any of its five directions, path empty and
    // outside other pawns' columns: Vc2 up to VIIc2 does not exist (level VII
    // starts at file c, rank 3), the other four do.
    let start = Position::start(v);
    let doubles: Vec<String> = start
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == raum_rules::MoveKind::DoubleStep && v.cell_name(m.from()) == "Vc2")
        .map(|&m| v.cell_name(m.to()))
        .collect();
    assert_eq!(doubles.len(), 3, "{doubles:?}");
}

#[test]
fn octahedral_castling_both_ways() {
    let v = variant(VariantId::Octahedral);
    let pos = position(VariantId::Octahedral, &[('K', "Vg1"), ('R', "Va1"), ('R', "Vj1"), ('k', "Vg10")], 0b11);
    let kings = moves_from(&pos, "Vg1");
    assert!(kings.contains(&"Vi1".to_string()) && kings.contains(&"Vb1".to_string()), "{kings:?}");
    let long = parse_move(&pos, "Vg1-Vb1").unwrap();
    let after = pos.play_copy(long);
    assert_eq!(after.piece_at(v.parse_cell("Vc1").unwrap()).map(|p| v.piece_def(p.kind).letter), Some('R'));
    assert!(format_position(&after).contains(" b - - "), "{}", format_position(&after));
    // A black rook eyeing Vd1 (a cell the king crosses) forbids the long castling only.
    let pos =
        position(VariantId::Octahedral, &[('K', "Vg1"), ('R', "Va1"), ('R', "Vj1"), ('k', "Vg10"), ('r', "Vd8")], 0b11);
    let kings = moves_from(&pos, "Vg1");
    assert!(kings.contains(&"Vi1".to_string()) && !kings.contains(&"Vb1".to_string()), "{kings:?}");
    let naive = WidePosition::parse("octahedral", &format_position(&pos)).unwrap();
    assert!(naive.legal_moves().contains(&"Vg1-Vi1".to_string()));
    assert!(!naive.legal_moves().contains(&"Vg1-Vb1".to_string()));
}

#[test]
fn upright_pawn_and_knight() {
    let v = variant(VariantId::BetzaUpright);
    let at = |c: &str| v.parse_cell(c).unwrap();
    let pawn = Piece::new(Color::White, v.pawn().unwrap());
    // Seed 003: "a White Pawn at 4e4 may capture on 4d5, 4f5, 5d5, 3d5, 3f5, or 5f5".
    assert_eq!(names(v, attacks(v, pawn, at("4e4"))), sorted(&["4d5", "4f5", "5d5", "3d5", "3f5", "5f5"]));
    // "From 4e4, a Knight can go to 24 different places: 3d6, 4d6, 5d6; 3f6, 4f6, 5f6; and so on."
    let knight = Piece::new(Color::White, v.kind_of('N').unwrap());
    let t = v.targets(knight, at("4e4"), W8::EMPTY, W8::EMPTY);
    assert_eq!(t.count(), 24);
    for c in ["3d6", "4d6", "5d6", "3f6", "4f6", "5f6"] {
        assert!(t.has(at(c)), "{c}");
    }
    // "it is illegal for the Knight to move from 1g1 to 3g3".
    assert!(!v.targets(knight, at("1g1"), W8::EMPTY, W8::EMPTY).has(at("3g3")));
}

#[test]
fn upright_pawn_chain_line() {
    // Seed 003: "1. 4e4 4e6 2. 4d4 4d5 3. 4e5 4c5 4. 4c3 4c4 ... 5. 5d4 defends 4e5 with a
    // second Pawn".
    let v = variant(VariantId::BetzaUpright);
    let mut pos = Position::start(v);
    for mv in ["4e4", "4e6", "4d4", "4d5", "4e5", "4c5", "4c3", "4c4", "5d4"] {
        let m = parse_move(&pos, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        pos.play(m);
    }
    let target = v.parse_cell("4e5").unwrap();
    let pawn = v.pawn().unwrap();
    let guards: Vec<String> = pos
        .pieces(Color::White, pawn)
        .cells()
        .filter(|&p| v.pawn_captures(pos.pawn_set(Color::White), p).has(target))
        .map(|p| v.cell_name(p))
        .collect();
    assert_eq!(guards, ["4d4", "5d4"]);
}

#[test]
fn upright_refuses_the_seeds_knight_move() {
    // Seed 003's other line: after 1. 4e4 N4g8-4f6 2. 4e4-4e5, Black's N4f6-4d7 is
    // illegal: Black's own pawn stands on 4d7. The error names the move.
    let v = variant(VariantId::BetzaUpright);
    let mut pos = Position::start(v);
    for mv in ["4e4", "N4g8-4f6", "4e4-4e5"] {
        let m = parse_move(&pos, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        pos.play(m);
    }
    let err = parse_move(&pos, "N4f6-4d7").unwrap_err().to_string();
    assert!(err.contains("N4f6-4d7"), "{err}");
}

#[test]
fn betza_castling_partners() {
    // All six partners from an otherwise empty back rank; the 1a1 rook needs 3d1,
    // 2c1 and 1b1 (the king's line past its destination) empty.
    let v = variant(VariantId::BetzaUpright);
    let rooks = ["1a1", "1h1", "4a1", "4h1", "7h1", "8a1"];
    let mut men = vec![('K', "4e1"), ('k', "4e8")];
    men.extend(rooks.iter().map(|&r| ('R', r)));
    let all_white: u16 =
        v.castle_slots().enumerate().filter(|(_, s)| s.0 == Color::White).fold(0, |acc, (i, _)| acc | 1 << i);
    let pos = position(VariantId::BetzaUpright, &men, all_white);
    let fen = format_position(&pos);
    assert!(fen.contains(" w 1a1,1h1,4a1,4h1,7h1,8a1 - "), "{fen}");
    let castles: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == raum_rules::MoveKind::Castle)
        .map(|&m| format_move(v, m))
        .collect();
    assert_eq!(castles.len(), 6, "{castles:?}");
    for (mv, rook_to) in [("4e1-2c1", "3d1"), ("4e1-6c1", "5d1"), ("4e1-2g1", "3f1"), ("4e1-6g1", "5f1")] {
        let after = pos.play_copy(parse_move(&pos, mv).unwrap());
        assert!(after.piece_at(v.parse_cell(rook_to).unwrap()).is_some(), "{mv}");
        assert!(!format_position(&after).contains("1a1,"), "rights are gone after {mv}");
        let naive = WidePosition::parse("betza-upright", &fen).unwrap().play(mv).unwrap();
        assert_eq!(format_position(&after), naive.fen(), "{mv}");
    }
    // A piece on 1b1 blocks the 1a1 castling, though 1b1 is beyond the king's destination.
    let mut blocked = men.clone();
    blocked.push(('N', "1b1"));
    let pos = position(VariantId::BetzaUpright, &blocked, all_white);
    assert!(parse_move(&pos, "4e1-2c1").is_err());
}

#[test]
fn book_cells_and_start() {
    let v = variant(VariantId::Book3d);
    for name in ["E2α", "E2alpha", "E2.1"] {
        assert_eq!(v.parse_cell(name).map(|c| v.cell_name(c)), Some("E2α".to_string()), "{name}");
    }
    assert_eq!(v.parse_cell("H8theta").map(|c| v.cell_name(c)), Some("H8θ".to_string()));
    for bad in ["I3α", "E9α", "E2ι", "E2.9", "e2α", "E2", "E2omega"] {
        assert_eq!(v.parse_cell(bad), None, "{bad}");
    }
    let start = raum_notation::start_string(v);
    assert!(start.ends_with(" w - - +yz,-yz A2α,B2α,C2α,D2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 0 1"));
    // The queen moves as rook + bishop + 3D diagonals: up the file, 7 cells.
    let pos = Position::start(v);
    assert_eq!(moves_from(&pos, "D1α").len(), 28);
}

#[test]
fn unknown_cells_name_the_field() {
    let oct = variant(VariantId::Octahedral);
    let start = raum_notation::start_string(oct);
    let bad = start.replacen(" - Va2,", " Ke5 Va2,", 1);
    let err = parse_position(oct, &bad).unwrap_err().to_string();
    assert!(err.contains("en passant") && err.contains("Ke5"), "{err}");
    let betza = variant(VariantId::BetzaUpright);
    let start = raum_notation::start_string(betza);
    let bad = start.replacen("1a1,", "9a1,", 1);
    let err = parse_position(betza, &bad).unwrap_err().to_string();
    assert!(err.contains("castling") && err.contains("9a1"), "{err}");
    let book = variant(VariantId::Book3d);
    let start = raum_notation::start_string(book);
    let bad = start.replacen("A2α,", "I3α,", 1);
    let err = parse_position(book, &bad).unwrap_err().to_string();
    assert!(err.contains("unmoved") && err.contains("I3α"), "{err}");
    let bad = start.replacen("+yz,-yz", "+yy,-yz", 1);
    let err = parse_position(book, &bad).unwrap_err().to_string();
    assert!(err.contains("pawn axes") && err.contains("+yy"), "{err}");
    let err = parse_move(&Position::start(betza), "N4g8-9f6").unwrap_err().to_string();
    assert!(err.contains("9f6"), "{err}");
}

/// A Book of 3D-Chess start: White's and Black's men, axes by name, every pawn unmoved.
fn book_start(men: &[(char, String)], axes: [&str; 2]) -> Result<Position<W8>, String> {
    let v = variant(VariantId::Book3d);
    let mut setup = Setup::empty(v.cells());
    for (letter, cell) in men {
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        let at = v.parse_cell(cell).ok_or(cell.clone())?;
        setup.board[at] = Some(Piece::new(color, v.kind_of(*letter).unwrap()));
    }
    setup.pawn_sets = axes.map(|a| v.pawn_set_by_name(a).unwrap() as u8);
    setup.unmoved =
        Some((0..v.cells()).filter(|&c| setup.board[c].is_some_and(|p| Some(p.kind) == v.pawn())).collect());
    let pos = Position::from_setup(v, setup).map_err(|e| e.to_string())?;
    pos.check_start().map_err(|e| e.to_string())?;
    Ok(pos)
}

/// White's array standing in the plane of file A (altus x), files along the
/// levels, ranks 1 and 2; Black's the flat default on level α.
fn upright_white() -> Vec<(char, String)> {
    let greek = ['α', 'β', 'γ', 'δ', 'ε', 'ζ', 'η', 'θ'];
    let mut men = Vec::new();
    for (i, (officer, level)) in "RNBQKBNR".chars().zip(greek).enumerate() {
        men.push((officer, format!("A1{level}")));
        men.push(('P', format!("A2{level}")));
        let file = (b'A' + i as u8) as char;
        men.push((officer.to_ascii_lowercase(), format!("{file}8α")));
        men.push(('p', format!("{file}7α")));
    }
    men
}

#[test]
fn book_free_initial_projection() {
    // The flat default is a start.
    assert!(Position::start(variant(VariantId::Book3d)).check_start().is_ok());
    // White stands its array up in file A's plane: projected along x it is FIDE's.
    let mut men = upright_white();
    let pos = book_start(&men, ["+yx", "-yz"]).unwrap();
    assert!(format_position(&pos).contains(" w - - +yx,-yz "), "{}", format_position(&pos));
    assert!(pos.count_legal() > 0);
    // Any man may slide along the altus axis: the king from A1ε to H1ε projects the same.
    men.retain(|(_, c)| c != "A1ε");
    men.push(('K', "H1ε".into()));
    assert!(book_start(&men, ["+yx", "-yz"]).is_ok());
    // Read along the other axis, the same men are no start.
    let err = book_start(&upright_white(), ["+yz", "-yz"]).unwrap_err();
    assert!(err.contains("White") && err.contains("xy plane") && err.contains("same cell"), "{err}");
    // Queen and king swapped round is the array seen from the plane's other side.
    let mut mirrored = upright_white();
    for (l, c) in &mut mirrored {
        if c == "A1δ" {
            *l = 'K';
        } else if c == "A1ε" {
            *l = 'Q';
        }
    }
    assert!(book_start(&mirrored, ["+yx", "-yz"]).is_ok());
    // A knight and a bishop swapped is not FIDE's array; the message shows the row.
    let mut swapped = upright_white();
    for (l, c) in &mut swapped {
        if c == "A1β" {
            *l = 'B';
        } else if c == "A1γ" {
            *l = 'N';
        }
    }
    let err = book_start(&swapped, ["+yx", "-yz"]).unwrap_err();
    assert!(err.contains("White") && err.contains("back row reads RBNQKBNR along z"), "{err}");
    // A black pawn a row too far.
    let mut advanced = upright_white();
    for (_, c) in &mut advanced {
        if c == "E7α" {
            *c = "E6α".into();
        }
    }
    let err = book_start(&advanced, ["+yx", "-yz"]).unwrap_err();
    assert!(err.contains("Black") && err.contains("E6α") && err.contains("second row"), "{err}");
}
