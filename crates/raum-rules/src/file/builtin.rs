//! The built-in games, each a file of `variants/` embedded in the binary.

/// Every built-in game: its id and its file.
pub const BUILTIN: &[(&str, &str)] = &[
    ("five-up", include_str!("../../../../variants/five-up.toml")),
    ("raumschach", include_str!("../../../../variants/raumschach.toml")),
    ("five-up-cylinder", include_str!("../../../../variants/five-up-cylinder.toml")),
    ("five-up-torus", include_str!("../../../../variants/five-up-torus.toml")),
    ("five-up-unicorn", include_str!("../../../../variants/five-up-unicorn.toml")),
    ("octahedral", include_str!("../../../../variants/octahedral.toml")),
    ("pyramid", include_str!("../../../../variants/pyramid.toml")),
    ("betza-upright", include_str!("../../../../variants/betza-upright.toml")),
    ("betza-mixed", include_str!("../../../../variants/betza-mixed.toml")),
    ("betza-flat", include_str!("../../../../variants/betza-flat.toml")),
    ("betza-very3d", include_str!("../../../../variants/betza-very3d.toml")),
    ("book-3d", include_str!("../../../../variants/book-3d.toml")),
    ("wing-table", include_str!("../../../../variants/wing-table.toml")),
    ("wing-table-alt", include_str!("../../../../variants/wing-table-alt.toml")),
    ("forced-3d", include_str!("../../../../variants/forced-3d.toml")),
    ("triquetral", include_str!("../../../../variants/triquetral.toml")),
    ("wing-table-4p", include_str!("../../../../variants/wing-table-4p.toml")),
    ("triquetral-3p", include_str!("../../../../variants/triquetral-3p.toml")),
    ("triquetral-6p", include_str!("../../../../variants/triquetral-6p.toml")),
];

/// The file of a built-in game.
pub fn builtin_text(id: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(i, _)| *i == id).map(|(_, text)| *text)
}
