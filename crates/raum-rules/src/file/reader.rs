//! Walking a file's tree: typed lookups that record every problem (a missing
//! key, a value of the wrong type, a key the format does not know) with the
//! key's path and place, and go on.

use super::error::{FileError, Sources};
use super::tree::{Entry, Loc, Node, Val};

/// Collects the problems of one reading.
pub(crate) struct Reader<'s> {
    pub sources: &'s Sources,
    pub errors: Vec<FileError>,
}

impl Reader<'_> {
    /// Records a problem at `at`.
    pub(crate) fn error(&mut self, at: Loc, key: &str, message: impl Into<String>) {
        self.errors.push(self.sources.error(at.src, at.start, key, message.into()));
    }

    /// Records a problem `offset` characters into the string value at `at`
    /// (past its opening quote).
    pub(crate) fn error_in(&mut self, at: Loc, offset: usize, key: &str, message: impl Into<String>) {
        let e = self.sources.error(at.src, at.start, key, message.into());
        self.errors.push(FileError { column: e.column + 1 + offset as u32, ..e });
    }
}

/// A table being read: which of its keys were asked for, so that the rest
/// can be reported as unknown.
pub(crate) struct Table<'n> {
    pub path: String,
    pub at: Loc,
    entries: &'n [Entry],
    used: Vec<bool>,
}

impl<'n> Table<'n> {
    /// Reads `node` as a table called `path`; `None` (and an error) if it is
    /// something else.
    pub(crate) fn of(node: &'n Node, path: &str, r: &mut Reader) -> Option<Table<'n>> {
        match &node.val {
            Val::Table(entries) => {
                Some(Table { path: path.to_string(), at: node.at, entries, used: vec![false; entries.len()] })
            }
            other => {
                r.error(node.at, path, format!("expected a table, found {}", other.kind()));
                None
            }
        }
    }

    /// The path of a key of this table.
    pub(crate) fn key_path(&self, key: &str) -> String {
        if self.path.is_empty() { key.to_string() } else { format!("{}.{key}", self.path) }
    }

    /// The value of `key`, if present.
    pub(crate) fn get(&mut self, key: &str) -> Option<&'n Node> {
        let i = self.entries.iter().position(|e| e.key == key)?;
        self.used[i] = true;
        Some(&self.entries[i].node)
    }

    /// Every entry, each marked as read (for tables whose keys are names: pieces).
    pub(crate) fn entries(&mut self) -> &'n [Entry] {
        self.used.iter_mut().for_each(|u| *u = true);
        self.entries
    }

    /// Reports every key that is not one of `known`, whether asked for or
    /// not: the keys of a table the reader could not go on to read (its
    /// cells need a board that did not read).
    pub(crate) fn unknown_keys(mut self, r: &mut Reader, known: &[&str]) {
        for k in known {
            self.get(k);
        }
        self.finish(r, known);
    }

    /// Reports every key not asked for.
    pub(crate) fn finish(self, r: &mut Reader, known: &[&str]) {
        for (e, used) in self.entries.iter().zip(&self.used) {
            if !used {
                let hint = if known.is_empty() { String::new() } else { format!(" (known: {})", known.join(", ")) };
                r.error(e.key_at, &self.key_path(&e.key), format!("unknown key{hint}"));
            }
        }
    }

    /// A string value, with where it was written.
    pub(crate) fn str(&mut self, key: &str, r: &mut Reader) -> Option<(&'n str, Loc)> {
        let node = self.get(key)?;
        match &node.val {
            Val::Str(s) => Some((s, node.at)),
            other => {
                r.error(node.at, &self.key_path(key), format!("expected a string, found {}", other.kind()));
                None
            }
        }
    }

    /// A string value that must be present.
    pub(crate) fn req_str(&mut self, key: &str, r: &mut Reader) -> Option<(&'n str, Loc)> {
        if self.entries.iter().all(|e| e.key != key) {
            r.error(self.at, &self.key_path(key), "missing");
            return None;
        }
        self.str(key, r)
    }

    /// A boolean value (`false` when absent).
    pub(crate) fn bool(&mut self, key: &str, r: &mut Reader) -> bool {
        match self.get(key) {
            None => false,
            Some(Node { val: Val::Bool(b), .. }) => *b,
            Some(node) => {
                r.error(node.at, &self.key_path(key), format!("expected true or false, found {}", node.val.kind()));
                false
            }
        }
    }

    /// An integer value.
    pub(crate) fn int(&mut self, key: &str, r: &mut Reader) -> Option<(i64, Loc)> {
        let node = self.get(key)?;
        match &node.val {
            Val::Int(n) => Some((*n, node.at)),
            other => {
                r.error(node.at, &self.key_path(key), format!("expected an integer, found {}", other.kind()));
                None
            }
        }
    }

    /// An array of strings (a lone string is taken as an array of one).
    pub(crate) fn strs(&mut self, key: &str, r: &mut Reader) -> Option<Vec<(&'n str, Loc, String)>> {
        let node = self.get(key)?;
        let path = self.key_path(key);
        match &node.val {
            Val::Str(s) => Some(vec![(s.as_str(), node.at, path)]),
            Val::Array(items) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match &item.val {
                        Val::Str(s) => out.push((s.as_str(), item.at, format!("{path}[{i}]"))),
                        other => r.error(
                            item.at,
                            &format!("{path}[{i}]"),
                            format!("expected a string, found {}", other.kind()),
                        ),
                    }
                }
                Some(out)
            }
            other => {
                r.error(node.at, &path, format!("expected an array of strings, found {}", other.kind()));
                None
            }
        }
    }

    /// An array of tables.
    pub(crate) fn tables(&mut self, key: &str, r: &mut Reader) -> Vec<Table<'n>> {
        let Some(node) = self.get(key) else { return Vec::new() };
        let path = self.key_path(key);
        match &node.val {
            Val::Array(items) => {
                items.iter().enumerate().filter_map(|(i, item)| Table::of(item, &format!("{path}[{i}]"), r)).collect()
            }
            other => {
                r.error(node.at, &path, format!("expected an array of tables, found {}", other.kind()));
                Vec::new()
            }
        }
    }

    /// A sub-table (absent: `None`).
    pub(crate) fn table(&mut self, key: &str, r: &mut Reader) -> Option<Table<'n>> {
        let node = self.get(key)?;
        let path = self.key_path(key);
        Table::of(node, &path, r)
    }
}

/// A single character string (a piece letter).
pub(crate) fn letter(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}
