//! The playable variants, each described as data in its own module.

mod five_up;
mod raumschach;

use crate::spec::{VariantId, VariantSpec};

/// The data description of a variant.
pub fn spec(id: VariantId) -> VariantSpec {
    match id {
        VariantId::FiveUp => five_up::spec(),
        VariantId::Raumschach => raumschach::spec(),
    }
}

/// How many cells the variant's board has (which decides its width).
pub fn cells(id: VariantId) -> usize {
    match id {
        VariantId::FiveUp | VariantId::Raumschach => 125,
    }
}

/// Places a rank of pieces, files a.. from `letters`.
fn row(out: &mut Vec<(raum_geometry::Coord, char)>, level: i8, rank: i8, letters: &str) {
    for (x, l) in letters.chars().enumerate() {
        out.push((raum_geometry::Coord::new(x as i8, rank, level), l));
    }
}
