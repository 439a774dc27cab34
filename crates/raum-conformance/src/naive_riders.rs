//! A deliberately naive reference generator for games of pieces alone on a
//! box: kings, leapers and riders, a rider going until blocked or at most a
//! given number of cells (`O*2` in a variant file), each part moving,
//! capturing or both. No pawns, castling or wrapping: the games that test the
//! variant files' ranged riders against Raum's generator.
//!
//! Independent of Raum's code (`std` only), written from docs/variants.md:
//! a mailbox of the box's cells, moves found by stepping along each part's
//! vector, legality by playing a move on a copy and asking whether the
//! mover's king is then attacked (every enemy man's captures generated and
//! searched for the king's cell).
//!
//! Cells are named level letter, file letter, rank number (`Bc3`), as
//! `level-file-rank` boards with levels `A`, `B`, ... from the bottom.

/// A coordinate or a vector: (file, rank, level), 0-based from White's bottom corner.
pub type V3 = (i32, i32, i32);

/// One part of a piece's motion: a step repeated up to `max` times (1 for a
/// leap or a single step; `u32::MAX` for a rider without a limit), stopping
/// at the first occupied cell (a leap of more than one cell jumps).
#[derive(Clone, Debug)]
pub struct Part {
    pub step: V3,
    pub max: u32,
    pub moves: bool,
    pub captures: bool,
}

/// A piece kind: its letter (upper case), whether it is the king, its parts.
#[derive(Clone, Debug)]
pub struct PieceKind {
    pub letter: char,
    pub royal: bool,
    pub parts: Vec<Part>,
}

/// Every signed permutation of `(a, b, c)`, each once.
pub fn leaps(a: i32, b: i32, c: i32) -> Vec<V3> {
    let mut out = Vec::new();
    for (x, y, z) in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)] {
        for sx in [-1, 1] {
            for sy in [-1, 1] {
                for sz in [-1, 1] {
                    let v = (sx * x, sy * y, sz * z);
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// The unit steps with `axes` non-zero components: 1 orthogonal, 2 diagonal, 3 triagonal.
pub fn unit_steps(axes: usize) -> Vec<V3> {
    let mut out = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let nonzero = [x, y, z].iter().filter(|&&c| c != 0).count();
                if nonzero == axes {
                    out.push((x, y, z));
                }
            }
        }
    }
    out
}

/// Parts of a rider along `steps`, at most `max` cells (`u32::MAX`: no limit),
/// moving and capturing as asked.
pub fn parts(steps: &[V3], max: u32, moves: bool, captures: bool) -> Vec<Part> {
    steps.iter().map(|&step| Part { step, max, moves, captures }).collect()
}

/// A man: White's or Black's, and its kind's letter (upper case).
type Man = (bool, char);

/// A position: the box, every man, whose turn.
#[derive(Clone, Debug)]
pub struct NaiveBox {
    dims: V3,
    kinds: Vec<PieceKind>,
    men: Vec<Option<Man>>,
    white_to_move: bool,
}

impl NaiveBox {
    /// The start: White's `rows` (a cell name, a space, a letter per file
    /// from there on, `.` an empty cell), Black's their image through the
    /// point reflection `(x, y, z) -> (w-1-x, h-1-y, d-1-z)`; White to move.
    pub fn start(dims: V3, kinds: Vec<PieceKind>, rows: &[&str]) -> Result<NaiveBox, String> {
        let mut pos =
            NaiveBox { dims, kinds, men: vec![None; (dims.0 * dims.1 * dims.2) as usize], white_to_move: true };
        for row in rows {
            let (cell, letters) = row.split_once(' ').ok_or_else(|| format!("row '{row}'"))?;
            let (x0, y, z) = pos.parse_cell(cell).ok_or_else(|| format!("cell '{cell}'"))?;
            for (i, l) in letters.chars().enumerate() {
                if l == '.' {
                    continue;
                }
                if !pos.kinds.iter().any(|k| k.letter == l) {
                    return Err(format!("no piece '{l}'"));
                }
                let x = x0 + i as i32;
                let white = (x, y, z);
                let black = (dims.0 - 1 - x, dims.1 - 1 - y, dims.2 - 1 - z);
                for (at, side) in [(white, true), (black, false)] {
                    let i = pos.index(at).ok_or_else(|| format!("row '{row}' leaves the board"))?;
                    if pos.men[i].is_some() {
                        return Err(format!("two men on {}", pos.name(at)));
                    }
                    pos.men[i] = Some((side, l));
                }
            }
        }
        Ok(pos)
    }

    fn index(&self, (x, y, z): V3) -> Option<usize> {
        let (w, h, d) = self.dims;
        ((0..w).contains(&x) && (0..h).contains(&y) && (0..d).contains(&z)).then(|| (z * w * h + y * w + x) as usize)
    }

    fn coord(&self, i: usize) -> V3 {
        let (w, h, _) = self.dims;
        let i = i as i32;
        (i % w, (i / w) % h, i / (w * h))
    }

    /// `Bc3`: level letter, file letter, rank number.
    pub fn name(&self, (x, y, z): V3) -> String {
        format!("{}{}{}", (b'A' + z as u8) as char, (b'a' + x as u8) as char, y + 1)
    }

    fn parse_cell(&self, s: &str) -> Option<V3> {
        let mut chars = s.chars();
        let z = chars.next()? as i32 - 'A' as i32;
        let x = chars.next()? as i32 - 'a' as i32;
        let y: i32 = chars.as_str().parse::<i32>().ok()? - 1;
        self.index((x, y, z)).map(|_| (x, y, z))
    }

    fn kind(&self, letter: char) -> &PieceKind {
        self.kinds.iter().find(|k| k.letter == letter).expect("a known piece")
    }

    /// The cells the man on `from` may go to by its parts, checks aside: the
    /// empty cells its moving parts reach and the enemy men its capturing
    /// parts reach (only those, when `captures_only`).
    fn targets(&self, from: usize, captures_only: bool) -> Vec<usize> {
        let Some((side, letter)) = self.men[from] else { return Vec::new() };
        let start = self.coord(from);
        let mut out = Vec::new();
        for part in &self.kind(letter).parts {
            let mut at = start;
            let mut n = 0;
            while n < part.max {
                at = (at.0 + part.step.0, at.1 + part.step.1, at.2 + part.step.2);
                n += 1;
                let Some(i) = self.index(at) else { break };
                match self.men[i] {
                    None => {
                        if part.moves && !captures_only && !out.contains(&i) {
                            out.push(i);
                        }
                    }
                    Some((other, _)) => {
                        if other != side && part.captures && !out.contains(&i) {
                            out.push(i);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// Whether `white`'s king is attacked.
    fn in_check(&self, white: bool) -> bool {
        let Some(king) =
            (0..self.men.len()).find(|&i| self.men[i].is_some_and(|(s, l)| s == white && self.kind(l).royal))
        else {
            return false;
        };
        (0..self.men.len())
            .filter(|&i| self.men[i].is_some_and(|(s, _)| s != white))
            .any(|i| self.targets(i, true).contains(&king))
    }

    /// The legal moves as `from-to` cell names, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        for from in 0..self.men.len() {
            if self.men[from].is_none_or(|(s, _)| s != self.white_to_move) {
                continue;
            }
            for to in self.targets(from, false) {
                let mut next = self.clone();
                next.make(from, to);
                if !next.in_check(self.white_to_move) {
                    out.push(format!("{}-{}", self.name(self.coord(from)), self.name(self.coord(to))));
                }
            }
        }
        out.sort();
        out
    }

    fn make(&mut self, from: usize, to: usize) {
        self.men[to] = self.men[from].take();
        self.white_to_move = !self.white_to_move;
    }

    /// Plays `from-to` (one of [`NaiveBox::legal_moves`]).
    pub fn play(&mut self, mv: &str) -> Result<(), String> {
        if !self.legal_moves().iter().any(|m| m == mv) {
            return Err(format!("{mv} is not legal"));
        }
        let (a, b) = mv.split_once('-').ok_or_else(|| format!("move '{mv}'"))?;
        let (from, to) = (self.parse_cell(a), self.parse_cell(b));
        let (Some(from), Some(to)) = (from.and_then(|c| self.index(c)), to.and_then(|c| self.index(c))) else {
            return Err(format!("move '{mv}'"));
        };
        self.make(from, to);
        Ok(())
    }

    /// Whether `from-to` lands on a man.
    pub fn is_capture(&self, mv: &str) -> bool {
        let to = mv.split_once('-').and_then(|(_, b)| self.parse_cell(b)).and_then(|c| self.index(c));
        to.is_some_and(|i| self.men[i].is_some())
    }

    /// Leaves of the legal-move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m).expect("a legal move");
                next.perft(depth - 1)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rook2() -> Vec<PieceKind> {
        vec![
            PieceKind {
                letter: 'K',
                royal: true,
                parts: [1, 2, 3].iter().flat_map(|&a| parts(&unit_steps(a), 1, true, true)).collect(),
            },
            PieceKind { letter: 'R', royal: false, parts: parts(&unit_steps(1), 2, true, true) },
        ]
    }

    #[test]
    fn a_rook_of_range_two_stops_at_two_cells_and_at_a_man() {
        let pos = NaiveBox::start((5, 5, 2), rook2(), &["Aa1 R...K"]).unwrap();
        let from_a1: Vec<String> = pos.legal_moves().into_iter().filter(|m| m.starts_with("Aa1-")).collect();
        // Along the file two cells, up one level (the box has two), along the rank two.
        assert_eq!(from_a1, ["Aa1-Aa2", "Aa1-Aa3", "Aa1-Ab1", "Aa1-Ac1", "Aa1-Ba1"]);
        assert_eq!(leaps(0, 1, 2).len(), 24);
        assert_eq!(leaps(1, 1, 2).len(), 24);
        assert_eq!(unit_steps(3).len(), 8);
    }

    #[test]
    fn a_rook_gives_check_only_within_its_range() {
        // One level: White's king a1 and rook e1, Black's king e5 and rook a5.
        let start = NaiveBox::start((5, 5, 1), rook2(), &["Aa1 K...R"]).unwrap();
        let mut near = start.clone();
        near.play("Ae1-Ae3").unwrap();
        assert!(near.in_check(false), "two cells from e5");
        let mut far = start.clone();
        far.play("Ae1-Ae2").unwrap();
        assert!(!far.in_check(false), "three cells from e5");
        let black = far.legal_moves();
        assert!(!black.contains(&"Ae5-Ae4".to_string()), "e4 is two cells from the rook");
        assert!(black.contains(&"Ae5-Ad5".to_string()) && black.contains(&"Ae5-Ad4".to_string()), "{black:?}");
    }
}
