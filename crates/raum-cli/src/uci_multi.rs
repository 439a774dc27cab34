//! The engine protocol on a multi-player game (`setoption name UCI_Variant
//! value wing-table-4p`): `position startpos|fen <string> [moves ...]` with
//! any side to move, `go` answering `bestmove` for that side. As on two-player
//! boards the search runs on its own thread (`stop`, `isready`, `quit` are
//! answered at once; `position`, `go`, `ucinewgame` and `setoption` wait for
//! a bounded search). Scores are from the side to move's team (or, every side
//! for itself, its own) point of view. The engine searches on one thread;
//! clocks are read as the mover's (`wtime` or else `btime`). Every side for
//! itself `MultiSearch` picks the search (`brs`, the default, `paranoid` or
//! `maxn`; BENCHMARKS.md "Every side for itself: three searches").

use crate::uci::{
    Chosen, DEFAULT_HASH_MB, MAX_HASH_MB, Next, Returned, Running, Session, parse_go, score_text, variant_option,
};
use raum_engine::SearchInfo;
use raum_engine::multi::{MultiEngine, MultiSearch};
use raum_notation::{format_multi_move, parse_multi_move, parse_multi_position};
use raum_rules::multi::{MultiGame, MultiPosition, MultiVariant};
use raum_rules::{MultiFn, Width};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The session on one multi-player game, at its width.
pub(crate) struct OnMulti<'a> {
    pub(crate) session: &'a mut Session,
    pub(crate) input: &'a mut dyn BufRead,
}

impl MultiFn for OnMulti<'_> {
    type Output = Option<Chosen>;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Option<Chosen> {
        let mut here = Here { s: self.session, v, game: MultiGame::new(MultiPosition::start(v)) };
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    here.s.out.error(&format!("cannot read input: {e}"));
                    break;
                }
            }
            let line = String::from_utf8_lossy(&buf);
            match here.handle(&line) {
                Next::Continue => {}
                Next::Quit => return None,
                Next::Variant(id) => return Some(id),
            }
        }
        here.s.finish();
        None
    }
}

struct Here<'a, S: Width> {
    s: &'a mut Session,
    v: &'static MultiVariant<S>,
    game: MultiGame<S>,
}

fn info_line<S: Width>(v: &MultiVariant<S>, i: &SearchInfo) -> String {
    let ms = i.time.as_millis();
    let nps = (i.nodes as u128 * 1000) / ms.max(1);
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        nps,
        ms
    );
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for &m in &i.pv {
            s.push(' ');
            s.push_str(&format_multi_move(v, m));
        }
    }
    s
}

impl<S: Width> Here<'_, S> {
    fn handle(&mut self, line: &str) -> Next {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Next::Continue };
        match cmd {
            "uci" => {
                let out = &self.s.out;
                out.send(&format!("id name Raum {}", env!("CARGO_PKG_VERSION")));
                out.send("id author Raum developers");
                out.send(&variant_option(self.v.id().name()));
                out.send(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
                let vars: String = MultiSearch::ALL.iter().map(|k| format!(" var {k}")).collect();
                out.send(&format!("option name MultiSearch type combo default {}{vars}", MultiSearch::default()));
                out.send("uciok");
            }
            "isready" => self.s.out.send("readyok"),
            "setoption" => return self.setoption(args),
            "ucinewgame" => {
                if !self.s.settle() {
                    self.s.out.error("ucinewgame during an infinite search; send stop first");
                } else {
                    if let Some(e) = &mut self.s.multi {
                        e.new_game();
                    }
                    self.game = MultiGame::new(MultiPosition::start(self.v));
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.s.stop(),
            "quit" => {
                self.s.stop();
                return Next::Quit;
            }
            _ => self.s.out.error(&format!("unknown command '{cmd}'")),
        }
        Next::Continue
    }

    fn setoption(&mut self, args: &[&str]) -> Next {
        if !self.s.settle() {
            self.s.out.error("setoption during a search (go infinite); send stop first");
            return Next::Continue;
        }
        if args.first().is_none_or(|a| !a.eq_ignore_ascii_case("name")) {
            self.s.out.error("setoption needs 'name <option> value <value>'");
            return Next::Continue;
        }
        let rest = &args[1..];
        let vi = rest.iter().position(|a| a.eq_ignore_ascii_case("value"));
        let (name, value) = match vi {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match Chosen::from_name(&value.to_ascii_lowercase()) {
                Ok(id) => return Next::Variant(id),
                Err(e) => self.s.out.error(&format!("UCI_Variant: {e}")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    let mb = self.s.caps.hash_mb.map_or(mb, |c| mb.min(c));
                    self.s.hash_mb = mb;
                    self.s.multi = None;
                }
                _ => self
                    .s
                    .out
                    .error(&format!("option Hash needs a whole number from 1 to {MAX_HASH_MB}, not '{value}'")),
            },
            "multisearch" => match value.to_ascii_lowercase().parse::<MultiSearch>() {
                Ok(kind) => self.s.multi_search = kind,
                Err(e) => self.s.out.error(&format!("option MultiSearch: {e}")),
            },
            // The multi-player search runs on one thread.
            "threads" => {}
            _ => self.s.out.error(&format!("unknown option '{name}' (options: UCI_Variant, Hash, MultiSearch)")),
        }
        Next::Continue
    }

    /// `position startpos|fen <string> [moves ...]`; on an error the position is kept.
    fn position(&mut self, args: &[&str]) {
        self.s.settle();
        let v = self.v;
        let (setup, moves) = match args.iter().position(|&a| a == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => MultiPosition::start(v),
            Some((&"fen", fen)) if !fen.is_empty() => {
                let fen = fen.join(" ");
                match parse_multi_position(v, &fen) {
                    Ok(p) => p,
                    Err(e) => {
                        self.s.out.error(&format!("position fen \"{fen}\" ({}): {e}; position unchanged", v.id()));
                        return;
                    }
                }
            }
            _ => {
                self.s.out.error("position: expected 'startpos' or 'fen <position string>'; position unchanged");
                return;
            }
        };
        let mut game = MultiGame::new(start);
        for (i, text) in moves.iter().enumerate() {
            let played = parse_multi_move(game.position(), text)
                .map_err(|e| e.to_string())
                .and_then(|m| game.play(m).map_err(|_| "the game is over".to_string()));
            if let Err(e) = played {
                self.s.out.error(&format!("position: move {} ({text}): {e}; position unchanged", i + 1));
                return;
            }
        }
        self.game = game;
    }

    fn go(&mut self, args: &[&str]) {
        if !self.s.settle() {
            self.s.out.error("go while a search is running (go infinite); ignored (send stop first)");
            return;
        }
        let mut limits = match parse_go(args) {
            Ok((_, moves)) if !moves.is_empty() => {
                self.s.out.error("go: searchmoves is not offered in the multi-player games; not searching");
                return;
            }
            Ok((l, _)) => l,
            Err(e) => {
                self.s.out.error(&format!("go: {e}; not searching"));
                return;
            }
        };
        // The mover's clock, whichever field carries it.
        limits.wtime = limits.wtime.or(limits.btime);
        let unbounded = limits.infinite
            || (limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.movetime.is_none()
                && limits.wtime.is_none());
        if let Some(cap) = self.s.caps.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let hash = self.s.hash_mb;
        let mut engine = self.s.multi.take().unwrap_or_else(|| Box::new(MultiEngine::new(hash)));
        engine.set_multi_search(self.s.multi_search);
        let game = self.game.clone();
        let v = self.v;
        let out = self.s.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_flag = Arc::clone(&answered);
        let infinite = limits.infinite;
        let handle = std::thread::spawn(move || {
            let r = engine.search(&game, &limits, &flag, &mut |i| out.send(&info_line(v, i)));
            // `go infinite` answers only after `stop`, as the protocol asks.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            answered_flag.store(true, Ordering::SeqCst);
            match r.best {
                Some(m) => out.send(&format!("bestmove {}", format_multi_move(v, m))),
                None => out.send("bestmove 0000"),
            }
            Returned::Multi(engine)
        });
        self.s.running = Some(Running { stop, unbounded, answered, handle });
    }
}
