//! `raum bench`: a fixed set of positions per variant, each searched on one
//! thread to a fixed depth with a cleared hash table. The total node count is
//! a signature of the search: the same build gives the same count on every
//! machine and every run, and any change to search or evaluation changes it.

use crate::args::BenchArgs;
use anyhow::{Context, Result, bail};
use raum_engine::multi::MultiEngine;
use raum_engine::{Engine, Limits, Score};
use raum_notation::{format_move, parse_position};
use raum_notation::{format_multi_move, parse_multi_position};
use raum_rules::multi::{MultiGame, MultiId, MultiVariant};
use raum_rules::{Game, MultiFn, Variant, VariantFn, VariantId, Width};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The multi-player games' bench positions: each start, then positions of
/// Raum's own self-play (all seats the engine, 30 ms a move), every eighth ply.
pub const MULTI_POSITIONS: &[(MultiId, &str)] = &[
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kBkAkAkB|kPkPkPkP|6|rRrBrP6bPbBbR|rNrArP6bPbAbN|rNrArP6bPbAbN|rRrBrP6bPbBbR|6|wPwPwPwP|wBwAwAwB|wRwNwNwR/kUkKkQkU|kPkPkPkP|6|rUrP6bPbU|rQrP6bPbK|rKrP6bPbQ|rUrP6bPbU|6|wPwPwPwP|wUwQwKwU/kPkPkPkP|6|rP6bP|rP6bP|rP6bP|rP6bP|6|wPwPwPwP w - - 0 1",
    ),
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kB2kB|kPkPkPkP|6|rRrBrP6bPbBbR|rN1rP6bP1bN|rN1rP6bP1bN|rRrBrP6bPbBbR|6|wPwPwPwP|wB2wB|wRwNwNwR/kUkKkQkU|kPkPkPkP|6|rUrP6bPbU|rQrP6bPbK|rKrP6bPbQ|rUrP6bPbU|6|wPwPwPwP|wUwQwKwU/kPkPkPkP|2kAkA2|rP6bP|rPrA4bAbP|rPrA4bAbP|rP6bP|2wAwA2|wPwPwPwP w - - 8 3",
    ),
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kB2kB|kPkPkPkP|6|rRrBrPkA5bPbBbR|rN1rP6bP1bN|rN1rP6bP1bN|rRrBrP6bP1bR|6|wPwPwPwP|3wB|wRwNwNwR/kUkKkQkU|kP1kPkP|2kP3|rU2rP4bPbU|rQrP6bPbK|rKrP6bPbQ|rUrP5bPbBbU|1wP4|wBwPwPwP|wUwQwKwU/kPkPkPkP|3kA2|rP6bP|rPrA4bAbP|rPrA4bAbP|rP6bP|2wAwA2|wPwPwPwP w - - 2 5",
    ),
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kB2kB|kPkPkPkP|6|rRrBrP6bPbBbR|rN1rP6bP1bN|rNrKrP6bP1bN|rRrBrP6bP1bR|4bP1|wPwPwPwP|3wB|wRwNwNwR/kUkK1kU|kP1kPkP|2kP3|rU2rP4bPbU|rQkQ6bPbK|1rP6bPbQ|1wB6bBbU|1wP4|1wP1wP|wUwQwKwU/kPkPkPkP|3kA2|rP6bP|rPrA4bAbP|rUrA5bP|rP6bP|2wAwA2|wPwPwPwP w - - 0 7",
    ),
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kB3|kPkPkPkP|4kP1|rRrBrP6bPbBbR|1rKrP6bP1bN|rN1rP6bP1bN|rRwBrP6bP1bR|4bP1|wPwPwPwP|3wB|wRwNwNwR/kUkKkBkU|kP2kP|2kP3|rU2rP4bPbU|rQrN5bP1bK|1rP6bPbQ|1wQ6bBbU|1wP4|1wP1wP|wU1wKwU/kPkPkPkP|3kA2|rP6bP|rPrA5bP|rUrA5bP|rP6bP|2wAwA2|wPwPwPwP w - - 0 9",
    ),
    (
        MultiId::WingTable4p,
        "kRkNkNkR|kB3|1kPkPkP|4kP1|rRrBrP6bPbBbR|2rP6bP2|rK1rP6bP1bN|rR1rP6bP1bR|4bP1|wPwPwPwP|3wB|wRwNwNwR/kUkKkBkU|kP3|2kP1kP1|rU3rP3bPbU|rQrN5bPbNbK|1rP6bPbQ|9bU|1wP4|1wP1wP|wU1wKwU/kPkPkPkP|3kA2|rP6bP|rPrA5bP|rUwQ5bP|rP6bP|2wAwA2|wPwPwPwP w - - 1 11",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|gN|gR/gBgU|gAgK|gAgQ|gBgU/gPgPgP|gPgPgP|gPgPgP|gPgPgP/5|5|5|5|5/5|bP5|bUbP5|bRbBbP5|5|wPwPwPwP|wBwAwAwB|wRwNwNwR/5|bP5|bQbP5|bNbAbP5|5|wPwPwPwP|wUwQwKwU/5|bP5|bKbP5|bNbAbP5|5|wPwPwPwP/5|bP5|bUbP5|bRbBbP5|5 w - - 0 1",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|gN|gR/gBgU|gAgK|gAgQ|gBgU/gPgPgP|gPgPgP|gPgPgP|2gP/5|5|5|1gPgP2|5/5|bP5|bUbP1bP3|bRbB1bP4|5|1wPwPwP|wBwAwAwB|wRwNwNwR/5|bP5|bQbP5|bNbA6|5|wPwPwPwP|wUwQwKwU/5|bP5|bKbP5|bNbAbP5|5|wPwPwPwP/5|bP5|bUbP5|bRbBbP5|5 g - - 0 3",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|gN|gR/gBgU|gAgK|gAgQ|gBgU/gPgPgP|gPgPgP|gP1gP|3/5|5|2gP2|1gP1gP1|5/5|1bP4|bUbP1gP3|bR2bP4|3wP1|1wPwQwP|wBwAwAwB|wRwNwNwR/5|bP5|bQbP5|bNbA6|2wP2|wP1wPwP|wU1wKwU/5|bP5|bKbP5|bNbAbP5|5|wPwPwPwP/5|bP5|bUbP5|bRbBbP1bB3|5 b - - 0 6",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|gN|gR/gBgU|gAgK|gA1|gBgU/gPgPgP|gPgPgP|gPgQgP|3/5|5|5|1gP1gP1|5/5|6|4gP2|6wP1|5|1wPwQwP|wB1wAwB|wRwNwNwR/5|6|3gP3|5wP2|wA4|wP1wPwP|wU1wKwU/5|6|7|8|5|wPwPwPwP/5|6|7|8|5 g - - 0 9",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|gN|gR/gBgU|gAgK|2|gBgU/gPgPgP|gPgPgP|gP1gP|3/5|3gA1|5|1gP3|5/5|6|7|6gP1|4wP|1wP2|wB1wAwB|wRwNwNwR/5|6|3gPwQ2|5wP2|wA4|wP1wPwP|wU1wKwU/5|6|7|8|5|wPwPwPwP/5|6|7|8|5 g - - 0 13",
    ),
    (
        MultiId::Triquetral3p,
        "gR|gN|1|gR/gBgU|gAgK|2|gBgU/gPgPgP|gPgPgP|gPgNgP|3/5|3gA1|5|5|5/5|6|7|8|1wAwB1wP|1wP2|wB1wA1|wRwNwNwR/5|6|3gPgP2|4gPwP2|5|wP1wPwP|wU1wKwU/5|6|7|8|1wP3|1wPwPwP/5|6|7|8|5 g - - 1 17",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gAgQ|gBgU/gPgPgP|gPgPgP|gPgPgP|gPgPgP/5|5rPrBrR|5rPrU|5rP|5/kPkPkPkP|5|bP5rPrArN|bUbP5rPrK|bRbBbP5rP|5|wPwPwPwP|wBwAwAwB|wRwNwNwR/kUkKkQkU|kPkPkPkP|5|bP5rPrArN|bQbP5rPrQ|bNbAbP5rP|5|wPwPwPwP|wUwQwKwU/kRkNkNkR|kBkAkAkB|kPkPkPkP|5|bP5rPrBrR|bKbP5rPrU|bNbAbP5rP|5|wPwPwPwP/5|bP5|bUbP5|bRbBbP5|5/yPyPyP|yPyPyP|yPyPyP|yPyPyP/yUyB|yQyA|yKyA|yUyB/yR|yN|yN|yR w - - 0 1",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gAgQ|gBgU/1gPgP|gPgPgP|gPgPgP|gPgPgP/1kP3|5rPrBrR|5rPrU|5rP|5/kPkP1kP|2kA2|bP5rPrArN|bUbP5rPrK|bRbBbP5rP|4wP|wPwPwP1|wBwAwAwB|wRwNwNwR/kUkKkQkU|kPkPkPkP|5|bPbA4rPrArN|bQbP5rPrQ|bNbAbP6|5|wPwP1wP|wUwQwKwU/kRkNkNkR|kB1kAkB|kPkPkPkP|5|bP5rPrBrR|bKbP5rPrU|bN1bP5rP|5|wPwPwPwP/5|bP5|bUbP1yA3|bRbBbP5|5/yPyPyP|yPyPyP|yPyPyP|yPyPyP/yUyB|yQyA|yK1|yUyB/yR|yN|yN|yR b - - 0 2",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gAkQ|gBgU/1gPgP|gP1gP|gPgPgP|gPgPgP/1gP3|5rPrBrR|5rPrU|6|5/kPkP1kP|2kA2|bP5rPrArN|bUbP5rPrK|bRbB1bP4rP|4rP|wPwPwP1|1wAwAwB|wRwNwNwR/kUkK1kU|kPkPkPkP|5|bP5rPrArN|bQbP5rP1|bNbAbP6|5|wPwP1wP|wUwBwKwU/kRkNkNkR|kB1kAkB|kPkPbAkP|5|bP5rPrBrR|bKbP5rPrU|bN1bP5rP|5|wPwPwPwP/5|bP3yP1|bUbP1yA3|bRbBbP5|5/yPyP1|yPyPyP|yPyPyP|yPyPyP/yUyB|yQyA|yK1|yUyB/yR|yN|yN|yR g - - 0 3",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gA1|1gU/1gPgP|gP1gP|gPgPgP|gPgPgP/1gP3|5rPrBrR|5rPrU|6|5/kPkP1kP|2kA2|bP5rPrArN|bUbP5rPrK|bRbB2bP3rP|3rP1|wPwPwP1|1wAwAwB|wRwNwNwR/kUkK1kU|kPkPkPkP|5|bP5rPrArN|bQbP5rP1|bNbAbP6|5|wPwP1wP|wUwBwKwU/kRkNgBkR|kB1kA1|kPkPkBkP|5|bP5rPrBrR|bKbP5rPrU|bN1bP5rP|5|1wPwPwP/5|bP3yP1|bUbP1yA3|bRbBbP5|2yP2/yPyP1|yPyPyP|1yPyP|yPyPyP/yUyB|yQ1|yK1|yUyB/yR|yN|yN|yR w - - 0 5",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gA1|1gU/1gPgP|gP1gP|gPgPgP|gPgPgP/5|5rPrBrR|5rPrU|6|5/kAkP1kP|2kA2|bP5rPrArN|bUbP5rP1|bRbB2bP3rP|3wP1|wPwPwP1|1wAwAwB|wRwNwNwR/kU2kU|kPkPkPkP|5|bP5rPrArK|bQbP5rP1|bNbAbP3yA2|5|wP2wP|wU1wKwU/kRkNkKkR|kB3|kPkPkBkP|5|bP5rPrBrR|bKbP5rPrU|bN2bP4rP|5|1wPwPwP/5|bP3yP1|bUbP5|bRbBbP5|2yP2/yPyP1|yPyPyP|1yPyP|yPyPyP/yUyB|yQ1|yK1|yUyB/yR|yN|yN|yR b - - 0 6",
    ),
    (
        MultiId::Triquetral6p,
        "gR|gN|gN|gR/gBgU|gAgK|gA1|1gU/1gP1|gP1gP|gPgPgP|gPkBgP/3gP1|5rPrBrR|5rPrU|6|5/kAkP1kP|2kA2|bP5rP1rN|bUbP7|bRbB4bP1rP|5|wPwPwP1|1wAwAwB|wRwNwNwR/kU2kU|kPkPkPkP|5|bP5rPrArK|bQbP5rP1|bNbAbP3yArP1|5|wP2wP|wU1wKwU/kRkNkKkR|kB3|kPkP1kP|5|bP5rPrBrR|bKbP5rPrU|bN2bP4rP|5|1wPyPwP/5|bP3yP1|bUbP5|bRbBbP5|5/yPyP1|yPyPyP|1yPyP|yPyPyP/yUyB|yQ1|yK1|yUyB/yR|yN|yN|yR g - - 0 7",
    ),
];

/// Depth searched when `--depth` is not given.
pub const DEFAULT_DEPTH: u32 = 7;
/// Hash table size for every bench search.
const HASH_MB: usize = 16;

/// The bench positions: each variant's start, then positions reached in
/// engine self-play (Raum's own games, recorded once as position strings).
pub const POSITIONS: &[(VariantId, &str)] = &[
    (VariantId::FiveUp, "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 1"),
    (
        VariantId::FiveUp,
        "rwkgr|pppp1|5|5|5/2qn1|p1ppp|1p2p|5|5/2n2|5|5|3P1|5/2b2|1B3|1b2P|PPP1P|1BQN1/5|P4|5|1PPP1|RWKGR w Kk - 0 6",
    ),
    (
        VariantId::FiveUp,
        "rwkgr|pp1p1|5|5|5/2qn1|p1ppp|1p2p|5|5/2nb1|2p2|5|3P1|5/5|1B3|1PP1P|PPW1P|1BQN1/5|P4|5|1P1P1|R1KGR w Kk - 0 9",
    ),
    (
        VariantId::FiveUp,
        "rwkgr|ppqp1|5|5|2Q2/3n1|p1pbp|1p2p|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PPWBP|1B1N1/5|P4|5|1P1P1|R1KGR w Kk - 4 12",
    ),
    (
        VariantId::FiveUp,
        "rwk2|ppqp1|5|5|4B/2g2|p1pbp|1pn1p|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PPWBP|3N1/2Q2|P4|5|1P1P1|R1KG1 w Kk - 1 15",
    ),
    (
        VariantId::FiveUp,
        "rwk2|ppq2|5|5|4B/5|2pgp|ppnpp|5|5/2n2|2p2|5|3P1|5/5|5|1P2P|PP1GP|3N1/2Q2|P4|3W1|1P1P1|R1K2 w Kk Ad3@Bd3 0 18",
    ),
    (
        VariantId::Raumschach,
        "5|5|5|PPPPP|RNKNR/5|5|5|PPPPP|BUQBU/5|5|5|5|5/ubqub|ppppp|5|5|5/rnknr|ppppp|5|5|5 w - - 0 1",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|PNPPP|B1QBU/5|3p1|5|U4|5/ub1ub|pppqp|5|3n1|5/r1k1r|ppppp|2n2|5|5 w - - 6 6",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|U3P|2B2/ub1ub|ppn1p|2p2|2N2|5/r1kqr|ppppp|2n2|5|5 w - - 3 9",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|4P|2B2/ub1ub|p1n1p|1pp2|5|5/r1kqr|p1ppp|1p3|U4|5 w - - 0 12",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B1Q1U/5|3p1|5|4P|5/ub1ub|p1nqp|1p3|5|1B3/r1k1r|p1ppp|1p3|5|5 w - - 1 15",
    ),
    (
        VariantId::Raumschach,
        "5|5|2N2|PPPPP|R1K1R/5|5|1P3|P1PP1|B3U/3b1|3p1|5|4P|2B2/ub1u1|p2pp|np3|5|5/r1k1r|p1pp1|1p3|5|5 w - - 2 18",
    ),
    (
        VariantId::Octahedral,
        "2|2/4|4|4|4/6|6|6|6|6|6/8|8|8|8|8|8|8|8/rnbqeekbnr|pppppppppp|10|10|10|10|10|10|PPPPPPPPPP|RNBQEEKBNR/8|8|8|8|8|8|8|8/6|6|6|6|6|6/4|4|4|4/2|2 w KQkq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vg2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 0 1",
    ),
    (
        VariantId::Octahedral,
        "2|2/4|4|4|4/6|6|6|6|6|6/8|6p1|8|8|8|8|8|8/rn1qeekbnr|ppp1ppp1pp|10|6Q3|10|7b2|6P3|10|PPPPPP1PPP|RNB1EEKBNR/8|8|8|8|8|8|8|8/6|1p4|6|6|6|6/4|4|4|4/2|2 w KQkq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Ve9,Vf9,Vg9,Vi9,Vj9 0 4",
    ),
    (
        VariantId::Octahedral,
        "2|2/4|4|1b2|4/6|6|6|6|6|6/8|6p1|8|8|8|8|8|8/rn1qeekbnr|ppp1pp2pp|10|1B4p3|10|6Q3|6P3|10|PPPPPP1PPP|RNB1EEK1NR/8|8|8|8|8|8|8|8/6|1p4|6|6|6|6/4|4|4|4/2|2 w KQkq Vg8 Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Ve9,Vf9,Vi9,Vj9 0 6",
    ),
    (
        VariantId::Octahedral,
        "2|2/1B2|4|1b2|4/6|6|6|6|6|6/8|6p1|8|8|8|8|8|8/rn1qeek1nr|pp2pp2pp|10|6p3|3b6|6Q3|6P3|2N7|PPPPPP1PPP|R1B1EEK1NR/8|1p6|8|8|8|8|8|8/6|1p4|6|6|6|6/4|4|4|4/2|2 w KQkq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Ve9,Vf9,Vi9,Vj9 2 8",
    ),
    (
        VariantId::Octahedral,
        "2|2/1B1q|4|Qb2|4/6|6|6|6|6|6/8|6p1|8|8|8|8|8|8/rn2eek1nr|pp2pp2pp|10|6p3|10|10|4N1P3|10|PPPPPP1PPP|R1B1EEK1NR/8|1p6|8|8|2b5|8|8|8/6|1p4|6|6|6|6/4|4|4|4/2|2 w KQkq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Ve9,Vf9,Vi9,Vj9 6 10",
    ),
    (
        VariantId::Octahedral,
        "2|2/4|4|Qb2|4/6|6|6|6|6|6/8|6p1|8|8|8|4q3|8|6K1/rn2Bek1nr|pp2pp2pp|10|6p3|10|10|4N5|10|PPPPPP1PPP|R1B1EE2NR/8|1p6|8|8|2b5|8|8|8/6|1p4|6|6|6|6/4|4|4|4/2|2 w kq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Ve9,Vf9,Vi9,Vj9 2 12",
    ),
    (
        VariantId::Pyramid,
        "rnbqeekbnr|pppppppppp|10|10|10|10|10|10|PPPPPPPPPP|RNBQEEKBNR/8|8|8|8|8|8|8|8/6|6|6|6|6|6/4|4|4|4/2|2 w KQkq - Va2,Vb2,Vc2,Vd2,Ve2,Vf2,Vg2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 0 1",
    ),
    (
        VariantId::Pyramid,
        "rnb1eekbnr|pppppppppp|10|10|10|10|10|2N7|PqPPPPPPPP|R3EEKBNR/8|8|8|8|8|8|8|8/6|6|6|6|6|B2Q2/4|4|4|4/2|2 w KQkq - Va2,Vc2,Vd2,Ve2,Vf2,Vg2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 0 4",
    ),
    (
        VariantId::Pyramid,
        "rnb1eekbnr|pppppppppp|10|10|10|10|10|2N7|P1PPPPPPPP|2R1EEKBNR/8|8|8|8|8|8|8|8/3Q2|6|6|6|6|B5/4|4|4|q3/2|2 w Kkq - Va2,Vc2,Vd2,Ve2,Vf2,Vg2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 4 6",
    ),
    (
        VariantId::Pyramid,
        "rnb1eekbnr|pppppppppp|10|10|10|10|10|2N7|P1PPPP1PPP|2R1EE1BNR/8|8|8|6q1|8|8|5P2|6K1/3Q2|6|6|6|6|B5/4|4|4|4/2|2 w kq - Va2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 1 8",
    ),
    (
        VariantId::Pyramid,
        "rn2eekbnr|pppppppppp|10|10|10|10|10|2N7|P1PPPP1PPP|2R1EEKBNR/8|8|8|1q6|8|8|5P2|8/b2Q2|6|6|6|6|B5/4|4|4|4/2|2 w kq - Va2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vg9,Vh9,Vi9,Vj9 5 10",
    ),
    (
        VariantId::Pyramid,
        "rn2eekb1Q|pppppp1ppp|7n2|10|10|10|10|2N7|P1PPPP1PPP|2R1EEKBNR/5p2|8|8|1q6|8|8|5P2|8/b5|6|6|6|6|B5/4|4|4|4/2|2 w q - Va2,Vc2,Vd2,Ve2,Vf2,Vh2,Vi2,Vj2,Va9,Vb9,Vc9,Vd9,Ve9,Vf9,Vh9,Vi9,Vj9 1 12",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 1",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|ppp2ppp|8|4p3|4p3|5Q2|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 4",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1kbnr|ppp2ppp|8|8|3p4|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 6",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNB1CBNR/rnb1kbnr|ppp1qppp|8|8|3p4|8|PPPPQPPP|RNB1KBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|3q4|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|3P4|8|PPP1PPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 1 8",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNB1CBNR/rnb1kbnr|ppp1qppp|8|8|3p4|8|PPPPQPPP|RNB1KBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|3q4|8|3Q4|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppp1ppp|4p3|8|3P4|3Q4|PPP1PPPP|RNB1CBNR/rnbqcbnr|ppppppp1|8|7p|8|8|PPPPPPPP|RNB1CBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 10",
    ),
    (
        VariantId::BetzaUpright,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1c1nr|pppppppp|8|8|8|8|PPPPPPPP|RNB1CBNR/rnb1kbnr|ppp1bppp|8|8|3p4|8|PPPP1PPP|RNB1KBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|3p4|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppp1ppp|8|8|3P4|3Q4|PPP1PPPP|RNB1CBNR/rnbqcbnr|ppppppp1|8|7p|8|8|PPPPPPPP|RNB1CBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 12",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 1",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNB1CBNR/rnbqkbnr|pppp1ppp|8|4p3|4P1Q1|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppppppp|5q2|8|8|5Q2|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 4",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppp1ppp|4p3|5Q2|8|8|PPPPPPPP|RNB1CBNR/rnbqkbnr|pppp1ppp|8|4p3|4P3|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppp1ppp|5p2|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 6",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppp1ppp|4p3|1Q6|8|5Q2|PPPPPPPP|RNB1CBNR/rnbqkbnr|pppp1ppp|8|4p3|3qP3|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppp1ppp|5p2|6q1|8|8|PPPPPPPP|RNB1CBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 4 8",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|1ppp1ppp|4p3|1p6|8|5Q2|PPPPPPPP|R1B1CBNR/rnbqkbnr|pppp1ppp|8|4p3|3qP3|1N6|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppp1ppp|5p2|6q1|7P|8|PPPPPPP1|RNB1CBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 10",
    ),
    (
        VariantId::BetzaMixed,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|1q6|8|3P4|8|PPP1PPPP|RNBQCBNR/rnb1cbnr|1ppp1ppp|4p3|1p6|8|5Q2|PPPPPPPP|R1B1CBNR/rnbqkbnr|pppp1ppp|8|4p3|4P3|1N6|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppp1ppp|8|6p1|8|8|PPPPPPP1|RNB1CBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 12",
    ),
    (
        VariantId::BetzaFlat,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 1",
    ),
    (
        VariantId::BetzaFlat,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|5Q2|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|ppp2ppp|8|4p3|4p3|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 4",
    ),
    (
        VariantId::BetzaFlat,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|ppp1qppp|8|8|4p3|8|PPPP1PPP|RNB1KBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 6",
    ),
    (
        VariantId::BetzaFlat,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNB1CBNR/rnbqkbnr|pppbqppp|8|1B6|4p3|8|PPPP1PPP|RNB1K1NR/rn2cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|6Q1|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 2 8",
    ),
    (
        VariantId::BetzaFlat,
        "r1bqcbnr|pppppppp|8|1B6|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|2n5|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNB1CBNR/rn1qkbnr|pppbqppp|8|8|4p3|8|PPPP1PPP|RNB1K1NR/rn2cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQC1NR/rnbqcbnr|pppppppp|8|8|6Q1|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 10",
    ),
    (
        VariantId::BetzaFlat,
        "r1bqcbnr|pppppppp|8|1B1q4|2P5|8|PP1PPPPP|RNBQCBNR/rnb1cbnr|pppppppp|2n5|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|ppp1pppp|3p4|8|8|8|PPPPPPPP|RNB1CBNR/rn2kbnr|pppbqppp|8|8|4p3|8|PPPP1PPP|RNB1K1NR/rn2cbnr|pppppppp|8|3q4|8|8|PPPPPPPP|RNBQC1NR/rnbqcbnr|pppppppp|8|8|4Q3|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 1 12",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 1",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|ppp2ppp|8|3pp3|4P3|8|PPPP1PPP|RNB1KBNR/rnbqcbnr|pppppppp|8|5Q2|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|3q4|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 2 4",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqkbnr|pppbqppp|8|1B1pQ3|4P3|8|PPPP1PPP|RNB1K1NR/rn2cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|3q4|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 3 6",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppp1ppp|4p3|8|8|8|PPPPPPPP|RNBQCBNR/rnb1kbnr|pppqqppp|8|3Q4|4P3|8|PPPP1PPP|RNB1K1NR/rn2cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|3q4|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 0 8",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppp1ppp|4p3|8|8|8|PPPPPPPP|RNBQCBNR/rnb1kbnr|pppq1ppp|8|8|4P3|8|PPPP1PPP|R1B1K1NR/rn2cbnr|pppppppp|8|8|5q2|2N5|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 2 10",
    ),
    (
        VariantId::BetzaVery3d,
        "rnbqcbnr|pppppppp|8|8|3q4|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnb1cbnr|pppp1ppp|4p3|8|8|5Q2|PPPPPPPP|RNB1CBNR/rnb1kbnr|ppp2ppp|8|8|4P3|8|PPPP1PPP|R1B1K1NR/rn2cbnr|pppppppp|8|6q1|5q2|2N2Q2|PPPPPPPP|RNB1CBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR/rnbqcbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQCBNR w 1a1,1h1,1a8,1h8,4a1,4h1,4a8,4h8,7h1,7h8,8a1,8a8 - 6 12",
    ),
    (
        VariantId::Book3d,
        "rnbqkbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBQKBNR/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,D2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 0 1",
    ),
    (
        VariantId::Book3d,
        "rnb1kbnr|pppppppp|8|8|8|8|PPPPPPPP|RNBK2NR/8|8|8|8|8|8|8|8/8|8|8|8|8|4q3|8|8/8|8|8|8|5B2|8|8|8/8|8|8|3Q4|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,D2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 6 4",
    ),
    (
        VariantId::Book3d,
        "rnb2bnr|pppppppp|8|8|8|8|PPP1PPPP|RNBK2NR/4k3|8|8|8|8|8|3P4|8/8|8|8|8|8|1q6|8|8/8|8|8|8|5B2|8|8|8/8|8|8|8|4Q3|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 1 6",
    ),
    (
        VariantId::Book3d,
        "1nb2bnr|pppppppp|8|8|8|8|PPP1PPPP|R1B1K1NR/4k3|8|8|8|8|8|3P4|8/8|8|8|8|8|8|8|2N5/r7|8|8|8|5B2|8|8|8/8|8|8|8|4Q3|8|8|8/8|8|4q3|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,E2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 5 8",
    ),
    (
        VariantId::Book3d,
        "1nb3nr|pppppppp|8|8|8|8|PPP2PPP|R1B1K1NR/4k3|8|8|8|8|8|3PP3|8/8|8|5b2|8|8|8|8|2N5/r7|8|8|3Q4|5B2|8|8|8/8|8|8|8|8|8|8|8/8|8|3q4|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 3 10",
    ),
    (
        VariantId::Book3d,
        "1nb3nr|pppppppp|8|8|8|8|PPP2PPP|R1B1K1NR/4k3|8|8|8|8|8|3PP3|8/8|8|4Qb2|8|8|8|8|2N5/3r4|8|8|4B3|8|8|8|8/8|8|3q4|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8/8|8|8|8|8|8|8|8 w - - +yz,-yz A2α,B2α,C2α,F2α,G2α,H2α,A7α,B7α,C7α,D7α,E7α,F7α,G7α,H7α 7 12",
    ),
    (
        VariantId::FiveUpCylinder,
        "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 1",
    ),
    (
        VariantId::FiveUpCylinder,
        "rwkgr|p1pp1|5|4p|5/1b2b|1pppp|ppn2|5|2Q2/5|3q1|5|4B|1N3/4n|5|2W2|PPPPP|NB3/5|5|5|PPPPP|R1KGR w Kk - 0 8",
    ),
    (
        VariantId::FiveUpCylinder,
        "r2gr|p1pp1|5|1w2p|5/2k1b|1p1p1|ppn2|5|b4/5|2pp1|5|4B|5/4n|5|1N3|PPPPP|1B1N1/5|5|5|PPPPP|R1KGR w Kk - 0 15",
    ),
    (
        VariantId::FiveUpCylinder,
        "r4|p1p2|5|5|3N1/3kb|1p1p1|pp3|5|5/5|2pp1|5|5|5/5|1n3|1P3|1PPPP|5/5|5|5|PPPPP|R2KR w Kk - 1 23",
    ),
    (
        VariantId::FiveUpCylinder,
        "r4|p1p2|5|5|5/3k1|1p1p1|5|ppN2|b4/5|3pn|5|5|5/5|5|1PP2|1PP1P|4K/5|5|5|PP1PP|1R2R w Kk - 1 31",
    ),
    (
        VariantId::FiveUpCylinder,
        "r4|2p2|5|5|5/3k1|1p1p1|5|p4|5/5|5|4P|5|p4/5|5|1PP2|2Pn1|K4/5|5|5|PP1P1|1R2R w Kk - 1 38",
    ),
    (
        VariantId::FiveUpTorus,
        "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - Aa4,Ab4,Ac4,Ad4,Ae4,Aa5,Ab5,Ac5,Ad5,Ae5,Ba4,Bb4,Bc4,Bd4,Be4,Ba5,Bb5,Bc5,Bd5,Be5,Da1,Db1,Dc1,Dd1,De1,Da2,Db2,Dc2,Dd2,De2,Ea1,Eb1,Ec1,Ed1,Ee1,Ea2,Eb2,Ec2,Ed2,Ee2 0 1",
    ),
    (
        VariantId::FiveUpTorus,
        "rwk1r|ppppp|5|1b3|1N3/1b1n1|ppppp|5|5|2n1N/5|5|5|5|5/2g2|5|5|PPPPP|1BQ1B/R4|5|5|PPPPP|1WK1R w Kk - Aa4,Ab4,Ac4,Ad4,Ae4,Aa5,Ab5,Ac5,Ae5,Ba4,Bb4,Bc4,Bd4,Be4,Bb5,Bd5,Db1,Dc1,De1,Da2,Db2,Dc2,Dd2,De2,Eb1,Ec1,Ee1,Ea2,Eb2,Ec2,Ed2,Ee2 3 8",
    ),
    (
        VariantId::FiveUpTorus,
        "rwk2|pp1pp|2p2|5|5/1b3|ppppp|5|5|4r/5|5|5|5|5/5|5|5|PPPPP|2Q1B/1RW2|5|5|PPPPP|n1K1R w Kk - Aa4,Ab4,Ad4,Ae4,Aa5,Ab5,Ac5,Ba4,Bb4,Bc4,Bd4,Be4,Bb5,Dc1,De1,Da2,Db2,Dc2,Dd2,De2,Ec1,Ee1,Ea2,Eb2,Ec2,Ed2,Ee2 2 15",
    ),
    (
        VariantId::FiveUpTorus,
        "r1k2|pp1pp|5|2p2|1b3/2W2|ppppp|5|5|2n2/5|1w3|5|5|5/5|5|5|PPPPP|2Q2/1R3|2P2|5|PP1PP|1RK2 w Kk - Aa4,Ab4,Ad4,Ae4,Aa5,Ac5,Ba4,Bb4,Bc4,Bd4,Be4,Dc1,Da2,Db2,Dc2,Dd2,De2,Ec1,Ea2,Eb2,Ed2,Ee2 7 23",
    ),
    (
        VariantId::FiveUpTorus,
        "r1k2|pp2p|5|2pp1|5/5|ppppp|5|5|5/5|5|5|5|5/2P2|5|1n3|PPPPP|5/5|5|5|PPQPP|2K2 w Kk - Aa4,Ab4,Ae4,Aa5,Ac5,Ba4,Bb4,Bc4,Bd4,Be4,Da2,Db2,Dc2,Dd2,De2,Ec1,Ea2,Eb2,Ed2,Ee2 2 31",
    ),
    (
        VariantId::FiveUpTorus,
        "2k2|4p|5|Q4|3p1/5|ppppp|5|5|5/r4|5|5|5|5/2n2|5|5|PPPPP|5/5|5|P4|1P1PP|2K2 w Kk - Ae4,Ac5,Ba4,Bb4,Bc4,Bd4,Be4,Da2,Db2,Dc2,Dd2,De2,Ec1,Eb2,Ed2,Ee2 0 38",
    ),
    (
        VariantId::FiveUpUnicorn,
        "r(wu)kgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|R(WU)KGR w Kk - 0 1",
    ),
    (
        VariantId::FiveUpUnicorn,
        "r(wu)kgr|1ppp1|5|p4|5/1bqnb|ppppp|4p|N4|nQ3/5|5|5|1PU2|B4/5|5|1P3|P1PPP|3NB/5|5|5|P1PPP|RWKGR w Kk - 2 8",
    ),
    (
        VariantId::FiveUpUnicorn,
        "r1kgr|2pp1|5|pQ3|5/1b2b|ppppp|(wu)3p|N4|n4/5|5|3q1|1PU2|B4/1N3|5|1P3|PWPBP|2G2/5|5|5|P1PPP|R1K1R w Kk - 1 15",
    ),
    (
        VariantId::FiveUpUnicorn,
        "r1kgr|3p1|5|1qp2|5/1b3|ppppp|4p|5|n4/5|4b|5|PPN2|B4/1N3|5|1P3|1GPBP|5/5|5|5|P1PPP|RK2R w Kk - 0 23",
    ),
    (
        VariantId::FiveUpUnicorn,
        "rk1g1|3p1|5|2pr1|5/1b3|ppppp|4p|B4|R4/5|5|5|PP3|5/1N2b|5|1PP2|1G1BP|5/5|5|5|P1PPP|1K2R w Kk - 1 28",
    ),
    (
        VariantId::FiveUpUnicorn,
        "1k1g1|3p1|5|2p2|5/1b3|pNppp|5|B4|R4/5|5|4p|PP3|5/r3b|5|1PP1P|1G1P1|5/5|5|5|P1PP1|1K2R w Kk - 0 31",
    ),
    (
        VariantId::WingTable,
        "rnnr|baab|pppp|6|6|6|6|6|6|PPPP|BAAB|RNNR/ukqu|pppp|6|6|6|6|6|6|PPPP|UQKU/pppp|6|6|6|6|6|6|PPPP w - - 0 1",
    ),
    (
        VariantId::WingTable,
        "rnnr|baab|p1pp|2p3|6|6|6|6|6|PPP1|2AB|RNNR/u2u|p2p|2pp2|6|6|6|3P2|1P2A1|1PPP|U1KU/ppkp|3p2|6|6|6|6|1B2P1|PPP1 w - - 0 10",
    ),
    (
        VariantId::WingTable,
        "r2r|1aab|p1pp|2p3|3n2|5b|2A3|3N2|3P2|PP2|2A1|RN1R/u2u|p2p|2pp2|6|6|2n3|2BP2|1P4|1PPP|U1KU/ppk1|3p2|4p1|4B1|6|6|4P1|PPP1 w - - 5 18",
    ),
    (
        VariantId::WingTable,
        "r2r|1a1b|p1p1|2p3|3pR1|6|6|6|3P2|PPN1|2A1|R3/uk1u|p2p|6|6|6|2n3|2BP2|1P4|1PPP|U1KU/pp2|2ap2|4p1|6|6|6|4P1|PPP1 w - - 1 26",
    ),
    (
        VariantId::WingTable,
        "r3|1a2|pup1|2p3|3p2|6|6|2NPrn|6|PP2|K3|R3/1k1u|p2p|6|b5|6|6|2BP2|1P4|1PPP|U2U/pp2|2a3|3p2|6|6|6|2A1P1|PPP1 w - - 0 34",
    ),
    (
        VariantId::WingTable,
        "3r|1a2|pup1|6|2pp2|6|6|3PA1|6|PP2|K3|3R/1k1u|p2p|6|b5|4n1|3P2|6|1P1B2|2PP|U2U/pp2|2a3|6|6|6|3N2|3pP1|PP2 w - - 0 42",
    ),
    (
        VariantId::WingTableAlt,
        "rnnr|buub|pppp|6|6|6|6|6|6|PPPP|BUUB|RNNR/ukqu|pppp|6|6|6|6|6|6|PPPP|UQKU/pppp|6|6|6|6|6|6|PPPP w - - 0 1",
    ),
    (
        VariantId::WingTableAlt,
        "rn1r|1uub|p1pp|2p3|4b1|6|6|2N3|1P4|1PPP|BUUB|R2R/uk1u|ppnp|3p2|6|6|6|1N4|3P2|PP1P|U1KU/ppp1|4p1|6|6|6|6|6|PPPP w - - 1 10",
    ),
    (
        VariantId::WingTableAlt,
        "r2r|1uub|p1np|2pp1b|2N3|6|2n3|2N3|1PP3|2PP|1UUB|R2R/uk1u|p2p|6|2pp2|6|2B3|6|3P2|PP1P|U1KU/ppp1|4p1|6|6|6|6|6|PPPP w - - 4 18",
    ),
    (
        VariantId::WingTableAlt,
        "r1kr|2u1|p2p|3pub|1b4|6|6|2N3|1PP3|2PP|2U1|R2R/u2u|p2p|6|2p3|3p2|2B3|6|3PP1|PP2|U1KU/ppp1|3np1|6|6|6|6|4B1|PPPP w - - 0 26",
    ),
    (
        VariantId::WingTableAlt,
        "r1kr|2u1|p2p|3p2|3n2|b5|6|6|1PP3|2PP|2U1|R2R/u2u|3p|6|1ppu2|B5|2Bp2|3P2|4P1|PP2|U1KU/ppp1|4p1|6|6|6|6|6|PPPP w - - 0 34",
    ),
    (
        VariantId::WingTableAlt,
        "r1kr|2u1|p1up|3p2|1R4|b1u3|6|6|2P3|2PP|2U1|3R/u3|3p|6|2p3|2P3|1p1p2|3P2|4P1|PP2|U1KU/ppp1|6|6|4p1|6|1B1P2|6|PP1P w - - 2 42",
    ),
    (
        VariantId::Forced3d,
        "r|bu|ppp|4|4|4|4|PPPP|BUUB|RNNR/n|uq|ppp|4|4|4|4|PPPP|UQKU/n|uk|ppp|4|4|4|4|PPPP/r|bu|ppp|4|4|4|4 w - - 0 1",
    ),
    (
        VariantId::Forced3d,
        "r|bu|ppp|4|2q1|4|PBP1|NP1P|BUU1|R1NR/n|u1|ppp|4|4|4|2PP|PP2|U1KU/n|u1|p2|1pp1|4|1Q2|4|PPPP/r|bu|p1k|4|1pp1|4|4 w - - 0 10",
    ),
    (
        VariantId::Forced3d,
        "r|bu|ppp|4|4|4|P1P1|1P1P|BUU1|R1NR/n|u1|ppp|4|2N1|1BPP|4|PP2|U1KU/1|u1|pn1|2pk|4|4|2P1|PP1P/r|1u|3|4|1ppb|p3|4 w - - 1 18",
    ),
    (
        VariantId::Forced3d,
        "r|bu|p1p|1p2|4|4|2PP|1P2|BU2|R1NR/n|u1|ppp|4|4|1PPP|1N2|PP1U|U1KU/1|u1|p2|2p1|2P1|3b|4|PP1P/r|1u|2k|4|4|ppp1|4 w - - 0 26",
    ),
    (
        VariantId::Forced3d,
        "r|1u|p1p|1p2|4|2PP|4|1P2|1U2|R1NR/n|u1|b1p|p3|3p|2P1|4|PP1U|UK2/1|2|p2|4|2P1|4|4|PP1P/r|1u|1uk|4|4|pNp1|1U2 w - - 0 34",
    ),
    (
        VariantId::Forced3d,
        "r|1u|p1p|Rp2|4|3P|4|1P2|4|2N1/n|u1|2p|p3|4|2Pb|4|PPKU|U3/1|2|p2|2k1|4|4|4|PP1P/r|1u|3|4|4|pN2|4 w - - 0 42",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|5|5|5|5|PPPP|BAAB|RNNR/ukqu|pppp|5|5|5|5|5|PPPP|UQKU/rnnr|baab|pppp|5|5|5|5|5|PPPP/5|5|5|5|5 w - - 0 1",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|1A3/pppp|5|5|5|4u|2P1P|P1P1|3B|RNNR/uk2|p1pp|1p3|5|5|5|5|PPPP|U1KU/rnnr|baa1|pp1p|2p2|A4|5|5|5|PPPP/5|5|5|5|5 w - - 0 10",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|a4|5/pppp|5|4P|5|u4|2P2|P1P1|3B|RNNR/u3|pkpp|1p3|2n2|5|2A2|3PP|PP2|U1KU/r1nr|b1a1|pp1p|2p2|5|5|5|4A|PPPP/5|5|5|5|5 w - - 3 18",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|4u|5|5|1P3|2P1|3B|RN1R/u3|pkpp|5|1pn2|5|2A2|1P1PP|NP2|U1KU/r1nr|b1a1|p2p|1p3|5|5|5|4A|PPPP/5|5|5|5|5 w - - 0 26",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|5|5|1P3|5|2P1|4|RN1R/u3|p1pp|5|1p3|1nAu1|2APP|1P3|NP2|UK1U/r1nr|2a1|p2p|2k2|1p3|5|5|4B|PPPP/5|5|3b1|5|5 w - - 1 34",
    ),
    (
        VariantId::Triquetral,
        "5|5|5|5|5/pppp|5|5|5|1R3|5|2P1|4|1N1K/u3|B1pp|5|1p1k1|2P2|N1A1P|1P3|1P2|U2U/2nr|2a1|p3|3p1|5|5|5|5|rPPP/5|5|3b1|5|5 w - - 0 42",
    ),
];

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

pub fn bench(a: &BenchArgs) -> Result<()> {
    let depth = a.depth.unwrap_or(DEFAULT_DEPTH);
    if depth == 0 || depth > 30 {
        bail!("--depth must be between 1 and 30, not {depth}");
    }
    let only_multi = a.variant.as_deref().and_then(MultiId::from_name);
    let only = match only_multi {
        Some(_) => None,
        None => a.variant.as_deref().map(|name| name.parse::<VariantId>()).transpose()?,
    };
    if let Some(id) = only
        && !POSITIONS.iter().any(|p| p.0 == id)
    {
        bail!("variant '{id}' has no bench positions yet");
    }
    let mut run = Run {
        engine: Engine::new(HASH_MB, 1),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        nodes: 0,
        time: Duration::ZERO,
    };
    // A variant's positions stand together in the list; each group is searched
    // at its variant's width.
    let mut first = 0;
    if only_multi.is_none() {
        for positions in POSITIONS.chunk_by(|x, y| x.0 == y.0) {
            let id = positions[0].0;
            if only.is_none_or(|o| o == id) {
                id.dispatch(Group { run: &mut run, first, positions })?;
            }
            first += positions.len();
        }
    }
    first = POSITIONS.len();
    if only.is_none() {
        for positions in MULTI_POSITIONS.chunk_by(|x, y| x.0 == y.0) {
            let id = positions[0].0;
            if only_multi.is_none_or(|o| o == id) {
                id.dispatch(MultiGroup { run: &mut run, first, positions })?;
            }
            first += positions.len();
        }
    }
    let nps = (run.nodes as f64 / run.time.as_secs_f64().max(1e-9)) as u64;
    eprintln!("time {:.3} s", run.time.as_secs_f64());
    println!("Bench: {} nodes {nps} nps", run.nodes);
    Ok(())
}

/// The bench's engine, limits and totals so far.
struct Run {
    engine: Engine,
    limits: Limits,
    nodes: u64,
    time: Duration,
}

/// The depth a variant's positions are searched to: boards of more than 128
/// cells, with two to four times as many moves a node, search four plies
/// less (at least one), so that no variant dominates the bench's time.
pub fn depth_for(id: VariantId, depth: u32) -> u32 {
    if id.width() == raum_rules::CellWidth::W128 { depth } else { depth.saturating_sub(4).max(1) }
}

/// One variant's bench positions (`first`: the index of the first in [`POSITIONS`]).
struct Group<'a> {
    run: &'a mut Run,
    first: usize,
    positions: &'a [(VariantId, &'static str)],
}

impl VariantFn for Group<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static Variant<S>) -> Result<()> {
        let run = self.run;
        let limits = Limits { depth: run.limits.depth.map(|d| depth_for(v.id(), d)), ..run.limits.clone() };
        for (i, &(id, fen)) in (self.first..).zip(self.positions) {
            let pos = parse_position(v, fen).with_context(|| format!("bench position {}", i + 1))?;
            run.engine.new_game();
            let start = Instant::now();
            let r = run.engine.search(&Game::new(pos), &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
            let elapsed = start.elapsed();
            run.nodes += r.info.nodes;
            run.time += elapsed;
            eprintln!(
                "position {:2}/{} {:10} depth {} nodes {:9} time {:6} ms best {} {}",
                i + 1,
                POSITIONS.len() + MULTI_POSITIONS.len(),
                id.name(),
                r.info.depth,
                r.info.nodes,
                elapsed.as_millis(),
                r.best.map_or("(none)".to_string(), |m| format_move(v, m)),
                score_text(r.info.score),
            );
        }
        Ok(())
    }
}

/// One multi-player game's bench positions, searched by the multi-player
/// engine four plies less deep than the 125-cell boards (at least one).
struct MultiGroup<'a> {
    run: &'a mut Run,
    first: usize,
    positions: &'a [(MultiId, &'static str)],
}

impl MultiFn for MultiGroup<'_> {
    type Output = Result<()>;
    fn call<S: Width>(self, v: &'static MultiVariant<S>) -> Result<()> {
        let run = self.run;
        let limits = Limits { depth: run.limits.depth.map(|d| d.saturating_sub(4).max(1)), ..Limits::default() };
        let total = POSITIONS.len() + MULTI_POSITIONS.len();
        for (i, &(id, fen)) in (self.first..).zip(self.positions) {
            let pos = parse_multi_position(v, fen).with_context(|| format!("bench position {}", i + 1))?;
            let mut engine = MultiEngine::new(HASH_MB);
            let start = Instant::now();
            let r = engine.search(&MultiGame::new(pos), &limits, &AtomicBool::new(false), &mut |_| {});
            let elapsed = start.elapsed();
            run.nodes += r.info.nodes;
            run.time += elapsed;
            eprintln!(
                "position {:2}/{total} {:10} depth {} nodes {:9} time {:6} ms best {} {}",
                i + 1,
                id.name(),
                r.info.depth,
                r.info.nodes,
                elapsed.as_millis(),
                r.best.map_or("(none)".to_string(), |m| format_multi_move(v, m)),
                score_text(r.info.score),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::Position;

    /// Each variant's bench positions: six, the first its start, all valid
    /// games still going.
    struct Valid;
    impl VariantFn for Valid {
        type Output = ();
        fn call<S: Width>(self, v: &'static Variant<S>) {
            let id = v.id();
            let mine: Vec<&str> = POSITIONS.iter().filter(|p| p.0 == id).map(|p| p.1).collect();
            assert_eq!(mine.len(), 6, "{id}");
            assert_eq!(parse_position(v, mine[0]).unwrap(), Position::start(v), "{id}");
            for fen in mine {
                let pos = parse_position(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert!(pos.outcome().is_none(), "{fen}");
            }
        }
    }

    #[test]
    fn positions_are_valid_games_in_progress_starting_with_each_start() {
        // The variants benched so far (the wide boards have no positions yet).
        for id in VariantId::ALL.into_iter().filter(|&id| POSITIONS.iter().any(|p| p.0 == id)) {
            id.dispatch(Valid);
        }
        // Each variant's positions stand together (the bench searches them group by group).
        let groups: Vec<VariantId> = POSITIONS.chunk_by(|x, y| x.0 == y.0).map(|g| g[0].0).collect();
        let mut distinct = groups.clone();
        distinct.sort_by_key(|id| id.name());
        distinct.dedup();
        assert_eq!(groups.len(), distinct.len(), "{groups:?}");
    }

    /// Each multi-player game's positions: six, the first its start, all games still going.
    struct ValidMulti;
    impl MultiFn for ValidMulti {
        type Output = ();
        fn call<S: Width>(self, v: &'static MultiVariant<S>) {
            let mine: Vec<&str> = MULTI_POSITIONS.iter().filter(|p| p.0 == v.id()).map(|p| p.1).collect();
            assert_eq!(mine.len(), 6, "{}", v.id());
            let start = raum_rules::multi::MultiPosition::start(v);
            assert_eq!(parse_multi_position(v, mine[0]).unwrap(), start);
            for fen in mine {
                let pos = parse_multi_position(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert!(MultiGame::new(pos).outcome().is_none(), "{fen}");
            }
        }
    }

    #[test]
    fn multi_player_positions_are_games_in_progress() {
        for id in MultiId::ALL {
            id.dispatch(ValidMulti);
        }
    }
}
