//! `raum tune`: Texel-style tuning of the evaluation on `raum match --record`
//! files. Reads the games, takes quiet-ish positions with each game's result,
//! (with `--resolve`, each replaced by the end of its quiescence line;
//! with `--search-labels`, each label blended with a search's verdict),
//! fits the sigmoid scale `k`, runs the local search and prints (and with
//! `--out` writes) the tuned parameters. With `--holdout N` every Nth game is
//! left out of the fit and its error reported before and after. The output
//! file is a listing that `raum match` players take as `engine:…,eval=FILE`
//! (and `--start FILE` continues from); to adopt the parameters, paste the
//! printed `EvalParams { .. }` into `EvalParams::for_variant`.

use crate::args::{TuneArgs, variant_id};
use anyhow::{Context, Result, bail};
use raum_engine::EvalParams;
use raum_engine::tune::{self, Sample};
use raum_notation::{RecordResult, parse_coordinate, parse_position};
use raum_rules::{Variant, VariantFn, Width};

/// Samples from a record file, game by game: one game per line (number,
/// white, black, result, reason, opening, moves, tab-separated). A game
/// whose opening and moves are in `seen` already is skipped and counted in
/// the second value: two deterministic players replay the same game with
/// colours swapped, and a copy in the fit would make the held-out error
/// meaningless.
fn read_records<S: Width>(
    v: &'static Variant<S>,
    path: &std::path::Path,
    skip: usize,
    seen: &mut std::collections::HashSet<String>,
) -> Result<(Vec<Vec<Sample<S>>>, usize)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading --records {}", path.display()))?;
    let mut games = Vec::new();
    let mut repeated = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let where_ = || format!("{} line {}", path.display(), i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 6 {
            bail!("{}: expected at least 6 tab-separated fields", where_());
        }
        // White's points, Savard's stalemate (3/5 or 2/5) as the match scored it.
        let score = match RecordResult::parse(fields[3]).and_then(RecordResult::points) {
            Some([white, _]) => white.as_f64(),
            None => bail!("{}: unknown result '{}'", where_(), fields[3]),
        };
        if !seen.insert(fields[5..].join("\t")) {
            repeated += 1;
            continue;
        }
        let start = parse_position(v, fields[5]).with_context(where_)?;
        let mut pos = start;
        let mut moves = Vec::new();
        for text in fields.get(6).copied().unwrap_or("").split_whitespace() {
            let m = parse_coordinate(&pos, text).with_context(|| format!("{}: move {text}", where_()))?;
            pos.play(m);
            moves.push(m);
        }
        games.push(tune::samples_from_game(start, &moves, score, skip));
    }
    Ok((games, repeated))
}

pub fn tune(a: &TuneArgs) -> Result<()> {
    variant_id(&a.variant)?.dispatch(Tune(a))
}

/// `raum tune`'s body at the variant's width.
struct Tune<'a>(&'a TuneArgs);

impl VariantFn for Tune<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        tune_at(v, self.0)
    }
}

fn tune_at<S: Width>(v: &'static Variant<S>, a: &TuneArgs) -> Result<()> {
    if a.step <= 0 {
        bail!("--step must be positive");
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        bail!("--lambda must be between 0 and 1, not {}", a.lambda);
    }
    if a.holdout == 1 {
        bail!("--holdout 1 would hold out every game (use 0 for none, or N >= 2 for every Nth game)");
    }
    let shape = EvalParams::for_variant(v.id());
    let start = match &a.start {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading --start {}", path.display()))?;
            tune::parse_listing(&shape, &text).with_context(|| format!("--start {}", path.display()))?
        }
        None => shape,
    };
    let (mut games, mut repeated, mut seen) = (Vec::new(), 0, std::collections::HashSet::new());
    for path in &a.records {
        let (g, r) = read_records(v, path, a.skip_plies, &mut seen)?;
        games.extend(g);
        repeated += r;
    }
    if repeated > 0 {
        println!("Skipped {repeated} repeated games (same opening and moves as an earlier one)");
    }
    // Every `holdout`-th game is kept out of the fit, to see whether the fit generalises.
    let (mut samples, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        if a.holdout >= 2 && i % a.holdout as usize == a.holdout as usize - 1 {
            held.extend_from_slice(g);
        } else {
            samples.extend_from_slice(g);
        }
    }
    if a.resolve {
        let before = samples.len() + held.len();
        samples = tune::resolve_samples(&start, &samples);
        held = tune::resolve_samples(&start, &held);
        println!(
            "Resolved: {} positions ended their quiescence line in mate and were dropped",
            before - samples.len() - held.len()
        );
    }
    if samples.is_empty() {
        bail!("--records: no usable positions in {} games", games.len());
    }
    println!("Games: {}  samples: {}  held out: {}", games.len(), samples.len(), held.len());
    let k = tune::fit_k(&start, &samples);
    println!("k: {k:.4}");
    if let Some(nodes) = a.search_labels {
        let t = std::time::Instant::now();
        samples = tune::search_labels(&start, &samples, nodes, k, a.lambda);
        println!(
            "Labels: {nodes}-node searches blended with the results (lambda {}), {:.1} s",
            a.lambda,
            t.elapsed().as_secs_f64()
        );
    }
    let before = tune::texel_error(&start, &samples, k);
    println!("error before: {before:.6}");
    let held_before = (!held.is_empty()).then(|| tune::texel_error(&start, &held, k));
    if let Some(e) = held_before {
        println!("held-out error before: {e:.6}");
    }
    let fixed: Vec<&str> = a.fix.split(',').map(str::trim).filter(|f| !f.is_empty()).collect();
    let bounds = tune::bounds(&start, &fixed).map_err(|name| {
        anyhow::anyhow!("--fix: unknown parameter '{name}' (known: {})", tune::param_names(&start).join(", "))
    })?;
    let r = tune::optimise(&start, &samples, k, &bounds, a.step, a.iterations, &mut |i, e| {
        eprintln!("pass {i}: error {e:.6}");
    });
    println!("error after: {:.6}  ({} passes)", r.error, r.iterations);
    let mut summary = format!("error {before:.6} -> {:.6}", r.error);
    if let Some(e0) = held_before {
        let e1 = tune::texel_error(&r.params, &held, k);
        println!("held-out error after: {e1:.6}");
        summary.push_str(&format!(", held-out error {e0:.6} -> {e1:.6}"));
    }
    let text = format!(
        "# raum tune: {} games, {} samples, k = {k:.4}, {summary}\n{}\n# As Rust, for EvalParams::for_variant:\n{}\n",
        games.len(),
        samples.len(),
        tune::listing(&r.params),
        tune::to_rust(&r.params).lines().map(|l| format!("# {l}")).collect::<Vec<_>>().join("\n")
    );
    print!("{text}");
    if let Some(out) = &a.out {
        std::fs::write(out, &text).with_context(|| format!("writing --out {}", out.display()))?;
    }
    Ok(())
}
