//! John Savard's boards for two players (seed 001 and RULES.md): 3D Wing
//! Table Chess (with the Airman army or four unicorns), Forced 3D Chess and
//! Triquetral Cube Chess.
//!
//! The seed's pictures are lost, so the boards are RULES.md's
//! *reconstructions*, kept as data here and labelled wherever shown. Every
//! board is a centre block plus one 24-cell wing per side, stepped like the
//! army it holds: three ranks deep on the lowest level of the wing, two on
//! the next, one on the top. White's wing and army are given once; Black's
//! are their image under the board's symmetry ([`Mirror`]), which turns
//! Black's pawns too (on the Forced 3D board they stand in vertical columns).

use super::row;
use crate::game_rules::SideDef;
use crate::multi::{MultiId, MultiSpec};
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnRules, PawnSet, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, Shape, Topology, Vector};

/// Which of the four boards.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Board {
    WingTable,
    WingTableAlt,
    Forced3d,
    Triquetral,
}

/// White's wing: files `x0..x0 + 4`, ranks 0..2, stepped upward from level
/// `z0` (rank 3 on three levels, rank 2 on two, rank 1 on one).
fn in_wing(c: Coord, x0: i8, z0: i8) -> bool {
    (x0..x0 + 4).contains(&c.x) && (0..3).contains(&c.y) && c.z >= z0 && c.z - z0 <= c.y
}

/// Savard's pieces: the Airman army's, or the four-unicorn army's.
pub(super) fn pieces(airmen: bool) -> Vec<PieceDef> {
    let mut pieces = vec![
        PieceDef::new('K', "king", Role::King, Motion::stepper(&[Orthogonal, Diagonal2D, Diagonal3D])),
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&[Orthogonal, Diagonal2D, Diagonal3D])),
        PieceDef::new('R', "rook", Role::Piece, Motion::slider(&[Orthogonal])),
        PieceDef::new('B', "bishop", Role::Piece, Motion::slider(&[Diagonal2D])),
        PieceDef::new('U', "unicorn", Role::Piece, Motion::slider(&[Diagonal3D])),
        PieceDef::new('N', "knight", Role::Piece, Motion::leaper(0, 1, 2)),
    ];
    if airmen {
        pieces.push(PieceDef::new('A', "airman", Role::Piece, Motion::leaper(1, 2, 2)));
    }
    pieces.push(PieceDef::new('P', "pawn", Role::Pawn, Motion::default()));
    pieces
}

/// White's army in its wing, whose files start at `x0` and bottom level is `z0`.
pub(super) fn white_army(x0: i8, z0: i8, airmen: bool) -> Vec<(Coord, char)> {
    let mut army = Vec::new();
    row(&mut army, z0, 0, "RNNR");
    row(&mut army, z0, 1, if airmen { "BAAB" } else { "BUUB" });
    row(&mut army, z0 + 1, 1, "UQKU");
    for z in z0..z0 + 3 {
        row(&mut army, z, 2, "PPPP");
    }
    for (at, _) in &mut army {
        at.x += x0;
    }
    army
}

/// White's pawns: a step straight forward on their level, captures on the
/// four forward 3D diagonals, promotion where the forward step leaves the
/// board (which on these boards is also inside the centre).
pub(super) fn white_pawns(shape: &Shape, airmen: bool) -> PawnRules {
    let [w, h, levels] = shape.dims();
    let forward = Vector::new(0, 1, 0);
    let promotion_cells = (0..levels)
        .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
        .filter(|&c| shape.contains(c) && !shape.contains(Coord::new(c.x, c.y + 1, c.z)))
        .collect();
    let mut promote_to = vec!['Q', 'R', 'B', 'N', 'U'];
    if airmen {
        promote_to.push('A');
    }
    PawnRules {
        steps: vec![forward],
        captures: [(-1, -1), (-1, 1), (1, -1), (1, 1)].map(|(dx, dz)| Vector::new(dx, 1, dz)).to_vec(),
        double_origins: Vec::new(),
        double_steps: Vec::new(),
        en_passant: false,
        promotion_cells,
        promote_to,
        column_rule: false,
    }
}

/// The board's description.
pub(super) fn spec(board: Board) -> VariantSpec {
    let airmen = board == Board::WingTable || board == Board::Triquetral;
    let pieces = pieces(airmen);

    // Sizes of the bounding box, where White's wing starts, Black's symmetry.
    let (dims, x0, z0, mirror): ([i8; 3], i8, i8, Mirror) = match board {
        // Black is White turned 180 degrees about the vertical axis.
        Board::WingTable | Board::WingTableAlt => ([6, 12, 3], 1, 0, Mirror::flips([true, true, false])),
        // (x, y, z) -> (z, 11 - y, x) in RULES.md's 1-based terms.
        Board::Forced3d => ([4, 10, 4], 0, 0, Mirror { flip: [false, true, false], axes: [2, 1, 0] }),
        // The point reflection through the centre cube's middle.
        Board::Triquetral => ([5, 11, 5], 1, 1, Mirror::flips([true, true, true])),
    };
    let [w, h, levels] = dims;
    // The centre: every file and level, the three ranks past each wing.
    let centre = |c: Coord| (3..h - 3).contains(&c.y);
    let shape =
        Shape::from_fn(w, h, levels, |c| centre(c) || in_wing(c, x0, z0) || in_wing(mirror.cell(c, dims), x0, z0));
    let army = white_army(x0, z0, airmen);
    let pawns = white_pawns(&shape, airmen);
    let (id, title) = match board {
        Board::WingTable => (VariantId::WingTable, "3D Wing Table Chess"),
        Board::WingTableAlt => (VariantId::WingTableAlt, "3D Wing Table Chess, four unicorns"),
        Board::Forced3d => (VariantId::Forced3d, "Forced 3D Chess"),
        Board::Triquetral => (VariantId::Triquetral, "Triquetral Cube Chess (two players)"),
    };
    VariantSpec {
        id,
        title,
        shape,
        topology: Topology::BOUNDED,
        // Triquetral's levels 1-3 and 9-11 belong to the multi-player wings.
        naming: CellNaming::NumberFileRank { first: if board == Board::Triquetral { 4 } else { 1 } },
        pieces,
        army,
        mirror,
        pawn_sets: VariantSpec::mirrored_pawns(pawns, mirror, dims),
        start_sets: [0, 1],
        free_pawn_sets: false,
        track_unmoved: false,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::None,
        king_in_check: Some(Motion::stepper(&[Orthogonal])),
        stalemate: StalemateRule::ThreeFifths,
        reconstruction: true,
    }
}

/// A multi-player game (RULES.md "Savard's multi-player forms"): White's
/// two-player wing and Airman army moved three files right, every other side
/// White's image under a turn of the board (and, on the Triquetral board, the
/// point reflection through its centre).
pub(super) fn multi_spec(id: MultiId) -> MultiSpec {
    let identity = Mirror::flips([false; 3]);
    let side = |letter, name, map, team| SideDef { letter, name, map, team };
    // Turns about the vertical axis through the Wing Table's centre.
    let quarter = Mirror { flip: [false, true, false], axes: [1, 0, 2] };
    let three_quarters = Mirror { flip: [true, false, false], axes: [1, 0, 2] };
    // The three-fold turn about the cube's diagonal, R(x, y, z) = (z, x, y), twice, and
    // each followed by the point reflection P.
    let r = |flip: bool| Mirror { flip: [flip; 3], axes: [2, 0, 1] };
    let rr = |flip: bool| Mirror { flip: [flip; 3], axes: [1, 2, 0] };
    let (dims, x0, z0, title, sides, teams): ([i8; 3], i8, i8, &str, Vec<SideDef>, bool) = match id {
        MultiId::WingTable4p => (
            [12, 12, 3],
            4,
            0,
            "3D Wing Table Chess for four",
            vec![
                side('w', "White", identity, 0),
                side('r', "Red", quarter, 1),
                side('k', "Black", Mirror::flips([true, true, false]), 0),
                side('b', "Blue", three_quarters, 1),
            ],
            true,
        ),
        MultiId::Triquetral6p => (
            [11, 11, 11],
            4,
            4,
            "Triquetral Cube Chess for six",
            vec![
                side('w', "White", identity, 0),
                side('k', "Black", Mirror::flips([true; 3]), 1),
                side('b', "Blue", rr(false), 0),
                side('r', "Red", rr(true), 1),
                side('g', "Green", r(false), 0),
                side('y', "Yellow", r(true), 1),
            ],
            true,
        ),
        MultiId::Triquetral3p => (
            [8, 8, 8],
            4,
            4,
            "Triquetral Cube Chess for three",
            vec![side('w', "White", identity, 0), side('b', "Blue", rr(false), 1), side('g', "Green", r(false), 2)],
            false,
        ),
    };
    let [w, h, levels] = dims;
    // The centre: files, ranks (and on the cube levels) four to eight or nine.
    let centre = |c: Coord| match id {
        MultiId::WingTable4p => (3..=8).contains(&c.x) && (3..=8).contains(&c.y),
        _ => [c.x, c.y, c.z].iter().all(|v| (3..=7).contains(v)),
    };
    let white_wing: Vec<Coord> = (0..levels)
        .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
        .filter(|&c| in_wing(c, x0, z0))
        .collect();
    let wings: std::collections::HashSet<Coord> =
        sides.iter().flat_map(|s| white_wing.iter().map(move |&c| s.map.cell(c, dims))).collect();
    let shape = Shape::from_fn(w, h, levels, |c| centre(c) || wings.contains(&c));
    let pawns = white_pawns(&shape, true);
    let board = VariantSpec {
        // The two-player board whose tables these are like; the game's own
        // hash keys come from its MultiId.
        id: if id == MultiId::WingTable4p { VariantId::WingTable } else { VariantId::Triquetral },
        title,
        shape,
        topology: Topology::BOUNDED,
        naming: CellNaming::NumberFileRank { first: 1 },
        pieces: pieces(true),
        army: white_army(x0, z0, true),
        mirror: sides[1].map,
        pawn_sets: vec![PawnSet { name: "white".into(), rules: pawns }],
        start_sets: [0, 0],
        free_pawn_sets: false,
        track_unmoved: false,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::None,
        king_in_check: Some(Motion::stepper(&[Orthogonal])),
        stalemate: StalemateRule::ThreeFifths,
        reconstruction: true,
    };
    MultiSpec { id, title, board, sides, teams }
}
