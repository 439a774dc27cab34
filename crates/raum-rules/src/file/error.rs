//! What is wrong with a variant file, and where.

use thiserror::Error;

/// One problem in a variant file: where it is (file, line and column, both
/// 1-based, and the key's dotted path) and what is wrong.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}:{column}: {key}{sep}{message}", sep = if key.is_empty() { "" } else { ": " })]
pub struct FileError {
    /// The file's name as given to the reader (a built-in file's is `variants/ID.toml`).
    pub file: String,
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
    /// The key's path (`pieces.K.moves`, `army.white[2]`); empty for the file as a whole.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// Every problem found in a variant file, in the order of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileErrors(pub Vec<FileError>);

impl std::fmt::Display for FileErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileErrors {}

/// The source texts a reading draws on (the file and the files it extends),
/// to turn byte offsets into lines and columns.
#[derive(Default)]
pub(crate) struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    /// Adds a source; returns its index.
    pub(crate) fn add(&mut self, name: &str, text: &str) -> u16 {
        self.files.push((name.to_string(), text.to_string()));
        (self.files.len() - 1) as u16
    }

    /// The error at byte offset `at` of source `src`.
    pub(crate) fn error(&self, src: u16, at: usize, key: &str, message: String) -> FileError {
        let (file, text) = &self.files[src as usize];
        let at = at.min(text.len());
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let before = &text[..at];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..at].chars().count() as u32 + 1;
        FileError { file: file.clone(), line, column, key: key.to_string(), message }
    }
}
