"""Benchmark of corpus and sentence BLEU: rapidbleu backends vs sacreBLEU (and others if installed).

    python bench/bench_core.py [--quick] [--data DIR]

Data: every WMT23 system output with its reference A (13a tokenization for all, as a speed
test; then char, zh and intl on WMT23, the tokenizers with a C fast path), and a large corpus of >= 200,000 segments made by repeating those pairs.  Each timing
is the median of several runs (wall clock, and CPU time of this process for one-thread
runs: on a shared machine CPU time is the steadier number).  sacreBLEU on the large corpus
runs once; with --quick (and always for the pure-Python backend) one WMT23 copy of it is timed
and scaled linearly (the corpus is that copy repeated), which the table says.  Every tool's score is checked against sacreBLEU's (NLTK's against rapidbleu.nltk: NLTK's formula differs); mismatches are printed.
"""

import argparse
import os
import sys
from pathlib import Path

from _common import check_backend, machine_info, read_lines, wmt23_dir, wmt23_files
from _common import median_time as timeit

rapidbleu = check_backend()
from rapidbleu._core import backend as _backend  # noqa: E402

BIG = 200_000


def load_wmt23(data):
    """Every system output with reference A of its pair (hypotheses, references)."""
    hyps, refs = [], []
    for path in wmt23_files("generaltest2023.*.hyp.*", data):
        pair, lang = path.name.split(".")[1], path.name.rsplit(".", 1)[1]
        ref = wmt23_files(f"generaltest2023.{pair}.ref.refA.{lang}", data)[0]
        hyps += read_lines(path)
        refs += read_lines(ref)
    return hyps, refs


def with_backend(module, workers, fn):
    """Run fn with rapidbleu's statistics backend set to `module`."""
    saved = _backend.bleu_stats
    _backend.bleu_stats = module
    try:
        return fn(workers)
    finally:
        _backend.bleu_stats = saved


def optional_tools():
    """(name, corpus function or None, note) for other BLEU packages, when importable."""
    tools = []
    try:
        import bleuscore

        def run_bleuscore(h, r):
            res = bleuscore.compute(predictions=h, references=[[x] for x in r], max_order=4, smooth=False)
            return 100 * res["bleu"]

        tools.append(("bleuscore", run_bleuscore, "own tokenizer (13a-like)", None))
    except ImportError:
        tools.append(("bleuscore", None, "not installed", None))
    try:
        from fast_bleu import BLEU as FastBLEU  # noqa: F401

        tools.append(("fast-bleu", None, "installed, but scores per sentence with its own rules: not comparable", None))
    except ImportError:
        tools.append(("fast-bleu", None, "not installed", None))
    try:
        from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

        from rapidbleu.tokenizers.tokenizer_13a import tokenize_13a

        def run_nltk(h, r):
            hs = [tokenize_13a(x.rstrip()).split() for x in h]
            rs = [[tokenize_13a(x.rstrip()).split()] for x in r]
            return 100 * nltk_corpus_bleu(rs, hs)

        def expect_nltk(h, r):  # NLTK's own formula (max(1, n-grams) per sentence), not sacreBLEU's
            import rapidbleu.nltk as rb_nltk

            return 100 * rb_nltk.corpus_bleu(
                [[tokenize_13a(x.rstrip()).split()] for x in r], [tokenize_13a(x.rstrip()).split() for x in h]
            )

        tools.append(
            (
                "NLTK corpus_bleu (13a tokens)",
                run_nltk,
                "tokenization included; checked against rapidbleu.nltk: NLTK's formula differs from sacreBLEU's",
                expect_nltk,
            )
        )
    except ImportError:
        tools.append(("NLTK", None, "not installed", None))
    return tools


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs, subsets for slow tools")
    ap.add_argument(
        "--data",
        default=None,
        help="WMT23 folder (default: $RAPIDBLEU_WMT23_DIR, ../shared/data/wmt23, tests/data/wmt23)",
    )
    ap.add_argument(
        "--only",
        default="corpus,tok,sentence",
        help="sections to run: corpus (13a, WMT23 and large), tok (char, zh, intl), sentence",
    )
    args = ap.parse_args()
    only = set(args.only.split(","))
    data = Path(args.data) if args.data else wmt23_dir("generaltest2023.*.hyp.*")

    import sacrebleu

    from rapidbleu import BLEU
    from rapidbleu._core.bleu import bleu_stats_py as _bleu_stats_py

    try:
        from rapidbleu._core.bleu import bleu_stats_cy as _bleu_stats_cy
    except ImportError as exc:
        sys.exit(f"compiled core not built ({exc}): pip install .")

    runs = 3 if args.quick else 5
    hyps, refs = load_wmt23(str(data))
    reps = -(-BIG // len(hyps))
    big_h, big_r = hyps * reps, refs * reps
    print(machine_info())
    print(f"WMT23: {len(hyps)} segments; large corpus: {len(big_h)} segments ({reps} x WMT23)\n")

    rows, mismatches = [], []

    def rb_corpus(module, workers, h, r):
        return with_backend(module, workers, lambda w: BLEU(workers=w).corpus_score(h, [r]).score)

    def rb_corpus_tok(tok, h, r):
        return with_backend(_bleu_stats_cy, 1, lambda w: BLEU(tokenize=tok, workers=w).corpus_score(h, [r]).score)

    sb_cpu_of = {}

    def record(corpus, tool, wall, cpu, score, ref_score, ref_wall, note=""):
        exact = tool.startswith(("rapidbleu", "sacreBLEU"))
        if (score != ref_score) if exact else abs(score - ref_score) > 0.01:
            mismatches.append(f"{corpus} / {tool}: {score!r} != {ref_score!r} expected")
        ratio = ref_wall / wall if wall else float("nan")
        ref_cpu = sb_cpu_of.get(corpus, float("nan"))
        cpu_ratio = ref_cpu / cpu if cpu == cpu and cpu else float("nan")
        rows.append((corpus, tool, wall, cpu, ratio, cpu_ratio, f"{score:.4f}", note))

    for corpus, h, r, sb_subset in (
        ("WMT23", hyps, refs, None),
        ("large", big_h, big_r, len(hyps) if args.quick else None),
    ):
        if "corpus" not in only:
            break
        n = len(h)
        # sacreBLEU first: the reference for scores and ratios
        hs, rs = (h, r) if sb_subset is None else (h[:sb_subset], r[:sb_subset])
        sb_runs = runs if corpus == "WMT23" else 1
        wall, cpu, _ = timeit(lambda: sacrebleu.BLEU().corpus_score(hs, [rs]), sb_runs)
        scale = n / len(hs)
        sb_wall, sb_cpu = wall * scale, cpu * scale
        sb_score = (
            sacrebleu.BLEU().corpus_score(h, [r]).score if sb_subset else sacrebleu.BLEU().corpus_score(hs, [rs]).score
        )
        note = f"{sb_runs} run(s)" + (f", timed on {len(hs)} segments and scaled" if sb_subset else "")
        sb_cpu_of[corpus] = sb_cpu
        record(corpus, "sacreBLEU corpus_score", sb_wall, sb_cpu, sb_score, sb_score, sb_wall, note)

        for tool, module, workers in (
            ("rapidbleu cython, 1 thread", _bleu_stats_cy, 1),
            (f"rapidbleu cython, all threads ({os.cpu_count()})", _bleu_stats_cy, -1),
            ("rapidbleu python backend", _bleu_stats_py, 1),
        ):
            sub = None
            if module is _bleu_stats_py and corpus == "large":
                sub = len(hyps)  # one WMT23 copy: a representative slice
            hh, rr = (h, r) if sub is None else (h[:sub], r[:sub])
            k = 1 if module is _bleu_stats_py else runs
            wall, cpu, score = timeit(lambda: rb_corpus(module, workers, hh, rr), k)
            if sub is not None:
                wall, cpu = wall * n / sub, cpu * n / sub
                score = rb_corpus(_bleu_stats_cy, 1, h, r)  # score check on the full corpus
            record(
                corpus,
                tool,
                wall,
                cpu if workers == 1 else float("nan"),
                score,
                sb_score,
                sb_wall,
                f"{k} run(s)" + (f", timed on {sub} segments and scaled" if sub else ""),
            )

        if corpus == "WMT23":  # other packages: WMT23 only (score checked to 0.01)
            for tool, fn, note, expected in optional_tools():
                if fn is None:
                    print(f"skipped {tool}: {note}")
                    continue
                wall, cpu, score = timeit(lambda: fn(h, r), 1)
                want = sb_score if expected is None else expected(h, r)
                record(corpus, tool, wall, cpu, score, want, sb_wall, f"1 run; {note}")

    # the other tokenizers with a C fast path: WMT23, sacreBLEU once, rapidbleu on 1 thread
    for tok in ("char", "zh", "intl") if "tok" in only else ():
        corpus = f"WMT23 tok={tok}"
        wall, cpu, sb_score = timeit(lambda: sacrebleu.BLEU(tokenize=tok).corpus_score(hyps, [refs]).score, 1)
        sb_cpu_of[corpus] = cpu
        record(corpus, "sacreBLEU corpus_score", wall, cpu, sb_score, sb_score, wall, "1 run")
        w, c, score = timeit(lambda: rb_corpus_tok(tok, hyps, refs), runs)
        record(corpus, "rapidbleu cython, 1 thread", w, c, score, sb_score, wall, f"{runs} run(s)")
        if tok == "intl":
            # before issue 15, any regex other than the table's version ran the Python rules
            # (then counted in C); the table now follows the installed regex
            from rapidbleu.tokenizers.tokenizer_intl import tokenize_intl

            def python_rules():
                bleu = BLEU(tokenize="intl")
                bleu.tokenizer.fast_path = None
                bleu.tokenizer._cached = tokenize_intl  # its lru_cache would time dict lookups
                return with_backend(_bleu_stats_cy, 1, lambda _workers: bleu.corpus_score(hyps, [refs]).score)

            w, c, score = timeit(python_rules, runs)
            record(
                corpus,
                "rapidbleu, Python intl rules (before, other regex)",
                w,
                c,
                score,
                sb_score,
                wall,
                f"{runs} run(s)",
            )

    # sentence BLEU of every WMT23 segment
    if "sentence" in only:
        n = len(hyps)
        sub = 3000 if args.quick else 10_000
        sb = sacrebleu.BLEU(effective_order=True)
        wall, cpu, sb_scores = timeit(
            lambda: [sb.sentence_score(x, [y]).score for x, y in zip(hyps[:sub], refs[:sub], strict=False)], 1
        )
        sent_sb_wall = wall * n / sub
        sent_sb_cpu = cpu * n / sub
        rows.append(
            (
                "WMT23 sentence BLEU",
                "sacreBLEU sentence_score loop",
                sent_sb_wall,
                sent_sb_cpu,
                1.0,
                1.0,
                "-",
                f"1 run on {sub} segments, scaled",
            )
        )
        for tool, module, workers in (
            ("rapidbleu sentence_scores, cython 1 thread", _bleu_stats_cy, 1),
            ("rapidbleu sentence_scores, cython all threads", _bleu_stats_cy, -1),
        ):
            wall, cpu, scores = timeit(
                lambda: with_backend(
                    module, workers, lambda w: BLEU(effective_order=True, workers=w).sentence_scores(hyps, [refs])
                ),
                runs,
            )
            bad = sum(1 for a, b in zip(scores[:sub], sb_scores, strict=False) if a != b)
            if bad:
                mismatches.append(f"sentence BLEU / {tool}: {bad} of {sub} scores differ from sacreBLEU")
            rows.append(
                (
                    "WMT23 sentence BLEU",
                    tool,
                    wall,
                    cpu if workers == 1 else float("nan"),
                    sent_sb_wall / wall,
                    sent_sb_cpu / cpu if workers == 1 else float("nan"),
                    "exact" if not bad else f"{bad} differ",
                    f"{runs} runs",
                )
            )

    print("| corpus | tool | wall s | CPU s | speed-up vs sacreBLEU (wall) | speed-up (CPU) | BLEU | notes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for corpus, tool, wall, cpu, ratio, cpu_ratio, score, note in rows:
        cpu_s = "-" if cpu != cpu else f"{cpu:.3f}"
        cpu_r = "-" if cpu_ratio != cpu_ratio else f"{cpu_ratio:.1f}x"
        print(f"| {corpus} | {tool} | {wall:.3f} | {cpu_s} | {ratio:.1f}x | {cpu_r} | {score} | {note} |")
    print()
    print(
        "\n".join(f"MISMATCH: {m}" for m in mismatches)
        or "All scores agree with the expected ones (sacreBLEU's; rapidbleu.nltk's for NLTK)."
    )


if __name__ == "__main__":
    main()
