//! Five Up (Jim Aikin, 2004): seed 000 and RULES.md.
//!
//! Level A is the top (z = 0), E the bottom. White starts on levels D and E and
//! its pawns move forward (+rank) and up (towards A).
//!
//! The seed's "Variants of Variants" are the same game on other boards: the
//! hypercylinder (files wrap) and the hypertorus (every axis wraps, with the
//! non-combatant rule). Wrapping reaches the move generator through the board's
//! tables alone; the non-combatant rule is one flag of the spec. "Riding on a
//! Unicorn" adds a (1,1,2)-leaper per side that starts on the wizard's cell and
//! rides with a friendly piece: the spec's `rider`.

use super::row;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, Shape, Topology, Vector};

/// Five Up on a board whose axes wrap as `topology` says (`five-up`,
/// `five-up-cylinder`, `five-up-torus`), or with riding unicorns
/// (`five-up-unicorn`).
pub(super) fn spec(id: VariantId) -> VariantSpec {
    let (title, topology, torus) = match id {
        VariantId::FiveUpCylinder => ("Five Up on the hypercylinder", Topology::CYLINDER, false),
        VariantId::FiveUpTorus => ("Five Up on the hypertorus", Topology::TORUS, true),
        VariantId::FiveUpUnicorn => ("Five Up, riding on a unicorn", Topology::BOUNDED, false),
        _ => ("Five Up", Topology::BOUNDED, false),
    };
    let unicorn = id == VariantId::FiveUpUnicorn;
    let mut pieces = vec![
        // The king moves orthogonally but also *captures* one step on 3D diagonals.
        PieceDef::split(
            'K',
            "king",
            Role::King,
            Motion::stepper(&[Orthogonal]),
            Motion::stepper(&[Orthogonal, Diagonal3D]),
        ),
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&[Orthogonal, Diagonal2D])),
        PieceDef::new('R', "rook", Role::Piece, Motion::slider(&[Orthogonal])),
        PieceDef::new('B', "bishop", Role::Piece, Motion::slider(&[Diagonal2D])),
        PieceDef::new('N', "knight", Role::Piece, Motion::leaper(0, 1, 2)),
        PieceDef::new('W', "wizard", Role::Piece, Motion::slider(&[Diagonal2D, Diagonal3D])),
        PieceDef::new('G', "guard", Role::Piece, Motion::stepper(&[Orthogonal, Diagonal2D, Diagonal3D])),
        PieceDef::new('P', "pawn", Role::Pawn, Motion::default()),
    ];
    if unicorn {
        pieces.push(PieceDef::new('U', "unicorn", Role::Piece, Motion::leaper(1, 1, 2)));
    }
    let (e, d) = (4, 3);
    let mut army = Vec::new();
    row(&mut army, e, 0, "RWKGR");
    if unicorn {
        // "The unicorn begins the game on the same cell as the wizard."
        army.push((Coord::new(1, 0, e), 'U'));
    }
    row(&mut army, e, 1, "PPPPP");
    row(&mut army, d, 0, "NBQNB");
    row(&mut army, d, 1, "PPPPP");
    let forward = Vector::new(0, 1, 0);
    let up = Vector::new(0, 0, -1);
    let pawns = PawnRules {
        steps: vec![forward, up],
        captures: vec![
            Vector::new(-1, 1, 0),
            Vector::new(1, 1, 0),
            Vector::new(-1, 0, -1),
            Vector::new(1, 0, -1),
            Vector::new(0, 1, -1),
        ],
        // Only the pawns that start on level E (A for Black) may double-step.
        double_origins: (0..5).map(|x| Coord::new(x, 1, e)).collect(),
        double_steps: vec![[forward, forward], [up, up], [forward, up]],
        en_passant: true,
        promotion_cells: (0..5).map(|x| Coord::new(x, 4, 0)).collect(),
        promote_to: vec!['Q', 'R', 'B', 'N', 'W', 'G'],
        column_rule: false,
    };
    VariantSpec {
        id,
        title,
        shape: Shape::cuboid(5, 5, 5),
        topology,
        naming: CellNaming::LevelFileRank { levels: "ABCDE" },
        pieces,
        army,
        mirror: Mirror::flips([false, true, true]),
        pawn_sets: VariantSpec::mirrored_pawns(pawns, Mirror::flips([false, true, true]), [5, 5, 5]),
        start_sets: [0, 1],
        free_pawn_sets: false,
        // On the torus a pawn can come back round to a start cell: only one
        // that has not moved may double-step, so the board no longer tells.
        track_unmoved: torus,
        noncombatant: torus,
        rider: unicorn.then_some('U'),
        castling: CastlingRule::SwapOnce { rook: 'R' },
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        reconstruction: false,
    }
}
