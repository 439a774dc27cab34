//! Betza's 3D Chess family on 8x8x8 (seed 003 and RULES.md): Upright, Mixed,
//! Flat and Very 3D differ only in the pawn's captures and the knight.
//!
//! Levels 1 (bottom, z = 0) .. 8. Each side has the FIDE line-up on every
//! level; only the kings on 4e1 and 4e8 are royal, the other fourteen are
//! commoners.

use super::row;
use crate::piece::Color;
use crate::piece_def::{Motion, PieceDef, Role};
use crate::spec::{CastleSlot, CastlingRule, CellNaming, Mirror, PawnRules, StalemateRule, VariantId, VariantSpec};
use raum_geometry::Family::{Diagonal2D, Diagonal3D, Orthogonal};
use raum_geometry::{Coord, Shape, Topology, Vector, leap_vectors};

/// The four rule sets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    Upright,
    Mixed,
    Flat,
    Very3d,
}

/// `(±a, ±b, s)` and `(±b, ±a, s)` for `s` in -1..=1: a 2D leap that may also
/// rise or descend one level.
fn flat_leaps_with_level(a: i8, b: i8) -> Vec<Vector> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [-1, 1] {
            for sy in [-1, 1] {
                for s in -1..=1 {
                    let w = Vector::new(sx * x, sy * y, s);
                    if !v.contains(&w) {
                        v.push(w);
                    }
                }
            }
        }
    }
    v
}

pub(super) fn spec(rules: Rules) -> VariantSpec {
    let all = [Orthogonal, Diagonal2D, Diagonal3D];
    // Rook: the orthogonals and the eight diagonals that change the level,
    // (±1,0,±1) and (0,±1,±1): 14 directions.
    let level_diagonals: Vec<Vector> = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .flat_map(|(x, y)| [-1, 1].map(|z| Vector::new(x, y, z)))
        .collect();
    // Bishop: (±1,±1,s): the four flat diagonals and the eight 3D diagonals.
    let flat_diagonals: Vec<Vector> =
        [(1, 1), (1, -1), (-1, 1), (-1, -1)].into_iter().map(|(x, y)| Vector::new(x, y, 0)).collect();
    let knight = match rules {
        Rules::Upright | Rules::Flat => Motion::leaps(&flat_leaps_with_level(1, 2)),
        Rules::Mixed => Motion::leaper(0, 1, 2),
        Rules::Very3d => Motion::leaps(&leap_vectors(1, 1, 2)),
    };
    let pieces = vec![
        PieceDef::new('K', "king", Role::King, Motion::stepper(&all)),
        PieceDef::new('Q', "queen", Role::Piece, Motion::slider(&all)),
        PieceDef::new(
            'R',
            "rook",
            Role::Piece,
            Motion::slider(&[Orthogonal]).with(Motion::ray_slider(&level_diagonals)),
        ),
        PieceDef::new(
            'B',
            "bishop",
            Role::Piece,
            Motion::slider(&[Diagonal3D]).with(Motion::ray_slider(&flat_diagonals)),
        ),
        PieceDef::new('N', "knight", Role::Piece, knight),
        PieceDef::new('C', "commoner", Role::Piece, Motion::stepper(&all)),
        PieceDef::new('P', "pawn", Role::Pawn, Motion::default()),
    ];
    let mut army = Vec::new();
    for z in 0..8 {
        row(&mut army, z, 0, if z == 3 { "RNBQKBNR" } else { "RNBQCBNR" });
        row(&mut army, z, 1, "PPPPPPPP");
    }
    let forward = Vector::new(0, 1, 0);
    let captures = match rules {
        Rules::Upright => flat_leaps_with_level(1, 1).into_iter().filter(|v| v.y == 1).collect(),
        Rules::Mixed => vec![Vector::new(-1, 1, 0), Vector::new(1, 1, 0), Vector::new(0, 1, -1), Vector::new(0, 1, 1)],
        Rules::Flat => vec![Vector::new(-1, 1, 0), Vector::new(1, 1, 0)],
        Rules::Very3d => {
            vec![Vector::new(-1, 1, -1), Vector::new(1, 1, -1), Vector::new(-1, 1, 1), Vector::new(1, 1, 1)]
        }
    };
    let every = |y: i8| -> Vec<Coord> { (0..8).flat_map(|z| (0..8).map(move |x| Coord::new(x, y, z))).collect() };
    let pawns = PawnRules {
        steps: vec![forward],
        captures,
        double_origins: every(1),
        double_steps: vec![[forward, forward]],
        en_passant: true,
        promotion_cells: every(7),
        promote_to: vec!['Q', 'R', 'B', 'N'],
        column_rule: false,
    };
    let mirror = Mirror::flips([false, true, false]);
    let mut slots = Vec::new();
    for color in Color::ALL {
        let place = |c: Coord| if color == Color::White { c } else { mirror.cell(c, [8, 8, 8]) };
        // (rook's file, rook's level, the level step of the king's line).
        for (rx, rz, dz) in [(7, 3, 0), (7, 0, -1), (7, 6, 1), (0, 3, 0), (0, 7, 1), (0, 0, -1)] {
            let dx: i8 = if rx == 7 { 1 } else { -1 };
            let on_line = |i: i8| Coord::new(4 + i * dx, 0, 3 + i * dz);
            let between = (rx - 4i8).abs();
            slots.push(CastleSlot {
                color,
                letter: None,
                king: [place(on_line(0)), place(on_line(2))],
                rook: [place(Coord::new(rx, 0, rz)), place(on_line(1))],
                // The king's line on every file strictly between king and rook.
                empty: (1..between).map(|i| place(on_line(i))).collect(),
                crossed: vec![place(on_line(1))],
            });
        }
    }
    let (id, title) = match rules {
        Rules::Upright => (VariantId::BetzaUpright, "Upright 3D Chess"),
        Rules::Mixed => (VariantId::BetzaMixed, "3D Chess (Mixed)"),
        Rules::Flat => (VariantId::BetzaFlat, "3D Chess (Flat)"),
        Rules::Very3d => (VariantId::BetzaVery3d, "3D Chess (Very 3D)"),
    };
    VariantSpec {
        id,
        title,
        shape: Shape::cuboid(8, 8, 8),
        topology: Topology::BOUNDED,
        naming: CellNaming::NumberFileRank { first: 1 },
        pieces,
        army,
        mirror,
        pawn_sets: VariantSpec::mirrored_pawns(pawns, mirror, [8, 8, 8]),
        start_sets: [0, 1],
        free_pawn_sets: false,
        track_unmoved: false,
        noncombatant: false,
        rider: None,
        castling: CastlingRule::Slots { rook: 'R', slots },
        king_in_check: None,
        stalemate: StalemateRule::Draw,
        reconstruction: false,
    }
}
