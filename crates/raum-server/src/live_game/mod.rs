//! One game type for every game the app serves, two sides or more:
//! [`LiveGame`] holds a [`raum_rules::AnyGame`] (the width and the number of
//! sides picked once, when the game is made) and keeps beside it what the
//! app shows: the events (moves, and in games for more than two the
//! resignations and fallen flags), each with its notation, the men it
//! changed and the check it gave. Every call is one body over
//! [`GameRules`], or one `on_game!` where the position's own type is needed
//! (descriptive notation, the multi-player check marks).
//!
//! Every side for itself, a side that resigns (or whose flag falls) is out
//! as a side with no legal move is (docs/rules.md): its men leave the board
//! and the turn passes on ([`GameRules::resign`]).

mod lines;
mod views;

pub use lines::{EngineLine, Lines, MAX_LINES};

pub use views::{Analysis, Event, MoveView, key_of, side_key};

use raum_notation::{
    Record, describe_legal, format_descriptive, format_game_start, format_multi_move, game_termination,
};
use raum_notation::{format_game_move, format_game_position, parse_game, parse_game_move};
use raum_rules::multi::{MultiGame, MultiPosition};
use raum_rules::{Action, AnyGame, Game, GameId, GameResult, GameRules, Move, SideDef, Width, on_game};

/// A move refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Not a legal move (or not readable as one), with the notation's reason.
    #[error("{0}")]
    Illegal(String),
}

/// A game of any variant and any number of sides: a start, the events, and
/// what the app shows.
#[derive(Clone)]
pub struct LiveGame {
    game: AnyGame,
    events: Vec<Event>,
    start: Vec<(usize, String)>,
}

/// The game a record describes, replayed under the rules (any number of
/// sides; the name the multi-player games' tests know it by).
pub fn replay_multi(record: &Record) -> Result<LiveGame, String> {
    LiveGame::replay(record)
}

/// The men on `cell` as the app writes them: `P`/`p` (two sides: upper case
/// for White), `WU`/`wu` for a piece and its riding unicorn (the piece
/// first, as position strings write a shared cell), `wK`, `bQ` (more sides:
/// side letter, piece letter).
fn man_text(game: &AnyGame, cell: usize) -> Option<String> {
    let (side, kind) = game.man_at(cell)?;
    let letter = game.pieces()[kind.0 as usize].letter;
    let rider = on_game!(game, g => {
        let p = g.position();
        p.variant().rider().filter(|_| p.rider_at(cell)).map(|r| p.variant().piece_def(r).letter)
    }, _m => None);
    let men: String = std::iter::once(letter).chain(rider).collect();
    Some(match game.sides() {
        [_, _] if side == 0 => men,
        [_, _] => men.to_ascii_lowercase(),
        sides => format!("{}{letter}", sides[side].letter),
    })
}

fn men(game: &AnyGame) -> Vec<Option<String>> {
    (0..game.cells()).map(|c| man_text(game, c)).collect()
}

/// The royal cells that the state marks: the side to move's in check (two
/// sides); every side still in whose king an opposed side attacks (more
/// sides: a king may stand attacked while others move).
fn check_cells(game: &AnyGame) -> Vec<usize> {
    on_game!(game, g => g.royals_in_check(), g => attacked_royals(g.position()))
}

fn attacked_royals<S: Width>(pos: &MultiPosition<S>) -> Vec<usize> {
    let king = pos.variant().board().king();
    pos.sides_in()
        .into_iter()
        .filter(|&s| pos.king_attacked(s))
        .filter_map(|s| (pos.side_cells(s) & pos.kind_cells(king)).cells().next())
        .collect()
}

/// A legal move in the notation the move list shows: descriptive for two
/// sides, coordinates for more.
fn notation(game: &AnyGame, m: Move) -> String {
    on_game!(game, g => format_descriptive(g.position(), m), g => format_multi_move(g.position().variant(), m))
}

fn move_view(game: &AnyGame, m: Move, san: String) -> MoveView {
    MoveView {
        coord: format_game_move(game, m),
        san,
        from: m.from(),
        to: m.to(),
        promotion: m.promotion().map(|k| game.pieces()[k.0 as usize].letter),
    }
}

/// The same game from its start, with nothing played.
fn from_start(game: &AnyGame) -> AnyGame {
    on_game!(game, g => AnyGame::from(Game::new(*g.start())), g => AnyGame::from(MultiGame::new(g.start().clone())))
}

impl LiveGame {
    /// A fresh game of `id`, from its start or from a position string.
    pub fn new(id: GameId, fen: Option<&str>) -> Result<LiveGame, String> {
        let game = match fen {
            Some(fen) => parse_game(id, fen).map_err(|e| format!("position string: {e}"))?,
            None => AnyGame::start(id),
        };
        Ok(LiveGame::of(game))
    }

    fn of(game: AnyGame) -> LiveGame {
        let start = men(&game).into_iter().enumerate().filter_map(|(c, m)| Some((c, m?))).collect();
        LiveGame { game, events: Vec::new(), start }
    }

    /// The game a record describes, replayed under the rules, with the
    /// events the app shows built one by one.
    pub fn replay(record: &Record) -> Result<LiveGame, String> {
        let game = record.replay().map_err(|e| e.to_string())?;
        let mut live = LiveGame::of(from_start(&game));
        for a in game.actions() {
            match a {
                Action::Move(m) => live.push(m).map_err(|e| format!("a replayed move is refused: {e}"))?,
                // A two-player resignation is the game's result, not an event.
                Action::Resign(_) if live.two() => {}
                Action::Resign(side) => {
                    live.resign(side, "resign").map_err(|e| format!("a replayed resignation is refused: {e}"))?;
                }
            }
        }
        Ok(live)
    }

    /// Which game.
    pub fn id(&self) -> GameId {
        self.game.id()
    }

    /// Whether two sides play it.
    pub fn two(&self) -> bool {
        self.sides().len() == 2
    }

    /// Its sides in turn order.
    pub fn sides(&self) -> &'static [SideDef] {
        self.game.sides()
    }

    /// Whether the sides play in teams (two-player games: two teams of one).
    pub fn teams(&self) -> bool {
        self.game.teams() && !self.two()
    }

    /// Events so far (moves, resignations and fallen flags).
    pub fn ply(&self) -> usize {
        self.events.len()
    }

    /// The side to move (index in turn order).
    pub fn side(&self) -> usize {
        self.game.side_to_move()
    }

    /// The sides still in, in turn order.
    pub fn sides_in(&self) -> Vec<usize> {
        (0..self.sides().len()).filter(|&s| self.game.is_in(s)).collect()
    }

    /// Reads `text` (coordinates, or for two sides descriptive notation too)
    /// and plays it for the side to move.
    pub fn play(&mut self, text: &str) -> Result<&Event, MoveError> {
        if self.game.result().is_some() {
            return Err(MoveError::GameOver);
        }
        let m = parse_game_move(&self.game, text.trim()).map_err(|e| MoveError::Illegal(e.to_string()))?;
        self.push(m).map_err(MoveError::Illegal)?;
        self.events.last().ok_or_else(|| MoveError::Illegal(format!("{text}: not legal here")))
    }

    fn push(&mut self, m: Move) -> Result<(), String> {
        let before = men(&self.game);
        let (mover, number) = (self.side(), self.game.fullmove_number());
        let mut san = notation(&self.game, m);
        let view = move_view(&self.game, m, String::new());
        let was_in = self.sides_in();
        self.game.play(m).map_err(|_| format!("{}: not legal here", view.coord))?;
        let checks = check_cells(&self.game);
        let sides = self.sides();
        let check =
            checks.iter().any(|&c| self.game.man_at(c).is_some_and(|(s, _)| sides[s].team != sides[mover].team));
        if check && !self.two() {
            san.push('+');
        }
        let event = Event::new("move", san, Some(view), side_key(&sides[mover]), number, check, checks);
        self.record_event(event, &before, &was_in);
        Ok(())
    }

    fn record_event(&mut self, mut event: Event, before: &[Option<String>], was_in: &[usize]) {
        let after = men(&self.game);
        event.changes = (0..after.len()).filter(|&c| before[c] != after[c]).map(|c| (c, after[c].clone())).collect();
        event.out = was_in.iter().filter(|&&s| !self.game.is_in(s)).map(|&s| side_key(&self.sides()[s])).collect();
        self.events.push(event);
    }

    /// `side` resigns, or its flag fell (`kind`: `resign` or `time`); games
    /// for more than two only (see the module's notes).
    pub fn resign(&mut self, side: usize, kind: &'static str) -> Result<(), String> {
        let before = men(&self.game);
        let was_in = self.sides_in();
        let number = self.game.fullmove_number();
        self.game.resign(side).map_err(|e| e.to_string())?;
        let def = &self.sides()[side];
        let san = if kind == "time" { format!("{}'s time is up", def.name) } else { format!("{} resigns", def.name) };
        let event = Event::new(kind, san, None, side_key(def), number, false, check_cells(&self.game));
        self.record_event(event, &before, &was_in);
        // With teams the men stay, and the side is out all the same.
        let event = self.events.last_mut().expect("just pushed");
        if !event.out.contains(&event.color) {
            event.out.insert(0, event.color);
        }
        Ok(())
    }

    /// Takes the last event back; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if self.events.is_empty() || !self.game.undo() {
            return false;
        }
        self.events.pop();
        true
    }

    /// How the rules (or a resignation in the game) ended it, if they did.
    pub fn outcome(&self) -> Option<GameResult> {
        self.game.result()
    }

    /// The `Termination` word for how the rules ended it, as records write it.
    pub fn termination(&self) -> Option<&'static str> {
        game_termination(&self.game)
    }

    /// The start's position string.
    pub fn start_fen(&self) -> String {
        format_game_start(&self.game)
    }

    /// The position string now.
    pub fn fen(&self) -> String {
        format_game_position(&self.game)
    }

    /// The events.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The men at the start: `(cell, "P")`, `(cell, "wK")`.
    pub fn start_pieces(&self) -> &[(usize, String)] {
        &self.start
    }

    /// The side to move's legal moves (none once the game is over).
    pub fn legal(&self) -> Vec<MoveView> {
        if self.game.result().is_some() {
            return Vec::new();
        }
        let g = &self.game;
        on_game!(g,
            two => describe_legal(two.position()).into_iter().map(|(m, san)| move_view(g, m, san)).collect(),
            multi => multi.position().legal_moves().iter().map(|&m| move_view(g, m, notation(g, m))).collect())
    }

    /// The royal cells the board marks (see [`check_cells`]).
    pub fn check(&self) -> Vec<usize> {
        check_cells(&self.game)
    }

    /// Whether the side to move's royal is attacked.
    pub fn in_check(&self) -> bool {
        !self.game.royals_in_check().is_empty()
    }

    /// The game as a record (tags for the variant and start; the caller adds the rest).
    pub fn record(&self) -> Record {
        Record::from_game(&self.game)
    }
}

#[cfg(test)]
mod tests;
