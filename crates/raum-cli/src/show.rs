//! `raum show`: the seed-style diagram, optionally marking a piece's moves.

use crate::args::{ShowArgs, apply_moves, variant_id};
use anyhow::{Context, Result, bail};
use raum_notation::{Marks, parse_setup, render_diagram};
use raum_rules::{Position, Setup, Variant, VariantFn, Width};

pub fn show(a: &ShowArgs) -> Result<()> {
    if let Some(id) = crate::multi::multi_id(&a.position.variant) {
        return crate::multi::show(id, a);
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
