//! The multi-player games: boards, starts, first moves, perft, and the
//! two-player Savard boards replayed as games of two sides.

use raum_rules::multi::{MultiId, MultiPosition, MultiVariant};
use raum_rules::{MultiFn, Width};

struct Facts;
impl MultiFn for Facts {
    type Output = (usize, usize, Vec<u64>);
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
        let pos = MultiPosition::start(v);
        let perft = (1..=3).map(|d| pos.perft(d)).collect();
        (v.cells(), pos.legal_moves().len(), perft)
    }
}

#[test]
fn boards_and_first_moves() {
    for (id, cells, first) in
        [(MultiId::WingTable4p, 204, 20), (MultiId::Triquetral3p, 197, 22), (MultiId::Triquetral6p, 269, 22)]
    {
        let (c, f, perft) = id.dispatch(Facts);
        println!("{id}: {c} cells, {f} first moves, perft {perft:?}");
        assert_eq!((c, f), (cells, first), "{id}");
    }
}

/// The two-player Savard boards are the case of two sides: the
/// make-and-test generator and the two-player one (masks and pins) agree.
#[test]
fn two_player_boards_as_two_sides() {
    use raum_rules::SideDef;
    use raum_rules::multi::MultiSpec;
    use raum_rules::{Mirror, Position, Variant, VariantFn, VariantId};
    struct Compare;
    impl VariantFn for Compare {
        type Output = ();
        fn call<S: Width>(self, two: &'static Variant<S>) {
            let board = two.spec().clone();
            let sides = vec![
                SideDef { letter: 'w', name: "White", map: Mirror::flips([false; 3]), team: 0 },
                SideDef { letter: 'k', name: "Black", map: board.mirror, team: 1 },
            ];
            let spec = MultiSpec { id: MultiId::WingTable4p, title: "two sides", board, sides, teams: true };
            let multi: &'static MultiVariant<S> = Box::leak(Box::new(MultiVariant::build(spec).unwrap()));
            let fast = Position::start(two);
            let slow = MultiPosition::start(multi);
            for depth in 1..=3 {
                assert_eq!(slow.perft(depth), fast.perft(depth), "{} perft({depth})", two.id());
            }
        }
    }
    for id in [VariantId::WingTable, VariantId::WingTableAlt, VariantId::Forced3d, VariantId::Triquetral] {
        id.dispatch(Compare);
    }
}
