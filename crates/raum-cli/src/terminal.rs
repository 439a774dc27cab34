//! How the terminal writes any game (`raum play`): its diagram, a move as it
//! is played, an engine's score and line, and how the game ended. Two-player
//! games read as the seed games write them (descriptive notation, move
//! numbers, scores from White's side); games of more sides in coordinates,
//! each side named, scores from the mover's side (its team's with teams).

use crate::records::eval_comment;
use crate::show::status;
use raum_engine::{Score, SearchResult};
use raum_notation::{format_descriptive, format_game_move, render_diagram, render_multi_diagram};
use raum_rules::{AnyGame, Color, End, GameRules, Move, Position, Width, on_game};

/// The game's title: `Five Up`, `Wing Table for four`.
pub fn title(game: &AnyGame) -> String {
    on_game!(game, g => g.position().variant().spec().title.to_string(), m => m.position().variant().title().to_string())
}

/// The board as the seed's diagrams draw it.
pub fn diagram(game: &AnyGame) -> String {
    on_game!(game,
        g => render_diagram(g.position().variant(), &g.position().to_setup(), None),
        m => render_multi_diagram(m.position(), raum_bitboard::CellSet::EMPTY))
}

/// Whether the side to move is in check.
pub fn in_check(game: &AnyGame) -> bool {
    on_game!(game, g => g.position().is_check())
}

/// The sides taken out so far for having no legal move, in order.
pub fn removed(game: &AnyGame) -> Vec<usize> {
    on_game!(game, _g => Vec::new(), m => m.removed().iter().map(|&(_, side)| side).collect())
}

/// `m`, about to be played in `game`, as the record writes it: descriptive
/// notation with two sides, coordinates with more.
pub fn written(game: &AnyGame, m: Move) -> String {
    on_game!(game, g => format_descriptive(g.position(), m), _m => format_game_move(game, m))
}

/// `m`, about to be played in `game`, as the game's story tells it:
/// `1. Cc2  (Dc2-Cc2)`, `White plays 2e3-2e4`.
pub fn announce(game: &AnyGame, m: Move) -> String {
    on_game!(game,
        g => format!("{} {}  ({})", move_prefix(g.position()), written(game, m), format_game_move(game, m)),
        _m => format!("{} plays {}", game.sides()[game.side_to_move()].name, format_game_move(game, m)))
}

/// An engine score for people: from White's side with two sides (`+0.35`,
/// `mate in 3 for Black`), else from the mover's side (`+0.35`, `mated in 2`).
pub fn score(game: &AnyGame, score: Score) -> String {
    on_game!(game,
    g => describe(score, g.position().side_to_move()),
    _m => match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    })
}

/// An engine's line from `game`'s position: numbered descriptive moves with
/// two sides, coordinates with more.
pub fn pv(game: &AnyGame, pv: &[Move]) -> String {
    on_game!(game,
        g => line(g.position(), pv),
        _m => pv.iter().map(|&m| format_game_move(game, m)).collect::<Vec<_>>().join(" "))
}

/// What the engine found, for people: `eval +0.35, depth 9, 41210 nodes; line: ...`.
pub fn report(game: &AnyGame, r: &SearchResult) -> String {
    format!(
        "eval {}, depth {}, {} nodes; line: {}",
        score(game, r.info.score),
        r.info.depth,
        r.info.nodes,
        pv(game, &r.info.pv)
    )
}

/// An engine move's evaluation as the record's comment (`+0.35/12`).
pub fn comment(game: &AnyGame, r: &SearchResult) -> String {
    on_game!(game,
        g => eval_comment(r.info.score, g.position().side_to_move(), r.info.depth),
        _m => format!("{}/{}", score(game, r.info.score), r.info.depth))
}

/// How the game ended: `0-1 (Black mates)`, `1-0 (Black resigns)`; with more
/// sides, `Blue is the last side in; scores: White 0, Blue 1, Green 0`.
/// Empty while it goes on.
pub fn ending(game: &AnyGame) -> String {
    on_game!(game,
        g => match (g.outcome(), GameRules::result(g)) {
            (Some(o), _) => o.to_string(),
            (None, Some(r)) => {
                let scores: Vec<String> = r.scores.iter().map(ToString::to_string).collect();
                match r.end {
                    End::Resignation { side } => format!("{} ({} resigns)", scores.join("-"), Color::ALL[side]),
                    _ => scores.join("-"),
                }
            }
            (None, None) => String::new(),
        },
        m => status(m))
}

/// A score from White's point of view, for people: `+0.35`, `mate in 3 for Black`.
pub(crate) fn describe(score: Score, side: Color) -> String {
    let sign = if side == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp * sign) / 100.0),
        Score::Mate(n) => {
            let winner = if n > 0 { side } else { side.opponent() };
            format!("mate in {} for {winner}", n.abs())
        }
    }
}

/// The principal variation in descriptive notation, numbered from `pos`.
pub(crate) fn line<S: Width>(pos: &Position<S>, pv: &[Move]) -> String {
    let mut p = *pos;
    let mut parts = Vec::new();
    for (i, &m) in pv.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        if p.side_to_move() == Color::White || i == 0 {
            parts.push(move_prefix(&p));
        }
        parts.push(format_descriptive(&p, m));
        p.play(m);
    }
    parts.join(" ")
}

/// The move number before a two-player move: `1.` for White, `1...` for Black.
pub fn move_prefix<S: Width>(pos: &Position<S>) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove_number()),
        Color::Black => format!("{}...", pos.fullmove_number()),
    }
}
