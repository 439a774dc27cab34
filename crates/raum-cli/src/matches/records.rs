//! What a match writes of its games, for any game: `--record` (one
//! tab-separated line per game: its number, the player at each side in turn
//! order, the result, the reason, the opening position string, the moves in
//! coordinates; in games of more sides a resignation as `<Side>-resigns`) and
//! `--pgn` (each game as a record: players, result, termination, opening and
//! each engine's evaluation of its own moves as comments).

use super::run::Played;
use raum_notation::{Record, format_game_move, format_game_position, format_resignation, format_result};
use raum_rules::{Action, GameRules};

/// The `--record` line of a game; `names[side]` is the player at each side.
pub(super) fn tsv_line(p: &Played, names: &[&str]) -> String {
    let game = &p.result.game;
    let sides = game.sides();
    let moves: Vec<String> = game
        .actions()
        .iter()
        .filter_map(|&a| match a {
            Action::Move(m) => Some(format_game_move(game, m)),
            // Two sides, a resignation ends the game: the result and reason tell it.
            Action::Resign(side) => (sides.len() > 2).then(|| format_resignation(&sides[side])),
        })
        .collect();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}",
        p.number,
        names.join("\t"),
        format_result(Some(&p.result.scores)),
        p.result.reason,
        format_game_position(&p.start),
        moves.join(" ")
    )
}

/// A finished match game as a record: players, result, termination, the
/// opening (as `FEN` unless it is the start) and each engine's evaluation of
/// its own moves as comments.
pub(super) fn match_record(p: &Played, names: &[&str], date: &str) -> Record {
    let r = &p.result;
    let mut record = Record::from_game(&r.game);
    record.set_tag("Event", &format!("raum match ({})", r.game.id()));
    record.set_tag("Site", "raum match");
    record.set_tag("Date", date);
    record.set_tag("Round", &p.number.to_string());
    for (side, name) in r.game.sides().iter().zip(names) {
        record.set_tag(side.name, name);
    }
    record.set_result(Some(r.scores.clone()));
    record.set_tag("Termination", r.termination);
    if !matches!(r.termination, "checkmate" | "stalemate" | "fifty-move" | "repetition" | "bare-kings") {
        record.set_tag("TerminationDetails", &r.reason);
    }
    for (m, c) in record.moves.iter_mut().zip(&r.comments) {
        m.comment.clone_from(c);
    }
    record
}
