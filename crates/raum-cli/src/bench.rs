//! `raum bench`: a fixed set of positions per variant, each searched on one
//! thread to a fixed depth with a cleared hash table. The total node count is
//! a signature of the search: the same build gives the same count on every
//! machine and every run, and any change to search or evaluation changes it.

use crate::args::BenchArgs;
use anyhow::{Context, Result, bail};
use raum_engine::{Engine, Limits, Score};
use raum_notation::{format_move, parse_position};
use raum_rules::{Game, Variant, VariantFn, VariantId, Width};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth searched when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 7;
/// Hash table size for every bench search.
const HASH_MB: usize = 16;

/// The bench positions: each variant's start, then positions reached in
/// engine self-play (Raum's own games, recorded once as position strings).
pub const POSITIONS: &[(VariantId, &str)] = &[
    (VariantId::FiveUp, "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 1"),
    (
        VariantId::FiveUp,
        "rwkgr|pppp1|5|5|5/2qn1|p1ppp|1p2p|5|5/2n2|5|5|3P1|5/2b2|1B3|1b2P|PPP1P|1BQN1/5|P4|5|1PPP1|RWKGR w Kk - 0 6",
    ),
    (
        VariantId::FiveUp,
        "rwkgr|pp1p1|5|5|5/2qn1|p1ppp|1p2p|5|5/2nb1|2p2|5|3P1|5/5|1B3|1PP1P|PPW1P|1BQN1/5|P4|5|1P1P1|R1KGR w Kk - 0 9",
    ),
    (
        VariantId::FiveUp,
        "rwkgr|ppqp1|5|5|2Q2/3n1|p1pbp|1p2p|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PPWBP|1B1N1/5|P4|5|1P1P1|R1KGR w Kk - 4 12",
    ),
    (
        VariantId::FiveUp,
        "rwk2|ppqp1|5|5|4B/2g2|p1pbp|1pn1p|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PPWBP|3N1/2Q2|P4|5|1P1P1|R1KG1 w Kk - 1 15",
    ),
    (
        VariantId::FiveUp,
        "rwk2|ppq2|5|5|4B/5|2pgp|ppnpp|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PP1GP|3N1/2Q2|P4|3W1|1P1P1|R1K2 w Kk Ad3@Bd3 0 18",
    ),
    (
        VariantId::Raumschach,
        "5|5|5|PPPPP|RNKNR/5|5|5|PPPPP|BUQBU/5|5|5|5|5/ubqub|ppppp|5|5|5/rnknr|ppppp|5|5|5 w - - 0 1",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|PNPPP|B1QBU/5|3p1|5|U4|5/ub1ub|pppqp|5|3n1|5/r1k1r|ppppp|2n2|5|5 w - - 6 6",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|U3P|2B2/ub1ub|ppn1p|2p2|2N2|5/r1kqr|ppppp|2n2|5|5 w - - 3 9",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|4P|2B2/ub1ub|p1n1p|1pp2|5|5/r1kqr|p1ppp|1p3|U4|5 w - - 0 12",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|4P|5/ub1ub|p1nqp|1p3|5|1B3/r1k1r|p1ppp|1p3|5|5 w - - 1 15",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B3U/3b1|3p1|5|4P|2B2/ub1u1|p2pp|np3|5|5/r1k1r|p1pp1|1p3|5|5 w - - 2 18",
    ),
];

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

pub fn bench(a: &BenchArgs) -> Result<()> {
    let depth = a.depth.unwrap_or(DEFAULT_DEPTH);
    if depth == 0 || depth > 30 {
        bail!("--depth must be between 1 and 30, not {depth}");
    }
    let only = a.variant.as_deref().map(|name| name.parse::<VariantId>()).transpose()?;
    if let Some(id) = only
        && !POSITIONS.iter().any(|p| p.0 == id)
    {
        bail!("variant '{id}' has no bench positions yet");
    }
    let mut run = Run {
        engine: Engine::new(HASH_MB, 1),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        nodes: 0,
        time: Duration::ZERO,
    };
    // A variant's positions stand together in the list; each group is searched
    // at its variant's width.
    let mut first = 0;
    for positions in POSITIONS.chunk_by(|x, y| x.0 == y.0) {
        let id = positions[0].0;
        if only.is_none_or(|o| o == id) {
            id.dispatch(Group { run: &mut run, first, positions })?;
        }
        first += positions.len();
    }
    let nps = (run.nodes as f64 / run.time.as_secs_f64().max(1e-9)) as u64;
    eprintln!("time {:.3} s", run.time.as_secs_f64());
    println!("Bench: {} nodes {nps} nps", run.nodes);
    Ok(())
}

/// The bench's engine, limits and totals so far.
struct Run {
    engine: Engine,
    limits: Limits,
    nodes: u64,
    time: Duration,
}

/// One variant's bench positions (`first`: the index of the first in [`POSITIONS`]).
struct Group<'a> {
    run: &'a mut Run,
    first: usize,
    positions: &'a [(VariantId, &'static str)],
}

impl VariantFn for Group<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let run = self.run;
        for (i, &(id, fen)) in (self.first..).zip(self.positions) {
            let pos = parse_position(v, fen).with_context(|| format!("bench position {}", i + 1))?;
            run.engine.new_game();
            let start = Instant::now();
            let r = run.engine.search(&Game::new(pos), &run.limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
            let elapsed = start.elapsed();
            run.nodes += r.info.nodes;
            run.time += elapsed;
            eprintln!(
                "position {:2}/{} {:10} depth {} nodes {:9} time {:6} ms best {} {}",
                i + 1,
                POSITIONS.len(),
                id.name(),
                r.info.depth,
                r.info.nodes,
                elapsed.as_millis(),
                r.best.map_or("(none)".to_string(), |m| format_move(v, m)),
                score_text(r.info.score),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::Position;

    /// Each variant's bench positions: six, the first its start, all valid
    /// games still going.
    struct Valid;
    impl VariantFn for Valid {
        type Output = ();
        fn call<S: Width>(self, v: &'static Variant<S>) {
            let id = v.id();
            let mine: Vec<&str> = POSITIONS.iter().filter(|p| p.0 == id).map(|p| p.1).collect();
            assert_eq!(mine.len(), 6, "{id}");
            assert_eq!(parse_position(v, mine[0]).unwrap(), Position::start(v), "{id}");
            for fen in mine {
                let pos = parse_position(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert!(pos.outcome().is_none(), "{fen}");
            }
        }
    }

    #[test]
    fn positions_are_valid_games_in_progress_starting_with_each_start() {
        // The variants benched so far (the wide boards have no positions yet).
        for id in VariantId::ALL.into_iter().filter(|&id| POSITIONS.iter().any(|p| p.0 == id)) {
            id.dispatch(Valid);
        }
        // Each variant's positions stand together (the bench searches them group by group).
        let groups: Vec<VariantId> = POSITIONS.chunk_by(|x, y| x.0 == y.0).map(|g| g[0].0).collect();
        let mut distinct = groups.clone();
        distinct.sort_by_key(|id| id.name());
        distinct.dedup();
        assert_eq!(groups.len(), distinct.len(), "{groups:?}");
    }
}
