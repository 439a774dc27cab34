//! Games being played, any number of sides: each a [`Room`](room::Room)
//! (the game, its seats, clocks, draw offer, result and listeners), kept in
//! memory while in use and in the [`Store`](crate::store::Store) always.
//!
//! Every change goes the same way: check it, apply it in memory, commit it
//! to the store (undoing it in memory if the store refuses), then tell the
//! listeners. So whatever a client was told is stored.
//!
//! One job a file. The game: [`room`] (a game in memory), `room_view` (its
//! JSON state), `restore` (a stored game replayed), [`game_result`],
//! `clock`, `offers` (a draw offer and a take-back request, as stored),
//! [`seat`] (who plays a side, and whose token it is). The
//! requests, as [`Games`]' methods: [`request`] (`POST /api/games`'s body
//! and its checks), `seating` (the seats it makes), `create`, `moves` (a
//! move; every event stored the same way; a fallen flag), `resign`, `draw`,
//! `takeback` (at one screen, against the engine), `takeback_request`
//! (asked and answered online), `rematch` (the next game, seats passed
//! on), `analysis`, `record`, `review` (a finished game's review, kept),
//! [`board`] (the analysis board: any position, nothing kept). Around them:
//! [`registry`] ([`Games`]: the rooms, the store, the engine threads),
//! `feed` (games other servers on the same database changed),
//! `schedule` (engine moves and flag timers, as tasks), `lease` (which
//! server does a game's timed work), `retention`
//! (abandoned games deleted), `tokens` (game ids and seat tokens, and the
//! hashes kept of tokens), [`refusal`].

mod analysis;
pub mod board;
mod clock;
mod create;
mod draw;
mod feed;
pub mod game_result;
mod lease;
mod moves;
mod offers;
mod presence;
mod record;
pub mod refusal;
pub mod registry;
pub mod rematch;
pub mod request;
mod resign;
mod restore;
mod retention;
mod review;
pub mod room;
mod room_view;
pub(crate) mod schedule;
pub mod seat;
pub mod seating;
mod takeback;
mod takeback_request;
pub(crate) mod tokens;

pub use registry::Games;
