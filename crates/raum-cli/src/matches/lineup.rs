//! Who plays which side in each game of a match ([`Lineup`]). The players
//! take the game's teams in turn: two-player games are two teams of one, and
//! A is White in the first game of each pair and Black in the second; with
//! teams of several sides (`wing-table-4p`, `triquetral-6p`) A takes one
//! team and B the other, swapping every game; every side for itself each
//! side is its own team, and game g seats player p on side (p + g) mod N, so
//! that every player plays every side equally often over N games.

use super::specs::{Spec, parse_spec, split_players};
use crate::args::MatchArgs;
use anyhow::{Context, Result, bail};
use raum_rules::GameId;

/// The players of a match and the game's teams.
pub(crate) struct Lineup {
    /// The players as the command line names them, A first.
    pub names: Vec<String>,
    pub specs: Vec<Spec>,
    /// Each side's team, in turn order, numbered from 0 as they first appear.
    teams: Vec<usize>,
}

impl Lineup {
    /// The players `--a` and `--b`, or `--players`, name for game `id`.
    pub fn new(id: GameId, a: &MatchArgs) -> Result<Lineup> {
        let sides = id.sides();
        let mut teams: Vec<usize> = Vec::new();
        let mut seen: Vec<u8> = Vec::new();
        for s in sides {
            let t = seen.iter().position(|&x| x == s.team).unwrap_or_else(|| {
                seen.push(s.team);
                seen.len() - 1
            });
            teams.push(t);
        }
        let two_teams = seen.len() == 2;
        let (names, whence): (Vec<String>, Vec<String>) = match (&a.players, &a.a, &a.b) {
            (Some(list), ..) => {
                let names = split_players(list);
                let whence = (1..=names.len()).map(|i| format!("in --players, player {i}")).collect();
                (names, whence)
            }
            (None, Some(pa), Some(pb)) if two_teams => {
                (vec![pa.clone(), pb.clone()], vec!["in --a".to_string(), "in --b".to_string()])
            }
            _ => bail!(
                "{id} seats {} players: name them with --players (e.g. engine:movetime=100,greedy){}",
                sides.len(),
                if two_teams { ", or the two teams' with --a and --b" } else { "" }
            ),
        };
        if names.len() != seen.len() {
            if two_teams {
                bail!("{id} is played in two teams: give two players (A takes one team, B the other)");
            }
            bail!("{id} seats {} players, one per side: --players lists {}", sides.len(), names.len());
        }
        let specs = names
            .iter()
            .zip(&whence)
            .map(|(n, w)| parse_spec(n, id).with_context(|| w.clone()))
            .collect::<Result<_>>()?;
        Ok(Lineup { names, specs, teams })
    }

    /// Two players for a two-player game: A White, B Black in the first game.
    #[cfg(feature = "lab")]
    pub fn two(a: Spec, b: Spec) -> Lineup {
        Lineup { names: vec!["A".into(), "B".into()], specs: vec![a, b], teams: vec![0, 1] }
    }

    /// How many players there are: one per team.
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// Whether the match is two-sided (two players, or two teams): the
    /// statistics are then A's against B (Elo, pairs, SPRT).
    pub fn two_sided(&self) -> bool {
        self.players() == 2
    }

    /// The team of `side`.
    pub fn team(&self, side: usize) -> usize {
        self.teams[side]
    }

    /// The player at each side in game `game` (counted from 0), in turn order.
    pub fn seats(&self, game: u64) -> Vec<usize> {
        let n = self.players();
        let turn = (game % n as u64) as usize;
        self.teams.iter().map(|&t| (t + n - turn) % n).collect()
    }

    /// The side that player `player` holds (its team's first) among `seats`.
    pub fn side_of(seats: &[usize], player: usize) -> usize {
        seats.iter().position(|&p| p == player).expect("every player has a side")
    }
}
