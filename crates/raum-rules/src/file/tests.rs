//! The built-in files.

use super::*;

#[test]
fn every_builtin_file_reads_and_has_the_cells_its_width_was_chosen_for() {
    for id in VariantId::ALL {
        let def = read(builtin_text(id.name()).unwrap(), id.name()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(def.id(), id.name());
        assert_eq!(def.side_count(), 2);
        assert_eq!(def.cells(), crate::variants::cells(id), "{id}");
    }
    for id in MultiId::ALL {
        let def = read(builtin_text(id.name()).unwrap(), id.name()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(def.id(), id.name());
        assert_eq!(def.cells(), id.cells(), "{id}");
        assert!(def.side_count() > 2);
    }
    assert_eq!(BUILTIN.len(), VariantId::ALL.len() + MultiId::ALL.len());
}
