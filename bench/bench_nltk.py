"""NLTK's BLEU vs rapidbleu.nltk on a large pre-tokenized WMT23 corpus.

    python bench/bench_nltk.py            # ~200,000 segments (NLTK alone takes minutes)
    python bench/bench_nltk.py --quick    # ~20,000 segments
    python bench/bench_nltk.py --baseline ../main/src   # also time another build (before/after)

Times, in one run: NLTK ``corpus_bleu`` vs ``rapidbleu.nltk.corpus_bleu``, and a loop of NLTK
``sentence_bleu`` vs one ``rapidbleu.nltk.sentence_bleu_batch`` call; tokens are Python lists
of str (13a-tokenized once, outside the timings).  NLTK runs once per task, rapidbleu
``--repeat`` times (median).  Prints a markdown table with the speed-ups in wall and CPU time,
the targets (on wall time, meant for the compiled backend), whether the values agree, the
machine's load average and the
backend in use (``rapidbleu._core.backend.bleu_stats.NAME``).  Targets (issue 15): corpus 40x; sentence loop 50x
with one worker, 80x with two or more.
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

from _common import check_backend, read_lines, shown_path, wmt23_dir, wmt23_files

check_backend()

import nltk.translate.bleu_score as nltk_bleu  # noqa: E402

import rapidbleu.nltk as rb  # noqa: E402
from rapidbleu._core import backend as _backend  # noqa: E402
from rapidbleu.tokenizers import get_tokenizer  # noqa: E402

TARGET_CORPUS = 40
TARGET_SENTENCE = {1: 50, 2: 80}  # by workers (2 for any number above 1)


def load_pairs():
    root = wmt23_dir("generaltest2023.*.hyp.*")
    tok = get_tokenizer("13a")

    def read(path):
        return [tok(line).split() for line in read_lines(path)]

    refs_by_pair, refs_all, hyps_all = {}, [], []
    for hyp_file in wmt23_files("generaltest2023.*.hyp.*", root):
        pair = hyp_file.name.split(".")[1]
        if pair not in refs_by_pair:
            refs_by_pair[pair] = [read(r) for r in wmt23_files(f"generaltest2023.{pair}.ref.*", root)]
        refs = refs_by_pair[pair]
        for i, hyp in enumerate(read(hyp_file)):
            hyps_all.append(hyp)
            refs_all.append([r[i] for r in refs])
    return refs_all, hyps_all


def timed(fn):
    """(wall s, CPU s of this process, value): on a shared machine the CPU time of one thread is
    what it would take alone, the wall time what it took."""
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - t0, time.process_time() - c0, value


def median_timed(fn, repeat):
    """(median wall s, median CPU s, first value) of ``repeat`` runs."""
    runs = [timed(fn) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[0][2]


def rapidbleu_times(refs, hyps, workers, repeat):
    """The rapidbleu side of the benchmark alone (``--baseline``'s child process)."""
    import rapidbleu

    rf = rb.SmoothingFunction().method1
    corpus = median_timed(lambda: rb.corpus_bleu(refs, hyps, workers=workers), repeat)[:2]
    sentence = median_timed(lambda: rb.sentence_bleu_batch(refs, hyps, smoothing_function=rf, workers=workers), repeat)[
        :2
    ]
    core = timed(lambda: _backend.bleu_stats.token_stats(hyps, refs, 4, workers=workers))[0]
    where = shown_path(Path(rapidbleu.__file__).parent.parent)
    return {"corpus": corpus, "sentence": sentence, "core": core, "where": f"rapidbleu from {where}"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="~20,000 segments instead of ~200,000")
    ap.add_argument("--segments", type=int, default=None, help="corpus size (overrides --quick)")
    ap.add_argument("--repeat", type=int, default=None, help="rapidbleu runs (median; default 5 quick, 3 full)")
    ap.add_argument("--workers", type=int, default=1, help="threads for the compiled core")
    ap.add_argument(
        "--baseline",
        metavar="SRC",
        help="also time the rapidbleu importable from SRC (a "
        "src/ folder with its extensions built), in a subprocess after this one's timings, "
        "against the same NLTK times: before/after in one run",
    )
    ap.add_argument("--rapidbleu-only", action="store_true", help=argparse.SUPPRESS)  # --baseline's child
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # NLTK's (and our) method0 warnings

    n_target = args.segments or (20_000 if args.quick else 200_000)
    repeat = args.repeat or (5 if args.quick else 3)
    refs0, hyps0 = load_pairs()
    reps = -(-n_target // len(hyps0))
    refs, hyps = (refs0 * reps)[:n_target], (hyps0 * reps)[:n_target]
    n_tokens = sum(map(len, hyps)) + sum(len(r) for rs in refs for r in rs)
    # The inputs (millions of token lists) stay alive for the whole run; freezing them keeps the
    # cyclic GC from re-scanning them during every timed call, which would charge the tools
    # that allocate most (the Python loops) for the size of this benchmark's own heap.
    gc.collect()
    gc.freeze()
    if args.rapidbleu_only:
        print(json.dumps(rapidbleu_times(refs, hyps, args.workers, repeat)))
        return
    print(
        f"corpus: {len(hyps):,} segments ({len(hyps0):,} WMT23 pairs repeated), "
        f"{n_tokens:,} tokens; backend: {_backend.bleu_stats.NAME}; workers: {args.workers}; "
        f"rapidbleu runs: {repeat}; cpus: {os.cpu_count()}\n",
        flush=True,
    )

    rows = []

    # corpus BLEU
    t_nltk, c_nltk, v_nltk = timed(lambda: nltk_bleu.corpus_bleu(refs, hyps))
    t_rb, c_rb, v_rb = median_timed(lambda: rb.corpus_bleu(refs, hyps, workers=args.workers), repeat)
    agree = "identical" if v_rb == v_nltk else f"rel err {abs(v_rb - v_nltk) / abs(v_nltk):.2g}"
    rows.append(("corpus_bleu", (t_nltk, c_nltk), (t_rb, c_rb), TARGET_CORPUS, f"{agree} ({v_nltk:.6f})"))
    print(f"corpus done: NLTK {t_nltk:.2f}s, rapidbleu {t_rb:.3f}s", flush=True)

    # sentence BLEU: NLTK loop vs one batch call (smoothing method1, the usual training choice)
    nf, rf = nltk_bleu.SmoothingFunction().method1, rb.SmoothingFunction().method1
    t_nltk, c_nltk, v_nltk = timed(
        lambda: [nltk_bleu.sentence_bleu(r, h, smoothing_function=nf) for r, h in zip(refs, hyps, strict=False)]
    )
    t_rb, c_rb, v_rb = median_timed(
        lambda: rb.sentence_bleu_batch(refs, hyps, smoothing_function=rf, workers=args.workers), repeat
    )
    v_rb = v_rb.tolist()
    same = sum(a == b for a, b in zip(v_nltk, v_rb, strict=False))
    worst = max((abs(a - b) / abs(a) if a else abs(b)) for a, b in zip(v_nltk, v_rb, strict=False))
    agree = f"{same:,}/{len(v_rb):,} identical, max rel err {worst:.2g}"
    target = TARGET_SENTENCE[1 if args.workers == 1 else 2]
    rows.append(("sentence_bleu loop vs sentence_bleu_batch (method1)", (t_nltk, c_nltk), (t_rb, c_rb), target, agree))
    print(f"sentence done: NLTK {t_nltk:.2f}s, rapidbleu {t_rb:.3f}s", flush=True)

    # where rapidbleu's time goes: the statistics (packing the str tokens + counting) vs scoring
    t_core = timed(lambda: _backend.bleu_stats.token_stats(hyps, refs, 4, workers=args.workers))[0]

    if args.baseline:
        cmd = [
            sys.executable,
            __file__,
            "--rapidbleu-only",
            "--segments",
            str(len(hyps)),
            "--repeat",
            str(repeat),
            "--workers",
            str(args.workers),
        ]
        env = dict(os.environ, PYTHONPATH=str(Path(args.baseline).absolute()))
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        base = json.loads(out.strip().splitlines()[-1])
        for k, key in ((0, "corpus"), (1, "sentence")):
            name, tn, _, target, _ = rows[k]
            rows.append((f"{name}, baseline", tn, tuple(base[key]), target, base["where"]))
        print(f"baseline ({base['where']}): token_stats {base['core']:.3f}s", flush=True)

    # the target is judged on wall time; the CPU columns show what the load of a shared machine
    # took from it (with workers > 1 rapidbleu's CPU time adds up its threads)
    print(
        f"\n| task | NLTK wall (CPU) s | rapidbleu wall (CPU) s, median of {repeat} | speed-up wall | "
        f"speed-up CPU | target | values |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, (tn, cn), (tr, cr), target, agree in rows:
        flag = "met" if tn / tr >= target else "not met"
        print(
            f"| {name} | {tn:.2f} ({cn:.2f}) | {tr:.3f} ({cr:.3f}) | {tn / tr:.1f}x | {cn / cr:.1f}x | "
            f"{target}x ({flag}) | {agree} |"
        )
    print(
        f"\nbackend `{_backend.bleu_stats.NAME}`; inside one rapidbleu call, the statistics of the str "
        f"tokens (token_stats, order 4) take {t_core:.3f}s; load average at the end "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cpus)."
    )


if __name__ == "__main__":
    main()
