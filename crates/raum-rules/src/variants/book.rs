//! The Book of 3D-Chess (Karlson, Puchta, Herrmann, 1992): seed 004 and RULES.md.
//!
//! 8x8x8, files A..H, ranks 1..8, levels α..θ (z = 0..7). Each side's pawns
//! have a forward axis and an altus axis of their own, chosen with the start
//! position (the free initial projection): the twelve choices are twelve pawn
//! sets, and a position names the one each side plays.

use super::row;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastlingRule, CellNaming, Mirror, PawnRules, PawnSet, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, DIRECTIONS, Shape, Topology, Vector};

/// A unit vector along `axis` (0 x, 1 y, 2 z) with sign `sign`.
fn unit(axis: usize, sign: i8) -> Vector {
    let mut c = [0; 3];
    c[axis] = sign;
    Vector::new(c[0], c[1], c[2])
}

fn component(v: Vector, axis: usize) -> i8 {
    [v.x, v.y, v.z][axis]
}

/// The pawn rules for forward `sign * axis` and altus axis `altus`.
pub(crate) fn pawn_rules(axis: usize, sign: i8, altus: usize) -> PawnRules {
    let f = unit(axis, sign);
    let (up, down) = (unit(altus, 1), unit(altus, -1));
    // The king steps whose forward component is >= 0, except those it moves by.
    let captures = DIRECTIONS
        .iter()
        .copied()
        .filter(|&d| component(d, axis) * sign >= 0 && d != f && d != up && d != down)
        .collect();
    let all: Vec<Coord> =
        (0..8).flat_map(|z| (0..8).flat_map(move |y| (0..8).map(move |x| Coord::new(x, y, z)))).collect();
    let far = if sign > 0 { 7 } else { 0 };
    PawnRules {
        steps: vec![f, up, down],
        captures,
        // Any pawn that has not moved may step two (`track_unmoved`).
        double_origins: all.clone(),
        double_steps: vec![[f, f], [up, up], [down, down]],
        en_passant: false,
        promotion_cells: all.into_iter().filter(|&c| [c.x, c.y, c.z][axis] == far).collect(),
        promote_to: vec!['Q', 'R', 'B', 'N'],
        column_rule: false,
    }
}

/// The twelve orientations, named as position strings write them (`+yz`:
/// forward +rank, altus level). White's default comes first, Black's second.
pub(crate) const ORIENTATIONS: [(usize, i8, usize); 12] = [
    (1, 1, 2),
    (1, -1, 2),
    (1, 1, 0),
    (1, -1, 0),
    (0, 1, 1),
    (0, 1, 2),
    (0, -1, 1),
    (0, -1, 2),
    (2, 1, 0),
    (2, 1, 1),
    (2, -1, 0),
    (2, -1, 1),
];

/// The name of an orientation: sign, forward axis, altus axis.
pub(crate) fn orientation_name((axis, sign, altus): (usize, i8, usize)) -> String {
    let letter = |a: usize| ['x', 'y', 'z'][a];
    format!("{}{}{}", if sign > 0 { '+' } else { '-' }, letter(axis), letter(altus))
}

pub(super) fn spec() -> VariantSpec {
    let all = [Orthogonal, Diagonal2D, Diagonal3D];
    let pieces = vec![
        PieceDef::new('K', "king", Role::King, Motion::stepper(&all)),
        // Rook + bishop + 3D diagonals (RULES.md: the literal text drops the rook).
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&all)),
        PieceDef::new('R', "rook", Role::Piece, Motion::slider(&[Orthogonal])),
        PieceDef::new('B', "bishop", Role::Piece, Motion::slider(&[Diagonal2D])),
        PieceDef::new('N', "knight", Role::Piece, Motion::leaper(0, 1, 2)),
        PieceDef::new('P', "pawn", Role::Pawn, Motion::default()),
    ];
    // The flat start: both armies on level α, Black facing White across the ranks.
    let mut army = Vec::new();
    row(&mut army, 0, 0, "RNBQKBNR");
    row(&mut army, 0, 1, "PPPPPPPP");
    let pawn_sets = ORIENTATIONS
        .iter()
        .map(|&(axis, sign, altus)| PawnSet {
            name: orientation_name((axis, sign, altus)),
            rules: pawn_rules(axis, sign, altus),
        })
        .collect();
    VariantSpec {
        id: VariantId::Book3d,
        title: "The Book of 3D-Chess",
        shape: Shape::cuboid(8, 8, 8),
        topology: Topology::BOUNDED,
        naming: CellNaming::FileRankGreek,
        pieces,
        army,
        mirror: Mirror::flips([false, true, false]),
        pawn_sets,
        start_sets: [0, 1],
        free_pawn_sets: true,
        track_unmoved: true,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::None,
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        reconstruction: false,
    }
}
