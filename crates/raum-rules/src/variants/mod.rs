//! The playable variants, each described as data in its own module.

mod betza;
pub(crate) mod book;
mod five_up;
mod octahedral;
mod raumschach;
mod savard;

use crate::spec::{VariantId, VariantSpec};

/// The data description of a variant.
pub fn spec(id: VariantId) -> VariantSpec {
    match id {
        VariantId::FiveUp | VariantId::FiveUpCylinder | VariantId::FiveUpTorus | VariantId::FiveUpUnicorn => {
            five_up::spec(id)
        }
        VariantId::Raumschach => raumschach::spec(),
        VariantId::Octahedral => octahedral::spec(false),
        VariantId::Pyramid => octahedral::spec(true),
        VariantId::BetzaUpright => betza::spec(betza::Rules::Upright),
        VariantId::BetzaMixed => betza::spec(betza::Rules::Mixed),
        VariantId::BetzaFlat => betza::spec(betza::Rules::Flat),
        VariantId::BetzaVery3d => betza::spec(betza::Rules::Very3d),
        VariantId::Book3d => book::spec(),
        VariantId::WingTable => savard::spec(savard::Board::WingTable),
        VariantId::WingTableAlt => savard::spec(savard::Board::WingTableAlt),
        VariantId::Forced3d => savard::spec(savard::Board::Forced3d),
        VariantId::Triquetral => savard::spec(savard::Board::Triquetral),
    }
}

/// The data description of a multi-player game.
pub fn multi_spec(id: crate::multi::MultiId) -> crate::multi::MultiSpec {
    savard::multi_spec(id)
}

/// How many cells the variant's board has (which decides its width).
pub fn cells(id: VariantId) -> usize {
    match id {
        VariantId::FiveUp
        | VariantId::FiveUpCylinder
        | VariantId::FiveUpTorus
        | VariantId::FiveUpUnicorn
        | VariantId::Raumschach => 125,
        VariantId::Pyramid => 220,
        // Octahedral's 340 cells share the 512-cell width with the 8x8x8 boards:
        // one width fewer to compile, at a small cost in Octahedral alone.
        VariantId::Octahedral => 340,
        VariantId::BetzaUpright
        | VariantId::BetzaMixed
        | VariantId::BetzaFlat
        | VariantId::BetzaVery3d
        | VariantId::Book3d => 512,
        VariantId::WingTable | VariantId::WingTableAlt => 156,
        VariantId::Forced3d => 112,
        VariantId::Triquetral => 173,
    }
}

/// Places a rank of pieces, files a.. from `letters`.
fn row(out: &mut Vec<(raum_geometry::Coord, char)>, level: i8, rank: i8, letters: &str) {
    for (x, l) in letters.chars().enumerate() {
        out.push((raum_geometry::Coord::new(x as i8, rank, level), l));
    }
}
