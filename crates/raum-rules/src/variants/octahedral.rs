//! Octahedral Chess and Pyramid Chess (Michael D. Ward, 1996): seed 002 and RULES.md.
//!
//! Nine centred square levels I (bottom, z = 0) .. IX, 2x2 to 10x10; every man
//! starts on level V. Pyramid Chess keeps levels V..IX. White's pawns move
//! forward (+rank) in their file's vertical plane; "up" is +z for both sides.

use super::row;
use crate::piece::Color;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastleSlot, CastlingRule, CellNaming, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, Shape, Topology, Vector};

/// Octahedral Chess (`pyramid == false`) or Pyramid Chess.
pub(super) fn spec(pyramid: bool) -> VariantSpec {
    let all = [Orthogonal, Diagonal2D, Diagonal3D];
    let pieces = vec![
        PieceDef::new('K', "king", Role::King, Motion::stepper(&all)),
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&all)),
        PieceDef::new('R', "rook", Role::Piece, Motion::slider(&[Orthogonal])),
        PieceDef::new('B', "bishop", Role::Piece, Motion::slider(&[Diagonal2D])),
        PieceDef::new('E', "elephant", Role::Piece, Motion::slider(&[Diagonal3D])),
        PieceDef::new('N', "knight", Role::Piece, Motion::leaper(0, 1, 2)),
        PieceDef::new('P', "pawn", Role::Pawn, Motion::default()),
    ];
    // Level V's index: the middle of nine, or the bottom of the pyramid.
    let v_level: i8 = if pyramid { 0 } else { 4 };
    let levels = if pyramid { 5 } else { 9 };
    let shape = Shape::from_fn(10, 10, levels, |c| {
        let k = (c.z - v_level).abs();
        (k..10 - k).contains(&c.x) && (k..10 - k).contains(&c.y)
    });
    let mut army = Vec::new();
    row(&mut army, v_level, 0, "RNBQEEKBNR");
    row(&mut army, v_level, 1, "PPPPPPPPPP");

    let quiet = [
        Vector::new(0, 1, 0),
        Vector::new(0, 1, 1),
        Vector::new(0, 1, -1),
        Vector::new(0, 0, 1),
        Vector::new(0, 0, -1),
    ];
    let captures = quiet.iter().flat_map(|v| [-1, 1].map(|dx| Vector::new(dx, v.y, v.z))).collect();
    let cells: Vec<Coord> = (0..levels)
        .flat_map(|z| (0..10).flat_map(move |y| (0..10).map(move |x| Coord::new(x, y, z))))
        .filter(|&c| shape.contains(c))
        .collect();
    let pawns = PawnRules {
        steps: quiet.to_vec(),
        captures,
        // Any pawn that has not moved may double-step; which have moved is
        // position state (`track_unmoved`), since a pawn can step up and back.
        double_origins: cells.clone(),
        double_steps: quiet.iter().map(|&v| [v, v]).collect(),
        en_passant: true,
        promotion_cells: cells.iter().copied().filter(|c| c.y == 9).collect(),
        promote_to: vec!['Q', 'R', 'B', 'N', 'E'],
        column_rule: true,
    };
    let mirror = Mirror::flips([false, true, false]);
    let at = |x: i8| Coord::new(x, 0, v_level);
    let mut slots = Vec::new();
    for color in Color::ALL {
        let place = |c: Coord| if color == Color::White { c } else { mirror.cell(c, [10, 10, levels]) };
        let side = |l: char| Some(if color == Color::White { l } else { l.to_ascii_lowercase() });
        // j-side: king g1 -> i1, rook j1 -> h1.
        slots.push(CastleSlot {
            color,
            letter: side('K'),
            king: [place(at(6)), place(at(8))],
            rook: [place(at(9)), place(at(7))],
            empty: [7, 8].map(|x| place(at(x))).to_vec(),
            crossed: vec![place(at(7))],
        });
        // a-side: king g1 -> b1 (five cells), rook a1 -> c1.
        slots.push(CastleSlot {
            color,
            letter: side('Q'),
            king: [place(at(6)), place(at(1))],
            rook: [place(at(0)), place(at(2))],
            empty: (1..6).map(|x| place(at(x))).collect(),
            crossed: (2..6).rev().map(|x| place(at(x))).collect(),
        });
    }
    VariantSpec {
        id: if pyramid { VariantId::Pyramid } else { VariantId::Octahedral },
        title: if pyramid { "Pyramid Chess" } else { "Octahedral Chess" },
        shape,
        topology: Topology::BOUNDED,
        naming: CellNaming::RomanFileRank { first: if pyramid { 5 } else { 1 } },
        pieces,
        army,
        mirror,
        pawn_sets: VariantSpec::mirrored_pawns(pawns, mirror, [10, 10, levels]),
        start_sets: [0, 1],
        free_pawn_sets: false,
        track_unmoved: true,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::Slots { rook: 'R', slots },
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        reconstruction: false,
    }
}
