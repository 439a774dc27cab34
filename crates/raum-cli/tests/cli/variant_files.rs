//! Variant files on the command line: `raum check FILE`, and `--variant
//! FILE` wherever a variant id is taken (docs/variants.md).

use crate::run::{raum, stderr, stdout};
use std::path::PathBuf;

/// Writes `text` to a file of its own under the system's temporary folder.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("raum-cli-variant-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("file written");
    path
}

/// Five Up's file under another id: the same game.
fn my_five_up() -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/five-up.toml")).unwrap();
    text.replace("id = \"five-up\"", "id = \"my-five-up\"").replace("title = \"Five Up\"", "title = \"My Five Up\"")
}

#[test]
fn check_summarises_a_file_that_reads() {
    let path = file("my-five-up.toml", &my_five_up());
    let o = raum(&["check", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().next().unwrap().ends_with("My Five Up (my-five-up), 2 sides, 125 cells"), "{out}");
    assert!(out.contains("pieces, from Cc3 on an empty board"), "{out}");
    assert!(out.contains("  W wizard: 40; 40"), "{out}");
    assert!(out.contains("warnings: none"), "{out}");
    assert!(out.lines().any(|l| l == "perft 3: 245828"), "{out}");
}

#[test]
fn check_lists_every_error_with_line_column_and_key() {
    let text = my_five_up().replace("size = \"5x5x5\"", "size = \"5x5\"").replace("\"O*\"", "\"O*0\"");
    let path = file("broken.toml", &text);
    let o = raum(&["check", path.to_str().unwrap()]);
    assert!(!o.status.success());
    let out = stdout(&o);
    let name = path.display().to_string();
    assert!(out.contains(&format!("{name}:9:8: board.size: '5x5' is not a size")), "{out}");
    assert!(out.contains(&format!("{name}:17:33: pieces.R.moves: a rider's range is 1 to 25 cells, not 0")), "{out}");
    assert!(stderr(&o).contains("2 errors"), "{}", stderr(&o));
}

#[test]
fn check_warns_of_what_reads_but_looks_wrong() {
    // A piece whose leap is longer than the board, and pawns with no cell to promote on.
    let whole = my_five_up();
    // Another game: Five Up's perft expectations no longer hold.
    let text = whole[..whole.find("\n# Counts").expect("five-up's [[perft]] lines")]
        .replace("N = { name = \"knight\", moves = \"(0,1,2)\" }", "N = { name = \"knight\", moves = \"(0,1,7)\" }")
        .replace("promotion = \"no-step\"", "promotion = []");
    let path = file("odd.toml", &text);
    let o = raum(&["check", path.to_str().unwrap(), "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("warning: N (knight) can never move"), "{out}");
    assert!(out.contains("warning: pawns of set 'white' can never promote (no promotion cells)"), "{out}");
}

#[test]
fn a_board_whose_wrapping_joins_two_cells_by_two_lines_is_refused() {
    // Round 6 cells, half way along a diagonal is half way along its mirror
    // image: two lines between two cells, which the generator's tables cannot
    // hold (once it played a wrong move list here). Five round is fine.
    let torus = |size: &str, letters: &str| {
        format!(
            "format = 1\nid = \"torus-{size}\"\ntitle = \"Torus\"\n[board]\nsize = \"{size}\"\nnames = \"level-file-rank\"\n\
             level-letters = \"{letters}\"\nwrap = [\"x\", \"y\", \"z\"]\n[pieces]\n\
             K = {{ name = \"king\", role = \"king\", moves = \"O + D + T\" }}\n\
             R = {{ name = \"rook\", moves = \"O* + T*\" }}\n[army]\nwhite = [\"Aa1 RK\"]\nblack = \"-x -y -z\"\n"
        )
    };
    let even = file("torus-6.toml", &torus("6x6x6", "ABCDEF"));
    let o = raum(&["check", even.to_str().unwrap(), "--depth", "1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("on two different lines"), "{}", stderr(&o));
    let odd = file("torus-5.toml", &torus("5x5x5", "ABCDE"));
    let o = raum(&["check", odd.to_str().unwrap(), "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_file_plays_wherever_a_variant_id_is_taken() {
    let path = file("my-five-up-2.toml", &my_five_up());
    let p = path.to_str().unwrap();
    let o = raum(&["perft", "--variant", p, "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("245828"));
    let o = raum(&["fen", "--variant", p, "--moves", "Ec2-Ec4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = raum(&["match", "--variant", p, "--games", "2", "--a", "greedy", "--b", "random"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Games: 2"), "{}", stdout(&o));
    // A game for three, from a file.
    let three = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/triquetral-3p.toml"))
        .unwrap()
        .replace("id = \"triquetral-3p\"", "id = \"my-three\"");
    let path = file("my-three.toml", &three);
    let o = raum(&["perft", "--variant", path.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(stdout(&o).lines().last(), Some("465"), "{}", stderr(&o));
}

#[test]
fn a_broken_file_or_a_taken_id_is_refused_with_its_reasons() {
    let path = file("taken.toml", &my_five_up().replace("my-five-up", "raumschach"));
    let o = raum(&["perft", "--variant", path.to_str().unwrap(), "--depth", "1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("the id 'raumschach' is taken by a built-in game"), "{}", stderr(&o));
    let o = raum(&["perft", "--variant", "/no/such/game.toml", "--depth", "1"]);
    assert!(stderr(&o).contains("cannot read /no/such/game.toml"), "{}", stderr(&o));
}

#[test]
fn the_engine_protocol_loads_a_file_with_variant_file() {
    let path = file("my-five-up-uci.toml", &my_five_up());
    let session = format!(
        "uci\nsetoption name VariantFile value {}\nposition startpos moves Ec2-Ec4\ngo depth 2\nsetoption name UCI_Variant value my-five-up\nsetoption name VariantFile value /no/such.toml\nquit\n",
        path.display()
    );
    let o = crate::run::raum_with_input(&["uci"], &session);
    let out = stdout(&o);
    assert!(out.contains("option name VariantFile type string default <empty>"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    assert!(!out.contains("UCI_Variant: "), "{out}");
    assert!(out.contains("info string error: VariantFile: cannot read /no/such.toml"), "{out}");
}

#[test]
fn records_of_a_file_s_game_replay_with_its_file() {
    let path = file("my-five-up-pgn.toml", &my_five_up());
    let p = path.to_str().unwrap();
    let pgn = path.with_extension("pgn");
    let o = raum(&[
        "match",
        "--variant",
        p,
        "--games",
        "2",
        "--a",
        "greedy",
        "--b",
        "random",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = raum(&["pgn", "--check", "--variant", p, pgn.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("2 games"), "{}", stdout(&o));
    // Without the file, the game is unknown: the record says which.
    let o = raum(&["pgn", "--check", pgn.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown variant 'my-five-up'"), "{}", stderr(&o));
    // The record pins the file's rules: comments do not count, a rule does.
    let record = std::fs::read_to_string(&pgn).unwrap();
    let hash = record.lines().find_map(|l| l.strip_prefix("[VariantHash \"")).expect("a VariantHash tag");
    assert!(hash.len() == 18 && hash.ends_with("\"]"), "{hash}");
    let commented = file("my-five-up-commented.toml", &format!("# another comment\n{}", my_five_up()));
    let o = raum(&["pgn", "--check", "--variant", commented.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let changed =
        file("my-five-up-changed.toml", &my_five_up().replace("promote-to = \"QRBNWG\"", "promote-to = \"QRBN\""));
    let o = raum(&["pgn", "--check", "--variant", changed.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("[VariantHash") && err.contains("another version of the file of 'my-five-up'"), "{err}");
}

#[test]
fn check_confirms_a_file_s_perft_expectations() {
    let five_up = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/five-up.toml");
    let o = raum(&["check", five_up, "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("[[perft]] depth 3: 245828, as expected"), "{out}");
    assert!(out.contains("[[perft]] depth 2: 3971, as expected"), "{out}");
    // A wrong count, and moves that cannot be played, fail the check and say where.
    let text = my_five_up().replace("count = 3971", "count = 3972")
        + "\n[[perft]]\nmoves = \"Ec2-Ec5\"\ndepth = 1\ncount = 1\n";
    let path = file("wrong-perft.toml", &text);
    let o = raum(&["check", path.to_str().unwrap(), "--depth", "0"]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("depth 2: 3971, but the file expects 3972"), "{out}");
    assert!(out.contains("moves, move 1 (Ec2-Ec5)"), "{out}");
    assert!(stderr(&o).contains("2 of 3 [[perft]] expectations not met"), "{}", stderr(&o));
}

/// Two kings and a rook on a 4x4x4 board, Black's army White's turned over.
const FACING: &str = r#"format = 1
id = "facing"
title = "Facing"

[board]
size = "4x4x4"
names = "level-file-rank"
level-letters = "ABCD"

[pieces]
K = { name = "king", role = "king", moves = "O + D + T" }
R = { name = "rook", moves = "O*" }

[army]
white = ["Aa1 K..R"]
black = "-x y -z"
"#;

#[test]
fn a_game_without_pawns_plays_and_a_start_in_check_is_refused() {
    // White's rook on Ad1 sees Black's king on Dd1 up the d-file of levels: no position.
    let path = file("facing.toml", FACING);
    let o = raum(&["check", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("the start is not a position: Black is in check"), "{}", stderr(&o));
    // With the rook beside its king, it is a game (no pawns at all).
    let path = file("facing-2.toml", &FACING.replace("facing", "facing-2").replace("K..R", "KR"));
    let o = raum(&["check", path.to_str().unwrap(), "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("warnings: none"), "{}", stdout(&o));
}
