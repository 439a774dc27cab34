//! `raum lab`: the questions the seeds' designers ask, answered by counting
//! ([`coverage`]) and by self-play: piece values ([`values`]), first moves
//! ([`openings`]) and balance ([`balance`]). A self-play study
//! ([`study::Study`]) is a numbered list of games that follow from its
//! settings and seed alone; [`study`] plays them on every core and keeps
//! them in SQLite ([`results`]), so a study resumes where it stopped and
//! splits into shards that [`results::merge`] joins into the same result;
//! [`report`] prints and writes what they say. [`learn`] learns a game's
//! evaluation by self-play, a fit and a match.

mod balance;
mod coverage;
mod learn;
mod openings;
mod report;
mod results;
mod study;
mod values;

use crate::args::{LabArgs, LabCommand, StudyArgs};
use anyhow::{Result, bail};
use raum_rules::GameId;

/// `raum lab`.
pub fn lab(a: &LabArgs) -> Result<()> {
    match &a.study {
        LabCommand::Coverage(c) => coverage::coverage(c),
        LabCommand::Values(s) => study::run(s, two(s)?, &values::Values::new(s, two(s)?)?),
        LabCommand::Openings(s) => study::run(s, two(s)?, &openings::Openings::new(s, two(s)?)?),
        LabCommand::Balance(s) => study::run(s, two(s)?, &balance::Balance::new(s, two(s)?)),
        LabCommand::Merge(m) => results::merge(m),
        LabCommand::Learn(l) => learn::learn(l),
    }
}

/// The study's game: two-player games (and files of them).
fn two(a: &StudyArgs) -> Result<GameId> {
    if crate::args::multi_id(&a.variant).is_some() {
        bail!("the lab's self-play studies are for two-player games; '{}' seats more", a.variant);
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    Ok(GameId::Two(crate::args::variant_id(&a.variant)?))
}

/// What every study's key starts with: the settings its games follow from.
fn settings(kind: &str, a: &StudyArgs, id: GameId) -> String {
    format!(
        "{kind} variant={} games={} player={} seed={} random-plies={} max-plies={}",
        id.name(),
        a.games,
        a.player,
        a.seed,
        a.random_plies,
        a.max_plies
    )
}
