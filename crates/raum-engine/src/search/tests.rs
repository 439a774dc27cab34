//! Checks of the search's shortcuts against the rules' generator.

use super::score::*;
use super::worker::Worker;
use super::*;
use raum_rules::{MoveKind, Position};
use raum_rules::{Variant, VariantFn, VariantId};

/// Shared state for a worker that only generates or tests moves in `p`.
fn test_shared<'a, S: Width>(
    tt: &'a Tt,
    stop: &'a AtomicBool,
    id: VariantId,
    limits: &Limits,
    p: &Position<S>,
) -> Shared<'a, S> {
    Shared {
        tt,
        et: EvalTables::get(id),
        features: Features::default(),
        params: SearchParams::default(),
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start: Instant::now(),
        node_limit: None,
        plan: TimePlan::new(limits, p.side_to_move()),
    }
}

/// A xorshift step: the tests' random games.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// The quiescence generator, with its legality tests, against the rules'
/// legal moves in random games of one variant: the same captures (en
/// passant aside) and best-kind promotions. Returns the positions checked.
struct NoisyMoves<'a>(&'a mut u64);
impl VariantFn for NoisyMoves<'_> {
    type Output = usize;
    fn call<S: Width>(self, v: &'static Variant<S>) -> usize {
        let (seed, id) = (self.0, v.id());
        let tt = Tt::new(1);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let mut checked = 0;
        for _game in 0..60 {
            let mut game = Game::new(Position::start(v));
            for _ply in 0..150 {
                let p = *game.position();
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !p.is_check() {
                    let shared = test_shared(&tt, &stop, id, &limits, &p);
                    let w = Worker::new(&shared, &game, true);
                    let mut buf = Vec::new();
                    let unsure = w.noisy_moves(&mut buf, None);
                    let us = p.side_to_move();
                    let mut got: Vec<Move> = Vec::new();
                    for s in &buf {
                        let m = s.mv;
                        if m.from() == p.king_cell(us) || unsure.has(m.from()) {
                            let after = p.play_copy(m);
                            if after.king_attacked(us) {
                                assert!(!p.is_legal(m));
                                continue;
                            }
                        }
                        assert!(p.is_legal(m), "{m:?} in {:?}", p);
                        got.push(m);
                    }
                    let best = w.et.best_promotion();
                    let mut want: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| {
                            m.kind() == MoveKind::Normal
                                && (m.promotion() == best && best.is_some()
                                    || m.promotion().is_none()
                                        && p.color_cells(p.side_to_move().opponent()).has(m.to()))
                        })
                        .collect();
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "{:?}", p);
                    checked += 1;
                }
                game.play(moves[(next(seed) % moves.len() as u64) as usize]).unwrap();
            }
        }
        checked
    }
}

#[test]
fn noisy_moves_are_the_legal_captures_and_promotions() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let checked: usize = VariantId::ALL.iter().map(|id| id.dispatch(NoisyMoves(&mut seed))).sum();
    assert!(checked > 5000, "{checked}");
}

/// The hash-move test without the generator against the generator, for
/// the legal moves and for moves borrowed from other positions, in random
/// games of one variant. Returns the moves decided and how many of them
/// were illegal.
struct QuickLegal<'a>(&'a mut u64);
impl VariantFn for QuickLegal<'_> {
    type Output = (usize, usize);
    fn call<S: Width>(self, v: &'static Variant<S>) -> (usize, usize) {
        let (seed, id) = (self.0, v.id());
        let tt = Tt::new(1);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let (mut decided, mut illegal) = (0, 0);
        for _game in 0..20 {
            let mut game = Game::new(Position::start(v));
            let mut earlier: Vec<Move> = Vec::new();
            for _ply in 0..120 {
                let p = *game.position();
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let shared = test_shared(&tt, &stop, id, &limits, &p);
                let w = Worker::new(&shared, &game, true);
                // `is_legal` without generating again for every move tried.
                let mut legal: Vec<Move> = moves.iter().copied().collect();
                legal.sort_unstable();
                for &m in moves.iter().chain(earlier.iter()) {
                    if let Some(ok) = w.quick_legal(m) {
                        let is_legal = legal.binary_search(&m).is_ok();
                        assert_eq!(ok, is_legal, "{m:?} in {}", raum_notation::format_position(&p));
                        decided += 1;
                        illegal += usize::from(!ok);
                    }
                }
                earlier.extend(moves.iter().copied());
                if earlier.len() > 400 {
                    earlier.drain(..200);
                }
                game.play(moves[(next(seed) % moves.len() as u64) as usize]).unwrap();
            }
        }
        (decided, illegal)
    }
}

#[test]
fn quick_legality_agrees_with_the_generator() {
    let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
    let (mut decided, mut illegal) = (0, 0);
    for id in VariantId::ALL {
        let (d, i) = id.dispatch(QuickLegal(&mut seed));
        decided += d;
        illegal += i;
    }
    assert!(decided > 100_000 && illegal > 10_000, "{decided} {illegal}");
}

#[test]
fn mate_scores_convert() {
    assert_eq!(to_score(MATE - 1), Score::Mate(1));
    assert_eq!(to_score(MATE - 3), Score::Mate(2));
    assert_eq!(to_score(-MATE), Score::Mate(0));
    assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
    assert_eq!(to_score(-MATE + 4), Score::Mate(-2));
    assert_eq!(to_score(123), Score::Cp(123));
    for ply in [0, 5, 40] {
        for s in [MATE - 7, -MATE + 9, 250] {
            assert_eq!(score_from_tt(score_to_tt(s, ply), ply), s);
        }
    }
}
