//! `raum serve`: the web app (crate `raum-server`).

use crate::args::ServeArgs;
use anyhow::{Context, Result};
use std::io::Write;

pub fn serve(a: &ServeArgs) -> Result<()> {
    let mut config = raum_server::Config { port: a.port, host: a.host.clone(), db: a.db.clone(), ..Default::default() };
    if let Some(n) = a.engine_workers {
        config.engine_workers = n.max(1);
    }
    config.policy.per_address = !a.no_address_limits;
    config.policy.games = match a.games_per_hour {
        0 => raum_server::limits::Rate { burst: u32::MAX, every: std::time::Duration::from_nanos(1) },
        n => raum_server::limits::Rate { burst: 20, every: std::time::Duration::from_secs(3600) / n },
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the server")?;
    runtime.block_on(raum_server::serve(config, |url, db| {
        println!("Raum is at {url}");
        println!("Games are kept in {}", db.display());
        println!("Stop with Ctrl-C.");
        // Scripts wait for the URL line.
        let _ = std::io::stdout().flush();
    }))?;
    Ok(())
}
