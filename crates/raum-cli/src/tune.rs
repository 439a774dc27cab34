//! `raum tune`: Texel-style tuning of the evaluation on `raum match --record`
//! files. Reads the games, takes quiet-ish positions with each game's result,
//! fits the sigmoid scale `k`, runs the local search and prints (and with
//! `--out` writes) the tuned parameters. The built-in parameters are not
//! changed: paste the printed `EvalParams { .. }` into
//! `EvalParams::for_variant` to apply them.

use crate::args::{TuneArgs, variant};
use anyhow::{Context, Result, bail};
use raum_engine::EvalParams;
use raum_engine::tune::{self, Sample};
use raum_notation::{parse_coordinate, parse_position};
use raum_rules::{Cells, Variant};

/// Samples from the record file: one game per line (number, white, black,
/// result, reason, opening, moves, tab-separated).
fn read_records(v: &'static Variant<Cells>, path: &std::path::Path, skip: usize) -> Result<(usize, Vec<Sample>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading --records {}", path.display()))?;
    let mut games = 0;
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let where_ = || format!("{} line {}", path.display(), i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 6 {
            bail!("{}: expected at least 6 tab-separated fields", where_());
        }
        let score = match fields[3] {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => bail!("{}: unknown result '{other}'", where_()),
        };
        let start = parse_position(v, fields[5]).with_context(where_)?;
        let mut pos = start;
        let mut moves = Vec::new();
        for text in fields.get(6).copied().unwrap_or("").split_whitespace() {
            let m = parse_coordinate(&pos, text).with_context(|| format!("{}: move {text}", where_()))?;
            pos.play(m);
            moves.push(m);
        }
        games += 1;
        samples.extend(tune::samples_from_game(start, &moves, score, skip));
    }
    Ok((games, samples))
}

pub fn tune(a: &TuneArgs) -> Result<()> {
    let v = variant(&a.variant)?;
    if a.step <= 0 {
        bail!("--step must be positive");
    }
    let (games, samples) = read_records(v, &a.records, a.skip_plies)?;
    if samples.is_empty() {
        bail!("--records {}: no usable positions in {games} games", a.records.display());
    }
    println!("Games: {games}  samples: {}", samples.len());
    let start = EvalParams::for_variant(v.id());
    let k = tune::fit_k(&start, &samples);
    println!("k: {k:.4}");
    let before = tune::texel_error(&start, &samples, k);
    println!("error before: {before:.6}");
    let r = tune::optimise(&start, &samples, k, a.step, a.iterations, &mut |i, e| {
        eprintln!("pass {i}: error {e:.6}");
    });
    println!("error after: {:.6}  ({} passes)", r.error, r.iterations);
    let text = format!(
        "# raum tune: {} games, {} samples, k = {k:.4}, error {before:.6} -> {:.6}\n{}\n# As Rust, for EvalParams::for_variant:\n{}\n",
        games,
        samples.len(),
        r.error,
        tune::listing(&r.params),
        tune::to_rust(&r.params).lines().map(|l| format!("# {l}")).collect::<Vec<_>>().join("\n")
    );
    print!("{text}");
    if let Some(out) = &a.out {
        std::fs::write(out, &text).with_context(|| format!("writing --out {}", out.display()))?;
    }
    Ok(())
}
