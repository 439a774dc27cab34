//! `raum match`: games between two players, refereed by the rules core, with
//! Elo, pentanomial and SPRT statistics — how strength changes are accepted.
//!
//! Players are given as specs:
//! - `engine:nodes=N`, `engine:movetime=MS`, `engine:depth=D`: Raum's engine on
//!   one thread with its own 16 MB table (cleared before each game);
//! - `random`: a uniformly random legal move (seeded);
//! - `greedy`: a one-ply capturer: it takes the most valuable piece it can
//!   (P 1, N 3, B 3, U 3, R 5, G 6, W 7, Q 9, by letter; anything else 0),
//!   breaking ties and choosing among non-captures at random (seeded).
//!
//! Games are played in pairs on the same opening with the colours swapped.
//! Openings are position strings from `--openings FILE` (one a line; blank lines
//! and lines starting with `#` are skipped; used in turn, cycling) or
//! `--random-plies K` seeded random moves from the start.

use crate::args::{MatchArgs, variant};
use crate::stats;
use anyhow::{Context, Result, bail};
use raum_engine::{Engine, Limits};
use raum_notation::{format_move, format_position, parse_position};
use raum_rules::{Cells, Color, DrawReason, Game, Move, MoveKind, Outcome, Position, Variant};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A small seeded generator (SplitMix64): reproducible matches without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    Engine(Limits),
    Random,
    Greedy,
}

/// Parses a player spec: `engine:nodes=N`, `engine:movetime=MS`, `engine:depth=D`,
/// `random`, `greedy`.
pub fn parse_spec(text: &str) -> Result<Spec> {
    const KNOWN: &str = "engine:nodes=N, engine:movetime=MS, engine:depth=D, random, greedy";
    match text.trim() {
        "random" => return Ok(Spec::Random),
        "greedy" => return Ok(Spec::Greedy),
        _ => {}
    }
    let text = text.trim();
    let rest = if text == "engine" { Some("") } else { text.strip_prefix("engine:") };
    let Some(rest) = rest else {
        bail!("unknown player '{text}' (players: {KNOWN}; external UCI engines are not supported yet)");
    };
    let Some((key, value)) = rest.split_once('=') else {
        bail!("player '{text}': give the engine's limit as engine:nodes=N, engine:movetime=MS or engine:depth=D");
    };
    let n: u64 = value
        .trim()
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .with_context(|| format!("player '{text}': '{value}' is not a positive whole number"))?;
    let mut limits = Limits::default();
    match key.trim() {
        "nodes" => limits.nodes = Some(n),
        "movetime" => limits.movetime = Some(Duration::from_millis(n)),
        "depth" => {
            limits.depth = Some(
                u32::try_from(n)
                    .ok()
                    .filter(|&d| d <= 64)
                    .with_context(|| format!("player '{text}': depth must be at most 64"))?,
            )
        }
        other => bail!("player '{text}': unknown engine limit '{other}' (nodes, movetime or depth)"),
    }
    Ok(Spec::Engine(limits))
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
fn captured_value(pos: &Position<Cells>, m: Move) -> Option<u32> {
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

/// A player ready to move.
enum Player {
    Engine(Box<Engine>, Limits),
    Random,
    Greedy,
}

impl Player {
    fn new(spec: &Spec) -> Player {
        match spec {
            Spec::Engine(l) => Player::Engine(Box::new(Engine::new(16, 1)), l.clone()),
            Spec::Random => Player::Random,
            Spec::Greedy => Player::Greedy,
        }
    }

    fn new_game(&mut self) {
        if let Player::Engine(e, _) = self {
            e.new_game();
        }
    }

    /// The player's move, or `None` if it has none to give.
    fn choose(&mut self, game: &Game<Cells>, rng: &mut Rng) -> Option<Move> {
        let pos = game.position();
        match self {
            Player::Engine(e, limits) => e.search(game, limits, Arc::new(AtomicBool::new(false)), &mut |_| {}).best,
            Player::Random => {
                let moves = pos.legal_moves();
                let list: Vec<Move> = moves.iter().copied().collect();
                (!list.is_empty()).then(|| list[rng.below(list.len())])
            }
            Player::Greedy => {
                let list: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if list.is_empty() {
                    return None;
                }
                let best = list.iter().filter_map(|&m| captured_value(pos, m)).max();
                let pool: Vec<Move> = match best {
                    Some(b) => list.into_iter().filter(|&m| captured_value(pos, m) == Some(b)).collect(),
                    None => list,
                };
                Some(pool[rng.below(pool.len())])
            }
        }
    }
}

/// How one game ended, from White's point of view.
struct GameResult {
    /// White's score in half points: 2 win, 1 draw, 0 loss.
    white_half_points: u32,
    reason: String,
    moves: Vec<Move>,
}

fn result_text(white_half_points: u32) -> &'static str {
    match white_half_points {
        2 => "1-0",
        1 => "1/2-1/2",
        _ => "0-1",
    }
}

fn play_game(
    start: Position<Cells>,
    white: &mut Player,
    black: &mut Player,
    rng: &mut Rng,
    max_plies: u32,
) -> GameResult {
    let mut game = Game::new(start);
    white.new_game();
    black.new_game();
    let win_for = |c: Color| if c == Color::White { 2 } else { 0 };
    loop {
        let end = |half: u32, reason: &str, game: &Game<Cells>| GameResult {
            white_half_points: half,
            reason: reason.to_string(),
            moves: game.moves().to_vec(),
        };
        if let Some(outcome) = game.outcome() {
            return match outcome {
                Outcome::Checkmate { winner } => end(win_for(winner), "checkmate", &game),
                Outcome::Draw(r) => end(
                    1,
                    match r {
                        DrawReason::Stalemate => "stalemate",
                        DrawReason::FiftyMoves => "50-move rule",
                        DrawReason::Repetition => "repetition",
                        DrawReason::BareKings => "bare kings",
                    },
                    &game,
                ),
            };
        }
        if game.moves().len() >= max_plies as usize {
            return end(1, "max plies (adjudicated draw)", &game);
        }
        let side = game.position().side_to_move();
        let player = if side == Color::White { &mut *white } else { &mut *black };
        let loses = win_for(side.opponent());
        match player.choose(&game, rng) {
            None => return end(loses, &format!("{side} gave no move"), &game),
            Some(m) if !game.position().is_legal(m) => {
                let text = format_move(game.position().variant(), m);
                return end(loses, &format!("{side} played an illegal move {text}"), &game);
            }
            Some(m) => game.play(m).expect("a legal move plays"),
        }
    }
}

/// The opening of pair `pair`: `k` random plies from the start that leave the
/// game going (seeded by `seed` and the pair), or a line of the openings file.
fn opening(v: &'static Variant<Cells>, book: &[Position<Cells>], k: u32, seed: u64, pair: u64) -> Position<Cells> {
    if !book.is_empty() {
        return book[(pair % book.len() as u64) as usize];
    }
    let mut rng = Rng::new(seed ^ pair.wrapping_mul(0xA24B_AED4_963E_E407) ^ 0x0FE1);
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
            return *game.position();
        }
    }
    Position::start(v)
}

fn read_book(v: &'static Variant<Cells>, path: &std::path::Path) -> Result<Vec<Position<Cells>>> {
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
#[derive(Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    pairs: [u64; 5],
    pair_half_points: u32,
}

impl Tally {
    fn add(&mut self, a_half_points: u32, second_of_pair: bool) {
        match a_half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
        if second_of_pair {
            self.pairs[stats::pair_index(self.pair_half_points + a_half_points)] += 1;
            self.pair_half_points = 0;
        } else {
            self.pair_half_points = a_half_points;
        }
    }

    fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

pub fn run_match(a: &MatchArgs) -> Result<()> {
    let v = variant(&a.variant)?;
    let spec_a = parse_spec(&a.a).context("in --a")?;
    let spec_b = parse_spec(&a.b).context("in --b")?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if !(a.alpha > 0.0 && a.alpha < 1.0 && a.beta > 0.0 && a.beta < 1.0) {
        bail!("--alpha and --beta must lie strictly between 0 and 1");
    }
    let book = match &a.openings {
        Some(path) => read_book(v, path)?,
        None => Vec::new(),
    };
    let mut record = match &a.record {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating --record {}", path.display()))?,
        )),
        None => None,
    };
    let mut player_a = Player::new(&spec_a);
    let mut player_b = Player::new(&spec_b);
    let mut tally = Tally::default();
    let mut start = Position::start(v);
    for g in 0..u64::from(a.games) {
        let pair = g / 2;
        let second = g % 2 == 1;
        if !second {
            start = opening(v, &book, a.random_plies, a.seed, pair);
        }
        // A is White in the first game of a pair, Black in the second.
        let mut rng = Rng::new(a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ g);
        let (white, black, white_name, black_name) = if second {
            (&mut player_b, &mut player_a, &a.b, &a.a)
        } else {
            (&mut player_a, &mut player_b, &a.a, &a.b)
        };
        let r = play_game(start, white, black, &mut rng, a.max_plies);
        let a_half = if second { 2 - r.white_half_points } else { r.white_half_points };
        tally.add(a_half, second);
        if let Some(out) = record.as_mut() {
            let moves: Vec<String> = r.moves.iter().map(|&m| format_move(v, m)).collect();
            writeln!(
                out,
                "{}\t{white_name}\t{black_name}\t{}\t{}\t{}\t{}",
                g + 1,
                result_text(r.white_half_points),
                r.reason,
                format_position(&start),
                moves.join(" ")
            )?;
            out.flush()?;
        }
        let (elo, margin) = stats::elo_with_margin(tally.wins, tally.draws, tally.losses);
        eprint!(
            "\rGames {}/{}  W {} D {} L {}  Elo {:+.1} ± {:.1}   ",
            tally.games(),
            a.games,
            tally.wins,
            tally.draws,
            tally.losses,
            elo,
            margin
        );
    }
    eprintln!();
    let n = tally.games();
    let score = (tally.wins as f64 + 0.5 * tally.draws as f64) / n as f64;
    let (elo, margin) = stats::elo_with_margin(tally.wins, tally.draws, tally.losses);
    println!("A: {}  B: {}  ({})", a.a, a.b, v.spec().title);
    println!("Games: {n}  W: {}  D: {}  L: {}  (score {:.1}%)", tally.wins, tally.draws, tally.losses, score * 100.0);
    println!("Elo: {elo:+.1} ± {margin:.1} (95%)");
    let p = tally.pairs;
    println!("Pairs: 0: {}  0.5: {}  1: {}  1.5: {}  2: {}", p[0], p[1], p[2], p[3], p[4]);
    let llr = stats::pentanomial_llr(p, a.sprt_elo0, a.sprt_elo1);
    let bounds = stats::sprt_bounds(a.alpha, a.beta);
    println!(
        "SPRT: LLR={llr:.2} (bounds {:.2}, {:.2}): {}  [H0: elo={}, H1: elo={}]",
        bounds.0,
        bounds.1,
        stats::sprt_verdict(llr, bounds),
        a.sprt_elo0,
        a.sprt_elo1
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(parse_spec("random").unwrap(), Spec::Random);
        assert_eq!(parse_spec("greedy").unwrap(), Spec::Greedy);
        let Spec::Engine(l) = parse_spec("engine:nodes=2000").unwrap() else { panic!() };
        assert_eq!(l.nodes, Some(2000));
        let Spec::Engine(l) = parse_spec("engine:movetime=100").unwrap() else { panic!() };
        assert_eq!(l.movetime, Some(Duration::from_millis(100)));
        let Spec::Engine(l) = parse_spec("engine:depth=3").unwrap() else { panic!() };
        assert_eq!(l.depth, Some(3));
        for bad in ["stockfish", "engine", "engine:nodes", "engine:nodes=x", "engine:nodes=0", "engine:speed=3"] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn greedy_takes_the_queen() {
        let v = Variant::get(raum_rules::VariantId::FiveUp);
        // White: Ab1 king, Ea1 rook; Black: Ae5 king, Ea5 pawn, Ee1 queen.
        let pos = parse_position(v, "4k|5|5|5|1K3/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/p4|5|5|5|R3q w - -").unwrap();
        let game = Game::new(pos);
        let mut rng = Rng::new(1);
        let m = Player::Greedy.choose(&game, &mut rng).unwrap();
        assert_eq!(captured_value(game.position(), m), Some(9), "{}", format_move(v, m));
    }
}
