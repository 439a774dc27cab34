//! One game type for every multi-player game (RULES.md "Savard's
//! multi-player forms"): [`LiveMulti`] hides the board's cell-set width
//! behind a trait object, as [`crate::any_game::LiveGame`] does for two players;
//! [`new_multi`] and [`replay_multi`] pick the width once, through
//! [`MultiId::dispatch`].
//!
//! A game is a list of *events*: moves, and resignations, one for each of
//! the rules core's actions ([`MultiGame::actions`]). With teams a
//! resignation ends the game; every side for itself the side that resigns is
//! out, as a side with no legal move is (docs/rules.md): its men leave the
//! board and the turn passes on ([`MultiGame::resign`]).

use crate::any_game::MoveError;
use raum_engine::Limits;
use raum_engine::multi::MultiEngine;
use raum_notation::{
    Record, format_multi_move, format_multi_position, game_termination, parse_multi_move, parse_multi_position,
};
use raum_rules::Action;
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{AnyGame, GameResult, SideDef};
use raum_rules::{Move, MultiFn, Points, Width};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The word a side goes by in the API, links and seats: its name in lower
/// case (`white`, `red`, `blue`), from its letter (RULES.md fixes both).
pub fn side_key(side: &SideDef) -> &'static str {
    match side.letter {
        'w' => "white",
        'k' => "black",
        'r' => "red",
        'b' => "blue",
        'g' => "green",
        'y' => "yellow",
        _ => side.name,
    }
}

/// A legal move as the app shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MultiMoveView {
    /// Coordinates, `2e3-2e4`, `2f8-2f9=Q`.
    pub coord: String,
    /// What the move list shows: the coordinates (multi-player games have no
    /// descriptive notation).
    pub san: String,
    /// Origin cell.
    pub from: usize,
    /// Destination cell.
    pub to: usize,
    /// The letter promoted to.
    pub promotion: Option<char>,
}

/// Something that happened in the game: a move or a resignation.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MultiEvent {
    /// `move` or `resign`.
    pub kind: &'static str,
    /// A move's coordinates (`None` for a resignation).
    pub coord: Option<String>,
    /// What the move list shows: `2e3-2e4+`, `Blue resigns`.
    pub san: String,
    /// A move's origin cell.
    pub from: Option<usize>,
    /// A move's destination cell.
    pub to: Option<usize>,
    /// The letter a move promotes to.
    pub promotion: Option<char>,
    /// The side that moved or resigned ([`side_key`]).
    pub color: &'static str,
    /// The round it belongs to.
    pub number: u32,
    /// The royal cells attacked by an opposed side afterwards.
    pub check: Vec<usize>,
    /// The sides that left the game with it (the one resigning, or sides
    /// left with no legal move).
    pub out: Vec<&'static str>,
    /// Each cell it changed and what the cell holds after it (`wK`; `None`: empty).
    pub changes: Vec<(usize, Option<String>)>,
}

/// What a resignation did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resigned {
    /// Each side's score in turn order when it ends the game (with teams, or
    /// when one side is left); `None` when the game goes on without the side.
    pub ends: Option<Vec<Points>>,
}

/// A multi-player game of any width.
pub trait LiveMulti: Send + Sync {
    /// Which game.
    fn id(&self) -> MultiId;
    /// Its sides in turn order.
    fn sides(&self) -> &'static [SideDef];
    /// Whether the sides play in teams.
    fn teams(&self) -> bool;
    /// Events so far (moves and resignations).
    fn ply(&self) -> usize;
    /// The side to move (index in turn order).
    fn side(&self) -> usize;
    /// The sides still in, in turn order.
    fn sides_in(&self) -> Vec<usize>;
    /// Reads a coordinate move and plays it for the side to move.
    fn play(&mut self, text: &str) -> Result<&MultiEvent, MoveError>;
    /// `side` resigns (see the module's notes).
    fn resign(&mut self, side: usize) -> Result<Resigned, String>;
    /// Takes the last event back; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// How the rules ended the game, if they did.
    fn outcome(&self) -> Option<GameResult>;
    /// The `Termination` word for how the rules ended it, as records write
    /// it ([`raum_notation::game_termination`]: `resignation` where a
    /// resignation ended it).
    fn termination(&self) -> Option<&'static str>;
    /// The start's position string.
    fn start_fen(&self) -> String;
    /// The position string now.
    fn fen(&self) -> String;
    /// The events.
    fn events(&self) -> &[MultiEvent];
    /// The men at the start: `(cell, "wK")`.
    fn start_pieces(&self) -> &[(usize, String)];
    /// The side to move's legal moves (none once the rules ended the game).
    fn legal(&self) -> Vec<MultiMoveView>;
    /// The royal cells attacked now by an opposed side.
    fn check(&self) -> Vec<usize>;
    /// Whether the side to move's royal is attacked.
    fn in_check(&self) -> bool;
    /// The game as a record: start, moves and resignations (`Blue-resigns`),
    /// and the rules' result and termination if they ended it (the caller
    /// adds names and other results).
    fn record(&self) -> Record;
    /// The engine's move for the side to move, in coordinates.
    fn search(&self, engine: &mut MultiEngine, limits: &Limits, stop: &AtomicBool) -> Option<String>;
    /// A copy, for a search that must not hold the game.
    fn boxed_clone(&self) -> Box<dyn LiveMulti>;
}

/// A fresh game of `id`, from its start or from a position string.
pub fn new_multi(id: MultiId, fen: Option<&str>) -> Result<Box<dyn LiveMulti>, String> {
    struct New<'a>(Option<&'a str>);
    impl MultiFn for New<'_> {
        type Output = Result<Box<dyn LiveMulti>, String>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
            let start = match self.0 {
                Some(fen) => parse_multi_position(v, fen).map_err(|e| format!("position string: {e}"))?,
                None => MultiPosition::start(v),
            };
            Ok(Box::new(Multi::new(v, start)))
        }
    }
    id.dispatch(New(fen))
}

/// The game a multi-player record describes, replayed under the rules.
pub fn replay_multi(record: &Record) -> Result<Box<dyn LiveMulti>, String> {
    match record.replay().map_err(|e| e.to_string())? {
        AnyGame::Multi128(game) => replayed(game),
        AnyGame::Multi256(game) => replayed(game),
        AnyGame::Multi512(game) => replayed(game),
        other => Err(format!("{} is a game for two players", other.id())),
    }
}

/// A replayed game, with the events the app shows built one by one.
fn replayed<S: Width>(game: MultiGame<S>) -> Result<Box<dyn LiveMulti>, String> {
    let mut live = Multi::new(game.start().variant(), game.start().clone());
    for &a in game.actions() {
        match a {
            Action::Move(m) => live.push(m).map_err(|e| format!("a replayed move is refused: {e}"))?,
            Action::Resign(side) => {
                live.resign(side).map_err(|e| format!("a replayed resignation is refused: {e}"))?;
            }
        }
    }
    Ok(Box::new(live))
}

#[derive(Clone)]
struct Multi<S: Width> {
    v: &'static MultiVariant<S>,
    game: MultiGame<S>,
    /// One per action of the game, in order.
    events: Vec<MultiEvent>,
    start: Vec<(usize, String)>,
}

fn men<S: Width>(pos: &MultiPosition<S>) -> Vec<(usize, String)> {
    pos.men().into_iter().map(|(cell, side, kind)| (cell, man_text(pos, side as usize, kind))).collect()
}

fn man_text<S: Width>(pos: &MultiPosition<S>, side: usize, kind: raum_rules::Kind) -> String {
    let v = pos.variant();
    format!("{}{}", v.sides()[side].letter, v.board().piece_def(kind).letter)
}

/// The cells whose men differ between two positions, and what each holds in the second.
fn changes<S: Width>(before: &MultiPosition<S>, after: &MultiPosition<S>) -> Vec<(usize, Option<String>)> {
    (before.occupied() | after.occupied())
        .cells()
        .filter(|&c| before.man_at(c) != after.man_at(c))
        .map(|c| (c, after.man_at(c).map(|(side, kind)| man_text(after, side, kind))))
        .collect()
}

/// The royal cells of sides still in that an opposed side attacks.
fn attacked_royals<S: Width>(pos: &MultiPosition<S>) -> Vec<usize> {
    let king = pos.variant().board().king();
    pos.sides_in()
        .into_iter()
        .filter(|&s| pos.king_attacked(s))
        .filter_map(|s| (pos.side_cells(s) & pos.kind_cells(king)).cells().next())
        .collect()
}

/// The sides in before and out after.
fn left<S: Width>(
    v: &'static MultiVariant<S>,
    before: &MultiPosition<S>,
    after: &MultiPosition<S>,
) -> Vec<&'static str> {
    let sides = v.sides();
    (0..sides.len()).filter(|&s| before.is_in(s) && !after.is_in(s)).map(|s| side_key(&sides[s])).collect()
}

impl<S: Width> Multi<S> {
    fn new(v: &'static MultiVariant<S>, start: MultiPosition<S>) -> Self {
        let game = MultiGame::new(start);
        let start = men(game.position());
        Multi { v, game, events: Vec::new(), start }
    }

    fn game(&self) -> &MultiGame<S> {
        &self.game
    }

    /// Plays a legal move.
    fn push(&mut self, m: Move) -> Result<(), String> {
        let v = self.v;
        let before = self.game().position().clone();
        let coord = format_multi_move(v, m);
        self.game.play(m).map_err(|_| format!("{coord}: not legal here"))?;
        let after = self.game().position();
        let check = attacked_royals(after);
        let mover = before.side_to_move();
        let gives_check = check.iter().any(|&c| after.man_at(c).is_some_and(|(s, _)| v.opposed(mover, s)));
        self.events.push(MultiEvent {
            kind: "move",
            san: if gives_check { format!("{coord}+") } else { coord.clone() },
            coord: Some(coord),
            from: Some(m.from()),
            to: Some(m.to()),
            promotion: m.promotion().map(|k| v.board().piece_def(k).letter),
            color: side_key(before.mover()),
            number: before.fullmove_number(),
            check,
            out: left(v, &before, after),
            changes: changes(&before, after),
        });
        Ok(())
    }
}

impl<S: Width> LiveMulti for Multi<S> {
    fn id(&self) -> MultiId {
        self.v.id()
    }

    fn sides(&self) -> &'static [SideDef] {
        self.v.sides()
    }

    fn teams(&self) -> bool {
        self.v.teams()
    }

    fn ply(&self) -> usize {
        self.events.len()
    }

    fn side(&self) -> usize {
        self.game().position().side_to_move()
    }

    fn sides_in(&self) -> Vec<usize> {
        self.game().position().sides_in()
    }

    fn play(&mut self, text: &str) -> Result<&MultiEvent, MoveError> {
        if self.game().outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let m = parse_multi_move(self.game().position(), text).map_err(|e| MoveError::Illegal(e.to_string()))?;
        self.push(m).map_err(MoveError::Illegal)?;
        self.events.last().ok_or_else(|| MoveError::Illegal(format!("{text}: not legal here")))
    }

    fn resign(&mut self, side: usize) -> Result<Resigned, String> {
        let v = self.v;
        let before = self.game.position().clone();
        self.game.resign(side).map_err(|e| e.to_string())?;
        let def = &v.sides()[side];
        let after = self.game.position();
        // With teams the men stay, and the side is out all the same.
        let mut out = left(v, &before, after);
        if !out.contains(&side_key(def)) {
            out.insert(0, side_key(def));
        }
        self.events.push(MultiEvent {
            kind: "resign",
            coord: None,
            san: format!("{} resigns", def.name),
            from: None,
            to: None,
            promotion: None,
            color: side_key(def),
            number: before.fullmove_number(),
            check: attacked_royals(after),
            out,
            changes: changes(&before, after),
        });
        Ok(Resigned { ends: self.game.outcome().map(|o| o.scores) })
    }

    fn undo(&mut self) -> bool {
        if !self.game.undo() {
            return false;
        }
        self.events.pop();
        true
    }

    fn outcome(&self) -> Option<GameResult> {
        self.game().outcome()
    }

    fn termination(&self) -> Option<&'static str> {
        game_termination(&self.game)
    }

    fn start_fen(&self) -> String {
        format_multi_position(self.game.start())
    }

    fn fen(&self) -> String {
        format_multi_position(self.game().position())
    }

    fn events(&self) -> &[MultiEvent] {
        &self.events
    }

    fn start_pieces(&self) -> &[(usize, String)] {
        &self.start
    }

    fn legal(&self) -> Vec<MultiMoveView> {
        if self.game().outcome().is_some() {
            return Vec::new();
        }
        let pos = self.game().position();
        let b = self.v.board();
        pos.legal_moves()
            .iter()
            .map(|&m| {
                let coord = format_multi_move(self.v, m);
                MultiMoveView {
                    san: coord.clone(),
                    coord,
                    from: m.from(),
                    to: m.to(),
                    promotion: m.promotion().map(|k| b.piece_def(k).letter),
                }
            })
            .collect()
    }

    fn check(&self) -> Vec<usize> {
        attacked_royals(self.game().position())
    }

    fn in_check(&self) -> bool {
        self.game().position().is_check()
    }

    fn record(&self) -> Record {
        Record::from_game(&self.game)
    }

    fn search(&self, engine: &mut MultiEngine, limits: &Limits, stop: &AtomicBool) -> Option<String> {
        let r = engine.search(self.game(), limits, stop, &mut |_| {});
        r.best.map(|m| format_multi_move(self.v, m))
    }

    fn boxed_clone(&self) -> Box<dyn LiveMulti> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_plays_and_takes_back() {
        for id in MultiId::ALL {
            let mut g = new_multi(id, None).unwrap();
            let first = g.legal();
            assert!(!first.is_empty(), "{id}");
            let white = g.start_pieces().iter().filter(|(_, m)| m.starts_with('w')).count();
            assert_eq!(g.start_pieces().len(), g.sides().len() * white, "{id}: every side has White's army");
            assert!(g.start_pieces().iter().all(|(_, m)| m.len() == 2), "{id}: two-letter men");
            assert!(matches!(g.play("1z9-1z8"), Err(MoveError::Illegal(_))), "{id}");
            let fen = g.fen();
            g.play(&first[0].coord).unwrap();
            assert_eq!((g.ply(), g.side()), (1, 1), "{id}");
            let e = &g.events()[0];
            assert_eq!((e.kind, e.color, e.number, e.changes.len()), ("move", "white", 1, 2), "{id}");
            assert!(g.undo());
            assert_eq!((g.ply(), g.fen()), (0, fen.clone()), "{id}");
            assert!(!g.undo());
            assert_eq!(new_multi(id, Some(&fen)).unwrap().fen(), fen);
        }
    }

    #[test]
    fn a_resignation_every_side_for_itself_takes_the_side_out() {
        let mut g = new_multi(MultiId::Triquetral3p, None).unwrap();
        let m = g.legal()[0].coord.clone();
        g.play(&m).unwrap();
        // Blue is to move and resigns: its men leave, Green moves next.
        assert_eq!(g.resign(1), Ok(Resigned { ends: None }));
        assert_eq!(g.sides_in(), vec![0, 2]);
        assert_eq!(g.side(), 2);
        let e = &g.events()[1];
        assert_eq!((e.kind, e.color, e.out.clone()), ("resign", "blue", vec!["blue"]));
        assert_eq!(e.changes.len(), g.start_pieces().len() / 3);
        assert!(e.changes.iter().all(|(_, m)| m.is_none()));
        assert!(g.fen().contains(" g - - "), "{}", g.fen());
        assert!(!g.fen().contains('b'), "no Blue men: {}", g.fen());
        assert_eq!(g.resign(1), Err("Blue is already out of the game".into()));
        // White resigns out of turn: Green is the last side in.
        let r = g.resign(0).unwrap();
        assert_eq!(r.ends, Some(vec![Points::ZERO, Points::ZERO, Points::ONE]));
        assert_eq!(g.events()[2].out, vec!["white"]);
        assert!(!g.fen().contains('w'), "no White men: {}", g.fen());
        let record = g.record();
        assert_eq!(record.tag("Termination"), Some("resignation"));
        let text = record.to_string();
        assert!(text.contains(&format!("1. {m} Blue-resigns White-resigns 0-0-1")), "{text}");
        // The record replays to the same game.
        let again = replay_multi(&raum_notation::parse_records(&text).unwrap()[0]).unwrap();
        assert_eq!((again.fen(), again.events()), (g.fen(), g.events()));
        // Taken back, one event at a time.
        assert!(g.undo() && g.undo());
        assert_eq!(g.sides_in(), vec![0, 1, 2]);
        assert_eq!(g.side(), 1);
    }

    #[test]
    fn a_team_resignation_scores_the_team() {
        let mut g = new_multi(MultiId::WingTable4p, None).unwrap();
        // Red (White's opponent, Blue's partner) resigns.
        let r = g.resign(1).unwrap();
        assert_eq!(r.ends, Some(vec![Points::ONE, Points::ZERO, Points::ONE, Points::ZERO]));
        assert_eq!(g.events()[0].changes, vec![], "with teams the men stay");
        assert_eq!(g.events()[0].out, vec!["red"]);
        assert_eq!(g.outcome().map(|o| o.scores), r.ends);
        assert_eq!(g.termination(), Some("resignation"));
        let record = g.record();
        assert_eq!(record.moves[0].text, "Red-resigns");
        assert_eq!(record.result_text(), "1-0-1-0");
        assert!(g.undo());
        assert_eq!(g.outcome(), None);
    }
}
