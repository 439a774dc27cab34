//! The search's numeric settings: pruning margins, reduction sizes and the
//! depths they apply to, as data. Each variant has its defaults
//! ([`SearchParams::for_variant`]); `raum match` can change any by name, which
//! is how a new value is tried against the old one.

use raum_rules::VariantId;
use std::fmt;
use std::str::FromStr;

/// The search's numeric settings (depths in plies, margins in centipawns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchParams {
    /// Reverse futility applies up to this remaining depth...
    pub rfp_depth: i32,
    /// ...when the static evaluation exceeds beta by this much per ply.
    pub rfp_margin: i32,
    /// The null move is tried from this remaining depth on.
    pub null_depth: i32,
    /// Its reduction: `null_base + depth / null_div + min((eval - beta) / null_eval_div, null_eval_max)`.
    pub null_base: i32,
    /// See `null_base`.
    pub null_div: i32,
    /// See `null_base` (0: the evaluation's lead does not add to the reduction).
    pub null_eval_div: i32,
    /// See `null_base`.
    pub null_eval_max: i32,
    /// Futility pruning of quiet moves applies up to this remaining depth...
    pub futility_depth: i32,
    /// ...when the static evaluation plus `futility_base + futility_margin * depth` is at most alpha.
    pub futility_base: i32,
    /// See `futility_base`.
    pub futility_margin: i32,
    /// Late-move pruning applies up to this remaining depth...
    pub lmp_depth: i32,
    /// ...after `lmp_base + lmp_scale * depth²` quiet moves.
    pub lmp_base: i32,
    /// See `lmp_base`.
    pub lmp_scale: i32,
    /// Late-move reduction: `lmr_base / 100 + ln(depth) * ln(move number) * 100 / lmr_div` plies, rounded down.
    pub lmr_base: i32,
    /// See `lmr_base`.
    pub lmr_div: i32,
    /// The first aspiration window's half width.
    pub aspiration: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            rfp_depth: 5,
            rfp_margin: 90,
            null_depth: 3,
            null_base: 3,
            null_div: 3,
            null_eval_div: 0,
            null_eval_max: 0,
            futility_depth: 3,
            futility_base: 100,
            futility_margin: 100,
            lmp_depth: 4,
            lmp_base: 3,
            lmp_scale: 2,
            lmr_base: 50,
            lmr_div: 225,
            aspiration: 30,
        }
    }
}

/// A settable parameter: its name and where it lives.
struct Slot {
    name: &'static str,
    field: fn(&mut SearchParams) -> &mut i32,
    /// The smallest value that makes sense (divisors need at least 1).
    min: i32,
}

const SLOTS: [Slot; 16] = [
    Slot { name: "rfp-depth", field: |p| &mut p.rfp_depth, min: 0 },
    Slot { name: "rfp-margin", field: |p| &mut p.rfp_margin, min: 0 },
    Slot { name: "null-depth", field: |p| &mut p.null_depth, min: 1 },
    Slot { name: "null-base", field: |p| &mut p.null_base, min: 0 },
    Slot { name: "null-div", field: |p| &mut p.null_div, min: 1 },
    Slot { name: "null-eval-div", field: |p| &mut p.null_eval_div, min: 0 },
    Slot { name: "null-eval-max", field: |p| &mut p.null_eval_max, min: 0 },
    Slot { name: "futility-depth", field: |p| &mut p.futility_depth, min: 0 },
    Slot { name: "futility-base", field: |p| &mut p.futility_base, min: 0 },
    Slot { name: "futility-margin", field: |p| &mut p.futility_margin, min: 0 },
    Slot { name: "lmp-depth", field: |p| &mut p.lmp_depth, min: 0 },
    Slot { name: "lmp-base", field: |p| &mut p.lmp_base, min: 0 },
    Slot { name: "lmp-scale", field: |p| &mut p.lmp_scale, min: 0 },
    Slot { name: "lmr-base", field: |p| &mut p.lmr_base, min: 0 },
    Slot { name: "lmr-div", field: |p| &mut p.lmr_div, min: 1 },
    Slot { name: "aspiration", field: |p| &mut p.aspiration, min: 1 },
];

/// Why a `NAME=VALUE` setting was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A setting is not written `name=value`.
    #[error("'{0}' is not NAME=VALUE")]
    NotAPair(String),
    /// No parameter has this name.
    #[error("unknown search parameter '{0}' (parameters: {names})", names = param_names())]
    Unknown(String),
    /// The value is no integer in range.
    #[error("search parameter '{name}' needs an integer of at least {min}, not '{value}'")]
    BadValue {
        /// The parameter.
        name: &'static str,
        /// What was given.
        value: String,
        /// The smallest value accepted.
        min: i32,
    },
}

fn param_names() -> String {
    SLOTS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

impl SearchParams {
    /// The settings a variant's search uses unless told otherwise: the
    /// defaults, except where a match chose otherwise (BENCHMARKS.md). In Five
    /// Up reverse futility with a margin of 90 cp a ply up to depth 5 lost
    /// (−14.8 ± 22.5 Elo against none, 800 games at 10,000 nodes); 120 cp a ply
    /// up to depth 3 scored +14.6 ± 15.6 over 1,600 games, and +5.6 ± 21.6
    /// against the old setting.
    ///
    /// The null move's reduction, `3 + depth / 3` in every variant, replaced
    /// `2 + depth / 7`, which gained nothing measurable (−3.2 ± 18.4 over
    /// 1,200 games at 25,000 nodes); the deeper reduction scored +27.4 ± 21.8
    /// against no null move at 40,000 nodes. Adding `min((eval - beta) / 200, 3)`
    /// scored about the same (+31.8 ± 21.7) but hid a mate in 2 of the mate
    /// suite at its fixed depth.
    ///
    /// ```
    /// use raum_engine::SearchParams;
    /// use raum_rules::VariantId;
    /// assert_eq!(SearchParams::for_variant(VariantId::FiveUp).rfp_depth, 3);
    /// assert_eq!(SearchParams::for_variant(VariantId::Raumschach), SearchParams::default());
    /// ```
    pub fn for_variant(id: VariantId) -> SearchParams {
        match id {
            VariantId::FiveUp => SearchParams { rfp_depth: 3, rfp_margin: 120, ..SearchParams::default() },
            _ => SearchParams::default(),
        }
    }

    /// The parameters' names, in a fixed order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        SLOTS.iter().map(|s| s.name)
    }

    /// Whether `name` is a parameter.
    pub fn is_param(name: &str) -> bool {
        SLOTS.iter().any(|s| s.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Sets the parameter `name` to `value` (an integer).
    ///
    /// ```
    /// use raum_engine::SearchParams;
    /// let mut p = SearchParams::default();
    /// p.set("rfp-margin", "120").unwrap();
    /// assert_eq!(p.rfp_margin, 120);
    /// assert!(p.set("lmr-div", "0").is_err());
    /// assert!(p.set("magic", "1").is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let name = name.trim();
        let slot = SLOTS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let v: i32 =
            value.trim().parse().ok().filter(|&v| v >= slot.min && v <= 100_000).ok_or_else(|| {
                ParamError::BadValue { name: slot.name, value: value.trim().to_string(), min: slot.min }
            })?;
        *(slot.field)(self) = v;
        Ok(())
    }

    /// The value of the parameter `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        SLOTS.iter().find(|s| s.name.eq_ignore_ascii_case(name.trim())).map(|s| *(s.field)(&mut copy))
    }

    /// The null move's reduction at `depth` when the static evaluation leads beta by `lead`.
    #[inline]
    pub(crate) fn null_reduction(&self, depth: i32, lead: i32) -> i32 {
        let by_eval = if self.null_eval_div > 0 { (lead / self.null_eval_div).min(self.null_eval_max) } else { 0 };
        self.null_base + depth / self.null_div + by_eval
    }

    /// The late-move pruning count at `depth`.
    #[inline]
    pub(crate) fn lmp_limit(&self, depth: i32) -> usize {
        (self.lmp_base + self.lmp_scale * depth * depth) as usize
    }
}

impl fmt::Display for SearchParams {
    /// `name=value` pairs separated by commas, in the order of [`SearchParams::names`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut copy = *self;
        for (i, s) in SLOTS.iter().enumerate() {
            write!(f, "{}{}={}", if i > 0 { "," } else { "" }, s.name, (s.field)(&mut copy))?;
        }
        Ok(())
    }
}

impl FromStr for SearchParams {
    type Err = ParamError;

    /// Defaults changed by `name=value` pairs separated by commas.
    fn from_str(s: &str) -> Result<SearchParams, ParamError> {
        let mut p = SearchParams::default();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = item.split_once('=').ok_or_else(|| ParamError::NotAPair(item.to_string()))?;
            p.set(name, value)?;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_round_trips_by_name() {
        let names: Vec<_> = SearchParams::names().collect();
        let mut p = SearchParams::default();
        for (i, n) in names.iter().enumerate() {
            p.set(n, &(1000 + i).to_string()).unwrap();
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(p.get(n), Some(1000 + i as i32), "{n}");
        }
        assert_eq!(p.to_string().parse::<SearchParams>(), Ok(p));
        let mut seen = std::collections::HashSet::new();
        assert!(names.iter().all(|n| seen.insert(*n)), "duplicate names");
    }

    #[test]
    fn bad_settings_say_what_was_wrong() {
        let mut p = SearchParams::default();
        let e = p.set("null-div", "0").unwrap_err().to_string();
        assert!(e.contains("null-div") && e.contains("at least 1"), "{e}");
        let e = p.set("null-div", "x").unwrap_err().to_string();
        assert!(e.contains("'x'"), "{e}");
        let e = p.set("nmp", "3").unwrap_err().to_string();
        assert!(e.contains("'nmp'") && e.contains("rfp-margin"), "{e}");
        assert_eq!(p, SearchParams::default());
        let e = "rfp-margin=100,lmr-div".parse::<SearchParams>().unwrap_err().to_string();
        assert!(e.contains("'lmr-div' is not NAME=VALUE"), "{e}");
    }

    #[test]
    fn null_reduction_grows_with_depth_and_optionally_with_the_lead_over_beta() {
        let mut p = SearchParams::default();
        assert_eq!(p.null_reduction(3, 0), 4);
        assert_eq!(p.null_reduction(6, 5000), 5, "by default the lead adds nothing");
        assert_eq!(p.null_reduction(9, 0), 6);
        p.set("null-eval-div", "200").unwrap();
        p.set("null-eval-max", "3").unwrap();
        assert_eq!(p.null_reduction(6, 199), 5);
        assert_eq!(p.null_reduction(6, 200), 6);
        assert_eq!(p.null_reduction(9, 5000), 9, "the lead adds at most null-eval-max");
    }
}
