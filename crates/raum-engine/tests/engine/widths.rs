//! The engine is one code for every cell-set width. Five Up and Raumschach,
//! built at the wide widths (`Wide<4>`, `Wide<8>`) as well as at their own
//! (`u128`), must evaluate and search identically: the same scores, moves and
//! node counts. This covers the wide instantiations of evaluation, search,
//! quiescence, move ordering and tuning before any wide variant exists.

use raum_bitboard::Wide;
use raum_engine::tune::{resolve, white_eval};
use raum_engine::{Engine, EvalParams, EvalTables, Limits, Score};
use raum_notation::{format_move, format_position, parse_position};
use raum_rules::{CellWidth, Game, Position, Variant, VariantId, Width};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Variant `id` built at width `S` (a test may build a board wider than it needs).
fn at<S: Width>(id: VariantId) -> &'static Variant<S> {
    let spec = Variant::get(id).spec().clone();
    Box::leak(Box::new(Variant::build(spec).unwrap_or_else(|e| panic!("{id}: {e}"))))
}

/// What a search reports, in width-free terms.
#[derive(Debug, PartialEq, Eq)]
struct Found {
    nodes: u64,
    depth: u32,
    score: Score,
    pv: Vec<String>,
}

fn search<S: Width>(v: &'static Variant<S>, fen: &str, limits: &Limits) -> Found {
    let mut engine = Engine::new(16, 1);
    // The built-in terms, compiled at this width (the built-in cache holds
    // each variant at its own width only).
    engine.set_eval_params(v, EvalParams::for_variant(v.id()));
    let pos = parse_position(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let r = engine.search(&Game::new(pos), limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
    Found {
        nodes: r.info.nodes,
        depth: r.info.depth,
        score: r.info.score,
        pv: r.info.pv.iter().map(|&m| format_move(v, m)).collect(),
    }
}

const POSITIONS: &[(VariantId, &str)] = &[
    (
        VariantId::FiveUp,
        "rwkgr|pppp1|5|5|5/2qn1|p1ppp|1p2p|5|5/2n2|5|5|3P1|5/2b2|1B3|1b2P|PPP1P|1BQN1/5|P4|5|1PPP1|RWKGR w Kk - 0 6",
    ),
    (
        VariantId::FiveUp,
        "rwk2|ppq2|5|5|4B/5|2pgp|ppnpp|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PP1GP|3N1/2Q2|P4|3W1|1P1P1|R1K2 w Kk Ad3@Bd3 0 18",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|PNPPP|B1QBU/5|3p1|5|U4|5/ub1ub|pppqp|5|3n1|5/r1k1r|ppppp|2n2|5|5 w - - 6 6",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B3U/3b1|3p1|5|4P|2B2/ub1u1|p2pp|np3|5|5/r1k1r|p1pp1|1p3|5|5 w - - 2 18",
    ),
];

#[test]
fn searches_are_the_same_at_every_width() {
    let limits = Limits { depth: Some(5), ..Limits::default() };
    for &(id, fen) in POSITIONS {
        let narrow = search(Variant::get(id), fen, &limits);
        assert!(narrow.nodes > 1000, "{id} {fen}: {narrow:?}");
        assert_eq!(search(at::<Wide<4>>(id), fen, &limits), narrow, "{id} {fen} at 256 cells");
        assert_eq!(search(at::<Wide<8>>(id), fen, &limits), narrow, "{id} {fen} at 512 cells");
    }
}

/// Positions of a random game of `v` (seeded), as position strings.
fn random_game<S: Width>(v: &'static Variant<S>, seed: &mut u64, plies: usize) -> Vec<String> {
    let mut pos = Position::start(v);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        out.push(format_position(&pos));
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        pos.play(moves[(*seed % moves.len() as u64) as usize]);
    }
    out
}

/// Static evaluation of `fens` at width `S`, and of every tenth the tuner's
/// quiescence resolution (a search of captures, too slow for all).
fn evaluations<S: Width>(v: &'static Variant<S>, fens: &[String]) -> Vec<(i32, Option<String>)> {
    let tables = EvalTables::new(v, EvalParams::for_variant(v.id()));
    fens.iter()
        .enumerate()
        .map(|(i, fen)| {
            let pos = parse_position(v, fen).expect("a position of the game");
            let resolved = (i % 10 == 0).then(|| format_position(&resolve(&tables, &pos)));
            (white_eval(&tables, &pos), resolved)
        })
        .collect()
}

#[test]
fn evaluation_is_the_same_at_every_width() {
    let mut seed = 0x5EED_CE11_5E75_0001u64;
    for id in VariantId::ALL.into_iter().filter(|id| id.width() == CellWidth::W128) {
        let fens: Vec<String> = (0..4).flat_map(|_| random_game(Variant::get(id), &mut seed, 150)).collect();
        assert!(fens.len() > 100, "{id}");
        let narrow = evaluations(Variant::get(id), &fens);
        assert_eq!(evaluations(at::<Wide<4>>(id), &fens), narrow, "{id} at 256 cells");
        assert_eq!(evaluations(at::<Wide<8>>(id), &fens), narrow, "{id} at 512 cells");
    }
}
