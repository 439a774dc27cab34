//! `[pawn]`: the pawn's steps, captures, double steps, en passant and
//! promotion, in the pawn's frame (see [`super::frame`]), and the pawn sets
//! they make for each side.

use super::frame::{Frame, orientation_name, orientations, signed_axis};
use super::reader::{Reader, Table};
use super::tree::Val;
use crate::piece_def::{PieceDef, Role};
use crate::spec::{CellNaming, Mirror, PawnRules, PawnSet, VariantSpec};
use raum_geometry::{Coord, Shape, Vector};

/// Where pawns may step two from.
enum DoubleFrom {
    Unmoved,
    Cells(Vec<Coord>),
}

/// Where pawns promote.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Promotion {
    NoStep,
    NoForwardStep,
    LastRank,
}

/// The pawn rules as read, in the frame's letters.
pub(crate) struct PawnDef {
    forward: (usize, i8),
    up: (usize, i8),
    free: bool,
    steps: Vec<String>,
    captures: Vec<String>,
    doubles: Vec<(String, String)>,
    from: DoubleFrom,
    en_passant: bool,
    promotion: Result<Promotion, Vec<Coord>>,
    promote_to: Vec<char>,
    column_rule: bool,
}

/// The keys of `[pawn]`.
pub(crate) const KEYS: &[&str] = &[
    "forward",
    "up",
    "free-orientation",
    "steps",
    "captures",
    "double-steps",
    "double-step-from",
    "en-passant",
    "promotion",
    "promote-to",
    "column-rule",
];

/// Reads `[pawn]`.
pub(crate) fn read_pawn(
    mut t: Table,
    pieces: &[PieceDef],
    naming: CellNaming,
    dims: [i8; 3],
    r: &mut Reader,
) -> Option<PawnDef> {
    let axis = |t: &mut Table, key: &str, r: &mut Reader| -> Option<(usize, i8)> {
        let (s, at) = t.req_str(key, r)?;
        let a = signed_axis(s);
        if a.is_none() {
            r.error(at, &t.key_path(key), format!("'{s}' is not a signed axis: +x, -x, +y, -y, +z or -z"));
        }
        a
    };
    let forward = axis(&mut t, "forward", r);
    let up = axis(&mut t, "up", r);
    if let (Some(f), Some(u)) = (forward, up)
        && f.0 == u.0
    {
        r.error(t.at, &t.key_path("up"), "up must be another axis than forward");
    }
    let free = t.bool("free-orientation", r);
    if free && up.is_some_and(|u| u.1 < 0) {
        r.error(t.at, &t.key_path("up"), "with free-orientation, up is the positive altus axis (+x, +y or +z)");
    }
    // Every direction is checked against a frame here; the sets are built later.
    let frame =
        Frame::new(forward.unwrap_or((1, 1)), up.filter(|u| Some(u.0) != forward.map(|f| f.0)).unwrap_or((2, 1)));
    let dirs = |t: &mut Table, key: &str, r: &mut Reader, required: bool| -> Vec<String> {
        if required && t.get(key).is_none() {
            r.error(t.at, &t.key_path(key), "missing");
        }
        let mut out = Vec::new();
        for (s, at, path) in t.strs(key, r).unwrap_or_default() {
            match frame.vector(s) {
                Ok(_) => out.push(s.to_string()),
                Err((i, m)) => r.error_in(at, i, &path, m),
            }
        }
        out
    };
    let steps = dirs(&mut t, "steps", r, true);
    let captures = dirs(&mut t, "captures", r, true);
    let mut doubles = Vec::new();
    for (s, at, path) in t.strs("double-steps", r).unwrap_or_default() {
        let parts: Vec<&str> = s.split_whitespace().collect();
        if parts.len() != 2 {
            r.error(at, &path, "a double step is two single steps, as \"f f\" or \"f u\"");
            continue;
        }
        let mut ok = true;
        for p in &parts {
            if let Err((_, m)) = frame.vector(p) {
                r.error(at, &path, m);
                ok = false;
            } else if !steps.iter().any(|x| frame.vector(x) == frame.vector(p)) {
                r.error(at, &path, format!("'{p}' is not one of the pawn's steps"));
                ok = false;
            }
        }
        if ok {
            doubles.push((parts[0].to_string(), parts[1].to_string()));
        }
    }
    let from = match t.get("double-step-from") {
        None => {
            if !doubles.is_empty() {
                r.error(t.at, &t.key_path("double-step-from"), "missing: say \"unmoved\" or list cells");
            }
            DoubleFrom::Cells(Vec::new())
        }
        Some(n) if matches!(&n.val, Val::Str(s) if s == "unmoved") => DoubleFrom::Unmoved,
        Some(_) => DoubleFrom::Cells(cells(&mut t, "double-step-from", naming, dims, r)),
    };
    if free && !matches!(from, DoubleFrom::Unmoved) && !doubles.is_empty() {
        r.error(t.at, &t.key_path("double-step-from"), "with free-orientation, double steps are from \"unmoved\"");
    }
    let en_passant = t.bool("en-passant", r);
    if en_passant && doubles.is_empty() {
        r.error(t.at, &t.key_path("en-passant"), "en passant needs double steps");
    }
    let promotion = match t.get("promotion") {
        None => {
            r.error(t.at, &t.key_path("promotion"), "missing: no-step, no-forward-step, last-rank, or cells");
            Ok(Promotion::LastRank)
        }
        Some(n) => match &n.val {
            Val::Str(s) if s == "no-step" => Ok(Promotion::NoStep),
            Val::Str(s) if s == "no-forward-step" => Ok(Promotion::NoForwardStep),
            Val::Str(s) if s == "last-rank" => Ok(Promotion::LastRank),
            Val::Str(s) if !s.contains(|c: char| c.is_ascii_digit()) => {
                r.error(
                    n.at,
                    &t.key_path("promotion"),
                    format!("unknown promotion '{s}' (known: no-step, no-forward-step, last-rank, or cells)"),
                );
                Ok(Promotion::LastRank)
            }
            _ => {
                if free {
                    r.error(n.at, &t.key_path("promotion"), "with free-orientation, promotion is a rule, not cells");
                }
                Err(cells(&mut t, "promotion", naming, dims, r))
            }
        },
    };
    let mut promote_to = Vec::new();
    match t.req_str("promote-to", r) {
        None => {}
        Some((s, at)) => {
            for (i, l) in s.chars().enumerate() {
                match pieces.iter().find(|p| p.letter == l) {
                    None => r.error_in(at, i, &t.key_path("promote-to"), format!("no piece has the letter '{l}'")),
                    Some(p) if p.role != Role::Piece => r.error_in(
                        at,
                        i,
                        &t.key_path("promote-to"),
                        format!("'{l}' is a king or a pawn: a pawn promotes to another piece"),
                    ),
                    Some(_) if promote_to.contains(&l) => {
                        r.error_in(at, i, &t.key_path("promote-to"), format!("'{l}' is listed twice"))
                    }
                    Some(_) => promote_to.push(l),
                }
            }
            if promote_to.is_empty() && s.is_empty() {
                r.error(at, &t.key_path("promote-to"), "a pawn must have something to promote to");
            }
        }
    }
    let column_rule = t.bool("column-rule", r);
    t.finish(r, KEYS);
    Some(PawnDef {
        forward: forward?,
        up: up?,
        free,
        steps,
        captures,
        doubles,
        from,
        en_passant,
        promotion,
        promote_to,
        column_rule,
    })
}

/// Cells listed as regions under `key`.
fn cells(t: &mut Table, key: &str, naming: CellNaming, dims: [i8; 3], r: &mut Reader) -> Vec<Coord> {
    let mut out = Vec::new();
    for (s, at, path) in t.strs(key, r).unwrap_or_default() {
        if let Some(cs) = super::board::region(s, at, &path, naming, dims, r) {
            out.extend(cs);
        }
    }
    out
}

impl PawnDef {
    /// Whether each side chooses its pawns' axes (free-orientation).
    pub(crate) fn free_orientation(&self) -> bool {
        self.free
    }

    /// Whether which pawns have moved is position state (a double step from
    /// any unmoved pawn).
    pub(crate) fn doubles_from_unmoved(&self) -> bool {
        matches!(self.from, DoubleFrom::Unmoved)
    }

    /// The rules in `frame`, on `shape`.
    fn rules(&self, frame: Frame, shape: &Shape) -> PawnRules {
        let v = |s: &String| frame.vector(s).unwrap_or(Vector::new(0, 0, 0));
        let steps: Vec<Vector> = self.steps.iter().map(v).collect();
        let [w, h, d] = shape.dims();
        let all: Vec<Coord> = (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| Coord::new(x, y, z))))
            .filter(|&c| shape.contains(c))
            .collect();
        let promotion_cells = match &self.promotion {
            Err(cells) => cells.iter().copied().filter(|&c| shape.contains(c)).collect(),
            Ok(rule) => all
                .iter()
                .copied()
                .filter(|&c| match rule {
                    Promotion::NoStep => steps.iter().all(|&s| !shape.contains(c.offset(s))),
                    Promotion::NoForwardStep => !shape.contains(c.offset(frame.forward)),
                    Promotion::LastRank => {
                        let f = frame.forward;
                        let (p, dir, size) = if f.x != 0 {
                            (c.x, f.x, w)
                        } else if f.y != 0 {
                            (c.y, f.y, h)
                        } else {
                            (c.z, f.z, d)
                        };
                        p == if dir > 0 { size - 1 } else { 0 }
                    }
                })
                .collect(),
        };
        let mut captures: Vec<Vector> = self.captures.iter().map(v).collect();
        if self.free {
            // One order for every orientation: the board's direction order.
            captures.sort_by_key(|c| raum_geometry::DIRECTIONS.iter().position(|d| d == c));
        }
        PawnRules {
            steps,
            captures,
            double_origins: match &self.from {
                DoubleFrom::Unmoved => all.clone(),
                DoubleFrom::Cells(cells) => cells.iter().copied().filter(|&c| shape.contains(c)).collect(),
            },
            double_steps: self.doubles.iter().map(|(a, b)| [v(a), v(b)]).collect(),
            en_passant: self.en_passant,
            promotion_cells,
            promote_to: self.promote_to.clone(),
            column_rule: self.column_rule,
        }
    }

    /// The pawn sets and each side's start set: White's and its image
    /// (`mirror`) in a game of two; White's alone for more sides (each side's
    /// is its map's image); every orientation under free-orientation.
    pub(crate) fn sets(&self, shape: &Shape, mirror: Option<Mirror>) -> (Vec<PawnSet>, [u8; 2]) {
        let white = Frame::new(self.forward, self.up);
        let Some(mirror) = mirror else {
            return (vec![PawnSet { name: "white".into(), rules: self.rules(white, shape) }], [0, 0]);
        };
        if !self.free {
            return (VariantSpec::mirrored_pawns(self.rules(white, shape), mirror, shape.dims()), [0, 1]);
        }
        let of = |v: Vector| -> (usize, i8) {
            let c = [v.x, v.y, v.z];
            let a = (0..3).find(|&i| c[i] != 0).unwrap_or(0);
            (a, c[a].signum())
        };
        let w = (self.forward.0, self.forward.1, self.up.0);
        let (bf, bu) = (of(mirror.vector(white.forward)), of(mirror.vector(white.up)));
        let b = (bf.0, bf.1, bu.0);
        let mut order = vec![w];
        if b != w {
            order.push(b);
        }
        order.extend(orientations().into_iter().filter(|o| *o != w && *o != b));
        let sets = order
            .iter()
            .map(|&(axis, sign, altus)| PawnSet {
                name: orientation_name((axis, sign, altus)),
                rules: self.rules(Frame::new((axis, sign), (altus, 1)), shape),
            })
            .collect();
        (sets, [0, if b != w { 1 } else { 0 }])
    }
}
