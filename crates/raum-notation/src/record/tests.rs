//! The record reader and writer, two sides and more.

use super::reader::is_result_token;
use super::syntax::LINE;
use super::*;
use crate::{format_multi_move, format_multi_position};
use raum_bitboard::Wide;
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{Action, End, Game, MultiFn, Position, Variant, VariantId, Width};

const MATE: &str =
    "[Event \"Seed 000\"]\n[Variant \"five-up\"]\n[Result \"0-1\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 0-1\n";

fn one(text: &str) -> Record {
    let mut r = parse_records(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(r.len(), 1);
    r.remove(0)
}

/// A record replayed as a multi-player game of `v`.
fn replay_in<S: raum_rules::Width>(v: &'static MultiVariant<S>, r: &Record) -> Result<MultiGame<S>, ReplayError> {
    let game = r.replay()?;
    let id = game.id();
    let game: MultiGame<S> = game.try_into().map_err(|_| ReplayError::Tag(format!("{id} is not {}", v.id())))?;
    Ok(game)
}

fn replay_error(text: &str) -> String {
    one(text).replay().unwrap_err().to_string()
}

#[test]
fn reads_tags_moves_comments_and_result() {
    let text = "[Variant \"five-up\"]\n[White \"A \\\"quoted\\\" name\"]\n[Custom \"kept\"]\n\n\
                {opening} 1. Cc2 {+0.20/8} 1... Cc4 ; a remark\n2. B-Ca1 (2. N-Bc1 {side line}) $2 2... BxEb2# 0-1";
    let r = one(text);
    assert_eq!(r.tag("White"), Some("A \"quoted\" name"));
    assert_eq!(r.tag("Custom"), Some("kept"));
    assert_eq!(r.intro.as_deref(), Some("opening"));
    let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["Cc2", "Cc4", "B-Ca1", "BxEb2#"]);
    assert_eq!(r.moves[0].comment.as_deref(), Some("+0.20/8"));
    assert_eq!(r.result, RecordResult::BlackWins.scores());
    let game = r.replay().unwrap();
    assert_eq!(game.result().map(|o| o.end), Some(End::Checkmate { side: 0 }));
    // Written back: unknown tags kept, escapes restored, `1...` after a comment.
    let written = r.to_string();
    assert!(written.contains("[White \"A \\\"quoted\\\" name\"]\n[Custom \"kept\"]\n"), "{written}");
    assert!(written.contains("{opening} 1. Cc2 {+0.20/8} 1... Cc4 2. B-Ca1 BxEb2# 0-1"), "{written}");
    assert_eq!(one(&written), r);
}

#[test]
fn several_games_and_a_game_from_a_position() {
    let fen = "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR b Kk - 0 7";
    let text = format!("{MATE}\n[Variant \"five-up\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\nCc4 8. Cc2 *\n");
    let records = parse_records(&text).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].first, (7, 1), "no number: the FEN's side and number");
    let game = records[1].replay().unwrap();
    assert_eq!(game.moves().len(), 2);
    assert_eq!(game.fullmove_number(), 8);
    let again = Record::from_game(&game);
    assert_eq!(again.first, (7, 1));
    assert!(again.to_string().contains("7... Cc4 8. Cc2 *"), "{again}");
    assert_eq!(write_records(&records), format!("{MATE}\n{}", records[1]));
}

#[test]
fn from_game_writes_the_seed_mate() {
    let v = Variant::get(VariantId::FiveUp);
    let mut game = Game::new(Position::start(v));
    for m in ["Dc2-Cc2", "Bc4-Cc4", "Db1-Ca1", "Bb5-Eb2"] {
        game.play(crate::parse_move(game.position(), m).unwrap()).unwrap();
    }
    let r = Record::from_game(&game);
    assert_eq!(r.tag("Termination"), Some("checkmate"));
    assert!(r.to_string().ends_with("\n1. Cc2 Cc4 2. B-Ca1 BxEb2# 0-1\n"), "{r}");
    assert_eq!(r.tag("FEN"), None);
}

#[test]
fn bad_moves_are_refused_by_number() {
    let illegal = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb3 *";
    assert_eq!(replay_error(illegal), "move 2... BxEb3: not legal here");
    let ambiguous = "[Variant \"five-up\"]\n\n1. Cc2 Cd4 2. Cb2 Cd3 3. PxCd3 *";
    let e = replay_error(ambiguous);
    assert!(e.starts_with("move 3. PxCd3: ambiguous: it could be "), "{e}");
    let nonsense = "[Variant \"five-up\"]\n\n1. Zz9 *";
    assert!(replay_error(nonsense).starts_with("move 1. Zz9: "), "{}", replay_error(nonsense));
    let after_mate = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 3. Cc3 *";
    assert!(replay_error(after_mate).contains("move 3. Cc3: the game was already over"));
    let wrong_result = "[Variant \"five-up\"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2# 1/2-1/2";
    assert!(replay_error(wrong_result).starts_with("the record says 1/2-1/2, but the game ended 0-1"));
    let bad_fen = "[Variant \"five-up\"]\n[FEN \"nonsense\"]\n\n*";
    assert!(replay_error(bad_fen).starts_with("[FEN \"nonsense\"]: "));
    let unknown = "[Variant \"chess\"]\n\n*";
    assert!(one(unknown).variant().is_err());
}

#[test]
fn bad_text_is_refused_by_line() {
    let cases = [
        ("[Variant five-up]\n", 1, "double quotes"),
        ("[Variant \"five-up\"]\n[Event \"x]\n", 2, "closing quote"),
        ("[Variant \"five-up\"]\n\n1. Cc2 {unclosed\n", 3, "not closed"),
        ("[Variant \"five-up\"]\n\n1. Cc2 (Cc3\n", 3, "not closed"),
        ("[Variant \"five-up\"]\n\n1. Cc2 ) *\n", 3, "closes no variation"),
        ("[Variant \"five-up\"]\n[Result \"1-0\"]\n\n1. Cc2 0-1\n", 4, "Result tag says 1-0"),
        ("1. Cc2 *\n", 1, "no [Variant"),
        ("[Variant \"five-up\"]\n\n99999999999. Cc2 *\n", 3, "too large"),
    ];
    for (text, line, what) in cases {
        let e = parse_records(text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.what.contains(what), "{text:?}: {e}");
    }
    let second = format!("{MATE}\n[Event \"no variant\"]\n\n1. Cc2 *\n");
    let e = parse_records(&second).unwrap_err();
    assert_eq!((e.game, e.line), (2, 7), "{e}");
}

#[test]
fn a_record_without_a_variant_tag_takes_the_one_given() {
    // No tag: the variant given, its moves replayed under it.
    let r = &parse_records_in("[White \"A\"]\n\n1. Cc2 Cc4 *\n", Some("five-up")).unwrap()[0];
    assert_eq!(r.tag("Variant"), Some("five-up"));
    assert_eq!(r.replay().unwrap().moves().len(), 2);
    // A bare movetext too; a FEN's side letter is read in that variant.
    let r = &parse_records_in("1. 2e3-2e4 *\n", Some("wing-table-4p")).unwrap()[0];
    assert_eq!(r.tag("Variant"), Some("wing-table-4p"));
    // The record's own tag stands.
    let r = &parse_records_in(MATE, Some("raumschach")).unwrap()[0];
    assert_eq!(r.tag("Variant"), Some("five-up"));
    // Nothing given: refused as before; an empty text holds no game.
    assert!(parse_records_in("1. Cc2 *\n", None).is_err());
    assert!(parse_records_in("  \n", Some("five-up")).unwrap().is_empty());
}

#[test]
fn results_read_and_write() {
    for r in RecordResult::ALL {
        assert_eq!(RecordResult::parse(r.as_str()), Some(r));
    }
    let text = "[Variant \"five-up\"]\n[Result \"3/5-2/5\"]\n\n3/5-2/5\n";
    assert_eq!(one(text).result, RecordResult::WhiteStalemates.scores());
    // A result only in the tag: the game's result; neither: unfinished.
    assert_eq!(one("[Variant \"five-up\"]\n[Result \"1-0\"]\n\n1. Cc2\n").result, RecordResult::WhiteWins.scores());
    assert_eq!(one("[Variant \"five-up\"]\n").result, None);
}

#[test]
fn long_movetext_wraps_and_reads_back() {
    let mut r = Record::new(VariantId::FiveUp);
    for i in 0..60 {
        r.push("Cc2", (i % 3 == 0).then(|| "a long comment that will have to wrap across lines".to_string()));
    }
    let text = r.to_string();
    assert!(text.lines().all(|l| l.chars().count() <= LINE), "{text}");
    assert_eq!(one(&text), r);
}

fn four() -> &'static MultiVariant<Wide<4>> {
    MultiVariant::at_width(MultiId::WingTable4p)
}

fn three() -> &'static MultiVariant<Wide<4>> {
    MultiVariant::at_width(MultiId::Triquetral3p)
}

/// A seeded random mover (splitmix64): `moves` moves or to the game's end.
fn random_game<S: raum_rules::Width>(start: MultiPosition<S>, seed: u64, moves: usize) -> MultiGame<S> {
    let mut state = seed;
    let mut game = MultiGame::new(start);
    while game.outcome().is_none() && game.moves().len() < moves {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let legal = game.position().legal_moves();
        let m = legal.iter().copied().nth((z % legal.len() as u64) as usize).expect("a legal move");
        game.play(m).expect("legal");
    }
    game
}

/// The first seeded random game (seeds 0, 1, ...) that `wanted` accepts.
fn find_game<S: raum_rules::Width>(
    v: &'static MultiVariant<S>,
    moves: usize,
    wanted: impl Fn(&MultiGame<S>) -> bool,
) -> MultiGame<S> {
    (0..64)
        .map(|seed| random_game(MultiPosition::start(v), seed, moves))
        .find(|g| wanted(g))
        .expect("some seed gives such a game")
}

/// The movetext's rounds: the moves after each round number, in order.
fn rounds(text: &str) -> Vec<(String, Vec<String>)> {
    let movetext = &text[text.find("\n\n").expect("a tag section") + 2..];
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for word in movetext.split_whitespace() {
        if word.ends_with('.') {
            out.push((word.to_string(), Vec::new()));
        } else if let Some(last) = out.last_mut()
            && !word.contains('{')
            && !word.contains('}')
            && !is_result_token(word)
        {
            last.1.push(word.to_string());
        }
    }
    out
}

#[test]
fn writes_and_reads_back_with_unknown_tags_and_comments() {
    let v = four();
    let game = random_game(MultiPosition::start(v), 7, 12);
    let mut r = Record::from_game(&game);
    r.set_tag("White", "A \"quoted\" name");
    r.set_tag("Red", "Raum (1000 ms a move)");
    r.set_tag("Custom", "kept");
    r.intro = Some("opening".into());
    r.moves[0].comment = Some("+0.20/8".into());
    r.moves[5].comment = Some("a comment mid-round".into());
    let text = r.to_string();
    let head = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                [White \"A \\\"quoted\\\" name\"]\n[Red \"Raum (1000 ms a move)\"]\n[Black \"?\"]\n[Blue \"?\"]\n\
                [Result \"*\"]\n[Variant \"wing-table-4p\"]\n[Custom \"kept\"]\n\n";
    assert!(text.starts_with(head), "{text}");
    let m = |i: usize| r.moves[i].text.as_str();
    let expected = format!(
        "{{opening}} 1. {} {{+0.20/8}} 1... {} {} {} 2. {} {} {{a comment mid-round}} 2... {} {} 3. {} {} {} {} *",
        m(0),
        m(1),
        m(2),
        m(3),
        m(4),
        m(5),
        m(6),
        m(7),
        m(8),
        m(9),
        m(10),
        m(11)
    );
    let movetext: Vec<&str> = text[head.len()..].split_whitespace().collect();
    assert_eq!(movetext.join(" "), expected, "{text}");
    let back = one(&text);
    assert_eq!(back, r);
    assert_eq!(back.to_string(), text);
    assert_eq!(back.tag("White"), Some("A \"quoted\" name"));
    // `;` comments, variations, $n and a glued number are read past.
    let noisy = text.replace(" 2. ", " ; a remark\n2. (2. 2e3-2e5 {side line}) $1 2.");
    assert_eq!(one(&noisy).to_string(), text);
}

#[test]
fn a_random_four_player_game_replays() {
    let v = four();
    let game = random_game(MultiPosition::start(v), 11, 20);
    let r = Record::from_game(&game);
    assert_eq!(r.result, None);
    let text = r.to_string();
    let rounds = rounds(&text);
    let numbers: Vec<&str> = rounds.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(numbers, ["1.", "2.", "3.", "4.", "5."], "{text}");
    assert!(rounds.iter().all(|(_, m)| m.len() == 4), "{text}");
    let back = one(&text);
    let replayed = replay_in(v, &back).unwrap();
    assert_eq!(format_multi_position(replayed.position()), format_multi_position(game.position()));
    assert_eq!(replayed.moves(), game.moves());
    assert_eq!(write_records(&[back.clone(), back]), format!("{text}\n{text}"));
}

#[test]
fn a_three_player_game_in_which_a_side_leaves() {
    let v = three();
    // Random play until a side has no legal move and leaves, then a few rounds more.
    let long = find_game(v, 1500, |g| !g.removed().is_empty());
    let (at, side) = long.removed()[0];
    let mut game = MultiGame::new(MultiPosition::start(v));
    for &m in &long.moves()[..(at + 12).min(long.moves().len())] {
        game.play(m).unwrap();
    }
    assert!(game.removed().contains(&(at, side)));
    let r = Record::from_game(&game);
    let text = r.to_string();
    let rounds = rounds(&text);
    let out_round = (at / 3) as u32;
    for (i, (number, moves)) in rounds.iter().enumerate() {
        assert_eq!(number, &format!("{}.", i + 1), "{text}");
        let full = (i as u32) < out_round;
        if i + 1 < rounds.len() && (full || i as u32 > out_round) {
            assert_eq!(moves.len(), if full { 3 } else { 2 }, "round {}: {text}", i + 1);
        }
    }
    assert_eq!(rounds.last().map(|(_, m)| m.len() <= 2), Some(true));
    let back = one(&text);
    assert_eq!(back.to_string(), text);
    let replayed = replay_in(v, &back).unwrap();
    assert_eq!(replayed.removed(), game.removed());
    assert_eq!(format_multi_position(replayed.position()), format_multi_position(game.position()));
}

#[test]
fn a_three_player_game_to_the_last_side() {
    let v = three();
    let game = find_game(v, 3000, |g| matches!(g.outcome().map(|o| o.end), Some(End::LastSide { .. })));
    let Some(End::LastSide { side }) = game.outcome().map(|o| o.end) else { unreachable!() };
    let r = Record::from_game(&game);
    let expected: Vec<&str> = (0..3).map(|s| if s == side { "1" } else { "0" }).collect();
    assert_eq!(r.tag("Result"), Some(expected.join("-").as_str()));
    assert_eq!(r.tag("Termination"), Some("checkmate"));
    let text = r.to_string();
    assert!(text.lines().all(|l| l.chars().count() <= LINE), "{text}");
    assert!(text.trim_end().ends_with(&format!(" {}", expected.join("-"))), "{text}");
    let back = one(&text);
    assert_eq!(back.to_string(), text);
    let replayed = replay_in(v, &back).unwrap();
    assert_eq!(replayed.result(), game.outcome());
    // The same game said to be unfinished, or won by another side, is refused.
    let mut wrong = back.clone();
    wrong.set_result(None);
    let e = replay_in(v, &wrong).unwrap_err().to_string();
    assert!(e.starts_with("the record says *, but the game ended "), "{e}");
    assert!(e.ends_with("is the last side in)"), "{e}");
}

#[test]
fn a_result_that_contradicts_a_mate_is_refused() {
    let v = four();
    let game = find_game(v, 200, |g| matches!(g.outcome().map(|o| o.end), Some(End::Checkmate { .. })));
    let o = game.outcome().unwrap();
    let End::Checkmate { side } = o.end else { unreachable!() };
    let mut r = Record::from_game(&game);
    assert_eq!(r.tag("Termination"), Some("checkmate"));
    assert_eq!(r.result.as_ref(), Some(&o.scores));
    assert!(one(&r.to_string()).replay().is_ok());
    // The mated side's team said to win.
    let flipped: Vec<Points> = o.scores.iter().map(|&p| Points(60 - p.0)).collect();
    r.set_result(Some(flipped.clone()));
    let e = one(&r.to_string()).replay().unwrap_err().to_string();
    let name = v.sides()[side].name;
    assert_eq!(
        e,
        format!(
            "the record says {}, but the game ended {} ({name} is checkmated)",
            format_result(Some(&flipped)),
            format_result(Some(&o.scores))
        )
    );
    // A move after the mate.
    r.set_result(Some(o.scores.clone()));
    r.push("2e3-2e4", None);
    let e = one(&r.to_string()).replay().unwrap_err().to_string();
    assert!(e.contains(&format!("{name}, 2e3-2e4: the game was already over: ")), "{e}");
}

#[test]
fn bad_moves_and_results_are_refused() {
    let head = "[Variant \"wing-table-4p\"]\n\n";
    let error = |movetext: &str| one(&format!("{head}{movetext}")).replay().unwrap_err().to_string();
    assert_eq!(error("1. 2e3-2e4 2c8-2e8 *"), "round 1, Red, 2c8-2e8: not legal here");
    assert_eq!(
        error("1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2f3-2f4 2c8-2d8 *"),
        "round 2, Red, 2c8-2d8: no Red piece on 2c8"
    );
    assert_eq!(error("1. 2e3-2e4 2c8-2d8 2h10-2z9 *"), "round 1, Black, 2h10-2z9: '2z9' is not a cell of this board");
    assert_eq!(
        error("1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 1-0-1"),
        "the record says 1-0-1, but wing-table-4p has 4 sides: a result gives each side's score, in turn order"
    );
    let unknown = one("[Variant \"triquetral-5p\"]\n\n*\n").replay().unwrap_err().to_string();
    assert!(unknown.starts_with("[Variant \"triquetral-5p\"]: unknown variant"), "{unknown}");
    let fen = one("[Variant \"wing-table-4p\"]\n[FEN \"x\"]\n\n*\n").replay().unwrap_err().to_string();
    assert!(fen.starts_with("[FEN \"x\"]: "), "{fen}");
}

#[test]
fn bad_multi_player_text_is_refused_by_line() {
    let cases = [
        ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 2-0-0-0\n", 3, "'2-0-0-0' is not a result: 2 is not a score"),
        ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 1/4-0-2/4-0\n", 3, "2/4 is not a score"),
        ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 1/7-0-0-0\n", 3, "1/7 is not a score"),
        (
            "[Variant \"wing-table-4p\"]\n[Result \"0-1-0-1\"]\n\n1-0-1-0\n",
            4,
            "the movetext ends with 1-0-1-0 but the Result tag says 0-1-0-1",
        ),
        ("[Variant \"wing-table-4p\"]\n[Result \"1-0\"]\n\n*\n", 4, "the movetext ends with * but the Result tag"),
        ("[Variant \"wing-table-4p\"]\n[Result \"won\"]\n", 3, "the Result tag says won: 'won' is not a result"),
        ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 {open\n", 3, "not closed"),
        ("1. 2e3-2e4 *\n", 1, "no [Variant"),
        ("[Variant \"wing-table-4p\"]\n\n99999999999. 2e3-2e4 *\n", 3, "too large"),
        ("[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 * 0-1-0-1\n", 3, "0-1-0-1 ends no game"),
    ];
    for (text, line, what) in cases {
        let e = parse_records(text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.what.contains(what), "{text:?}: {e}");
    }
    // A result only in the tag is the game's; neither: unfinished.
    let tagged = one("[Variant \"wing-table-4p\"]\n[Result \"1/2-1/2-1/2-1/2\"]\n\n1. 2e3-2e4\n");
    assert_eq!(tagged.result, Some(vec![Points::HALF; 4]));
    assert_eq!(one("[Variant \"triquetral-3p\"]\n").result, None);
    assert_eq!(one("[Variant \"triquetral-3p\"]\n\n1/3-1/3-1/3\n").result, Some(vec![Points(20); 3]));
}

#[test]
fn a_record_from_a_position_mid_round() {
    let v = four();
    // Two moves in: Black to move in round 1.
    let before = random_game(MultiPosition::start(v), 3, 2);
    let start = before.position().clone();
    let game = random_game(start.clone(), 5, 6);
    let r = Record::from_game(&game);
    assert_eq!(r.tag("SetUp"), Some("1"));
    assert_eq!(r.tag("FEN"), Some(format_multi_position(&start).as_str()));
    assert_eq!(r.first, (1, 2));
    let text = r.to_string();
    let numbers: Vec<String> = rounds(&text).into_iter().map(|(n, m)| format!("{n}{}", m.len())).collect();
    assert_eq!(numbers, ["1...2", "2.4"], "{text}");
    let back = one(&text);
    assert_eq!(back, r);
    assert_eq!(replay_in(v, &back).unwrap().position(), game.position());
    // Without round numbers the FEN says where the record begins.
    let (tags, movetext) = text.split_once("\n\n").unwrap();
    let bare: Vec<&str> = movetext.split_whitespace().filter(|w| !w.ends_with('.')).collect();
    let bare = one(&format!("{tags}\n\n{}\n", bare.join(" ")));
    assert_eq!(bare.first, (1, 2));
    assert_eq!(bare.to_string(), text);
}

/// The movetext's words, tags and comments left out.
fn movetext(text: &str) -> String {
    let body = &text[text.find("\n\n").expect("a tag section") + 2..];
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn resignations_are_written_where_they_happened() {
    let v = three();
    let first = |g: &MultiGame<Wide<4>>| g.position().legal_moves()[0];
    // Round 1: White moves, Blue resigns on its turn, Green moves. Round
    // 2: White moves, and resigns while Green is to move: Green wins.
    let mut game = MultiGame::new(MultiPosition::start(v));
    game.play(first(&game)).unwrap();
    game.resign(1).unwrap();
    game.play(first(&game)).unwrap();
    game.play(first(&game)).unwrap();
    game.resign(0).unwrap();
    let r = Record::from_game(&game);
    let m = |i: usize| format_multi_move(v, game.moves()[i]);
    let text = r.to_string();
    let expected = format!("1. {} Blue-resigns {} 2. {} White-resigns 0-0-1", m(0), m(1), m(2));
    assert_eq!(movetext(&text), expected, "{text}");
    assert_eq!(r.tag("Termination"), Some("resignation"));
    let back = one(&text);
    assert_eq!(back, r);
    assert_eq!(back.to_string(), text);
    let replayed = replay_in(v, &back).unwrap();
    assert_eq!(replayed.actions(), game.actions());
    assert_eq!(replayed.position(), game.position());
    assert_eq!(replayed.result().map(|o| o.end), Some(End::LastSide { side: 2 }));
    // Said to be unfinished, it is refused as other endings are.
    let mut open = back.clone();
    open.set_result(None);
    let e = replay_in(v, &open).unwrap_err().to_string();
    assert_eq!(e, "the record says *, but the game ended 0-0-1 (Green is the last side in)");

    // A resignation that begins a round is numbered with it, on its turn or not.
    for resigner in [0, 2] {
        let mut game = MultiGame::new(MultiPosition::start(v));
        for _ in 0..3 {
            game.play(first(&game)).unwrap();
        }
        game.resign(resigner).unwrap();
        for _ in 0..3 {
            game.play(first(&game)).unwrap();
        }
        let m = |i: usize| format_multi_move(v, game.moves()[i]);
        let name = v.sides()[resigner].name;
        let text = Record::from_game(&game).to_string();
        let expected = format!("1. {} {} {} 2. {name}-resigns {} {} 3. {} *", m(0), m(1), m(2), m(3), m(4), m(5));
        assert_eq!(movetext(&text), expected, "{text}");
        let back = one(&text);
        assert_eq!(back.to_string(), text);
        assert_eq!(replay_in(v, &back).unwrap().position(), game.position());
    }
}

#[test]
fn a_team_resignation_is_replayed_and_its_result_checked() {
    let v = four();
    let mut game = MultiGame::new(MultiPosition::start(v));
    game.play(game.position().legal_moves()[0]).unwrap();
    game.resign(1).unwrap();
    let r = Record::from_game(&game);
    let text = r.to_string();
    assert!(text.contains("[Result \"1-0-1-0\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
    assert!(movetext(&text).ends_with(" Red-resigns 1-0-1-0"), "{text}");
    let replayed = one(&text).replay().unwrap();
    assert_eq!(replayed.result(), game.outcome());
    // Read in any case; kept as written.
    let lower = text.replace("Red-resigns", "red-RESIGNS");
    assert_eq!(one(&lower).to_string(), lower);
    assert_eq!(one(&lower).replay().unwrap().result(), game.outcome());
    let head = "[Variant \"wing-table-4p\"]\n\n";
    let error = |movetext: &str| one(&format!("{head}{movetext}")).replay().unwrap_err().to_string();
    assert_eq!(error("1. Red-resigns 0-1-0-1"), "the record says 0-1-0-1, but the game ended 1-0-1-0 (Red resigns)");
    assert_eq!(error("1. Red-resigns *"), "the record says *, but the game ended 1-0-1-0 (Red resigns)");
    assert_eq!(
        error("1. 2e3-2e4 Red-resigns 2c8-2d8 1-0-1-0"),
        "round 1, Red, 2c8-2d8: the game was already over: 1-0-1-0 (Red resigns)"
    );
    assert_eq!(
        error("1. Red-resigns Blue-resigns 1-0-1-0"),
        "round 1, White, Blue-resigns: the game was already over: 1-0-1-0 (Red resigns)"
    );
}

#[test]
fn bad_resignations_are_refused_by_name_and_round() {
    let v = three();
    let head = "[Variant \"triquetral-3p\"]\n\n";
    let error = |movetext: &str| one(&format!("{head}{movetext}")).replay().unwrap_err().to_string();
    assert_eq!(
        error("1. 6f3-6f4 Purple-resigns *"),
        "round 1, Blue, Purple-resigns: Purple is not a side of triquetral-3p (its sides: White, Blue, Green)"
    );
    assert_eq!(
        error("1. 6f3-6f4 Black-resigns *"),
        "round 1, Blue, Black-resigns: Black is not a side of triquetral-3p (its sides: White, Blue, Green)"
    );
    assert_eq!(
        error("1. 6f3-6f4 Blue-resigns 3f6-4f6 2. blue-resigns *"),
        "round 2, White, blue-resigns: Blue is already out of the game"
    );
    // A move of the side that resigned.
    let game = one(&format!("{head}1. 6f3-6f4 Blue-resigns *")).replay().unwrap();
    let blue_move = MultiPosition::start(v)
        .play_copy(game.moves()[0])
        .legal_moves()
        .first()
        .map(|&m| format_multi_move(v, m))
        .unwrap();
    let e = error(&format!("1. 6f3-6f4 Blue-resigns {blue_move} *"));
    assert!(e.starts_with(&format!("round 1, Green, {blue_move}: ")), "{e}");
    // `-resigns` alone names no side: read as a move, and refused as one.
    assert!(error("1. -resigns *").starts_with("round 1, White, -resigns: "));
    // A record that does not replay past a bad resignation is still written.
    let text = format!("{head}1. 6f3-6f4 Purple-resigns 3f6-4f6 6g3-6g4 *\n");
    assert_eq!(one(&text).to_string(), text);
}

/// Random games with random resignations, comments and tags, in every
/// multi-player game: written, read back equal, written again
/// identically, and replayed to the same actions, position and outcome.
#[test]
fn records_with_resignations_round_trip() {
    struct Check(u64);
    impl MultiFn for Check {
        /// The resignations in the game.
        type Output = usize;
        fn call<S: Width>(self, v: &'static MultiVariant<S>) -> usize {
            let mut state = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
            let mut next = |n: usize| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % n as u64) as usize
            };
            let mut game = MultiGame::new(MultiPosition::start(v));
            let steps = next(80);
            while game.actions().len() < steps && game.outcome().is_none() {
                let sides_in = game.position().sides_in();
                // With teams a resignation ends the game: rarer there.
                if next(if v.teams() { 60 } else { 12 }) == 0 {
                    game.resign(sides_in[next(sides_in.len())]).unwrap();
                } else {
                    let legal = game.position().legal_moves();
                    game.play(legal[next(legal.len())]).unwrap();
                }
            }
            let mut r = Record::from_game(&game);
            for i in 0..r.moves.len() {
                if next(5) == 0 {
                    r.moves[i].comment = Some(format!("note {i}"));
                }
            }
            if next(3) == 0 {
                r.intro = Some("before".into());
            }
            let text = r.to_string();
            let back = one(&text);
            assert_eq!(back, r, "{text}");
            assert_eq!(back.to_string(), text);
            let replayed = replay_in(v, &back).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(replayed.actions(), game.actions(), "{text}");
            assert_eq!(replayed.position(), game.position(), "{text}");
            assert_eq!(replayed.result(), game.outcome(), "{text}");
            assert_eq!(Record::from_game(&replayed).to_string(), Record::from_game(&game).to_string());
            game.actions().iter().filter(|a| matches!(a, Action::Resign(_))).count()
        }
    }
    let mut resignations = 0;
    for seed in 0..40 {
        for id in MultiId::ALL {
            resignations += id.dispatch(Check(seed));
        }
    }
    assert!(resignations >= 40, "only {resignations} resignations");
}

#[test]
fn a_record_from_a_position_where_white_is_out() {
    let v = three();
    let long = find_game(v, 1500, |g| g.removed().first().is_some_and(|&(_, side)| side == 0));
    let at = long.removed()[0].0;
    let mut game = MultiGame::new(MultiPosition::start(v));
    for &m in &long.moves()[..at] {
        game.play(m).unwrap();
    }
    // White left the game; the next move is the first of a round.
    let start = game.position().clone();
    assert!(!start.is_in(0));
    let mut later = MultiGame::new(start.clone());
    for &m in &long.moves()[at..at + 5] {
        later.play(m).unwrap();
    }
    let r = Record::from_game(&later);
    let text = r.to_string();
    let round = start.fullmove_number();
    let shape: Vec<String> = rounds(&text).into_iter().map(|(n, m)| format!("{n}{}", m.len())).collect();
    let first = if start.side_to_move() == 1 { format!("{round}.2") } else { format!("{round}...1") };
    assert_eq!(shape[0], first, "{text}");
    let back = one(&text);
    assert_eq!(back.to_string(), text);
    assert_eq!(replay_in(v, &back).unwrap().position(), later.position());
}

#[test]
fn records_that_do_not_replay_are_still_written() {
    // An illegal move: numbered as far as the moves replay, then by turns.
    let text = "[Variant \"wing-table-4p\"]\n\n1. 2e3-2e4 2c8-2d8 2h10-2h9 2j5-2i5 2. 2e4-2e9 2c8-2c9 2h9-2h8 \
                2j5-2j6 3.\n2f3-2f4 *\n";
    assert_eq!(one(text).to_string(), text);
    // An unknown game: one round per side named in the tags.
    let text = "[Variant \"chess-for-three\"]\n[White \"?\"]\n[Black \"?\"]\n[Red \"?\"]\n\n1. a b c 2. d *\n";
    assert_eq!(one(text).to_string(), text);
}

#[test]
fn new_record_tags_and_variants_of_a_text() {
    let v = MultiVariant::<Wide<8>>::at_width(MultiId::Triquetral6p);
    let r = Record::new(v.id());
    let names: Vec<&str> = r.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "White", "Black", "Blue", "Red", "Green", "Yellow", "Result", "Variant"]
    );
    assert_eq!(
        r.to_string(),
        format!("{}\n*\n", r.tags.iter().map(|(k, v)| format!("[{k} \"{v}\"]\n")).collect::<String>())
    );
    let text = format!("{r}\n[Variant \"five-up\"]\n\n{{[Variant \"hidden\"]}} 1. Cc2 *\n");
    assert_eq!(crate::record_variants(&text), ["triquetral-6p", "five-up"]);
}
