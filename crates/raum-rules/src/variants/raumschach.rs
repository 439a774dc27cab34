//! Raumschach (Ferdinand Maack, 1907) with the Dickins set-up, per RULES.md.
//!
//! Level A is White's bottom (z = 0); White's pawns move forward (+rank) and up
//! (towards E).

use super::row;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, Shape, Topology, Vector};

pub(super) fn spec() -> VariantSpec {
    let all = [Orthogonal, Diagonal2D, Diagonal3D];
    let pieces = vec![
        PieceDef::new('K', "king", Role::King, Motion::stepper(&all)),
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&all)),
        PieceDef::new('R', "rook", Role::Piece, Motion::slider(&[Orthogonal])),
        PieceDef::new('B', "bishop", Role::Piece, Motion::slider(&[Diagonal2D])),
        PieceDef::new('N', "knight", Role::Piece, Motion::leaper(0, 1, 2)),
        PieceDef::new('U', "unicorn", Role::Piece, Motion::slider(&[Diagonal3D])),
        PieceDef::new('P', "pawn", Role::Pawn, Motion::default()),
    ];
    let mut army = Vec::new();
    row(&mut army, 0, 0, "RNKNR");
    row(&mut army, 0, 1, "PPPPP");
    row(&mut army, 1, 0, "BUQBU");
    row(&mut army, 1, 1, "PPPPP");
    let forward = Vector::new(0, 1, 0);
    let up = Vector::new(0, 0, 1);
    let pawns = PawnRules {
        steps: vec![forward, up],
        captures: vec![
            Vector::new(-1, 1, 0),
            Vector::new(1, 1, 0),
            Vector::new(-1, 0, 1),
            Vector::new(1, 0, 1),
            Vector::new(0, 1, 1),
        ],
        double_origins: Vec::new(),
        double_steps: Vec::new(),
        en_passant: false,
        promotion_cells: (0..5).map(|x| Coord::new(x, 4, 4)).collect(),
        promote_to: vec!['Q', 'R', 'B', 'N', 'U'],
        column_rule: false,
    };
    VariantSpec {
        id: VariantId::Raumschach,
        title: "Raumschach",
        shape: Shape::cuboid(5, 5, 5),
        topology: Topology::BOUNDED,
        naming: CellNaming::LevelFileRank { levels: "ABCDE" },
        pieces,
        army,
        // Black is White reflected through the centre of the cube.
        mirror: Mirror::flips([true, true, true]),
        pawn_sets: VariantSpec::mirrored_pawns(pawns, Mirror::flips([true, true, true]), [5, 5, 5]),
        start_sets: [0, 1],
        free_pawn_sets: false,
        track_unmoved: false,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::None,
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        reconstruction: false,
    }
}
