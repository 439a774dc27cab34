//! Best-reply search (Schadd & Winands, "Best Reply Search for Multiplayer
//! Games", 2011), every side for itself.
//!
//! The root side moves as usual (a max node). At the next layer (a min node)
//! every opponent still in offers all its legal moves, each generated as if
//! that opponent were to move, and only the one move best against the root
//! side is played; then the root side moves again, whoever's turn it would
//! really be. So the tree alternates max and min layers like a two-player
//! one, alpha-beta, the table, killers and quiescence apply as in the
//! paranoid search, and the root side sees more of its own moves at a
//! given depth (a round costs two plies, where paranoid search spends one
//! ply on each side).
//!
//! Sides leaving: at a min node the side really to move is dealt with first,
//! as the game does (no legal move: it is out, and the next side takes the
//! node). Any other opponent with no legal move at that node is looked at
//! again after each reply, and is out if it still has none (the reply did
//! not rescue it): so a mate of the opponent that moves second is seen too.
//! The root side with no legal move has lost.

use super::{EXACT, Entry, INF, LOWER, MATE, Searcher, UPPER, with_mover};
use raum_rules::multi::MultiPosition;
use raum_rules::{Move, MoveList, Width};

/// A child of a min node: the position after a reply, with the root side to move.
enum Child<S: Width> {
    Position(MultiPosition<S>),
    /// Every opponent is out: the root side has won.
    Won,
}

/// The moves of a node: at a min node every opponent's.
struct Replies<S: Width> {
    moves: Vec<Move>,
    /// The opponents (bits) with no move.
    stuck: u8,
    /// The position with each opponent but the side to move to move.
    movers: Vec<MultiPosition<S>>,
}

impl<S: Width> Searcher<'_, S> {
    /// The opponents still in, the side to move first, then in turn order.
    fn opponents_from(&self, pos: &MultiPosition<S>) -> Vec<usize> {
        let n = pos.variant().sides().len();
        let side = pos.side_to_move();
        (0..n).map(|i| (side + i) % n).filter(|&t| t != self.root_side && pos.is_in(t)).collect()
    }

    /// Every opponent's moves at a min node (`list`: those of the side to
    /// move), and the opponents (bits) that have none. `noisy`: captures and
    /// promotions only.
    fn replies(&self, pos: &MultiPosition<S>, list: &MoveList, noisy: bool) -> Replies<S> {
        let mut all: Vec<Move> = list.to_vec();
        let mut stuck = 0u8;
        let mut movers = Vec::new();
        let mut scratch = MoveList::new();
        for t in self.opponents_from(pos).into_iter().skip(1) {
            let q = with_mover(pos, t);
            if noisy {
                q.legal_captures_into(&mut scratch);
            } else {
                q.legal_moves_into(&mut scratch);
            }
            if scratch.is_empty() {
                stuck |= 1 << t;
            }
            all.extend_from_slice(&scratch);
            movers.push(q);
        }
        Replies { moves: all, stuck, movers }
    }

    /// The position after the reply `m` (by whichever opponent's man stands
    /// on its from-cell; `movers`: the position with each other opponent to
    /// move), the opponents in `stuck` that still have no legal move taken
    /// out, and the root side to move.
    fn reply_child(&self, pos: &MultiPosition<S>, m: Move, stuck: u8, movers: &[MultiPosition<S>]) -> Child<S> {
        let mover = pos.man_at(m.from()).map_or(pos.side_to_move(), |(s, _)| s);
        let mut q = match movers.iter().find(|q| q.side_to_move() == mover) {
            Some(q) => q.clone(),
            None => with_mover(pos, mover),
        };
        q.play(m);
        let mut bits = stuck & !(1 << mover);
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut r = with_mover(&q, t);
            if !r.has_legal_move() {
                r.remove_side();
                if r.sides_in().len() == 1 {
                    return Child::Won;
                }
                q = r;
            }
        }
        if q.side_to_move() != self.root_side {
            q = with_mover(&q, self.root_side);
        }
        Child::Position(q)
    }

    /// Best-reply search: the score for the root side, and the best move
    /// (the root side's, or at a min node the best reply).
    pub(super) fn brs(
        &mut self,
        pos: &mut MultiPosition<S>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        root: bool,
    ) -> (i32, Option<Move>) {
        if self.tick() {
            return (0, None);
        }
        self.seldepth = self.seldepth.max(ply);
        if !root && self.is_draw(pos) {
            return (self.draw_value(pos), None);
        }
        if depth <= 0 || ply + 1 >= super::MAX_PLY {
            return (self.brs_quiesce(pos, ply, alpha, beta, 0), None);
        }
        let max = pos.side_to_move() == self.root_side;
        let key = pos.hash() ^ self.root_key;
        let slot = self.slot(key);
        let e = self.table[slot];
        let mut hash_move = 0;
        if e.key == key {
            hash_move = e.mv;
            if !root && e.depth as i32 >= depth {
                let s = e.score;
                match e.bound {
                    EXACT => return (s, None),
                    LOWER if s >= beta => return (s, None),
                    UPPER if s <= alpha => return (s, None),
                    _ => {}
                }
            }
        }
        let mut list = MoveList::new();
        pos.legal_moves_into(&mut list);
        if list.is_empty() {
            return match self.no_moves(pos, ply) {
                Some(s) => (s, None),
                None => {
                    let mut next = pos.clone();
                    next.remove_side();
                    self.brs(&mut next, depth, ply + 1, alpha, beta, false)
                }
            };
        }
        let Replies { moves, stuck, movers } = if max {
            Replies { moves: list.to_vec(), stuck: 0, movers: Vec::new() }
        } else {
            self.replies(pos, &list, false)
        };
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if max { -INF } else { INF };
        let mut best_move = None;
        for m in self.order(pos, &moves, hash_move, ply) {
            let score = if max {
                let undo = pos.play(m);
                self.history.push(pos.hash());
                let (score, _) = self.brs(pos, depth - 1, ply + 1, alpha, beta, false);
                self.history.pop();
                pos.unplay(m, undo);
                score
            } else {
                match self.reply_child(pos, m, stuck, &movers) {
                    Child::Won => MATE - (ply as i32 + 1),
                    Child::Position(mut child) => {
                        self.history.push(child.hash());
                        let (score, _) = self.brs(&mut child, depth - 1, ply + 1, alpha, beta, false);
                        self.history.pop();
                        score
                    }
                }
            };
            if self.aborted {
                return (best, best_move);
            }
            let better = if max { score > best } else { score < best };
            if better {
                best = score;
                best_move = Some(m);
            }
            if max {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                if pos.man_at(m.to()).is_none() && ply < super::MAX_PLY {
                    let k = &mut self.killers[ply];
                    if k[0] != m.bits() {
                        k[1] = k[0];
                        k[0] = m.bits();
                    }
                }
                break;
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta0 {
            LOWER
        } else {
            EXACT
        };
        self.table[slot] = Entry {
            key,
            mv: best_move.map_or(0, |m| m.bits()),
            score: best,
            depth: depth.min(i8::MAX as i32) as i8,
            bound,
        };
        (best, best_move)
    }

    /// Quiescence in best-reply form: the root side's captures, then the
    /// best capture among all opponents', with standing pat at each.
    fn brs_quiesce(&mut self, pos: &mut MultiPosition<S>, ply: usize, mut alpha: i32, mut beta: i32, qply: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let max = pos.side_to_move() == self.root_side;
        let stand = self.evaluate(pos);
        if max {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        if qply >= 8 || ply + 1 >= super::MAX_PLY {
            return stand;
        }
        let mut list = MoveList::new();
        pos.legal_captures_into(&mut list);
        let Replies { moves, movers, .. } = if max {
            Replies { moves: list.to_vec(), stuck: 0, movers: Vec::new() }
        } else {
            self.replies(pos, &list, true)
        };
        let mut best = stand;
        for m in self.order(pos, &moves, 0, super::MAX_PLY) {
            let score = if max {
                let undo = pos.play(m);
                let score = self.brs_quiesce(pos, ply + 1, alpha, beta, qply + 1);
                pos.unplay(m, undo);
                score
            } else {
                match self.reply_child(pos, m, 0, &movers) {
                    Child::Won => MATE - (ply as i32 + 1),
                    Child::Position(mut child) => self.brs_quiesce(&mut child, ply + 1, alpha, beta, qply + 1),
                }
            };
            if self.aborted {
                return best;
            }
            if max {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
