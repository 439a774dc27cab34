//! The built-in games: each is a file of `variants/` (see [`crate::file`]),
//! read when its tables are first built.

use crate::file::{VariantDef, builtin_text, read};
use crate::multi::{MultiId, MultiSpec};
use crate::spec::{VariantId, VariantSpec};

/// A built-in game's file, read. The files are part of the binary and every
/// one is read by the tests, so a failure here is a bug in Raum.
fn builtin(id: &str) -> VariantDef {
    let text = builtin_text(id).unwrap_or_else(|| panic!("no built-in file for '{id}'"));
    read(text, &format!("variants/{id}.toml"))
        .unwrap_or_else(|e| panic!("the built-in file of '{id}' is invalid:\n{e}"))
}

/// The data description of a variant.
pub fn spec(id: VariantId) -> VariantSpec {
    match id {
        VariantId::Custom(c) => crate::file::registry::get(c).def.spec(id),
        _ => builtin(id.name()).spec(id),
    }
}

/// The data description of a multi-player game.
pub fn multi_spec(id: MultiId) -> MultiSpec {
    // The two-player board whose tables these are like; the game's own hash
    // keys come from its MultiId.
    let board = match id {
        MultiId::WingTable4p => VariantId::WingTable,
        MultiId::Custom(c) => return crate::file::registry::get(c).def.multi_spec(id, VariantId::Custom(c)),
        _ => VariantId::Triquetral,
    };
    builtin(id.name()).multi_spec(id, board)
}

/// How many cells the variant's board has (which decides its width).
pub fn cells(id: VariantId) -> usize {
    match id {
        VariantId::Custom(c) => crate::file::registry::get(c).cells,
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
