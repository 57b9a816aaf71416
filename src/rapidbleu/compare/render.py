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

from .._base.version import __version__

if TYPE_CHECKING:  # (the report extra, not followed by mypy: these are Any to it)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: A ``rapidbleu.compare.ComparisonReport`` (not imported: ``compare`` imports this module).
Report = Any
#: A ``rapidbleu.compare.MetricComparison`` (one metric's part of a report; not imported either).
MetricPart = Any

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


def direction(m: MetricPart) -> str:
    """``""``, or ``"lower is better"`` for a metric where lower scores are better (TER)."""
    return "" if m.higher_is_better else "lower is better"


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


def _text_bleu_table(report: Report, short: list[str]) -> list[str]:
    """BLEU's corpus table: scores, intervals, p-values, precisions, brevity penalty."""
    w = report.width
    orders = range(1, report.max_ngram_order + 1)
    rows = []
    out: list[str] = []
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

    return out


def _text_scores(report: Report, m: MetricPart, short: list[str]) -> list[str]:
    """A metric's corpus table: scores, intervals, p-values."""
    w = report.width
    rows = [
        [name + (" (baseline)" if s.is_baseline else ""), f"{s.score:.{w}f}", fmt_ci(s.mean, s.ci, w), fmt_p(s.p_value)]
        for s, name in zip(m.scores, short, strict=False)
    ]
    headers = ["System", m.name, "μ ± 95% CI", "p-value"]
    if report.baseline is None:
        headers.pop()
        for r in rows:
            r.pop()
    better = f"{direction(m)}; " if direction(m) else ""
    return [
        f"Corpus {m.name} ({better}" + test_description(report) + ")",
        "",
        tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True),
        "",
        "p-values marked * are at most 0.05." if report.baseline is not None else "",
        "",
    ]


def render_text(report: Report) -> str:
    w = report.width
    short = display_names(report.names)
    out: list[str] = []
    n_sys = len(report.names)
    head = f"rapidbleu comparison: {n_sys} system{'s' if n_sys > 1 else ''}, {report.n_segments} segments" + (
        f", baseline {short[0]}" if report.baseline is not None else ""
    )
    out += [head, "=" * len(head), ""]

    for m in report.metrics:
        out += (
            _text_bleu_table(report, short)
            if m.metric_id == "bleu" and report.systems
            else _text_scores(report, m, short)
        )

    for m in report.metrics:
        if m.sentences:
            rows = [
                [name, c.wins, c.ties, c.losses, f"{c.mean_diff:+.2f}", f"{c.median_diff:+.2f}"]
                for c, name in zip(m.sentences, short[1:], strict=False)
            ]
            better = "" if m.higher_is_better else f"; {direction(m)}: a win is a lower {m.name}"
            out += [
                f"Sentence {m.name} against the baseline ({report.n_segments} segments{better})",
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
    title = "Signature" if len(report.metrics) == 1 else "Signatures"
    out += [title, "-" * len(title), *(f"{m.name}|{m.signature}" for m in report.metrics)]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------
_BASELINE_COLOR = "#555555"

#: Colours of the systems after the baseline: matplotlib's tab10 without its grey (the
#: baseline's); beyond 9 systems they repeat with another marker and line style, so that 2 to
#: 20 systems stay told apart on screen and on paper.
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf")
_MARKERS = ("o", "s", "^", "D", "v")
_LINESTYLES = ("-", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 1)))


class _Style:
    """How one system is drawn: colour, marker, line style and line width."""

    def __init__(self, color: str, marker: str, linestyle: str | tuple[Any, ...], linewidth: float) -> None:
        self.color, self.marker, self.linestyle, self.linewidth = color, marker, linestyle, linewidth


def _styles(k: int, baseline: bool = True) -> list[_Style]:
    """Styles of ``k`` systems, the first one the baseline (grey, dashed) when ``baseline``."""
    out = [_Style(_BASELINE_COLOR, "o", "--", 2.0)] if baseline else []
    for i in range(k - len(out)):
        cycle = i // len(_PALETTE)
        out.append(
            _Style(
                _PALETTE[i % len(_PALETTE)],
                _MARKERS[cycle % len(_MARKERS)],
                _LINESTYLES[cycle % len(_LINESTYLES)],
                1.3,
            )
        )
    return out


def _luminance(color: str) -> float:
    """WCAG 2 relative luminance of a colour."""
    from matplotlib.colors import to_rgb

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (WCAG contrast ratio)."""
    lum = _luminance(background)
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


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


_LEGEND_ROW, _LEGEND_SIZE = 0.17, 7.0  # inches per legend row; legend font size (pt)


def _legend_grid(labels: list[str], width: float) -> tuple[int, float]:
    """``(columns, height in inches)`` of a legend of ``labels`` as wide as ``width`` inches."""
    # the widest label (as _label_width, without its margin), the line sample and the gaps
    entry = 0.6 * _LEGEND_SIZE / 72.0 * max((len(x) for x in labels), default=1) + 0.45
    ncol = max(1, min(len(labels), int(width // entry)))
    return ncol, _LEGEND_ROW * -(-len(labels) // ncol) + 0.1


def _legend_below(fig: Figure, lines: list[Any], labels: list[str], left: float, top: float, ncol: int) -> None:
    """A legend of ``lines`` whose top left corner is at (``left``, ``top``) inches."""
    fw, fh = fig.get_size_inches()
    fig.legend(
        lines,
        labels,
        loc="upper left",
        bbox_to_anchor=(left / fw, top / fh),
        ncol=ncol,
        fontsize=_LEGEND_SIZE,
        frameon=False,
        borderaxespad=0.0,
        columnspacing=1.2,
        handlelength=2.6,
    )


def _plot_scores(report: Report, m: MetricPart, short: list[str], styles: list[_Style]) -> str:
    """Metric ``m``'s corpus score of each system, its bootstrap interval and p-value."""
    k = len(m.scores)
    labels = [_clip(n) + (" (baseline)" if s.is_baseline else "") for n, s in zip(short, m.scores, strict=False)]
    left = _label_width(labels)
    width = max(7.0, left + 4.5)
    height = _BOTTOM + _TOP + 0.38 * k + 0.3
    fig = _figure(width, height)
    ax = _axes(fig, left, _BOTTOM, width - left - _RIGHT, height - _BOTTOM - _TOP)
    ys = list(range(k))[::-1]
    for y, s, st in zip(ys, m.scores, styles, strict=False):
        if s.mean is not None and s.ci is not None:
            ax.errorbar([s.mean], [y], xerr=[[s.ci], [s.ci]], fmt="none", ecolor=st.color, elinewidth=2, capsize=4)
        ax.plot([s.score], [y], st.marker, color=st.color, markersize=7)
        label = f"{s.score:.{report.width}f}"
        if s.p_value is not None:
            label += f"  p = {fmt_p(s.p_value)}"
        ax.annotate(label, (s.score, y), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
    if report.baseline is not None:
        ax.axvline(m.scores[0].score, color=_BASELINE_COLOR, linestyle=":", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    ax.set_ylim(-0.6, k - 0.2)
    better = f" ({direction(m)})" if direction(m) else ""
    ax.set_xlabel(f"corpus {m.name}{better}; bars: bootstrap mean ± 95% CI half-width")
    ax.grid(axis="x", alpha=0.3)
    return _uri(fig)


def _plot_precisions(report: Report, short: list[str], styles: list[_Style]) -> str:
    """n-gram precision by order (lines, a legend below) and the brevity penalty (bars, each
    labelled in the ink that contrasts with its colour)."""
    k = len(report.systems)
    names = [_clip(n) for n in short]
    name_w = _label_width(names)
    left1, w1, gap = 0.65, 4.2, 0.35
    left2 = left1 + w1 + gap + name_w
    width = left2 + 2.8 + _RIGHT
    ncol, legend_h = _legend_grid(names, width - left1 - _RIGHT)
    plot_h = max(3.0 - _BOTTOM - _TOP, 0.3 * k)
    height = legend_h + _BOTTOM + plot_h + _TOP
    fig = _figure(width, height)
    ax1 = _axes(fig, left1, legend_h + _BOTTOM, w1, plot_h)
    ax2 = _axes(fig, left2, legend_h + _BOTTOM, 2.8, plot_h)
    orders = list(range(1, report.max_ngram_order + 1))
    lines = []
    for s, st in zip(report.systems, styles, strict=False):
        (line,) = ax1.plot(
            orders, s.precisions, marker=st.marker, color=st.color, linewidth=st.linewidth, linestyle=st.linestyle
        )
        lines.append(line)
    ax1.set_xticks(orders)
    ax1.set_xlabel("n-gram order")
    ax1.set_ylabel("modified precision (%)")
    ax1.grid(alpha=0.3)
    _legend_below(fig, lines, names, left1, legend_h, ncol)
    ys = list(range(k))[::-1]
    ax2.barh(ys, [s.bp for s in report.systems], color=[st.color for st in styles], height=0.6)
    for y, s, st in zip(ys, report.systems, styles, strict=False):
        text = f"{s.bp:.3f} (ratio {s.ratio:.3f})"
        if s.bp >= 0.55:  # inside the bar, at its end
            ax2.text(min(s.bp, 1.0) - 0.01, y, text, va="center", ha="right", fontsize=7, color=_ink(st.color))
        else:  # a short bar: after it
            ax2.text(s.bp + 0.01, y, text, va="center", ha="left", fontsize=7, color="black")
    ax2.set_yticks(ys)
    ax2.set_yticklabels(names)
    ax2.set_ylim(-0.6, k - 0.4)
    ax2.set_xlim(0, 1.02)
    ax2.set_xlabel("brevity penalty")
    return _uri(fig)


def _plot_diffs(metric: MetricPart, short: list[str], styles: list[_Style]) -> str:
    """One row per system: the histogram of its per-segment differences in ``metric``'s
    sentence score (a ridgeline plot, one axes whatever the number of systems)."""
    import numpy as np

    d = metric.sentence_scores[1:] - metric.sentence_scores[0]
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
        ax.stairs(h / top * 0.9 + y, edges, baseline=y, fill=True, color=styles[i + 1].color, alpha=0.85)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks([y + 0.3 for y in range(m)])
    ax.set_yticklabels(names[::-1])
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(-0.1, m)
    ax.set_xlim(-lim, lim)
    better = f"; {direction(metric)}" if direction(metric) else ""
    ax.set_xlabel(
        f"Δ sentence {metric.name} vs baseline (bins of {2 * lim / 40:g}; tallest bar: {top} segments{better})"
    )
    ax.grid(axis="x", alpha=0.3)
    return _uri(fig)


def _plot_wtl(report: Report, metric: MetricPart, short: list[str]) -> str:
    """Wins, ties and losses of each system against the baseline in ``metric``'s sentence
    scores."""
    m = len(metric.sentences)
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
        vals = [100.0 * getattr(c, key) / n for c in metric.sentences]
        ax.barh(ys, vals, left=lefts, color=color, label=key, height=0.6)
        for y, lft, v, c in zip(ys, lefts, vals, metric.sentences, strict=False):
            if v >= 6:
                ax.text(lft + v / 2, y, str(getattr(c, key)), ha="center", va="center", fontsize=7, color=_ink(color))
        lefts = [a + b for a, b in zip(lefts, vals, strict=False)]
    ax.set_yticks(ys)
    ax.set_yticklabels(names)
    ax.set_ylim(-0.5, m - 0.5)
    ax.set_xlim(0, 100)
    order = "higher / equal / lower" if metric.higher_is_better else "lower / equal / higher"
    ax.set_xlabel(f"% of segments (sentence {metric.name} {order} than the baseline's)")
    ax.legend(ncol=3, fontsize=7, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    return _uri(fig)


def _plot_bucket(report: Report, table: Any, short: list[str], styles: list[_Style]) -> str:
    """Corpus BLEU of each system by bucket of one table (lines), with a legend below: a
    figure per table, as wide as a printed page."""
    names = [_clip(n) + (" (baseline)" if s.is_baseline else "") for n, s in zip(short, report.systems, strict=False)]
    left, width, plot_h = 0.65, 7.2, 2.4
    ncol, legend_h = _legend_grid(names, width - left - _RIGHT)
    height = legend_h + _BOTTOM + plot_h + _TOP
    fig = _figure(width, height)
    ax = _axes(fig, left, legend_h + _BOTTOM, width - left - _RIGHT, plot_h)
    xs = list(range(len(table.buckets)))
    lines = []
    for i, st in enumerate(styles):
        ys = [b.bleu[i] if b.bleu[i] is not None else float("nan") for b in table.buckets]
        (line,) = ax.plot(
            xs, ys, marker=st.marker, color=st.color, linewidth=st.linewidth, linestyle=st.linestyle, markersize=4
        )
        lines.append(line)
    ax.set_xticks(xs)
    ax.set_xticklabels([b.label for b in table.buckets])
    ax.set_xlabel(table.title)
    ax.set_ylabel("corpus BLEU")
    ax.grid(alpha=0.3)
    _legend_below(fig, lines, names, left, legend_h, ncol)
    return _uri(fig)


def plot_key(m: MetricPart, kind: str) -> str:
    """The name of metric ``m``'s figure of ``kind`` (``scores``, ``wtl``, ``diffs``): BLEU's
    are the kind itself, another metric's ``<kind>_<key>``."""
    return kind if m.metric_id == "bleu" else f"{kind}_{m.key}"


def render_plots(report: Report, short: list[str]) -> dict[str, str]:
    """Data URIs of the report's figures (``bucket_<key>``: one per bucket table; per metric
    the ``plot_key`` of its scores, and with a baseline of its wins/ties/losses and
    differences)."""
    import matplotlib as mpl

    styles = _styles(len(report.names), baseline=report.baseline is not None)
    rc = {
        "svg.fonttype": "none",
        "svg.hashsalt": "rapidbleu",
        "font.size": 9,
        "font.family": ["DejaVu Sans", "sans-serif"],
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
    with mpl.rc_context(rc):
        plots: dict[str, str] = {}
        for m in report.metrics:
            plots[plot_key(m, "scores")] = _plot_scores(report, m, short, styles)
            if m.sentences:
                plots[plot_key(m, "diffs")] = _plot_diffs(m, short, styles)
                plots[plot_key(m, "wtl")] = _plot_wtl(report, m, short)
        if report.systems:
            plots["precisions"] = _plot_precisions(report, short, styles)
        for table in report.buckets:
            plots[f"bucket_{table.key}"] = _plot_bucket(report, table, short, styles)
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
    env.globals["plot_key"] = plot_key
    env.globals["direction"] = direction
    short = display_names(report.names)
    ids = [m.metric_id for m in report.metrics]
    template = env.get_template("compare.html.j2")
    html: str = template.render(
        report=report,
        short=short,
        short_of=dict(zip(report.names, short, strict=False)),
        # bucket tables whose buckets hold the same segments for every system
        same_segments={t.key: all(len(set(b.segments)) == 1 for b in t.buckets) for t in report.buckets},
        plots=render_plots(report, short),
        test_description=test_description(report),
        title=" and ".join(m.name for m in report.metrics) + " comparison",
        # the -m of the command line that prints the same numbers (none for BLEU alone)
        cli_metrics="" if ids == ["bleu"] else " -m " + " ".join(dict.fromkeys(ids)),
        version=__version__,
        data=report.to_dict(),
        created=dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )
    return html
