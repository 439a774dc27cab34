//! Inputs that the fuzz targets (`fuzz/`, run by `scripts/fuzz.sh`) found to
//! crash a parser or break an invariant, kept so that the fix stays: each must
//! now be refused with a typed error (or, where it is valid, keep the
//! invariant the target checks).

use raum_notation::{
    FenError, format_multi_position, format_position, parse_multi_position, parse_position, parse_records,
};
use raum_rules::multi::{MultiId, MultiPosition, MultiVariant};
use raum_rules::{MultiFn, Variant, VariantFn, VariantId, Width};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Parses a position string of `id` and, when it parses, checks the
/// `position` target's round trip.
struct Parse<'a>(&'a str);

impl VariantFn for Parse<'_> {
    type Output = Result<(), FenError>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<(), FenError> {
        let pos = parse_position(v, self.0)?;
        let text = format_position(&pos);
        assert_eq!(parse_position(v, &text).as_ref(), Ok(&pos), "{text:?} parses back to the same position");
        Ok(())
    }
}

fn parse(id: VariantId, text: &str) -> Result<(), FenError> {
    id.dispatch(Parse(text))
}

/// `position` target: a run count so long that it saturated the rank's cell
/// count, then a piece. Adding one for the piece overflowed (a panic where
/// overflow is checked); unchecked, the count wrapped to 0 and the rank's
/// remaining pieces filled it again, so `18446744073709551615PPPPPP` was read
/// as a full rank `PPPPP`.
#[test]
fn a_huge_run_count_before_a_piece_is_a_cell_count_error() {
    let wrapped = "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|18446744073709551615PPPPPP|RWKGR w Kk - 0 1";
    assert!(matches!(parse(VariantId::FiveUp, wrapped), Err(FenError::CellCount { .. })), "{wrapped}");
    // The inputs AFL++ saved (less the target's variant byte), one per variant it hit.
    let found = [
        (
            VariantId::BetzaFlat,
            "rnbqcbnr|pppnp1pp|5p2|3p4|4P3|2N2N2|PPPP1PPP|R1BQCB1R/r18888888888888888888888bqcb1r|pppppppp|8|8|8|8|PPPPPPPP|R1BQCBNR/rnbqcbnr|pppppopp|7n|8|8|N7|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 4 5",
        ),
        (
            VariantId::Book3d,
            "rnbq222222222222222222222222kbnr|pppppppp|8|8|8|8|PPPPPPPP|1NBQKBNR/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|R7/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8\u{fffd}8 b - - +yz,-yz A2α,B2α,C2α,D2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 1 1",
        ),
        (
            VariantId::Pyramid,
            "rnbqeekbnr|pppppppppp|10|10|10|10|10|N9|PPPPPPPPPP|R1BQEEKBNR/8|8|8|8|8|8|8|8/6|6|6|6|6|66666666666666666666666K66666666/4|4|4|4/2|2 b KQkq -10|10|N9|PPPPPPPPPP|R1BQEEKBNR/ Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vg2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,V9,Vg99,Vfd9,Ve,Vh9,Vi9,Vj9 1 1",
        ),
    ];
    for (id, text) in found {
        assert!(parse(id, text).is_err(), "{id}: {text}");
    }
}

/// The same in the multi-player games' reader, which `protocol` found
/// (`position fen` with a run of `8`s, in Triquetral Chess for three): the
/// two-player reader's fix had not reached it.
struct HugeRun;

impl MultiFn for HugeRun {
    type Output = (String, Result<(), FenError>);
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
        let start = format_multi_position(&MultiPosition::start(v));
        let board = start.split(' ').next().expect("a board field");
        // The first empty rank (a bare run count) becomes a saturating run count and then a man.
        let (mut at, mut len) = (0, 0);
        for rank in board.split(['/', '|']) {
            if rank.parse::<u32>().is_ok() {
                len = rank.len();
                break;
            }
            at += rank.len() + 1;
        }
        assert!(len > 0, "an empty rank in {start}");
        let text = format!("{}18446744073709551615{}P{}", &start[..at], v.sides()[0].letter, &start[at + len..]);
        let result = parse_multi_position(v, &text).map(|_| ());
        (text, result)
    }
}

#[test]
fn a_huge_run_count_in_a_multi_player_position_is_a_cell_count_error() {
    for id in MultiId::ALL {
        let (text, result) = id.dispatch(HugeRun);
        assert!(matches!(result, Err(FenError::CellCount { .. })), "{id}: {text}: {result:?}");
    }
}

/// Reads a record text on another thread, so that a reader that loops forever
/// fails the test instead of hanging it.
fn read_records_within(text: &str, limit: Duration) -> Result<usize, String> {
    let (tx, rx) = channel();
    let owned = text.to_string();
    std::thread::spawn(move || {
        let _ = tx.send(parse_records(&owned).map(|r| r.len()).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(limit).unwrap_or_else(|_| panic!("reading {text:?} did not end within {limit:?}"))
}

/// `record` target, AFL++ hang: a `}` with no `{` before it ended a token at
/// once, so the reader took an empty token and never moved past it.
#[test]
fn a_stray_closing_brace_is_an_error_not_an_endless_loop() {
    let limit = Duration::from_secs(20);
    let stray = "[Variant \"five-up\"]\n\n1. Ec2-Ec4 } *\n";
    let e = read_records_within(stray, limit).unwrap_err();
    assert!(e.contains("line 3") && e.contains("}"), "{e}");
    // The input AFL++ saved (less the variant byte): the seed's opening `{`
    // mutated into bytes that are not UTF-8, read as U+FFFD.
    let found = "[Event \"fuzz seed\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"engine\"]\n[Black \"greedy\"]\n[Result \"*\"]\n[Variant \"betza-flat\"]\n[Opening \"betza-flat sampler\"]\n\n\u{fffd}a comment before the moves} 1. 1b1-1c3 1d7-1d5 2. 1e2-1e4 1f7-1f6 3. 1g1-1f3 2b8-1d7 4. 2b1-3a3 2g8-3h6 {+0.12/3} *\n";
    assert!(read_records_within(found, limit).is_err());
    // A closing brace inside a comment is still the comment's end.
    assert_eq!(read_records_within("[Variant \"five-up\"]\n\n{ok} 1. Ec2-Ec4 *\n", limit), Ok(1));
}

/// The `record` target's invariant: each record read writes to text that
/// reads back as one record and writes identically.
fn assert_round_trips(text: &str) {
    let records = parse_records(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    for r in records {
        let written = r.to_string();
        let back = parse_records(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(back.len(), 1, "{written:?}");
        assert_eq!(back[0].to_string(), written);
    }
}

/// `record` target: a `Result` tag that is no result, in a game whose
/// movetext has no result token, was kept and written beside `*`, which the
/// reader then refused ("the movetext ends with * but the Result tag says J").
#[test]
fn a_result_tag_that_is_no_result_is_refused() {
    let e = parse_records("[Variant \"five-up\"]\n[Result \"J\"]\n\n1. Ec2-Ec4 J\n").unwrap_err().to_string();
    assert!(e.contains("the Result tag says J"), "{e}");
    let found = "[Event \"fuzz seed\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"ne\"]\n[Black \"greedy\"]\n[Result \"J\"]\n[Variant \"betza-flat\"]\n[Opening \"betza-flat sampler\"]\n\n{a comment before the moves} 1. 1b1-1c3 1d7-1d5 2. 1e2-1e4 1f7-1f6 3. 1g1-1f3 2b8-1d7 4. 2b1-3a3 2g8-3h6 {+0.12/3} J\n";
    assert!(parse_records(found).is_err());
    // A result in the tag alone still ends the game with it.
    assert_round_trips("[Variant \"five-up\"]\n[Result \"1-0\"]\n\n1. Ec2-Ec4\n");
}

/// `record` target: `(` glued to a move number (`1.(1. Cc3-Dc3 $1)`) took
/// everything up to the next `)` anywhere ahead, spaces and lines included, as
/// one move; written back with its space it read as a variation, and the move
/// was gone.
#[test]
fn a_variation_glued_to_a_move_number_is_a_variation() {
    let found = "[Variant \"five-up\"]\n[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"q4|5|5|5|5/5|2k2|5|5|5/5|5|2K2|5|5/5|5|5|5|5/5|5|5|5|5 w - - 0 1\"]\n[Result \"*\"]\n\n1. Cc3-Cc2 1.(1. Cc3-Dc3 $1) 1... Bc4-Cc4 ; a rest comment\n*\n";
    let r = &parse_records(found).unwrap()[0];
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["Cc3-Cc2", "Bc4-Cc4"]);
    assert_round_trips(found);
    // Glued to a number, a ( opens a variation even when a ) closes it within
    // the word: a move that starts with ( would read as a variation once written.
    let r = &parse_records("[Variant \"five-up\"]\n\n1. Cc2 Cd4 2.(Cc2)xCd3 *\n").unwrap()[0];
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["Cc2", "Cd4", "xCd3"]);
    assert!(parse_records("[Variant \"five-up\"]\n\n4... N-Cb5 5.(P(Dd2)-Dd3 R-De5 *\n").is_err());
    // A disambiguating cell in parentheses is still part of its move.
    let r = &parse_records("[Variant \"five-up\"]\n\n1. P(Dd2)-Dd3 *\n").unwrap()[0];
    assert_eq!(r.moves[0].text, "P(Dd2)-Dd3");
}

/// `record` target: a move token beginning with `%` mid-line was kept; the
/// writer's wrapping could put it at the start of a line, where `%` begins an
/// escape line and the rest of the game was lost.
#[test]
fn a_token_starting_with_percent_is_refused() {
    let e = parse_records("[Variant \"five-up\"]\n\n1. Ec2-Ec4 %b8\n").unwrap_err().to_string();
    assert!(e.contains("'%b8'"), "{e}");
    let found = "[Ev\"fuzz seed\"]\n[Variant \"betza-upright\"]\n\n{a comment before the moves} 1. 1b1-1c3 1d7-1d5 2. 1e2-1e4 1f7-1f6 3. 1g1-1f3 %b8-1d7 4. 2b1-3a3 2g8-3h6 {+0.12/3} *\n";
    assert!(parse_records(found).is_err());
    // An escape line at the start of a line is still skipped.
    assert_round_trips("[Variant \"five-up\"]\n\n1. Ec2-Ec4\n%anything at all\n*\n");
}

/// The writer counted moves past `u32::MAX` (a panic where overflow is checked).
#[test]
fn a_record_numbered_from_the_largest_move_number_writes_back() {
    assert_round_trips("[Variant \"five-up\"]\n\n4294967295. Ec2-Ec4 Ec4-Ec3 Dc2-Cc2 Bc4-Cc4 *\n");
}
