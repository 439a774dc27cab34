//! A TOML document as an owned tree whose every key and value knows where it
//! was written, so that the reader can point at it, and tables can be merged
//! for `extends`.

use super::error::{FileError, Sources};
use toml::de::{DeTable, DeValue};

/// Where a key or value was written: a source and a byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Loc {
    pub src: u16,
    pub start: usize,
}

/// A value and where it was written.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub at: Loc,
    pub val: Val,
}

/// A TOML value.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Str(String),
    Int(i64),
    Bool(bool),
    /// A float or a date: no key of the format takes one.
    Other(&'static str),
    Array(Vec<Node>),
    Table(Vec<Entry>),
}

/// A key of a table, where it was written, and its value.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub key: String,
    pub key_at: Loc,
    pub node: Node,
}

impl Val {
    /// The name of the value's type, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Val::Str(_) => "a string",
            Val::Int(_) => "an integer",
            Val::Bool(_) => "a boolean",
            Val::Other(t) => t,
            Val::Array(_) => "an array",
            Val::Table(_) => "a table",
        }
    }
}

/// Parses a document of source `src`.
pub(crate) fn parse(text: &str, src: u16, sources: &Sources) -> Result<Node, FileError> {
    match DeTable::parse(text) {
        Ok(t) => {
            let start = t.span().start;
            Ok(Node { at: Loc { src, start }, val: Val::Table(table(t.get_ref(), src)) })
        }
        Err(e) => {
            let at = e.span().map_or(0, |s| s.start);
            let message = e.message().trim().replace('\n', " ");
            Err(sources.error(src, at, "", format!("not valid TOML: {message}")))
        }
    }
}

fn table(t: &DeTable<'_>, src: u16) -> Vec<Entry> {
    t.iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            key_at: Loc { src, start: k.span().start },
            node: node(v.get_ref(), v.span().start, src),
        })
        .collect()
}

fn node(v: &DeValue<'_>, start: usize, src: u16) -> Node {
    let val = match v {
        DeValue::String(s) => Val::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()) {
            Ok(n) => Val::Int(n),
            Err(_) => Val::Other("an integer out of range"),
        },
        DeValue::Float(_) => Val::Other("a float"),
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(_) => Val::Other("a date"),
        DeValue::Array(a) => Val::Array(a.iter().map(|x| node(x.get_ref(), x.span().start, src)).collect()),
        DeValue::Table(t) => Val::Table(table(t, src)),
    };
    Node { at: Loc { src, start }, val }
}

/// `over` laid on `base`: tables merge key by key (a key of `over` replaces
/// the base's value in place, a new key goes last); anything else replaces.
pub(crate) fn merge(base: Node, over: Node) -> Node {
    match (base.val, over.val) {
        (Val::Table(mut b), Val::Table(o)) => {
            for e in o {
                match b.iter().position(|x| x.key == e.key) {
                    Some(i) => {
                        let old = std::mem::replace(&mut b[i].node, Node { at: e.node.at, val: Val::Bool(false) });
                        b[i].node = merge(old, e.node);
                        b[i].key_at = e.key_at;
                    }
                    None => b.push(e),
                }
            }
            Node { at: over.at, val: Val::Table(b) }
        }
        (_, val) => Node { at: over.at, val },
    }
}
