//! Texel-style tuning of [`EvalParams`] on positions from finished games.
//!
//! - [`param_names`], [`to_vector`], [`apply`]: the parameters as a flat vector
//!   of integers (piece values, mobility weights, pawn advancement by distance
//!   `1..`, king-zone attack, tempo), in that order.
//! - [`samples_from_game`]: positions of one game with its result, skipping the
//!   opening plies, positions in check and positions just after a capture
//!   (a cheap stand-in for "quiet").
//! - [`texel_error`]: the mean squared error between each game's result (1,
//!   0.5, 0 for White) and `1 / (1 + 10^(-k·eval/400))`, `eval` being the static
//!   evaluation from White's point of view; [`fit_k`] picks `k` for the
//!   starting parameters; [`optimise`] is Texel's local search, within
//!   [`bounds`] (the pawn's value fixed as the scale, no negative piece value,
//!   mobility weight or king-zone weight).
//!
//! The evaluation tables are compiled once per candidate parameter set, not
//! per position.

use crate::eval::{EvalParams, EvalTables};
use raum_rules::{Color, Move, MoveKind, Position, Width};

/// A training position: the position and the game's result for White
/// (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug)]
pub struct Sample<S: Width> {
    pub pos: Position<S>,
    pub result: f64,
}

/// The name of each entry of [`to_vector`] for `p`'s shape.
pub fn param_names(p: &EvalParams) -> Vec<String> {
    let mut names = Vec::new();
    names.extend(p.piece_values.iter().map(|(l, _)| format!("value_{l}")));
    names.extend(p.mobility.iter().map(|(l, _)| format!("mobility_{l}")));
    names.extend((1..p.pawn_advance.len()).map(|d| format!("pawn_advance_{d}")));
    names.push("king_zone_attack".to_string());
    names.push("tempo".to_string());
    names
}

/// The tunable integers of `p` (`pawn_advance[0]`, unused, is left out).
pub fn to_vector(p: &EvalParams) -> Vec<i32> {
    let mut v = Vec::new();
    v.extend(p.piece_values.iter().map(|&(_, x)| x));
    v.extend(p.mobility.iter().map(|&(_, x)| x));
    v.extend(p.pawn_advance.iter().skip(1).copied());
    v.push(p.king_zone_attack);
    v.push(p.tempo);
    v
}

/// `shape` with its tunable integers replaced by `values` (as [`to_vector`] orders them).
///
/// # Panics
/// If `values` has not exactly as many entries as `to_vector(shape)`.
pub fn apply(shape: &EvalParams, values: &[i32]) -> EvalParams {
    assert_eq!(values.len(), to_vector(shape).len(), "parameter vector length");
    let mut p = shape.clone();
    let mut it = values.iter().copied();
    for e in &mut p.piece_values {
        e.1 = it.next().unwrap_or(0);
    }
    for e in &mut p.mobility {
        e.1 = it.next().unwrap_or(0);
    }
    for e in p.pawn_advance.iter_mut().skip(1) {
        *e = it.next().unwrap_or(0);
    }
    p.king_zone_attack = it.next().unwrap_or(0);
    p.tempo = it.next().unwrap_or(0);
    p
}

/// The parameters as `name = value` lines, in [`param_names`]' order: the
/// form [`parse_listing`] reads back.
pub fn listing(p: &EvalParams) -> String {
    param_names(p).iter().zip(to_vector(p)).map(|(n, x)| format!("{n} = {x}\n")).collect()
}

/// A line of a parameter listing that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ListingError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

/// Reads `name = value` lines (as [`listing`] and `raum tune --out` write them)
/// over `shape`: each named parameter takes the value given, the others keep
/// `shape`'s. Blank lines and lines starting with `#` are skipped.
///
/// ```
/// use raum_engine::EvalParams;
/// use raum_engine::tune::parse_listing;
/// use raum_rules::VariantId;
/// let shape = EvalParams::for_variant(VariantId::FiveUp);
/// let p = parse_listing(&shape, "# tuned\nvalue_W = 650\ntempo = 12\n").unwrap();
/// assert_eq!(p.tempo, 12);
/// assert!(p.piece_values.contains(&('W', 650)));
/// let e = parse_listing(&shape, "tempo = 12\nvalue_X = 3").unwrap_err();
/// assert_eq!(e.line, 2);
/// ```
pub fn parse_listing(shape: &EvalParams, text: &str) -> Result<EvalParams, ListingError> {
    let names = param_names(shape);
    let mut values = to_vector(shape);
    let mut seen = vec![false; names.len()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| ListingError { line: i + 1, message };
        let (name, value) =
            line.split_once('=').ok_or_else(|| err(format!("expected 'name = value', found '{line}'")))?;
        let (name, value) = (name.trim(), value.trim());
        let at = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| err(format!("unknown parameter '{name}' (known: {})", names.join(", "))))?;
        if std::mem::replace(&mut seen[at], true) {
            return Err(err(format!("'{name}' is given twice")));
        }
        values[at] = value.parse().map_err(|_| err(format!("'{value}' is not a whole number")))?;
    }
    Ok(apply(shape, &values))
}

/// The parameters as Rust source for [`EvalParams::for_variant`].
pub fn to_rust(p: &EvalParams) -> String {
    let pairs = |t: &[(char, i32)]| t.iter().map(|(l, x)| format!("('{l}', {x})")).collect::<Vec<_>>().join(", ");
    let adv = p.pawn_advance.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "EvalParams {{\n    piece_values: vec![{}],\n    mobility: vec![{}],\n    pawn_advance: vec![{adv}],\n    \
         king_zone_attack: {},\n    tempo: {},\n}}",
        pairs(&p.piece_values),
        pairs(&p.mobility),
        p.king_zone_attack,
        p.tempo
    )
}

/// The positions of one game as samples: the position before each move,
/// from ply `skip_plies` on, leaving out positions in check and positions
/// right after a capture. `white_score` is 1, 0.5 or 0. Stops at the first
/// illegal move.
pub fn samples_from_game<S: Width>(
    start: Position<S>,
    moves: &[Move],
    white_score: f64,
    skip_plies: usize,
) -> Vec<Sample<S>> {
    let mut out = Vec::new();
    let mut pos = start;
    let mut after_capture = false;
    for (ply, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        if ply >= skip_plies && !after_capture && !pos.is_check() {
            out.push(Sample { pos, result: white_score });
        }
        after_capture = m.kind() == MoveKind::EnPassant
            || (m.kind() != MoveKind::Castle && pos.piece_at(m.to()).is_some_and(|p| p.color != pos.side_to_move()));
        pos.play(m);
    }
    out
}

/// Plies of captures (and check evasions) [`resolve`] looks ahead at most.
const RESOLVE_PLIES: usize = 10;

/// The quiet position at the end of `pos`'s quiescence line under `tables`:
/// captures and promotions (all moves when in check) searched by alpha-beta
/// with a stand-pat, most valuable victim first, and the position where the
/// best line stands pat returned. A sample taken just before a recapture or
/// with a piece hanging is labelled by a position whose static evaluation
/// already counts the exchange, so the fit need not bend quiet terms (pawn
/// advancement, mobility) to explain material about to change hands. A
/// position with nothing to take comes back unchanged.
///
/// ```
/// use raum_engine::EvalTables;
/// use raum_engine::tune::resolve;
/// use raum_rules::{Position, Variant, VariantId};
/// let v = Variant::get(VariantId::Raumschach);
/// let start = Position::start(v);
/// let tables = EvalTables::get(VariantId::Raumschach);
/// assert_eq!(resolve(tables, &start), start);
/// ```
pub fn resolve<S: Width>(tables: &EvalTables<S>, pos: &Position<S>) -> Position<S> {
    quiesce(tables, pos, -i32::MAX, i32::MAX, 0).1
}

fn is_capture<S: Width>(pos: &Position<S>, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || (m.kind() != MoveKind::Castle && pos.piece_at(m.to()).is_some_and(|p| p.color != pos.side_to_move()))
}

fn quiesce<S: Width>(
    tables: &EvalTables<S>,
    pos: &Position<S>,
    mut alpha: i32,
    beta: i32,
    ply: usize,
) -> (i32, Position<S>) {
    let in_check = pos.is_check();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Mate (or stalemate, scored as the static evaluation would be meaningless).
        return (if in_check { -30_000 + ply as i32 } else { 0 }, *pos);
    }
    let stand = tables.evaluate(pos);
    if ply >= RESOLVE_PLIES {
        return (stand, *pos);
    }
    let (mut best, mut leaf) = (-i32::MAX, *pos);
    if !in_check {
        if stand >= beta {
            return (stand, *pos);
        }
        best = stand;
        alpha = alpha.max(stand);
    }
    let gain = |m: Move| {
        let victim = pos.piece_at(m.to()).filter(|_| is_capture(pos, m)).map_or(0, |p| tables.value(p.kind));
        let promo = m.promotion().map_or(0, |k| tables.value(k));
        let mover = pos.piece_at(m.from()).map_or(0, |p| tables.value(p.kind));
        (victim + promo) * 16 - mover / 16
    };
    let mut candidates: Vec<(i32, Move)> = moves
        .iter()
        .filter(|&&m| in_check || is_capture(pos, m) || m.promotion().is_some())
        .map(|&m| (gain(m), m))
        .collect();
    candidates.sort_by_key(|&(g, _)| -g);
    for (_, m) in candidates {
        let (s, l) = quiesce(tables, &pos.play_copy(m), -beta, -alpha, ply + 1);
        let s = -s;
        if s > best {
            best = s;
            leaf = l;
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    (best, leaf)
}

/// Every sample's position replaced by its [`resolve`]d quiet position
/// under `params` (the result label kept); samples whose line ends in mate
/// are dropped, their static evaluation meaning nothing.
pub fn resolve_samples<S: Width>(params: &EvalParams, samples: &[Sample<S>]) -> Vec<Sample<S>> {
    let Some(first) = samples.first() else { return Vec::new() };
    let tables = EvalTables::new(first.pos.variant(), params.clone());
    let one = |s: &Sample<S>| {
        let pos = resolve(&tables, &s.pos);
        (!pos.is_check()).then_some(Sample { pos, result: s.result })
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || samples.len() < 256 {
        return samples.iter().filter_map(one).collect();
    }
    let chunk = samples.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|c| {
                let one = &one;
                scope.spawn(move || c.iter().filter_map(one).collect::<Vec<Sample<S>>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("resolution thread")).collect()
    })
}

/// Samples searched by one engine in [`search_labels`]: a fixed batch, so
/// the labels do not depend on the machine's thread count.
const LABEL_BATCH: usize = 512;

/// The samples relabelled by the engine's own search: each label becomes
/// `lambda · sigmoid(score, k) + (1 − lambda) · result`, where `score` is
/// White's score after a `nodes`-node one-thread search under `params`
/// (a mate counts as a certain result; a sample whose search did not finish
/// one iteration keeps its result). A game result says who won in the
/// end, after every later mistake; a search says what the position is worth
/// now, tactics included. Blending the two lets a fit learn from positions
/// whose game was decided much later. Deterministic: each batch of samples
/// is searched by a fresh engine, whatever the number of threads.
pub fn search_labels<S: Width>(
    params: &EvalParams,
    samples: &[Sample<S>],
    nodes: u64,
    k: f64,
    lambda: f64,
) -> Vec<Sample<S>> {
    use crate::{Engine, Limits, Score};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let Some(first) = samples.first() else { return Vec::new() };
    let variant = first.pos.variant();
    let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
    let label_batch = |batch: &[Sample<S>]| -> Vec<Sample<S>> {
        let mut engine = Engine::new(1, 1);
        engine.set_eval_params(variant, params.clone());
        let stop = Arc::new(AtomicBool::new(false));
        batch
            .iter()
            .map(|s| {
                let r = engine.search(&raum_rules::Game::new(s.pos), &limits, stop.clone(), &mut |_| {});
                if r.best.is_some() && r.info.depth == 0 {
                    // Not even one iteration within the budget: no opinion.
                    return *s;
                }
                let ours = match r.info.score {
                    Score::Cp(cp) => sigmoid(cp as f64, k),
                    Score::Mate(n) if n > 0 => 1.0,
                    Score::Mate(_) => 0.0,
                };
                let white = if s.pos.side_to_move() == Color::White { ours } else { 1.0 - ours };
                Sample { pos: s.pos, result: lambda * white + (1.0 - lambda) * s.result }
            })
            .collect()
    };
    let batches: Vec<&[Sample<S>]> = samples.chunks(LABEL_BATCH).collect();
    let mut out: Vec<Vec<Sample<S>>> = vec![Vec::new(); batches.len()];
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8).min(batches.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, batches, label_batch) = (&next, &batches, &label_batch);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(b) = batches.get(i) else { break };
                        done.push((i, label_batch(b)));
                    }
                    done
                })
            })
            .collect();
        for h in handles {
            for (i, labelled) in h.join().expect("labelling thread") {
                out[i] = labelled;
            }
        }
    });
    out.concat()
}

/// The static evaluation of `pos` under `tables`, from White's point of view.
pub fn white_eval<S: Width>(tables: &EvalTables<S>, pos: &Position<S>) -> i32 {
    let e = tables.evaluate(pos);
    if pos.side_to_move() == Color::White { e } else { -e }
}

/// White's expected score for an evaluation of `eval` centipawns.
pub fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// White's evaluation of every sample under `params` (tables built once).
pub fn evaluations<S: Width>(params: &EvalParams, samples: &[Sample<S>]) -> Vec<i32> {
    let Some(first) = samples.first() else { return Vec::new() };
    let tables = EvalTables::new(first.pos.variant(), params.clone());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || samples.len() < 2048 {
        return samples.iter().map(|s| white_eval(&tables, &s.pos)).collect();
    }
    let chunk = samples.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|c| {
                let tables = &tables;
                scope.spawn(move || c.iter().map(|s| white_eval(tables, &s.pos)).collect::<Vec<i32>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("evaluation thread")).collect()
    })
}

fn mse<S: Width>(evals: &[i32], samples: &[Sample<S>], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals.iter().zip(samples).map(|(&e, s)| (s.result - sigmoid(e as f64, k)).powi(2)).sum();
    sum / samples.len() as f64
}

/// The mean squared error of `params` on `samples` with scaling `k`.
pub fn texel_error<S: Width>(params: &EvalParams, samples: &[Sample<S>], k: f64) -> f64 {
    mse(&evaluations(params, samples), samples, k)
}

/// The `k` in `0.01..=10` that minimises the error of `params` (a coarse scan,
/// then a golden-section refinement).
pub fn fit_k<S: Width>(params: &EvalParams, samples: &[Sample<S>]) -> f64 {
    let evals = evaluations(params, samples);
    let f = |k: f64| mse(&evals, samples, k);
    let mut best = 0.01;
    let mut k = 0.01;
    while k <= 10.0 {
        if f(k) < f(best) {
            best = k;
        }
        k += 0.05;
    }
    let (mut lo, mut hi) = ((best - 0.05f64).max(0.001), best + 0.05);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if f(a) < f(b) { hi = b } else { lo = a }
    }
    let mid = (lo + hi) / 2.0;
    if f(mid) <= f(best) { mid } else { best }
}

/// The range each entry of [`to_vector`] may take while tuning, as `(low,
/// high)`: the entries named in `fixed` keep their value in `p`; piece values
/// stay at least 1, mobility weights, the king-zone weight and the tempo at
/// least 0 (a negative weight only fits the games' accidents); pawn
/// advancement is free. Unknown names in `fixed` are returned as the error.
///
/// ```
/// use raum_engine::EvalParams;
/// use raum_engine::tune::{bounds, param_names};
/// use raum_rules::VariantId;
/// let p = EvalParams::for_variant(VariantId::Raumschach);
/// let b = bounds(&p, &["value_P"]).unwrap();
/// let at = param_names(&p).iter().position(|n| n == "value_P").unwrap();
/// assert_eq!(b[at], (100, 100));
/// assert!(bounds(&p, &["value_K"]).is_err());
/// ```
pub fn bounds(p: &EvalParams, fixed: &[&str]) -> Result<Vec<(i32, i32)>, String> {
    let names = param_names(p);
    let values = to_vector(p);
    let mut out: Vec<(i32, i32)> = names
        .iter()
        .map(|n| {
            if n.starts_with("value_") {
                (1, i32::MAX / 4)
            } else if n.starts_with("mobility_") || n == "king_zone_attack" || n == "tempo" {
                (0, i32::MAX / 4)
            } else {
                (i32::MIN / 4, i32::MAX / 4)
            }
        })
        .collect();
    for f in fixed {
        let at = names.iter().position(|n| n == f.trim()).ok_or_else(|| f.trim().to_string())?;
        out[at] = (values[at], values[at]);
    }
    Ok(out)
}

/// What [`optimise`] found.
#[derive(Clone, Debug)]
pub struct TuneResult {
    pub params: EvalParams,
    pub error: f64,
    /// Passes over the parameters made.
    pub iterations: u32,
}

/// Texel's local search: for each parameter try `+step`, then `-step`,
/// keeping any change that lowers the error and stays within `bounds` (one
/// `(low, high)` per entry of [`to_vector`]); repeat until a pass improves
/// nothing or `max_iterations` passes are done. `on_pass(pass, error)` is
/// called after each pass. A starting value outside its bounds is first moved
/// to the nearer bound; from there the error never rises.
///
/// # Panics
/// If `bounds` has not exactly one entry per parameter.
pub fn optimise<S: Width>(
    start: &EvalParams,
    samples: &[Sample<S>],
    k: f64,
    bounds: &[(i32, i32)],
    step: i32,
    max_iterations: u32,
    on_pass: &mut dyn FnMut(u32, f64),
) -> TuneResult {
    let mut best = to_vector(start);
    assert_eq!(bounds.len(), best.len(), "one bound per parameter");
    for (x, &(lo, hi)) in best.iter_mut().zip(bounds) {
        *x = (*x).clamp(lo, hi);
    }
    let mut best_error = texel_error(&apply(start, &best), samples, k);
    let mut iterations = 0;
    while iterations < max_iterations {
        iterations += 1;
        let mut improved = false;
        for i in 0..best.len() {
            for delta in [step, -step] {
                let mut candidate = best.clone();
                candidate[i] += delta;
                if candidate[i] < bounds[i].0 || candidate[i] > bounds[i].1 {
                    continue;
                }
                let e = texel_error(&apply(start, &candidate), samples, k);
                if e < best_error {
                    best = candidate;
                    best_error = e;
                    improved = true;
                    break;
                }
            }
        }
        on_pass(iterations, best_error);
        if !improved {
            break;
        }
    }
    TuneResult { params: apply(start, &best), error: best_error, iterations }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::{Variant, VariantId};

    #[test]
    fn listings_round_trip_and_bad_lines_are_reported() {
        for id in VariantId::ALL {
            let p = EvalParams::for_variant(id);
            let shifted = apply(&p, &to_vector(&p).iter().map(|x| x * 2 - 3).collect::<Vec<_>>());
            assert_eq!(parse_listing(&p, &listing(&shifted)), Ok(shifted));
            assert_eq!(parse_listing(&p, ""), Ok(p.clone()));
        }
        let p = EvalParams::for_variant(VariantId::FiveUp);
        for (text, line, what) in [
            ("tempo", 1, "name = value"),
            ("\n\ntempo = x", 3, "whole number"),
            ("tempo = 1\ntempo = 2", 2, "twice"),
            ("value_K = 1", 1, "unknown parameter 'value_K'"),
        ] {
            let e = parse_listing(&p, text).unwrap_err();
            assert_eq!(e.line, line, "{text}");
            assert!(e.message.contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn vector_round_trips() {
        for id in VariantId::ALL {
            let p = EvalParams::for_variant(id);
            let v = to_vector(&p);
            assert_eq!(v.len(), param_names(&p).len());
            assert_eq!(apply(&p, &v), p);
            let shifted: Vec<i32> = v.iter().map(|x| x + 1).collect();
            assert_eq!(to_vector(&apply(&p, &shifted)), shifted);
        }
    }

    /// Random games; each sample labelled by the material balance (a result
    /// the evaluation can learn), so the optimiser has something to find.
    fn synthetic() -> Vec<Sample<u128>> {
        let v = Variant::get(VariantId::FiveUp);
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut samples = Vec::new();
        for _ in 0..6 {
            let mut pos = Position::start(v);
            let mut moves = Vec::new();
            for _ in 0..80 {
                let list = pos.legal_moves();
                if list.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = list[(seed % list.len() as u64) as usize];
                moves.push(m);
                pos.play(m);
            }
            samples.extend(samples_from_game(Position::start(v), &moves, 0.5, 8));
        }
        let t = EvalTables::get(VariantId::FiveUp);
        for s in &mut samples {
            let e = white_eval(t, &s.pos);
            s.result = if e > 150 {
                1.0
            } else if e < -150 {
                0.0
            } else {
                0.5
            };
        }
        samples
    }

    #[test]
    fn resolution_ends_where_the_quiescence_line_stands_pat() {
        let samples = synthetic();
        let t = EvalTables::get(VariantId::FiveUp);
        let mut changed = 0;
        for s in &samples {
            let (score, leaf) = quiesce(t, &s.pos, -i32::MAX, i32::MAX, 0);
            assert_eq!(resolve(t, &s.pos), leaf);
            if leaf.is_check() {
                continue;
            }
            // The line's value is the leaf's static evaluation, seen from the root's side.
            let e = t.evaluate(&leaf);
            let same_side = leaf.side_to_move() == s.pos.side_to_move();
            assert_eq!(score, if same_side { e } else { -e });
            if leaf != s.pos {
                changed += 1;
            }
        }
        assert!(changed > 0, "random games leave pieces hanging somewhere");
        let resolved = resolve_samples(t.params(), &samples);
        assert!(!resolved.is_empty() && resolved.len() <= samples.len());
        assert!(resolved.iter().all(|r| !r.pos.is_check()));
    }

    #[test]
    fn search_labels_blend_the_search_with_the_result() {
        let samples: Vec<Sample<u128>> = synthetic().into_iter().take(300).collect();
        let p = EvalParams::for_variant(VariantId::FiveUp);
        // Lambda 0: the results as they were.
        let kept = search_labels(&p, &samples, 3000, 0.5, 0.0);
        assert!(kept.iter().zip(&samples).all(|(a, b)| a.result == b.result && a.pos == b.pos));
        // Lambda 1: the search alone, repeatably, agreeing in sign with the evaluation's
        // clear verdicts (the synthetic labels are the static material verdicts).
        let a = search_labels(&p, &samples, 3000, 0.5, 1.0);
        let b = search_labels(&p, &samples, 3000, 0.5, 1.0);
        assert!(a.iter().zip(&b).all(|(x, y)| x.result == y.result));
        assert!(a.iter().all(|x| (0.0..=1.0).contains(&x.result)));
        // The search agrees in sign with the quiescence value wherever that is clear.
        let t = EvalTables::get(VariantId::FiveUp);
        let (mut decided, mut agree) = (0, 0);
        for (x, s) in a.iter().zip(&samples) {
            let q = quiesce(t, &s.pos, -i32::MAX, i32::MAX, 0).0;
            let white = if s.pos.side_to_move() == Color::White { q } else { -q };
            if white.abs() > 300 {
                decided += 1;
                agree += usize::from((x.result > 0.5) == (white > 0));
            }
        }
        assert!(decided > 20 && agree * 10 >= decided * 8, "{agree} of {decided}");
        let half = search_labels(&p, &samples, 3000, 0.5, 0.5);
        assert!(
            half.iter()
                .zip(a.iter().zip(&samples))
                .all(|(h, (x, s))| (h.result - (x.result + s.result) / 2.0).abs() < 1e-12)
        );
    }

    /// The listings in `tuning/` say which terms are built in: keep them true.
    #[test]
    fn the_tuned_listings_are_the_built_in_terms() {
        for (id, tuned, untuned) in [
            (
                VariantId::FiveUp,
                include_str!("../../../tuning/five-up-tuned.txt"),
                include_str!("../../../tuning/five-up-untuned.txt"),
            ),
            (
                VariantId::Raumschach,
                include_str!("../../../tuning/raumschach-tuned.txt"),
                include_str!("../../../tuning/raumschach-untuned.txt"),
            ),
        ] {
            let built_in = EvalParams::for_variant(id);
            let zero = apply(&built_in, &vec![0; to_vector(&built_in).len()]);
            assert_eq!(parse_listing(&zero, tuned), Ok(built_in.clone()), "{id:?}");
            assert_ne!(parse_listing(&zero, untuned).unwrap(), built_in, "{id:?}");
        }
    }

    #[test]
    fn samples_skip_opening_and_checks() {
        let samples = synthetic();
        assert!(!samples.is_empty());
        assert!(samples.iter().all(|s| !s.pos.is_check()));
    }

    /// A planted optimum: every sample labelled with its expected score under
    /// known terms (the built-in ones with three changed), as a fractional
    /// result. Started from the built-in terms with only those three free,
    /// the tuner must find them again and drive the error to about zero.
    #[test]
    fn optimisation_recovers_planted_terms() {
        let samples = synthetic();
        let start = EvalParams::for_variant(VariantId::FiveUp);
        let names = param_names(&start);
        let at = |n: &str| names.iter().position(|x| x == n).unwrap();
        let planted = [("value_R", 60), ("value_N", -40), ("tempo", 20)];
        let mut truth = to_vector(&start);
        for (name, delta) in planted {
            truth[at(name)] += delta;
        }
        let truth_params = apply(&start, &truth);
        let k = 1.3;
        let labelled: Vec<Sample<u128>> = samples
            .iter()
            .zip(evaluations(&truth_params, &samples))
            .map(|(s, e)| Sample { pos: s.pos, result: sigmoid(e as f64, k) })
            .collect();
        // The labels' scale is the one fit_k finds for the true terms, where the error is nil.
        let fitted = fit_k(&truth_params, &labelled);
        assert!((fitted - k).abs() < 1e-3, "k {fitted}");
        assert!(texel_error(&truth_params, &labelled, k) < 1e-15);
        let before = texel_error(&start, &labelled, k);
        assert!(before > 1e-4, "the built-in terms do not fit the planted labels: {before}");
        // Everything but the planted terms pinned.
        let fixed: Vec<&str> =
            names.iter().map(String::as_str).filter(|n| planted.iter().all(|(p, _)| p != n)).collect();
        let b = bounds(&start, &fixed).unwrap();
        let mut passes = Vec::new();
        let r = optimise(&start, &labelled, k, &b, 5, 100, &mut |i, e| passes.push((i, e)));
        let found = to_vector(&r.params);
        for (name, delta) in planted {
            let i = at(name);
            assert!(
                (found[i] - truth[i]).abs() <= 5,
                "{name}: found {}, planted {} (started at {}, {delta:+})",
                found[i],
                truth[i],
                truth[i] - delta
            );
        }
        // The pinned terms stayed where they were.
        assert!(fixed.iter().all(|n| found[at(n)] == truth[at(n)]));
        assert!(r.error < before * 1e-3, "error {before} -> {}", r.error);
        assert!((texel_error(&r.params, &labelled, k) - r.error).abs() < 1e-12);
        assert_eq!(passes.last().map(|p| p.1), Some(r.error));
        assert!(r.iterations < 100, "converged: {}", r.iterations);
    }

    #[test]
    fn bounds_hold_during_the_search() {
        let samples = synthetic();
        let p = EvalParams::for_variant(VariantId::FiveUp);
        let k = fit_k(&p, &samples);
        // Every parameter pinned: nothing may move.
        let pinned: Vec<(i32, i32)> = to_vector(&p).iter().map(|&x| (x, x)).collect();
        let r = optimise(&p, &samples, k, &pinned, 10, 3, &mut |_, _| {});
        assert_eq!(r.params, p);
        // The default bounds: the pawn keeps its value, nothing goes below its floor.
        let b = bounds(&p, &["value_P"]).unwrap();
        let r = optimise(&p, &samples, k, &b, 25, 3, &mut |_, _| {});
        let v = to_vector(&r.params);
        assert!(v.iter().zip(&b).all(|(x, (lo, hi))| lo <= x && x <= hi), "{v:?}");
        assert_eq!(bounds(&p, &["nope"]), Err("nope".to_string()));
    }
}
