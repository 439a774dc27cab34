//! The text of records, without the rules: the scanner that reads tags,
//! `{comments}`, `;` comments, `%` lines, variations and tokens, and the
//! writer's pieces (escaped tags, comments, lines of at most [`LINE`]
//! characters).

use super::RecordError;

/// What [`scan`] hands a reader of record text: the record reader and
/// [`record_variants`] share the text's syntax.
pub(crate) trait Scanned {
    /// The line being read, from 1 (the scanner counts it).
    fn line(&mut self) -> &mut usize;
    /// An error at the line being read.
    fn error(&self, what: String) -> RecordError;
    /// A `[Name "value"]` tag.
    fn tag(&mut self, name: String, value: String) -> Result<(), RecordError>;
    /// A `{...}` comment's body.
    fn comment(&mut self, body: &str);
    /// A move number, move or result.
    fn token(&mut self, tok: &str) -> Result<(), RecordError>;
}

/// Reads record text into `reader`: tags, comments and tokens; `;` comments,
/// `%` lines and variations `( ... )` skipped.
pub(crate) fn scan(text: &str, reader: &mut impl Scanned) -> Result<(), RecordError> {
    let mut chars = text.char_indices().peekable();
    let mut at_line_start = true;
    while let Some(&(i, c)) = chars.peek() {
        if c == '\n' {
            *reader.line() += 1;
            at_line_start = true;
            chars.next();
            continue;
        }
        if c.is_whitespace() || c == '\u{feff}' {
            chars.next();
            continue;
        }
        let rest = &text[i..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        if at_line_start && c == '%' {
            // PGN's escape: the line is for other programs.
            advance(&mut chars, i + line_end);
            continue;
        }
        at_line_start = false;
        match c {
            '[' => {
                let (name, value) = parse_tag(&rest[..line_end]).map_err(|what| reader.error(what))?;
                reader.tag(name, value)?;
                advance(&mut chars, i + line_end);
            }
            ';' => advance(&mut chars, i + line_end),
            '{' => {
                let end = rest.find('}').ok_or_else(|| reader.error("a comment opened with { is not closed".into()))?;
                let body = &rest[1..end];
                *reader.line() += body.matches('\n').count();
                reader.comment(body);
                advance(&mut chars, i + end + 1);
            }
            '(' => {
                let end = variation_end(rest)
                    .ok_or_else(|| reader.error("a variation opened with ( is not closed".into()))?;
                *reader.line() += rest[..end].matches('\n').count();
                advance(&mut chars, i + end);
            }
            ')' => return Err(reader.error("a ) closes no variation".into())),
            // A token ends before `}` (as before `)`): without this arm a stray one
            // was an empty token and the reader never moved past it.
            '}' => return Err(reader.error("a } closes no comment".into())),
            _ => {
                let len = token_len(rest);
                reader.token(&rest[..len])?;
                advance(&mut chars, i + len);
            }
        }
    }
    Ok(())
}

/// Whether `c` ends a token.
fn ends_token(c: char) -> bool {
    c.is_whitespace() || "{};)[".contains(c)
}

/// The length of the move, number or result token at the start of `text`. A
/// `(` after a piece letter is part of the token when its `)` closes it
/// within the same word (`P(Dd2)-Dd3`); any other opens a variation
/// (`5.(5. Dd3)`, `5.(P(Dd2)-Dd3)`). Otherwise a token could swallow spaces
/// and lines up to a `)` further on, or become a move that starts with `(`,
/// and the writer could not give either back.
fn token_len(text: &str) -> usize {
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' => {
                if !text[..i].chars().next_back().is_some_and(char::is_alphabetic) {
                    return i;
                }
                let word = text[i + 1..].find(|c: char| c != ')' && ends_token(c)).map_or(text.len(), |e| i + 1 + e);
                match text[i..word].find(')') {
                    Some(close) => while chars.next().is_some_and(|(j, _)| j < i + close) {},
                    None => return i,
                }
            }
            _ if ends_token(c) => return i,
            _ => {}
        }
    }
    text.len()
}

fn advance(chars: &mut core::iter::Peekable<core::str::CharIndices<'_>>, to: usize) {
    while chars.peek().is_some_and(|&(j, _)| j < to) {
        chars.next();
    }
}

/// The byte just after the `)` that closes the variation `text` opens
/// (nested variations and comments inside skipped).
fn variation_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_comment = false;
    for (i, c) in text.char_indices() {
        match c {
            '}' if in_comment => in_comment = false,
            _ if in_comment => {}
            '{' => in_comment = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `[Name "value"]` as name and unescaped value.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let line = line.trim_end();
    let bad = |why: &str| format!("tag {line}: {why} (a tag is written [Name \"value\"])");
    let inner = line.strip_prefix('[').ok_or_else(|| bad("no ["))?;
    let name_len = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
    let name = &inner[..name_len];
    if name.is_empty() {
        return Err(bad("no tag name"));
    }
    let after = inner[name_len..].trim_start();
    let body = after.strip_prefix('"').ok_or_else(|| bad("the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    let close = loop {
        match chars.next() {
            None => return Err(bad("the value's closing quote is missing")),
            Some((_, '\\')) => match chars.next() {
                Some((_, c)) => value.push(c),
                None => return Err(bad("the value's closing quote is missing")),
            },
            Some((j, '"')) => break j,
            Some((_, c)) => value.push(c),
        }
    };
    match body[close + 1..].trim() {
        "]" => Ok((name.to_string(), value)),
        _ => Err(bad("expected ] after the value")),
    }
}

/// Writes a tag value with PGN's escapes; a line break becomes a space.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

/// A comment as written: whitespace collapsed, `}` (which would end it) left out.
fn clean_comment(c: &str) -> String {
    c.replace('}', "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest movetext line written (PGN's export format keeps them under 80).
pub(crate) const LINE: usize = 79;

/// Writes the tag section and the blank line after it.
pub(crate) fn write_tags(f: &mut core::fmt::Formatter<'_>, tags: &[(String, String)]) -> core::fmt::Result {
    for (k, v) in tags {
        writeln!(f, "[{k} \"{}\"]", escape(v))?;
    }
    writeln!(f)
}

/// Adds a comment to the words of a movetext: its words are wrapped like moves.
pub(crate) fn push_comment(words: &mut Vec<String>, c: &str) {
    let c = clean_comment(c);
    let mut parts: Vec<String> = c.split(' ').map(str::to_string).collect();
    if let Some(first) = parts.first_mut() {
        first.insert(0, '{');
    }
    if let Some(last) = parts.last_mut() {
        last.push('}');
    }
    words.extend(parts);
}

/// Writes the words of a movetext in lines of at most [`LINE`] characters.
pub(crate) fn write_wrapped(f: &mut core::fmt::Formatter<'_>, words: Vec<String>) -> core::fmt::Result {
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > LINE {
            writeln!(f, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    writeln!(f, "{line}")
}

/// Adds a comment's text to the comment in `slot` (a move's, or the one
/// before the first move): two comments in a row become one.
pub(crate) fn add_comment(slot: &mut Option<String>, body: &str) {
    let c = clean_comment(body);
    *slot = Some(match slot.take() {
        Some(prev) if !c.is_empty() => format!("{prev} {c}"),
        Some(prev) => prev,
        None => c,
    });
}

/// A move number token (`12.`, `12...`, or one glued to its move, `12.Cc2`):
/// its digits, how many dots, and what follows them.
pub(crate) fn move_number(tok: &str) -> Option<(&str, usize, &str)> {
    let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let dots = tok[digits..].len() - tok[digits..].trim_start_matches('.').len();
    (digits > 0 && dots > 0).then(|| (&tok[..digits], dots, &tok[digits + dots..]))
}

/// The values of the `Variant` tags of a record text, in order: which games
/// it holds, read without reading the games (tags inside comments are not
/// tags), so that a caller can tell which games a text holds before it reads
/// them ([`crate::parse_records`]). Text that is not a record gives the tags
/// before the fault.
///
/// ```
/// let text = "[Variant \"five-up\"]\n\n{[Variant \"x\"]} *\n\n[Variant \"triquetral-3p\"]\n\n*\n";
/// assert_eq!(raum_notation::record_variants(text), ["five-up", "triquetral-3p"]);
/// ```
pub fn record_variants(text: &str) -> Vec<String> {
    struct Variants {
        line: usize,
        found: Vec<String>,
    }
    impl Scanned for Variants {
        fn line(&mut self) -> &mut usize {
            &mut self.line
        }
        fn error(&self, what: String) -> RecordError {
            RecordError { game: 0, line: self.line, what }
        }
        fn tag(&mut self, name: String, value: String) -> Result<(), RecordError> {
            if name == "Variant" {
                self.found.push(value);
            }
            Ok(())
        }
        fn comment(&mut self, _: &str) {}
        fn token(&mut self, _: &str) -> Result<(), RecordError> {
            Ok(())
        }
    }
    let mut variants = Variants { line: 1, found: Vec::new() };
    // A fault ends the list: the reader the caller picks will report it.
    let _ = scan(text, &mut variants);
    variants.found
}
