//! Geometry of 3D chess boards: which cells exist, how they are numbered, how
//! axes wrap, which directions and leaps exist, and the tables built from them
//! once per variant (rays, leaper targets, between-sets).
//!
//! Nothing here knows about pieces. The rules layer describes a piece's motion as
//! direction families and leap vectors; this layer turns those into cell sets.
//!
//! ```
//! use raum_geometry::{Board, Shape, Topology, Vector};
//! let board = Board::new(Shape::cuboid(5, 5, 5), Topology::BOUNDED).unwrap();
//! assert_eq!(board.len(), 125);
//! let centre = board.cell_at(raum_geometry::Coord::new(2, 2, 2)).unwrap();
//! let up = board.step(centre, Vector::new(0, 0, -1)).unwrap();
//! assert_eq!(board.coord(up), raum_geometry::Coord::new(2, 2, 1));
//! ```

mod board;
mod direction;
mod lines;
mod tables;

pub use board::{Board, Coord, GeometryError, Shape, Topology};
pub use direction::{DIRECTIONS, Direction, Family, Vector, family_directions, is_positive, leap_vectors};
pub use lines::Lines;
pub use tables::Tables;
