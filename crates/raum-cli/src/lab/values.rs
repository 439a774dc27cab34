//! `raum lab values`: piece values from self-play. For each piece (and for
//! the pawn, the unit: two pawns, whose deficit is larger to measure),
//! games where one side starts without one of its men of that kind, after a few random plies from the start (the same opening
//! for both games of a pair, the White side lacking the man in one, the
//! Black side in the other), played by the same player on both sides. The
//! handicapped side's score gives its Elo deficit; a piece's value is its
//! deficit over the pawn's, with a 95% interval (the delta method over both
//! scores). The seed's guesses (Aikin's for Five Up) stand beside.

use super::report::{Bar, Report, mean_interval};
use super::results::Outcome;
use super::study::{Job, Study, game_seed};
use crate::args::StudyArgs;
use crate::matches::random_plies_from;
use crate::rng::Rng;
use crate::stats::elo_from_score;
use anyhow::{Result, bail};
use raum_rules::{AnyGame, Color, Game, GameId, Kind, Position, Role, Variant, VariantFn, Width, on_game};

/// Aikin's guesses for Five Up (the seed, "Piece Values"), in pawns.
const AIKIN: &[(char, f64)] = &[('R', 3.0), ('B', 5.0), ('N', 5.0), ('W', 7.0), ('G', 6.0), ('Q', 9.0)];

pub struct Values {
    key: String,
    id: GameId,
    /// The groups: each piece's letter and kind, the pawn's last.
    pieces: Vec<(char, Kind)>,
    games: u64,
    seed: u64,
    random_plies: u32,
}

/// The variant's pieces by letter, and its pawn.
struct Kinds;
impl VariantFn for Kinds {
    type Output = (Vec<(char, Kind, Role)>, Option<Kind>);
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let all = v.pieces().iter().enumerate().map(|(k, d)| (d.letter, Kind(k as u8), d.role)).collect();
        (all, v.pawn())
    }
}

impl Values {
    pub fn new(a: &StudyArgs, id: GameId) -> Result<Values> {
        let GameId::Two(v) = id else { bail!("piece values are measured in two-player games") };
        let (all, pawn) = v.dispatch(Kinds);
        let Some(pawn) = pawn else { bail!("{} has no pawn to measure the pieces against", id.name()) };
        let mut pieces: Vec<(char, Kind)> = match &a.pieces {
            Some(letters) => letters
                .chars()
                .filter(|c| !c.is_whitespace() && *c != ',')
                .map(|c| {
                    let c = c.to_ascii_uppercase();
                    match all.iter().find(|(l, _, _)| *l == c) {
                        Some(&(l, k, Role::Piece)) => Ok((l, k)),
                        Some(_) => bail!("--pieces {c}: the king and the pawn are not valued (the pawn is the unit)"),
                        None => bail!("--pieces {c}: {} has no such piece", id.name()),
                    }
                })
                .collect::<Result<_>>()?,
            None => all.iter().filter(|(_, _, r)| *r == Role::Piece).map(|&(l, k, _)| (l, k)).collect(),
        };
        let pawn_letter = all.iter().find(|(_, k, _)| *k == pawn).map_or('P', |x| x.0);
        pieces.push((pawn_letter, pawn));
        let letters: String = pieces.iter().map(|p| p.0).collect();
        let key = format!("{} pieces={letters} unit-pawns={UNIT_PAWNS}", super::settings("values", a, id));
        Ok(Values { key, id, pieces, games: u64::from(a.games), seed: a.seed, random_plies: a.random_plies })
    }
}

/// `game` with `count` of `side`'s men of `kind` removed (chosen by `rng`), if it has as many.
fn without(game: &AnyGame, side: usize, kind: Kind, count: usize, rng: &mut Rng) -> Option<AnyGame> {
    on_game!(game, g => {
        let pos = g.position();
        let color = Color::ALL[side];
        let mut cells: Vec<usize> =
            (0..pos.variant().cells()).filter(|&c| pos.piece_at(c).is_some_and(|p| p.color == color && p.kind == kind)).collect();
        if cells.len() < count {
            return None;
        }
        let mut setup = pos.to_setup();
        for _ in 0..count {
            let cell = cells.swap_remove(rng.below(cells.len()));
            setup.board[cell] = None;
            setup.riders.retain(|&c| c != cell);
        }
        let made = Position::from_setup(pos.variant(), setup.clone()).or_else(|_| {
            // A rook that castles gone: its side keeps no right to castle.
            setup.castling = 0;
            Position::from_setup(pos.variant(), setup)
        });
        made.ok().filter(|p| p.outcome().is_none()).map(|p| AnyGame::from(Game::new(p)))
    }, _m => None)
}

/// Pawns taken in the unit's games: the deficit of one pawn is too small to
/// measure the pieces against; two pawns' is twice as large for the same games.
pub const UNIT_PAWNS: usize = 2;

impl Values {
    /// Men removed in `group`'s games: one piece, or the unit's pawns.
    fn count(&self, group: usize) -> usize {
        if group + 1 == self.pieces.len() { UNIT_PAWNS } else { 1 }
    }

    /// Game `j`'s group, and its pair's number within the group.
    fn place(&self, j: u64) -> (usize, u64, usize) {
        ((j / self.games) as usize, (j % self.games) / 2, (j % 2) as usize)
    }
}

impl Study for Values {
    fn key(&self) -> String {
        self.key.clone()
    }

    fn games(&self) -> u64 {
        self.games * self.pieces.len() as u64
    }

    fn job(&self, j: u64) -> Job {
        let (group, pair, side) = self.place(j);
        let (letter, kind) = self.pieces[group];
        // Both games of a pair from the same opening: the same seed.
        let mut rng = Rng::new(game_seed(self.seed ^ 0x7A1_0E5, (group as u64) << 32 | pair));
        let start = AnyGame::start(self.id);
        for _ in 0..100 {
            let opening = random_plies_from(&start, self.random_plies, &mut rng).unwrap_or_else(|| start.clone());
            let mut pick = rng.clone();
            if let Some(game) = without(&opening, side, kind, self.count(group), &mut pick) {
                return Job { start: game, group: letter.to_string(), side };
            }
        }
        // Every opening took the man: the start without it.
        let game = without(&start, side, kind, self.count(group), &mut rng).unwrap_or(start);
        Job { start: game, group: letter.to_string(), side }
    }

    fn report(&self, games: &[Outcome]) -> Result<Report> {
        let deficit = |letter: char| {
            let scores: Vec<f64> = games.iter().filter(|g| g.group == letter.to_string()).map(|g| g.score).collect();
            let (mean, half) = mean_interval(&scores);
            let e = mean.clamp(0.001, 0.999);
            // Elo lost, and its standard error by the delta method.
            let d = -elo_from_score(e);
            let se = 400.0 / (std::f64::consts::LN_10 * e * (1.0 - e)) * (half / 1.96);
            (mean, half, d, se, scores.len())
        };
        let (pawn_letter, _) = self.pieces[self.pieces.len() - 1];
        // One pawn's deficit: the unit's pawns' shared out.
        let (_, _, dp, sep, _) = deficit(pawn_letter);
        let (dp, sep) = (dp / UNIT_PAWNS as f64, sep / UNIT_PAWNS as f64);
        let five_up = self.id.name() == "five-up";
        let mut rows = Vec::new();
        let mut bars = Vec::new();
        for &(letter, _) in &self.pieces {
            let (mean, half, d, se, n) = deficit(letter);
            let value = d / dp;
            let se_v = value.abs() * ((se / d).powi(2) + (sep / dp).powi(2)).sqrt();
            let guess = AIKIN.iter().find(|(l, _)| five_up && *l == letter).map(|(_, g)| *g);
            rows.push(vec![
                if letter == pawn_letter { format!("{UNIT_PAWNS} x {letter}") } else { letter.to_string() },
                n.to_string(),
                format!("{mean:.3} ± {half:.3}"),
                format!("{d:.0} ± {:.0}", 1.96 * se),
                if letter == pawn_letter {
                    format!("{UNIT_PAWNS} (the unit)")
                } else {
                    format!("{value:.2} ± {:.2}", 1.96 * se_v)
                },
                guess.map_or(String::new(), |g| format!("{g}")),
            ]);
            if letter != pawn_letter {
                bars.push(Bar {
                    label: letter.to_string(),
                    value,
                    interval: (value - 1.96 * se_v, value + 1.96 * se_v),
                    reference: guess,
                });
            }
        }
        Ok(Report {
            title: format!("Piece values in {}: {} games a piece", self.id.name(), self.games),
            header: [
                "piece",
                "games",
                "score without it",
                "Elo lost",
                "value in pawns",
                if five_up { "Aikin" } else { "" },
            ]
            .map(String::from)
            .to_vec(),
            rows,
            notes: vec![format!(
                "The side lacking the man (or the {UNIT_PAWNS} pawns) scores the third column; its Elo deficit over a pawn's ({UNIT_PAWNS} pawns' shared out) is the value (95% intervals). Study: {}.",
                self.key
            )],
            axis: "value in pawns".into(),
            bars,
        })
    }
}
