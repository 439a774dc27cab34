//! Match statistics: logistic Elo with an error bar, pentanomial counts over
//! game pairs, and the pentanomial GSPRT (as fishtest computes it).
//!
//! Everything here is a pure function of the counts, so it is unit-tested on
//! known values.

/// The logistic expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference that gives expected score `score` (0..1).
/// 0 and 1 give minus and plus infinity.
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns -0 into 0 for printing.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Elo and its 95% error bar (normal approximation of the mean game score)
/// from wins, draws and losses. The margin is infinite when the score is 0 or
/// 100%, or there are fewer than two games.
pub fn elo_with_margin(wins: u64, draws: u64, losses: u64) -> (f64, f64) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, f64::INFINITY);
    }
    let score = (wins as f64 + 0.5 * draws as f64) / n;
    let elo = elo_from_score(score);
    if n < 2.0 || score <= 0.0 || score >= 1.0 {
        return (elo, f64::INFINITY);
    }
    let var =
        (wins as f64 * (1.0 - score).powi(2) + draws as f64 * (0.5 - score).powi(2) + losses as f64 * score.powi(2))
            / n;
    let se = (var / n).sqrt();
    let lo = elo_from_score((score - 1.96 * se).max(1e-9));
    let hi = elo_from_score((score + 1.96 * se).min(1.0 - 1e-9));
    (elo, (hi - lo) / 2.0)
}

/// The score of a pair of games (0, 0.5, 1, 1.5 or 2) as an index 0..=4 into
/// the pentanomial counts; `half_points` is the pair's score in half points.
pub fn pair_index(half_points: u32) -> usize {
    half_points.min(4) as usize
}

/// The pentanomial generalized log-likelihood ratio for H0: elo = `elo0`
/// against H1: elo = `elo1` (logistic Elo), from counts of pair scores
/// 0, 0.5, 1, 1.5, 2. As fishtest: each count is regularized to at least
/// 1e-3, the pair scores (scaled to 0..1) give a mean and variance, and
/// LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var), the log-likelihood ratio
/// of two normal distributions with that variance.
pub fn pentanomial_llr(counts: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let c: Vec<f64> = counts.iter().map(|&k| (k as f64).max(1e-3)).collect();
    let n: f64 = c.iter().sum();
    let x = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mean = c.iter().zip(x).map(|(k, x)| k * x).sum::<f64>() / n;
    let var = c.iter().zip(x).map(|(k, x)| k * (x - mean).powi(2)).sum::<f64>() / n;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT's stopping bounds for error rates `alpha` and `beta`:
/// (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// What the SPRT says about an LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR reached the upper bound.
    H1,
    /// The LLR reached the lower bound.
    H0,
    /// Neither: play on.
    Continue,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        })
    }
}

/// The verdict for `llr` between the bounds.
pub fn sprt_verdict(llr: f64, (lower, upper): (f64, f64)) -> Verdict {
    if llr >= upper {
        Verdict::H1
    } else if llr <= lower {
        Verdict::H0
    } else {
        Verdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01, "{}", elo_from_score(0.75));
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.6)) - 0.6).abs() < 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn margin_shrinks_with_more_games() {
        let (e, m) = elo_with_margin(30, 40, 30);
        assert!(e.abs() < 1e-9);
        let (_, m4) = elo_with_margin(120, 160, 120);
        assert!(m > 0.0 && m4 < m * 0.6 && m4 > m * 0.4, "{m} {m4}");
        let (e, m) = elo_with_margin(75, 0, 25);
        assert!((e - 190.85).abs() < 0.01 && m.is_finite());
        assert!(elo_with_margin(3, 0, 0).1.is_infinite());
    }

    #[test]
    fn llr_sign_and_bounds() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        // Symmetric pair scores: mean exactly 0.5, nearer H0 (elo 0) than H1 (elo 5).
        let even = [100, 400, 1000, 400, 100];
        assert!(pentanomial_llr(even, 0.0, 5.0) < 0.0);
        // A strong positive skew: H1 favoured, and accepted with enough pairs.
        let strong = [50, 300, 1000, 500, 150];
        let llr = pentanomial_llr(strong, 0.0, 5.0);
        assert!(llr > hi, "{llr}");
        assert_eq!(sprt_verdict(llr, (lo, hi)), Verdict::H1);
        // A strong negative skew: H0 accepted.
        let weak = [150, 500, 1000, 300, 50];
        assert_eq!(sprt_verdict(pentanomial_llr(weak, 0.0, 5.0), (lo, hi)), Verdict::H0);
        // Few pairs: undecided; the LLR grows with the sample at a fixed distribution.
        let few = [1, 4, 10, 5, 2];
        let l1 = pentanomial_llr(few, 0.0, 5.0);
        assert_eq!(sprt_verdict(l1, (lo, hi)), Verdict::Continue);
        let l10 = pentanomial_llr(few.map(|k| k * 10), 0.0, 5.0);
        assert!(l10 > l1 * 9.0 && l10 < l1 * 11.0, "{l1} {l10}");
        assert_eq!(pentanomial_llr([0; 5], 0.0, 5.0), 0.0);
    }
}
