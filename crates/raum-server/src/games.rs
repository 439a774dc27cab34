//! Games being played: each a [`Room`](room::Room) (the game, its seats,
//! clocks, result and listeners), kept in memory while in use and in the
//! [`Store`](crate::store::Store) always.
//!
//! Every change goes the same way: check it, apply it in memory, commit it
//! to the store (undoing it in memory if the store refuses), then tell the
//! listeners. So whatever a client was told is stored.
//!
//! One job a file: [`refusal`] (a refused request), [`request`] (the
//! `POST /api/games` request, its checks and its answer), [`seat`] (whose
//! token it is), [`game_result`], `clock`, [`room`] (a two-player game in
//! memory), `room_view` (its JSON state), [`registry`] ([`Games`]: the rooms,
//! the store, the engine threads), `tokens` (game ids and seat tokens),
//! `handlers` (the two-player requests) and `schedule` (engine moves and
//! clock flags, as tasks). Multi-player games are in
//! [`multi_room`](crate::multi_room).

mod clock;
pub mod game_result;
mod handlers;
pub mod refusal;
pub mod registry;
pub mod request;
pub mod room;
mod room_view;
mod schedule;
pub mod seat;
pub(crate) mod tokens;

pub use registry::Games;
