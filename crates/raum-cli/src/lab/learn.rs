//! `raum lab learn`: a game's evaluation learned by self-play, in three
//! stages, each kept in `--dir` so that a run stopped between them goes on
//! from the last one kept:
//!
//! 1. `selfplay-NNN.tsv`: games of the engine against itself under the
//!    game's built-in terms (`raum match --record`; the second player searches
//!    an eighth more nodes, so that a pair's two games from one opening
//!    differ), 200 a file, so that a long self-play stopped midway keeps
//!    every finished file;
//! 2. `fit.txt`: the terms fitted to those games (`raum tune --resolve`, every
//!    tenth game held out to see that the fit generalises);
//! 3. `match.txt`: the fit against the built-in terms, stopped at the SPRT's
//!    verdict (0 against 10 Elo) or after `--match-games`.
//!
//! Then `report.md` says whether to adopt the fit: when the SPRT accepted it,
//! or when at least 800 games put its Elo above the built-in terms' with 95%
//! confidence. A built-in game adopts it as data (`raum-engine`'s `learned/`).

use crate::args::{LearnArgs, MatchArgs, TuneArgs, multi_id, variant_id};
use crate::matches::{Summary, run_match};
use crate::stats::Verdict;
use anyhow::{Context, Result, bail};
use clap::Parser;
use raum_engine::EvalParams;
use raum_engine::tune::{param_names, parse_listing, to_vector};
use raum_rules::{AnyGame, GameId, VariantId};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Self-play games a chunk.
const CHUNK: u32 = 200;

/// The fewest match games that decide without the SPRT's verdict.
const DECIDING_GAMES: u64 = 800;

/// `raum match`'s and `raum tune`'s arguments, read from a command line the
/// stages write (so that each stage runs exactly as those commands would).
#[derive(Parser)]
struct MatchLine {
    #[command(flatten)]
    args: MatchArgs,
}

#[derive(Parser)]
struct TuneLine {
    #[command(flatten)]
    args: TuneArgs,
}

/// `raum lab learn`.
pub fn learn(a: &LearnArgs) -> Result<()> {
    if multi_id(&a.variant).is_some() {
        bail!("raum lab learn is for two-player games; '{}' seats more", a.variant);
    }
    let id = variant_id(&a.variant)?;
    if a.games < 2 || a.match_games < 2 {
        bail!("--games and --match-games must be at least 2 (pairs of games)");
    }
    if a.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if a.concurrency == Some(0) {
        bail!("--concurrency must be at least 1");
    }
    // The fit plays as `engine:...,eval=DIR/fit.txt`, a list split at commas.
    if a.dir.to_string_lossy().contains(',') {
        bail!(
            "--dir {}: a folder whose path has no comma, please (the match names the fit in a player spec)",
            a.dir.display()
        );
    }
    std::fs::create_dir_all(&a.dir).with_context(|| format!("creating --dir {}", a.dir.display()))?;
    let threads =
        a.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32)).to_string();
    let file = |name: &str| a.dir.join(name);
    let (fit, matched) = (file("fit.txt"), file("match.txt"));
    let common = |seed: u64| -> Vec<String> {
        let mut line: Vec<String> =
            ["match", "--variant", &a.variant, "--seed", &seed.to_string()].map(String::from).to_vec();
        line.extend([
            "--random-plies".into(),
            a.random_plies.to_string(),
            "--max-plies".into(),
            a.max_plies.to_string(),
        ]);
        line.extend(["--concurrency".into(), threads.clone()]);
        line
    };

    // 1. Self-play, in chunks of CHUNK games (each its own file and seed), so
    // that a long self-play stopped midway keeps its finished chunks.
    let chunks: Vec<(PathBuf, u32)> = (0..a.games.div_ceil(CHUNK))
        .map(|k| (file(&format!("selfplay-{:03}.tsv", k + 1)), CHUNK.min(a.games - k * CHUNK)))
        .collect();
    for (k, (path, games)) in chunks.iter().enumerate() {
        if lines(path)? >= *games as usize {
            eprintln!("learn: {} kept ({games} games)", path.display());
            continue;
        }
        eprintln!(
            "learn: stage 1 of 3, self-play chunk {} of {} ({games} games at {} nodes a move)",
            k + 1,
            chunks.len(),
            a.nodes
        );
        let part = crate::records::part_path(path);
        let mut line = common(a.seed.wrapping_mul(1_000_003).wrapping_add(k as u64));
        line.extend(["--a".into(), format!("engine:nodes={}", a.nodes)]);
        line.extend(["--b".into(), format!("engine:nodes={}", a.nodes + a.nodes.div_ceil(8))]);
        line.extend(["--games".into(), games.to_string(), "--record".into(), text(&part)?]);
        run_match(&MatchLine::try_parse_from(line)?.args)?;
        rename(&part, path)?;
    }

    // 2. The fit.
    if fit.exists() {
        eprintln!("learn: {} kept", fit.display());
    } else {
        eprintln!("learn: stage 2 of 3, the fit");
        let part = crate::records::part_path(&fit);
        let mut line: Vec<String> = ["tune", "--variant", &a.variant, "--records"].map(String::from).to_vec();
        for (path, _) in &chunks {
            line.push(text(path)?);
        }
        line.extend(["--holdout", "10", "--resolve"].map(String::from));
        line.extend(["--iterations".into(), a.iterations.to_string(), "--step".into(), a.step.to_string()]);
        if a.search_labels > 0 {
            line.extend(["--search-labels".into(), a.search_labels.to_string(), "--lambda".into(), "0.8".into()]);
        }
        line.extend(["--out".into(), text(&part)?]);
        crate::tune::tune(&TuneLine::try_parse_from(line)?.args)?;
        rename(&part, &fit)?;
    }

    // 3. The fit against the built-in terms.
    let summary = if matched.exists() {
        eprintln!("learn: {} kept", matched.display());
        read_summary(&matched)?
    } else {
        eprintln!("learn: stage 3 of 3, the fit against the built-in terms (at most {} games)", a.match_games);
        let mut line = common(a.seed.wrapping_add(1));
        line.extend(["--a".into(), format!("engine:nodes={},eval={}", a.nodes, text(&fit)?)]);
        line.extend(["--b".into(), format!("engine:nodes={}", a.nodes)]);
        line.extend(["--games".into(), a.match_games.to_string(), "--sprt-stop".into()]);
        line.extend(["--sprt-elo0", "0", "--sprt-elo1", "10"].map(String::from));
        line.extend(["--record".into(), text(&file("match-games.tsv"))?]);
        let summary =
            run_match(&MatchLine::try_parse_from(line)?.args)?.context("a two-player match gives a summary")?;
        crate::records::save(&matched, &write_summary(&summary))?;
        summary
    };

    let report = report(a, id, &std::fs::read_to_string(&fit)?, &summary)?;
    print!("\n{report}");
    let path = file("report.md");
    std::fs::write(&path, &report).with_context(|| format!("writing {}", path.display()))?;
    eprintln!("learn: report in {}", path.display());
    Ok(())
}

/// Whether the match says to adopt the fit.
pub fn adopt(s: &Summary) -> bool {
    s.verdict == Verdict::H1 || (s.verdict == Verdict::Continue && s.games >= DECIDING_GAMES && s.elo - s.margin > 0.0)
}

/// The report: the terms before and after, the match, the verdict.
fn report(a: &LearnArgs, id: VariantId, fit: &str, s: &Summary) -> Result<String> {
    let base = EvalParams::for_variant(id);
    let fitted = parse_listing(&base, fit).context("reading fit.txt")?;
    let title = crate::terminal::title(&AnyGame::start(GameId::Two(id)));
    let mut out = String::new();
    writeln!(out, "# {title}: a learned evaluation\n")?;
    writeln!(
        out,
        "`raum lab learn --variant {} --games {} --nodes {} --random-plies {} --max-plies {} --seed {} --iterations {} \
         --step {} --search-labels {} --match-games {}`\n",
        a.variant,
        a.games,
        a.nodes,
        a.random_plies,
        a.max_plies,
        a.seed,
        a.iterations,
        a.step,
        a.search_labels,
        a.match_games
    )?;
    let how = fit.lines().next().unwrap_or("").trim_start_matches("# raum tune: ");
    writeln!(out, "Self-play: {} games (`selfplay-*.tsv`). The fit (`fit.txt`): {how}.\n", a.games)?;
    writeln!(out, "| term | built-in | fitted |\n| --- | ---: | ---: |")?;
    for ((name, before), after) in param_names(&base).iter().zip(to_vector(&base)).zip(to_vector(&fitted)) {
        let mark = if before == after { String::new() } else { format!(" ({:+})", after - before) };
        writeln!(out, "| {name} | {before} | {after}{mark} |")?;
    }
    writeln!(
        out,
        "\nThe fit (A) against the built-in terms (B), {} nodes a move: {} games, A scores {:.1}%, \
         Elo {:+.1} ± {:.1}, SPRT (0 against 10 Elo) LLR {:.2}: {}.\n",
        a.nodes,
        s.games,
        s.score * 100.0,
        s.elo,
        s.margin,
        s.llr,
        s.verdict
    )?;
    if adopt(s) {
        writeln!(
            out,
            "**Adopt the fit.** For a built-in game, copy `fit.txt` to `crates/raum-engine/learned/{id}.txt` and name \
             it in `LEARNED` (`crates/raum-engine/src/learned.rs`). Any game, a variant file's too, plays with it \
             as `engine:eval=fit.txt` in `raum match`."
        )?;
    } else {
        writeln!(
            out,
            "**Keep the built-in terms**: a fit is adopted when the SPRT accepts it, or when at least \
             {DECIDING_GAMES} games put its Elo above zero with 95% confidence; this match did neither."
        )?;
    }
    Ok(out)
}

/// The summary as `match.txt` keeps it.
fn write_summary(s: &Summary) -> String {
    let verdict = match s.verdict {
        Verdict::H1 => "H1",
        Verdict::H0 => "H0",
        Verdict::Continue => "continue",
    };
    format!(
        "games = {}\nscore = {}\nelo = {}\nmargin = {}\nllr = {}\nverdict = {verdict}\n",
        s.games, s.score, s.elo, s.margin, s.llr
    )
}

/// `match.txt` read back.
fn read_summary(path: &Path) -> Result<Summary> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let field = |name: &str| -> Result<&str> {
        text.lines()
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim())
            .with_context(|| format!("{}: no '{name} = ...' line", path.display()))
    };
    let number = |name: &str| -> Result<f64> {
        field(name)?.parse::<f64>().with_context(|| format!("{}: '{name}' is not a number", path.display()))
    };
    let verdict = match field("verdict")? {
        "H1" => Verdict::H1,
        "H0" => Verdict::H0,
        "continue" => Verdict::Continue,
        other => bail!("{}: unknown verdict '{other}'", path.display()),
    };
    Ok(Summary {
        games: number("games")? as u64,
        score: number("score")?,
        elo: number("elo")?,
        margin: number("margin")?,
        llr: number("llr")?,
        verdict,
    })
}

/// Non-blank lines in `path` (0 when it does not exist).
fn lines(path: &Path) -> Result<usize> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(t.lines().filter(|l| !l.trim().is_empty()).count()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).with_context(|| format!("renaming {} to {}", from.display(), to.display()))
}

/// A path as command-line text.
fn text(path: &Path) -> Result<String> {
    path.to_str().map(String::from).with_context(|| format!("{} is not UTF-8", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(games: u64, elo: f64, margin: f64, verdict: Verdict) -> Summary {
        Summary { games, score: 0.5, elo, margin, llr: 0.0, verdict }
    }

    #[test]
    fn the_verdict_and_the_kept_summary() {
        assert!(adopt(&summary(300, 30.0, 40.0, Verdict::H1)));
        assert!(!adopt(&summary(300, 30.0, 20.0, Verdict::Continue)), "too few games");
        assert!(adopt(&summary(1000, 15.0, 14.0, Verdict::Continue)));
        assert!(!adopt(&summary(1000, 15.0, 16.0, Verdict::Continue)));
        assert!(!adopt(&summary(1000, 15.0, 1.0, Verdict::H0)));
        let dir = std::env::temp_dir().join(format!("raum-learn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match.txt");
        let s = Summary { games: 812, score: 0.5312, elo: 21.7, margin: 19.25, llr: 1.5, verdict: Verdict::Continue };
        std::fs::write(&path, write_summary(&s)).unwrap();
        assert_eq!(read_summary(&path).unwrap(), s);
        std::fs::write(&path, "games = 3\nverdict = maybe\n").unwrap();
        assert!(read_summary(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
