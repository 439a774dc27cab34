//! Notation for a game of any number of sides ([`AnyGame`]): its position
//! strings and its moves in coordinates, each read and written by the
//! notation of its kind (RULES.md "Position strings", "Moves"). An interface
//! that holds an [`AnyGame`] reads and writes through these, whatever the
//! game.
//!
//! ```
//! use raum_notation::{format_game_move, format_game_position, parse_game, parse_game_move};
//! use raum_rules::{AnyGame, GameId, GameRules};
//! for name in ["raumschach", "triquetral-3p"] {
//!     let id = GameId::from_name(name).unwrap();
//!     let mut game = AnyGame::start(id);
//!     let first = game.legal_moves()[0];
//!     let text = format_game_move(&game, first);
//!     assert_eq!(parse_game_move(&game, &text), Ok(first));
//!     game.play(first).unwrap();
//!     let fen = format_game_position(&game);
//!     assert_eq!(format_game_position(&parse_game(id, &fen).unwrap()), fen);
//! }
//! ```

use crate::error::{FenError, MoveError};
use crate::moves::{format_move, format_multi_move, parse_move, parse_multi_move};
use crate::position::{format_multi_position, format_position, parse_multi_position, parse_position};
use raum_rules::multi::{MultiGame, MultiVariant};
use raum_rules::{AnyGame, Game, GameId, Move, MultiFn, Variant, VariantFn, Width, on_game};

/// A game of `id` that starts from the position string `fen`.
pub fn parse_game(id: GameId, fen: &str) -> Result<AnyGame, FenError> {
    struct Two<'a>(&'a str);
    impl VariantFn for Two<'_> {
        type Output = Result<AnyGame, FenError>;
        fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
            Ok(AnyGame::from(Game::new(parse_position(v, self.0)?)))
        }
    }
    struct Multi<'a>(&'a str);
    impl MultiFn for Multi<'_> {
        type Output = Result<AnyGame, FenError>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
            Ok(AnyGame::from(MultiGame::new(parse_multi_position(v, self.0)?)))
        }
    }
    match id {
        GameId::Two(v) => v.dispatch(Two(fen)),
        GameId::Multi(m) => m.dispatch(Multi(fen)),
    }
}

/// The position string of the position now.
pub fn format_game_position(game: &AnyGame) -> String {
    on_game!(game, g => format_position(g.position()), g => format_multi_position(g.position()))
}

/// The position string of the game's start.
pub fn format_game_start(game: &AnyGame) -> String {
    on_game!(game, g => format_position(g.start()), g => format_multi_position(g.start()))
}

/// A move in coordinates (`Ec2-Ec4`, `2e3-2e4`, `=Q` for a promotion).
pub fn format_game_move(game: &AnyGame, m: Move) -> String {
    on_game!(game, g => format_move(g.position().variant(), m), g => format_multi_move(g.position().variant(), m))
}

/// Reads a move of the side to move and checks that it is legal: in
/// coordinates, or (two sides) in descriptive notation too.
pub fn parse_game_move(game: &AnyGame, text: &str) -> Result<Move, MoveError> {
    on_game!(game, g => parse_move(g.position(), text), g => parse_multi_move(g.position(), text))
}
