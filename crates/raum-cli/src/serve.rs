//! `raum serve`: the web app (crate `raum-server`).

use crate::args::{LogFormat, ServeArgs};
use anyhow::{Context, Result, anyhow};
use std::io::Write;
use std::time::Duration;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The server's configuration from the arguments.
fn config(a: &ServeArgs) -> raum_server::Config {
    let mut config = raum_server::Config {
        port: a.port,
        host: a.host.clone(),
        db: raum_server::store::Database::parse(&a.db),
        ..Default::default()
    };
    if let Some(n) = a.engine_workers {
        config.engine_workers = n.max(1);
    }
    config.policy.per_address = !a.no_address_limits;
    config.policy.trusted_proxies = a.trusted_proxy.clone();
    config.policy.max_connections = a.max_connections as usize;
    config.policy.games = match a.games_per_hour {
        0 => raum_server::limits::Rate { burst: u32::MAX, every: Duration::from_nanos(1) },
        n => raum_server::limits::Rate { burst: 20, every: Duration::from_secs(3600) / n },
    };
    config.keep_unfinished =
        (a.keep_unfinished_days > 0).then(|| Duration::from_secs(a.keep_unfinished_days.saturating_mul(86_400)));
    config
}

/// Which events are logged: `RUST_LOG` read as a default level and
/// `target=level` pairs (`warn,raum_server=debug`); `info` when unset or empty.
fn log_filter(rust_log: Option<&str>) -> Result<Targets> {
    match rust_log.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(Targets::new().with_default(LevelFilter::INFO)),
        Some(s) => s.parse().map_err(|e| {
            anyhow!("RUST_LOG={s:?} does not read ({e}): give a level, or target=level pairs, comma-separated")
        }),
    }
}

/// Starts the log on stderr, as `format` says, filtered as `RUST_LOG` says.
fn start_log(format: LogFormat) -> Result<()> {
    let filter = log_filter(std::env::var("RUST_LOG").ok().as_deref())?;
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let registry = tracing_subscriber::registry().with(filter);
    let started = match format {
        LogFormat::Text => registry.with(lines).try_init(),
        // The event's fields beside its level and time, not under "fields".
        LogFormat::Json => registry.with(lines.json().flatten_event(true)).try_init(),
    };
    started.context("starting the log")
}

pub fn serve(a: &ServeArgs) -> Result<()> {
    start_log(a.log_format)?;
    let config = config(a);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the server")?;
    runtime.block_on(raum_server::serve(config, |url, db| {
        // Not println!: a reader that closed stdout after the URL line (as
        // scripts do) must not stop the server.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "Raum is at {url}");
        let _ = writeln!(out, "Games are kept in {db}");
        let _ =
            writeln!(out, "Stop with Ctrl-C (or SIGTERM): requests under way finish, sockets are told to reconnect.");
        // Scripts wait for the URL line.
        let _ = out.flush();
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn keep(args: &[&str]) -> Option<Duration> {
        let cli = Cli::try_parse_from(["raum", "serve"].iter().chain(args)).expect("the arguments read");
        match cli.command {
            Command::Serve(a) => config(&a).keep_unfinished,
            other => panic!("not serve: {other:?}"),
        }
    }

    #[test]
    fn trusted_proxies_are_addresses_or_networks_and_a_bad_one_says_why() {
        let proxies = |args: &[&str]| match Cli::try_parse_from(["raum", "serve"].iter().chain(args)) {
            Ok(Cli { command: Command::Serve(a) }) => Ok(config(&a).policy.trusted_proxies),
            Ok(other) => panic!("not serve: {other:?}"),
            Err(e) => Err(e.to_string()),
        };
        let two = proxies(&["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"]).expect("two read");
        assert_eq!(two.len(), 2);
        assert!(two[1].contains("10.9.8.7".parse().expect("ip")) && !two[0].contains("10.9.8.7".parse().expect("ip")));
        assert_eq!(proxies(&[]).expect("none"), Vec::new());
        let bad = proxies(&["--trusted-proxy", "10.0.0.0/40"]).expect_err("refused");
        assert!(bad.contains("'/40' is not a prefix length from 0 to 32") && bad.contains("--trusted-proxy"), "{bad}");
    }

    #[test]
    fn the_log_is_text_or_json_and_filtered_as_rust_log_says() {
        let format = |args: &[&str]| match Cli::try_parse_from(["raum", "serve"].iter().chain(args)) {
            Ok(Cli { command: Command::Serve(a) }) => Ok(a.log_format),
            Ok(other) => panic!("not serve: {other:?}"),
            Err(e) => Err(e.to_string()),
        };
        assert_eq!(format(&[]), Ok(LogFormat::Text));
        assert_eq!(format(&["--log-format", "json"]), Ok(LogFormat::Json));
        let refused = format(&["--log-format", "xml"]).expect_err("no such format");
        assert!(refused.contains("'xml'") && refused.contains("possible values: text, json"), "{refused}");

        let level = |l: LevelFilter| l.into_level().expect("a level");
        for unset in [None, Some(" ")] {
            let t = log_filter(unset).expect("the default");
            assert!(t.would_enable("raum_server", &level(LevelFilter::INFO)), "{unset:?}");
            assert!(!t.would_enable("raum_server", &level(LevelFilter::DEBUG)), "{unset:?}");
        }
        let t = log_filter(Some("warn,raum_server=debug")).expect("a level and a pair");
        assert!(t.would_enable("raum_server::api", &level(LevelFilter::DEBUG)));
        assert!(!t.would_enable("hyper", &level(LevelFilter::INFO)));
        let refused = log_filter(Some("raum_server=loud")).expect_err("no such level").to_string();
        assert!(refused.contains("RUST_LOG") && refused.contains("target=level"), "{refused}");
    }

    #[test]
    fn unfinished_games_are_kept_thirty_days_unless_told() {
        let day = Duration::from_secs(86_400);
        assert_eq!(keep(&[]), Some(30 * day));
        assert_eq!(keep(&["--keep-unfinished-days", "7"]), Some(7 * day));
        assert_eq!(keep(&["--keep-unfinished-days", "0"]), None, "0 keeps every game");
        assert!(Cli::try_parse_from(["raum", "serve", "--keep-unfinished-days", "-1"]).is_err());
    }
}
