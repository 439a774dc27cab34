//! Game records at the command line: `raum pgn` (read, replay, report), and
//! what `raum play` and `raum match` need to write and read them.

use crate::args::PgnArgs;
use anyhow::{Context, Result, bail};
use raum_engine::Score;
use raum_notation::{
    MultiRecord, Record, ReplayError, format_move, format_multi_move, format_multi_position, format_multi_resignation,
    format_position, parse_multi_records, parse_records, record_variants,
};
use raum_rules::Action;
use raum_rules::multi::{MultiId, MultiVariant};
use raum_rules::{Color, MultiFn, Variant, VariantFn, Width};
use std::path::Path;

/// What `raum pgn` prints for each game.
#[derive(Clone, Copy)]
enum Report {
    Position,
    Moves,
    Nothing,
}

pub fn pgn(a: &PgnArgs) -> Result<()> {
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
            match kind_of(&text)? {
                Kind::Multi => {
                    for (i, record) in parse_multi_records(&text)?.iter().enumerate() {
                        replayed(i, record.variant().and_then(|id| id.dispatch(MultiReplay { record, report })));
                    }
                }
                Kind::TwoPlayer => {
                    for (i, record) in parse_records(&text)?.iter().enumerate() {
                        replayed(i, record.variant().and_then(|id| id.dispatch(Replay { record, report })));
                    }
                }
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

/// Which reader a record text needs.
enum Kind {
    TwoPlayer,
    Multi,
}

/// Tells two-player record text from multi-player by its `Variant` tags;
/// refuses a text that holds both kinds.
fn kind_of(text: &str) -> Result<Kind> {
    let mut multi: Vec<String> = Vec::new();
    let mut two: Vec<String> = Vec::new();
    for name in record_variants(text) {
        let list = if MultiId::from_name(&name).is_some() { &mut multi } else { &mut two };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    match (multi.is_empty(), two.is_empty()) {
        (true, _) => Ok(Kind::TwoPlayer),
        (false, true) => Ok(Kind::Multi),
        (false, false) => bail!(
            "the file holds two-player games ({}) and multi-player games ({}); a record file holds one kind",
            two.join(", "),
            multi.join(", ")
        ),
    }
}

/// Replays one multi-player record at its game's width and says what `raum pgn` prints.
struct MultiReplay<'a> {
    record: &'a MultiRecord,
    report: Report,
}

impl MultiFn for MultiReplay<'_> {
    type Output = Result<Option<String>, ReplayError>;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Self::Output {
        let game = self.record.replay(v)?;
        Ok(match self.report {
            Report::Position => Some(format_multi_position(game.position())),
            Report::Moves => Some(
                game.actions()
                    .iter()
                    .map(|&a| match a {
                        Action::Move(m) => format_multi_move(v, m),
                        Action::Resign(side) => format_multi_resignation(&v.sides()[side]),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Report::Nothing => None,
        })
    }
}

/// Replays one record at its variant's width and says what `raum pgn` prints.
struct Replay<'a> {
    record: &'a Record,
    report: Report,
}

impl VariantFn for Replay<'_> {
    type Output = Result<Option<String>, ReplayError>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Self::Output {
        let game = self.record.replay(v)?;
        Ok(match self.report {
            Report::Position => Some(format_position(game.position())),
            Report::Moves => Some(game.moves().iter().map(|&m| format_move(v, m)).collect::<Vec<_>>().join(" ")),
            Report::Nothing => None,
        })
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
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("saving {}", path.display()))?;
    Ok(())
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
