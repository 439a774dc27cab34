//! Command-line arguments, and turning `--variant/--fen/--moves` into a position.

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use raum_notation::{parse_game, parse_game_move, parse_move, parse_position};
use raum_rules::{AnyGame, Game, GameId, GameRules, Position, Variant, VariantFn, VariantId, Width};

/// Raum: exact rules, fast move generation and a computer opponent for 3D chess.
///
/// Playable variants: five-up, five-up-cylinder, five-up-torus, five-up-unicorn,
/// raumschach, octahedral, pyramid, betza-upright, betza-mixed, betza-flat,
/// betza-very3d, book-3d, and Savard's boards for two (reconstructions):
/// wing-table, wing-table-alt, forced-3d, triquetral; and for three, four or six
/// players wing-table-4p, triquetral-3p, triquetral-6p (perft, divide, moves, fen,
/// show, play, match and bench take them as --variant, pgn reads their records, and
/// uci and serve play them; analyse and tune do not; men are written `wK`, `bP`); and
/// games written as variant files (docs/variants.md): `raum check game.toml`, then
/// `--variant game.toml`.
/// Cells are named as in each
/// seed (`Cc3`, `Ve5`, `4e4`, `E2α`, `2c10`); moves are written `Ec2-Ec4`, `Bb4-Ab5=Q`,
/// castling `Ec1-Ea1` (Five Up) or as the king's move (`Vg1-Vi1`), from a cell
/// holding a piece and its riding unicorn `U:Eb1-Dd2`, `W:Eb1-Cd3`, `W+U:Eb1-Cc2`,
/// or as in the seed games: `P-Cc2`, `BxCe4`, `P(Dd2)-Dd3`, `Cc2`, `N4g8-4f6`.
#[derive(Parser, Debug)]
#[command(name = "raum", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count leaf nodes of the legal move tree (last line of stdout: the count).
    Perft(PerftArgs),
    /// Perft split by root move: `<move> <count>` lines, then the total.
    Divide(PerftArgs),
    /// Read a variant file (docs/variants.md): every error with its line, column and key,
    /// or a summary (the board, each piece's reach, warnings, perft from the start).
    Check(CheckArgs),
    /// List the legal moves, one coordinate move per line, sorted.
    Moves(PositionArgs),
    /// Print the position string after the moves.
    Fen(PositionArgs),
    /// Draw the position in the seed documents' diagram style.
    Show(ShowArgs),
    /// Play at the terminal: two people, or you against the engine (--engine).
    Play(PlayArgs),
    /// Search a fixed set of positions to a fixed depth on one thread; the last
    /// line, `Bench: <nodes> nodes <nps> nps`, gives the node count that
    /// identifies the search.
    Bench(BenchArgs),
    /// The engine's best lines in a position: score and win/draw/loss chances
    /// (White's), and the moves in descriptive notation.
    Analyse(AnalyseArgs),
    /// Speak the UCI-style engine protocol on stdin/stdout (`uci`, `isready`,
    /// `setoption name UCI_Variant value raumschach`, `position startpos moves
    /// Ec2-Ec4`, `go depth 6`, `stop`, `quit`).
    Uci,
    /// Play games between two players (engine:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC]|
    /// level=L|elo=E with optional ,lines=N,spread=CP or ,grab=1, ,off=FEATURE, ,on=FEATURE, ,PARAMETER=N (a search
    /// parameter such as rfp-margin) and ,eval=FILE; uci:LIMITS:COMMAND for an
    /// external engine; random; greedy) in colour-swapped pairs, and print the
    /// score, Elo, pentanomial pair counts and an SPRT verdict for player A.
    Match(MatchArgs),
    /// Read game records (PGN-style files, RULES.md), replay every game under the rules and
    /// print each game's final position string, one line a game. A record that does not
    /// replay is reported by file, game and move, and the command exits non-zero.
    Pgn(PgnArgs),
    /// Start the web app: a 3D board in the browser, against the engine or a
    /// friend (prints its URL and the file that keeps the games).
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
    /// Tune the evaluation (Texel's method) on `raum match --record` files:
    /// prints the error before and after and the tuned parameters.
    Tune(TuneArgs),
    /// The variant lab: questions a game's designer asks, answered by counting and by
    /// self-play (coverage, piece values, first moves, balance); studies keep their games
    /// in SQLite, resume where they stopped, split into shards and merge.
    #[cfg(feature = "lab")]
    Lab(LabArgs),
}

/// Which variant and position.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant id (five-up, five-up-cylinder, five-up-torus, five-up-unicorn, raumschach,
    /// octahedral, pyramid, betza-upright, betza-mixed, betza-flat, betza-very3d, book-3d,
    /// wing-table, wing-table-alt, forced-3d, triquetral; for more players wing-table-4p,
    /// triquetral-3p, triquetral-6p, which perft, divide, moves, fen, show and play take,
    /// but not analyse), or the path of a variant file (`game.toml`, docs/variants.md).
    #[arg(long, short = 'v', default_value = "five-up", value_parser = variant_arg)]
    pub variant: String,
    /// Start from this position string instead of the variant's start.
    #[arg(long, conflicts_with = "setup")]
    pub fen: Option<String>,
    /// A start of the variant's own choosing, checked as one: for book-3d, the
    /// board and both sides' pawn axes (`"<board> +yx,-yz"`; White to move, every
    /// pawn unmoved), or a whole position string; refused unless each side's
    /// men project onto FIDE's array along its altus axis.
    #[arg(long)]
    pub setup: Option<String>,
    /// Moves to play first, space-separated, coordinate or descriptive.
    #[arg(long)]
    pub moves: Option<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Worker threads (root moves are shared out).
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The variant file.
    pub file: std::path::PathBuf,
    /// Perft from the start to this depth (0 to 6).
    #[arg(long, short = 'd', default_value_t = 3)]
    pub depth: u32,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Mark the destinations of the piece on this cell with `x`.
    #[arg(long)]
    pub mark: Option<String>,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Play against Raum's engine instead of another person.
    #[arg(long)]
    pub engine: bool,
    /// With --engine: your side, white or black (default white); in a multi-player game
    /// a side's letter or name (w, r, k, b, g, y).
    #[arg(long)]
    pub color: Option<String>,
    /// In a multi-player game, who sits at each side: `w=human,r=engine,k=human,b=engine`
    /// (sides not named are people).
    #[arg(long)]
    pub seats: Option<String>,
    /// With --engine: strength from 1 (a beginner can win) to 15 (the full engine at
    /// 150,000 nodes a move; --movetime lets it think longer); the lower levels search
    /// less and now and then choose a worse move.
    #[arg(long)]
    pub level: Option<u32>,
    /// With --level below 15: the seed of the engine's choices, so that a game can be
    /// repeated (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --engine: thinking time per move in milliseconds (default 1000).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Keep the game in this record file, written again after every move (an existing
    /// file is not overwritten unless it is the --load file).
    #[arg(long)]
    pub save: Option<std::path::PathBuf>,
    /// Resume the game of this record file (its variant and start come from the record).
    #[arg(long, conflicts_with_all = ["fen", "setup", "moves"])]
    pub load: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Lines to show (the best first), 1 to 256.
    #[arg(long, default_value_t = 3)]
    pub multipv: usize,
    /// Search to this depth.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (the default, 1000, when no limit is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Only these moves, space-separated, either notation.
    #[arg(long)]
    pub searchmoves: Option<String>,
    /// Print every completed depth's lines as they come.
    #[arg(long)]
    pub progress: bool,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct PgnArgs {
    /// Record files (one or more games each).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Print each game's moves in coordinates instead of its final position.
    #[arg(long, conflicts_with = "check")]
    pub moves: bool,
    /// Only check the records; print how many games were read.
    #[arg(long)]
    pub check: bool,
    /// A variant file whose games the records hold (docs/variants.md); repeat for more.
    #[arg(long = "variant", short = 'v')]
    pub variants: Vec<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in plies for every position (default 7).
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Only this variant's positions (the node count is then that variant's part of the signature).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Variant id (five-up, five-up-cylinder, five-up-torus, five-up-unicorn, raumschach,
    /// octahedral, pyramid, betza-upright, betza-mixed, betza-flat, betza-very3d, book-3d,
    /// wing-table, wing-table-alt, forced-3d, triquetral; for more players wing-table-4p,
    /// triquetral-3p, triquetral-6p, played with --players), or the path of a variant file
    /// (`game.toml`, docs/variants.md).
    #[arg(long, short = 'v', default_value = "five-up", value_parser = variant_arg)]
    pub variant: String,
    /// Player A (the statistics are from A's point of view): `engine:nodes=5000`,
    /// `engine:movetime=100,off=null-move`, `engine:depth=6,eval=terms.txt`, `engine:tc=10+0.1`,
    /// `engine:level=3` (a skill level, 1 to 15, fractions mix two levels), `engine:elo=600`
    /// (that strength on the variant's measured scale), `engine:depth=1,lines=256,spread=250`
    /// (a level's way of choosing, one's own; `engine:depth=1,grab=1` chooses as Raumschach's level 2),
    /// `uci:movetime=100,Hash=64:./other-engine --uci`, `random` or `greedy`.
    #[arg(long)]
    pub a: Option<String>,
    /// Player B.
    #[arg(long)]
    pub b: Option<String>,
    /// For the multi-player games (wing-table-4p, triquetral-3p, triquetral-6p) instead
    /// of --a and --b: the players, separated by commas, `engine:movetime=MS|nodes=N|depth=D|tc=..`
    /// (every side for itself `,search=brs|paranoid|maxn` picks the search; brs by default),
    /// `uci:..`, `random` or `greedy`. With teams two (A takes one team, B the other, swapping
    /// every game; --a and --b may name them instead), with Elo and the SPRT; every side for
    /// itself one per side, rotated over the sides, ranked by mean score.
    #[arg(long, conflicts_with_all = ["a", "b"])]
    pub players: Option<String>,
    /// Number of games (pairs with the colours swapped: make it even; every side for
    /// itself, rotations of the players over the sides).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Seed for the openings and the random players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings: a file of position strings, one a line, used in turn.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Without --openings: random plies from the start for each pair's opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Without --openings: keep a random opening only if a depth-4 search scores it within
    /// this many centipawns of equality (0: any opening that leaves the game going). Two-player
    /// games only.
    #[arg(long, default_value_t = 60)]
    pub balance: u32,
    /// A game still going after this many plies is adjudicated a draw (every side for itself,
    /// the sides still in share the point).
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Resign adjudication (0: off): a player loses once its own score has been at most
    /// -`--resign-score` for this many consecutive moves and its opponent's at least
    /// +`--resign-score` for as many. Only engines report scores.
    #[arg(long, default_value_t = 0)]
    pub resign_moves: u32,
    /// Resign adjudication's margin in centipawns (a mate counts as more than any margin).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1000)]
    pub resign_score: i32,
    /// Draw adjudication (0: off): after `--draw-after` plies, a game in which both players'
    /// scores stayed within ±`--draw-score` for this many consecutive moves each is a draw.
    #[arg(long, default_value_t = 0)]
    pub draw_moves: u32,
    /// Draw adjudication's margin in centipawns.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10)]
    pub draw_score: i32,
    /// The ply (counted from the opening position) from which draw adjudication applies.
    #[arg(long, default_value_t = 80)]
    pub draw_after: u32,
    /// Write one tab-separated line per game: number, white, black (the player at each
    /// side, in turn order), result, reason, opening position, moves in coordinates.
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
    /// Write every game as a record (RULES.md's PGN-style text): players, result,
    /// termination, opening position and the engines' evaluations as comments.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Games played at the same time (each on its own thread, with its own players).
    #[arg(long, short = 'j', default_value_t = 1)]
    pub concurrency: u32,
    /// Stop as soon as the SPRT reaches a verdict (games under way are finished and counted),
    /// heeded from the 20th pair on.
    #[arg(long)]
    pub sprt_stop: bool,
    /// SPRT null hypothesis: A is this many Elo stronger.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub sprt_elo0: f64,
    /// SPRT alternative hypothesis.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    pub sprt_elo1: f64,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

#[derive(Args, Debug)]
pub struct LabArgs {
    #[command(subcommand)]
    pub study: LabCommand,
}

#[derive(Subcommand, Debug)]
pub enum LabCommand {
    /// Each piece's reach on the empty board (from the centre, as Aikin counts it, and the
    /// mean over every cell), the army's totals and its potential coverage density; every
    /// built-in game without --variant.
    Coverage(CoverageArgs),
    /// Piece values from self-play: games where one side lacks the piece, colours
    /// alternating, against games where it lacks two pawns; each value in pawns with a 95% interval.
    Values(StudyArgs),
    /// Every first move ranked by self-play from the position after it, with a 95%
    /// interval, beside a deeper search's score.
    Openings(StudyArgs),
    /// First-move advantage, draw rate, game length and how games end, from self-play
    /// from random openings.
    Balance(StudyArgs),
    /// Joins the result files of a study's shards into one (the same study's; each game once).
    Merge(MergeArgs),
    /// Learns a game's evaluation: self-play under its built-in terms, a fit of the terms
    /// to those games (`raum tune`), and a match of the fit against the built-in terms that
    /// says whether to adopt it. Each stage's result is kept in --dir, so a run stopped
    /// between stages goes on from there.
    Learn(LearnArgs),
}

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Variant id or file (two-player games).
    #[arg(long, short = 'v', default_value = "five-up", value_parser = variant_arg)]
    pub variant: String,
    /// The folder that keeps each stage's result: `selfplay-NNN.tsv` (the games, 200 a file,
    /// as `raum match --record` writes them), `fit.txt` (the fitted terms, as `raum tune
    /// --out` writes them), `match.txt` (the fit against the built-in terms) and `report.md`.
    #[arg(long)]
    pub dir: std::path::PathBuf,
    /// Self-play games to fit on.
    #[arg(long, default_value_t = 2000)]
    pub games: u32,
    /// Nodes a move for the self-play and the match (the self-play's second player searches
    /// an eighth more, so that a pair's two games differ).
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Random plies from the start for each pair's opening.
    #[arg(long, default_value_t = 6)]
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// The seed of the self-play's openings (the match's is the next one).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes of the fit's local search at most (`raum tune --iterations`).
    #[arg(long, default_value_t = 30)]
    pub iterations: u32,
    /// How far the fit moves each term per try (`raum tune --step`).
    #[arg(long, default_value_t = 5)]
    pub step: i32,
    /// Label each fitted position with a search of this many nodes, blended with the game's
    /// result 0.8 to 0.2 (`raum tune --search-labels N --lambda 0.8`; 0: results only).
    #[arg(long, default_value_t = 0)]
    pub search_labels: u64,
    /// The match's games at most: it stops at the SPRT's verdict (H0: the fit is no
    /// stronger, H1: it is 10 Elo stronger; 5% errors) or after this many.
    #[arg(long, default_value_t = 1000)]
    pub match_games: u32,
    /// Games played at the same time (default: every core).
    #[arg(long, short = 'j')]
    pub concurrency: Option<u32>,
}

#[derive(Args, Debug)]
pub struct CoverageArgs {
    /// Variant id or file (default: every built-in game).
    #[arg(long, short = 'v', value_parser = variant_arg)]
    pub variant: Option<String>,
}

#[derive(Args, Debug)]
pub struct StudyArgs {
    /// Variant id or file (two-player games).
    #[arg(long, short = 'v', default_value = "five-up", value_parser = variant_arg)]
    pub variant: String,
    /// Games in the study (values: per piece, and for the two pawns; openings: per first move).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// The player on both sides (as `raum match` writes one).
    #[arg(long, default_value = "engine:nodes=3000")]
    pub player: String,
    /// The study's seed: its games, openings and players follow from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies from the start (values, balance) or after the first move (openings)
    /// before the player takes over, different for every game.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// The pieces to value, by letter (values; default: every piece but the king and the pawn).
    #[arg(long)]
    pub pieces: Option<String>,
    /// The depth of the search that scores each first move (openings).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// The SQLite file that keeps the study's games: a study run again resumes there.
    #[arg(long, default_value = "raum-lab.db")]
    pub db: std::path::PathBuf,
    /// Play only shard I of N (`--shard 2/4`): games I, I+N, I+2N, ... (from 1), for a batch
    /// job array; `raum lab merge` joins the shards' files.
    #[arg(long)]
    pub shard: Option<String>,
    /// Games played at the same time (default: every core).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Stop after this many new games (the rest on a later run).
    #[arg(long)]
    pub max_new: Option<u64>,
    /// Write the report as Markdown here (and an SVG plot beside it, same name, `.svg`).
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged file (created; it may already hold some of the study's games).
    pub out: std::path::PathBuf,
    /// The shards' files.
    #[arg(required = true)]
    pub inputs: Vec<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Variant id or file (as for `perft`); the records must be of this variant.
    #[arg(long, short = 'v', default_value = "five-up", value_parser = variant_arg)]
    pub variant: String,
    /// `raum match --record` files (one or more).
    #[arg(long, required = true, num_args = 1..)]
    pub records: Vec<std::path::PathBuf>,
    /// Leave every Nth game out of the fit and report its error (0: use every game).
    #[arg(long, default_value_t = 0)]
    pub holdout: u32,
    /// Start from this parameter listing (a `--out` file) instead of the built-in terms.
    #[arg(long)]
    pub start: Option<std::path::PathBuf>,
    /// Passes of the local search at most.
    #[arg(long, default_value_t = 20)]
    pub iterations: u32,
    /// How far each parameter is moved per try.
    #[arg(long, default_value_t = 2)]
    pub step: i32,
    /// Plies at the start of each recorded game that give no samples.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Replace each sample by the quiet position its quiescence line (captures, promotions,
    /// check evasions, under the starting terms) ends in, so that material about to change
    /// hands is counted.
    #[arg(long)]
    pub resolve: bool,
    /// Relabel each fitted sample with a search of this many nodes (under the starting terms),
    /// blended with the game's result by `--lambda`; held-out samples keep their results.
    #[arg(long)]
    pub search_labels: Option<u64>,
    /// With `--search-labels`: the search's share of each label (0: the result only, 1: the
    /// search only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Parameters kept at their starting value, comma-separated (the pawn's value is the
    /// scale the others are measured in). Piece values stay at least 1; mobility weights,
    /// the king-zone weight and the tempo at least 0.
    #[arg(long, default_value = "value_P")]
    pub fix: String,
    /// Also write the tuned parameters to this file.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

/// A `--variant` value: a game's id, or the path of a variant file (a name
/// ending in `.toml`), which is read and loaded; either way the game's id.
pub fn variant_arg(value: &str) -> Result<String, String> {
    if !value.ends_with(".toml") {
        return Ok(value.to_string());
    }
    let text = std::fs::read_to_string(value).map_err(|e| format!("cannot read {value}: {e}"))?;
    raum_rules::file::load(&text, value).map(|id| id.name().to_string()).map_err(|e| format!("\n{e}"))
}

/// The variant named on the command line. Commands hand it a generic body
/// through [`VariantId::dispatch`], the one place where the board's width is
/// chosen; everything below that call is compiled once per width.
pub fn variant_id(name: &str) -> Result<VariantId> {
    if raum_rules::multi::MultiId::from_name(name).is_some() {
        anyhow::bail!(
            "'{name}' is a game for more than two players, which this command does not play (perft, divide, moves, fen, show, play, match, bench, pgn, uci and serve do)"
        );
    }
    Ok(name.parse()?)
}

/// The start position of `v` (or `--fen`), before any `--moves`.
pub fn base_position<S: Width>(v: &'static Variant<S>, a: &PositionArgs) -> Result<Position<S>> {
    if let Some(text) = &a.setup {
        return start_setup(v, text).with_context(|| format!("in --setup \"{text}\""));
    }
    match &a.fen {
        Some(fen) => parse_position(v, fen).with_context(|| format!("in --fen \"{fen}\"")),
        None => Ok(Position::start(v)),
    }
}

/// A start built from `--setup`: `<board> <axes>` (the rest implied) or a whole
/// position string, checked by [`Position::check_start`].
fn start_setup<S: Width>(v: &'static Variant<S>, text: &str) -> Result<Position<S>> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let pos = match fields[..] {
        [board, axes] if v.free_pawn_sets() => {
            let mut setup = raum_notation::parse_setup(v, &format!("{board} w - - {axes} -"))?;
            let pawn = v.pawn();
            setup.unmoved =
                Some((0..v.cells()).filter(|&c| setup.board[c].is_some_and(|p| Some(p.kind) == pawn)).collect());
            Position::from_setup(v, setup).map_err(raum_notation::FenError::from)?
        }
        _ => parse_position(v, text)?,
    };
    pos.check_start()?;
    Ok(pos)
}

/// Plays `--moves` on `pos`.
pub fn apply_moves<S: Width>(mut pos: Position<S>, moves: Option<&str>) -> Result<Position<S>> {
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        if pos.outcome().is_some() {
            bail!("in --moves, move {} ({text}): the game is already over", i + 1);
        }
        let m = parse_move(&pos, text).with_context(|| format!("in --moves, move {} ({text})", i + 1))?;
        pos.play(m);
    }
    Ok(pos)
}

/// The multi-player game named on the command line, if it is one.
pub fn multi_id(name: &str) -> Option<raum_rules::multi::MultiId> {
    raum_rules::multi::MultiId::from_name(name)
}

/// The game the arguments describe, any number of sides: the start, `--fen`
/// or (two-player games) `--setup`, then `--moves` played as a game (every
/// side for itself, a side left with no legal move goes out).
pub fn game(a: &PositionArgs) -> Result<AnyGame> {
    struct Base<'a>(&'a PositionArgs);
    impl VariantFn for Base<'_> {
        type Output = Result<AnyGame>;
        fn call<S: Width>(self, v: &'static Variant<S>) -> Result<AnyGame> {
            Ok(AnyGame::from(Game::new(base_position(v, self.0)?)))
        }
    }
    let id = GameId::from_name(&a.variant)?;
    let mut game = match (id, &a.fen) {
        (GameId::Two(v), _) => v.dispatch(Base(a))?,
        (GameId::Multi(m), _) if a.setup.is_some() => {
            bail!("--setup is for book-3d; {m} starts from its start or --fen")
        }
        (_, Some(fen)) => parse_game(id, fen).with_context(|| format!("in --fen \"{fen}\""))?,
        (_, None) => AnyGame::start(id),
    };
    for (i, text) in a.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        if game.result().is_some() {
            bail!("in --moves, move {} ({text}): the game is already over", i + 1);
        }
        let m = parse_game_move(&game, text).with_context(|| format!("in --moves, move {} ({text})", i + 1))?;
        game.play(m).map_err(|_| anyhow::anyhow!("in --moves, move {} ({text}): not legal here", i + 1))?;
    }
    Ok(game)
}

/// The position of `v` the arguments describe (`a.variant` named `v`).
pub fn position<S: Width>(v: &'static Variant<S>, a: &PositionArgs) -> Result<Position<S>> {
    apply_moves(base_position(v, a)?, a.moves.as_deref())
}

/// `raum serve`.
#[cfg(feature = "serve")]
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (0.0.0.0 to let other machines in).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Where every game is kept: a SQLite file (created if missing), or a PostgreSQL
    /// database's URL (`postgres://user:password@host:port/database`), which several
    /// servers can share (each follows the others' changes). The schema is made or
    /// brought up to date at start.
    #[arg(long, value_name = "FILE|URL", default_value = "raum-games.db")]
    pub db: String,
    /// Engine threads shared by all games (default: one less than the cores, at least one).
    #[arg(long)]
    pub engine_workers: Option<usize>,
    /// New games one address may create per hour, after a first 20 (0: no limit).
    #[arg(long, default_value_t = 600)]
    pub games_per_hour: u32,
    /// Connections open at once, from everyone (each page holds one or two, and a
    /// WebSocket one); a connection past it is answered 503 and closed.
    #[arg(long, value_name = "N", default_value_t = raum_server::limits::Policy::default().max_connections as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// No per-address limits (rates, connections, sockets): for a load test
    /// from one machine, or behind a proxy that applies its own.
    #[arg(long)]
    pub no_address_limits: bool,
    /// A balancer or proxy before this server, as an address or a network (`127.0.0.1`,
    /// `10.0.0.0/8`, `fd00::/8`); repeat it for several. On its connections the client's
    /// address is read from `X-Forwarded-For` (the first from the right that is not a trusted
    /// proxy), so each player keeps their own per-address limits; the header is ignored on
    /// everyone else's.
    #[arg(long, value_name = "ADDRESS[/BITS]")]
    pub trusted_proxy: Vec<raum_server::proxies::Network>,
    /// Days an unfinished game is kept after its last change before it is deleted with its
    /// moves (finished games are kept for good); 0 keeps every game.
    #[arg(long, value_name = "DAYS", default_value_t = raum_server::KEEP_UNFINISHED.as_secs() / 86_400)]
    pub keep_unfinished_days: u64,
    /// How the log on stderr is written: `text`, a line for people per event, or `json`, one
    /// JSON object per line for a log collector. RUST_LOG chooses the events, as a level and
    /// `target=level` pairs (default `info`: start, stop and failures; `raum_server=debug`
    /// adds a line per request). The lines on stdout (the URL, the database) stay as they are.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How `raum serve` writes its log.
#[cfg(feature = "serve")]
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// A line for people per event.
    Text,
    /// One JSON object per line.
    Json,
}
