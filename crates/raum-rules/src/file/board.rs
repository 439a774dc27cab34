//! `[board]`, the sides' symmetries (`army.black`, `[[side]]`) and cells:
//! which cells exist, which axes wrap, how cells are named.

use super::reader::{Reader, Table};
use super::tree::Loc;
use crate::naming::parse_coord;
use crate::spec::{CellNaming, Mirror};
use raum_geometry::{Coord, Shape, Topology};

/// The most cells a board may have.
pub const MAX_CELLS: usize = 512;

/// What `[board]` says before the sides are known.
pub(crate) struct BoardDef {
    pub dims: [i8; 3],
    pub naming: CellNaming,
    pub topology: Topology,
    /// The listed cells (`None`: the whole box).
    pub cells: Option<Vec<Coord>>,
    pub symmetric: bool,
    pub at: Loc,
}

/// Reads `[board]`.
pub(crate) fn read_board(mut t: Table, r: &mut Reader) -> Option<BoardDef> {
    let at = t.at;
    let dims = match t.req_str("size", r) {
        Some((s, loc)) => match size(s) {
            Ok(d) => Some(d),
            Err(m) => {
                r.error(loc, &t.key_path("size"), m);
                None
            }
        },
        None => None,
    };
    let naming = read_naming(&mut t, r);
    let mut wrap = [false; 3];
    for (s, loc, path) in t.strs("wrap", r).unwrap_or_default() {
        match s.chars().next().and_then(super::frame::axis_of).filter(|_| s.len() == 1) {
            Some(a) => wrap[a] = true,
            None => r.error(loc, &path, format!("'{s}' is not an axis: x (files), y (ranks) or z (levels)")),
        }
    }
    let symmetric = t.bool("symmetric", r);
    let regions = t.strs("cells", r);
    t.finish(r, &["size", "cells", "symmetric", "wrap", "names", "level-letters", "first-level"]);
    let (dims, naming) = (dims?, naming?);
    let cells = match regions {
        None => None,
        Some(rs) => {
            let mut cells = Vec::new();
            let mut ok = true;
            for (s, loc, path) in rs {
                match region(s, loc, &path, naming, dims, r) {
                    Some(cs) => cells.extend(cs),
                    None => ok = false,
                }
            }
            // A board short of a region it was meant to have would only
            // give errors that follow from this one.
            if !ok {
                return None;
            }
            Some(cells)
        }
    };
    Some(BoardDef { dims, naming, topology: Topology { wrap }, cells, symmetric, at })
}

/// `5x5x5`: files, ranks, levels.
fn size(s: &str) -> Result<[i8; 3], String> {
    let parts: Vec<&str> = s.split('x').collect();
    let bad = || format!("'{s}' is not a size: write files x ranks x levels, as 5x5x5");
    if parts.len() != 3 {
        return Err(bad());
    }
    let mut dims = [0i8; 3];
    for (d, p) in dims.iter_mut().zip(&parts) {
        let n: u32 = p.trim().parse().map_err(|_| bad())?;
        if n == 0 || n > 26 {
            return Err(format!("'{s}': each side of the box is 1 to 26 cells"));
        }
        *d = n as i8;
    }
    let cells = dims.iter().map(|&d| d as usize).product::<usize>();
    if dims[0] > 26 {
        return Err(format!("'{s}': at most 26 files (a to z)"));
    }
    if cells > 26 * 26 * 26 {
        return Err(format!("'{s}' is too large a box"));
    }
    Ok(dims)
}

fn read_naming(t: &mut Table, r: &mut Reader) -> Option<CellNaming> {
    let (scheme, loc) = t.req_str("names", r)?;
    let first = t.int("first-level", r);
    let letters = t.str("level-letters", r);
    let path = t.key_path("names");
    let first_level = |r: &mut Reader, max: i64| -> Option<u8> {
        match first {
            None => Some(1),
            Some((n, _)) if (1..=max).contains(&n) => Some(n as u8),
            Some((_, at)) => {
                r.error(at, "board.first-level", format!("the first level's number is 1 to {max}"));
                None
            }
        }
    };
    match scheme {
        "level-file-rank" => {
            let Some((letters, at)) = letters else {
                r.error(loc, "board.level-letters", "level-file-rank names need the level letters, as \"ABCDE\"");
                return None;
            };
            let mut seen = String::new();
            for c in letters.chars() {
                if !c.is_ascii_uppercase() || seen.contains(c) {
                    r.error(at, "board.level-letters", format!("'{c}': level letters are distinct capitals"));
                    return None;
                }
                seen.push(c);
            }
            match crate::spec::LevelLetters::new(letters) {
                Some(levels) => Some(CellNaming::LevelFileRank { levels }),
                None => {
                    r.error(at, "board.level-letters", "the level letters are 1 to 26 distinct capitals");
                    None
                }
            }
        }
        "roman-file-rank" => Some(CellNaming::RomanFileRank { first: first_level(r, 9)? }),
        "number-file-rank" => Some(CellNaming::NumberFileRank { first: first_level(r, 99)? }),
        "file-rank-greek" => Some(CellNaming::FileRankGreek),
        other => {
            r.error(
                loc,
                &path,
                format!(
                    "unknown naming '{other}' (known: level-file-rank, roman-file-rank, number-file-rank, file-rank-greek)"
                ),
            );
            None
        }
    }
}

/// A cell name's coordinates inside the box, or an error.
pub(crate) fn coord(
    name: &str,
    loc: Loc,
    path: &str,
    naming: CellNaming,
    dims: [i8; 3],
    r: &mut Reader,
) -> Option<Coord> {
    let Some(c) = parse_coord(naming, name) else {
        r.error(loc, path, format!("'{name}' is not a cell name under this board's naming"));
        return None;
    };
    let inside = [c.x, c.y, c.z].iter().zip(dims).all(|(&v, d)| (0..d).contains(&v));
    if !inside {
        r.error(loc, path, format!("{name} is outside the {}x{}x{} box", dims[0], dims[1], dims[2]));
        return None;
    }
    Some(c)
}

/// A region, `A..B` (the box between two cells) or one cell, as coordinates
/// in level, rank, file order (inside the box; whether each exists is the
/// caller's to check).
pub(crate) fn region(
    s: &str,
    loc: Loc,
    path: &str,
    naming: CellNaming,
    dims: [i8; 3],
    r: &mut Reader,
) -> Option<Vec<Coord>> {
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s.trim(), s.trim()),
    };
    let a = coord(a, loc, path, naming, dims, r)?;
    let b = coord(b, loc, path, naming, dims, r)?;
    let (lo, hi) =
        (Coord::new(a.x.min(b.x), a.y.min(b.y), a.z.min(b.z)), Coord::new(a.x.max(b.x), a.y.max(b.y), a.z.max(b.z)));
    let mut out = Vec::new();
    for z in lo.z..=hi.z {
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                out.push(Coord::new(x, y, z));
            }
        }
    }
    Some(out)
}

/// A symmetry, `x -y -z`: the image's file, rank and level coordinates are
/// the source's named axes, `-` for flipped.
pub(crate) fn symmetry(s: &str, dims: [i8; 3]) -> Result<Mirror, String> {
    let tokens: Vec<&str> = s.split_whitespace().collect();
    let bad = || format!("'{s}' is not a symmetry: write the image's axes, as \"x -y -z\"");
    if tokens.len() != 3 {
        return Err(bad());
    }
    let mut m = Mirror { flip: [false; 3], axes: [0; 3] };
    for (i, t) in tokens.iter().enumerate() {
        let (flip, name) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let mut chars = name.chars();
        let axis = chars.next().and_then(super::frame::axis_of).filter(|_| chars.next().is_none()).ok_or_else(bad)?;
        m.flip[i] = flip;
        m.axes[i] = axis as u8;
    }
    let mut sorted = m.axes;
    sorted.sort_unstable();
    if sorted != [0, 1, 2] {
        return Err(format!("'{s}' names an axis twice: each of x, y, z once"));
    }
    for i in 0..3 {
        if dims[i] != dims[m.axes[i] as usize] {
            return Err(format!(
                "'{s}' swaps axes of different lengths ({} and {})",
                dims[i], dims[m.axes[i] as usize]
            ));
        }
    }
    Ok(m)
}

/// The board: the listed cells (or the box), with every side's image of
/// them if `symmetric`; then each symmetry must map it onto itself.
pub(crate) fn shape(b: &BoardDef, maps: &[(Mirror, Loc, String)], r: &mut Reader) -> Option<Shape> {
    let [w, h, d] = b.dims;
    let mut exists = vec![b.cells.is_none(); w as usize * h as usize * d as usize];
    let index = |c: Coord| c.x as usize + w as usize * (c.y as usize + h as usize * c.z as usize);
    for &c in b.cells.iter().flatten() {
        exists[index(c)] = true;
        if b.symmetric {
            for (m, _, _) in maps {
                exists[index(m.cell(c, b.dims))] = true;
            }
        }
    }
    let shape = Shape::from_fn(w, h, d, |c| exists[index(c)]);
    let n = exists.iter().filter(|&&e| e).count();
    if n == 0 {
        r.error(b.at, "board", "the board has no cells");
        return None;
    }
    if n > MAX_CELLS {
        r.error(b.at, "board", format!("the board has {n} cells, more than {MAX_CELLS}"));
        return None;
    }
    let mut ok = true;
    for (m, loc, path) in maps {
        let off = (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
            .find(|&c| shape.contains(c) && !shape.contains(m.cell(c, b.dims)));
        if let Some(c) = off {
            let name = |c: Coord| crate::naming::coord_name(b.naming, c);
            r.error(
                *loc,
                path,
                format!(
                    "this symmetry does not map the board onto itself: cell {} goes to {}, which is not on the board (set board.symmetric to add the images)",
                    name(c),
                    name(m.cell(c, b.dims))
                ),
            );
            ok = false;
        }
    }
    ok.then_some(shape)
}
