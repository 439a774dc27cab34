//! The movement notation of variant files, a 3D cousin of Betza's.
//!
//! A movement is parts joined by `+`. A part is an optional mode (`m`: moves
//! only, `c`: captures only), an atom, and an optional `*` that makes it a
//! rider (it repeats its step until blocked). Atoms:
//!
//! - `O`, `D`, `T`: one step along every orthogonal, 2D diagonal or 3D
//!   diagonal (triagonal) direction;
//! - `(a,b,c)`: a leap by every signed permutation of `(a, b, c)`;
//! - `(a,b|c)`: a leap whose in-level part is any signed permutation of
//!   `(a, b)` and whose level part is `+c` or `-c`;
//! - a piece letter: that piece's moves and captures (`N + C + G`).
//!
//! Riders step one cell at a time (`O*`, `(0,1|1)*`), without a limit or up
//! to a range (`O*3`: at most three cells); riders of longer steps
//! (nightriders) are reserved for a later format.

use crate::piece_def::Motion;
use raum_geometry::{DIRECTIONS, Family, Vector, leap_vectors};

/// Which half of a piece's motion a part adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Both,
    Move,
    Capture,
}

/// What a part moves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Atom {
    Family(Family),
    Leap([i8; 3]),
    Split([i8; 2], i8),
    Piece(char),
}

/// One part of a movement, at a character offset of its string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub mode: Mode,
    pub atom: Atom,
    pub rider: bool,
    /// A rider's range, in cells (`None`: until blocked).
    pub range: Option<u8>,
    pub at: usize,
}

/// A problem at a character offset of the notation string.
pub(crate) type NotationError = (usize, String);

/// The longest range a rider may be given (a box's side is at most 26 cells).
pub(crate) const MAX_RANGE: u8 = 25;

/// The letters that name atoms and so cannot name pieces.
pub(crate) const ATOM_LETTERS: [char; 3] = ['O', 'D', 'T'];

/// Parses a movement.
pub(crate) fn parse(s: &str) -> Result<Vec<Part>, NotationError> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut parts = Vec::new();
    loop {
        skip(&mut i);
        let at = i;
        let mode = match chars.get(i) {
            Some('m') => Mode::Move,
            Some('c') => Mode::Capture,
            _ => Mode::Both,
        };
        if mode != Mode::Both {
            i += 1;
        }
        let atom = match chars.get(i) {
            None => return Err((i, "expected an atom: O, D, T, a leap such as (0,1,2), or a piece letter".into())),
            Some('O') => Atom::Family(Family::Orthogonal),
            Some('D') => Atom::Family(Family::Diagonal2D),
            Some('T') => Atom::Family(Family::Diagonal3D),
            Some('(') => {
                let (atom, end) = leap(&chars, i)?;
                i = end - 1;
                atom
            }
            Some(&c) if c.is_ascii_uppercase() => Atom::Piece(c),
            Some(&c) if c.is_ascii_lowercase() && mode != Mode::Both => {
                return Err((i, format!("'{c}' after a mode: a part has one mode (m: moves only, c: captures only)")));
            }
            Some(&c) if c.is_ascii_lowercase() => {
                return Err((i, format!("unknown mode '{c}' (m: moves only, c: captures only)")));
            }
            Some(&c) => {
                return Err((
                    i,
                    format!("unexpected '{c}': expected O, D, T, a leap such as (0,1,2), or a piece letter"),
                ));
            }
        };
        i += 1;
        let rider = chars.get(i) == Some(&'*');
        let mut range = None;
        if rider {
            i += 1;
            let from = i;
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
            if i > from {
                let digits: String = chars[from..i].iter().collect();
                match digits.parse::<u8>() {
                    Ok(n) if (1..=MAX_RANGE).contains(&n) => range = Some(n),
                    _ => return Err((from, format!("a rider's range is 1 to {MAX_RANGE} cells, not {digits}"))),
                }
            }
        }
        parts.push(Part { mode, atom, rider, range, at });
        skip(&mut i);
        match chars.get(i) {
            None => return Ok(parts),
            Some('+') => i += 1,
            Some(&c) => return Err((i, format!("unexpected '{c}': parts are joined by '+'"))),
        }
    }
}

/// Parses `(a,b,c)` or `(a,b|c)` starting at `chars[start] == '('`; returns
/// the atom and the offset past `)`.
fn leap(chars: &[char], start: usize) -> Result<(Atom, usize), NotationError> {
    let mut i = start + 1;
    let mut numbers = Vec::new();
    let mut split = None;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        let from = i;
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if from == i {
            return Err((i, "expected a number (a leap's components are 0 to 15)".into()));
        }
        let n: String = chars[from..i].iter().collect();
        match n.parse::<i8>() {
            Ok(n) if n <= 15 => numbers.push(n),
            _ => return Err((from, format!("{n} is too long a leap (at most 15)"))),
        }
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match chars.get(i) {
            Some(',') if numbers.len() < 3 && split.is_none() => i += 1,
            Some('|') if numbers.len() == 2 && split.is_none() => {
                split = Some(i);
                i += 1;
            }
            Some(')') if numbers.len() == 3 => break,
            Some(&c) => return Err((i, format!("unexpected '{c}' in a leap: write (a,b,c) or (a,b|c)"))),
            None => return Err((i, "unclosed '(': write (a,b,c) or (a,b|c)".into())),
        }
    }
    if numbers.iter().all(|&n| n == 0) {
        return Err((start, "a leap of nothing: at least one component must be non-zero".into()));
    }
    let atom = match split {
        Some(_) => Atom::Split([numbers[0], numbers[1]], numbers[2]),
        None => Atom::Leap([numbers[0], numbers[1], numbers[2]]),
    };
    Ok((atom, i + 1))
}

/// Every vector of an atom (not a piece), ascending.
pub(crate) fn vectors(atom: Atom) -> Vec<Vector> {
    let mut v = match atom {
        Atom::Family(f) => DIRECTIONS.iter().copied().filter(|d| d.dimensions() == f.dimensions()).collect(),
        Atom::Leap([a, b, c]) => leap_vectors(a, b, c),
        Atom::Split([a, b], c) => {
            let mut out = Vec::new();
            for (x, y) in [(a, b), (b, a)] {
                for sx in [-1, 1] {
                    for sy in [-1, 1] {
                        for sz in [-1, 1] {
                            out.push(Vector::new(sx * x, sy * y, sz * c));
                        }
                    }
                }
            }
            out
        }
        Atom::Piece(_) => Vec::new(),
    };
    v.sort();
    v.dedup();
    v
}

/// The motion of one part that is not a piece reference, or why it has none.
pub(crate) fn part_motion(part: &Part) -> Result<Motion, NotationError> {
    let vs = vectors(part.atom);
    // A rider of range 1 is the step it repeats.
    if !part.rider || part.range == Some(1) {
        if part.range == Some(1)
            && let Some(long) = vs.iter().find(|v| v.x.abs() > 1 || v.y.abs() > 1 || v.z.abs() > 1)
        {
            return Err((part.at, format!("a rider of ({},{},{}) is not supported yet", long.x, long.y, long.z)));
        }
        return Ok(Motion::leaps(&vs));
    }
    if let (Atom::Family(f), None) = (part.atom, part.range) {
        return Ok(Motion::slider(&[f]));
    }
    if let Some(long) = vs.iter().find(|v| v.x.abs() > 1 || v.y.abs() > 1 || v.z.abs() > 1) {
        return Err((
            part.at,
            format!(
                "a rider of ({},{},{}) is not supported yet: riders step to a neighbouring cell",
                long.x, long.y, long.z
            ),
        ));
    }
    Ok(match part.range {
        None => Motion::ray_slider(&vs),
        Some(n) => Motion { ranged: vs.iter().map(|&v| (v, n)).collect(), ..Motion::default() },
    })
}

/// A motion in its canonical order (families, rays and leaps sorted, each
/// once), so that two spellings of one movement compare equal.
pub(crate) fn canonical(mut m: Motion) -> Motion {
    m.slides.sort_by_key(|f| f.dimensions());
    m.slides.dedup();
    // A ray along a whole family's direction is that family's slide already.
    m.rays.retain(|r| !m.slides.iter().any(|f| f.dimensions() == r.dimensions()));
    m.rays.sort();
    m.rays.dedup();
    m.leaps.sort();
    m.leaps.dedup();
    // A range along a direction slid without one adds nothing; of two ranges
    // along one direction the longer holds.
    let unlimited = |d: &Vector| m.rays.contains(d) || m.slides.iter().any(|f| f.dimensions() == d.dimensions());
    let mut ranged: Vec<(Vector, u8)> = m.ranged.iter().copied().filter(|(d, _)| !unlimited(d)).collect();
    ranged.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    ranged.dedup_by_key(|r| r.0);
    m.ranged = ranged;
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_their_errors() {
        let p = parse("O + cT").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].mode, Mode::Capture);
        assert_eq!(p[1].atom, Atom::Family(Family::Diagonal3D));
        assert_eq!(parse("(1,2|1)*").unwrap()[0].atom, Atom::Split([1, 2], 1));
        assert_eq!(parse("N+C + G").unwrap().len(), 3);
        for (bad, at) in [
            ("", 0),
            ("O +", 3),
            ("O T", 2),
            ("(1,2)", 4),
            ("(0,0,0)", 0),
            ("(1,2,3", 6),
            ("O*0", 2),
            ("O*26", 2),
            ("O*999", 2),
            ("x", 0),
            ("(1,99,0)", 3),
            ("%", 0),
        ] {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.0, at, "{bad}: {}", e.1);
        }
    }

    #[test]
    fn riders_with_a_range() {
        let p = parse("O*3 + cT*2").unwrap();
        assert_eq!((p[0].range, p[1].range, p[1].mode), (Some(3), Some(2), Mode::Capture));
        let m = part_motion(&p[0]).unwrap();
        assert_eq!((m.ranged.len(), m.ranged[0].1, m.slides.len()), (6, 3, 0));
        // Range 1 is the step; a range beside a slide without one adds nothing.
        assert_eq!(
            part_motion(&parse("D*1").unwrap()[0]).unwrap(),
            Motion::leaps(&vectors(Atom::Family(Family::Diagonal2D)))
        );
        let both = canonical(part_motion(&parse("O*").unwrap()[0]).unwrap().with(m.clone()));
        assert!(both.ranged.is_empty() && both.slides.len() == 1);
        // Of two ranges along one direction, the longer.
        let two = canonical(m.with(part_motion(&parse("O*5").unwrap()[0]).unwrap()));
        assert!(two.ranged.len() == 6 && two.ranged.iter().all(|&(_, r)| r == 5));
    }

    #[test]
    fn riders_of_long_steps_are_refused() {
        let p = parse("(0,1,2)*").unwrap();
        assert!(part_motion(&p[0]).unwrap_err().1.contains("not supported"));
        let p = parse("(0,1|1)*").unwrap();
        assert_eq!(part_motion(&p[0]).unwrap().rays.len(), 8);
    }
}
