//! Sliding attacks along whole lines by table lookup.
//!
//! For every cell and each of the 13 lines through it (a direction and its
//! opposite), the attacks of a slider depend only on which other cells of that
//! line are occupied. Those few cells (at most 4 on a 5x5x5 board) are gathered
//! into a table index by a magic multiplication, found by search when the board
//! is built. The attack sets are computed by stepping along the board, so the
//! same tables serve wrapping axes, where a line is a cycle.

use crate::board::Board;
use crate::direction::DIRECTIONS;
use crate::tables::Tables;
use raum_bitboard::CellSet;

/// Where one (cell, line) pair's attacks live.
#[derive(Clone, Copy, Debug)]
struct Entry<S: CellSet> {
    mask: S,
    magic: S::Magic,
    /// `64 - bits`, where the entry's table has `1 << bits` slots.
    shift: u32,
    offset: u32,
}

/// Line-attack tables for one board.
#[derive(Clone, Debug)]
pub struct Lines<S: CellSet> {
    entries: Vec<Entry<S>>,
    attacks: Vec<S>,
}

/// A deterministic xorshift generator for the magic search.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A random magic for the set type.
    fn magic<S: CellSet>(&mut self) -> S::Magic {
        S::random_magic(&mut || self.next())
    }

    /// A random set with few bits per word.
    #[cfg(test)]
    fn sparse<S: CellSet>(&mut self) -> S {
        S::from_words(|_| self.next() & self.next() & self.next())
    }
}

/// Attacks from `cell` along direction `d` with blockers `occ`, by stepping.
fn walk<S: CellSet>(board: &Board, cell: usize, d: usize, occ: S) -> S {
    let mut out = S::EMPTY;
    let mut at = cell;
    while let Some(next) = board.step(at, DIRECTIONS[d]) {
        if next == cell || out.has(next) {
            break;
        }
        out.insert(next);
        if occ.has(next) {
            break;
        }
        at = next;
    }
    out
}

impl<S: CellSet> Lines<S> {
    /// Builds the tables; `line` ids are the positive directions `0..13`.
    pub fn new(board: &Board, tables: &Tables<S>) -> Self {
        let n = board.len();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut entries = Vec::with_capacity(n * 13);
        let mut attacks = Vec::new();
        for cell in 0..n {
            for line in 0..13 {
                let mask = tables.ray(cell, line) | tables.ray(cell, line + 13);
                let subsets: Vec<S> = {
                    let mut v = vec![S::EMPTY];
                    // Every subset of `mask`, by building them cell by cell.
                    for c in mask.cells() {
                        let with: Vec<S> = v.iter().map(|&s| s | S::single(c)).collect();
                        v.extend(with);
                    }
                    v
                };
                let targets: Vec<S> = subsets
                    .iter()
                    .map(|&occ| walk(board, cell, line, occ) | walk(board, cell, line + 13, occ))
                    .collect();
                let mut bits = mask.count().max(1);
                let (magic, table) = 'search: loop {
                    for _ in 0..100_000 {
                        let magic = if mask.is_empty() { S::random_magic(&mut || 0) } else { rng.magic::<S>() };
                        let mut table: Vec<Option<S>> = vec![None; 1 << bits];
                        let fits = subsets.iter().zip(&targets).all(|(&occ, &att)| {
                            let slot = &mut table[occ.magic_index(magic, 64 - bits)];
                            match slot {
                                Some(prev) => *prev == att,
                                None => {
                                    *slot = Some(att);
                                    true
                                }
                            }
                        });
                        if fits {
                            break 'search (magic, table);
                        }
                    }
                    bits += 1;
                };
                entries.push(Entry { mask, magic, shift: 64 - bits, offset: attacks.len() as u32 });
                attacks.extend(table.into_iter().map(|a| a.unwrap_or(S::EMPTY)));
            }
        }
        Lines { entries, attacks }
    }

    /// Cells a slider on `cell` reaches along `line` (both ways) with blockers
    /// `occ`, the first blocker on each side included.
    #[inline(always)]
    pub fn attacks(&self, cell: usize, line: usize, occ: S) -> S {
        let e = &self.entries[cell * 13 + line];
        self.attacks[e.offset as usize + (occ & e.mask).magic_index(e.magic, e.shift)]
    }

    /// Size of the tables in bytes.
    pub fn table_bytes(&self) -> usize {
        self.entries.len() * core::mem::size_of::<Entry<S>>() + self.attacks.len() * core::mem::size_of::<S>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Shape, Topology};

    /// Random occupancy of a wide board.
    fn wide_occupancy<S: CellSet>(rng: &mut Rng, all: S) -> S {
        (rng.sparse::<S>() | rng.sparse::<S>() | rng.sparse::<S>()) & all
    }

    fn check_wide<S: CellSet>(board: &Board, samples: usize) {
        let tables: Tables<S> = Tables::new(board).unwrap();
        let start = std::time::Instant::now();
        let lines = Lines::new(board, &tables);
        eprintln!("{} cells: line tables in {:?}, {} bytes", board.len(), start.elapsed(), lines.table_bytes());
        let mut rng = Rng(777);
        for _ in 0..samples {
            let occ = wide_occupancy(&mut rng, tables.all());
            let cell = (rng.next() % board.len() as u64) as usize;
            for line in 0..13 {
                let expected = walk(board, cell, line, occ) | walk(board, cell, line + 13, occ);
                assert_eq!(lines.attacks(cell, line, occ), expected, "cell {cell} line {line}");
            }
        }
    }

    #[test]
    fn wide_line_lookups_equal_stepping() {
        let cube = Board::new(Shape::cuboid(8, 8, 8), Topology::BOUNDED).unwrap();
        check_wide::<raum_bitboard::Wide<8>>(&cube, 3000);
        // Nine centred square levels, 2x2 to 10x10 (Octahedral Chess): lines that leave
        // the board are not followed across the gap.
        let octahedral = Shape::from_fn(10, 10, 9, |c| {
            let k = (c.z - 4).abs();
            (k..10 - k).contains(&c.x) && (k..10 - k).contains(&c.y)
        });
        let board = Board::new(octahedral, Topology::BOUNDED).unwrap();
        assert_eq!(board.len(), 340);
        check_wide::<raum_bitboard::Wide<6>>(&board, 3000);
    }

    #[test]
    fn line_lookups_equal_stepping() {
        for topology in [Topology::BOUNDED, Topology::CYLINDER, Topology::TORUS] {
            let board = Board::new(Shape::cuboid(5, 5, 5), topology).unwrap();
            let tables: Tables<u128> = Tables::new(&board).unwrap();
            let lines = Lines::new(&board, &tables);
            let mut rng = Rng(12345);
            for _ in 0..2000 {
                let occ = (rng.sparse::<u128>() | rng.sparse::<u128>()) & tables.all();
                let cell = (rng.next() % 125) as usize;
                for line in 0..13 {
                    let expected = walk(&board, cell, line, occ) | walk(&board, cell, line + 13, occ);
                    assert_eq!(lines.attacks(cell, line, occ), expected, "{topology:?} cell {cell} line {line}");
                }
            }
        }
    }
}
