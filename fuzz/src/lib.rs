//! The fuzz targets' bodies. Each input's first byte picks the game (one of
//! [`VariantId::ALL`], then one of the multi-player [`MultiId::ALL`]), so that
//! one corpus reaches every board width and every number of sides; the body
//! runs at that width through [`VariantId::dispatch`] or [`MultiId::dispatch`]. The targets in
//! `src/bin/` hand these to AFL++; the workspace's suite replays the seed corpus
//! through them without it (`crates/raum-cli/tests/cli/fuzz_corpus.rs`, which
//! compiles this file as a module). A broken invariant panics, which AFL++ records as
//! a crash.

use raum_cli::uci::{self, Caps};
use raum_notation::{
    Record, format_descriptive, format_game_position, format_move, format_multi_move, format_multi_position,
    format_position, parse_coordinate, parse_descriptive, parse_move, parse_multi_move, parse_multi_position,
    parse_position, parse_records, write_records,
};
use raum_rules::multi::{MultiId, MultiPosition, MultiVariant};
use raum_rules::{GameRules, Move, MultiFn, Position, Variant, VariantFn, VariantId, Width};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Longest move text or protocol session a target reads: enough for any
/// command or move list worth trying, and short enough that no input runs
/// into AFL++'s timeout merely by repeating `go` thousands of times.
pub const MAX_TEXT: usize = 4096;

/// Bounds on each protocol session, so that `go depth 100`, `go infinite` or
/// `setoption name Hash value 4096` end soon and stay small. One search
/// thread: helper threads cost a spawn per search and made the target's runs
/// unstable (their node counts depend on scheduling), and find no more.
pub const PROTOCOL_CAPS: Caps = Caps { nodes: Some(64), hash_mb: Some(1), threads: Some(1) };

/// A game an input is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// A two-player variant.
    Two(VariantId),
    /// A game for three, four or six.
    Multi(MultiId),
}

impl core::fmt::Display for Game {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Game::Two(id) => id.fmt(f),
            Game::Multi(id) => id.fmt(f),
        }
    }
}

/// The game an input is about (its first byte: the two-player variants come
/// first, so a seed's byte keeps its meaning as games are added after them)
/// and the rest of it.
pub fn split(data: &[u8]) -> Option<(Game, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let i = first as usize % (VariantId::ALL.len() + MultiId::ALL.len());
    let game = match VariantId::ALL.get(i) {
        Some(&id) => Game::Two(id),
        None => Game::Multi(MultiId::ALL[i - VariantId::ALL.len()]),
    };
    Some((game, rest))
}

/// Builds every variant and the engine's tables once, before AFL++'s fork
/// server starts, so that each input pays only for its own work (and the
/// first input of each variant does not look slow or unstable).
pub fn warm_up() {
    let games = VariantId::ALL.iter().map(|id| id.to_string()).chain(MultiId::ALL.iter().map(|id| id.to_string()));
    for id in games {
        let session = format!("setoption name UCI_Variant value {id}\nposition startpos\ngo nodes 1\n");
        run_session(session.as_bytes());
    }
}

/// `position`: a position string. Invalid UTF-8 reaches the parser as the
/// text every reader of Raum makes of it (U+FFFD for each bad sequence).
pub fn position(data: &[u8]) {
    let Some((game, rest)) = split(data) else { return };
    let text = String::from_utf8_lossy(rest);
    match game {
        Game::Two(id) => id.dispatch(PositionText(&text)),
        Game::Multi(id) => id.dispatch(PositionText(&text)),
    }
}

struct PositionText<'a>(&'a str);

impl VariantFn for PositionText<'_> {
    type Output = ();
    fn call<S: Width>(self, v: &'static Variant<S>) {
        let Ok(pos) = parse_position(v, self.0) else { return };
        check_round_trip(&pos, self.0);
        // A parsed position is one the rules accept: every legal move in it
        // must play and unplay cleanly, however odd the position.
        for &m in pos.legal_moves().iter() {
            check_play(&pos, m);
        }
    }
}

impl MultiFn for PositionText<'_> {
    type Output = ();
    fn call<S: Width>(self, v: &'static MultiVariant<S>) {
        let Ok(pos) = parse_multi_position(v, self.0) else { return };
        check_multi_round_trip(&pos, self.0);
        for &m in pos.legal_moves().iter() {
            check_multi_play(&pos, m);
        }
    }
}

/// [`check_round_trip`] for a multi-player position.
fn check_multi_round_trip<S: Width>(pos: &MultiPosition<S>, from: &str) {
    let id = pos.variant().id();
    assert_eq!(pos.hash(), pos.compute_hash(), "{id}: hash of {from:?} is not its recomputed hash");
    let text = format_multi_position(pos);
    let back = parse_multi_position(pos.variant(), &text)
        .unwrap_or_else(|e| panic!("{id}: {text:?} (written for {from:?}) does not parse: {e}"));
    assert_eq!(back, *pos, "{id}: {text:?} (written for {from:?}) parses to another position");
    assert_eq!(back.hash(), pos.hash(), "{id}: {text:?} parses to another hash");
    assert_eq!(format_multi_position(&back), text, "{id}: {text:?} is written back differently");
}

/// [`check_play`] for a multi-player position.
fn check_multi_play<S: Width>(pos: &MultiPosition<S>, m: Move) {
    let v = pos.variant();
    let id = v.id();
    let mut p = pos.clone();
    let undo = p.play(m);
    assert_eq!(p.hash(), p.compute_hash(), "{id}: hash after {} is not its recomputed hash", format_multi_move(v, m));
    p.unplay(m, undo);
    let here = format_multi_position(pos);
    assert_eq!(p, *pos, "{id}: unplaying {} does not restore {here}", format_multi_move(v, m));
    assert_eq!(p.hash(), pos.hash(), "{id}: unplaying {} does not restore the hash", format_multi_move(v, m));
}

/// The position's string parses back to the same position, hash and string.
fn check_round_trip<S: Width>(pos: &Position<S>, from: &str) {
    let v = pos.variant();
    assert_eq!(pos.hash(), pos.compute_hash(), "{}: hash of {from:?} is not its recomputed hash", v.id());
    let text = format_position(pos);
    let back = parse_position(v, &text)
        .unwrap_or_else(|e| panic!("{}: {text:?} (written for {from:?}) does not parse: {e}", v.id()));
    assert_eq!(back, *pos, "{}: {text:?} (written for {from:?}) parses to another position", v.id());
    assert_eq!(back.hash(), pos.hash(), "{}: {text:?} parses to another hash", v.id());
    assert_eq!(format_position(&back), text, "{}: {text:?} is written back differently", v.id());
}

/// Playing `m` keeps the incremental hash right, and unplaying it restores
/// the position and its hash.
fn check_play<S: Width>(pos: &Position<S>, m: Move) {
    let v = pos.variant();
    let mut p = *pos;
    let undo = p.play(m);
    assert_eq!(p.hash(), p.compute_hash(), "{}: hash after {} is not its recomputed hash", v.id(), format_move(v, m));
    p.unplay(m, undo);
    assert_eq!(p, *pos, "{}: unplaying {} does not restore {}", v.id(), format_move(v, m), format_position(pos));
    assert_eq!(p.hash(), pos.hash(), "{}: unplaying {} does not restore the hash", v.id(), format_move(v, m));
}

/// `moves`: after the variant byte, a count `k` (mod 64) and `k` bytes that
/// each pick one legal move from the start; the rest is text, one move a
/// line, each tried in the coordinate, descriptive and either-notation
/// readers. A line that reads as a move is played before the next line.
pub fn moves(data: &[u8]) {
    let Some((id, rest)) = split(data) else { return };
    let Some((&count, rest)) = rest.split_first() else { return };
    let (picks, text) = rest.split_at(usize::from(count % 64).min(rest.len()));
    let text = String::from_utf8_lossy(&text[..text.len().min(MAX_TEXT)]);
    match id {
        Game::Two(id) => id.dispatch(MoveText { picks, text: &text }),
        Game::Multi(id) => id.dispatch(MoveText { picks, text: &text }),
    }
}

struct MoveText<'a> {
    picks: &'a [u8],
    text: &'a str,
}

impl VariantFn for MoveText<'_> {
    type Output = ();
    fn call<S: Width>(self, v: &'static Variant<S>) {
        let mut pos = Position::start(v);
        for &b in self.picks {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[usize::from(b) % legal.len()];
            check_play(&pos, m);
            pos.play(m);
        }
        for line in self.text.lines() {
            let either = parse_move(&pos, line);
            for m in [&either, &parse_coordinate(&pos, line), &parse_descriptive(&pos, line)].into_iter().flatten() {
                check_move(&pos, *m, line);
            }
            if let Ok(m) = either {
                pos.play(m);
            }
        }
    }
}

/// Multi-player games have one notation, coordinates; a side left with no
/// legal move leaves the board (every side for itself) or ends the game.
impl MultiFn for MoveText<'_> {
    type Output = ();
    fn call<S: Width>(self, v: &'static MultiVariant<S>) {
        let mut pos = MultiPosition::start(v);
        let mut picks = self.picks.iter();
        loop {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                if v.teams() || pos.sides_in().len() <= 2 {
                    break;
                }
                pos.remove_side();
                check_multi_round_trip(&pos, "a position after a side left");
                continue;
            }
            let Some(&b) = picks.next() else { break };
            let m = legal[usize::from(b) % legal.len()];
            check_multi_play(&pos, m);
            pos.play(m);
        }
        for line in self.text.lines() {
            let Ok(m) = parse_multi_move(&pos, line) else { continue };
            let here = format_multi_position(&pos);
            let id = v.id();
            assert!(pos.legal_moves().contains(&m), "{id}: {line:?} read as an illegal move in {here}");
            let written = format_multi_move(v, m);
            assert_eq!(parse_multi_move(&pos, &written), Ok(m), "{id}: {written:?} (from {line:?}) in {here}");
            check_multi_play(&pos, m);
            pos.play(m);
            check_multi_round_trip(&pos, &format!("{here} after {written}"));
        }
    }
}

/// A move read from `text` is legal, both its written forms read back as it,
/// and playing it keeps the position sound.
fn check_move<S: Width>(pos: &Position<S>, m: Move, text: &str) {
    let v = pos.variant();
    let here = format_position(pos);
    assert!(pos.legal_moves().contains(&m), "{}: {text:?} read as an illegal move in {here}", v.id());
    let coordinate = format_move(v, m);
    assert_eq!(parse_coordinate(pos, &coordinate), Ok(m), "{}: {coordinate:?} (from {text:?}) in {here}", v.id());
    assert_eq!(parse_move(pos, &coordinate), Ok(m), "{}: {coordinate:?} (from {text:?}) in {here}", v.id());
    let descriptive = format_descriptive(pos, m);
    assert_eq!(parse_descriptive(pos, &descriptive), Ok(m), "{}: {descriptive:?} (from {text:?}) in {here}", v.id());
    assert_eq!(parse_move(pos, &descriptive), Ok(m), "{}: {descriptive:?} (from {text:?}) in {here}", v.id());
    check_play(pos, m);
    check_round_trip(&pos.play_copy(m), &format!("{here} after {coordinate}"));
}

/// Most `go` commands a protocol input may hold: each search costs a few
/// milliseconds even capped, and a few thousand of them would pass AFL++'s
/// timeout without finding anything a handful does not.
pub const MAX_SEARCHES: usize = 4;

/// `protocol`: the rest of the input is a `raum uci` session on the chosen
/// variant (it starts with `setoption name UCI_Variant`), run under
/// [`PROTOCOL_CAPS`] and cut before its `MAX_SEARCHES + 1`th `go`. Every line
/// it answers must be one of the protocol's.
pub fn protocol(data: &[u8]) {
    let Some((id, rest)) = split(data) else { return };
    let mut session = format!("setoption name UCI_Variant value {id}\n").into_bytes();
    let mut searches = 0;
    for line in rest[..rest.len().min(MAX_TEXT)].split_inclusive(|&b| b == b'\n') {
        // The session reads a line's first word the same way.
        if String::from_utf8_lossy(line).split_whitespace().next() == Some("go") {
            searches += 1;
            if searches > MAX_SEARCHES {
                break;
            }
        }
        session.extend_from_slice(line);
    }
    let answers = run_session(&session);
    for line in answers.lines() {
        let word = line.split(' ').next().unwrap_or_default();
        assert!(
            matches!(word, "id" | "option" | "uciok" | "readyok" | "info" | "bestmove"),
            "answer {line:?} is not a protocol line"
        );
    }
}

/// Runs a session under [`PROTOCOL_CAPS`] and returns what it answered.
fn run_session(mut input: &[u8]) -> String {
    let answers = Answers::default();
    uci::run(&mut input, Box::new(answers.clone()), PROTOCOL_CAPS);
    let bytes = answers.0.lock().unwrap_or_else(|e| e.into_inner());
    // The session writes only text it made itself (input echoed in an error
    // went through a lossy decoding first), so this is valid UTF-8.
    String::from_utf8(bytes.clone()).unwrap_or_else(|e| panic!("the session wrote invalid UTF-8: {e}"))
}

/// The session's output, shared with its search thread.
#[derive(Clone, Default)]
struct Answers(Arc<Mutex<Vec<u8>>>);

impl Write for Answers {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `record`: game records (RULES.md's PGN-style text), through the one
/// reader, for games of any number of sides. A text that names no variant
/// gets a `[Variant]` tag for the game the first byte picks, so that short
/// inputs reach every game's moves. Every record read writes back to text
/// that reads back and writes identically, alone and as a file; one that
/// replays under the rules, written afresh from its game, replays to the same
/// game.
pub fn record(data: &[u8]) {
    let Some((id, rest)) = split(data) else { return };
    let text = String::from_utf8_lossy(&rest[..rest.len().min(MAX_TEXT)]);
    let text = if text.contains("[Variant") { text.into_owned() } else { format!("[Variant \"{id}\"]\n{text}") };
    let Ok(records) = parse_records(&text) else { return };
    for r in &records {
        let written = r.to_string();
        let back = parse_records(&written)
            .unwrap_or_else(|e| panic!("{written:?} (written for a record of {text:?}) does not parse: {e}"));
        assert_eq!(back.len(), 1, "{written:?} reads as {} records", back.len());
        assert_eq!(back[0].to_string(), written, "{written:?} is written back differently");
        replay_again(r);
    }
    let file = write_records(&records);
    let back = parse_records(&file).unwrap_or_else(|e| panic!("{file:?} (written for {text:?}) does not parse: {e}"));
    assert_eq!(write_records(&back), file, "{file:?} is written back differently");
}

/// Longest variant file the `variant` target reads (the largest built-in
/// file is under 3 KB).
pub const MAX_VARIANT: usize = 8192;

/// `variant`: a variant file (docs/variants.md). Reading never panics; every
/// error names a line and a column inside the text it was read from (or a
/// built-in file it extends); a file that reads describes a board of 1 to
/// 512 cells, and reads the same again.
pub fn variant(data: &[u8]) {
    let text = String::from_utf8_lossy(&data[..data.len().min(MAX_VARIANT)]);
    match raum_rules::file::read(&text, "fuzz.toml") {
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an error without problems for {text:?}");
            for e in &errors.0 {
                assert!(e.line >= 1 && e.column >= 1, "{e} for {text:?}");
                if e.file == "fuzz.toml" {
                    let lines = text.split('\n').count() as u32;
                    assert!(e.line <= lines, "{e}: past the last line ({lines}) of {text:?}");
                }
            }
        }
        Ok(def) => {
            assert!((1..=raum_rules::file::MAX_CELLS).contains(&def.cells()), "{} cells in {text:?}", def.cells());
            assert_eq!(raum_rules::file::read(&text, "fuzz.toml"), Ok(def), "{text:?} reads differently again");
        }
    }
}

/// A record that replays, written afresh from its game, replays to the same game.
fn replay_again(record: &Record) {
    let Ok(game) = record.replay() else { return };
    let id = game.id();
    let written = Record::from_game(&game).to_string();
    let read = parse_records(&written).unwrap_or_else(|e| panic!("{id}: {written:?} does not parse: {e}"));
    let again = read[0].replay().unwrap_or_else(|e| panic!("{id}: {written:?} does not replay: {e}"));
    assert_eq!(again.actions(), game.actions(), "{id}: {written:?} replays to other moves or resignations");
    assert_eq!(
        format_game_position(&again),
        format_game_position(&game),
        "{id}: {written:?} replays to another position"
    );
    assert_eq!(again.result(), game.result(), "{id}: {written:?} replays to another result");
}

/// Runs `body` on each file named on the command line, saying which one it
/// is first, so that a panic's message follows the input that caused it.
pub fn replay_files(body: fn(&[u8])) {
    for path in std::env::args_os().skip(1) {
        let shown = path.to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
        eprintln!("{shown}: {} bytes", data.len());
        body(&data);
    }
}
