//! `raum serve`: the web app (crate `raum-server`).

use crate::args::ServeArgs;
use anyhow::{Context, Result};
use std::io::Write;
use std::time::Duration;

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
    config.policy.games = match a.games_per_hour {
        0 => raum_server::limits::Rate { burst: u32::MAX, every: Duration::from_nanos(1) },
        n => raum_server::limits::Rate { burst: 20, every: Duration::from_secs(3600) / n },
    };
    config.keep_unfinished =
        (a.keep_unfinished_days > 0).then(|| Duration::from_secs(a.keep_unfinished_days.saturating_mul(86_400)));
    config
}

pub fn serve(a: &ServeArgs) -> Result<()> {
    let config = config(a);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the server")?;
    runtime.block_on(raum_server::serve(config, |url, db| {
        println!("Raum is at {url}");
        println!("Games are kept in {db}");
        println!("Stop with Ctrl-C (or SIGTERM): requests under way finish, sockets are told to reconnect.");
        // Scripts wait for the URL line.
        let _ = std::io::stdout().flush();
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
    fn unfinished_games_are_kept_thirty_days_unless_told() {
        let day = Duration::from_secs(86_400);
        assert_eq!(keep(&[]), Some(30 * day));
        assert_eq!(keep(&["--keep-unfinished-days", "7"]), Some(7 * day));
        assert_eq!(keep(&["--keep-unfinished-days", "0"]), None, "0 keeps every game");
        assert!(Cli::try_parse_from(["raum", "serve", "--keep-unfinished-days", "-1"]).is_err());
    }
}
