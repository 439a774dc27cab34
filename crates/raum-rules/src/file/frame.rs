//! Pawn directions in the pawn's own frame: `f`orward, `b`ack, `l`eft,
//! `r`ight, `u`p, `d`own. A vector is a string of these letters (`lfu` is one
//! step left, one forward, one up); the frame says which board axis each is.

use raum_geometry::Vector;

/// A pawn's frame: the board vectors of one step forward, right and up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    pub forward: Vector,
    pub right: Vector,
    pub up: Vector,
}

/// A unit vector along `axis` with sign `sign`.
pub(crate) fn unit(axis: usize, sign: i8) -> Vector {
    let mut c = [0; 3];
    c[axis] = sign;
    Vector::new(c[0], c[1], c[2])
}

/// Parses a signed axis, `+y` or `-z` (`x` files, `y` ranks, `z` levels).
pub(crate) fn signed_axis(s: &str) -> Option<(usize, i8)> {
    let mut chars = s.chars();
    let sign = match chars.next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let axis = axis_of(chars.next()?)?;
    chars.next().is_none().then_some((axis, sign))
}

/// An axis letter.
pub(crate) fn axis_of(c: char) -> Option<usize> {
    "xyz".find(c)
}

/// The most letters one direction has: no step is longer than a board.
const MAX_LETTERS: usize = 26;

impl Frame {
    /// The frame with forward along `forward` and up along `up` (different
    /// axes); right is the third axis, positive.
    /// Total on any input: with one axis given twice, up takes another.
    pub(crate) fn new(forward: (usize, i8), up: (usize, i8)) -> Frame {
        let f = forward.0.min(2);
        let u = if up.0.min(2) == f { (f + 1) % 3 } else { up.0.min(2) };
        let side = (0..3).find(|&a| a != f && a != u).unwrap_or(0);
        Frame { forward: unit(f, forward.1), right: unit(side, 1), up: unit(u, up.1) }
    }

    /// The board vector of a frame string, or the character offset and
    /// message of what is wrong with it.
    pub(crate) fn vector(self, s: &str) -> Result<Vector, (usize, String)> {
        let mut v = Vector::new(0, 0, 0);
        if s.is_empty() {
            return Err((0, "an empty direction: write letters f, b, l, r, u, d (`lf`)".into()));
        }
        for (i, c) in s.chars().enumerate() {
            if i >= MAX_LETTERS {
                return Err((i, format!("a direction of more than {MAX_LETTERS} letters")));
            }
            let step = match c {
                'f' => self.forward,
                'b' => self.forward.neg(),
                'r' => self.right,
                'l' => self.right.neg(),
                'u' => self.up,
                'd' => self.up.neg(),
                _ => return Err((i, format!("'{c}' is not a direction: use f, b, l, r, u, d"))),
            };
            v = v.add(step);
        }
        if v == Vector::new(0, 0, 0) {
            return Err((0, format!("'{s}' goes nowhere")));
        }
        Ok(v)
    }
}

/// The twelve orientations a side may choose under the free initial
/// projection (The Book of 3D-Chess), as (forward axis, sign, altus axis):
/// the forward axis along ranks, files, then levels, `+` before `-`, the
/// altus axis in x, y, z order.
pub(crate) fn orientations() -> Vec<(usize, i8, usize)> {
    let mut out = Vec::new();
    for axis in [1, 0, 2] {
        for sign in [1, -1] {
            for altus in 0..3 {
                if altus != axis {
                    out.push((axis, sign, altus));
                }
            }
        }
    }
    out
}

/// An orientation's name in position strings: `+yz` (forward +y, altus z).
pub(crate) fn orientation_name((axis, sign, altus): (usize, i8, usize)) -> String {
    let letter = |a: usize| ['x', 'y', 'z'][a];
    format!("{}{}{}", if sign > 0 { '+' } else { '-' }, letter(axis), letter(altus))
}

/// The orientation a pawn set's name gives (`+yz`).
pub(crate) fn parse_orientation(name: &str) -> Option<(usize, i8, usize)> {
    let (axis, sign) = signed_axis(name.get(..2)?)?;
    let mut rest = name.get(2..)?.chars();
    let altus = axis_of(rest.next()?)?;
    (rest.next().is_none() && altus != axis).then_some((axis, sign, altus))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_letters() {
        let f = Frame::new((1, 1), (2, -1));
        assert_eq!(f.vector("lfu"), Ok(Vector::new(-1, 1, -1)));
        assert_eq!(f.vector("ff"), Ok(Vector::new(0, 2, 0)));
        assert_eq!(f.vector("fb").unwrap_err().0, 0);
        assert_eq!(f.vector("fx").unwrap_err().0, 1);
        assert_eq!(orientations().len(), 12);
        assert_eq!(signed_axis("+y"), Some((1, 1)));
        assert_eq!(signed_axis("y"), None);
        for o in orientations() {
            assert_eq!(parse_orientation(&orientation_name(o)), Some(o));
        }
    }
}
