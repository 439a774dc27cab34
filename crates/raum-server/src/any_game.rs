//! One game type for every variant: [`LiveGame`] hides the board's cell-set
//! width behind a trait object, so the server holds any variant's game the
//! same way. [`new_game`] and [`replay_record`] pick the width once, through
//! [`VariantId::dispatch`]; a variant that the rules core adds later is served
//! with no change here.

use raum_engine::{Engine, Limits, Score};
use raum_notation::{
    Record, ReplayError, describe_legal, format_descriptive, format_move, format_position, parse_move, parse_position,
};
use raum_rules::{AnyGame, Color, Game, Move, Outcome, Position, Variant, VariantFn, VariantId, Width};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A move as the app shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    /// Coordinate notation, `Ec2-Ec4`.
    pub coord: String,
    /// Descriptive notation, `P-Cc2`.
    pub san: String,
    /// Origin cell.
    pub from: usize,
    /// Destination cell (the rook's cell for castling, as coordinate notation writes it).
    pub to: usize,
    /// The letter promoted to.
    pub promotion: Option<char>,
}

/// A move played, with what the move list shows beside it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    #[serde(flatten)]
    pub view: MoveView,
    /// Whether it gives check.
    pub check: bool,
    /// Its move number.
    pub number: u32,
    /// Who played it.
    pub color: &'static str,
    /// The cells it changed and what each holds after it (`None`: empty), so
    /// that any earlier position is the start's pieces with the changes up
    /// to it applied (castling and en passant change more than two cells).
    pub changes: Vec<(usize, Option<char>)>,
}

/// The engine's view of a position.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Analysis {
    /// From White's side, `+0.35`, or `#3` / `#-2` for a mate (positive: White mates).
    pub score: String,
    /// The last completed depth.
    pub depth: u32,
    /// The move it would play.
    pub best: Option<MoveView>,
    /// The principal variation in descriptive notation.
    pub line: Vec<String>,
}

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

/// A game of any variant: a start, the moves, and what the app shows.
pub trait LiveGame: Send + Sync {
    /// Its variant.
    fn variant(&self) -> VariantId;
    /// Moves played.
    fn ply(&self) -> usize;
    /// The side to move.
    fn side(&self) -> Color;
    /// Reads `text` (either notation) and plays it.
    fn play(&mut self, text: &str) -> Result<&PlayedMove, MoveError>;
    /// Takes the last move back; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// How the rules ended the game, if they did.
    fn outcome(&self) -> Option<Outcome>;
    /// The start's position string.
    fn start_fen(&self) -> String;
    /// The current position string.
    fn fen(&self) -> String;
    /// The moves played.
    fn moves(&self) -> &[PlayedMove];
    /// The pieces of the start: `(cell, letter)`, upper case for White.
    fn start_pieces(&self) -> &[(usize, char)];
    /// The legal moves now (none once the rules ended the game).
    fn legal(&self) -> Vec<MoveView>;
    /// The royal cells in check now.
    fn check(&self) -> Vec<usize>;
    /// The game as a record (tags for the variant and start; the caller adds the rest).
    fn record(&self) -> Record;
    /// Searches the current position.
    fn analyse(&self, engine: &mut Engine, limits: &Limits, stop: Arc<AtomicBool>) -> Analysis;
    /// A copy, for a search that must not hold the game.
    fn boxed_clone(&self) -> Box<dyn LiveGame>;
}

/// A fresh game of `id`, from its start or from a position string.
pub fn new_game(id: VariantId, fen: Option<&str>) -> Result<Box<dyn LiveGame>, String> {
    id.dispatch(NewGame(fen))
}

/// The game a two-player record describes: its variant's, replayed under the rules.
pub fn replay_record(record: &Record) -> Result<Box<dyn LiveGame>, ReplayError> {
    match record.replay()? {
        AnyGame::Two128(game) => replayed(game),
        AnyGame::Two256(game) => replayed(game),
        AnyGame::Two512(game) => replayed(game),
        other => Err(ReplayError::Tag(format!("{} is a game for more than two players", other.id()))),
    }
}

struct NewGame<'a>(Option<&'a str>);

impl VariantFn for NewGame<'_> {
    type Output = Result<Box<dyn LiveGame>, String>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let start = match self.0 {
            Some(fen) => parse_position(v, fen).map_err(|e| format!("position string: {e}"))?,
            None => Position::start(v),
        };
        Ok(Box::new(Live::new(Game::new(start))))
    }
}

/// A replayed game, with the move list the app shows built move by move.
fn replayed<S: Width>(game: Game<S>) -> Result<Box<dyn LiveGame>, ReplayError> {
    let mut live = Live::new(Game::new(*game.start()));
    for &m in game.moves() {
        // Replayed under the same rules: legal.
        if live.push(m).is_err() {
            return Err(ReplayError::Tag("a replayed move is refused".into()));
        }
    }
    Ok(Box::new(live))
}

/// [`LiveGame`] at one width, with the move list kept as the game goes.
#[derive(Clone)]
struct Live<S: Width> {
    game: Game<S>,
    played: Vec<PlayedMove>,
    start: Vec<(usize, char)>,
}

/// A piece's letter as position strings write it: upper case for White.
fn letter<S: Width>(v: &Variant<S>, p: raum_rules::Piece) -> char {
    let l = v.piece_def(p.kind).letter;
    if p.color == Color::White { l } else { l.to_ascii_lowercase() }
}

fn pieces<S: Width>(pos: &Position<S>) -> Vec<(usize, char)> {
    pos.occupied().cells().filter_map(|cell| Some((cell, letter(pos.variant(), pos.piece_at(cell)?)))).collect()
}

fn view<S: Width>(pos: &Position<S>, m: Move) -> MoveView {
    view_as(pos, m, format_descriptive(pos, m))
}

fn view_as<S: Width>(pos: &Position<S>, m: Move, san: String) -> MoveView {
    let v = pos.variant();
    MoveView {
        coord: format_move(v, m),
        san,
        from: m.from(),
        to: m.to(),
        promotion: m.promotion().map(|k| v.piece_def(k).letter),
    }
}

fn color_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

impl<S: Width> Live<S> {
    fn new(game: Game<S>) -> Self {
        let start = pieces(game.position());
        Live { game, played: Vec::new(), start }
    }

    /// Plays a legal move.
    fn push(&mut self, m: Move) -> Result<(), raum_rules::IllegalMove> {
        let before = *self.game.position();
        let view = view(&before, m);
        self.game.play(m)?;
        let after = self.game.position();
        let changes = (before.occupied() | after.occupied())
            .cells()
            .filter(|&c| before.piece_at(c) != after.piece_at(c))
            .map(|c| (c, after.piece_at(c).map(|p| letter(after.variant(), p))))
            .collect();
        self.played.push(PlayedMove {
            view,
            check: after.is_check(),
            number: before.fullmove_number(),
            color: color_name(before.side_to_move()),
            changes,
        });
        Ok(())
    }
}

impl<S: Width> LiveGame for Live<S> {
    fn variant(&self) -> VariantId {
        self.game.position().variant().id()
    }

    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    fn play(&mut self, text: &str) -> Result<&PlayedMove, MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let m = parse_move(self.game.position(), text.trim()).map_err(|e| MoveError::Illegal(e.to_string()))?;
        self.push(m).map_err(|_| MoveError::Illegal(format!("{text}: not legal here")))?;
        self.played.last().ok_or_else(|| MoveError::Illegal(format!("{text}: not legal here")))
    }

    fn undo(&mut self) -> bool {
        if !self.game.undo() {
            return false;
        }
        self.played.pop();
        true
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn start_fen(&self) -> String {
        format_position(self.game.start())
    }

    fn fen(&self) -> String {
        format_position(self.game.position())
    }

    fn moves(&self) -> &[PlayedMove] {
        &self.played
    }

    fn start_pieces(&self) -> &[(usize, char)] {
        &self.start
    }

    fn legal(&self) -> Vec<MoveView> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        let pos = self.game.position();
        describe_legal(pos).into_iter().map(|(m, san)| view_as(pos, m, san)).collect()
    }

    fn check(&self) -> Vec<usize> {
        let pos = self.game.position();
        if pos.is_check() { vec![pos.king_cell(pos.side_to_move())] } else { Vec::new() }
    }

    fn record(&self) -> Record {
        Record::from_game(&self.game)
    }

    fn analyse(&self, engine: &mut Engine, limits: &Limits, stop: Arc<AtomicBool>) -> Analysis {
        let result = engine.search(&self.game, limits, stop, &mut |_| {});
        let pos = self.game.position();
        let white = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let score = match result.info.score {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp * white) / 100.0),
            Score::Mate(n) => format!("#{}", n * white),
        };
        let mut line = Vec::new();
        let mut p = *pos;
        for &m in &result.info.pv {
            if !p.is_legal(m) {
                break;
            }
            line.push(format_descriptive(&p, m));
            p.play(m);
        }
        Analysis { score, depth: result.info.depth, best: result.best.map(|m| view(pos, m)), line }
    }

    fn boxed_clone(&self) -> Box<dyn LiveGame> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_line_mates_in_every_notation() {
        let mut g = new_game(VariantId::FiveUp, None).unwrap();
        assert_eq!(g.legal().len(), 62);
        for text in ["P-Cc2", "P-Cc4", "B-Ca1", "BxEb2"] {
            g.play(text).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
        assert_eq!(g.moves()[3].view.san, "BxEb2#");
        assert!(g.moves()[3].check);
        // Bishop takes on Eb2: the two cells change.
        assert_eq!(g.moves()[3].changes.len(), 2);
        assert_eq!(g.start_pieces().len(), 40);
        assert!(g.legal().is_empty());
        assert_eq!(g.play("Ec2-Ec3"), Err(MoveError::GameOver));
        assert!(g.undo());
        assert_eq!(g.ply(), 3);
        assert_eq!(g.moves().len(), 3);
    }

    #[test]
    fn a_savard_stalemate_ends_the_game_scored() {
        // Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
        let fen = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";
        let mut g = new_game(VariantId::WingTable, Some(fen)).unwrap();
        g.play("1c6-1c2").unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(o, Outcome::Stalemate { winner: Color::White });
        assert_eq!(
            (o.points(Color::White).to_string(), o.points(Color::Black).to_string()),
            ("3/5".into(), "2/5".into())
        );
        assert_eq!(g.record().result, raum_notation::RecordResult::WhiteStalemates.scores());
        assert!(g.legal().is_empty());
        assert_eq!(g.play("1a12-1b11"), Err(MoveError::GameOver));
    }

    #[test]
    fn every_variant_starts_and_refuses_nonsense() {
        for id in VariantId::ALL {
            let mut g = new_game(id, None).unwrap();
            assert!(!g.legal().is_empty(), "{id}");
            assert!(matches!(g.play("Zz9-Zz8"), Err(MoveError::Illegal(_))), "{id}");
            let fen = g.fen();
            assert_eq!(new_game(id, Some(&fen)).unwrap().fen(), fen);
            let first = g.legal()[0].coord.clone();
            g.play(&first).unwrap();
            assert_eq!(g.ply(), 1);
        }
        assert!(new_game(VariantId::FiveUp, Some("nonsense")).is_err());
    }
}
