"""Benchmark of minimum Bayes risk (MBR) decoding: rapidbleu.mbr against sacreBLEU 2.6.0,
fastchrf and mbrs, in one run.

* **Aggregated chrF 1,024 x 1,024** (reference aggregation, Vamvas and Sennrich 2024): 1,024
  WMT23 system outputs (en-de, paragraphs), every one a hypothesis and a pseudo-reference.
  rapidbleu's ``mbr.aggregate_chrf`` (1 thread) against fastchrf's ``aggregate_chrf`` and mbrs'
  ``MetricChrF.expected_scores_reference_aggregation`` (sacreBLEU's n-gram helpers on float
  counters, in Python); the same for chrF++ and BLEU (``mbr.aggregate_bleu`` against mbrs'
  ``MetricBLEU``), and for scale the quadratic method on ``--part`` rows against all 1,024:
  sacreBLEU's ``sentence_score`` for each pair against rapidbleu's ``mbr.expected_utility``.
* **MBR selection over 64 candidates for 1,000 sources** (zh-en): per source, the three
  systems' outputs and 61 variants of them (a word dropped, two neighbours swapped, the end
  cut: a deterministic stand-in for model samples).  The pairwise (64 x 64) chrF and BLEU
  utilities and their row means: rapidbleu's ``mbr.expected_utility`` against fastchrf's
  ``pairwise_chrf`` (``--fastchrf-part`` sources in one call, scaled) and a loop of sacreBLEU's ``sentence_score`` (a
  part of the sources, scaled); the aggregated chrF and BLEU: rapidbleu against fastchrf
  (chrF) and mbrs (a part of the sources, scaled).

Each comparison checks the values (largest relative difference) and the chosen hypotheses.
Times are medians of ``--runs`` runs (wall seconds; the MBR selections and the slow baselines
run once), the ratios
are of medians, measured in the same run.  mbrs is imported without its package file (which
imports every neural metric's dependencies).

Usage: python bench/bench_mbr.py [--runs 3] [--sources 1000] [--part 10] [--fastchrf-part 200]
(``PYTHONPATH`` must hold fastchrf and mbrs, e.g. a ``pip install --target`` folder.)
"""

import argparse
import importlib
import pathlib
import random
import sys
import time
import types

import numpy as np
from _common import check_backend, machine_info, median_time, read_lines, wmt23_files


def load_mbrs():
    """mbrs' chrF and BLEU metric classes, or None when mbrs (or torch) is not installed."""
    try:
        import mbrs
    except ImportError:
        return None
    package = types.ModuleType("mbrs.metrics")
    package.__path__ = [str(pathlib.Path(mbrs.__file__).parent / "metrics")]
    sys.modules["mbrs.metrics"] = package
    base = importlib.import_module("mbrs.metrics.base")
    for name in ("Metric", "MetricAggregatable", "register"):
        setattr(package, name, getattr(base, name))
    chrf = importlib.import_module("mbrs.metrics.chrf")
    bleu = importlib.import_module("mbrs.metrics.bleu")
    return chrf.MetricChrF, bleu.MetricBLEU


def outputs(pair):
    return [read_lines(p) for p in wmt23_files(f"generaltest2023.{pair}.hyp.*")]


def variants(lines, count, rnd):
    """``count`` candidates: the lines themselves, then edited copies of them."""
    out = list(lines)
    while len(out) < count:
        words = rnd.choice(lines).split()
        kind = rnd.randrange(3)
        if kind == 0 and len(words) > 1:
            del words[rnd.randrange(len(words))]
        elif kind == 1 and len(words) > 1:
            i = rnd.randrange(len(words) - 1)
            words[i], words[i + 1] = words[i + 1], words[i]
        elif words:
            words = words[: max(1, len(words) - 1 - rnd.randrange(max(1, len(words) // 3)))]
        out.append(" ".join(words))
    return out[:count]


def rel_diff(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))) if a.size else 0.0


ROWS = []


def row(task, tool, seconds, ours, check=""):
    ROWS.append((task, tool, seconds, ours, check))
    ratio = "" if ours is None else f"{seconds / ours:8.1f}x"
    print(f"{task:42s} {tool:44s} {seconds:10.4f} s {ratio:>9s}  {check}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sources", type=int, default=1000)
    ap.add_argument("--candidates", type=int, default=64)
    ap.add_argument("--size", type=int, default=1024, help="hypotheses = pseudo-references of the aggregated set")
    ap.add_argument("--part", type=int, default=10, help="sources (rows) sacreBLEU and mbrs run on, scaled")
    ap.add_argument("--fastchrf-part", type=int, default=200, help="sources fastchrf's pairwise_chrf runs on, scaled")
    args = ap.parse_args()
    rb = check_backend()
    from rapidbleu import mbr

    print(machine_info())
    import sacrebleu

    try:
        import fastchrf
    except ImportError:
        fastchrf = None
        print("fastchrf not installed: its rows are left out")
    mbrs = load_mbrs()
    if mbrs is None:
        print("mbrs not installed: its rows are left out")

    # -- aggregated chrF, one set of 1,024 -----------------------------------------------------
    outs = outputs("en-de")
    cands = [line for seg in zip(*outs, strict=False) for line in seg][: args.size]
    n = len(cands)
    task = f"aggregated chrF {n} x {n}"
    ours, _, got = median_time(lambda: mbr.aggregate_chrf(cands, cands), args.runs)
    row(task, "rapidbleu mbr.aggregate_chrf (1 thread)", ours, None)
    two, _, got2 = median_time(lambda: mbr.aggregate_chrf(cands, cands, workers=2), args.runs)
    row(task, "rapidbleu mbr.aggregate_chrf (2 threads)", two, ours, f"same: {got2.tobytes() == got.tobytes()}")
    if fastchrf is not None:
        t, _, fc = median_time(lambda: np.array(fastchrf.aggregate_chrf([cands], [cands])[0]), args.runs)
        row(
            task,
            "fastchrf aggregate_chrf",
            t,
            ours,
            f"rel diff {rel_diff(got, fc):.1e}, same choice {got.argmax() == fc.argmax()}",
        )
    if mbrs is not None:
        metric = mbrs[0](mbrs[0].Config(num_workers=1))
        t, _, ms = median_time(lambda: metric.expected_scores_reference_aggregation(cands, cands).double().numpy(), 1)
        row(task, "mbrs MetricChrF (sacreBLEU helpers, Python)", t, ours, f"rel diff {rel_diff(got, ms):.1e} (float32)")
    part = min(args.part, n)
    chrf = sacrebleu.CHRF()
    w0 = time.perf_counter()
    slow = [[chrf.sentence_score(h, [r]).score for r in cands] for h in cands[:part]]
    t = time.perf_counter() - w0
    quad, _, res = median_time(lambda: mbr.expected_utility(cands[:part], cands, metric=rb.CHRF()), 1)
    task_q = f"pairwise (quadratic) chrF {part} x {n}"
    row(task_q, "rapidbleu mbr.expected_utility (1 thread)", quad, None)
    row(task_q, "sacreBLEU sentence_score loop", t, quad, f"matrix = sacreBLEU's: {res.utilities.tolist() == slow}")
    for name, ours_fn, mbrs_fn in (
        ("aggregated chrF++", lambda: mbr.aggregate_chrf(cands, cands, word_order=2), 0),
        ("aggregated BLEU", lambda: mbr.aggregate_bleu(cands, cands), 1),
    ):
        t_ours, _, got = median_time(ours_fn, args.runs)
        row(f"{name} {n} x {n}", "rapidbleu (1 thread)", t_ours, None)
        if mbrs is not None:
            cls = mbrs[mbrs_fn]
            metric = cls(cls.Config(word_order=2, num_workers=1) if mbrs_fn == 0 else cls.Config(num_workers=1))
            t, _, ms = median_time(
                lambda: metric.expected_scores_reference_aggregation(cands, cands).double().numpy(), 1
            )
            row(
                f"{name} {n} x {n}",
                "mbrs (sacreBLEU helpers, Python)",
                t,
                t_ours,
                f"rel diff {rel_diff(got, ms):.1e} (float32)",
            )

    # -- MBR selection: 64 candidates for each of 1,000 sources ---------------------------------
    rnd = random.Random(0)
    outs = outputs("zh-en")
    sources = min(args.sources, *(len(o) for o in outs))
    sets = [variants([o[s] for o in outs], args.candidates, rnd) for s in range(sources)]
    k = args.candidates
    part = min(args.part, sources)
    for metric_name, metric, sacre in (
        ("chrF", rb.CHRF(), sacrebleu.CHRF()),
        ("BLEU", rb.BLEU(), sacrebleu.BLEU(effective_order=True)),
    ):
        task = f"MBR {metric_name}, {k} cands x {sources} sources"
        ours, _, picks = median_time(lambda m=metric: [mbr.expected_utility(c, metric=m).best for c in sets], 1)
        row(task, "rapidbleu mbr.expected_utility (pairwise)", ours, None)
        w0 = time.perf_counter()
        slow = [
            int(np.argmax([np.mean([sacre.sentence_score(h, [r]).score for r in c]) for h in c])) for c in sets[:part]
        ]
        t = (time.perf_counter() - w0) * sources / part
        row(
            task,
            f"sacreBLEU sentence_score loop ({part} sources, scaled)",
            t,
            ours,
            f"same choice: {slow == picks[:part]}",
        )
        if metric_name == "chrF" and fastchrf is not None:
            fpart = min(args.fastchrf_part, sources)

            def fast_pairwise(p=fpart):
                return [int(np.argmax(np.mean(m, axis=1))) for m in fastchrf.pairwise_chrf(sets[:p], sets[:p])]

            t, _, fpicks = median_time(fast_pairwise, 1)
            row(
                task,
                f"fastchrf pairwise_chrf, one call ({fpart} sources, scaled)",
                t * sources / fpart,
                ours,
                f"same choice: {fpicks == picks[:fpart]}",
            )
        agg_fn = mbr.aggregate_chrf if metric_name == "chrF" else mbr.aggregate_bleu
        agg, _, apicks = median_time(lambda f=agg_fn: [int(np.argmax(f(c, c))) for c in sets], args.runs)
        row(
            f"MBR aggregated {metric_name}, {k} x {sources}",
            "rapidbleu mbr.aggregate_" + ("chrf" if metric_name == "chrF" else "bleu"),
            agg,
            None,
        )
        if metric_name == "chrF" and fastchrf is not None:
            t, _, fpicks = median_time(
                lambda: [int(np.argmax(s)) for s in fastchrf.aggregate_chrf(sets, sets)], args.runs
            )
            row(
                f"MBR aggregated {metric_name}, {k} x {sources}",
                "fastchrf aggregate_chrf (one call)",
                t,
                agg,
                f"same choice: {fpicks == apicks}",
            )
        if mbrs is not None:
            cls = mbrs[0] if metric_name == "chrF" else mbrs[1]
            m_obj = cls(cls.Config(num_workers=1))
            w0 = time.perf_counter()
            mpicks = [int(m_obj.expected_scores_reference_aggregation(c, c).argmax()) for c in sets[:part]]
            t = (time.perf_counter() - w0) * sources / part
            row(
                f"MBR aggregated {metric_name}, {k} x {sources}",
                f"mbrs ({part} sources, scaled)",
                t,
                agg,
                f"same choice: {mpicks == apicks[:part]}",
            )

    print("\n| task | tool | median s | slower than rapidbleu | check |\n| --- | --- | ---: | ---: | --- |")
    for task, tool, seconds, ours, check in ROWS:
        ratio = "" if ours is None else f"{seconds / ours:.1f}x"
        print(f"| {task} | {tool} | {seconds:.4f} | {ratio} | {check} |")


if __name__ == "__main__":
    main()
