//! Game records at the command line: `raum pgn` (read, replay, report), and
//! what `raum play` and `raum match` need to write and read them.

use crate::args::PgnArgs;
use anyhow::{Context, Result, bail};
use raum_engine::Score;
use raum_notation::{Record, ReplayError, format_game_move, format_game_position, format_resignation, parse_records};
use raum_rules::{Action, AnyGame, Color, GameRules};
use std::path::Path;

/// What `raum pgn` prints for each game.
#[derive(Clone, Copy)]
enum Report {
    Position,
    Moves,
    Nothing,
}

pub fn pgn(a: &PgnArgs) -> Result<()> {
    for file in &a.variants {
        let path = file.display().to_string();
        if !path.ends_with(".toml") {
            anyhow::bail!("--variant {path}: pgn takes variant files (*.toml); a record names its game itself");
        }
        crate::args::variant_arg(&path).map_err(|e| anyhow::anyhow!("--variant {path}: {e}"))?;
    }
    let report = match (a.moves, a.check) {
        (true, _) => Report::Moves,
        (_, true) => Report::Nothing,
        _ => Report::Position,
    };
    let (mut games, mut refused) = (0usize, 0usize);
    for path in &a.files {
        let name = path.display();
        // Each game's line, or why it is refused.
        let mut replayed = |i: usize, line: Result<Option<String>, ReplayError>| {
            games += 1;
            match line {
                Ok(Some(line)) => println!("{line}"),
                Ok(None) => {}
                Err(e) => {
                    eprintln!("{name}: game {}, {e}", i + 1);
                    refused += 1;
                }
            }
        };
        let read = std::fs::read_to_string(path).map_err(anyhow::Error::from).and_then(|text| {
            for (i, record) in parse_records(&text)?.iter().enumerate() {
                replayed(i, record.replay().map(|game| report_line(&game, report)));
            }
            Ok::<_, anyhow::Error>(())
        });
        if let Err(e) = read {
            eprintln!("{name}: {e}");
            refused += 1;
        }
    }
    let read = if games == 1 { "1 game".to_string() } else { format!("{games} games") };
    if a.check && refused == 0 {
        println!("{read}, all legal");
    }
    if refused > 0 {
        bail!("{refused} refused ({read} read)");
    }
    Ok(())
}

/// What `raum pgn` prints for a replayed game: its final position string,
/// or its moves (and resignations) in coordinates, or nothing.
fn report_line(game: &AnyGame, report: Report) -> Option<String> {
    match report {
        Report::Position => Some(format_game_position(game)),
        Report::Moves => Some(
            game.actions()
                .iter()
                .map(|&a| match a {
                    Action::Move(m) => format_game_move(game, m),
                    Action::Resign(side) => format_resignation(&game.sides()[side]),
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Report::Nothing => None,
    }
}

/// The one game of a record file (`raum play --load`).
pub fn load_one(path: &Path) -> Result<Record> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut records = parse_records(&text).with_context(|| format!("in {}", path.display()))?;
    match records.len() {
        1 => Ok(records.remove(0)),
        0 => bail!("{} holds no game", path.display()),
        n => bail!("{} holds {n} games; --load takes a file with one", path.display()),
    }
}

/// Writes `text` to `path` so that the file is always whole: a new file
/// beside it, then renamed over it (a crash or a closed terminal leaves the
/// old record or the new one, never half of one).
pub fn save(path: &Path, text: &str) -> Result<()> {
    let tmp = part_path(path);
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("saving {}", path.display()))?;
    Ok(())
}

/// Where a file is written before it is whole: `path` with `.part` added.
pub fn part_path(path: &Path) -> std::path::PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    std::path::PathBuf::from(tmp)
}

/// An engine's evaluation as a record's comment: from White's side, then the
/// depth (`+0.35/12`; a mate `+M3/9`, White mating in 3, or `-M2/7`).
pub fn eval_comment(score: Score, mover: Color, depth: u32) -> String {
    let sign = if mover == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("{:+.2}/{depth}", f64::from(cp * sign) / 100.0),
        Score::Mate(n) => {
            let white_mates = (n > 0) == (mover == Color::White);
            format!("{}M{}/{depth}", if white_mates { '+' } else { '-' }, n.abs())
        }
    }
}

/// Today's date as records write it (`2026.11.25`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    raum_notation::record_date(secs as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn evaluations_are_written_from_whites_side() {
        assert_eq!(eval_comment(Score::Cp(35), Color::White, 12), "+0.35/12");
        assert_eq!(eval_comment(Score::Cp(35), Color::Black, 12), "-0.35/12");
        assert_eq!(eval_comment(Score::Cp(0), Color::Black, 1), "+0.00/1");
        assert_eq!(eval_comment(Score::Mate(3), Color::White, 9), "+M3/9");
        assert_eq!(eval_comment(Score::Mate(2), Color::Black, 7), "-M2/7");
        assert_eq!(eval_comment(Score::Mate(-1), Color::Black, 4), "+M1/4");
    }
}
