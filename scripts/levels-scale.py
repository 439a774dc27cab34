#!/usr/bin/env python3
"""The skill levels' Elo scale from their ladder (docs/levels-ladder.tsv).

Prints each variant's scale as a Markdown table (Elo and its 95% error bar,
the bars of a chain's steps added in quadrature) and writes the plot
docs/levels.svg. Usage: scripts/levels-scale.py [LADDER.tsv] [PLOT.svg]
"""
import math
import re
import sys

ladder = sys.argv[1] if len(sys.argv) > 1 else "docs/levels-ladder.tsv"
plot = sys.argv[2] if len(sys.argv) > 2 else "docs/levels.svg"


def elo(p):
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_margin(w, d, l):
    """Elo and the half-width of its 95% interval, as `raum match` reports them."""
    n = w + d + l
    p = (w + d / 2) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p**2) / n
    se = math.sqrt(var / n)
    lo = elo(max(p - 1.96 * se, 1e-9))
    hi = elo(min(p + 1.96 * se, 1 - 1e-9))
    return elo(p), (hi - lo) / 2


rows = []
with open(ladder) as f:
    lines = [x.rstrip("\n") for x in f if not x.startswith("#")]
for line in lines[1:]:
    v, upper, lower, a, b, w, d, l, _commit, _bench = line.split("\t")
    rows.append((v, upper, lower, a, int(w), int(d), int(l)))

scales = {}
for v, upper, lower, a, w, d, l in rows:
    s = scales.setdefault(v, {"random": (0.0, 0.0, "", None)})
    if upper in s:
        continue
    e, m = elo_margin(w, d, l)
    base, base_m, _, _ = s[lower]
    s[upper] = (base + e, math.hypot(base_m, m), a, (w + d / 2) / (w + d + l))

for v, s in scales.items():
    print(f"\n{v}\n")
    print("| Player | Elo | ± (95%) | Step score | Plays as |")
    print("|---|---:|---:|---:|---|")
    for name, (e, m, a, p) in s.items():
        step = "" if p is None else f"{100 * p:.1f}%"
        print(f"| {name} | {e:.0f} | {m:.0f} | {step} | `{a}` |" if a else f"| {name} | {e:.0f} | {m:.0f} | | |")

# The plot: Elo by level, one line a variant, error bars; greedy as a dashed rule.
W, H, L, R, T, B = 640, 400, 60, 130, 20, 40
# Every level on the axis, the ones not yet measured too (the count is the engine's).
levels = max(int(n[1:]) for s in scales.values() for n in s if n.startswith("L"))
try:
    with open("crates/raum-engine/src/levels.rs") as f:
        levels = max(levels, int(re.search(r"pub const LEVELS: u32 = (\d+);", f.read()).group(1)))
except (OSError, AttributeError):
    pass
top = max(e + m for s in scales.values() for e, m, _, _ in s.values())
top = 500 * math.ceil(top / 500)
x = lambda k: L + (k - 1) * (W - L - R) / max(levels - 1, 1)
y = lambda e: T + (H - T - B) * (1 - e / top)
colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>']
for e in range(0, top + 1, 500):
    out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(e):.1f}" y2="{y(e):.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{L - 6}" y="{y(e) + 4:.1f}" text-anchor="end">{e}</text>')
for k in range(1, levels + 1):
    out.append(f'<text x="{x(k):.1f}" y="{H - B + 16}" text-anchor="middle">{k}</text>')
out.append(f'<text x="{(L + W - R) / 2:.0f}" y="{H - 6}" text-anchor="middle">level</text>')
out.append(f'<text x="14" y="{(T + H - B) / 2:.0f}" transform="rotate(-90 14 {(T + H - B) / 2:.0f})" text-anchor="middle">Elo (random mover 0)</text>')
for i, (v, s) in enumerate(scales.items()):
    c = colours[i % len(colours)]
    pts = sorted((int(n[1:]), e, m) for n, (e, m, _, _) in s.items() if n.startswith("L"))
    out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(f"{x(k):.1f},{y(e):.1f}" for k, e, _ in pts)))
    for k, e, m in pts:
        out.append(f'<line x1="{x(k):.1f}" x2="{x(k):.1f}" y1="{y(e - m):.1f}" y2="{y(e + m):.1f}" stroke="{c}"/>')
        out.append(f'<circle cx="{x(k):.1f}" cy="{y(e):.1f}" r="3" fill="{c}"/>')
    if "greedy" in s:
        g = s["greedy"][0]
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(g):.1f}" y2="{y(g):.1f}" stroke="{c}" stroke-dasharray="4 4"/>')
    out.append(f'<text x="{W - R + 10}" y="{T + 16 + 32 * i}" fill="{c}">{v}</text>')
    out.append(f'<text x="{W - R + 10}" y="{T + 30 + 32 * i}" fill="{c}" font-size="10">dashed: greedy</text>')
out.append("</svg>")
with open(plot, "w") as f:
    f.write("\n".join(out) + "\n")
