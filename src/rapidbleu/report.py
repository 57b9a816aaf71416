"""Printing results exactly as sacreBLEU's command line prints them."""

import json
import os
import re
import sys
from typing import Any, Protocol, cast

_COLORS = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
_RESET = "\x1b[0m"


class Color:
    """ANSI colors, on only when standard output is a terminal.

    sacreBLEU colors through colorama, which strips the codes when stdout is not a TTY; so piped
    output carries no escape codes, and neither does ours.  ``NO_COLOR`` or ``--no-color`` turn
    colors off everywhere.
    """

    enabled = False

    @classmethod
    def setup(cls, no_color: bool = False) -> None:
        cls.enabled = (
            not no_color and not os.environ.get("NO_COLOR") and hasattr(sys.stdout, "isatty") and sys.stdout.isatty()
        )

    @classmethod
    def format(cls, msg: str, color: str) -> str:
        if not cls.enabled or color not in _COLORS:
            return msg
        return f"{_COLORS[color]}{msg}{_RESET}"


def print_single_results(results: list[str], fmt: str) -> None:
    """One line (text) or one JSON object per metric, as sacreBLEU's single-system mode."""
    if fmt == "json":
        print("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0])
        return
    if "μ" in results[0]:
        color_re = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")
        results = [color_re.sub(lambda m: Color.format(m.group(), "cyan"), r) for r in results]
    if len(results) == 1:
        print(results[0])
        return
    lens = []
    for line in results:
        try:
            lens.append(line.index("=") - 1)
        except ValueError:
            print(line)
    if lens:
        w = max(lens)
        for n, line in zip(lens, results, strict=False):
            print(f"{line[:n]:>{w}}{line[n:]}")


class PairedCell(Protocol):
    """A paired test's result for one system and metric (``significance.PairedResult``)."""

    score: float
    mean: float | None
    ci: float | None
    p_value: float | None


def format_score_cells(scores: dict[str, list[str | PairedCell]], width: int, multiline: bool) -> dict[str, list[str]]:
    """Table cells: strings stay; paired-test results become ``score (mean ± ci)\\n(p = ...)``."""
    out = {"System": cast("list[str]", scores["System"])}  # the system names
    for metric, values in scores.items():
        if metric == "System":
            continue
        cells: list[str] = []
        is_bootstrap = False
        for r in values:
            if isinstance(r, str):
                cells.append(r)
                continue
            cell = f"{r.score:.{width}f}"
            if r.mean is not None:
                is_bootstrap = True
                cell += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
            if r.p_value is not None:
                p = f"(p = {r.p_value:.4f})"
                p = Color.format(p, "red") if r.p_value > 0.05 else p + "*"
                cell += ("\n" if multiline else " ") + p
            cells.append(cell)
        out[metric + (" (μ ± 95% CI)" if is_bootstrap else "")] = cells
    return out


def print_results_table(
    results: dict[str, list[str | PairedCell]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
    paired: str = "",
    n_samples: int = 0,
) -> None:
    """sacreBLEU's multi-system output: a JSON list, or a tabulate table plus signatures.

    Args:
        results: ``{"System": names, "BLEU": cells}``; cells are formatted strings or paired
            results with ``score``, ``mean``, ``ci``, ``p_value`` attributes.
        signatures: metric name -> formatted signature.
        fmt: ``json``, ``text`` (fancy_grid) or ``latex`` (booktabs).
        paired: ``"bs"``, ``"ar"`` or ``""`` for no paired test (adds sacreBLEU's explanation).
    """
    if fmt == "json":
        rows = []
        keys = list(results)
        for i, name in enumerate(results["System"]):
            row: dict[str, Any] = {"system": name}
            for key in keys[1:]:
                v = results[key][i]
                row[key] = v if isinstance(v, str) else v.__dict__
            rows.append(row)
        print(json.dumps(rows, indent=4))
        return
    from tabulate import tabulate  # here: about 25 ms to import, and single systems never need it

    tablefmt = "fancy_grid" if fmt == "text" else "latex_booktabs"
    cells = format_score_cells(results, width, multiline=tablefmt == "fancy_grid")
    colored, has_baseline, baseline_name = {}, False, ""
    for name, col in cells.items():
        if col[0].startswith("Baseline:") or has_baseline:
            if col[0].startswith("Baseline:"):
                baseline_name = col[0]
            has_baseline = True
            col[0] = Color.format(col[0], "yellow")
        colored[Color.format(name, "cyan")] = col
    print(
        tabulate(
            colored,
            headers="keys",
            tablefmt=tablefmt,
            colalign=("right",),
            stralign="center",
            numalign="center",
            floatfmt=f".{width}f",
        )
    )
    print()
    if paired:
        _print_paired_explanation(paired, n_samples, baseline_name)
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    for name, sig in signatures.items():
        print(f" - {name:<10} {sig}")


def _print_paired_explanation(paired: str, n_samples: int, baseline_name: str) -> None:
    test = "bootstrap resampling" if paired == "bs" else "approximate randomization"
    unit = "resampling trials" if paired == "bs" else "trials"
    msg = f"Paired {test} test with {n_samples} {unit}"
    bline = Color.format("baseline", "yellow")
    bname = Color.format(baseline_name, "yellow")
    null = Color.format("Null hypothesis", "green")
    red = Color.format("highlighted in red", "red")
    print("-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg))
    print(f" - Each system is pairwise compared to {bname}.")
    if paired == "bs":
        print("   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.")
    else:
        print("   Actual system score is provided for each metric.")
    print()
    print(f" - {null}: the system and the {bline} translations are essentially")
    print(f"   generated by the same underlying process. For a given system and the {bline},")
    print("   the p-value is roughly the probability of the absolute score difference (delta)")
    print(f"   or higher occurring due to chance, under the assumption that the {null.lower()} is correct.")
    print()
    print(f" - Assuming a significance threshold of 0.05, the {null.lower()} can be rejected")
    print('   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed')
    print(f'   to chance, hence the system is significantly "different" than the {bline}.')
    print(f"   Otherwise, the p-values are {red}.")
    print()
    print(f' - NOTE: Significance does not tell whether a system is "better" than the {bline} but rather')
    print('   emphasizes the "difference" of the systems in terms of the replicability of the delta.')
    print()
