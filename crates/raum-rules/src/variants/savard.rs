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
use crate::motion::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec};
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

/// The board's description.
pub(super) fn spec(board: Board) -> VariantSpec {
    let airmen = board == Board::WingTable || board == Board::Triquetral;
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

    // Pawns step straight forward on their level and promote where that
    // step leaves the board, which on these boards is also inside the centre.
    let forward = Vector::new(0, 1, 0);
    let promotion_cells = (0..levels)
        .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
        .filter(|&c| shape.contains(c) && !shape.contains(Coord::new(c.x, c.y + 1, c.z)))
        .collect();
    let mut promote_to = vec!['Q', 'R', 'B', 'N', 'U'];
    if airmen {
        promote_to.push('A');
    }
    let pawns = PawnRules {
        steps: vec![forward],
        captures: [(-1, -1), (-1, 1), (1, -1), (1, 1)].map(|(dx, dz)| Vector::new(dx, 1, dz)).to_vec(),
        double_origins: Vec::new(),
        double_steps: Vec::new(),
        en_passant: false,
        promotion_cells,
        promote_to,
        column_rule: false,
    };
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
