"""Rendering of ``rapidbleu.compare.ComparisonReport``: text tables, plots and the HTML page.

matplotlib and Jinja2 are imported inside the HTML functions only (extra ``rapidbleu[report]``).
Figures are drawn on matplotlib's Agg canvas through ``matplotlib.figure.Figure`` (pyplot is
never imported, so a notebook's backend and figure list are left alone) and embedded as SVG
data URIs, text kept as text (``svg.fonttype: none``).
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from ._version import __version__

if TYPE_CHECKING:  # (the report extra, not followed by mypy: these are Any to it)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: A ``rapidbleu.compare.ComparisonReport`` (not imported: ``compare`` imports this module).
Report = Any

#: Text of the paired tests, as the CLI names them.
TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "paired approximate randomization"}


# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------
def display_names(names: list[str]) -> list[str]:
    """Short names for tables and plots: file base names without the dot-separated parts they
    all share at the start and at the end (``generaltest2023.de-en.hyp.AIRC.en`` -> ``AIRC``),
    when that leaves them unique and non-empty; else the names themselves."""
    base = [os.path.basename(n) or n for n in names]  # noqa: PTH119 -- plain strings; "a/" stays "a/"
    if len(base) < 2:
        parts = base[0].split(".")
        return base if len(parts) < 5 else [".".join(parts[3:-1]) or base[0]]  # WMT-style file names
    split = [b.split(".") for b in base]
    pre = 0
    while all(len(s) > pre + 1 for s in split) and len({s[pre] for s in split}) == 1:
        pre += 1
    suf = 0
    while all(len(s) > pre + suf + 1 for s in split) and len({s[-1 - suf] for s in split}) == 1:
        suf += 1
    short = [".".join(s[pre : len(s) - suf]) for s in split]
    if all(short) and len(set(short)) == len(short):
        return short
    return base if len(set(base)) == len(base) else list(names)


def fmt_p(p: float | None) -> str:
    """A p-value as the CLI prints it: 4 decimals, ``*`` when significant at 0.05."""
    if p is None:
        return ""
    return f"{p:.4f}" + ("*" if p <= 0.05 else "")


def fmt_ci(mean: float | None, ci: float | None, width: int) -> str:
    if mean is None or ci is None:
        return ""
    return f"{mean:.{width}f} ± {ci:.{width}f}"


def test_description(report: Report) -> str:
    n = report.n_samples
    if report.test is None:
        return f"95% confidence interval from {n} bootstrap resamples (no baseline: a single system)"
    what = "resamples" if report.test == "bs" else "trials"
    return f"{TEST_NAMES[report.test]} against the baseline with {n} {what}"


# --------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------
def _shorten(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def render_text(report: Report) -> str:
    w = report.width
    short = display_names(report.names)
    out: list[str] = []
    n_sys = len(report.systems)
    head = f"rapidbleu comparison: {n_sys} system{'s' if n_sys > 1 else ''}, {report.n_segments} segments" + (
        f", baseline {short[0]}" if report.baseline is not None else ""
    )
    out += [head, "=" * len(head), ""]

    orders = range(1, report.max_ngram_order + 1)
    rows = []
    for s, name in zip(report.systems, short, strict=False):
        rows.append(
            [
                name + (" (baseline)" if s.is_baseline else ""),
                f"{s.bleu:.{w}f}",
                fmt_ci(s.mean, s.ci, w),
                fmt_p(s.p_value),
            ]
            + [f"{p:.1f}" for p in s.precisions]
            + [f"{s.bp:.3f}", f"{s.ratio:.3f}", s.hyp_len, s.ref_len]
        )
    headers = (
        ["System", "BLEU", "μ ± 95% CI", "p-value"] + [f"P{n}" for n in orders] + ["BP", "ratio", "hyp_len", "ref_len"]
    )
    if report.baseline is None:
        headers.pop(3)
        for r in rows:
            r.pop(3)
    out += [
        "Corpus BLEU (" + test_description(report) + ")",
        "",
        tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True),
        "",
    ]
    out += [
        f"P1..P{report.max_ngram_order}: modified n-gram precision (%); BP: brevity penalty; ratio: hyp_len / ref_len.",
        "p-values marked * are at most 0.05." if report.baseline is not None else "",
        "",
    ]

    if report.sentences:
        rows = [
            [name, c.wins, c.ties, c.losses, f"{c.mean_diff:+.2f}", f"{c.median_diff:+.2f}"]
            for c, name in zip(report.sentences, short[1:], strict=False)
        ]
        out += [
            f"Sentence BLEU against the baseline ({report.n_segments} segments)",
            "",
            tabulate(
                rows,
                headers=["System", "wins", "ties", "losses", "mean Δ", "median Δ"],
                tablefmt="simple",
                disable_numparse=True,
            ),
            "",
        ]

    for t in report.buckets:
        rows = []
        for b in t.buckets:
            segs = b.segments[0] if len(set(b.segments)) == 1 else "/".join(map(str, b.segments))
            rows.append([b.label, segs] + ["" if x is None else f"{x:.{w}f}" for x in b.bleu])
        out += [
            f"Corpus BLEU by {t.title}",
            "",
            tabulate(rows, headers=["bucket", "segments", *short], tablefmt="simple", disable_numparse=True),
            "",
        ]

    if report.examples:
        out += ["Segments that differ most from the baseline (sentence BLEU)", ""]
        for ex in report.examples:
            name = short[report.names.index(ex.system)]
            out.append(
                f"{name} {ex.direction}: line {ex.line}, {ex.system_bleu:.1f} vs {ex.baseline_bleu:.1f} "
                f"(Δ {ex.diff:+.1f})"
            )
            if ex.source is not None:
                out.append("  source:     " + _shorten(ex.source))
            for r in ex.references:
                out.append("  reference:  " + _shorten(" ".join(t.text for t in r)))
            out.append("  baseline:   " + _shorten(" ".join(t.text for t in ex.baseline)))
            out.append("  hypothesis: " + _shorten(" ".join(t.text for t in ex.hypothesis)))
        out.append("")
    out += ["Signature", "---------", "BLEU|" + report.signature]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------
_BASELINE_COLOR = "#555555"


def _colors(k: int) -> list[str]:
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    cmap = colormaps["tab10" if k <= 11 else "tab20"]
    n = cmap.N
    return [_BASELINE_COLOR] + [to_hex(cmap(i % n)) for i in range(k - 1)]


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _axes(fig: Figure, left: float, bottom: float, width: float, height: float) -> Axes:
    """Axes at a position given in inches: layouts are computed here, not by tight_layout
    (which costs a second text-layout pass per figure, half of the drawing time)."""
    fw, fh = fig.get_size_inches()
    return fig.add_axes((left / fw, bottom / fh, width / fw, height / fh))


def _label_width(labels: Sequence[str], size: float = 9.0) -> float:
    """Rough width in inches of the widest label (DejaVu Sans averages ~0.6 em a character)."""
    return 0.6 * size / 72.0 * max((len(x) for x in labels), default=1) + 0.15


def _clip(name: str, n: int = 32) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def _uri(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg")
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


_BOTTOM, _TOP, _RIGHT = 0.5, 0.2, 0.25  # margins in inches (x label; top; right)


def _plot_scores(report: Report, short: list[str], colors: list[str]) -> str:
    k = len(report.systems)
    labels = [_clip(n) + (" (baseline)" if s.is_baseline else "") for n, s in zip(short, report.systems, strict=False)]
    left = _label_width(labels)
    width = max(7.0, left + 4.5)
    height = _BOTTOM + _TOP + 0.38 * k + 0.3
    fig = _figure(width, height)
    ax = _axes(fig, left, _BOTTOM, width - left - _RIGHT, height - _BOTTOM - _TOP)
    ys = list(range(k))[::-1]
    for y, s, c in zip(ys, report.systems, colors, strict=False):
        if s.mean is not None and s.ci is not None:
            ax.errorbar([s.mean], [y], xerr=[[s.ci], [s.ci]], fmt="none", ecolor=c, elinewidth=2, capsize=4)
        ax.plot([s.bleu], [y], "o", color=c, markersize=7)
        label = f"{s.bleu:.{report.width}f}"
        if s.p_value is not None:
            label += f"  p = {fmt_p(s.p_value)}"
        ax.annotate(label, (s.bleu, y), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
    if report.baseline is not None:
        ax.axvline(report.systems[0].bleu, color=_BASELINE_COLOR, linestyle=":", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.6, k - 0.2)
    ax.set_xlabel("corpus BLEU; bars: bootstrap mean ± 95% CI half-width")
    ax.grid(axis="x", alpha=0.3)
    return _uri(fig)


def _plot_precisions(report: Report, short: list[str], colors: list[str]) -> str:
    k = len(report.systems)
    names = [_clip(n) for n in short]
    name_w = _label_width(names)
    height = max(3.0, _BOTTOM + _TOP + 0.3 * k)
    plot_h = height - _BOTTOM - _TOP
    left1, w1, gap = 0.65, 4.2, 0.35
    left2 = left1 + w1 + gap + name_w
    width = left2 + 2.8 + _RIGHT
    fig = _figure(width, height)
    ax1 = _axes(fig, left1, _BOTTOM, w1, plot_h)
    ax2 = _axes(fig, left2, _BOTTOM, 2.8, plot_h)
    orders = list(range(1, report.max_ngram_order + 1))
    for s, c, n in zip(report.systems, colors, names, strict=False):
        ax1.plot(
            orders,
            s.precisions,
            marker="o",
            color=c,
            label=n,
            linewidth=2 if s.is_baseline else 1.3,
            linestyle="--" if s.is_baseline else "-",
        )
    ax1.set_xticks(orders)
    ax1.set_xlabel("n-gram order")
    ax1.set_ylabel("modified precision (%)")
    ax1.grid(alpha=0.3)
    if k <= 12:
        ax1.legend(fontsize=7, frameon=False)
    ys = list(range(k))[::-1]
    ax2.barh(ys, [s.bp for s in report.systems], color=colors, height=0.6)
    for y, s in zip(ys, report.systems, strict=False):
        ax2.text(
            min(s.bp, 1.0) - 0.01,
            y,
            f"{s.bp:.3f} (ratio {s.ratio:.3f})",
            va="center",
            ha="right",
            fontsize=7,
            color="white",
        )
    ax2.set_yticks(ys)
    ax2.set_yticklabels(names)
    ax2.set_ylim(-0.6, k - 0.4)
    ax2.set_xlim(0, 1.02)
    ax2.set_xlabel("brevity penalty")
    return _uri(fig)


def _plot_diffs(report: Report, short: list[str], colors: list[str]) -> str:
    """One row per system: the histogram of its per-segment differences (a ridgeline plot, one
    axes whatever the number of systems)."""
    import numpy as np

    d = report.sentence_bleu[1:] - report.sentence_bleu[0]
    lim = max(10.0, float(np.ceil(np.abs(d).max() / 10.0) * 10.0))
    edges = np.linspace(-lim, lim, 41)
    m = d.shape[0]
    names = [_clip(n) for n in short[1:]]
    left = _label_width(names)
    width = max(7.0, left + 4.5)
    height = _BOTTOM + _TOP + 0.55 * m + 0.2
    fig = _figure(width, height)
    ax = _axes(fig, left, _BOTTOM, width - left - _RIGHT, height - _BOTTOM - _TOP)
    hists = [np.histogram(row, bins=edges)[0] for row in d]
    top = max(int(h.max()) for h in hists) or 1
    for i, h in enumerate(hists):
        y = m - 1 - i
        ax.stairs(h / top * 0.9 + y, edges, baseline=y, fill=True, color=colors[i + 1], alpha=0.85)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks([y + 0.3 for y in range(m)])
    ax.set_yticklabels(names[::-1])
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(-0.1, m)
    ax.set_xlim(-lim, lim)
    ax.set_xlabel(f"Δ sentence BLEU vs baseline (bins of {2 * lim / 40:g}; tallest bar: {top} segments)")
    ax.grid(axis="x", alpha=0.3)
    return _uri(fig)


def _plot_wtl(report: Report, short: list[str]) -> str:
    m = len(report.sentences)
    names = [_clip(n) for n in short[1:]]
    left = _label_width(names)
    width = max(7.0, left + 4.5)
    height = _BOTTOM + 0.4 + 0.35 * m + 0.2
    fig = _figure(width, height)
    ax = _axes(fig, left, _BOTTOM, width - left - _RIGHT, height - _BOTTOM - 0.4)
    ys = list(range(m))[::-1]
    n = report.n_segments
    lefts = [0.0] * m
    for key, color in (("wins", "#2a9d4b"), ("ties", "#bbbbbb"), ("losses", "#d1495b")):
        vals = [100.0 * getattr(c, key) / n for c in report.sentences]
        ax.barh(ys, vals, left=lefts, color=color, label=key, height=0.6)
        for y, lft, v, c in zip(ys, lefts, vals, report.sentences, strict=False):
            if v >= 6:
                ax.text(lft + v / 2, y, str(getattr(c, key)), ha="center", va="center", fontsize=7, color="white")
        lefts = [a + b for a, b in zip(lefts, vals, strict=False)]
    ax.set_yticks(ys)
    ax.set_yticklabels(names)
    ax.set_ylim(-0.5, m - 0.5)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of segments (sentence BLEU higher / equal / lower than the baseline's)")
    ax.legend(ncol=3, fontsize=7, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    return _uri(fig)


def _plot_buckets(report: Report, short: list[str], colors: list[str]) -> str:
    t = len(report.buckets)
    names = [_clip(n) for n in short]
    panel, left, gap = 3.3, 0.6, 0.35
    width = t * (left + panel) + (t - 1) * gap + _RIGHT
    height = 3.4
    fig = _figure(width, height)
    for j, table in enumerate(report.buckets):
        ax = _axes(fig, j * (left + panel + gap) + left, 0.45, panel, height - 0.45 - 0.35)
        xs = list(range(len(table.buckets)))
        for i, (n, c) in enumerate(zip(names, colors, strict=False)):
            ys = [b.bleu[i] if b.bleu[i] is not None else float("nan") for b in table.buckets]
            base = i == 0 and report.baseline is not None
            ax.plot(
                xs,
                ys,
                marker="o",
                color=c,
                label=n,
                linewidth=2 if base else 1.2,
                linestyle="--" if base else "-",
                markersize=4,
            )
        ax.set_xticks(xs)
        ax.set_xticklabels([b.label for b in table.buckets], fontsize=7)
        ax.set_title("by " + table.title.split(" (")[0], fontsize=9)
        if j == 0:
            ax.set_ylabel("corpus BLEU")
            if len(names) <= 12:
                ax.legend(fontsize=7, frameon=False)
        ax.grid(alpha=0.3)
    return _uri(fig)


def render_plots(report: Report, short: list[str]) -> dict[str, str]:
    """Data URIs of the report's figures."""
    import matplotlib as mpl

    colors = _colors(len(report.systems))
    rc = {
        "svg.fonttype": "none",
        "svg.hashsalt": "rapidbleu",
        "font.size": 9,
        "font.family": ["DejaVu Sans", "sans-serif"],
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
    with mpl.rc_context(rc):
        plots = {
            "scores": _plot_scores(report, short, colors),
            "precisions": _plot_precisions(report, short, colors),
            "buckets": _plot_buckets(report, short, colors),
        }
        if report.sentences:
            plots["diffs"] = _plot_diffs(report, short, colors)
            plots["wtl"] = _plot_wtl(report, short)
    return plots


# --------------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------------
def render_html(report: Report) -> str:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rapidbleu", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["p"] = fmt_p
    short = display_names(report.names)
    template = env.get_template("compare.html.j2")
    html: str = template.render(
        report=report,
        short=short,
        short_of=dict(zip(report.names, short, strict=False)),
        plots=render_plots(report, short),
        test_description=test_description(report),
        version=__version__,
        data=report.to_dict(),
        created=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )
    return html
