//! `raum match` for the multi-player games: N seats, players rotated over
//! the seats, scores per player; with teams, team against team with Elo and
//! the sequential test.
//!
//! Players: `engine:movetime=MS|nodes=N|depth=D[,search=brs|paranoid|maxn]`,
//! `random`, `greedy` (the most valuable capture, as in two-player matches,
//! but without looking for mates; `search=` picks the search
//! every side for itself, best-reply by default). `--players` lists them
//! separated by commas; with teams give two (player A takes one team, B the
//! other, swapping every game), every side for itself one per side (game g
//! seats player p on side (p + g) mod N, so every player plays every side
//! equally often over N games).

use crate::args::MatchArgs;
use crate::rng::Rng;
use crate::stats;
use anyhow::{Context, Result, bail};
use raum_engine::multi::{MultiEngine, MultiEval, MultiSearch};
use raum_engine::{Limits, Score};
use raum_notation::Record;
use raum_rules::End;
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{DrawReason, Move, MultiFn, Points, Width};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// A seat's player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MultiSpec {
    /// Raum's multi-player search under these limits, and which search it
    /// plays every side for itself.
    Engine(Limits, MultiSearch),
    /// A uniformly random legal move.
    Random,
    /// The most valuable capture, else a random move.
    Greedy,
}

/// Reads one player: `engine:movetime=100`, `engine:nodes=5000,depth=4`,
/// `engine:movetime=100,search=brs`, `random`, `greedy`.
pub fn parse_multi_spec(text: &str) -> Result<MultiSpec> {
    match text {
        "random" => return Ok(MultiSpec::Random),
        "greedy" => return Ok(MultiSpec::Greedy),
        _ => {}
    }
    let Some(rest) = text.strip_prefix("engine:") else {
        bail!("'{text}' is not a player here: engine:movetime=MS|nodes=N|depth=D[,search=S], random or greedy");
    };
    let mut limits = Limits::default();
    let mut search = MultiSearch::default();
    for part in rest.split(',') {
        let (key, value) = part.split_once('=').with_context(|| format!("'{part}': write key=value"))?;
        if key == "search" {
            search = value.parse().with_context(|| format!("'{part}'"))?;
            continue;
        }
        let n: u64 = value.parse().with_context(|| format!("'{part}': {value} is not a number"))?;
        match key {
            "movetime" => limits.movetime = Some(Duration::from_millis(n)),
            "nodes" => limits.nodes = Some(n),
            "depth" => limits.depth = Some(n.min(60) as u32),
            _ => bail!("'{key}' is not a setting of the multi-player engine (movetime, nodes, depth, search)"),
        }
    }
    if limits == Limits::default() {
        bail!("'{text}': give the engine a limit (movetime=MS, nodes=N or depth=D)");
    }
    Ok(MultiSpec::Engine(limits, search))
}

/// Splits `--players`: commas separate players, except before `key=value`
/// parts, which continue the engine before them (`engine:nodes=100,depth=3,greedy`).
pub fn split_players(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',') {
        match out.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// A player with its state.
enum Seat {
    Engine(Box<MultiEngine>, Limits),
    Random,
    Greedy,
}

impl Seat {
    fn new(spec: &MultiSpec) -> Seat {
        match spec {
            MultiSpec::Engine(l, search) => Seat::Engine(Box::new(MultiEngine::with_search(16, *search)), l.clone()),
            MultiSpec::Random => Seat::Random,
            MultiSpec::Greedy => Seat::Greedy,
        }
    }

    /// A move, and for the engine its evaluation as a comment (`+0.35/4`:
    /// from the mover's team's side, then the depth).
    fn choose<S: Width>(&mut self, game: &MultiGame<S>, rng: &mut Rng) -> Option<(Move, Option<String>)> {
        let pos = game.position();
        let list: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if list.is_empty() {
            return None;
        }
        match self {
            Seat::Engine(e, limits) => {
                let r = e.search(game, limits, &AtomicBool::new(false), &mut |_| {});
                let said = match r.info.score {
                    Score::Cp(cp) => format!("{:+.2}/{}", f64::from(cp) / 100.0, r.info.depth),
                    Score::Mate(n) => format!("{}M{}/{}", if n > 0 { '+' } else { '-' }, n.abs(), r.info.depth),
                };
                r.best.map(|m| (m, Some(said)))
            }
            Seat::Random => Some((list[rng.below(list.len())], None)),
            Seat::Greedy => {
                let eval = MultiEval::get(pos.variant());
                let gain = |m: &Move| pos.man_at(m.to()).map(|(_, k)| eval.value(k));
                let best = list.iter().filter_map(gain).max();
                let pool: Vec<Move> = match best {
                    Some(b) => list.iter().copied().filter(|m| gain(m) == Some(b)).collect(),
                    None => list,
                };
                Some((pool[rng.below(pool.len())], None))
            }
        }
    }
}

/// How a game ended: each side's score and the reason, and its record.
struct Ended {
    scores: Vec<Points>,
    reason: String,
    plies: usize,
    record: Record,
}

/// Plays one game from `start`; `seats[side]` indexes `players`.
fn play_game<S: Width>(
    start: MultiPosition<S>,
    players: &mut [Seat],
    seats: &[usize],
    rng: &mut Rng,
    max_plies: u32,
    names: &[String],
) -> Result<Ended> {
    let mut game = MultiGame::new(start);
    let mut comments: Vec<Option<String>> = Vec::new();
    for &p in seats {
        if let Seat::Engine(e, _) = &mut players[p] {
            e.new_game();
        }
    }
    loop {
        if let Some(o) = game.outcome() {
            let reason = match o.end {
                End::Checkmate { .. } => "checkmate",
                End::Stalemate { .. } => "stalemate",
                End::LastSide { .. } => "last side in",
                End::Resignation { .. } => "resignation",
                End::Draw(DrawReason::Repetition) => "repetition",
                End::Draw(DrawReason::FiftyMoves) => "fifty-move",
                End::Draw(_) => "bare-kings",
            };
            let record = record_of(&game, seats, names, &comments, None);
            return Ok(Ended { scores: o.scores, reason: reason.into(), plies: game.moves().len(), record });
        }
        if game.moves().len() as u32 >= max_plies {
            let v = game.position().variant();
            let sides = v.sides().len();
            let scores = if v.teams() {
                vec![Points::HALF; sides]
            } else {
                let inn = game.position().sides_in();
                let share = Points(Points::ONE.0 / inn.len() as u8);
                (0..sides).map(|s| if inn.contains(&s) { share } else { Points::ZERO }).collect()
            };
            let record = record_of(&game, seats, names, &comments, Some(&scores));
            return Ok(Ended { scores, reason: "adjudication".into(), plies: game.moves().len(), record });
        }
        let side = game.position().side_to_move();
        let (m, said) = players[seats[side]].choose(&game, rng).context("a player found no move")?;
        comments.push(said);
        if game.play(m).is_err() {
            bail!("illegal move {} by side {side}", raum_notation::format_multi_move(game.position().variant(), m));
        }
    }
}

/// A game's record: a tag per side naming its player, the engines'
/// evaluations as comments, the result (`scores` when adjudicated).
fn record_of<S: Width>(
    game: &MultiGame<S>,
    seats: &[usize],
    names: &[String],
    comments: &[Option<String>],
    adjudicated: Option<&[Points]>,
) -> Record {
    let v = game.start().variant();
    let mut r = Record::from_game(game);
    r.set_tag("Event", "raum match");
    r.set_tag("Date", &crate::records::today());
    for (side, &p) in v.sides().iter().zip(seats) {
        r.set_tag(side.name, &names[p]);
    }
    for (m, c) in r.moves.iter_mut().zip(comments) {
        m.comment.clone_from(c);
    }
    if let Some(scores) = adjudicated {
        r.set_result(Some(scores.to_vec()));
        r.set_tag("Termination", "adjudication");
    }
    r
}

/// `raum match` on a multi-player game.
pub fn run(id: MultiId, a: &MatchArgs) -> Result<()> {
    struct Body<'a>(&'a MatchArgs);
    impl MultiFn for Body<'_> {
        type Output = Result<()>;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
            run_at(v, self.0)
        }
    }
    id.dispatch(Body(a))
}

fn run_at<S: Width>(v: &'static MultiVariant<S>, a: &MatchArgs) -> Result<()> {
    let Some(list) = &a.players else {
        bail!(
            "{} seats {} players: name them with --players (e.g. engine:movetime=100,greedy)",
            v.id(),
            v.sides().len()
        );
    };
    if a.record.is_some() || a.openings.is_some() {
        bail!("--record and --openings are for two-player matches so far (--pgn keeps the games)");
    }
    let names = split_players(list);
    let specs: Vec<MultiSpec> = names
        .iter()
        .enumerate()
        .map(|(i, n)| parse_multi_spec(n).with_context(|| format!("in --players, player {}", i + 1)))
        .collect::<Result<_>>()?;
    let sides = v.sides().len();
    let cycle = if v.teams() {
        if specs.len() != 2 {
            bail!("{} is played in two teams: give two players (A takes one team, B the other)", v.id());
        }
        2
    } else {
        if specs.len() != sides {
            bail!("{} seats {sides} players, one per side: --players lists {}", v.id(), specs.len());
        }
        sides
    };
    if a.games == 0 || a.concurrency == 0 {
        bail!("--games and --concurrency must be at least 1");
    }
    let games = u64::from(a.games);
    let cycles = games.div_ceil(cycle as u64);
    let team_of = |side: usize| v.sides()[side].team as usize;
    // Player p's side in game g of a cycle.
    let seating = |g: usize| -> Vec<usize> {
        if v.teams() {
            (0..sides).map(|s| (team_of(s) + g) % 2).collect()
        } else {
            (0..sides).map(|s| (s + sides - g % sides) % sides).collect()
        }
    };
    println!("{} ({}), players: {}", v.title(), v.id(), names.join(" | "));
    let results: Mutex<Vec<(u64, Vec<usize>, Ended)>> = Mutex::new(Vec::new());
    let next = AtomicU64::new(0);
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..(a.concurrency as u64).min(cycles) {
            scope.spawn(|| {
                let mut players: Vec<Seat> = specs.iter().map(Seat::new).collect();
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= cycles || failed.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    // One opening per cycle, every rotation from it.
                    let mut rng = Rng::new(a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ c);
                    let mut start = MultiPosition::start(v);
                    for _ in 0..a.random_plies {
                        let moves = start.legal_moves();
                        if moves.len() < 2 {
                            break;
                        }
                        start.play(moves[rng.below(moves.len())]);
                    }
                    for g in 0..cycle {
                        let index = c * cycle as u64 + g as u64;
                        if index >= games {
                            break;
                        }
                        let seats = seating(g);
                        match play_game(start.clone(), &mut players, &seats, &mut rng, a.max_plies, &names) {
                            Ok(e) => {
                                if let Ok(mut r) = results.lock() {
                                    r.push((index, seats, e));
                                }
                            }
                            Err(e) => {
                                if let Ok(mut f) = failed.lock() {
                                    *f = Some(e.context(format!("game {}", index + 1)));
                                }
                                return;
                            }
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.0);
    if let Some(path) = &a.pgn {
        let text: Vec<String> = results
            .iter()
            .map(|(i, _, e)| {
                let mut r = e.record.clone();
                r.set_tag("Round", &(i + 1).to_string());
                r.to_string()
            })
            .collect();
        std::fs::write(path, text.join("\n")).with_context(|| format!("writing --pgn {}", path.display()))?;
    }
    // Each player's score per game: the score of a side it held.
    let mut per_player: Vec<Vec<Points>> = vec![Vec::new(); specs.len()];
    let mut reasons: std::collections::BTreeMap<String, u64> = Default::default();
    let mut plies = 0usize;
    for (_, seats, e) in &results {
        for (p, scores) in per_player.iter_mut().enumerate() {
            if let Some(side) = seats.iter().position(|&x| x == p) {
                scores.push(e.scores[side]);
            }
        }
        *reasons.entry(e.reason.clone()).or_default() += 1;
        plies += e.plies;
    }
    let endings: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!(
        "{} games, {:.0} plies a game on average; endings: {}",
        results.len(),
        plies as f64 / results.len().max(1) as f64,
        endings.join(", ")
    );
    if v.teams() {
        let mut games = [0u64; stats::ONE + 1];
        let mut pairs = [0u64; 2 * stats::ONE + 1];
        for pair in per_player[0].chunks(2) {
            for p in pair {
                games[p.0 as usize] += 1;
            }
            if let [x, y] = pair {
                pairs[(x.0 + y.0) as usize] += 1;
            }
        }
        let score = stats::mean_score(&games);
        let (elo, margin) = stats::elo_with_margin(&games);
        println!(
            "A ({}) as a team against B ({}): score {:.1}%, Elo {elo:+.0} ± {margin:.0}",
            names[0],
            names[1],
            100.0 * score
        );
        let bounds = stats::sprt_bounds(a.alpha, a.beta);
        let llr = stats::pair_llr(&pairs, a.sprt_elo0, a.sprt_elo1);
        println!(
            "SPRT ({:+}, {:+}): LLR {llr:.2} ({:.2}, {:.2}): {}",
            a.sprt_elo0,
            a.sprt_elo1,
            bounds.0,
            bounds.1,
            stats::sprt_verdict(llr, bounds)
        );
    } else {
        let mut rows: Vec<(f64, f64, usize)> = per_player
            .iter()
            .enumerate()
            .map(|(p, s)| {
                let n = s.len().max(1) as f64;
                let mean = s.iter().map(|x| x.as_f64()).sum::<f64>() / n;
                let var = s.iter().map(|x| (x.as_f64() - mean).powi(2)).sum::<f64>() / n;
                (mean, 1.96 * (var / n).sqrt(), p)
            })
            .collect();
        rows.sort_by(|x, y| y.0.total_cmp(&x.0));
        for (rank, (mean, err, p)) in rows.iter().enumerate() {
            println!("{}. {} mean score {mean:.3} ± {err:.3} over {} games", rank + 1, names[*p], per_player[*p].len());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_split_on_commas_but_keep_engine_options() {
        assert_eq!(
            split_players("engine:nodes=100,depth=3,greedy,random"),
            ["engine:nodes=100,depth=3", "greedy", "random"]
        );
        assert_eq!(parse_multi_spec("greedy").unwrap(), MultiSpec::Greedy);
        assert!(parse_multi_spec("engine:speed=3").unwrap_err().to_string().contains("'speed'"));
        assert!(parse_multi_spec("engine:").is_err());
        assert!(parse_multi_spec("stockfish").is_err());
        let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        assert_eq!(
            parse_multi_spec("engine:movetime=100").unwrap(),
            MultiSpec::Engine(limits.clone(), MultiSearch::BestReply)
        );
        assert_eq!(
            parse_multi_spec("engine:movetime=100,search=paranoid").unwrap(),
            MultiSpec::Engine(limits.clone(), MultiSearch::Paranoid)
        );
        assert_eq!(
            split_players("engine:movetime=100,search=brs,engine:movetime=100,search=maxn,greedy"),
            ["engine:movetime=100,search=brs", "engine:movetime=100,search=maxn", "greedy"]
        );
        assert_eq!(
            parse_multi_spec("engine:movetime=100,search=brs").unwrap(),
            MultiSpec::Engine(limits.clone(), MultiSearch::BestReply)
        );
        assert_eq!(
            parse_multi_spec("engine:search=maxn,movetime=100").unwrap(),
            MultiSpec::Engine(limits, MultiSearch::MaxN)
        );
        assert!(parse_multi_spec("engine:movetime=100,search=minimax").is_err());
        assert!(parse_multi_spec("engine:search=brs").is_err());
    }
}
