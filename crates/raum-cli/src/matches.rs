//! `raum match`: games between two players, refereed by the rules core, with
//! Elo, pentanomial and SPRT statistics — how strength changes are accepted.
//!
//! Players are given as specs:
//! - `engine:nodes=N`, `engine:movetime=MS`, `engine:depth=D`,
//!   `engine:tc=BASE+INC` (a clock, see [`crate::clock`]): Raum's engine on
//!   one thread with its own 16 MB table (cleared before each game);
//!   `engine:level=L` plays at a level (1 to 15, or between two: `2.5`; see
//!   `raum_engine::Skill`), within its budget and any limit also given;
//!   `engine:elo=E` at the strength of Elo `E` on the variant's measured
//!   scale (`raum_engine::strength_for_elo`, as the protocol's `UCI_Elo`);
//!   `engine:depth=1,lines=N,spread=CP` chooses as a level does, with a
//!   choice of one's own (how the levels were calibrated), and
//!   `engine:depth=1,grab=1` as Raumschach's level 2 (`raum_engine::Level::grab`);
//! - `uci:LIMITS:COMMAND`: an external engine over the protocol;
//! - `random`: a uniformly random legal move (seeded);
//! - `greedy`: a one-ply player: it mates when it can, else takes the most
//!   valuable piece it can (P 1, N 3, B 3, U 3, R 5, G 6, W 7, Q 9, by letter;
//!   anything else 0), breaking ties and choosing among non-captures at
//!   random (seeded). Taking the mate is what makes it an anchor: without it
//!   a greedy player wins its material and then wanders into the 50-move rule.
//!
//! Games are scored as the rules score them: a win 1, a draw 1/2, and on
//! Savard's boards a stalemate 3/5 to the side that stalemates and 2/5 to
//! the other, which the score, Elo and pair statistics count as 0.6 and 0.4
//! (and the summary shows as wins and losses "by stalemate").
//!
//! Games are played in pairs on the same opening with the colours swapped.
//! Openings are position strings from `--openings FILE` (one a line; blank lines
//! and lines starting with `#` are skipped; used in turn, cycling) or
//! `--random-plies K` seeded random moves from the start.

use crate::adjudication::{self, DrawRule, Judge, ResignRule, Rules, Verdict};
use crate::args::{MatchArgs, variant_id};
use crate::clock::{Clocks, TimeControl};
use crate::records;
use crate::rng::Rng;
use crate::stats;
use crate::uci_client::{Said, UciEngine};
use anyhow::{Context, Result, bail};
use raum_engine::{
    Engine, EvalParams, Feature, Features, LEVELS, Level, Limits, Score, SearchParams, Skill, level_elos,
    strength_for_elo,
};
use raum_notation::{Record, RecordResult, format_move, format_position, parse_position, termination_of};
use raum_rules::{
    Color, DrawReason, Game, Move, MoveKind, Outcome, Points, Position, Variant, VariantFn, VariantId, Width,
};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// Raum's engine: its limits, the search features in use, and evaluation
    /// terms replacing the built-in ones.
    Engine {
        limits: Limits,
        /// Plays on a clock the referee keeps.
        tc: Option<TimeControl>,
        features: Features,
        params: SearchParams,
        eval: Option<EvalParams>,
        /// A playing level (1.0..=15.0), if not the full engine.
        level: Option<f64>,
        /// A level's choice of one's own: lines to choose among, the spread, and
        /// whether it grabs instead.
        choice: Option<(usize, i32, bool)>,
    },
    /// An external engine speaking the protocol: its limits, `setoption`s and command line.
    Uci {
        limits: Limits,
        tc: Option<TimeControl>,
        options: Vec<(String, String)>,
        command: Vec<String>,
    },
    Random,
    Greedy,
}

const KNOWN: &str = "engine:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC]|level=L|elo=E[,lines=N,spread=CP|,grab=1][,off=FEATURE][,on=FEATURE][,PARAMETER=N][,eval=FILE], \
                     uci:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC][,OPTION=VALUE]:COMMAND, random, greedy";

/// Reads one `key=value` limit into `limits` or `tc`; `false` if `key` is no limit.
fn parse_limit(text: &str, key: &str, value: &str, limits: &mut Limits, tc: &mut Option<TimeControl>) -> Result<bool> {
    let n = || -> Result<u64> {
        value
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .with_context(|| format!("player '{text}': '{value}' is not a positive whole number"))
    };
    match key {
        "nodes" => limits.nodes = Some(n()?),
        "movetime" => limits.movetime = Some(Duration::from_millis(n()?)),
        "depth" => {
            limits.depth = Some(
                u32::try_from(n()?)
                    .ok()
                    .filter(|&d| d <= 64)
                    .with_context(|| format!("player '{text}': depth must be at most 64"))?,
            )
        }
        "tc" => *tc = Some(value.parse().with_context(|| format!("player '{text}'"))?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parses a player spec for variant `id`: `engine:nodes=N` (or `movetime=MS`,
/// `depth=D`), optionally followed by `,off=FEATURE` (repeatable) and
/// `,eval=FILE` (a `raum tune --out` listing); `uci:LIMITS[,OPTION=VALUE]:COMMAND`;
/// `random`; `greedy`.
pub fn parse_spec(text: &str, id: VariantId) -> Result<Spec> {
    let text = text.trim();
    match text {
        "random" => return Ok(Spec::Random),
        "greedy" => return Ok(Spec::Greedy),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix("uci:") {
        let Some((settings, command)) = rest.split_once(':') else {
            bail!("player '{text}': write an external engine as uci:LIMITS:COMMAND, e.g. uci:movetime=100:./engine");
        };
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            bail!("player '{text}': the engine command is missing after the second ':'");
        }
        let mut limits = Limits::default();
        let mut tc = None;
        let mut options = Vec::new();
        for item in settings.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                bail!("player '{text}': '{item}' is not KEY=VALUE");
            };
            if !parse_limit(text, key.trim(), value, &mut limits, &mut tc)? {
                options.push((key.trim().to_string(), value.trim().to_string()));
            }
        }
        if limits == Limits::default() && tc.is_none() {
            bail!("player '{text}': give a limit: nodes=N, movetime=MS, depth=D or tc=[MOVES/]BASE[+INC]");
        }
        return Ok(Spec::Uci { limits, tc, options, command });
    }
    let rest = if text == "engine" { Some("") } else { text.strip_prefix("engine:") };
    let Some(rest) = rest else {
        bail!("unknown player '{text}' (players: {KNOWN})");
    };
    let mut limits = Limits::default();
    let mut tc = None;
    let mut features = Features::for_variant(id);
    let mut params = SearchParams::for_variant(id);
    let mut eval = None;
    let mut level = None;
    let (mut lines, mut spread, mut grab) = (None, None, None);
    for item in rest.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            bail!("player '{text}': '{item}' is not KEY=VALUE (players: {KNOWN})");
        };
        let key = key.trim();
        if parse_limit(text, key, value, &mut limits, &mut tc)? {
            continue;
        }
        match key {
            "level" => {
                let l: f64 = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|l| (1.0..=f64::from(LEVELS)).contains(l))
                    .with_context(|| format!("player '{text}': level must be from 1 to {LEVELS}, not '{value}'"))?;
                if level.replace(l).is_some() {
                    bail!("player '{text}': one of level and elo, once");
                }
            }
            "elo" => {
                let (scale, own) = level_elos(id);
                let (lo, hi) = (scale[0], scale[scale.len() - 1]);
                let elo: f64 = value.trim().parse().ok().filter(|e| (lo..=hi).contains(e)).with_context(|| {
                    format!(
                        "player '{text}': elo must be on {}'s measured scale, {lo} to {hi}{}, not '{value}'",
                        id.name(),
                        if own { "" } else { " (Five Up's)" }
                    )
                })?;
                if level.replace(strength_for_elo(id, elo).0).is_some() {
                    bail!("player '{text}': one of level and elo, once");
                }
            }
            "lines" => {
                let n: usize = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| (1..=256).contains(&n))
                    .with_context(|| format!("player '{text}': lines must be from 1 to 256, not '{value}'"))?;
                lines = Some(n);
            }
            "spread" => {
                let cp: i32 = value.trim().parse().ok().filter(|&cp| cp >= 0).with_context(|| {
                    format!("player '{text}': spread must be a number of centipawns, 0 or more, not '{value}'")
                })?;
                spread = Some(cp);
            }
            "grab" => {
                grab = Some(match value.trim() {
                    "1" => true,
                    "0" => false,
                    _ => bail!("player '{text}': grab is 1 (choose as a grabbing beginner) or 0, not '{value}'"),
                });
            }
            "off" => {
                let f: Feature = value.parse().with_context(|| format!("player '{text}'"))?;
                features = features.without(f);
            }
            "on" => {
                let f: Feature = value.parse().with_context(|| format!("player '{text}'"))?;
                features = features.with(f);
            }
            "eval" => {
                let path = value.trim();
                let listing = std::fs::read_to_string(path)
                    .with_context(|| format!("player '{text}': reading the evaluation file {path}"))?;
                let params = raum_engine::tune::parse_listing(&EvalParams::for_variant(id), &listing)
                    .with_context(|| format!("player '{text}': evaluation file {path}"))?;
                eval = Some(params);
            }
            other if SearchParams::is_param(other) => {
                params.set(other, value).with_context(|| format!("player '{text}'"))?;
            }
            other => bail!(
                "player '{text}': unknown engine setting '{other}' (nodes, movetime, depth, level, elo, lines, spread, grab, \
                 off, on, eval, or a \
                 search parameter: {})",
                SearchParams::names().collect::<Vec<_>>().join(", ")
            ),
        }
    }
    if limits == Limits::default() && tc.is_none() && level.is_none() {
        bail!(
            "player '{text}': give the engine's limit as engine:nodes=N, engine:movetime=MS, engine:depth=D, \
             engine:tc=[MOVES/]BASE[+INC] or engine:level=L"
        );
    }
    let choice = match (lines, spread, grab) {
        (None, None, None) => None,
        _ if level.is_some() => {
            bail!("player '{text}': lines, spread and grab make a level of their own: not with level")
        }
        (lines, spread, grab) => Some((lines.unwrap_or(1), spread.unwrap_or(0), grab.unwrap_or(false))),
    };
    Ok(Spec::Engine { limits, tc, features, params, eval, level, choice })
}

/// The value of a captured piece, by letter (documented in the module header).
fn piece_value(letter: char) -> u32 {
    match letter {
        'P' => 1,
        'N' | 'B' | 'U' => 3,
        'R' => 5,
        'G' => 6,
        'W' => 7,
        'Q' => 9,
        _ => 0,
    }
}

/// The value of what `m` captures, if it is a capture.
fn captured_value<S: Width>(pos: &Position<S>, m: Move) -> Option<u32> {
    let v = pos.variant();
    match m.kind() {
        MoveKind::Castle => None,
        MoveKind::EnPassant => Some(piece_value('P')),
        _ => pos
            .piece_at(m.to())
            .filter(|p| p.color != pos.side_to_move())
            .map(|p| piece_value(v.piece_def(p.kind).letter)),
    }
}

/// Whether the legal move `m` mates.
fn mates<S: Width>(pos: &Position<S>, m: Move) -> bool {
    matches!(pos.play_copy(m).outcome(), Some(Outcome::Checkmate { .. }))
}

/// A player ready to move. It holds nothing of a board's width: an engine
/// meets the width only in a search, so the same player type serves every
/// variant and only [`Player::choose`] is generic.
enum Player {
    Engine(Box<Engine>, Limits, Option<TimeControl>),
    Uci(Box<UciEngine>, Limits, Option<TimeControl>),
    Random,
    Greedy,
}

impl Player {
    fn new<S: Width>(spec: &Spec, v: &'static Variant<S>) -> Result<Player> {
        Ok(match spec {
            Spec::Engine { limits, tc, features, params, eval, level, choice } => {
                let mut e = Engine::new(16, 1);
                e.set_features(*features);
                e.set_params(*params);
                // The same seed for every game: a game differs from the next by its opening.
                e.set_skill(level.map(|l| Skill::with_strength(l, 0x5EED)));
                if let Some((lines, spread, grab)) = *choice {
                    let nodes = limits.nodes.unwrap_or(u64::MAX);
                    let own = Level { depth: limits.depth, nodes, lines, spread, grab };
                    e.set_skill(Some(Skill::custom(own, 0x5EED)));
                }
                if let Some(params) = eval {
                    e.set_eval_params(v, params.clone());
                }
                Player::Engine(Box::new(e), limits.clone(), *tc)
            }
            Spec::Uci { limits, tc, options, command } => Player::Uci(
                Box::new(UciEngine::new(command.clone(), options.clone(), v.id().name())?),
                limits.clone(),
                *tc,
            ),
            Spec::Random => Player::Random,
            Spec::Greedy => Player::Greedy,
        })
    }

    fn new_game(&mut self) {
        match self {
            Player::Engine(e, ..) => e.new_game(),
            // A failure here shows again, as the reason for a lost game, when a move is asked for.
            Player::Uci(e, ..) => {
                let _ = e.new_game();
            }
            Player::Random | Player::Greedy => {}
        }
    }

    /// The player's time control, if it plays on a clock.
    fn time_control(&self) -> Option<TimeControl> {
        match self {
            Player::Engine(_, _, tc) | Player::Uci(_, _, tc) => *tc,
            Player::Random | Player::Greedy => None,
        }
    }

    /// The player's move with its score from its own side and the depth (if
    /// it reports one: engines do), or why it gives none; engines are told the clocks.
    fn choose<S: Width>(
        &mut self,
        game: &Game<S>,
        rng: &mut Rng,
        clocks: &Clocks,
    ) -> Result<(Move, Option<Said>), String> {
        let pos = game.position();
        let none = || "gave no move".to_string();
        match self {
            Player::Engine(e, limits, _) => {
                let limits = clocks.apply(limits, pos.side_to_move());
                let r = e.search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
                let m = r.best.ok_or_else(none)?;
                Ok((m, Some(Said { score: r.info.score, depth: Some(r.info.depth) })))
            }
            Player::Uci(e, limits, _) => {
                let limits = clocks.apply(limits, pos.side_to_move());
                e.choose(game, &limits)
            }
            Player::Random => {
                let moves = pos.legal_moves();
                let list: Vec<Move> = moves.iter().copied().collect();
                (!list.is_empty()).then(|| (list[rng.below(list.len())], None)).ok_or_else(none)
            }
            Player::Greedy => {
                let list: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if list.is_empty() {
                    return Err(none());
                }
                if let Some(&m) = list.iter().find(|&&m| mates(pos, m)) {
                    return Ok((m, None));
                }
                let best = list.iter().filter_map(|&m| captured_value(pos, m)).max();
                let pool: Vec<Move> = match best {
                    Some(b) => list.into_iter().filter(|&m| captured_value(pos, m) == Some(b)).collect(),
                    None => list,
                };
                Ok((pool[rng.below(pool.len())], None))
            }
        }
    }
}

/// How one game ended, from White's point of view.
struct GameResult {
    /// The result as records write it (`1-0`, `3/5-2/5`, ...).
    result: RecordResult,
    /// White's score: 1, 1/2, 0, or Savard's stalemate's 3/5 and 2/5.
    white: Points,
    reason: String,
    /// The record's `Termination` value.
    termination: &'static str,
    moves: Vec<Move>,
    /// What the mover's engine said of each move, as a record's comment.
    comments: Vec<Option<String>>,
    /// Set when the game was ended by adjudication.
    adjudicated: Option<Verdict>,
}

/// A game's result and White's score.
#[derive(Clone, Copy)]
struct Ending {
    result: RecordResult,
    white: Points,
}

impl Ending {
    /// The result the rules give the game.
    fn of_outcome(o: Outcome) -> Ending {
        Ending { result: RecordResult::of_outcome(o), white: o.points(Color::White) }
    }

    /// A win for `side` outside the rules: adjudication, time, an illegal move.
    fn win_for(side: Color) -> Ending {
        let white = if side == Color::White { Points::ONE } else { Points::ZERO };
        Ending { result: RecordResult::win_for(side), white }
    }

    /// A draw outside the rules: adjudication, the ply limit.
    const DRAW: Ending = Ending { result: RecordResult::Draw, white: Points::HALF };
}

fn play_game<S: Width>(
    start: Position<S>,
    white: &mut Player,
    black: &mut Player,
    rng: &mut Rng,
    max_plies: u32,
    rules: Rules,
) -> GameResult {
    let mut game = Game::new(start);
    white.new_game();
    black.new_game();
    let mut judge = Judge::new(rules);
    let mut verdict = None;
    let mut clocks = Clocks::new(white.time_control(), black.time_control());
    let mut comments: Vec<Option<String>> = Vec::new();
    loop {
        let end =
            |ending: Ending, reason: &str, termination: &'static str, game: &Game<S>, comments: &[Option<String>]| {
                GameResult {
                    result: ending.result,
                    white: ending.white,
                    reason: reason.to_string(),
                    termination,
                    moves: game.moves().to_vec(),
                    comments: comments.to_vec(),
                    adjudicated: None,
                }
            };
        if let Some(outcome) = game.outcome() {
            let reason = match outcome {
                Outcome::Checkmate { .. } => "checkmate",
                Outcome::Stalemate { .. } | Outcome::Draw(DrawReason::Stalemate) => "stalemate",
                Outcome::Draw(DrawReason::FiftyMoves) => "50-move rule",
                Outcome::Draw(DrawReason::Repetition) => "repetition",
                Outcome::Draw(DrawReason::BareKings) => "bare kings",
            };
            return end(Ending::of_outcome(outcome), reason, termination_of(outcome), &game, &comments);
        }
        // The rules first: a move that mates ends the game by mate, whatever the scores said.
        if let Some(v) = verdict {
            let ending = match v {
                Verdict::Resigns(side) => Ending::win_for(side.opponent()),
                Verdict::Draw => Ending::DRAW,
            };
            return GameResult {
                adjudicated: Some(v),
                ..end(ending, &v.to_string(), "adjudication", &game, &comments)
            };
        }
        if game.moves().len() >= max_plies as usize {
            return end(Ending::DRAW, "max plies (adjudicated draw)", "adjudication", &game, &comments);
        }
        let side = game.position().side_to_move();
        let player = if side == Color::White { &mut *white } else { &mut *black };
        let loses = Ending::win_for(side.opponent());
        let started = Instant::now();
        let choice = player.choose(&game, rng, &clocks);
        if !clocks.charge(side, started.elapsed()) {
            return end(loses, &format!("{side} lost on time"), "time", &game, &comments);
        }
        match choice {
            Err(why) => return end(loses, &format!("{side}: {why}"), "illegal-move", &game, &comments),
            Ok((m, _)) if !game.position().is_legal(m) => {
                let text = format_move(game.position().variant(), m);
                return end(loses, &format!("{side} played an illegal move {text}"), "illegal-move", &game, &comments);
            }
            Ok((m, said)) => {
                let cp = said.map(|s| adjudication::centipawns(s.score));
                verdict = judge.record(side, cp, game.moves().len() as u32);
                comments.push(said.map(|s| records::eval_comment(s.score, side, s.depth.unwrap_or(0))));
                game.play(m).expect("a legal move plays");
            }
        }
    }
}

/// A finished match game as a record: players, result, termination, the
/// opening (as `FEN` unless it is the start) and each engine's evaluation of
/// its own moves as comments.
fn match_record<S: Width>(v: &'static Variant<S>, a: &MatchArgs, p: &Played<S>, date: &str) -> Record {
    let mut game = Game::new(p.start);
    for &m in &p.result.moves {
        if game.play(m).is_err() {
            break;
        }
    }
    let mut r = Record::from_game(&game);
    let second = p.number.is_multiple_of(2);
    let (white, black) = if second { (a.name_b(), a.name_a()) } else { (a.name_a(), a.name_b()) };
    r.set_tag("Event", &format!("raum match ({})", v.id()));
    r.set_tag("Site", "raum match");
    r.set_tag("Date", date);
    r.set_tag("Round", &p.number.to_string());
    r.set_tag("White", white);
    r.set_tag("Black", black);
    r.set_result(p.result.result.scores());
    r.set_tag("Termination", p.result.termination);
    if !matches!(p.result.termination, "checkmate" | "stalemate" | "fifty-move" | "repetition" | "bare-kings") {
        r.set_tag("TerminationDetails", &p.result.reason);
    }
    for (m, c) in r.moves.iter_mut().zip(&p.result.comments) {
        m.comment.clone_from(c);
    }
    r
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

/// The depth of the search that judges a random opening's balance.
const BALANCE_DEPTH: u32 = 4;
/// Random openings tried for a pair before the most balanced of them is taken.
const BALANCE_TRIES: usize = 200;

/// The opening of pair `pair`: a line of the openings file, or `k` random
/// plies from the start that leave the game going (seeded by `seed` and the
/// pair). With `balance > 0`, random openings are drawn until a depth-4
/// search of Raum's engine scores one within `balance` centipawns of equality
/// (after 200 tries, the most balanced of them): random moves often leave a
/// piece hanging, and a pair of games on such an opening mostly measures the
/// opening, not the players.
fn opening<S: Width>(
    v: &'static Variant<S>,
    book: &[Position<S>],
    k: u32,
    balance: u32,
    seed: u64,
    pair: u64,
) -> Position<S> {
    if !book.is_empty() {
        return book[(pair % book.len() as u64) as usize];
    }
    let mut rng = Rng::new(seed ^ pair.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x0FE1);
    if balance == 0 {
        return random_opening(v, k, &mut rng).unwrap_or_else(|| Position::start(v));
    }
    let mut judge = Engine::new(1, 1);
    let limits = Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() };
    let mut best: Option<(u32, Position<S>)> = None;
    for _ in 0..BALANCE_TRIES {
        let Some(pos) = random_opening(v, k, &mut rng) else { continue };
        judge.new_game();
        let r = judge.search(&Game::new(pos), &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
        let off = match r.info.score {
            Score::Cp(cp) => cp.unsigned_abs(),
            Score::Mate(_) => u32::MAX,
        };
        if off <= balance {
            return pos;
        }
        if best.is_none_or(|(b, _)| off < b) {
            best = Some((off, pos));
        }
    }
    best.map_or_else(|| Position::start(v), |(_, p)| p)
}

/// `k` random plies from the start that leave the game going (up to 1,000 tries).
fn random_opening<S: Width>(v: &'static Variant<S>, k: u32, rng: &mut Rng) -> Option<Position<S>> {
    for _ in 0..1000 {
        let mut game = Game::new(Position::start(v));
        let mut ok = true;
        for _ in 0..k {
            let list: Vec<Move> = game.position().legal_moves().iter().copied().collect();
            if list.is_empty() {
                ok = false;
                break;
            }
            game.play(list[rng.below(list.len())]).expect("legal");
        }
        if ok && game.outcome().is_none() {
            return Some(*game.position());
        }
    }
    None
}

fn read_book<S: Width>(v: &'static Variant<S>, path: &std::path::Path) -> Result<Vec<Position<S>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading --openings {}", path.display()))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = parse_position(v, line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if pos.outcome().is_some() {
            bail!("{} line {}: the game is already over in this position", path.display(), i + 1);
        }
        book.push(pos);
    }
    if book.is_empty() {
        bail!("--openings {}: no positions in the file", path.display());
    }
    Ok(book)
}

/// The match's tally from A's point of view.
struct Tally {
    /// A's games by A's score.
    scores: stats::GameScores,
    /// Pairs by A's total over the two games.
    pairs: stats::PairScores,
    /// Games ended by resign and by draw adjudication.
    resigned: u64,
    adjudicated_draws: u64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally { scores: [0; stats::ONE + 1], pairs: [0; 2 * stats::ONE + 1], resigned: 0, adjudicated_draws: 0 }
    }
}

impl Tally {
    /// Adds the games of one pair (A's score in each); a lone last game
    /// counts for the score and W/D/L but not for the pair statistics.
    fn add_pair(&mut self, a_points: &[Points]) {
        for p in a_points {
            self.scores[usize::from(p.0)] += 1;
        }
        if let [x, y] = a_points {
            self.pairs[usize::from(x.0) + usize::from(y.0)] += 1;
        }
    }

    fn games(&self) -> u64 {
        self.scores.iter().sum()
    }

    /// Games A scored more in than B: by mate, stalemate, adjudication, time or forfeit.
    fn wins(&self) -> u64 {
        self.scores[stats::ONE / 2 + 1..].iter().sum()
    }

    fn draws(&self) -> u64 {
        self.scores[stats::ONE / 2]
    }

    fn losses(&self) -> u64 {
        self.scores[..stats::ONE / 2].iter().sum()
    }

    /// Wins and losses by Savard's stalemate (3/5 and 2/5).
    fn stalemates(&self) -> (u64, u64) {
        (self.scores[usize::from(Points::THREE_FIFTHS.0)], self.scores[usize::from(Points::TWO_FIFTHS.0)])
    }
}

/// ` (2 by stalemate)` after a count of wins or losses, where there were any.
fn by_stalemate(n: u64) -> String {
    if n == 0 { String::new() } else { format!(" ({n} by stalemate)") }
}

/// One finished game, as a worker reports it.
struct Played<S: Width> {
    number: u64,
    start: Position<S>,
    /// A's score.
    a_points: Points,
    result: GameResult,
}

/// Plays the games of pair `pair` (one or two games): A is White in the first
/// game of a pair, Black in the second.
fn play_pair<S: Width>(ctx: &MatchContext<S>, players: &mut (Player, Player), pair: u64) -> Vec<Played<S>> {
    let a = ctx.args;
    let start = opening(ctx.variant, &ctx.book, a.random_plies, a.balance, a.seed, pair);
    let mut out = Vec::new();
    for g in [2 * pair, 2 * pair + 1] {
        if g >= u64::from(a.games) {
            break;
        }
        let second = g % 2 == 1;
        let mut rng = Rng::new(a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ g);
        let (pa, pb) = (&mut players.0, &mut players.1);
        let (white, black) = if second { (pb, pa) } else { (pa, pb) };
        let result = play_game(start, white, black, &mut rng, a.max_plies, ctx.rules);
        let a_points = if second { Points(Points::ONE.0 - result.white.0) } else { result.white };
        out.push(Played { number: g + 1, start, a_points, result });
    }
    out
}

/// What every worker of a match shares.
struct MatchContext<'a, S: Width> {
    args: &'a MatchArgs,
    variant: &'static Variant<S>,
    book: Vec<Position<S>>,
    specs: (Spec, Spec),
    rules: Rules,
}

pub fn run_match(a: &MatchArgs) -> Result<()> {
    if let Some(id) = crate::args::multi_id(&a.variant) {
        return crate::multi_match::run(id, a);
    }
    if a.players.is_some() {
        bail!("--players is for the multi-player games; a two-player match takes --a and --b");
    }
    if a.a.is_none() || a.b.is_none() {
        bail!("a match needs two players: --a and --b");
    }
    variant_id(&a.variant)?.dispatch(Match(a))
}

/// `raum match`'s body at the variant's width: both players play that variant.
struct Match<'a>(&'a MatchArgs);

impl VariantFn for Match<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        run_match_at(v, self.0)
    }
}

fn run_match_at<S: Width>(v: &'static Variant<S>, a: &MatchArgs) -> Result<()> {
    let spec_a = parse_spec(a.name_a(), v.id()).context("in --a")?;
    let spec_b = parse_spec(a.name_b(), v.id()).context("in --b")?;
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
        Some(path) => read_book(v, path)?,
        None => Vec::new(),
    };
    let mut pgn = match &a.pgn {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating --pgn {}", path.display()))?,
        )),
        None => None,
    };
    let date = records::today();
    let mut record = match &a.record {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating --record {}", path.display()))?,
        )),
        None => None,
    };
    let rules = adjudication_rules(a)?;
    let ctx = MatchContext { args: a, variant: v, book, specs: (spec_a, spec_b), rules };
    let pairs = u64::from(a.games).div_ceil(2);
    let workers = (a.concurrency as u64).min(pairs) as usize;
    // Every worker has its own players (and engines); start them all before the first game.
    let mut seats = Vec::new();
    for _ in 0..workers {
        seats.push((
            Player::new(&ctx.specs.0, v).context("starting player A (in --a)")?,
            Player::new(&ctx.specs.1, v).context("starting player B (in --b)")?,
        ));
    }
    let mut written = 0u64;
    let next_pair = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let bounds = stats::sprt_bounds(a.alpha, a.beta);
    let mut tally = Tally::default();
    let mut stopped_at_verdict = false;
    let live = std::io::stderr().is_terminal();
    let report_every = (u64::from(a.games) / 10).max(2);
    let mut next_report = report_every;
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = std::sync::mpsc::channel::<Vec<Played<S>>>();
        for mut players in seats {
            let tx = tx.clone();
            let (ctx, next_pair, halt) = (&ctx, &next_pair, &halt);
            scope.spawn(move || {
                while !halt.load(Ordering::Relaxed) {
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs || tx.send(play_pair(ctx, &mut players, pair)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for games in rx {
            let points: Vec<Points> = games.iter().map(|p| p.a_points).collect();
            tally.add_pair(&points);
            for p in &games {
                match p.result.adjudicated {
                    Some(Verdict::Draw) => tally.adjudicated_draws += 1,
                    Some(Verdict::Resigns(_)) => tally.resigned += 1,
                    None => {}
                }
            }
            if let Some(out) = record.as_mut() {
                for p in &games {
                    let second = p.number % 2 == 0;
                    let (white_name, black_name) =
                        if second { (a.name_b(), a.name_a()) } else { (a.name_a(), a.name_b()) };
                    let moves: Vec<String> = p.result.moves.iter().map(|&m| format_move(v, m)).collect();
                    writeln!(
                        out,
                        "{}\t{white_name}\t{black_name}\t{}\t{}\t{}\t{}",
                        p.number,
                        p.result.result,
                        p.result.reason,
                        format_position(&p.start),
                        moves.join(" ")
                    )?;
                }
                out.flush()?;
            }
            if let Some(out) = pgn.as_mut() {
                for p in &games {
                    // Each game is written whole, a blank line before every game but the first.
                    let sep = if written == 0 { "" } else { "\n" };
                    write!(out, "{sep}{}", match_record(v, a, p, &date))?;
                    written += 1;
                }
                out.flush()?;
            }
            let (elo, margin) = stats::elo_with_margin(&tally.scores);
            let line = format!(
                "Games {}/{}  W {} D {} L {}  Elo {:+.1} ± {:.1}",
                tally.games(),
                a.games,
                tally.wins(),
                tally.draws(),
                tally.losses(),
                elo,
                margin
            );
            // A terminal gets one line, redrawn; a log file a line every tenth of the match.
            if live {
                eprint!("\r{line}   ");
            } else if tally.games() >= next_report || tally.games() == u64::from(a.games) {
                eprintln!("{line}");
                next_report = tally.games() + report_every;
            }
            if a.sprt_stop && !halt.load(Ordering::Relaxed) {
                let llr = stats::pair_llr(&tally.pairs, a.sprt_elo0, a.sprt_elo1);
                if llr <= bounds.0 || llr >= bounds.1 {
                    // Games already under way are finished and counted.
                    halt.store(true, Ordering::Relaxed);
                    stopped_at_verdict = true;
                }
            }
        }
        Ok(())
    })?;
    if live {
        eprintln!();
    }
    let n = tally.games();
    let score = stats::mean_score(&tally.scores);
    let (elo, margin) = stats::elo_with_margin(&tally.scores);
    let (stalemate_wins, stalemate_losses) = tally.stalemates();
    println!("A: {}  B: {}  ({})", a.name_a(), a.name_b(), v.spec().title);
    println!(
        "Games: {n}  W: {}{}  D: {}  L: {}{}  (score {:.1}%)",
        tally.wins(),
        by_stalemate(stalemate_wins),
        tally.draws(),
        tally.losses(),
        by_stalemate(stalemate_losses),
        score * 100.0
    );
    println!("Elo: {elo:+.1} ± {margin:.1} (95%)");
    // The five pentanomial totals always, and any other total a pair made.
    let pairs: Vec<String> = (tally.pairs.iter().enumerate())
        .filter(|&(k, &c)| c > 0 || stats::is_pentanomial(k))
        .map(|(k, c)| format!("{}: {c}", stats::points_text(k)))
        .collect();
    println!("Pairs: {}", pairs.join("  "));
    let llr = stats::pair_llr(&tally.pairs, a.sprt_elo0, a.sprt_elo1);
    println!(
        "SPRT: LLR={llr:.2} (bounds {:.2}, {:.2}): {}  [H0: elo={}, H1: elo={}]",
        bounds.0,
        bounds.1,
        stats::sprt_verdict(llr, bounds),
        a.sprt_elo0,
        a.sprt_elo1
    );
    if ctx.rules != Rules::default() {
        println!("Adjudicated: {} by resignation, {} drawn", tally.resigned, tally.adjudicated_draws);
    }
    if stopped_at_verdict {
        println!("Stopped at the SPRT verdict after {n} of {} games.", a.games);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let v = VariantId::FiveUp;
        let engine = |text: &str| match parse_spec(text, v).unwrap() {
            Spec::Engine { limits, features, eval, .. } => (limits, features, eval),
            other => panic!("{other:?}"),
        };
        assert_eq!(parse_spec("random", v).unwrap(), Spec::Random);
        assert_eq!(parse_spec("greedy", v).unwrap(), Spec::Greedy);
        let Spec::Engine { choice, .. } = parse_spec("engine:depth=1,lines=40,spread=300", v).unwrap() else {
            panic!()
        };
        assert_eq!(choice, Some((40, 300, false)));
        let Spec::Engine { choice, .. } = parse_spec("engine:depth=1,grab=1", v).unwrap() else { panic!() };
        assert_eq!(choice, Some((1, 0, true)));
        // An Elo on the variant's scale is the strength interpolated between its levels.
        let (scale, _) = raum_engine::level_elos(v);
        let mid = (scale[0] + scale[1]) / 2.0;
        let Spec::Engine { level, .. } = parse_spec(&format!("engine:elo={mid}"), v).unwrap() else { panic!() };
        assert_eq!(level, Some(1.5));
        for bad in [
            "engine:depth=1,lines=0",
            "engine:depth=1,spread=-5",
            "engine:level=2,spread=50",
            "engine:level=2,grab=1",
            "engine:depth=1,grab=yes",
            "engine:lines=4",
            "engine:elo=-100",
            "engine:elo=99999",
            "engine:level=2,elo=500",
            "engine:level=2,level=3",
        ] {
            assert!(parse_spec(bad, v).is_err(), "{bad}");
        }
        assert_eq!(engine("engine:nodes=2000").0.nodes, Some(2000));
        assert_eq!(engine("engine:movetime=100").0.movetime, Some(Duration::from_millis(100)));
        assert_eq!(engine("engine:depth=3").0.depth, Some(3));
        let (l, f, e) = engine("engine:nodes=500, off=lmr,off=null-move");
        assert_eq!(l.nodes, Some(500));
        assert_eq!(f.off(), vec![Feature::NullMove, Feature::Lmr]);
        assert!(e.is_none());
        // Features start from the variant's defaults; on= adds one back.
        let rs = VariantId::Raumschach;
        let Spec::Engine { features, .. } = parse_spec("engine:nodes=9", rs).unwrap() else { panic!() };
        assert_eq!(features, Features::for_variant(rs));
        let Spec::Engine { features, .. } = parse_spec("engine:nodes=9,on=null-move,off=lmp", rs).unwrap() else {
            panic!()
        };
        assert!(features.has(Feature::NullMove) && !features.has(Feature::LateMovePruning));
        // Search parameters by name.
        let Spec::Engine { params, .. } = parse_spec("engine:nodes=9,rfp-margin=120,null-div=4", rs).unwrap() else {
            panic!()
        };
        assert_eq!((params.rfp_margin, params.null_div), (120, 4));
        let e = parse_spec("engine:nodes=9,null-div=0", rs).unwrap_err();
        assert!(format!("{e:#}").contains("at least 1"), "{e:#}");
        let Spec::Uci { limits, options, command, .. } =
            parse_spec("uci:movetime=50,Hash=32, Threads=2:./engine --uci", v).unwrap()
        else {
            panic!()
        };
        assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(options, vec![("Hash".to_string(), "32".to_string()), ("Threads".to_string(), "2".to_string())]);
        assert_eq!(command, vec!["./engine", "--uci"]);
        for bad in [
            "stockfish",
            "engine",
            "engine:nodes",
            "engine:nodes=x",
            "engine:nodes=0",
            "engine:speed=3",
            "engine:nodes=10,off=magic",
            "engine:nodes=10,rfp-margin=-5",
            "engine:nodes=10,lmp-base=many",
            "engine:off=lmr",
            "engine:nodes=10,eval=/nonexistent/params.txt",
            "uci:",
            "uci:nodes=10",
            "uci:nodes=10:",
            "uci:Hash=1:./engine",
            "uci:depth=99:./engine",
        ] {
            assert!(parse_spec(bad, v).is_err(), "{bad}");
        }
    }

    #[test]
    fn evaluation_files_are_read() {
        let v = VariantId::FiveUp;
        let path = std::env::temp_dir().join(format!("raum-eval-spec-{}.txt", std::process::id()));
        std::fs::write(&path, "# tuned\nvalue_W = 650\n").unwrap();
        let Spec::Engine { eval: Some(p), .. } =
            parse_spec(&format!("engine:nodes=9,eval={}", path.display()), v).unwrap()
        else {
            panic!()
        };
        assert!(p.piece_values.contains(&('W', 650)));
        std::fs::write(&path, "value_W = lots\n").unwrap();
        let e = parse_spec(&format!("engine:nodes=9,eval={}", path.display()), v).unwrap_err();
        assert!(format!("{e:#}").contains("line 1"), "{e:#}");
        std::fs::remove_file(&path).unwrap();
    }

    /// Random openings of one variant: balanced by the judge's search, the
    /// same for the same seed and pair, and different from pair to pair.
    struct Openings;
    impl VariantFn for Openings {
        type Output = ();
        fn call<S: Width>(self, v: &'static Variant<S>) {
            let id = v.id();
            let mut seen = Vec::new();
            for pair in 0..6 {
                let p = opening(v, &[], 4, 60, 7, pair);
                assert_eq!(p, opening(v, &[], 4, 60, 7, pair), "same seed and pair, same opening");
                assert_eq!(p.fullmove_number(), 3, "four plies from the start");
                let r = Engine::new(1, 1).search(
                    &Game::new(p),
                    &Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() },
                    Arc::new(AtomicBool::new(false)),
                    &mut |_| {},
                );
                let Score::Cp(cp) = r.info.score else { panic!("mate score in a balanced opening") };
                assert!(cp.abs() <= 60, "{id:?} pair {pair}: {cp}");
                seen.push(p);
            }
            seen.dedup();
            assert!(seen.len() >= 5, "openings repeat: {}", seen.len());
            // Without balancing: the first random opening that leaves the game going.
            let mut rng = Rng::new(7 ^ 0x0FE1);
            assert_eq!(opening(v, &[], 4, 0, 7, 0), random_opening(v, 4, &mut rng).unwrap());
        }
    }

    #[test]
    fn random_openings_are_balanced_and_repeatable() {
        for id in VariantId::ALL {
            id.dispatch(Openings);
        }
    }

    /// Wing Table: White (king and rook) takes Black's queen, which stalemates Black.
    const STALEMATING: &str = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";

    /// The engine playing both sides of [`STALEMATING`].
    struct Stalemating;
    impl VariantFn for Stalemating {
        type Output = GameResult;
        fn call<S: Width>(self, v: &'static Variant<S>) -> GameResult {
            let start = parse_position(v, STALEMATING).unwrap();
            let spec = parse_spec("engine:depth=2", v.id()).unwrap();
            let (mut white, mut black) = (Player::new(&spec, v).unwrap(), Player::new(&spec, v).unwrap());
            play_game(start, &mut white, &mut black, &mut Rng::new(1), 400, Rules::default())
        }
    }

    #[test]
    fn a_savard_stalemate_counts_three_fifths() {
        let r = VariantId::WingTable.dispatch(Stalemating);
        assert_eq!(r.moves.len(), 1);
        assert_eq!((r.result, r.white), (RecordResult::WhiteStalemates, Points::THREE_FIFTHS));
        assert_eq!((r.reason.as_str(), r.termination, r.adjudicated), ("stalemate", "stalemate", None));
        // A pair of such games, A White in the first: a win and a loss by stalemate, 0.6 + 0.4.
        let mut tally = Tally::default();
        tally.add_pair(&[r.white, Points(Points::ONE.0 - r.white.0)]);
        assert_eq!((tally.wins(), tally.draws(), tally.losses(), tally.stalemates()), (1, 0, 1, (1, 1)));
        assert_eq!((tally.scores[36], tally.scores[24], tally.pairs[60]), (1, 1, 1));
        assert_eq!(stats::mean_score(&tally.scores), 0.5);
        // A stalemate win and a mate: a pair total of 1.6.
        tally.add_pair(&[Points::THREE_FIFTHS, Points::ONE]);
        assert_eq!((tally.wins(), tally.stalemates(), tally.pairs[96], tally.games()), (3, (2, 1), 1, 4));
        assert!((stats::mean_score(&tally.scores) - 2.6 / 4.0).abs() < 1e-12);
        // A lone last game counts in the score, not in the pairs.
        tally.add_pair(&[Points::TWO_FIFTHS]);
        assert_eq!((tally.losses(), tally.stalemates(), tally.pairs.iter().sum::<u64>()), (2, (2, 2), 2));
    }

    #[test]
    fn greedy_mates_when_it_can() {
        // Random games until one reaches a position with a mate in one; the greedy
        // player must play a mate there, even where a capture is on offer.
        let v = Variant::get(VariantId::FiveUp);
        let mut rng = Rng::new(7);
        for _ in 0..400 {
            let mut game = Game::new(Position::start(v));
            while game.outcome().is_none() && game.moves().len() < 400 {
                let pos = game.position();
                let list: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if list.iter().any(|&m| mates(pos, m)) {
                    let (m, _) = Player::Greedy.choose(&game, &mut rng, &Clocks::new(None, None)).unwrap();
                    assert!(mates(pos, m), "{}", format_move(v, m));
                    return;
                }
                game.play(list[rng.below(list.len())]).unwrap();
            }
        }
        panic!("no random game reached a mate in one");
    }

    #[test]
    fn greedy_takes_the_queen() {
        let v = Variant::get(VariantId::FiveUp);
        // White: Ab1 king, Ea1 rook; Black: Ae5 king, Ea5 pawn, Ee1 queen.
        let pos = parse_position(v, "4k|5|5|5|1K3/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/p4|5|5|5|R3q w - -").unwrap();
        let game = Game::new(pos);
        let mut rng = Rng::new(1);
        let (m, score) = Player::Greedy.choose(&game, &mut rng, &Clocks::new(None, None)).unwrap();
        assert_eq!(score, None, "the greedy player reports no score");
        assert_eq!(captured_value(game.position(), m), Some(9), "{}", format_move(v, m));
    }
}
