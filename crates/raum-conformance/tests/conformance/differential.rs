//! Differential testing: on positions from random games, the fast table-driven
//! generator and the naive reference generators (`raum_conformance::naive` for
//! the 5x5x5 boards, `naive_savard` for Savard's, `naive_wide` for the others:
//! coordinates only, no tables)
//! list exactly the same legal moves, and playing a move gives the same
//! position string.

use raum_conformance::naive::NaivePosition;
use raum_conformance::naive_savard::SavardPosition;
use raum_conformance::naive_wide::WidePosition;
use raum_conformance::rng::Rng;
use raum_notation::{format_move, format_position};
use raum_rules::{Outcome, Position, Variant, VariantFn, VariantId, Width};

/// What the comparison needs of a reference generator.
trait Reference: Sized {
    fn parse(variant: &str, fen: &str) -> Result<Self, String>;
    fn legal_moves(&self) -> Vec<String>;
    fn play(&self, mv: &str) -> Result<Self, String>;
    fn fen(&self) -> String;
    fn in_check(&self) -> bool;
}

macro_rules! reference {
    ($t:ty) => {
        impl Reference for $t {
            fn parse(variant: &str, fen: &str) -> Result<Self, String> {
                <$t>::parse(variant, fen)
            }
            fn legal_moves(&self) -> Vec<String> {
                <$t>::legal_moves(self)
            }
            fn play(&self, mv: &str) -> Result<Self, String> {
                <$t>::play(self, mv)
            }
            fn fen(&self) -> String {
                <$t>::fen(self)
            }
            fn in_check(&self) -> bool {
                <$t>::in_check(self)
            }
        }
    };
}
reference!(NaivePosition);
reference!(WidePosition);
reference!(SavardPosition);

/// Plays random games until `positions` positions have been compared.
pub(crate) fn compare(id: VariantId, positions: usize, seed: u64) {
    let run = Compare { positions, seed };
    match id {
        VariantId::WingTable | VariantId::WingTableAlt | VariantId::Forced3d | VariantId::Triquetral => {
            id.dispatch(run.with::<SavardPosition>())
        }
        _ if id.width() == raum_rules::CellWidth::W128 => id.dispatch(run.with::<NaivePosition>()),
        _ => id.dispatch(run.with::<WidePosition>()),
    }
}

#[derive(Clone, Copy)]
struct Compare {
    positions: usize,
    seed: u64,
}

impl Compare {
    fn with<R: Reference>(self) -> CompareWith<R> {
        CompareWith(self, std::marker::PhantomData)
    }
}

struct CompareWith<R>(Compare, std::marker::PhantomData<R>);

impl<R: Reference> VariantFn for CompareWith<R> {
    type Output = ();
    fn call<S: Width>(self, v: &'static Variant<S>) {
        compare_at::<S, R>(v, self.0.positions, self.0.seed)
    }
}

fn compare_at<S: Width, R: Reference>(v: &'static Variant<S>, positions: usize, seed: u64) {
    let id = v.id();
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    let mut games = 0;
    let (mut captures, mut promotions, mut specials, mut checks) = (0, 0, 0, 0);
    while compared < positions {
        games += 1;
        let mut pos: Position<S> = Position::start(v);
        for _ in 0..400 {
            let fen = format_position(&pos);
            let naive = R::parse(id.name(), &fen).unwrap_or_else(|e| panic!("naive rejects {fen}: {e}"));
            let moves = pos.legal_moves();
            let mut fast: Vec<String> = moves.iter().map(|&m| format_move(v, m)).collect();
            fast.sort();
            let reference = naive.legal_moves();
            if fast != reference {
                let missing: Vec<_> = reference.iter().filter(|m| !fast.contains(m)).collect();
                let extra: Vec<_> = fast.iter().filter(|m| !reference.contains(m)).collect();
                panic!("{fen}\nmissing from fast: {missing:?}\nextra in fast: {extra:?}");
            }
            assert_eq!(pos.is_check(), naive.in_check(), "{fen}");
            compared += 1;
            checks += pos.is_check() as usize;
            if moves.is_empty() || matches!(pos.outcome(), Some(Outcome::Draw(_))) {
                break;
            }
            // Prefer captures and special moves now and then, to reach richer positions.
            let interesting: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    pos.piece_at(m.to()).is_some()
                        || m.promotion().is_some()
                        || m.kind() != raum_rules::MoveKind::Normal
                })
                .collect();
            let m = if !interesting.is_empty() && rng.below(3) == 0 {
                interesting[rng.below(interesting.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            captures += pos.piece_at(m.to()).is_some() as usize;
            promotions += m.promotion().is_some() as usize;
            specials += (m.kind() != raum_rules::MoveKind::Normal) as usize;
            let text = format_move(v, m);
            let after_naive = naive.play(&text).unwrap_or_else(|e| panic!("{fen}: naive refuses {text}: {e}"));
            pos.play(m);
            assert_eq!(format_position(&pos), after_naive.fen(), "after {text} from {fen}");
            if compared >= positions {
                break;
            }
        }
    }
    eprintln!(
        "{id}: {compared} positions in {games} games; {captures} captures, {promotions} promotions, \
         {specials} double steps/en passant/castling, {checks} checks"
    );
    let has_specials = v.has_double_steps() || v.has_castling();
    assert!(captures > 0 && promotions > 0 && checks > 0, "random games too tame to be a test");
    assert_eq!(specials > 0, has_specials, "special moves seen: {specials}");
}

#[test]
fn five_up_fast_equals_naive_on_10000_positions() {
    compare(VariantId::FiveUp, 10_000, 0x5EED_0001);
}

#[test]
fn raumschach_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Raumschach, 10_000, 0x5EED_0002);
}

#[test]
fn octahedral_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Octahedral, 10_000, 0x5EED_0003);
}

#[test]
fn pyramid_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Pyramid, 10_000, 0x5EED_0004);
}

#[test]
fn betza_upright_fast_equals_naive() {
    compare(VariantId::BetzaUpright, 10_000, 0x5EED_0005);
}

#[test]
fn betza_mixed_fast_equals_naive() {
    compare(VariantId::BetzaMixed, 10_000, 0x5EED_0006);
}

#[test]
fn betza_flat_fast_equals_naive() {
    compare(VariantId::BetzaFlat, 10_000, 0x5EED_0007);
}

#[test]
fn betza_very3d_fast_equals_naive() {
    compare(VariantId::BetzaVery3d, 10_000, 0x5EED_0008);
}

#[test]
fn book_3d_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Book3d, 10_000, 0x5EED_0009);
}

#[test]
fn five_up_cylinder_fast_equals_naive_on_10000_positions() {
    compare(VariantId::FiveUpCylinder, 10_000, 0x5EED_000A);
}

#[test]
fn five_up_torus_fast_equals_naive_on_10000_positions() {
    compare(VariantId::FiveUpTorus, 10_000, 0x5EED_000B);
}

#[test]
fn five_up_unicorn_fast_equals_naive_on_10000_positions() {
    compare(VariantId::FiveUpUnicorn, 10_000, 0x5EED_000C);
}

#[test]
fn wing_table_fast_equals_naive_on_10000_positions() {
    compare(VariantId::WingTable, 10_000, 0x5EED_000D);
}

#[test]
fn wing_table_alt_fast_equals_naive_on_10000_positions() {
    compare(VariantId::WingTableAlt, 10_000, 0x5EED_000E);
}

#[test]
fn forced_3d_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Forced3d, 10_000, 0x5EED_000F);
}

#[test]
fn triquetral_fast_equals_naive_on_10000_positions() {
    compare(VariantId::Triquetral, 10_000, 0x5EED_0010);
}
