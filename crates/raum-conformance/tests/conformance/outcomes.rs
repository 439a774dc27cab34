//! Game endings: checkmate, stalemate, the 50-move rule, threefold repetition
//! and bare kings.

use raum_notation::{parse_move, parse_position};
use raum_rules::{Cells, DrawReason, Game, Outcome, Position, Variant, VariantId};

fn five_up(fen: &str) -> Position<Cells> {
    parse_position(Variant::get(VariantId::FiveUp), fen).expect("valid position")
}

fn play(game: &mut Game<Cells>, moves: &str) {
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
