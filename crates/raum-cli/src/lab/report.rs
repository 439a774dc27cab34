//! A study's report: a title, a table, notes, and the values to plot with
//! their intervals. Printed as an aligned table at the terminal; written as
//! Markdown, with an SVG plot beside it (the values as dots with their 95%
//! intervals, a reference beside each where there is one).

use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::Path;

/// One value of the plot: its label, the estimate, its 95% interval, and a reference (a guess).
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub interval: (f64, f64),
    pub reference: Option<f64>,
}

#[derive(Default)]
pub struct Report {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
    /// What the plot's axis measures (empty: no plot).
    pub axis: String,
    pub bars: Vec<Bar>,
}

/// A 95% interval of a mean of scores in 0..1: the mean and its half-width.
pub fn mean_interval(scores: &[f64]) -> (f64, f64) {
    let n = scores.len() as f64;
    if n == 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let mean = scores.iter().sum::<f64>() / n;
    let var = if n > 1.0 { scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, 1.96 * (var / n).sqrt())
}

impl Report {
    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, c) in row.iter().enumerate() {
                w[i] = w[i].max(c.chars().count());
            }
        }
        w
    }

    /// The report as the terminal shows it.
    pub fn terminal(&self) -> String {
        let w = self.widths();
        let line = |cells: &[String]| -> String {
            // The first column (names) to the left, the figures to the right.
            let parts: Vec<String> =
                cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if i == 0 { format!("{c:<width$}", width = w[i]) } else { format!("{c:>width$}", width = w[i]) }
                    })
                    .collect();
            parts.join("  ").trim_end().to_string()
        };
        let mut out = format!("{}\n\n{}\n", self.title, line(&self.header));
        for row in &self.rows {
            out.push_str(&line(row));
            out.push('\n');
        }
        for n in &self.notes {
            let _ = write!(out, "\n{n}\n");
        }
        out
    }

    /// The report as Markdown.
    pub fn markdown(&self, plot: Option<&str>) -> String {
        let mut out =
            format!("# {}\n\n| {} |\n|{}\n", self.title, self.header.join(" | "), " --- |".repeat(self.header.len()));
        for row in &self.rows {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        for n in &self.notes {
            let _ = write!(out, "\n{n}\n");
        }
        if let Some(file) = plot {
            let _ = write!(out, "\n![{}]({file})\n", self.axis);
        }
        out
    }

    /// Writes the Markdown to `path`, and the plot beside it (`.svg`) if there is one.
    pub fn write(&self, path: &Path) -> Result<()> {
        let plot = (!self.bars.is_empty()).then(|| path.with_extension("svg"));
        if let Some(svg) = &plot {
            std::fs::write(svg, self.svg()).with_context(|| format!("writing {}", svg.display()))?;
        }
        let name = plot.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        std::fs::write(path, self.markdown(name.as_deref())).with_context(|| format!("writing {}", path.display()))
    }

    /// The plot: one row per value, its interval as a line, the estimate as
    /// a dot, the reference as a hollow diamond.
    pub fn svg(&self) -> String {
        let (row, left, width, top) = (22.0, 150.0, 520.0, 40.0);
        let finite = |x: &f64| x.is_finite();
        let all = self.bars.iter().flat_map(|b| [b.interval.0, b.interval.1, b.value].into_iter().chain(b.reference));
        let (lo, hi) = all.filter(finite).fold((0.0f64, 1.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let span = (hi - lo).max(1e-9);
        let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * width;
        let height = top + row * self.bars.len() as f64 + 40.0;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{left}\" y=\"20\" font-size=\"14\">{}</text>\n",
            escape(&self.title),
            w = left + width + 30.0
        );
        let ticks = 5;
        for t in 0..=ticks {
            let v = lo + span * f64::from(t) / f64::from(ticks);
            let _ = writeln!(
                s,
                "<line x1=\"{0}\" x2=\"{0}\" y1=\"{top}\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{v:.2}</text>",
                x(v),
                height - 30.0,
                height - 15.0
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left + width / 2.0,
            height - 2.0,
            escape(&self.axis)
        );
        for (i, b) in self.bars.iter().enumerate() {
            let y = top + row * (i as f64 + 0.5);
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                left - 8.0,
                y + 4.0,
                escape(&b.label)
            );
            if b.interval.0.is_finite() && b.interval.1.is_finite() {
                let _ = write!(
                    s,
                    "<line x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#2b6cb0\" stroke-width=\"2\"/>",
                    x(b.interval.0),
                    x(b.interval.1)
                );
            }
            if b.value.is_finite() {
                let _ = write!(s, "<circle cx=\"{}\" cy=\"{y}\" r=\"4\" fill=\"#2b6cb0\"/>", x(b.value));
            }
            if let Some(r) = b.reference {
                let cx = x(r);
                let _ =
                    write!(s, "<path d=\"M{cx} {} l5 5 l-5 5 l-5 -5 z\" fill=\"none\" stroke=\"#c05621\"/>", y - 5.0);
            }
            s.push('\n');
        }
        s.push_str("</svg>\n");
        s
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
