//! Games read from files while Raum runs (`--variant path/to/game.toml`, the
//! engine protocol's `VariantFile`, the web app's uploads), each given an id
//! beside the built-in ones ([`crate::VariantId::Custom`],
//! [`crate::multi::MultiId::Custom`]) and built once.
//!
//! ```
//! use raum_rules::file::{builtin_text, load};
//! use raum_rules::{GameId, VariantId};
//! let text = builtin_text("five-up").unwrap().replace("id = \"five-up\"", "id = \"my-five-up\"");
//! let id = load(&text, "my-five-up.toml").unwrap();
//! assert_eq!(id.name(), "my-five-up");
//! assert_eq!(GameId::from_name("my-five-up"), Ok(id));
//! assert!(matches!(id, GameId::Two(VariantId::Custom(_))));
//! // The same file again is the same game; another file may not take its id.
//! assert_eq!(load(&text, "again.toml").unwrap(), id);
//! assert!(load(&text.replace("QRBNWG", "QRBN"), "other.toml").is_err());
//! ```

use super::{FileErrors, VariantDef, builtin_text, read};
use crate::any_game::GameId;
use crate::error::VariantError;
use crate::multi::{MultiId, MultiVariant};
use crate::spec::VariantId;
use crate::variant::Variant;
use crate::width::{CellWidth, Width};
use raum_bitboard::Wide;
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};
use thiserror::Error;

/// The most files one process loads: each stays in memory for good.
pub const MAX_LOADED: usize = 256;

/// A loaded game's index among the loaded files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomId(pub(crate) u32);

/// Why a file could not be loaded.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The file is not a valid variant file.
    #[error("{0}")]
    File(FileErrors),
    /// The file is valid, but its game cannot be built.
    #[error("{file}: {error}")]
    Build {
        /// The file's name.
        file: String,
        /// Why.
        error: VariantError,
    },
    /// Its id is a built-in game's, or another loaded file's with other rules.
    #[error("{file}: the id '{id}' is taken by {by}: give the game an id of its own")]
    IdTaken {
        /// The file's name.
        file: String,
        /// The id.
        id: String,
        /// What holds it.
        by: String,
    },
    /// The file's start is not a legal position.
    #[error("{file}: the start is not a position: {error}")]
    Start {
        /// The file's name.
        file: String,
        /// Why.
        error: String,
    },
    /// Too many files loaded.
    #[error("{file}: already {MAX_LOADED} variant files loaded")]
    TooMany {
        /// The file's name.
        file: String,
    },
}

/// One loaded game: its description, the hash of its rules, and its tables,
/// built at its width.
pub(crate) struct Loaded {
    pub def: VariantDef,
    pub file: String,
    pub hash: u64,
    pub cells: usize,
    built: Box<dyn Any + Send + Sync>,
    /// Its start is no position: kept (its slot is spent) but never found.
    rejected: AtomicBool,
}

static LOADED: RwLock<Vec<&'static Loaded>> = RwLock::new(Vec::new());
static LOADING: Mutex<()> = Mutex::new(());

/// FNV-1a, 64 bits: a stable hash of a description's text.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// The hash of the game a file describes: everything but its `[[perft]]`
/// expectations (which say what the rules give, and where the file says it).
fn rules_hash(def: &VariantDef) -> u64 {
    let rules = VariantDef { perft: Vec::new(), ..def.clone() };
    fnv(&format!("{rules:?}"))
}

/// The hash that pins a loaded file's rules, as records write it in their
/// `VariantHash` tag: 16 hex digits of FNV-1a over the game the file
/// describes (its comments, spacing and key order do not count; any rule,
/// name or start does). `None` for a built-in game, whose id says it all.
pub fn variant_hash(id: GameId) -> Option<String> {
    let c = match id {
        GameId::Two(VariantId::Custom(c)) | GameId::Multi(MultiId::Custom(c)) => c,
        _ => return None,
    };
    Some(format!("{:016x}", get(c).hash))
}

/// A loaded game by index.
pub(crate) fn get(c: CustomId) -> &'static Loaded {
    LOADED.read().unwrap_or_else(|e| e.into_inner())[c.0 as usize]
}

/// The loaded game with this id.
pub(crate) fn find(name: &str) -> Option<GameId> {
    let loaded = LOADED.read().unwrap_or_else(|e| e.into_inner());
    loaded
        .iter()
        .position(|l| l.def.id() == name && !l.rejected.load(Ordering::Relaxed))
        .map(|i| game_id(&loaded[i].def, CustomId(i as u32)))
}

fn game_id(def: &VariantDef, c: CustomId) -> GameId {
    if def.side_count() == 2 { GameId::Two(VariantId::Custom(c)) } else { GameId::Multi(MultiId::Custom(c)) }
}

/// The width a board of `cells` cells is built at.
pub(crate) fn width_for(cells: usize) -> CellWidth {
    if cells <= 128 {
        CellWidth::W128
    } else if cells <= 256 {
        CellWidth::W256
    } else {
        CellWidth::W512
    }
}

/// Reads a variant file and makes its game playable under its id, which
/// [`GameId::from_name`] then knows. Loading the same rules again gives the
/// same id; a built-in game's file gives the built-in game.
pub fn load(text: &str, file: &str) -> Result<GameId, LoadError> {
    let def = read(text, file).map_err(LoadError::File)?;
    let hash = rules_hash(&def);
    if let Some(builtin) = builtin_text(def.id()) {
        let same = read(builtin, def.id()).is_ok_and(|b| b == def);
        return match (same, GameId::from_name(def.id())) {
            (true, Ok(id)) => Ok(id),
            _ => Err(LoadError::IdTaken { file: file.into(), id: def.id().into(), by: "a built-in game".into() }),
        };
    }
    // One load at a time: the index chosen here is the one pushed below, and
    // the tables are built with no lock held (building names no loaded game).
    let _one_at_a_time = LOADING.lock().unwrap_or_else(|e| e.into_inner());
    let loaded = LOADED.read().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = loaded.iter().position(|l| l.def.id() == def.id() && !l.rejected.load(Ordering::Relaxed)) {
        return if loaded[i].hash == hash {
            Ok(game_id(&loaded[i].def, CustomId(i as u32)))
        } else {
            Err(LoadError::IdTaken { file: file.into(), id: def.id().into(), by: loaded[i].file.clone() })
        };
    }
    if loaded.len() >= MAX_LOADED {
        return Err(LoadError::TooMany { file: file.into() });
    }
    let c = CustomId(loaded.len() as u32);
    drop(loaded);
    let cells = def.cells();
    let err = |error| LoadError::Build { file: file.into(), error };
    let built: Box<dyn Any + Send + Sync> = if def.side_count() == 2 {
        let spec = def.spec(VariantId::Custom(c));
        match width_for(cells) {
            CellWidth::W128 => Box::new(Variant::<u128>::build(spec).map_err(err)?),
            CellWidth::W256 => Box::new(Variant::<Wide<4>>::build(spec).map_err(err)?),
            CellWidth::W512 => Box::new(Variant::<Wide<8>>::build(spec).map_err(err)?),
        }
    } else {
        let spec = def.multi_spec(MultiId::Custom(c), VariantId::Custom(c));
        match width_for(cells) {
            CellWidth::W128 => Box::new(MultiVariant::<u128>::build(spec).map_err(err)?),
            CellWidth::W256 => Box::new(MultiVariant::<Wide<4>>::build(spec).map_err(err)?),
            CellWidth::W512 => Box::new(MultiVariant::<Wide<8>>::build(spec).map_err(err)?),
        }
    };
    let id = game_id(&def, c);
    let entry: &'static Loaded =
        Box::leak(Box::new(Loaded { def, file: file.into(), hash, cells, built, rejected: AtomicBool::new(false) }));
    LOADED.write().unwrap_or_else(|e| e.into_inner()).push(entry);
    // The start must be a position (the reader catches most ways it is not;
    // a side in check before its first move needs the built tables).
    if let Err(error) = start_is_a_position(id, cells) {
        entry.rejected.store(true, Ordering::Relaxed);
        return Err(LoadError::Start { file: file.into(), error });
    }
    Ok(id)
}

/// Whether a loaded game's start is a legal position.
fn start_is_a_position(id: GameId, cells: usize) -> Result<(), String> {
    fn two<S: Width>(v: &'static Variant<S>) -> Result<(), String> {
        crate::Position::from_setup(v, v.start_setup().clone()).map(drop).map_err(|e| e.to_string())
    }
    fn multi<S: Width>(v: &'static MultiVariant<S>) -> Result<(), String> {
        crate::multi::MultiPosition::from_men(v, v.start_men(), 0, 0, 1).map(drop).map_err(|e| e.to_string())
    }
    match (id, width_for(cells)) {
        (GameId::Two(v), CellWidth::W128) => two(Variant::<u128>::at_width(v)),
        (GameId::Two(v), CellWidth::W256) => two(Variant::<Wide<4>>::at_width(v)),
        (GameId::Two(v), CellWidth::W512) => two(Variant::<Wide<8>>::at_width(v)),
        (GameId::Multi(m), CellWidth::W128) => multi(MultiVariant::<u128>::at_width(m)),
        (GameId::Multi(m), CellWidth::W256) => multi(MultiVariant::<Wide<4>>::at_width(m)),
        (GameId::Multi(m), CellWidth::W512) => multi(MultiVariant::<Wide<8>>::at_width(m)),
    }
}

impl Loaded {
    /// The built two-player variant.
    ///
    /// # Panics
    /// If asked at another width than its own, or of a multi-player game.
    pub(crate) fn variant<S: Width>(&'static self) -> &'static Variant<S> {
        self.built.downcast_ref().unwrap_or_else(|| panic!("{} is not built at this width", self.def.id()))
    }

    /// The built multi-player game.
    pub(crate) fn multi<S: Width>(&'static self) -> &'static MultiVariant<S> {
        self.built.downcast_ref().unwrap_or_else(|| panic!("{} is not built at this width", self.def.id()))
    }
}
