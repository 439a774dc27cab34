//! Variant files that are wrong: every one gives errors that name the line,
//! the column and the key, and none panics (docs/variants.md).

use raum_rules::file::{BUILTIN, FileError, read};

/// A small valid game; each case below breaks one thing in it.
const BASE: &str = r#"format = 1
id = "tiny"
title = "Tiny"

[board]
size = "4x4x4"
names = "level-file-rank"
level-letters = "ABCD"

[pieces]
K = { name = "king", role = "king", moves = "O + D + T" }
R = { name = "rook", moves = "O*" }
P = { name = "pawn", role = "pawn" }

[army]
white = ["Aa1 RK", "Aa2 PP"]
black = "-x -y -z"

[pawn]
forward = "+y"
up = "+z"
steps = ["f"]
captures = ["lf", "rf"]
promotion = "last-rank"
promote-to = "R"
"#;

/// `BASE` with `from` replaced by `to` (which must occur once).
fn edit(from: &str, to: &str) -> String {
    assert_eq!(BASE.matches(from).count(), 1, "{from}");
    BASE.replacen(from, to, 1)
}

/// (what is wrong, the file, line, column, key, a part of the message).
fn cases() -> Vec<(&'static str, String, u32, u32, &'static str, &'static str)> {
    vec![
        ("an unterminated string", edit(r#"size = "4x4x4""#, r#"size = "4x4x4"#), 6, 14, "", "not valid TOML"),
        ("an unclosed table header", edit("[board]", "[board"), 5, 7, "", "not valid TOML"),
        ("a key given twice", edit("names = ", "names = \"x\"\nnames = "), 8, 1, "", "not valid TOML"),
        ("no format", edit("format = 1\n", ""), 1, 1, "format", "missing"),
        ("an unknown format", edit("format = 1", "format = 2"), 1, 10, "format", "format 2 is not known"),
        ("no id", edit("id = \"tiny\"\n", ""), 1, 1, "id", "missing"),
        ("an id with spaces", edit(r#"id = "tiny""#, r#"id = "tiny game""#), 2, 6, "id", "1 to 40 characters"),
        (
            "an unknown top-level key",
            edit("title = \"Tiny\"", "title = \"Tiny\"\ncolour = 1"),
            4,
            1,
            "colour",
            "unknown key",
        ),
        (
            "no board",
            edit("[board]\nsize = \"4x4x4\"\nnames = \"level-file-rank\"\nlevel-letters = \"ABCD\"\n", ""),
            1,
            1,
            "board",
            "missing",
        ),
        ("a size of two axes", edit(r#""4x4x4""#, r#""4x4""#), 6, 8, "board.size", "is not a size"),
        ("a size of zero", edit(r#""4x4x4""#, r#""0x4x4""#), 6, 8, "board.size", "1 to 26"),
        ("a size past 26", edit(r#""4x4x4""#, r#""30x4x4""#), 6, 8, "board.size", "1 to 26"),
        ("a board over 512 cells", edit(r#""4x4x4""#, r#""9x9x9""#), 5, 1, "board", "more than 512"),
        ("an unknown naming", edit(r#""level-file-rank""#, r#""letters""#), 7, 9, "board.names", "unknown naming"),
        (
            "level names without letters",
            edit("level-letters = \"ABCD\"\n", ""),
            7,
            9,
            "board.level-letters",
            "need the level letters",
        ),
        (
            "an unknown board key",
            edit("[board]\n", "[board]\nwrapping = [\"x\"]\n"),
            6,
            1,
            "board.wrapping",
            "unknown key",
        ),
        (
            "a wrap that is not an axis",
            edit("[board]\n", "[board]\nwrap = [\"w\"]\n"),
            6,
            9,
            "board.wrap[0]",
            "not an axis",
        ),
        (
            "cells outside the box",
            edit("[board]\n", "[board]\ncells = [\"Aa1..Ae5\"]\n"),
            6,
            10,
            "board.cells[0]",
            "outside the 4x4x4 box",
        ),
        (
            "a cell name of another naming",
            edit("[board]\n", "[board]\ncells = [\"Zz9\"]\n"),
            6,
            10,
            "board.cells[0]",
            "not a cell name",
        ),
        ("a piece key of two letters", edit("R = {", "RR = {"), 12, 1, "pieces.RR", "one capital"),
        ("a piece lettered with an atom", edit("R = {", "O = {"), 12, 1, "pieces.O", "direction family"),
        ("an unknown role", edit(r#"role = "pawn""#, r#"role = "soldier""#), 13, 29, "pieces.P.role", "unknown role"),
        (
            "a movement naming no piece",
            edit(r#""O*""#, r#""O* + X""#),
            12,
            36,
            "pieces.R.moves",
            "no piece has the letter 'X'",
        ),
        ("a rider's range of nothing", edit(r#""O*""#, r#""O*0""#), 12, 33, "pieces.R.moves", "range is 1 to 25"),
        ("a nightrider", edit(r#""O*""#, r#""(0,1,2)*""#), 12, 31, "pieces.R.moves", "not supported yet"),
        ("a piece moving as itself", edit(r#""O*""#, r#""R""#), 12, 31, "pieces.R.moves", "round in a circle"),
        ("a piece without a movement", edit(r#", moves = "O*" }"#, " }"), 12, 5, "pieces.R.moves", "missing"),
        (
            "a pawn with a movement",
            edit(r#"role = "pawn" }"#, r#"role = "pawn", moves = "O" }"#),
            13,
            45,
            "pieces.P.moves",
            "[pawn] section",
        ),
        (
            "an army letter with no piece",
            edit("Aa1 RK\"", "Aa1 RKQ\""),
            16,
            17,
            "army.white[0]",
            "no piece has the letter 'Q'",
        ),
        (
            "an army row off the board",
            edit("Aa1 RK\"", "Ad1 RK\""),
            16,
            16,
            "army.white[0]",
            "past the board's last file",
        ),
        ("an army without its king", edit("Aa1 RK\"", "Aa1 RR\""), 16, 9, "army.white", "no king"),
        ("no royal piece at all", edit(r#"role = "king", "#, ""), 10, 1, "pieces", "no piece has role \"king\""),
        ("two men on one cell", edit("\"Aa2 PP\"", "\"Aa2 PP\", \"Aa1 P\""), 16, 35, "army.white[2]", "second man"),
        ("a symmetry of two axes", edit(r#""-x -y -z""#, r#""x y""#), 17, 9, "army.black", "not a symmetry"),
        (
            "a symmetry swapping unequal axes",
            edit(r#"size = "4x4x4""#, r#"size = "4x4x3""#).replacen(r#""-x -y -z""#, r#""z -y x""#, 1),
            17,
            9,
            "army.black",
            "different lengths",
        ),
        (
            "a symmetry that does not map the board",
            edit("[board]\n", "[board]\ncells = [\"Aa1..Dd3\", \"Ba4\"]\n"),
            18,
            9,
            "army.black",
            "does not map the board onto itself",
        ),
        ("no Black", edit("black = \"-x -y -z\"\n", ""), 15, 1, "army.black", "missing"),
        ("a pawn without forward", edit("forward = \"+y\"\n", ""), 19, 1, "pawn.forward", "missing"),
        ("up along forward", edit(r#"up = "+z""#, r#"up = "-y""#), 19, 1, "pawn.up", "another axis"),
        (
            "a pawn step that is no direction",
            edit(r#"steps = ["f"]"#, r#"steps = ["fx"]"#),
            22,
            12,
            "pawn.steps[0]",
            "'x' is not a direction",
        ),
        (
            "promotion to no piece",
            edit(r#"promote-to = "R""#, r#"promote-to = "RQ""#),
            25,
            16,
            "pawn.promote-to",
            "no piece has the letter 'Q'",
        ),
        (
            "promotion to a king",
            edit(r#"promote-to = "R""#, r#"promote-to = "K""#),
            25,
            15,
            "pawn.promote-to",
            "a king or a pawn",
        ),
        (
            "an unknown promotion rule",
            edit(r#""last-rank""#, r#""far""#),
            24,
            13,
            "pawn.promotion",
            "unknown promotion",
        ),
        (
            "double steps from nowhere",
            edit("[pawn]\n", "[pawn]\ndouble-steps = [\"f f\"]\n"),
            19,
            1,
            "pawn.double-step-from",
            "missing",
        ),
        (
            "en passant without double steps",
            edit("[pawn]\n", "[pawn]\nen-passant = true\n"),
            19,
            1,
            "pawn.en-passant",
            "needs double steps",
        ),
        ("an unknown pawn key", edit("[pawn]\n", "[pawn]\nfast = true\n"), 20, 1, "pawn.fast", "unknown key"),
        (
            "two sides as [[side]]",
            format!(
                "{BASE}\n[[side]]\nletter = \"w\"\nname = \"W\"\nmap = \"x y z\"\n[[side]]\nletter = \"b\"\nname = \"B\"\nmap = \"-x -y -z\"\n"
            ),
            17,
            9,
            "army.black",
            "[[side]] tables",
        ),
        (
            "extends an unknown game",
            edit("title = \"Tiny\"", "title = \"Tiny\"\nextends = \"chess\""),
            4,
            11,
            "extends",
            "no built-in game 'chess'",
        ),
        (
            "a rider that is not a piece",
            format!("{BASE}\n[rules]\nrider = \"Z\"\n"),
            28,
            9,
            "rules.rider",
            "no piece has the letter 'Z'",
        ),
        (
            "an unknown castling",
            format!("{BASE}\n[castling]\nkind = \"long\"\n"),
            28,
            8,
            "castling.kind",
            "unknown castling",
        ),
        (
            "an unknown stalemate rule",
            format!("{BASE}\n[rules]\nstalemate = \"loss\"\n"),
            28,
            13,
            "rules.stalemate",
            "unknown stalemate rule",
        ),
        // Found by the fuzz target: each of these panicked once.
        (
            "forward and up both levels",
            edit(r#"forward = "+y""#, r#"forward = "+z""#),
            19,
            1,
            "pawn.up",
            "another axis",
        ),
        (
            "a direction of thirty letters",
            edit(r#"steps = ["f"]"#, &format!(r#"steps = ["{}"]"#, "f".repeat(30))),
            22,
            37,
            "pawn.steps[0]",
            "more than 26 letters",
        ),
        (
            "a row of dots past the board",
            edit("\"Aa2 PP\"", &format!("\"Aa2 PP{}\"", ".".repeat(200))),
            16,
            29,
            "army.white[1]",
            "past the board's last file",
        ),
        (
            "a pawn on its promotion cell",
            edit(r#""last-rank""#, r#"["Aa2..Dd2"]"#),
            16,
            9,
            "army.white",
            "starts on its promotion cell Aa2",
        ),
        (
            "two sides on one cell",
            edit("\"Aa2 PP\"", "\"Aa2 PP\", \"Dd4 R\""),
            16,
            9,
            "army.white",
            "land on one cell, Dd4",
        ),
        ("two kings", edit("\"Aa1 RK\"", "\"Aa1 KK\""), 16, 9, "army.white", "2 kings"),
        (
            "a perft expectation without a count",
            format!("{BASE}\n[[perft]]\ndepth = 2\n"),
            27,
            1,
            "perft[0].count",
            "missing",
        ),
        (
            "a perft expectation too deep",
            format!("{BASE}\n[[perft]]\ndepth = 30\ncount = 1\n"),
            28,
            9,
            "perft[0].depth",
            "1 to 8",
        ),
    ]
}

fn first(errors: &[FileError]) -> &FileError {
    &errors[0]
}

#[test]
fn every_broken_file_names_line_column_and_key() {
    assert!(read(BASE, "tiny.toml").is_ok(), "{}", read(BASE, "tiny.toml").unwrap_err());
    let cases = cases();
    assert!(cases.len() >= 30);
    let mut wrong = Vec::new();
    for (what, text, line, column, key, message) in cases {
        let Err(errors) = read(&text, "tiny.toml") else {
            wrong.push(format!("{what}: read without error"));
            continue;
        };
        let e = first(&errors.0);
        let found = (e.file.as_str(), e.line, e.column, e.key.as_str());
        if found != ("tiny.toml", line, column, key) || !e.message.contains(message) {
            wrong.push(format!("{what}: expected {line}:{column} {key} ({message}), got:\n{errors}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let text = edit(r#""4x4x4""#, r#""4x4""#).replacen("R = {", "RR = {", 1).replacen(
        r#"promote-to = "R""#,
        r#"promote-to = "Q""#,
        1,
    );
    let errors = read(&text, "tiny.toml").unwrap_err().0;
    let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
    assert!(keys.contains(&"board.size") && keys.contains(&"pieces.RR"), "{keys:?}");
}

#[test]
fn a_board_that_does_not_read_hides_no_misspelt_key() {
    // The board's level letters misspelt: no cell can be named, but every
    // other section's unknown keys are still reported, each where it is.
    let text =
        edit("level-letters", "level-leters").replacen("promotion =", "promtion =", 1).replacen("black =", "blak =", 1);
    let errors = read(&text, "tiny.toml").unwrap_err().0;
    let found: Vec<(u32, &str)> = errors.iter().map(|e| (e.line, e.key.as_str())).collect();
    for want in [(8, "board.level-leters"), (17, "army.blak"), (24, "pawn.promtion")] {
        assert!(found.contains(&want), "{want:?} in {found:?}");
    }
}

/// Small deterministic generator, so that failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn mangled_files_never_panic() {
    let mut rng = Lcg(7);
    let pieces =
        ["\"", "[", "]", "=", "\n", "..", "*", "(", ")", "|", "+", "-", "0", "99", "x", "false", "{", "}", "é", "α"];
    for (id, text) in BUILTIN.iter().chain([&("tiny", BASE)]) {
        for _ in 0..150 {
            let mut t: Vec<char> = text.chars().collect();
            for _ in 0..1 + rng.next() % 4 {
                let at = rng.next() as usize % (t.len() + 1);
                match rng.next() % 3 {
                    0 if at < t.len() => {
                        t.remove(at);
                    }
                    _ => {
                        let p = pieces[rng.next() as usize % pieces.len()];
                        for (i, c) in p.chars().enumerate() {
                            t.insert((at + i).min(t.len()), c);
                        }
                    }
                }
            }
            let s: String = t.into_iter().collect();
            if let Err(e) = read(&s, id) {
                assert!(e.0.iter().all(|e| e.line >= 1 && e.column >= 1), "{e}");
            }
        }
    }
}

/// docs/variants.md's `toml` blocks, in order.
fn docs_blocks() -> Vec<String> {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/variants.md")).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in docs.lines() {
        match (&mut open, line.trim_start()) {
            (None, "```toml") => open = Some(String::new()),
            (Some(_), "```") => blocks.extend(open.take()),
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn the_documents_examples_read_and_the_tutorial_is_its_file() {
    let blocks = docs_blocks();
    // Whole files (the tutorial's first block is a file's start only).
    let whole: Vec<&String> = blocks
        .iter()
        .filter(|b| b.starts_with("format = 1") && (b.contains("[board]") || b.contains("extends")))
        .collect();
    assert!(whole.len() >= 2, "{} whole files in docs/variants.md", whole.len());
    for b in &whole {
        if let Err(e) = read(b, "docs/variants.md") {
            panic!("{b}\n{e}");
        }
    }
    // The tutorial's blocks, one after another, are examples/variants/cubelet.toml.
    let start = blocks.iter().position(|b| b.contains("id = \"cubelet\"")).expect("the tutorial");
    let tutorial: String = blocks[start..start + 5].concat();
    let file =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/variants/cubelet.toml")).unwrap();
    assert_eq!(read(&tutorial, "tutorial").unwrap(), read(&file, "file").unwrap());
}

#[test]
fn the_builtin_files_perft_expectations_agree_with_the_naive_generator() {
    use raum_conformance::naive::{NaivePosition, perft};
    let mut checked = 0;
    for (id, text) in BUILTIN {
        let def = read(text, id).unwrap();
        for line in def.perft_lines() {
            // The naive generator of the 125-cell games reads this family's ids.
            let Ok(start) = NaivePosition::start(id) else { continue };
            let mut pos = match &line.fen {
                Some(fen) => NaivePosition::parse(id, fen).unwrap(),
                None => start,
            };
            for m in line.moves.as_deref().unwrap_or("").split_whitespace() {
                pos = pos.play(m).unwrap_or_else(|e| panic!("{id}: {m}: {e}"));
            }
            assert_eq!(perft(&pos, line.depth), line.count, "{id}, line {}", line.line);
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} expectations checked");
}
