//! Sliding attacks along whole lines by table lookup.
//!
//! For every cell and each of the 13 lines through it (a direction and its
//! opposite), the attacks of a slider depend only on which other cells of that
//! line are occupied. Those few cells (at most 4 on a 5x5x5 board) are gathered
//! into a table index by a magic multiplication, found by search when the board
//! is built. The attack sets are computed by stepping along the board, so the
//! same tables serve wrapping axes, where a line is a cycle.
//!
//! Wide sets (`Wide<N>`, up to 512 cells) would have to gather a line's cells
//! from all `N` words. Instead a position also keeps *lanes* (see
//! [`CellSet::Lanes`]): its occupancy rearranged so that every line of the
//! board lies inside one 64-bit word (while lane words last; a line left over
//! is read from the whole set), either one of the set's own words (a
//! rank of an 8x8x8 board) or a lane word, where lines of one direction are
//! packed side by side. A lookup then reads one word, masks it and multiplies
//! by a 64-bit magic ([`Lines::attacks_in`]); [`Lines::lane_toggles`] says
//! which lane bits a cell owns, so that make and unmake keep the lanes up to
//! date with one XOR per line through the cell.

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

/// Where one (cell, line) pair's single-word lookup lives.
#[derive(Clone, Copy, Debug)]
struct WordEntry {
    /// The word the line lies in: `0..S::WORDS` the set's own words, then the
    /// lanes; [`NO_WORD`] when the line has no single word (a wrapping board,
    /// or no room left in the lanes): then the whole-set lookup serves.
    src: u16,
    shift: u32,
    mask: u64,
    magic: u64,
    /// Where the entry's slots start in `Lines::word_attacks` and `Lines::word_bits`.
    offset: u32,
}

const NO_WORD: u16 = u16::MAX;

/// Line-attack tables for one board.
#[derive(Clone, Debug)]
pub struct Lines<S: CellSet> {
    entries: Vec<Entry<S>>,
    attacks: Vec<S>,
    /// Per (cell, line): the single-word lookups (empty when `S` has no lanes).
    word_entries: Vec<WordEntry>,
    /// Per slot, the cells a slider reaches, as a set.
    word_attacks: Vec<S>,
    /// Per slot, the same cells as bits of the entry's word (8 bytes instead of
    /// a whole set: what the move generator's fast path reads).
    word_bits: Vec<u64>,
    /// Per lane word and bit, the cell there (`u16::MAX`: none).
    lane_cells: Vec<u16>,
    /// Per cell, its lane bits: `(lane word, bit)`, from `toggle_start[cell]`.
    toggles: Vec<(u16, u8)>,
    toggle_start: Vec<u32>,
    lanes_used: usize,
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
                let (magic, bits, table) = search_magic(
                    &subsets,
                    &targets,
                    mask.count(),
                    |r| if mask.is_empty() { S::random_magic(&mut || 0) } else { r.magic::<S>() },
                    &mut rng,
                    |occ: S, magic, bits| occ.magic_index(magic, 64 - bits),
                );
                entries.push(Entry { mask, magic, shift: 64 - bits, offset: attacks.len() as u32 });
                attacks.extend(table.into_iter().map(|a| a.unwrap_or(S::EMPTY)));
            }
        }
        let mut lines = Lines {
            entries,
            attacks,
            word_entries: Vec::new(),
            word_attacks: Vec::new(),
            word_bits: Vec::new(),
            lane_cells: Vec::new(),
            toggles: Vec::new(),
            toggle_start: vec![0; n + 1],
            lanes_used: 0,
        };
        if S::LANE_WORDS > 0 {
            lines.build_lanes(board, &mut rng);
        }
        lines
    }

    /// Lays out the lanes and builds the single-word lookups.
    fn build_lanes(&mut self, board: &Board, rng: &mut Rng) {
        let n = board.len();
        // Per (cell, line): the word and bit each cell of the board has there.
        let mut place: Vec<Option<(u16, u8)>> = vec![None; n * 13];
        let wraps = board.topology().wraps();
        let mut used = 0usize;
        for line in 0..13 {
            // The lines of this direction, each from its first cell.
            let mut runs: Vec<Vec<usize>> = Vec::new();
            for start in 0..n {
                if wraps || board.step(start, DIRECTIONS[line + 13]).is_some() {
                    continue;
                }
                let mut run = vec![start];
                let mut at = start;
                while let Some(next) = board.step(at, DIRECTIONS[line]) {
                    run.push(next);
                    at = next;
                }
                runs.push(run);
            }
            // A line inside one of the set's own words is read from there;
            // the others are packed into lane words, longest first.
            runs.sort_by_key(|r| core::cmp::Reverse(r.len()));
            let mut fill: Vec<u32> = Vec::new();
            let first_lane = used;
            for run in &runs {
                let word = run[0] / 64;
                if run.iter().all(|&c| c / 64 == word) {
                    for &c in run {
                        place[c * 13 + line] = Some((word as u16, (c % 64) as u8));
                    }
                    continue;
                }
                let len = run.len() as u32;
                let slot = fill.iter().position(|&f| f + len <= 64);
                let slot = match slot {
                    Some(i) => i,
                    None if first_lane + fill.len() < S::LANE_WORDS && len <= 64 => {
                        fill.push(0);
                        fill.len() - 1
                    }
                    None => continue,
                };
                for (k, &c) in run.iter().enumerate() {
                    let lane = (S::WORDS + first_lane + slot) as u16;
                    place[c * 13 + line] = Some((lane, (fill[slot] + k as u32) as u8));
                }
                fill[slot] += len;
            }
            used += fill.len();
        }
        self.lanes_used = used;

        let mut word_entries = Vec::with_capacity(n * 13);
        for cell in 0..n {
            for line in 0..13 {
                let (Some((src, _)), false) = (place[cell * 13 + line], wraps) else {
                    word_entries.push(WordEntry { src: NO_WORD, shift: 63, mask: 0, magic: 0, offset: 0 });
                    continue;
                };
                // The line's other cells but its two ends: whether an end is
                // occupied changes nothing (the slide stops there either way).
                let mut run = vec![cell];
                for d in [line, line + 13] {
                    let mut at = cell;
                    while let Some(next) = board.step(at, DIRECTIONS[d]) {
                        run.push(next);
                        at = next;
                    }
                }
                let ends = [run_end(board, cell, line), run_end(board, cell, line + 13)];
                let relevant: Vec<usize> = run.iter().copied().filter(|&c| c != cell && !ends.contains(&c)).collect();
                let bit = |c: usize| -> u64 {
                    let (w, b) = place[c * 13 + line].expect("every cell of a placed line is placed");
                    debug_assert_eq!(w, src);
                    1u64 << b
                };
                let mask = relevant.iter().fold(0, |m, &c| m | bit(c));
                let mut subsets: Vec<(u64, S)> = vec![(0, S::EMPTY)];
                for &c in &relevant {
                    let with: Vec<(u64, S)> = subsets.iter().map(|&(w, s)| (w | bit(c), s | S::single(c))).collect();
                    subsets.extend(with);
                }
                let targets: Vec<S> = subsets
                    .iter()
                    .map(|&(_, occ)| walk(board, cell, line, occ) | walk(board, cell, line + 13, occ))
                    .collect();
                let words: Vec<u64> = subsets.iter().map(|&(w, _)| w).collect();
                let (magic, bits, table) = search_magic(
                    &words,
                    &targets,
                    mask.count_ones(),
                    |r| if mask == 0 { 0 } else { r.next() & r.next() & r.next() },
                    rng,
                    |w: u64, magic: u64, bits| (w.wrapping_mul(magic) >> (64 - bits)) as usize,
                );
                word_entries.push(WordEntry {
                    src,
                    shift: 64 - bits,
                    mask,
                    magic,
                    offset: self.word_attacks.len() as u32,
                });
                for att in table.into_iter().map(|a| a.unwrap_or(S::EMPTY)) {
                    self.word_attacks.push(att);
                    self.word_bits.push(att.cells().fold(0, |w, c| w | bit(c)));
                }
            }
        }
        self.word_entries = word_entries;

        let mut toggles = Vec::new();
        for cell in 0..n {
            self.toggle_start[cell] = toggles.len() as u32;
            for line in 0..13 {
                if let Some((w, b)) = place[cell * 13 + line]
                    && w as usize >= S::WORDS
                {
                    toggles.push((w - S::WORDS as u16, b));
                }
            }
        }
        self.toggle_start[n] = toggles.len() as u32;
        self.lane_cells = vec![u16::MAX; S::LANE_WORDS * 64];
        for cell in 0..n {
            for &(w, b) in &toggles[self.toggle_start[cell] as usize..self.toggle_start[cell + 1] as usize] {
                self.lane_cells[w as usize * 64 + b as usize] = cell as u16;
            }
        }
        self.toggles = toggles;
    }

    /// [`Lines::attacks`] for the real occupancy `occ` of a position whose
    /// lanes are `lanes`, one per side ([`Lines::lanes_of`] of each side's
    /// cells; together they make `occ`): one word read instead of the whole set.
    #[inline(always)]
    pub fn attacks_in(&self, cell: usize, line: usize, occ: S, lanes: &[S::Lanes]) -> S {
        match self.slot_in(cell, line, occ, lanes) {
            Some((_, slot)) => self.word_attacks[slot],
            None => self.attacks(cell, line, occ),
        }
    }

    /// [`Lines::attacks_in`] as bits of one word: `(src, bits)`, where `src`
    /// names the word the line lies in (below `S::WORDS` the set's own word
    /// `src`, else lane `src - S::WORDS`); [`Lines::word_cell`] turns a bit
    /// back into a cell. `None` where the line has no single word (then use
    /// [`Lines::attacks_in`]); always `None` for sets without lanes.
    #[inline(always)]
    pub fn bits_in(&self, cell: usize, line: usize, occ: S, lanes: &[S::Lanes]) -> Option<(usize, u64)> {
        let (src, slot) = self.slot_in(cell, line, occ, lanes)?;
        Some((src, self.word_bits[slot]))
    }

    #[inline(always)]
    fn slot_in(&self, cell: usize, line: usize, occ: S, lanes: &[S::Lanes]) -> Option<(usize, usize)> {
        if S::LANE_WORDS == 0 {
            return None;
        }
        let e = &self.word_entries[cell * 13 + line];
        let src = e.src as usize;
        let word = if src < S::WORDS {
            occ.word(src)
        } else {
            let i = src - S::WORDS;
            if i >= S::LANE_WORDS {
                // NO_WORD: the line found no room in the lanes.
                return None;
            }
            lanes.iter().fold(0, |w, l| w | l.as_ref()[i])
        };
        Some((src, e.offset as usize + ((word & e.mask).wrapping_mul(e.magic) >> e.shift) as usize))
    }

    /// The cell at `bit` of word `src` (see [`Lines::bits_in`]).
    #[inline(always)]
    pub fn word_cell(&self, src: usize, bit: usize) -> usize {
        if src < S::WORDS { src * 64 + bit } else { self.lane_cells[(src - S::WORDS) * 64 + bit] as usize }
    }

    /// The lane bits of `cell`: `(lane word, bit)` pairs, one per line
    /// through the cell that lives in a lane. Set them when a piece arrives,
    /// clear them when it leaves.
    #[inline(always)]
    pub fn lane_toggles(&self, cell: usize) -> &[(u16, u8)] {
        if S::LANE_WORDS == 0 || self.toggles.is_empty() {
            return &[];
        }
        &self.toggles[self.toggle_start[cell] as usize..self.toggle_start[cell + 1] as usize]
    }

    /// The lanes of occupancy `occ`, computed from scratch.
    pub fn lanes_of(&self, occ: S) -> S::Lanes {
        let mut lanes = S::zero_lanes();
        for cell in occ.cells() {
            for &(w, b) in self.lane_toggles(cell) {
                lanes.as_mut()[w as usize] |= 1 << b;
            }
        }
        lanes
    }

    /// How many lane words the board uses (at most `S::LANE_WORDS`).
    pub fn lanes_used(&self) -> usize {
        self.lanes_used
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
        self.entries.len() * core::mem::size_of::<Entry<S>>()
            + (self.attacks.len() + self.word_attacks.len()) * core::mem::size_of::<S>()
            + self.word_bits.len() * 8
            + self.lane_cells.len() * 2
            + self.toggles.len() * core::mem::size_of::<(u16, u8)>()
            + self.toggle_start.len() * 4
            + self.word_entries.len() * core::mem::size_of::<WordEntry>()
    }
}

/// A magic and the smallest table (at least `min_bits` index bits) in which
/// `index(key, magic, bits)` sends every key to a slot holding its value (keys
/// with equal values may share a slot), tried with random magics.
fn search_magic<K: Copy, M: Copy, V: Copy + PartialEq>(
    keys: &[K],
    values: &[V],
    min_bits: u32,
    mut random: impl FnMut(&mut Rng) -> M,
    rng: &mut Rng,
    index: impl Fn(K, M, u32) -> usize,
) -> (M, u32, Vec<Option<V>>) {
    let mut bits = min_bits.max(1);
    loop {
        // One table per size, its slots marked with the try that filled them:
        // clearing (or allocating) the table for each of up to 100,000 tries
        // cost seconds on boards whose lines need many tries.
        let mut table: Vec<Option<V>> = vec![None; 1 << bits];
        let mut filled_by: Vec<u32> = vec![u32::MAX; 1 << bits];
        for attempt in 0..100_000u32 {
            let magic = random(rng);
            let fits = keys.iter().zip(values).all(|(&key, &value)| {
                let i = index(key, magic, bits);
                if filled_by[i] == attempt {
                    table[i] == Some(value)
                } else {
                    filled_by[i] = attempt;
                    table[i] = Some(value);
                    true
                }
            });
            if fits {
                for (slot, &by) in table.iter_mut().zip(&filled_by) {
                    if by != attempt {
                        *slot = None;
                    }
                }
                return (magic, bits, table);
            }
        }
        bits += 1;
    }
}

/// The last cell from `cell` along direction `d` (`cell` itself if none).
fn run_end(board: &Board, cell: usize, d: usize) -> usize {
    let mut at = cell;
    while let Some(next) = board.step(at, DIRECTIONS[d]) {
        if next == cell {
            break;
        }
        at = next;
    }
    at
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
        eprintln!("{} lane words used of {}", lines.lanes_used(), S::LANE_WORDS);
        let mut rng = Rng(777);
        for _ in 0..samples {
            let occ = wide_occupancy(&mut rng, tables.all());
            // Two sides' lanes, as a position keeps them.
            let first = occ & wide_occupancy(&mut rng, tables.all());
            let lanes = [lines.lanes_of(first), lines.lanes_of(occ & !first)];
            let cell = (rng.next() % board.len() as u64) as usize;
            for line in 0..13 {
                let expected = walk(board, cell, line, occ) | walk(board, cell, line + 13, occ);
                assert_eq!(lines.attacks(cell, line, occ), expected, "cell {cell} line {line}");
                assert_eq!(lines.attacks_in(cell, line, occ, &lanes), expected, "lanes: cell {cell} line {line}");
                let (src, bits) = lines.bits_in(cell, line, occ, &lanes).expect("a single word");
                let mut from_bits = S::EMPTY;
                for b in (0..64).filter(|b| bits >> b & 1 == 1) {
                    from_bits.insert(lines.word_cell(src, b));
                }
                assert_eq!(from_bits, expected, "bits: cell {cell} line {line}");
            }
        }
        // Every line through every cell is read from one word: none is left to the
        // whole-set lookup.
        assert!(lines.word_entries.iter().all(|e| e.src != NO_WORD), "some line has no single word");
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
        // Pyramid: the lower five of those levels, 220 cells.
        let pyramid = Shape::from_fn(10, 10, 5, |c| {
            let k = 4 - c.z;
            (k..10 - k).contains(&c.x) && (k..10 - k).contains(&c.y)
        });
        let board = Board::new(pyramid, Topology::BOUNDED).unwrap();
        assert_eq!(board.len(), 220);
        check_wide::<raum_bitboard::Wide<4>>(&board, 3000);
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
