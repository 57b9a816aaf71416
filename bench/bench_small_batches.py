"""Sentence BLEU of small batches of token ids, as RL / minimum-risk training calls it every
step: rapidbleu ``sentence_bleu_batch`` vs a loop of NLTK ``sentence_bleu`` (issue 15, item 5).

    python bench/bench_small_batches.py [--repeat 21]

Batches of n rows of T random ids (vocabulary 32,000; the reference is the hypothesis with 30%
of its ids replaced), as padded int64 (n, T) arrays and as lists of lists.  NLTK-style scores
(``smoothing_function=method1``, uniform 4-gram weights) on both sides, checked equal; the NLTK
loop is timed on up to 64 rows and scaled.  1-thread rows give CPU time (steadier on a shared
machine), 2-thread rows wall time; medians of ``--repeat`` calls.  The per-call overhead row is
a batch of 32 one-id rows (nothing to count); the 32 x 8 rows are the per-call cost of a small
RL batch (issue 38: >= 40x an NLTK loop); the last line, a batch of one row against one
segment's call (rapidbleu's and NLTK's ``sentence_bleu``).
"""

import argparse
import statistics
import time

from _common import check_backend

check_backend()

import numpy as np  # noqa: E402
from nltk.translate.bleu_score import SmoothingFunction  # noqa: E402
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu  # noqa: E402

from rapidbleu.batch import sentence_bleu_batch  # noqa: E402
from rapidbleu.nltk import sentence_bleu as rapidbleu_sentence_bleu  # noqa: E402

M1 = SmoothingFunction().method1


def batch(n, T, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.integers(1, 32000, size=(n, T), dtype=np.int64)
    r = h.copy()
    m = rng.random((n, T)) < 0.3
    r[m] = rng.integers(1, 32000, size=int(m.sum()))
    return h, r


def med(fn, repeat, cpu):
    clock = time.process_time if cpu else time.perf_counter
    fn()
    xs = []
    for _ in range(repeat):
        t = clock()
        fn()
        xs.append(clock() - t)
    return statistics.median(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    print(
        "| batch (rows x ids) | input | NLTK loop ms (CPU) | rapidbleu 1 thread ms (CPU) | speed-up | "
        "rapidbleu 2 threads ms (wall) | speed-up | equal |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for n, T in ((32, 8), (32, 256), (256, 256), (512, 1024)):
        h, r = batch(n, T)
        hl, rl = h.tolist(), r.tolist()
        k = min(n, 64)
        nl = (
            med(
                lambda: [nltk_sentence_bleu([rl[i]], hl[i], smoothing_function=M1) for i in range(k)],
                3 if T > 512 else 5,
                True,
            )
            * n
            / k
        )
        want = [nltk_sentence_bleu([rl[i]], hl[i], smoothing_function=M1) for i in range(k)]
        for form, hh, rr in (("(n, T) array", h, r), ("lists", hl, rl)):
            got = sentence_bleu_batch(hh, rr, smoothing_function=M1)
            equal = list(got[:k]) == want
            t1 = med(lambda: sentence_bleu_batch(hh, rr, smoothing_function=M1), args.repeat, True)
            t2 = med(lambda: sentence_bleu_batch(hh, rr, smoothing_function=M1, workers=2), args.repeat, False)
            print(
                f"| {n} x {T} | {form} | {1e3 * nl:.1f} | {1e3 * t1:.3f} | {nl / t1:.0f}x | {1e3 * t2:.3f} "
                f"| {nl / t2:.0f}x | {equal} |",
                flush=True,
            )
    h, r = batch(32, 1)
    for label, kw in (("NLTK-style (method1)", {"smoothing_function": M1}), ("sacreBLEU-style", {})):
        t = med(lambda: sentence_bleu_batch(h, r, **kw), 10 * args.repeat, True)
        print(f"\nper-call overhead, batch of 32 one-id rows, {label}: {1e6 * t:.0f} us (CPU)")
    h1, r1 = (x[0] for x in batch(1, 8))
    h1, r1 = h1.tolist(), r1.tolist()
    assert sentence_bleu_batch([h1], [[r1]], smoothing_function=M1).tolist() == [
        nltk_sentence_bleu([r1], h1, smoothing_function=M1)
    ]
    one = {
        "sentence_bleu_batch([h], [[r]])": lambda: sentence_bleu_batch([h1], [[r1]], smoothing_function=M1),
        "rapidbleu.nltk.sentence_bleu": lambda: rapidbleu_sentence_bleu([r1], h1, smoothing_function=M1),
        "NLTK sentence_bleu": lambda: nltk_sentence_bleu([r1], h1, smoothing_function=M1),
    }
    times = ", ".join(f"{name} {1e6 * med(fn, 10 * args.repeat, True):.0f} us" for name, fn in one.items())
    print(f"\none row of 8 ids (lists), NLTK-style (method1): {times} (CPU)")


if __name__ == "__main__":
    main()
