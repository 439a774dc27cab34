//! `raum match`: games between players, refereed by the rules core, for any
//! game: two players (`--a`, `--b`) with Elo, pentanomial and SPRT
//! statistics — how strength changes are accepted — or the players of a
//! game of more sides (`--players`; with two teams also `--a` and `--b`),
//! rotated over its sides.
//!
//! One job a file: [`specs`] reads the players' specs, [`players`] makes
//! them ready to move in any game, [`lineup`] seats them (pairs with the
//! colours swapped, teams, rotations), [`openings`] says where each cycle of
//! games starts, [`referee`] plays one game to its end, [`run`] plays the
//! games on threads, [`records`] writes `--record` and `--pgn`, and
//! [`report`] tallies and tells the result.
//!
//! Games are scored as the rules score them: a win 1, a draw 1/2, on
//! Savard's boards a stalemate 3/5 to the side that stalemates and 2/5 to
//! the other, and every side for itself the shares the rules give.

mod lineup;
mod openings;
mod players;
mod records;
mod referee;
mod report;
mod run;
mod specs;

pub(crate) use lineup::Lineup;
pub(crate) use players::Player;
// What the lab plays its studies with.
#[cfg(feature = "lab")]
pub(crate) use {
    openings::{from_here, random_plies_from},
    referee::play_game,
    specs::{Spec, parse_spec},
};

use crate::adjudication::{DrawRule, ResignRule, Rules};
use crate::args::{MatchArgs, multi_id, variant_id};
use crate::stats;
use anyhow::{Context, Result, bail};
use raum_rules::{AnyGame, GameId};
use report::Tally;
use std::io::{IsTerminal, Write};

/// What every worker of a match shares.
pub(super) struct Match<'a> {
    args: &'a MatchArgs,
    id: GameId,
    lineup: Lineup,
    book: Vec<AnyGame>,
    rules: Rules,
}

/// The adjudication rules `--resign-*` and `--draw-*` ask for.
fn adjudication_rules(a: &MatchArgs) -> Result<Rules> {
    let resign = (a.resign_moves > 0).then_some(ResignRule { score: a.resign_score, moves: a.resign_moves });
    let draw =
        (a.draw_moves > 0).then_some(DrawRule { after_ply: a.draw_after, score: a.draw_score, moves: a.draw_moves });
    if resign.is_some() && a.resign_score <= 0 {
        bail!("--resign-score must be above 0 (a player resigns at or below minus it)");
    }
    if draw.is_some() && a.draw_score < 0 {
        bail!("--draw-score must be at least 0 (scores within plus or minus it count as level)");
    }
    Ok(Rules { resign, draw })
}

/// A file `--record` or `--pgn` names, created.
fn create(path: Option<&std::path::Path>, flag: &str) -> Result<Option<std::io::BufWriter<std::fs::File>>> {
    path.map(|path| {
        let file = std::fs::File::create(path).with_context(|| format!("creating {flag} {}", path.display()))?;
        Ok(std::io::BufWriter::new(file))
    })
    .transpose()
}

/// What a two-sided match concluded, from A's point of view (the lab reads it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Summary {
    pub games: u64,
    /// A's mean score, 0 to 1.
    pub score: f64,
    /// The logistic Elo difference and its 95% margin.
    pub elo: f64,
    pub margin: f64,
    pub llr: f64,
    pub verdict: stats::Verdict,
}

/// Plays the match `a` describes and prints its result; a two-sided
/// match's summary is also returned (`None` every side for itself).
pub fn run_match(a: &MatchArgs) -> Result<Option<Summary>> {
    let id = match multi_id(&a.variant) {
        Some(m) => GameId::Multi(m),
        None => {
            if a.players.is_some() {
                bail!("--players is for the multi-player games; a two-player match takes --a and --b");
            }
            if a.a.is_none() || a.b.is_none() {
                bail!("a match needs two players: --a and --b");
            }
            GameId::Two(variant_id(&a.variant)?)
        }
    };
    let lineup = Lineup::new(id, a)?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if a.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(a.alpha > 0.0 && a.alpha < 1.0 && a.beta > 0.0 && a.beta < 1.0) {
        bail!("--alpha and --beta must lie strictly between 0 and 1");
    }
    let book = match &a.openings {
        Some(path) => openings::read_book(id, path)?,
        None => Vec::new(),
    };
    let mut pgn = create(a.pgn.as_deref(), "--pgn")?;
    let date = crate::records::today();
    let mut record = create(a.record.as_deref(), "--record")?;
    let rules = adjudication_rules(a)?;
    if rules != Rules::default() && !lineup.two_sided() {
        bail!("adjudication (--resign-moves, --draw-moves) is for games of two sides or two teams");
    }
    let m = Match { args: a, id, lineup, book, rules };
    let cycles = u64::from(a.games).div_ceil(m.lineup.players() as u64);
    let workers = (a.concurrency as u64).min(cycles) as usize;
    // Every worker has its own players (and engines); start them all before the first game.
    let mut seats = Vec::new();
    for _ in 0..workers {
        let players = (m.lineup.specs.iter().enumerate())
            .map(|(i, spec)| {
                let whence = match (i, &a.players) {
                    (0, None) => "starting player A (in --a)".to_string(),
                    (1, None) => "starting player B (in --b)".to_string(),
                    (i, _) => format!("starting player {} (in --players)", i + 1),
                };
                Player::new(spec, id).context(whence)
            })
            .collect::<Result<Vec<_>>>()?;
        seats.push(players);
    }
    let mut written = 0u64;
    let bounds = stats::sprt_bounds(a.alpha, a.beta);
    let mut tally = Tally::default();
    let mut stopped_at_verdict = false;
    let live = std::io::stderr().is_terminal();
    let report_every = (u64::from(a.games) / 10).max(2);
    let mut next_report = report_every;
    run::run(&m, seats, |games| {
        tally.add(&games);
        let names = |p: &run::Played| -> Vec<&str> { p.seats.iter().map(|&s| m.lineup.names[s].as_str()).collect() };
        if let Some(out) = record.as_mut() {
            for p in &games {
                writeln!(out, "{}", records::tsv_line(p, &names(p)))?;
            }
            out.flush()?;
        }
        if let Some(out) = pgn.as_mut() {
            for p in &games {
                // Each game is written whole, a blank line before every game but the first.
                let sep = if written == 0 { "" } else { "\n" };
                write!(out, "{sep}{}", records::match_record(p, &names(p), &date))?;
                written += 1;
            }
            out.flush()?;
        }
        let line = tally.progress(&m.lineup, a.games);
        // A terminal gets one line, redrawn; a log file a line every tenth of the match.
        if live {
            eprint!("\r{line}   ");
        } else if tally.games() >= next_report || tally.games() == u64::from(a.games) {
            eprintln!("{line}");
            next_report = tally.games() + report_every;
        }
        // A few pairs' variance is no estimate (one pair won twice has almost none, and its
        // LLR crosses any bound): the SPRT may stop the match only after SPRT_MIN_PAIRS.
        let pairs: u64 = tally.pairs.iter().sum();
        if a.sprt_stop && m.lineup.two_sided() && !stopped_at_verdict && pairs >= stats::SPRT_MIN_PAIRS {
            let llr = stats::pair_llr(&tally.pairs, a.sprt_elo0, a.sprt_elo1);
            // Games already under way are finished and counted; the verdict is the one crossed.
            stopped_at_verdict = llr <= bounds.0 || llr >= bounds.1;
            if stopped_at_verdict {
                tally.stopped_at = Some(stats::sprt_verdict(llr, bounds));
            }
        }
        Ok(stopped_at_verdict)
    })?;
    if live {
        eprintln!();
    }
    let title = crate::terminal::title(&AnyGame::start(id));
    let names = &m.lineup.names;
    let mut summary = None;
    if m.lineup.two_sided() {
        let heading = match id {
            GameId::Two(_) => format!("A: {}  B: {}  ({title})", names[0], names[1]),
            GameId::Multi(_) => format!("A ({}) as a team against B ({})  ({title})", names[0], names[1]),
        };
        summary =
            Some(tally.print_two_sided(&heading, (a.sprt_elo0, a.sprt_elo1, bounds), m.rules != Rules::default()));
    } else {
        tally.print_per_seat(&format!("{title}: {}", names.join(" | ")), names);
    }
    if stopped_at_verdict {
        println!("Stopped at the SPRT verdict after {} of {} games.", tally.games(), a.games);
    }
    Ok(summary)
}
