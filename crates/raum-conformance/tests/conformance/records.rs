//! Game records in every variant: a record of a random game, with tags of
//! every kind (unknown ones included), comments and any result, writes, reads
//! back equal, writes again identically, and replays to the game's position.
//! The same for the multi-player games, with sides resigning at random.

use proptest::prelude::*;
use raum_conformance::rng::Rng;
use raum_notation::{Record, RecordResult, format_multi_position, format_position, parse_records, write_records};
use raum_rules::multi::{MultiGame, MultiId, MultiPosition, MultiVariant};
use raum_rules::{Game, MultiFn, Points, Position, Variant, VariantFn, VariantId, Width};

/// Words for comments and tag values, awkward ones included.
const WORDS: &[&str] =
    &["+0.35/12", "-1.00/3", "mate", "Raum", "\"quoted\"", "back\\slash", "E2α", "(x)", ";semi", "[t]", "ünï"];

fn words(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect::<Vec<_>>().join(" ")
}

/// A random game of `v` (from a random opening position half of the time, so
/// that records with `FEN` tags are covered) as a record, with random extras.
fn random_record<S: Width>(v: &'static Variant<S>, seed: u64, plies: usize) -> (Record, Game<S>) {
    let mut rng = Rng::new(seed);
    let mut start = Position::start(v);
    if rng.below(2) == 1 {
        for _ in 0..1 + rng.below(7) {
            let moves = start.legal_moves();
            if moves.is_empty() || start.outcome().is_some() {
                break;
            }
            start.play(moves[rng.below(moves.len())]);
        }
    }
    let mut game = Game::new(start);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    let mut r = Record::from_game(&game);
    r.set_tag("White", &words(&mut rng, 2));
    r.set_tag("Date", "2026.11.25");
    r.set_tag("Annotator", &words(&mut rng, 3));
    if game.outcome().is_none() {
        r.set_result(RecordResult::ALL[rng.below(RecordResult::ALL.len())].scores());
    }
    if rng.below(3) == 0 {
        let n = 1 + rng.below(4);
        r.intro = Some(words(&mut rng, n));
    }
    for m in &mut r.moves {
        if rng.below(4) == 0 {
            let n = 1 + rng.below(12);
            m.comment = Some(words(&mut rng, n));
        }
    }
    (r, game)
}

struct RoundTrip {
    seed: u64,
    plies: usize,
}

impl VariantFn for RoundTrip {
    type Output = Result<(), TestCaseError>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let (record, game) = random_record(v, self.seed, self.plies);
        let text = record.to_string();
        let back = parse_records(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0], &record, "read back differently:\n{}", text);
        prop_assert_eq!(back[0].to_string(), text.clone());
        let replayed: Game<S> = back[0]
            .replay()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?
            .try_into()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(format_position(replayed.position()), format_position(game.position()));
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn records_round_trip_in_every_variant(seed in any::<u64>(), plies in 0usize..120) {
        for id in VariantId::ALL {
            id.dispatch(RoundTrip { seed, plies })?;
        }
    }
}

/// Found by the property above: a record with no moves from a position with
/// Black to move at move 4 read back as starting with White's move 1.
#[test]
fn a_record_without_moves_keeps_its_start() {
    for id in VariantId::ALL {
        id.dispatch(RoundTrip { seed: 492572817719905, plies: 0 }).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

/// Several games of different variants in one file read back in order.
#[test]
fn a_file_of_several_variants() {
    struct One(u64);
    impl VariantFn for One {
        type Output = Record;
        fn call<S: Width>(self, v: &'static Variant<S>) -> Record {
            random_record(v, self.0, 40).0
        }
    }
    let records: Vec<Record> = VariantId::ALL.iter().enumerate().map(|(i, id)| id.dispatch(One(i as u64))).collect();
    let text = write_records(&records);
    assert_eq!(parse_records(&text).unwrap(), records);
    for (r, id) in records.iter().zip(VariantId::ALL) {
        assert_eq!(r.variant().unwrap(), id.into());
    }
}

/// A random game of a multi-player game `v` in which, now and then, a side
/// still in resigns (on its turn or not; with teams that ends the game), as a
/// record with random comments and tags, and a result where the rules give none.
fn random_multi_record<S: Width>(v: &'static MultiVariant<S>, seed: u64, actions: usize) -> (Record, MultiGame<S>) {
    let mut rng = Rng::new(seed);
    let mut game = MultiGame::new(MultiPosition::start(v));
    // Resignations are rarer with teams, where the first ends the game.
    let odds = if v.teams() { 80 } else { 15 };
    while game.actions().len() < actions && game.outcome().is_none() {
        if rng.below(odds) == 0 {
            let sides_in = game.position().sides_in();
            game.resign(sides_in[rng.below(sides_in.len())]).unwrap();
        } else {
            let moves = game.position().legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
    let mut r = Record::from_game(&game);
    r.set_tag(v.sides()[rng.below(v.sides().len())].name, &words(&mut rng, 2));
    r.set_tag("Annotator", &words(&mut rng, 3));
    if game.outcome().is_none() && rng.below(3) == 0 {
        let n = v.sides().len();
        r.set_result(Some((0..n).map(|s| if s == 0 { Points::ONE } else { Points::ZERO }).collect()));
    }
    if rng.below(3) == 0 {
        let n = 1 + rng.below(4);
        r.intro = Some(words(&mut rng, n));
    }
    for m in &mut r.moves {
        if rng.below(4) == 0 {
            let n = 1 + rng.below(12);
            m.comment = Some(words(&mut rng, n));
        }
    }
    (r, game)
}

struct MultiRoundTrip {
    seed: u64,
    actions: usize,
}

impl MultiFn for MultiRoundTrip {
    type Output = Result<(), TestCaseError>;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
        let (record, game) = random_multi_record(v, self.seed, self.actions);
        let text = record.to_string();
        let back = parse_records(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(&back[0], &record, "read back differently:\n{}", text);
        prop_assert_eq!(back[0].to_string(), text.clone());
        let replayed: MultiGame<S> = back[0]
            .replay()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?
            .try_into()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replayed.actions(), game.actions(), "{}", text);
        prop_assert_eq!(format_multi_position(replayed.position()), format_multi_position(game.position()));
        prop_assert_eq!(replayed.outcome(), game.outcome());
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn multi_player_records_with_resignations_round_trip(seed in any::<u64>(), actions in 0usize..150) {
        for id in MultiId::ALL {
            id.dispatch(MultiRoundTrip { seed, actions })?;
        }
    }
}
