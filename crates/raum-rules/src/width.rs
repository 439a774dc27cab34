//! The one place where a variant's cell-set width is chosen.
//!
//! Positions, the move generator and everything above them are compiled once per
//! width ([`Width`]: `u128` for boards up to 128 cells, [`Wide<4>`] up to 256,
//! [`Wide<8>`] up to 512). An interface holds a [`VariantId`] and, to work on a
//! variant, hands a generic function ([`VariantFn`]) to [`VariantId::dispatch`],
//! which picks the width once; below that call nothing branches on width.
//!
//! ```
//! use raum_rules::{Position, Variant, VariantFn, VariantId, Width};
//! struct StartMoves;
//! impl VariantFn for StartMoves {
//!     type Output = u64;
//!     fn call<S: Width>(self, v: &'static Variant<S>) -> u64 {
//!         Position::start(v).count_legal()
//!     }
//! }
//! assert_eq!(VariantId::FiveUp.dispatch(StartMoves), 62);
//! ```

use crate::any_game::AnyGame;
use crate::game::Game;
use crate::moves::MoveList;
use crate::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use crate::position::Position;
use crate::spec::VariantId;
use crate::variant::Variant;
use raum_bitboard::{CellSet, Wide};
use std::sync::OnceLock;

/// How many cells a variant's sets hold: which [`Width`] it is compiled at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellWidth {
    /// Up to 128 cells (`u128`).
    W128,
    /// Up to 256 cells (`Wide<4>`).
    W256,
    /// Up to 512 cells (`Wide<8>`).
    W512,
}

/// A cell-set type that variants are built at, with one cache of built
/// variants per type.
pub trait Width: CellSet {
    /// The width this type stands for.
    const WIDTH: CellWidth;
    /// The cache slot of `id` at this width.
    fn slot(index: usize) -> &'static OnceLock<Variant<Self>>;
    /// The cache slot of multi-player game `index` ([`MultiId::ALL`]) at this width.
    fn multi_slot(index: usize) -> &'static OnceLock<MultiVariant<Self>>;
    /// `game` as what it is: a game at one of the three widths ([`GameAt`]).
    fn game_at(game: &Game<Self>) -> GameAt<'_>;
    /// `game` as what it is: a multi-player game at one of the three widths.
    fn multi_game_at(game: &MultiGame<Self>) -> MultiGameAt<'_>;
    /// `game` held as any game ([`AnyGame`]).
    fn two_game(game: Game<Self>) -> AnyGame;
    /// `game` held as any game ([`AnyGame`]).
    fn multi_game(game: MultiGame<Self>) -> AnyGame;
    /// The two-player game at this width inside `game`, if it is one.
    fn two_of(game: AnyGame) -> Option<Game<Self>>;
    /// The multi-player game at this width inside `game`, if it is one.
    fn multi_of(game: AnyGame) -> Option<MultiGame<Self>>;
    /// The move generator at this width ([`Position::legal_moves_into`]).
    /// The generators are reached through these functions, which are not
    /// generic, so that they are compiled once per width in this crate and
    /// not again in every crate that generates moves (at `opt-level = 3`
    /// Rust shares no generic code between crates).
    #[doc(hidden)]
    fn legal_moves_into(pos: &Position<Self>, list: &mut MoveList);
    /// [`Position::count_legal`] at this width (see [`Width::legal_moves_into`]).
    #[doc(hidden)]
    fn count_legal(pos: &Position<Self>) -> u64;
    /// [`Position::perft`] at this width (see [`Width::legal_moves_into`]).
    #[doc(hidden)]
    fn perft(pos: &Position<Self>, depth: u32) -> u64;
    /// The multi-player generator at this width: every legal move, or
    /// (`noisy`) the captures and promotions (see [`Width::legal_moves_into`]).
    #[doc(hidden)]
    fn multi_generate(pos: &MultiPosition<Self>, list: &mut MoveList, noisy: bool);
}

/// A game at one of the three widths. A library whose entry point is generic
/// over the width (`raum_engine::Engine::search`) matches on this in a
/// non-generic function, so that its code is compiled once per width in the
/// library itself, and not again in every crate that calls it (at
/// `opt-level = 3` Rust does not share generic code between crates).
pub enum GameAt<'a> {
    /// Up to 128 cells.
    W128(&'a Game<u128>),
    /// Up to 256 cells.
    W256(&'a Game<Wide<4>>),
    /// Up to 512 cells.
    W512(&'a Game<Wide<8>>),
}

/// A multi-player game at one of the three widths (see [`GameAt`]).
pub enum MultiGameAt<'a> {
    /// Up to 128 cells.
    W128(&'a MultiGame<u128>),
    /// Up to 256 cells.
    W256(&'a MultiGame<Wide<4>>),
    /// Up to 512 cells.
    W512(&'a MultiGame<Wide<8>>),
}

macro_rules! width {
    ($t:ty, $w:expr, $at:ident, $two:ident, $multi:ident) => {
        impl Width for $t {
            const WIDTH: CellWidth = $w;
            fn slot(index: usize) -> &'static OnceLock<Variant<Self>> {
                static CACHE: [OnceLock<Variant<$t>>; VariantId::ALL.len()] =
                    [const { OnceLock::new() }; VariantId::ALL.len()];
                &CACHE[index]
            }
            fn multi_slot(index: usize) -> &'static OnceLock<MultiVariant<Self>> {
                static CACHE: [OnceLock<MultiVariant<$t>>; MultiId::ALL.len()] =
                    [const { OnceLock::new() }; MultiId::ALL.len()];
                &CACHE[index]
            }
            fn game_at(game: &Game<Self>) -> GameAt<'_> {
                GameAt::$at(game)
            }
            fn multi_game_at(game: &MultiGame<Self>) -> MultiGameAt<'_> {
                MultiGameAt::$at(game)
            }
            fn two_game(game: Game<Self>) -> AnyGame {
                AnyGame::$two(game)
            }
            fn multi_game(game: MultiGame<Self>) -> AnyGame {
                AnyGame::$multi(game)
            }
            fn two_of(game: AnyGame) -> Option<Game<Self>> {
                match game {
                    AnyGame::$two(g) => Some(g),
                    _ => None,
                }
            }
            fn multi_of(game: AnyGame) -> Option<MultiGame<Self>> {
                match game {
                    AnyGame::$multi(g) => Some(g),
                    _ => None,
                }
            }
            fn legal_moves_into(pos: &Position<Self>, list: &mut MoveList) {
                pos.generate_legal_into(list)
            }
            fn count_legal(pos: &Position<Self>) -> u64 {
                pos.generate_count()
            }
            fn perft(pos: &Position<Self>, depth: u32) -> u64 {
                pos.generate_perft(depth)
            }
            fn multi_generate(pos: &MultiPosition<Self>, list: &mut MoveList, noisy: bool) {
                pos.generate(list, noisy)
            }
        }
    };
}

width!(u128, CellWidth::W128, W128, Two128, Multi128);
width!(Wide<4>, CellWidth::W256, W256, Two256, Multi256);
width!(Wide<8>, CellWidth::W512, W512, Two512, Multi512);

/// A computation over a variant of any width: the generic body an interface
/// runs once the width is known (see [`VariantId::dispatch`]).
pub trait VariantFn {
    /// What it returns.
    type Output;
    /// Runs on the built variant.
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output;
}

impl VariantId {
    /// The width this variant is compiled at.
    pub fn width(self) -> CellWidth {
        crate::file::registry::width_for(crate::variants::cells(self))
    }

    /// Runs `f` on this variant at its width: the single place where a
    /// variant's width is chosen.
    pub fn dispatch<F: VariantFn>(self, f: F) -> F::Output {
        match self.width() {
            CellWidth::W128 => f.call(Variant::<u128>::at_width(self)),
            CellWidth::W256 => f.call(Variant::<Wide<4>>::at_width(self)),
            CellWidth::W512 => f.call(Variant::<Wide<8>>::at_width(self)),
        }
    }
}

impl<S: Width> Variant<S> {
    /// The shared, fully built variant `id` at width `S`.
    ///
    /// # Panics
    /// If `id` is not compiled at width `S` (see [`VariantId::width`]): a
    /// programming error, not an input error; [`VariantId::dispatch`] never does.
    pub fn at_width(id: VariantId) -> &'static Variant<S> {
        assert_eq!(id.width(), S::WIDTH, "variant {id} is not built at this width");
        if let VariantId::Custom(c) = id {
            return crate::file::registry::get(c).variant();
        }
        let index = VariantId::ALL.iter().position(|&v| v == id).unwrap_or(0);
        S::slot(index).get_or_init(|| {
            Variant::build(crate::variants::spec(id))
                .unwrap_or_else(|e| panic!("built-in variant {id} is invalid: {e}"))
        })
    }
}

/// A computation over a multi-player game of any width (see [`MultiId::dispatch`]).
pub trait MultiFn {
    /// What it returns.
    type Output;
    /// Runs on the built game.
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output;
}

impl MultiId {
    /// The width this game is compiled at.
    pub fn width(self) -> CellWidth {
        crate::file::registry::width_for(self.cells())
    }

    /// Runs `f` on this game at its width.
    pub fn dispatch<F: MultiFn>(self, f: F) -> F::Output {
        match self.width() {
            CellWidth::W128 => f.call(MultiVariant::<u128>::at_width(self)),
            CellWidth::W256 => f.call(MultiVariant::<Wide<4>>::at_width(self)),
            CellWidth::W512 => f.call(MultiVariant::<Wide<8>>::at_width(self)),
        }
    }
}

impl<S: Width> MultiVariant<S> {
    /// The shared, fully built game `id` at width `S`.
    ///
    /// # Panics
    /// If `id` is not compiled at width `S` (see [`MultiId::width`]); [`MultiId::dispatch`] never does.
    pub fn at_width(id: MultiId) -> &'static MultiVariant<S> {
        assert_eq!(id.width(), S::WIDTH, "game {id} is not built at this width");
        if let MultiId::Custom(c) = id {
            return crate::file::registry::get(c).multi();
        }
        let index = MultiId::ALL.iter().position(|&v| v == id).unwrap_or(0);
        S::multi_slot(index).get_or_init(|| {
            MultiVariant::build(crate::variants::multi_spec(id))
                .unwrap_or_else(|e| panic!("built-in game {id} is invalid: {e}"))
        })
    }
}
