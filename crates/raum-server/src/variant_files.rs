//! Variant files in the web app: a person's file is read, loaded and kept in
//! the store under its game's id (`POST /api/variants`), so that its games,
//! rules page and records work after a restart: a stored file is loaded
//! again the first time its id is asked for ([`ensure_loaded`]).
//!
//! An id names one game on a server: the first file kept under it. A file
//! whose id is taken by other rules is refused.

use crate::games::refusal::Refusal;
use crate::store::{Store, StoreError};
use raum_rules::GameId;
use raum_rules::file::{FileError, LoadError, is_valid_id, load, read};
use serde::Serialize;

/// The example files the lobby offers to start from (`examples/variants/`).
const EXAMPLES: [(&str, &str); 4] = [
    ("cubelet.toml", include_str!("../../../examples/variants/cubelet.toml")),
    ("octahedral-camel-general.toml", include_str!("../../../examples/variants/octahedral-camel-general.toml")),
    ("octahedral-great-knight.toml", include_str!("../../../examples/variants/octahedral-great-knight.toml")),
    ("short-riders.toml", include_str!("../../../examples/variants/short-riders.toml")),
];

/// An example file (`GET /api/variant-examples`).
#[derive(Serialize)]
pub struct Example {
    /// Its file name.
    name: &'static str,
    /// Its game's title.
    title: String,
    /// The file.
    text: &'static str,
}

/// The example files, each with its title.
pub fn examples() -> Vec<Example> {
    EXAMPLES
        .iter()
        .map(|&(name, text)| {
            let title = read(text, name).map_or_else(|_| name.to_string(), |d| d.title().to_string());
            Example { name, title, text }
        })
        .collect()
}

/// Largest file taken (the request body limit is a little more).
pub const MAX_FILE: usize = 48 * 1024;

/// One problem of a refused file, where a line and column say where.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Problem {
    /// Line, from 1 (0: the file as a whole).
    pub line: u32,
    /// Column in characters, from 1 (0: the file as a whole).
    pub column: u32,
    /// The key's dotted path, empty for the file as a whole.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// Why a file was refused: a status, a message, and each problem by line.
#[derive(Debug)]
pub struct FileRefusal {
    /// The HTTP status.
    pub status: u16,
    /// Every problem in one text, as `raum check` prints them.
    pub message: String,
    /// The problems a line and column place (empty when none does).
    pub problems: Vec<Problem>,
}

impl From<Refusal> for FileRefusal {
    fn from(r: Refusal) -> Self {
        FileRefusal { status: r.status, message: r.message, problems: Vec::new() }
    }
}

fn problem(e: &FileError) -> Problem {
    Problem { line: e.line, column: e.column, key: e.key.clone(), message: e.message.clone() }
}

/// The game of the file kept under `name`, loaded if it is not yet: a
/// stored game of a variant file opens after a restart. Nothing happens for
/// a name Raum knows already or the store does not hold.
pub fn ensure_loaded(store: &dyn Store, name: &str) -> Result<(), StoreError> {
    if GameId::from_name(name).is_ok() || !is_valid_id(name) {
        return Ok(());
    }
    if let Some(text) = store.variant_file(name)? {
        // A kept file read once; if it no longer loads (a newer Raum reads
        // it otherwise), the game stays unknown and says so when asked for.
        let _ = load(&text, &format!("{name}.toml"));
    }
    Ok(())
}

/// Reads `text` (named `file` in messages), loads its game and keeps the file
/// in the store: its id, or why not.
pub fn upload(store: &dyn Store, text: &str, file: &str) -> Result<GameId, FileRefusal> {
    if text.len() > MAX_FILE {
        return Err(FileRefusal {
            status: 413,
            message: format!("the file is over {} KB", MAX_FILE / 1024),
            problems: Vec::new(),
        });
    }
    let def = read(text, file).map_err(|errors| FileRefusal {
        status: 422,
        message: errors.to_string(),
        problems: errors.0.iter().map(problem).collect(),
    })?;
    let stored = |e: StoreError| FileRefusal { status: 500, message: format!("storage: {e}"), problems: Vec::new() };
    // A file kept under this id before a restart holds it still.
    ensure_loaded(store, def.id()).map_err(stored)?;
    let id = load(text, file).map_err(|e| {
        let status = match e {
            LoadError::IdTaken { .. } => 409,
            LoadError::TooMany { .. } => 503,
            _ => 422,
        };
        let problems = match &e {
            LoadError::File(errors) => errors.0.iter().map(problem).collect(),
            _ => Vec::new(),
        };
        FileRefusal { status, message: e.to_string(), problems }
    })?;
    if matches!(
        id,
        GameId::Two(raum_rules::VariantId::Custom(_)) | GameId::Multi(raum_rules::multi::MultiId::Custom(_))
    ) {
        store.save_variant_file(id.name(), text).map_err(stored)?;
    }
    Ok(id)
}
