//! The 26 unit directions of a 3D grid and leap vectors.

/// A displacement in cells: file (x), rank (y), level (z, in notation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vector {
    /// File offset.
    pub x: i8,
    /// Rank offset.
    pub y: i8,
    /// Level offset (positive = towards the last level in notation order).
    pub z: i8,
}

impl Vector {
    /// A vector from its three components.
    pub const fn new(x: i8, y: i8, z: i8) -> Self {
        Vector { x, y, z }
    }
    /// How many components are non-zero.
    pub const fn dimensions(self) -> u8 {
        (self.x != 0) as u8 + (self.y != 0) as u8 + (self.z != 0) as u8
    }
    /// The opposite vector.
    pub const fn neg(self) -> Self {
        Vector::new(-self.x, -self.y, -self.z)
    }
    /// Component-wise sum.
    pub const fn add(self, o: Vector) -> Self {
        Vector::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

/// Families of unit directions: which coordinates a single step changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// One coordinate changes (6 directions).
    Orthogonal,
    /// Exactly two coordinates change (12 directions).
    Diagonal2D,
    /// All three coordinates change (8 directions; "triagonals").
    Diagonal3D,
}

impl Family {
    /// Number of coordinates a step of this family changes.
    pub const fn dimensions(self) -> u8 {
        match self {
            Family::Orthogonal => 1,
            Family::Diagonal2D => 2,
            Family::Diagonal3D => 3,
        }
    }
}

/// Index of one of the 26 unit directions in [`DIRECTIONS`].
///
/// Directions `0..13` are *positive* (moving to a higher cell number on every
/// bounded board); direction `d + 13` is the opposite of `d`.
pub type Direction = usize;

/// The 26 unit directions: 13 positive ones, then their opposites in the same order.
pub const DIRECTIONS: [Vector; 26] = {
    let mut out = [Vector::new(0, 0, 0); 26];
    let mut n = 0;
    let mut z = -1;
    while z <= 1 {
        let mut y = -1;
        while y <= 1 {
            let mut x = -1;
            while x <= 1 {
                // Positive: first non-zero of (z, y, x) is positive.
                let positive = z > 0 || (z == 0 && (y > 0 || (y == 0 && x > 0)));
                if positive {
                    out[n] = Vector::new(x, y, z);
                    out[n + 13] = Vector::new(-x, -y, -z);
                    n += 1;
                }
                x += 1;
            }
            y += 1;
        }
        z += 1;
    }
    out
};

/// Whether direction `d` is positive (see [`Direction`]).
#[inline(always)]
pub const fn is_positive(d: Direction) -> bool {
    d < 13
}

/// The directions of one family.
pub fn family_directions(family: Family) -> impl Iterator<Item = Direction> {
    (0..26).filter(move |&d| DIRECTIONS[d].dimensions() == family.dimensions())
}

/// All distinct vectors that are permutations of `(±a, ±b, ±c)`: an (a,b,c)-leaper.
///
/// ```
/// assert_eq!(raum_geometry::leap_vectors(0, 1, 2).len(), 24);
/// assert_eq!(raum_geometry::leap_vectors(1, 1, 2).len(), 24);
/// assert_eq!(raum_geometry::leap_vectors(1, 1, 1).len(), 8);
/// ```
pub fn leap_vectors(a: i8, b: i8, c: i8) -> Vec<Vector> {
    let perms = [[a, b, c], [a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]];
    let mut out = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let s = |i: usize| if signs >> i & 1 == 1 { -1 } else { 1 };
            let v = Vector::new(p[0] * s(0), p[1] * s(1), p[2] * s(2));
            if v != Vector::new(0, 0, 0) && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_distinct_and_paired() {
        for d in 0..13 {
            assert_eq!(DIRECTIONS[d].neg(), DIRECTIONS[d + 13]);
        }
        for (i, a) in DIRECTIONS.iter().enumerate() {
            assert!(DIRECTIONS.iter().skip(i + 1).all(|b| a != b));
        }
        assert_eq!(family_directions(Family::Orthogonal).count(), 6);
        assert_eq!(family_directions(Family::Diagonal2D).count(), 12);
        assert_eq!(family_directions(Family::Diagonal3D).count(), 8);
    }
}
