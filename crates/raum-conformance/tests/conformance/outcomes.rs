//! Game endings: checkmate, stalemate (a draw, or on Savard's boards 3/5 to
//! the side that stalemates and 2/5 to the other), the 50-move rule,
//! threefold repetition and bare kings.

use raum_bitboard::Wide;
use raum_notation::{Record, RecordResult, ReplayError, parse_move, parse_position, parse_records};
use raum_rules::{Cells, Color, DrawReason, Game, Outcome, Points, Position, Variant, VariantId};

fn five_up(fen: &str) -> Position<Cells> {
    parse_position(Variant::get(VariantId::FiveUp), fen).expect("valid position")
}

fn play<S: raum_rules::Width>(game: &mut Game<S>, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = parse_move(game.position(), m).unwrap_or_else(|e| panic!("{m}: {e}"));
        game.play(mv).expect("legal");
    }
}

#[test]
fn checkmate_in_the_seed_game() {
    let mut game = Game::new(Position::start(Variant::get(VariantId::FiveUp)));
    play(&mut game, "P-Cc2 P-Cc4 B-Ca1 BxEb2");
    assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: raum_rules::Color::Black }));
}

#[test]
fn stalemate_is_a_draw() {
    // White's king on Ea1 may step to Eb1, Ea2 or Da1 (all covered by the queen on
    // Db2) or capture the queen by its 3D-diagonal step (but Black's king guards it).
    let pos = five_up("5|5|5|5|5/5|5|5|5|5/5|5|2k2|5|5/5|5|5|1q3|5/5|5|5|5|K4 w - - 0 1");
    assert!(!pos.is_check());
    assert_eq!(pos.count_legal(), 0);
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    // Without the guard, the king takes the queen: no stalemate.
    let pos = five_up("k4|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|1q3|5/5|5|5|5|K4 w - - 0 1");
    assert_eq!(pos.legal_moves().len(), 1);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn fifty_move_rule() {
    // 99 plies without capture or pawn move: one more quiet move draws.
    let pos = five_up("4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|R4/5|5|5|5|4K w - - 99 80");
    assert_eq!(pos.outcome(), None);
    let mut game = Game::new(pos);
    play(&mut game, "Da1-Da2");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    // A capture or pawn move resets the clock.
    let pos = five_up("4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|P4|5|R4/5|5|5|5|4K w - - 99 80");
    let mut game = Game::new(pos);
    play(&mut game, "Da3-Da4");
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn threefold_repetition() {
    let mut game = Game::new(Position::start(Variant::get(VariantId::FiveUp)));
    let shuffle = "N-Bc1 N-Dc5 N-Dd1 N-Bd5";
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    play(&mut game, shuffle);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    // Taking a move back undoes the draw.
    assert!(game.undo());
    assert_eq!(game.outcome(), None);
}

#[test]
fn bare_kings() {
    let pos = five_up("4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|4K w - - 0 1");
    assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::BareKings)));
    // King takes the last other piece.
    let pos = five_up("4k|5|5|5|5/5|5|5|5|5/5|5|5|5|5/5|5|5|5|4r/5|5|5|5|4K w - - 0 1");
    let mut game = Game::new(pos);
    play(&mut game, "Ee1-De1");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::BareKings)));
}

#[test]
fn raumschach_mate_and_no_castling() {
    let v = Variant::get(VariantId::Raumschach);
    let pos = Position::start(v);
    assert!(!v.has_castling());
    assert!(!v.has_double_steps());
    assert_eq!(pos.castling_rights(), 0);
    // Rights or en passant in a Raumschach position string are rejected.
    let fen = raum_notation::format_position(&pos).replace(" w - - ", " w Kk - ");
    assert!(parse_position(v, &fen).is_err());
}

/// The Wing Table (156 cells).
fn wing_table(fen: &str) -> Position<Wide<4>> {
    parse_position(Variant::<Wide<4>>::at_width(VariantId::WingTable), fen).expect("valid position")
}

/// Wing Table: White's rook on 1c6 may take Black's queen on 1c2; then
/// Black's king in its wing corner (1b12) has no move and is not in check
/// (White's king on 2b10 covers 1b11, 1c11, 2b11 and 2c11, the rook 1c12).
const WHITE_STALEMATES: &str = "k3|4|4|6|6|6|2R3|6|6|4|1q2|4/4|K3|6|6|6|6|6|6|4|4/4|6|6|6|6|6|6|4 w - - 0 1";
/// The same, Black's: every man turned about the board's vertical axis,
/// (file, rank) to (f - file, 13 - rank), colours swapped; 1d7 takes 1d11.
const BLACK_STALEMATES: &str = "4|2Q1|4|6|6|3r2|6|6|6|4|4|3K/4|4|6|6|6|6|6|6|3k|4/4|6|6|6|6|6|6|4 b - - 0 1";

#[test]
fn savard_stalemate_scores_three_fifths() {
    for (fen, take, winner) in
        [(WHITE_STALEMATES, "1c6-1c2", Color::White), (BLACK_STALEMATES, "1d7-1d11", Color::Black)]
    {
        let before = wing_table(fen);
        assert_eq!(before.outcome(), None);
        let mut game = Game::new(before);
        play(&mut game, take);
        let pos = game.position();
        assert!(!pos.is_check() && pos.count_legal() == 0, "{fen}");
        let o = pos.outcome().expect("the game is over");
        assert_eq!(o, Outcome::Stalemate { winner });
        assert_eq!(game.outcome(), Some(o));
        assert_eq!(o.winner(), Some(winner));
        let loser = winner.opponent();
        assert_eq!((o.points(winner), o.points(loser)), (Points::THREE_FIFTHS, Points::TWO_FIFTHS));
        assert_eq!((o.points(winner).to_string(), o.points(loser).to_string()), ("3/5".into(), "2/5".into()));
        assert_eq!((o.points(winner).as_f64(), o.points(loser).as_f64()), (0.6, 0.4));
        assert_eq!(o.points(Color::White).0 + o.points(Color::Black).0, Points::ONE.0, "a point shared");
        let said = if winner == Color::White { "3/5-2/5 (White stalemates)" } else { "2/5-3/5 (Black stalemates)" };
        assert_eq!(o.to_string(), said);
    }
    // Where stalemate is a draw, each side has half a point.
    let drawn = Outcome::Draw(DrawReason::Stalemate);
    assert_eq!((drawn.points(Color::White), drawn.points(Color::Black)), (Points::HALF, Points::HALF));
    assert_eq!(drawn.winner(), None);
}

#[test]
fn savard_stalemate_in_a_record() {
    for (fen, take, result) in [
        (WHITE_STALEMATES, "1c6-1c2", RecordResult::WhiteStalemates),
        (BLACK_STALEMATES, "1d7-1d11", RecordResult::BlackStalemates),
    ] {
        // A record made from the game says the score, and reads back and replays to it.
        let mut game = Game::new(wing_table(fen));
        play(&mut game, take);
        let record = Record::from_game(&game);
        assert_eq!(record.result, result.scores());
        assert_eq!(record.tag("Result"), Some(result.as_str()));
        assert_eq!(record.tag("Termination"), Some("stalemate"));
        let text = record.to_string();
        assert!(text.trim_end().ends_with(result.as_str()), "{text}");
        let back = &parse_records(&text).expect("reads back")[0];
        assert_eq!(back.result, result.scores());
        let replayed: Game<Wide<4>> = back.replay().expect("replays").try_into().expect("a wing-table game");
        assert_eq!(replayed.outcome(), game.outcome());
        // Written by hand, in coordinate notation.
        let number = if result == RecordResult::WhiteStalemates { "1." } else { "1..." };
        let by_hand = |said: &str| {
            format!(
                "[Variant \"wing-table\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"{said}\"]\n\n{number} {take} {said}\n"
            )
        };
        let r = &parse_records(&by_hand(result.as_str())).expect("reads")[0];
        assert_eq!(r.result, result.scores());
        assert!(r.replay().is_ok());
        // Any other result contradicts the rules, a draw above all.
        for said in RecordResult::ALL.into_iter().filter(|&s| s != result && s != RecordResult::Unfinished) {
            let r = &parse_records(&by_hand(said.as_str())).expect("reads")[0];
            match r.replay() {
                Err(ReplayError::Result { said: s, why }) => {
                    assert_eq!(s, said.as_str());
                    assert!(why.contains("is stalemated"), "{why}");
                }
                other => panic!("{fen}: a record claiming {said} replays: {other:?}"),
            }
        }
    }
}
