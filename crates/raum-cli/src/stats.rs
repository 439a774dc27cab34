//! Match statistics: logistic Elo with an error bar, the scores of game
//! pairs, and the GSPRT over them (as fishtest computes it).
//!
//! Games are counted by their exact score in sixtieths of a point (a win, a
//! draw, or Savard's stalemate at 3/5 and 2/5), and pairs by their total.
//! Everything here is a pure function of those counts, so it is unit-tested
//! on known values.

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

/// Sixtieths of a point in a game's score, as `raum_rules::Points` counts
/// them: a win is 60, a draw 30, Savard's stalemate 36 and 24.
pub const ONE: usize = 60;

/// Games by score: `games[k]` is how many scored `k` sixtieths of a point.
pub type GameScores = [u64; ONE + 1];

/// Pairs of games by their total: `pairs[k]` is how many scored `k`
/// sixtieths of a point over the two games (0 to 120).
pub type PairScores = [u64; 2 * ONE + 1];

/// The games' scores as (score in points, count), highest score first, the
/// scores no game made left out.
fn descending(games: &GameScores) -> impl Iterator<Item = (f64, u64)> + '_ {
    games.iter().enumerate().rev().filter(|(_, c)| **c > 0).map(|(k, &c)| (k as f64 / ONE as f64, c))
}

/// The mean game score (0..1); 0 without games.
pub fn mean_score(games: &GameScores) -> f64 {
    let n: u64 = games.iter().sum();
    if n == 0 {
        return 0.0;
    }
    // Summed from the highest score down, so that whole and half points give
    // exactly `(wins + draws / 2) / games`, as before scores other than those.
    descending(games).fold(0.0, |acc, (x, c)| acc + c as f64 * x) / n as f64
}

/// Elo and its 95% error bar (normal approximation of the mean game score,
/// with the games' own variance) from the games' scores. The margin is
/// infinite when the score is 0 or 100%, or there are fewer than two games.
pub fn elo_with_margin(games: &GameScores) -> (f64, f64) {
    let n = games.iter().sum::<u64>() as f64;
    if n == 0.0 {
        return (0.0, f64::INFINITY);
    }
    let score = mean_score(games);
    let elo = elo_from_score(score);
    if n < 2.0 || score <= 0.0 || score >= 1.0 {
        return (elo, f64::INFINITY);
    }
    let var = descending(games).fold(0.0, |acc, (x, c)| acc + c as f64 * (x - score).powi(2)) / n;
    let se = (var / n).sqrt();
    let lo = elo_from_score((score - 1.96 * se).max(1e-9));
    let hi = elo_from_score((score + 1.96 * se).min(1.0 - 1e-9));
    (elo, (hi - lo) / 2.0)
}

/// A score in sixtieths of a point as a number of points: `0`, `0.5`, `1.6`.
pub fn points_text(sixtieths: usize) -> String {
    if sixtieths.is_multiple_of(ONE) {
        format!("{}", sixtieths / ONE)
    } else if sixtieths.is_multiple_of(6) {
        format!("{:.1}", sixtieths as f64 / ONE as f64)
    } else {
        format!("{:.3}", sixtieths as f64 / ONE as f64)
    }
}

/// Whether a pair's total is one of the pentanomial's five (0, 0.5, 1, 1.5
/// or 2 points): the totals that whole and half points give, which the
/// statistics always count (as at least 1e-3) and the summary always prints.
pub fn is_pentanomial(sixtieths: usize) -> bool {
    sixtieths.is_multiple_of(ONE / 2)
}

/// The generalized log-likelihood ratio for H0: elo = `elo0` against H1:
/// elo = `elo1` (logistic Elo), from the pair totals. As fishtest computes it
/// for the pentanomial: the five totals 0, 0.5, 1, 1.5, 2 are each counted as
/// at least 1e-3, the pair scores (scaled to 0..1) give a mean and variance,
/// and LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var), the log-likelihood
/// ratio of two normal distributions with that variance. The mean and
/// variance are those of the empirical distribution, so the totals that
/// Savard's stalemate adds (0.4 + 1 = 1.4, 0.6 + 0.5 = 1.1, ...) simply
/// take their place in it; with whole and half points only, this is the
/// pentanomial GSPRT exactly.
pub fn pair_llr(pairs: &PairScores, elo0: f64, elo1: f64) -> f64 {
    if pairs.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    let (x, c): (Vec<f64>, Vec<f64>) = pairs
        .iter()
        .enumerate()
        .filter(|&(k, &n)| n > 0 || is_pentanomial(k))
        .map(|(k, &n)| (k as f64 / (2 * ONE) as f64, if is_pentanomial(k) { (n as f64).max(1e-3) } else { n as f64 }))
        .unzip();
    let n: f64 = c.iter().sum();
    let mean = c.iter().zip(&x).map(|(k, x)| k * x).sum::<f64>() / n;
    let var = c.iter().zip(&x).map(|(k, x)| k * (x - mean).powi(2)).sum::<f64>() / n;
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The fewest pairs after which `raum match --sprt-stop` heeds the SPRT: with
/// fewer, the pairs' variance is no estimate (a single pair won twice has
/// almost none, and its LLR crosses any bound).
pub const SPRT_MIN_PAIRS: u64 = 20;

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

    /// Games won, drawn and lost, as scores.
    fn wdl(wins: u64, draws: u64, losses: u64) -> GameScores {
        let mut g = [0; ONE + 1];
        (g[ONE], g[ONE / 2], g[0]) = (wins, draws, losses);
        g
    }

    /// Pairs by the five pentanomial totals 0, 0.5, 1, 1.5, 2.
    fn penta(counts: [u64; 5]) -> PairScores {
        let mut p = [0; 2 * ONE + 1];
        for (i, c) in counts.into_iter().enumerate() {
            p[i * ONE / 2] = c;
        }
        p
    }

    /// The statistics as they were computed from wins, draws and losses and
    /// from the five pentanomial counts, before games could score fifths: the
    /// general forms must give exactly these numbers.
    mod before {
        use super::super::{elo_from_score, score_from_elo};

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
            let var = (wins as f64 * (1.0 - score).powi(2)
                + draws as f64 * (0.5 - score).powi(2)
                + losses as f64 * score.powi(2))
                / n;
            let se = (var / n).sqrt();
            let lo = elo_from_score((score - 1.96 * se).max(1e-9));
            let hi = elo_from_score((score + 1.96 * se).min(1.0 - 1e-9));
            (elo, (hi - lo) / 2.0)
        }

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
    }

    /// Bit for bit, infinities and NaN alike.
    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// The published formulas, written out here from fishtest's `LLRcalc.py` and
    /// `stat_util.py` (Michel Van den Bergh's GSPRT), without calling the code under test.
    mod published {
        /// Logistic expected score of `elo`.
        fn logistic(elo: f64) -> f64 {
            1.0 / (1.0 + 10f64.powf(-elo / 400.0))
        }

        /// `results` (frequencies of the scores 0, 1/(n-1), ..., 1 of one
        /// game or pair) with empty counts made 1e-3 (`regularize`), as
        /// (sample size, [(score, probability)]) (`results_to_pdf`).
        fn pdf(results: &[u64]) -> (f64, Vec<(f64, f64)>) {
            let r: Vec<f64> = results.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
            let n: f64 = r.iter().sum();
            let last = (r.len() - 1) as f64;
            (n, r.iter().enumerate().map(|(i, c)| (i as f64 / last, c / n)).collect())
        }

        fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
            let s: f64 = pdf.iter().map(|(a, p)| a * p).sum();
            (s, pdf.iter().map(|(a, p)| p * (a - s).powi(2)).sum())
        }

        /// `LLR_alt2`, the Brownian (quadratic) approximation of the GSPRT's
        /// log-likelihood ratio, times the sample size.
        pub fn llr_quadratic(results: &[u64], elo0: f64, elo1: f64) -> f64 {
            let (n, pdf) = pdf(results);
            let (s, var) = mean_var(&pdf);
            let (s0, s1) = (logistic(elo0), logistic(elo1));
            n * (s1 - s0) * (2.0 * s - s0 - s1) / var / 2.0
        }

        /// The maximum-likelihood distribution on `pdf`'s scores with mean
        /// `s` (`MLE_expected`): p_i / (1 + x (a_i - s)), x the root of
        /// sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 (found by bisection).
        fn mle(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
            let f = |x: f64| pdf.iter().map(|(a, p)| p * (a - s) / (1.0 + x * (a - s))).sum::<f64>();
            let lowest = pdf.iter().map(|(a, _)| a - s).fold(f64::INFINITY, f64::min);
            let highest = pdf.iter().map(|(a, _)| a - s).fold(f64::NEG_INFINITY, f64::max);
            // f falls from +inf to -inf between the poles.
            let (mut lo, mut hi) = (-1.0 / highest, -1.0 / lowest);
            for _ in 0..200 {
                let mid = (lo + hi) / 2.0;
                if f(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            let x = (lo + hi) / 2.0;
            pdf.iter().map(|(a, p)| p / (1.0 + x * (a - s))).collect()
        }

        /// `LLR_logistic`: the exact generalized log-likelihood ratio.
        pub fn llr_exact(results: &[u64], elo0: f64, elo1: f64) -> f64 {
            let (n, pdf) = pdf(results);
            let (q0, q1) = (mle(&pdf, logistic(elo0)), mle(&pdf, logistic(elo1)));
            n * pdf.iter().zip(q0.iter().zip(&q1)).map(|((_, p), (a, b))| p * (b / a).ln()).sum::<f64>()
        }

        /// `get_elo` on counts without an empty one (where `regularize`
        /// changes nothing): Elo of the mean score per game and half the
        /// width of its 95% interval, from the per-game variance of
        /// `results` (per game, or per pair halved).
        pub fn elo_95(results: &[u64]) -> (f64, f64) {
            assert!(results.iter().all(|&c| c > 0));
            let n: f64 = results.iter().sum::<u64>() as f64;
            let per = (results.len() - 1) as f64 / 2.0; // games per result
            let games = n * per;
            let mu = results.iter().enumerate().map(|(i, &c)| c as f64 * i as f64 / 2.0).sum::<f64>() / games;
            let var =
                results.iter().enumerate().map(|(i, &c)| c as f64 * (i as f64 / 2.0 - per * mu).powi(2)).sum::<f64>()
                    / games;
            let elo = |x: f64| -400.0 * (1.0 / x - 1.0).log10();
            let z = 1.959_963_984_540_054; // the normal's 97.5% quantile
            let half = z * (var / games).sqrt();
            (elo(mu), (elo(mu + half) - elo(mu - half)) / 2.0)
        }
    }

    /// The LLR, Elo and error bar that `raum match` prints, against the
    /// published formulas computed independently. The LLR is fishtest's
    /// quadratic approximation (`LLR_alt2`) with fishtest's regularization,
    /// matched to rounding; near an even score it is also within 2% of the
    /// exact GSPRT (`LLR_logistic`), which it approximates there.
    #[test]
    fn match_statistics_agree_with_the_published_formulas() {
        let table: [[u64; 5]; 8] = [
            [1, 4, 10, 5, 2],
            [100, 400, 1000, 400, 100],
            [5, 30, 80, 30, 5],
            [10789, 19328, 33806, 19402, 10543],
            [50, 300, 1000, 500, 150],
            [150, 500, 1000, 300, 50],
            [0, 0, 3, 10, 20],
            [39, 2226, 31451, 2412, 40],
        ];
        for counts in table {
            for (elo0, elo1) in [(0.0, 5.0), (-3.0, 1.0), (0.0, 10.0)] {
                let got = pair_llr(&penta(counts), elo0, elo1);
                let want = published::llr_quadratic(&counts, elo0, elo1);
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{counts:?} [{elo0}, {elo1}]: {got} / {want}"
                );
            }
        }
        // Near an even score the approximation is the exact GSPRT to 2%.
        for counts in &table[..4] {
            for (elo0, elo1) in [(0.0, 5.0), (-3.0, 1.0), (0.0, 10.0)] {
                let got = pair_llr(&penta(*counts), elo0, elo1);
                let exact = published::llr_exact(counts, elo0, elo1);
                assert!(
                    (got - exact).abs() <= 0.02 * exact.abs() + 2e-3,
                    "{counts:?} [{elo0}, {elo1}]: {got} / exact {exact}"
                );
            }
        }
        // Elo and the 95% error bar from wins, draws and losses.
        for (w, d, l) in [(30, 40, 30), (75, 10, 25), (5, 3, 12), (716, 2163, 591), (1450, 4000, 1500), (90, 5, 5)] {
            let (elo, margin) = elo_with_margin(&wdl(w, d, l));
            let (want, want_margin) = published::elo_95(&[l, d, w]);
            assert!((elo - want).abs() < 1e-9, "{w} {d} {l}: Elo {elo} / {want}");
            // raum uses 1.96 for the quantile 1.95996...
            assert!((margin - want_margin).abs() < 1e-4 * want_margin, "{w} {d} {l}: ±{margin} / ±{want_margin}");
        }
        // Played in pairs: the Elo of the pairs' mean, the error bar of the games in them.
        for counts in [[1, 4, 10, 5, 2], [10, 30, 80, 60, 20], [39, 2226, 31451, 2412, 40]] {
            // Pair totals 0, 0.5, 1, 1.5, 2 as LL, LD, WL, WD, WW.
            let [ll, ld, wl, wd, ww] = counts;
            let (w, d, l) = (wl + wd + 2 * ww, ld + wd, 2 * ll + ld + wl);
            let (elo, margin) = elo_with_margin(&wdl(w, d, l));
            let (pair_elo, _) = published::elo_95(&counts);
            assert!((elo - pair_elo).abs() < 1e-9, "{counts:?}: Elo {elo} / {pair_elo}");
            let (_, game_margin) = published::elo_95(&[l, d, w]);
            assert!((margin - game_margin).abs() < 1e-4 * game_margin, "{counts:?}: ±{margin} / ±{game_margin}");
        }
    }

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
        let (e, m) = elo_with_margin(&wdl(30, 40, 30));
        assert!(e.abs() < 1e-9);
        let (_, m4) = elo_with_margin(&wdl(120, 160, 120));
        assert!(m > 0.0 && m4 < m * 0.6 && m4 > m * 0.4, "{m} {m4}");
        let (e, m) = elo_with_margin(&wdl(75, 0, 25));
        assert!((e - 190.85).abs() < 0.01 && m.is_finite());
        assert!(elo_with_margin(&wdl(3, 0, 0)).1.is_infinite());
        assert_eq!(elo_with_margin(&wdl(0, 0, 0)), (0.0, f64::INFINITY));
    }

    #[test]
    fn whole_and_half_points_give_the_numbers_they_always_gave() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut cases: Vec<(u64, u64, u64)> = vec![(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 2), (3, 0, 0), (30, 40, 30)];
        cases.extend((0..500).map(|_| (next(400), next(400), next(400))));
        for (w, d, l) in cases {
            let g = wdl(w, d, l);
            let (e0, m0) = before::elo_with_margin(w, d, l);
            let (e1, m1) = elo_with_margin(&g);
            assert!(same(e0, e1) && same(m0, m1), "{w} {d} {l}: {e0} {m0} / {e1} {m1}");
            if w + d + l > 0 {
                let score = (w as f64 + 0.5 * d as f64) / (w + d + l) as f64;
                assert!(same(mean_score(&g), score), "{w} {d} {l}");
            }
        }
        let mut pairs: Vec<[u64; 5]> =
            vec![[0; 5], [1, 4, 10, 5, 2], [100, 400, 1000, 400, 100], [0, 0, 7, 0, 0], [3, 0, 0, 0, 0]];
        pairs.extend((0..500).map(|_| [next(50), next(200), next(600), next(200), next(50)]));
        for counts in pairs {
            for (elo0, elo1) in [(0.0, 5.0), (-3.0, 2.0), (0.0, 10.0)] {
                let (a, b) = (before::pentanomial_llr(counts, elo0, elo1), pair_llr(&penta(counts), elo0, elo1));
                assert!(same(a, b), "{counts:?} [{elo0}, {elo1}]: {a} / {b}");
            }
        }
    }

    #[test]
    fn stalemates_count_three_and_two_fifths() {
        // A wins by stalemate (3/5) and loses by stalemate (2/5) in one pair:
        // 1 point of 2, as a win and a loss.
        let mut g = [0; ONE + 1];
        (g[36], g[24]) = (1, 1);
        assert_eq!(mean_score(&g), 0.5);
        // Ten games, all won by stalemate: 60%, about 70 Elo, with no spread.
        let mut g = [0; ONE + 1];
        g[36] = 10;
        assert!((mean_score(&g) - 0.6).abs() < 1e-12);
        let (e, m) = elo_with_margin(&g);
        assert!((e - elo_from_score(0.6)).abs() < 1e-9 && (e - 70.44).abs() < 0.01, "{e}");
        assert!(m.abs() < 1e-9, "no variance, no margin: {m}");
        // Stalemate wins among wins and losses: the mean and spread of the actual scores.
        let mut g = wdl(5, 0, 5);
        g[36] = 10;
        assert!((mean_score(&g) - 0.55).abs() < 1e-12);
        let (e, m) = elo_with_margin(&g);
        let var = (5.0 * 0.45f64.powi(2) + 10.0 * 0.05f64.powi(2) + 5.0 * 0.55f64.powi(2)) / 20.0;
        let se = (var / 20.0).sqrt();
        let half = (elo_from_score(0.55 + 1.96 * se) - elo_from_score(0.55 - 1.96 * se)) / 2.0;
        assert!((e - elo_from_score(0.55)).abs() < 1e-9 && (m - half).abs() < 1e-9, "{e} {m} {half}");
    }

    #[test]
    fn pair_totals_other_than_the_five_take_their_place() {
        // Pair totals 1.6 (a win and a stalemate win) pull the mean up as
        // much as the same number of 1.5s and a little more.
        let mut p = penta([10, 40, 100, 40, 10]);
        let level = pair_llr(&p, 0.0, 5.0);
        p[96] = 60;
        let with_16 = pair_llr(&p, 0.0, 5.0);
        let mut q = penta([10, 40, 100, 100, 10]);
        let with_15 = pair_llr(&q, 0.0, 5.0);
        assert!(level < 0.0 && with_16 > with_15 && with_15 > level, "{level} {with_15} {with_16}");
        // Mirror totals cancel: 0.4 and 1.6 as many as each other leave the mean at 1.
        q = penta([10, 40, 100, 40, 10]);
        (q[24], q[96]) = (30, 30);
        let even = pair_llr(&q, 0.0, 5.0);
        assert!(even < 0.0, "{even}");
        // Against the direct computation on the empirical distribution.
        let mut r = [0u64; 2 * ONE + 1];
        (r[60], r[66], r[72], r[96]) = (4, 3, 2, 1);
        let reg = 1e-3;
        let points =
            [(0.0, reg), (0.25, reg), (0.5, 4.0), (0.55, 3.0), (0.6, 2.0), (0.75, reg), (0.8, 1.0), (1.0, reg)];
        let n: f64 = points.iter().map(|p| p.1).sum();
        let mean = points.iter().map(|p| p.0 * p.1).sum::<f64>() / n;
        let var = points.iter().map(|p| p.1 * (p.0 - mean).powi(2)).sum::<f64>() / n;
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let want = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        assert!((pair_llr(&r, 0.0, 5.0) - want).abs() < 1e-9, "{} {want}", pair_llr(&r, 0.0, 5.0));
    }

    #[test]
    fn points_are_written_as_numbers() {
        let texts: Vec<String> = [0, 24, 30, 36, 60, 66, 96, 120, 1].into_iter().map(points_text).collect();
        assert_eq!(texts, ["0", "0.4", "0.5", "0.6", "1", "1.1", "1.6", "2", "0.017"]);
        assert!(is_pentanomial(90) && !is_pentanomial(96));
    }

    #[test]
    fn llr_sign_and_bounds() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        // Symmetric pair scores: mean exactly 0.5, nearer H0 (elo 0) than H1 (elo 5).
        let even = penta([100, 400, 1000, 400, 100]);
        assert!(pair_llr(&even, 0.0, 5.0) < 0.0);
        // A strong positive skew: H1 favoured, and accepted with enough pairs.
        let strong = penta([50, 300, 1000, 500, 150]);
        let llr = pair_llr(&strong, 0.0, 5.0);
        assert!(llr > hi, "{llr}");
        assert_eq!(sprt_verdict(llr, (lo, hi)), Verdict::H1);
        // A strong negative skew: H0 accepted.
        let weak = penta([150, 500, 1000, 300, 50]);
        assert_eq!(sprt_verdict(pair_llr(&weak, 0.0, 5.0), (lo, hi)), Verdict::H0);
        // Few pairs: undecided; the LLR grows with the sample at a fixed distribution.
        let few = [1, 4, 10, 5, 2];
        let l1 = pair_llr(&penta(few), 0.0, 5.0);
        assert_eq!(sprt_verdict(l1, (lo, hi)), Verdict::Continue);
        let l10 = pair_llr(&penta(few.map(|k| k * 10)), 0.0, 5.0);
        assert!(l10 > l1 * 9.0 && l10 < l1 * 11.0, "{l1} {l10}");
        assert_eq!(pair_llr(&penta([0; 5]), 0.0, 5.0), 0.0);
    }
}
