//! `raum show`: the seed-style diagram, optionally marking a piece's moves;
//! for the multi-player games also who is out, and whose turn it is or how
//! the game ended with each side's score.

use crate::args::{ShowArgs, apply_moves, game, multi_id, variant_id};
use anyhow::{Context, Result, bail};
use raum_notation::{Marks, parse_setup, render_diagram, render_multi_diagram};
use raum_rules::multi::{MultiGame, MultiVariant};
use raum_rules::{AnyGame, DrawReason, End, Position, Setup, Variant, VariantFn, Width};

pub fn show(a: &ShowArgs) -> Result<()> {
    if multi_id(&a.position.variant).is_some() {
        // A figure (no kings) is a two-player idea: a multi-player game shows a game.
        return match game(&a.position)? {
            AnyGame::Multi128(g) => show_multi(&g, a),
            AnyGame::Multi256(g) => show_multi(&g, a),
            AnyGame::Multi512(g) => show_multi(&g, a),
            other => bail!("{} is not a multi-player game", other.id()),
        };
    }
    variant_id(&a.position.variant)?.dispatch(Show(a))
}

/// `raum show`'s body at the variant's width.
struct Show<'a>(&'a ShowArgs);

impl VariantFn for Show<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        show_at(v, self.0)
    }
}

fn show_at<S: Width>(v: &'static Variant<S>, a: &ShowArgs) -> Result<()> {
    let setup: Setup = match &a.position.fen {
        Some(fen) => parse_setup(v, fen).with_context(|| format!("in --fen \"{fen}\""))?,
        None => v.start_setup().clone(),
    };
    // A figure-style board (a lone piece, no kings) is drawn as it is; then
    // --mark shows the piece's moves ignoring check.
    let position = match Position::from_setup(v, setup.clone()) {
        Ok(p) => Some(apply_moves(p, a.position.moves.as_deref())?),
        Err(e) => {
            if a.position.moves.is_some() {
                bail!("cannot play --moves: the position is illegal: {e}");
            }
            eprintln!("note: not a legal position ({e}); drawing it as a figure");
            None
        }
    };
    let setup = position.as_ref().map_or(setup, |p| p.to_setup());
    let marks = match &a.mark {
        None => None,
        Some(name) => {
            let cell = v.parse_cell(name).with_context(|| format!("--mark: '{name}' is not a cell of this board"))?;
            let Some(piece) = setup.board[cell] else { bail!("--mark: no piece on {name}") };
            let cells: S = match &position {
                Some(p) if p.side_to_move() == piece.color => {
                    p.legal_moves().iter().filter(|m| m.from() == cell).fold(S::EMPTY, |s, m| s | S::single(m.to()))
                }
                _ => {
                    let (mut own, mut enemy) = (S::EMPTY, S::EMPTY);
                    for (c, p) in setup.board.iter().enumerate() {
                        match p {
                            Some(p) if p.color == piece.color => own |= S::single(c),
                            Some(_) => enemy |= S::single(c),
                            None => {}
                        }
                    }
                    v.targets(piece, cell, own, enemy)
                }
            };
            Some(Marks { cells, mark: 'x' })
        }
    };
    print!("{}", render_diagram(v, &setup, marks));
    if let Some(p) = &position
        && v.noncombatant()
    {
        // The diagram cannot show which men are still untouchable.
        let names: Vec<String> = p.unmoved().cells().map(|c| v.cell_name(c)).collect();
        let list = if names.is_empty() { "none".to_string() } else { names.join(",") };
        println!("Not yet moved (cannot capture or be captured): {list}");
    }
    if let Some(p) = &position {
        let status = match p.outcome() {
            Some(o) => o.to_string(),
            None if p.is_check() => format!("{} to move, in check", p.side_to_move()),
            None => format!("{} to move", p.side_to_move()),
        };
        println!("{status}");
    }
    Ok(())
}

/// `raum show` on a multi-player game: the levels, who is out, whose turn or how it ended.
fn show_multi<S: Width>(game: &MultiGame<S>, a: &ShowArgs) -> Result<()> {
    let pos = game.position();
    let v = pos.variant();
    let b = v.board();
    let marks = match &a.mark {
        None => S::EMPTY,
        Some(name) => {
            let cell = b.parse_cell(name).with_context(|| format!("--mark: '{name}' is not a cell of this board"))?;
            let Some((side, _)) = pos.man_at(cell) else { bail!("--mark: no man on {name}") };
            if side != pos.side_to_move() {
                bail!("--mark: {name} holds a {} man; it is {}'s turn", v.sides()[side].name, pos.mover().name);
            }
            pos.legal_moves().iter().filter(|m| m.from() == cell).fold(S::EMPTY, |s, m| s | S::single(m.to()))
        }
    };
    print!("{}", render_multi_diagram(pos, marks));
    if b.is_reconstruction() {
        println!("Board: a reconstruction (RULES.md \"Savard's multi-player forms\"); {}", teams_line(v));
    } else {
        let line = teams_line(v);
        println!("{}{}", line[..1].to_uppercase(), &line[1..]);
    }
    for &(after, side) in game.removed() {
        println!("{} is out (no legal move after {after} moves)", v.sides()[side].name);
    }
    println!("{}", status(game));
    Ok(())
}

/// "teams: White and Black against Red and Blue" or "every side for itself".
fn teams_line<S: Width>(v: &MultiVariant<S>) -> String {
    if !v.teams() {
        return "every side for itself".into();
    }
    let mut teams: Vec<Vec<&str>> = Vec::new();
    for s in v.sides() {
        let t = s.team as usize;
        if teams.len() <= t {
            teams.resize(t + 1, Vec::new());
        }
        teams[t].push(s.name);
    }
    let names: Vec<String> = teams.iter().map(|t| t.join(", ")).collect();
    format!("teams: {}", names.join(" against "))
}

/// Whose turn, or how the game ended with each side's score.
pub fn status<S: Width>(game: &MultiGame<S>) -> String {
    let pos = game.position();
    let v = pos.variant();
    let name = |s: usize| v.sides()[s].name;
    match game.outcome() {
        None if pos.is_check() => format!("{} to move, in check", pos.mover().name),
        None => format!("{} to move", pos.mover().name),
        Some(o) => {
            let why = match o.end {
                End::Checkmate { side } => format!("{} is checkmated", name(side)),
                End::Stalemate { side } => format!("{} is stalemated", name(side)),
                End::Resignation { side } => format!("{} resigns for its team", name(side)),
                End::LastSide { side } => format!("{} is the last side in", name(side)),
                End::Draw(DrawReason::BareKings) => "draw: only kings left".into(),
                End::Draw(DrawReason::Repetition) => "draw by threefold repetition".into(),
                End::Draw(DrawReason::FiftyMoves) => "draw: 50 rounds without a capture or a pawn move".into(),
                End::Draw(DrawReason::Stalemate) => "draw by stalemate".into(),
            };
            let scores: Vec<String> = o.scores.iter().enumerate().map(|(s, p)| format!("{} {}", name(s), p)).collect();
            format!("{why}; scores: {}", scores.join(", "))
        }
    }
}
