//! The players as the command line names them ([`Spec`]; README "Matches"):
//! `engine:LIMITS[,SETTING=VALUE...]` (Raum's engine; in two-player games
//! with levels, `elo=`, a level's choice of one's own, search features and
//! parameters and `eval=FILE`, in games of more sides with `search=`),
//! `uci:LIMITS[,OPTION=VALUE]:COMMAND` (an external engine), `random`, and
//! `greedy` (a winning move, else the most valuable capture: see
//! [`super::players`]).

use crate::clock::TimeControl;
use anyhow::{Context, Result, bail};
use raum_engine::multi::MultiSearch;
use raum_engine::{EvalParams, Feature, Features, LEVELS, Limits, SearchParams, level_elos, strength_for_elo};
use raum_rules::GameId;
use std::time::Duration;

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// Raum's engine: its limits, the search features in use, and evaluation
    /// terms replacing the built-in ones.
    Engine {
        limits: Limits,
        /// Plays on a clock the referee keeps.
        tc: Option<TimeControl>,
        features: Features,
        params: SearchParams,
        eval: Option<EvalParams>,
        /// A playing level (1.0..=15.0), if not the full engine.
        level: Option<f64>,
        /// A level's choice of one's own: lines to choose among, the spread, and
        /// whether it grabs instead.
        choice: Option<(usize, i32, bool)>,
        /// The search every side for itself (games of more sides).
        search: MultiSearch,
    },
    /// An external engine speaking the protocol: its limits, `setoption`s and command line.
    Uci {
        limits: Limits,
        tc: Option<TimeControl>,
        options: Vec<(String, String)>,
        command: Vec<String>,
    },
    Random,
    Greedy,
}

const KNOWN: &str = "engine:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC]|level=L|elo=E[,lines=N,spread=CP|,grab=1][,off=FEATURE][,on=FEATURE][,PARAMETER=N][,eval=FILE], \
                     uci:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC][,OPTION=VALUE]:COMMAND, random, greedy";

/// The players of games of more sides.
const KNOWN_MULTI: &str = "engine:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC][,search=brs|paranoid|maxn], \
                           uci:nodes=N|movetime=MS|depth=D|tc=[MOVES/]BASE[+INC][,OPTION=VALUE]:COMMAND, random, greedy";

/// The players of game `id`, for messages.
fn known(id: GameId) -> &'static str {
    if matches!(id, GameId::Two(_)) { KNOWN } else { KNOWN_MULTI }
}

/// Reads one `key=value` limit into `limits` or `tc`; `false` if `key` is no limit.
fn parse_limit(text: &str, key: &str, value: &str, limits: &mut Limits, tc: &mut Option<TimeControl>) -> Result<bool> {
    let n = || -> Result<u64> {
        value
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .with_context(|| format!("player '{text}': '{value}' is not a positive whole number"))
    };
    match key {
        "nodes" => limits.nodes = Some(n()?),
        "movetime" => limits.movetime = Some(Duration::from_millis(n()?)),
        "depth" => {
            limits.depth = Some(
                u32::try_from(n()?)
                    .ok()
                    .filter(|&d| d <= 64)
                    .with_context(|| format!("player '{text}': depth must be at most 64"))?,
            )
        }
        "tc" => *tc = Some(value.parse().with_context(|| format!("player '{text}'"))?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// Parses a player spec for game `id` (see the module header): `engine:LIMITS[,SETTING=VALUE...]`,
/// `uci:LIMITS[,OPTION=VALUE]:COMMAND`, `random`, `greedy`.
pub fn parse_spec(text: &str, id: impl Into<GameId>) -> Result<Spec> {
    let id = id.into();
    let text = text.trim();
    match text {
        "random" => return Ok(Spec::Random),
        "greedy" => return Ok(Spec::Greedy),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix("uci:") {
        let Some((settings, command)) = rest.split_once(':') else {
            bail!("player '{text}': write an external engine as uci:LIMITS:COMMAND, e.g. uci:movetime=100:./engine");
        };
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            bail!("player '{text}': the engine command is missing after the second ':'");
        }
        let mut limits = Limits::default();
        let mut tc = None;
        let mut options = Vec::new();
        for item in settings.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                bail!("player '{text}': '{item}' is not KEY=VALUE");
            };
            if !parse_limit(text, key.trim(), value, &mut limits, &mut tc)? {
                options.push((key.trim().to_string(), value.trim().to_string()));
            }
        }
        if limits == Limits::default() && tc.is_none() {
            bail!("player '{text}': give a limit: nodes=N, movetime=MS, depth=D or tc=[MOVES/]BASE[+INC]");
        }
        return Ok(Spec::Uci { limits, tc, options, command });
    }
    let rest = if text == "engine" { Some("") } else { text.strip_prefix("engine:") };
    let Some(rest) = rest else {
        bail!("unknown player '{text}' (players: {})", known(id));
    };
    parse_engine(text, rest, id)
}

/// The settings after `engine:`: limits, and in two-player games the
/// engine's levels, features, parameters and terms, in games of more sides `search=`.
fn parse_engine(text: &str, rest: &str, game: GameId) -> Result<Spec> {
    let id = match game {
        GameId::Two(v) => v,
        GameId::Multi(_) => raum_rules::VariantId::FiveUp,
    };
    let mut limits = Limits::default();
    let mut tc = None;
    let mut search = MultiSearch::default();
    let (mut features, mut params) = match game {
        GameId::Two(_) => (Features::for_variant(id), SearchParams::for_variant(id)),
        GameId::Multi(_) => (Features::default(), SearchParams::default()),
    };
    let mut eval = None;
    let mut level = None;
    let (mut lines, mut spread, mut grab) = (None, None, None);
    for item in rest.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            bail!("player '{text}': '{item}' is not KEY=VALUE (players: {})", known(game));
        };
        let key = key.trim();
        if parse_limit(text, key, value, &mut limits, &mut tc)? {
            continue;
        }
        if let GameId::Multi(_) = game {
            match key {
                "search" => search = value.trim().parse().with_context(|| format!("player '{text}'"))?,
                other => bail!(
                    "player '{text}': unknown engine setting '{other}' in a game of more sides (nodes, movetime, \
                     depth, tc, search)"
                ),
            }
            continue;
        }
        match key {
            "level" => {
                let l: f64 = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|l| (1.0..=f64::from(LEVELS)).contains(l))
                    .with_context(|| format!("player '{text}': level must be from 1 to {LEVELS}, not '{value}'"))?;
                if level.replace(l).is_some() {
                    bail!("player '{text}': one of level and elo, once");
                }
            }
            "elo" => {
                let (scale, own) = level_elos(id);
                let (lo, hi) = (scale[0], scale[scale.len() - 1]);
                let elo: f64 = value.trim().parse().ok().filter(|e| (lo..=hi).contains(e)).with_context(|| {
                    format!(
                        "player '{text}': elo must be on {}'s measured scale, {lo} to {hi}{}, not '{value}'",
                        id.name(),
                        if own { "" } else { " (Five Up's)" }
                    )
                })?;
                if level.replace(strength_for_elo(id, elo).0).is_some() {
                    bail!("player '{text}': one of level and elo, once");
                }
            }
            "lines" => {
                let n: usize = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| (1..=256).contains(&n))
                    .with_context(|| format!("player '{text}': lines must be from 1 to 256, not '{value}'"))?;
                lines = Some(n);
            }
            "spread" => {
                let cp: i32 = value.trim().parse().ok().filter(|&cp| cp >= 0).with_context(|| {
                    format!("player '{text}': spread must be a number of centipawns, 0 or more, not '{value}'")
                })?;
                spread = Some(cp);
            }
            "grab" => {
                grab = Some(match value.trim() {
                    "1" => true,
                    "0" => false,
                    _ => bail!("player '{text}': grab is 1 (choose as a grabbing beginner) or 0, not '{value}'"),
                });
            }
            "off" => {
                let f: Feature = value.parse().with_context(|| format!("player '{text}'"))?;
                features = features.without(f);
            }
            "on" => {
                let f: Feature = value.parse().with_context(|| format!("player '{text}'"))?;
                features = features.with(f);
            }
            "eval" => {
                let path = value.trim();
                let listing = std::fs::read_to_string(path)
                    .with_context(|| format!("player '{text}': reading the evaluation file {path}"))?;
                let params = raum_engine::tune::parse_listing(&EvalParams::for_variant(id), &listing)
                    .with_context(|| format!("player '{text}': evaluation file {path}"))?;
                eval = Some(params);
            }
            other if SearchParams::is_param(other) => {
                params.set(other, value).with_context(|| format!("player '{text}'"))?;
            }
            other => bail!(
                "player '{text}': unknown engine setting '{other}' (nodes, movetime, depth, level, elo, lines, spread, grab, \
                 off, on, eval, or a \
                 search parameter: {})",
                SearchParams::names().collect::<Vec<_>>().join(", ")
            ),
        }
    }
    if limits == Limits::default() && tc.is_none() && level.is_none() {
        // The multi-player searches have no levels.
        let ways = match game {
            GameId::Two(_) => "engine:depth=D, engine:tc=[MOVES/]BASE[+INC] or engine:level=L",
            GameId::Multi(_) => "engine:depth=D or engine:tc=[MOVES/]BASE[+INC]",
        };
        bail!("player '{text}': give the engine's limit as engine:nodes=N, engine:movetime=MS, {ways}");
    }
    let choice = match (lines, spread, grab) {
        (None, None, None) => None,
        _ if level.is_some() => {
            bail!("player '{text}': lines, spread and grab make a level of their own: not with level")
        }
        (lines, spread, grab) => Some((lines.unwrap_or(1), spread.unwrap_or(0), grab.unwrap_or(false))),
    };
    Ok(Spec::Engine { limits, tc, features, params, eval, level, choice, search })
}

/// Splits `--players`: commas separate players, except before `key=value`
/// parts, which continue the engine before them (`engine:nodes=100,depth=3,greedy`).
pub fn split_players(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',') {
        match out.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::VariantId;

    #[test]
    fn specs_parse() {
        let v = VariantId::FiveUp;
        let engine = |text: &str| match parse_spec(text, v).unwrap() {
            Spec::Engine { limits, features, eval, .. } => (limits, features, eval),
            other => panic!("{other:?}"),
        };
        assert_eq!(parse_spec("random", v).unwrap(), Spec::Random);
        assert_eq!(parse_spec("greedy", v).unwrap(), Spec::Greedy);
        let Spec::Engine { choice, .. } = parse_spec("engine:depth=1,lines=40,spread=300", v).unwrap() else {
            panic!()
        };
        assert_eq!(choice, Some((40, 300, false)));
        let Spec::Engine { choice, .. } = parse_spec("engine:depth=1,grab=1", v).unwrap() else { panic!() };
        assert_eq!(choice, Some((1, 0, true)));
        // An Elo on the variant's scale is the strength interpolated between its levels.
        let (scale, _) = raum_engine::level_elos(v);
        let mid = (scale[0] + scale[1]) / 2.0;
        let Spec::Engine { level, .. } = parse_spec(&format!("engine:elo={mid}"), v).unwrap() else { panic!() };
        assert_eq!(level, Some(1.5));
        for bad in [
            "engine:depth=1,lines=0",
            "engine:depth=1,spread=-5",
            "engine:level=2,spread=50",
            "engine:level=2,grab=1",
            "engine:depth=1,grab=yes",
            "engine:lines=4",
            "engine:elo=-100",
            "engine:elo=99999",
            "engine:level=2,elo=500",
            "engine:level=2,level=3",
        ] {
            assert!(parse_spec(bad, v).is_err(), "{bad}");
        }
        assert_eq!(engine("engine:nodes=2000").0.nodes, Some(2000));
        assert_eq!(engine("engine:movetime=100").0.movetime, Some(Duration::from_millis(100)));
        assert_eq!(engine("engine:depth=3").0.depth, Some(3));
        let (l, f, e) = engine("engine:nodes=500, off=lmr,off=null-move");
        assert_eq!(l.nodes, Some(500));
        assert_eq!(f.off(), vec![Feature::NullMove, Feature::Lmr]);
        assert!(e.is_none());
        // Features start from the variant's defaults; on= adds one back.
        let rs = VariantId::Raumschach;
        let Spec::Engine { features, .. } = parse_spec("engine:nodes=9", rs).unwrap() else { panic!() };
        assert_eq!(features, Features::for_variant(rs));
        let Spec::Engine { features, .. } = parse_spec("engine:nodes=9,on=null-move,off=lmp", rs).unwrap() else {
            panic!()
        };
        assert!(features.has(Feature::NullMove) && !features.has(Feature::LateMovePruning));
        // Search parameters by name.
        let Spec::Engine { params, .. } = parse_spec("engine:nodes=9,rfp-margin=120,null-div=4", rs).unwrap() else {
            panic!()
        };
        assert_eq!((params.rfp_margin, params.null_div), (120, 4));
        let e = parse_spec("engine:nodes=9,null-div=0", rs).unwrap_err();
        assert!(format!("{e:#}").contains("at least 1"), "{e:#}");
        let Spec::Uci { limits, options, command, .. } =
            parse_spec("uci:movetime=50,Hash=32, Threads=2:./engine --uci", v).unwrap()
        else {
            panic!()
        };
        assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(options, vec![("Hash".to_string(), "32".to_string()), ("Threads".to_string(), "2".to_string())]);
        assert_eq!(command, vec!["./engine", "--uci"]);
        for bad in [
            "stockfish",
            "engine",
            "engine:nodes",
            "engine:nodes=x",
            "engine:nodes=0",
            "engine:speed=3",
            "engine:nodes=10,off=magic",
            "engine:nodes=10,rfp-margin=-5",
            "engine:nodes=10,lmp-base=many",
            "engine:off=lmr",
            "engine:nodes=10,eval=/nonexistent/params.txt",
            "uci:",
            "uci:nodes=10",
            "uci:nodes=10:",
            "uci:Hash=1:./engine",
            "uci:depth=99:./engine",
        ] {
            assert!(parse_spec(bad, v).is_err(), "{bad}");
        }
    }

    #[test]
    fn evaluation_files_are_read() {
        let v = VariantId::FiveUp;
        let path = std::env::temp_dir().join(format!("raum-eval-spec-{}.txt", std::process::id()));
        std::fs::write(&path, "# tuned\nvalue_W = 650\n").unwrap();
        let Spec::Engine { eval: Some(p), .. } =
            parse_spec(&format!("engine:nodes=9,eval={}", path.display()), v).unwrap()
        else {
            panic!()
        };
        assert!(p.piece_values.contains(&('W', 650)));
        std::fs::write(&path, "value_W = lots\n").unwrap();
        let e = parse_spec(&format!("engine:nodes=9,eval={}", path.display()), v).unwrap_err();
        assert!(format!("{e:#}").contains("line 1"), "{e:#}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn players_split_on_commas_but_keep_engine_options() {
        let id = GameId::Multi(raum_rules::multi::MultiId::Triquetral3p);
        let engine = |text: &str| match parse_spec(text, id).unwrap() {
            Spec::Engine { limits, search, .. } => (limits, search),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            split_players("engine:nodes=100,depth=3,greedy,random"),
            ["engine:nodes=100,depth=3", "greedy", "random"]
        );
        assert_eq!(parse_spec("greedy", id).unwrap(), Spec::Greedy);
        assert!(parse_spec("engine:speed=3", id).unwrap_err().to_string().contains("'speed'"));
        assert!(parse_spec("engine:", id).is_err());
        assert!(parse_spec("stockfish", id).is_err());
        let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        assert_eq!(engine("engine:movetime=100"), (limits.clone(), MultiSearch::BestReply));
        assert_eq!(engine("engine:movetime=100,search=paranoid"), (limits.clone(), MultiSearch::Paranoid));
        assert_eq!(
            split_players("engine:movetime=100,search=brs,engine:movetime=100,search=maxn,greedy"),
            ["engine:movetime=100,search=brs", "engine:movetime=100,search=maxn", "greedy"]
        );
        assert_eq!(engine("engine:movetime=100,search=brs"), (limits.clone(), MultiSearch::BestReply));
        assert_eq!(engine("engine:search=maxn,movetime=100"), (limits, MultiSearch::MaxN));
        assert!(parse_spec("engine:movetime=100,search=minimax", id).is_err());
        // A limit is missing: the ways to give one are the multi-player engine's (no level).
        let missing = parse_spec("engine:search=brs", id).unwrap_err().to_string();
        assert!(missing.contains("engine:movetime=MS") && !missing.contains("level"), "{missing}");
        // The two-player engine's settings are not the multi-player searches'.
        assert!(parse_spec("engine:level=3", id).unwrap_err().to_string().contains("'level'"));
    }
}
