//! A reader for the seed documents' ASCII board diagrams (Five Up, seed 000).
//!
//! A diagram is a header line of underscores, one line per rank (highest rank
//! first) and a footer naming the levels and files:
//!
//! ```text
//!    _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _
//! 5 |r|w|k|g|r|   |n|b|q|n|b| 5 |_|_|_|_|_|   |_|_|_|_|_| 5 |_|_|_|_|_|
//! ...
//! 1 |_|_|_|_|_|   |_|_|_|_|_| 1 |_|_|_|_|_|   |N|B|Q|N|B| 1 |R|W|K|G|R|
//! A  a b c d e  B  a b c d e  C  a b c d e  D  a b c d e  E  a b c d e
//! ```
//!
//! Each rank line holds one block `|c|c|c|c|c|` per level, left to right (level
//! A first). The reader finds those blocks and ignores everything else, so it
//! copes with the seed's variations: rank labels on every level or only on
//! some, an extra space before a level, trailing spaces.
//!
//! Cells are named as Five Up names them: level letter, file letter, rank
//! (`Cc3`). The result maps every cell to its character: a piece letter (White
//! upper case, Black lower case, Black pawns drawn `o`), `_` for an empty cell,
//! or a figure's marking character (`x`, `+`, `*`, `.`).
//!
//! ```
//! use raum_conformance::seed_diagram::SeedDiagram;
//! let text = "
//!    _ _ _     _ _ _
//! 2 |_|x|_|   |K|_|_|
//! 1 |_|_|_|   |_|_|k|
//! A  a b c  B  a b c
//! ";
//! let d = SeedDiagram::parse(text).unwrap();
//! assert_eq!(d.get("Ab2"), Some('x'));
//! assert_eq!(d.get("Ba2"), Some('K'));
//! assert_eq!(d.get("Bc1"), Some('k'));
//! assert_eq!(d.marked('x'), vec!["Ab2".to_string()]);
//! ```

use raum_bitboard::CellSet;
use raum_rules::{Color, Piece, Setup, Variant};
use std::collections::BTreeMap;
use std::fmt;

/// Why a diagram could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiagramError {
    /// No line holds a `|c|c|...|` block.
    NoRanks,
    /// Rank lines disagree on the number of levels or files.
    Ragged {
        /// The rank line (1-based among the rank lines, top first).
        line: usize,
        /// What it held.
        found: String,
    },
    /// A rank label disagrees with the line's position.
    BadLabel {
        /// The rank the line's position implies.
        expected: usize,
        /// The label written.
        found: String,
    },
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::NoRanks => f.write_str("no rank line with |c|c|...| blocks"),
            DiagramError::Ragged { line, found } => {
                write!(f, "rank line {line} has a different shape: {found}")
            }
            DiagramError::BadLabel { expected, found } => {
                write!(f, "rank label '{found}' where rank {expected} was expected")
            }
        }
    }
}

impl std::error::Error for DiagramError {}

/// Why a diagram could not be turned into a set-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The diagram names a cell the variant's board lacks.
    UnknownCell(String),
    /// A cell of the variant's board that the diagram does not show.
    MissingCell(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownCell(c) => write!(f, "diagram cell {c} is not on the board"),
            SetupError::MissingCell(c) => write!(f, "board cell {c} is not in the diagram"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A parsed diagram: every cell's character, by cell name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedDiagram {
    levels: Vec<char>,
    files: usize,
    ranks: usize,
    cells: BTreeMap<String, char>,
}

/// The `|c|c|...|` blocks of one line, left to right: each block's characters.
/// A block is `|` followed by one or more `c|` pairs; blocks are separated by
/// anything that is not a `|`.
fn blocks(line: &str) -> Vec<Vec<char>> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '|' {
            i += 1;
            continue;
        }
        let mut cells = Vec::new();
        let mut j = i;
        while j + 2 < chars.len() && chars[j + 2] == '|' && chars[j + 1] != '|' {
            cells.push(chars[j + 1]);
            j += 2;
        }
        if cells.is_empty() {
            i += 1;
        } else {
            out.push(cells);
            i = j + 1;
        }
    }
    out
}

/// The rank label written before the first block, if any (`5 |...` gives "5").
fn label(line: &str) -> Option<String> {
    let before = &line[..line.find('|')?];
    let t = before.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// The level letters named by a footer line (`A  a b c d e  B ...`): the
/// upper-case single-letter tokens.
fn footer_levels(line: &str) -> Vec<char> {
    line.split_whitespace()
        .filter_map(|tok| {
            let mut cs = tok.chars();
            let c = cs.next()?;
            (cs.next().is_none() && c.is_ascii_uppercase()).then_some(c)
        })
        .collect()
}

impl SeedDiagram {
    /// Reads a diagram. Lines without blocks (header, footer, blank lines) are
    /// skipped; the footer's upper-case letters name the levels when there is
    /// one per level (otherwise levels are `A`, `B`, ... left to right). Rank
    /// lines are read top to bottom as the highest rank down to rank 1; a rank
    /// label before the first block must agree.
    pub fn parse(text: &str) -> Result<SeedDiagram, DiagramError> {
        let mut rows: Vec<(Option<String>, Vec<Vec<char>>)> = Vec::new();
        let mut footer = Vec::new();
        for line in text.lines() {
            let b = blocks(line);
            if b.is_empty() {
                if !rows.is_empty() && footer.is_empty() {
                    footer = footer_levels(line);
                }
                continue;
            }
            rows.push((label(line), b));
        }
        let Some((_, first)) = rows.first() else {
            return Err(DiagramError::NoRanks);
        };
        let n_levels = first.len();
        let files = first[0].len();
        let ranks = rows.len();
        for (i, (lab, b)) in rows.iter().enumerate() {
            if b.len() != n_levels || b.iter().any(|blk| blk.len() != files) {
                let found = b.iter().map(|blk| blk.iter().collect::<String>()).collect::<Vec<_>>().join(" ");
                return Err(DiagramError::Ragged { line: i + 1, found });
            }
            let rank = ranks - i;
            if let Some(l) = lab
                && l.parse::<usize>().ok() != Some(rank)
            {
                return Err(DiagramError::BadLabel { expected: rank, found: l.clone() });
            }
        }
        let levels: Vec<char> =
            if footer.len() == n_levels { footer } else { (0..n_levels).map(|z| (b'A' + z as u8) as char).collect() };
        let mut cells = BTreeMap::new();
        for (i, (_, b)) in rows.iter().enumerate() {
            let rank = ranks - i;
            for (z, blk) in b.iter().enumerate() {
                for (x, &c) in blk.iter().enumerate() {
                    let name = format!("{}{}{}", levels[z], (b'a' + x as u8) as char, rank);
                    cells.insert(name, c);
                }
            }
        }
        Ok(SeedDiagram { levels, files, ranks, cells })
    }

    /// The diagram of a set-up, drawn as the seed draws it: White upper case,
    /// Black lower case, Black pawns `o`, empty cells `_`.
    pub fn from_setup<S: CellSet>(v: &Variant<S>, setup: &Setup) -> SeedDiagram {
        let [w, h, d] = v.board().shape().dims();
        let levels: Vec<char> =
            (0..v.cells()).map(|c| v.cell_name(c).chars().next().unwrap_or('?')).fold(Vec::new(), |mut acc, l| {
                if !acc.contains(&l) {
                    acc.push(l);
                }
                acc
            });
        let mut cells = BTreeMap::new();
        for (cell, p) in setup.board.iter().enumerate() {
            cells.insert(v.cell_name(cell), piece_char(v, *p));
        }
        debug_assert_eq!(levels.len(), d as usize);
        SeedDiagram { levels, files: w as usize, ranks: h as usize, cells }
    }

    /// Level letters, left to right.
    pub fn levels(&self) -> &[char] {
        &self.levels
    }

    /// Files per rank.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Ranks per level.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Every cell's character, by name.
    pub fn cells(&self) -> &BTreeMap<String, char> {
        &self.cells
    }

    /// The character on one cell.
    pub fn get(&self, name: &str) -> Option<char> {
        self.cells.get(name).copied()
    }

    /// The names of the cells drawn as `mark`, in name order.
    pub fn marked(&self, mark: char) -> Vec<String> {
        self.cells.iter().filter(|&(_, &c)| c == mark).map(|(n, _)| n.clone()).collect()
    }

    /// The cells drawn as `mark`, as a cell set of `v`'s board.
    ///
    /// # Panics
    /// If a marked cell's name is not a cell of `v`.
    pub fn cell_set<S: CellSet>(&self, v: &Variant<S>, mark: char) -> S {
        let mut s = S::EMPTY;
        for name in self.marked(mark) {
            let c = v.parse_cell(&name).unwrap_or_else(|| panic!("diagram cell {name} is not on the board"));
            s.insert(c);
        }
        s
    }

    /// A copy with every `from` character replaced by `to` (to blank out
    /// marks, or to undo a misprint such as swapped letters).
    pub fn replaced(&self, from: char, to: char) -> SeedDiagram {
        let mut d = self.clone();
        for c in d.cells.values_mut() {
            if *c == from {
                *c = to;
            }
        }
        d
    }

    /// A copy with the cells of `a` and `b` exchanged (e.g. `W` and `G`).
    pub fn swapped(&self, a: char, b: char) -> SeedDiagram {
        let mut d = self.clone();
        for c in d.cells.values_mut() {
            if *c == a {
                *c = b;
            } else if *c == b {
                *c = a;
            }
        }
        d
    }

    /// The cells where `self` and `other` differ, as `name: self vs other`
    /// (cells missing on one side show `?`). Empty when they agree.
    pub fn diff(&self, other: &SeedDiagram) -> Vec<String> {
        let mut names: Vec<&String> = self.cells.keys().chain(other.cells.keys()).collect();
        names.sort();
        names.dedup();
        names
            .into_iter()
            .filter_map(|n| {
                let a = self.get(n).unwrap_or('?');
                let b = other.get(n).unwrap_or('?');
                (a != b).then(|| format!("{n}: {a} vs {b}"))
            })
            .collect()
    }

    /// The piece a character stands for in `v`: `o` is a Black pawn, an upper-
    /// case piece letter White, a lower-case one Black; anything else (`_`,
    /// marks) is no piece.
    pub fn piece_of<S: CellSet>(v: &Variant<S>, c: char) -> Option<Piece> {
        if c == 'o' {
            return v.pawn().map(|k| Piece::new(Color::Black, k));
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let kind = v.kind_of(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }

    /// The pieces of the diagram as an (unvalidated) set-up of `v`, White to
    /// move, no rights, no en passant. Marks and `_` are empty cells.
    pub fn to_setup<S: CellSet>(&self, v: &Variant<S>) -> Result<Setup, SetupError> {
        let mut setup = Setup::empty(v.cells());
        for (name, &c) in &self.cells {
            let cell = v.parse_cell(name).ok_or_else(|| SetupError::UnknownCell(name.clone()))?;
            setup.board[cell] = Self::piece_of(v, c);
        }
        if let Some(missing) = (0..v.cells()).map(|c| v.cell_name(c)).find(|n| !self.cells.contains_key(n)) {
            return Err(SetupError::MissingCell(missing));
        }
        Ok(setup)
    }

    /// The board field of a position string (RULES.md "Position string"):
    /// levels in notation order separated by `/`, ranks high to low separated
    /// by `|`, files low to high, digits for runs of empty cells. `o` is
    /// written `p`; marks count as empty.
    pub fn board_field<S: CellSet>(&self, v: &Variant<S>) -> String {
        let mut levels = Vec::new();
        for &l in &self.levels {
            let mut ranks = Vec::new();
            for rank in (1..=self.ranks).rev() {
                let mut s = String::new();
                let mut empty = 0;
                for x in 0..self.files {
                    let name = format!("{l}{}{rank}", (b'a' + x as u8) as char);
                    let p = self.get(&name).and_then(|c| Self::piece_of(v, c));
                    match p {
                        Some(p) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            let letter = v.piece_def(p.kind).letter;
                            s.push(if p.color == Color::White { letter } else { letter.to_ascii_lowercase() });
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                ranks.push(s);
            }
            levels.push(ranks.join("|"));
        }
        levels.join("/")
    }

    /// A full position string: the board field followed by `rest`
    /// (`"w Kk - 0 1"`-style: side, rights, en passant and optional clocks).
    pub fn position_string<S: CellSet>(&self, v: &Variant<S>, rest: &str) -> String {
        format!("{} {}", self.board_field(v), rest)
    }
}

/// The diagram character for a cell's contents.
fn piece_char<S: CellSet>(v: &Variant<S>, p: Option<Piece>) -> char {
    match p {
        None => '_',
        Some(p) if Some(p.kind) == v.pawn() && p.color == Color::Black => 'o',
        Some(p) => {
            let l = v.piece_def(p.kind).letter;
            if p.color == Color::White { l } else { l.to_ascii_lowercase() }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use raum_rules::{Position, VariantId};

    /// Figure 1 of the Five Up seed, labels on levels A, C and E only.
    const FIGURE_1: &str = r"
   _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _     _ _ _ _ _ 
5 |r|w|k|g|r|   |n|b|q|n|b| 5 |_|_|_|_|_|   |_|_|_|_|_| 5 |_|_|_|_|_|
4 |o|o|o|o|o|   |o|o|o|o|o| 4 |_|_|_|_|_|   |_|_|_|_|_| 4 |_|_|_|_|_|
3 |_|_|_|_|_|   |_|_|_|_|_| 3 |_|_|_|_|_|   |_|_|_|_|_| 3 |_|_|_|_|_|
2 |_|_|_|_|_|   |_|_|_|_|_| 2 |_|_|_|_|_|   |P|P|P|P|P| 2 |P|P|P|P|P|
1 |_|_|_|_|_|   |_|_|_|_|_| 1 |_|_|_|_|_|   |N|B|Q|N|B| 1 |R|W|K|G|R|
A  a b c d e  B  a b c d e  C  a b c d e  D  a b c d e  E  a b c d e 
";

    #[test]
    fn reads_every_cell_of_figure_1() {
        let d = SeedDiagram::parse(FIGURE_1).unwrap();
        assert_eq!(d.cells().len(), 125);
        assert_eq!(d.levels(), &['A', 'B', 'C', 'D', 'E']);
        assert_eq!((d.files(), d.ranks()), (5, 5));
        assert_eq!(d.get("Aa5"), Some('r'));
        assert_eq!(d.get("Ab5"), Some('w'));
        assert_eq!(d.get("Ac5"), Some('k'));
        assert_eq!(d.get("Bc5"), Some('q'));
        assert_eq!(d.get("Be4"), Some('o'));
        assert_eq!(d.get("Cc3"), Some('_'));
        assert_eq!(d.get("Dc1"), Some('Q'));
        assert_eq!(d.get("Ec1"), Some('K'));
        assert_eq!(d.get("Ed1"), Some('G'));
        assert_eq!(d.get("Ee2"), Some('P'));
        assert_eq!(d.get("Ef1"), None);
        assert_eq!(d.marked('o').len(), 10);
        assert_eq!(d.marked('P').len(), 10);
        assert_eq!(d.marked('_').len(), 85);
    }

    #[test]
    fn tolerates_labels_everywhere_extra_spaces_and_no_trailing_space() {
        // Labels on every level (Figure 6 style), a doubled space before level E
        // (Figure 5 style), trailing spaces on some lines and none on others.
        let text = "   _ _     _ _      _ _  \n\
                    2 |x|_| 2 |_|+|  2 |_|_|   \n\
                    1 |_|_| 1 |_|_|  1 |*|_|\n\
                    A  a b  B  a b   C  a b  \n";
        let d = SeedDiagram::parse(text).unwrap();
        assert_eq!(d.cells().len(), 12);
        assert_eq!(d.get("Aa2"), Some('x'));
        assert_eq!(d.get("Bb2"), Some('+'));
        assert_eq!(d.get("Ca1"), Some('*'));
        assert_eq!(d.marked('_').len(), 9);
    }

    #[test]
    fn footer_letters_name_the_levels() {
        let text = "2 |a|b|   |c|d|\n1 |e|f|   |g|h|\nX  a b  Y  a b\n";
        let d = SeedDiagram::parse(text).unwrap();
        assert_eq!(d.levels(), &['X', 'Y']);
        assert_eq!(d.get("Xa2"), Some('a'));
        assert_eq!(d.get("Yb1"), Some('h'));
    }

    #[test]
    fn rejects_ragged_and_mislabelled_diagrams() {
        assert_eq!(SeedDiagram::parse("no board here"), Err(DiagramError::NoRanks));
        let ragged = "2 |_|_|   |_|_|\n1 |_|_|\n";
        assert!(matches!(SeedDiagram::parse(ragged), Err(DiagramError::Ragged { line: 2, .. })));
        let short_block = "2 |_|_|   |_|_|\n1 |_|_|   |_|\n";
        assert!(matches!(SeedDiagram::parse(short_block), Err(DiagramError::Ragged { line: 2, .. })));
        let mislabelled = "2 |_|_|\n3 |_|_|\n";
        assert_eq!(SeedDiagram::parse(mislabelled), Err(DiagramError::BadLabel { expected: 1, found: "3".into() }));
    }

    #[test]
    fn figure_1_is_the_start_position() {
        let v = Variant::get(VariantId::FiveUp);
        let d = SeedDiagram::parse(FIGURE_1).unwrap();
        assert_eq!(
            d.position_string(v, "w Kk - 0 1"),
            "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 1"
        );
        let mut setup = d.to_setup(v).unwrap();
        assert_eq!(setup.board, v.start_setup().board);
        setup.castling = 0b11;
        assert_eq!(&setup, v.start_setup());
        let back = SeedDiagram::from_setup(v, &setup);
        assert_eq!(back.diff(&d), Vec::<String>::new());
        assert_eq!(back, d);
        let pos = Position::from_setup(v, setup).unwrap();
        assert_eq!(pos.count_legal(), 62);
    }

    #[test]
    fn marks_become_cell_sets_and_empty_cells() {
        let v = Variant::get(VariantId::FiveUp);
        let d = SeedDiagram::parse(&FIGURE_1.replace("|r|w|k|", "|x|w|k|")).unwrap();
        assert_eq!(d.marked('x'), vec!["Aa5".to_string()]);
        let set: u128 = d.cell_set(v, 'x');
        assert_eq!(set, 1u128 << v.parse_cell("Aa5").unwrap());
        let setup = d.to_setup(v).unwrap();
        assert_eq!(setup.board[v.parse_cell("Aa5").unwrap()], None);
        assert!(d.board_field(v).starts_with("1wkgr|"));
        let undone = d.replaced('x', 'r');
        assert_eq!(undone, SeedDiagram::parse(FIGURE_1).unwrap());
        let swapped = undone.swapped('w', 'g');
        assert_eq!(swapped.get("Ab5"), Some('g'));
        assert_eq!(swapped.get("Ad5"), Some('w'));
        assert_eq!(swapped.diff(&undone), vec!["Ab5: g vs w".to_string(), "Ad5: w vs g".to_string()]);
    }

    #[test]
    fn a_diagram_without_every_cell_is_no_setup() {
        let v = Variant::get(VariantId::FiveUp);
        let d = SeedDiagram::parse("2 |_|_|\n1 |_|_|\nA  a b\n").unwrap();
        assert!(matches!(d.to_setup(v), Err(SetupError::MissingCell(_))));
        let d = SeedDiagram::parse("6 |_|\n5 |_|\n4 |_|\n3 |_|\n2 |_|\n1 |_|\n").unwrap();
        assert_eq!(d.to_setup(v), Err(SetupError::UnknownCell("Aa6".into())));
    }
}
