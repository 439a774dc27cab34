//! Board shapes, axis topology and dense cell numbering.

use crate::direction::Vector;
use thiserror::Error;

/// A cell's coordinates: file `x` (a = 0), rank `y` (1 = 0), level `z` (index in
/// notation order: level A, I or 1 is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// File, 0-based.
    pub x: i8,
    /// Rank, 0-based.
    pub y: i8,
    /// Level, 0-based in notation order.
    pub z: i8,
}

impl Coord {
    /// Coordinates from their components.
    pub const fn new(x: i8, y: i8, z: i8) -> Self {
        Coord { x, y, z }
    }
    /// The coordinates displaced by `v` (no bounds or wrapping applied).
    pub const fn offset(self, v: Vector) -> Self {
        Coord::new(self.x + v.x, self.y + v.y, self.z + v.z)
    }
}

/// Which cells of a bounding box exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    dims: [i8; 3],
    exists: Vec<bool>,
}

impl Shape {
    /// A full box of `files x ranks x levels` cells.
    pub fn cuboid(files: i8, ranks: i8, levels: i8) -> Self {
        Self::from_fn(files, ranks, levels, |_| true)
    }

    /// A box whose cells exist where `exists` says so (irregular boards such as
    /// Octahedral Chess's nine square levels, or Savard's wings).
    pub fn from_fn(files: i8, ranks: i8, levels: i8, exists: impl Fn(Coord) -> bool) -> Self {
        let mut v = Vec::new();
        for z in 0..levels {
            for y in 0..ranks {
                for x in 0..files {
                    v.push(exists(Coord::new(x, y, z)));
                }
            }
        }
        Shape { dims: [files, ranks, levels], exists: v }
    }

    /// Bounding-box size per axis: files, ranks, levels.
    pub fn dims(&self) -> [i8; 3] {
        self.dims
    }

    fn index(&self, c: Coord) -> Option<usize> {
        let [w, h, d] = self.dims;
        if c.x < 0 || c.y < 0 || c.z < 0 || c.x >= w || c.y >= h || c.z >= d {
            return None;
        }
        Some(c.x as usize + w as usize * (c.y as usize + h as usize * c.z as usize))
    }

    /// Whether a cell exists.
    pub fn contains(&self, c: Coord) -> bool {
        self.index(c).is_some_and(|i| self.exists[i])
    }
}

/// Which axes wrap around (cylinder: files; torus: all three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Topology {
    /// Wrap flags for files, ranks, levels.
    pub wrap: [bool; 3],
}

impl Topology {
    /// No axis wraps.
    pub const BOUNDED: Topology = Topology { wrap: [false; 3] };
    /// Files wrap: the a and e faces are joined.
    pub const CYLINDER: Topology = Topology { wrap: [true, false, false] };
    /// Every axis wraps.
    pub const TORUS: Topology = Topology { wrap: [true; 3] };

    /// Whether any axis wraps.
    pub fn wraps(self) -> bool {
        self.wrap.iter().any(|&w| w)
    }
}

/// Errors building a board.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GeometryError {
    /// The board has more cells than the cell-set type can hold.
    #[error("board has {cells} cells, more than the {capacity} this cell set holds")]
    TooManyCells {
        /// Cells on the board.
        cells: usize,
        /// Capacity of the cell-set type.
        capacity: usize,
    },
    /// The board has no cells.
    #[error("board has no cells")]
    Empty,
    /// A wrapping axis must be full on every line, or wrapping is undefined.
    #[error("axis {axis} wraps but the shape is not a full box")]
    IrregularWrap {
        /// Axis index: 0 files, 1 ranks, 2 levels.
        axis: usize,
    },
    /// Wrapping puts two cells on two different lines (an even number of
    /// cells round a wrapped axis, half way round both diagonals of a
    /// plane): the tables keep one line between two cells.
    #[error(
        "the wrapping puts cells {a:?} and {b:?} (files, ranks, levels from 0) on two different lines: a wrapped \
         axis of an even size joins them both ways round; Raum plays only boards where two cells share at most \
         one line (wrap an odd number of cells)"
    )]
    TwoLines {
        /// One cell.
        a: Coord,
        /// The other.
        b: Coord,
    },
}

/// A board: shape, topology and the dense numbering of its cells.
///
/// Cells are numbered in (level, rank, file) order, so one step in any positive
/// direction (see [`crate::Direction`]) leads to a higher number on a bounded board.
#[derive(Clone, Debug)]
pub struct Board {
    shape: Shape,
    topology: Topology,
    coords: Vec<Coord>,
    index: Vec<Option<u16>>,
}

impl Board {
    /// Numbers the cells of `shape` under `topology`.
    pub fn new(shape: Shape, topology: Topology) -> Result<Self, GeometryError> {
        let [w, h, d] = shape.dims;
        let mut coords = Vec::new();
        let mut index = vec![None; shape.exists.len()];
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    let c = Coord::new(x, y, z);
                    if shape.contains(c) {
                        index[shape.index(c).expect("in box")] = Some(coords.len() as u16);
                        coords.push(c);
                    }
                }
            }
        }
        if coords.is_empty() {
            return Err(GeometryError::Empty);
        }
        if topology.wraps() && coords.len() != shape.exists.len() {
            let axis = topology.wrap.iter().position(|&w| w).unwrap_or(0);
            return Err(GeometryError::IrregularWrap { axis });
        }
        Ok(Board { shape, topology, coords, index })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no cells (never true for a built board).
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The topology.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Coordinates of a cell.
    pub fn coord(&self, cell: usize) -> Coord {
        self.coords[cell]
    }

    /// The cell at `c`, if it exists (no wrapping applied).
    pub fn cell_at(&self, c: Coord) -> Option<usize> {
        self.shape.index(c).and_then(|i| self.index[i]).map(usize::from)
    }

    /// The cell reached from `cell` by displacement `v`, applying wrap-around on
    /// wrapping axes; `None` if it leaves the board.
    pub fn step(&self, cell: usize, v: Vector) -> Option<usize> {
        let c = self.coords[cell].offset(v);
        let dims = self.shape.dims;
        let mut p = [c.x, c.y, c.z];
        for axis in 0..3 {
            if self.topology.wrap[axis] {
                p[axis] = p[axis].rem_euclid(dims[axis]);
            }
        }
        self.cell_at(Coord::new(p[0], p[1], p[2]))
    }
}
