"""One segment a call (issue 41): the sentence-level entries as a Python loop calls them, each
against its reference tool in the same run.

    python bench/bench_per_call.py [--segments 500] [--rounds 7]

Data: the first ``--segments`` segments of WMT23 cs-uk (GPT4-5shot against reference A); the
reward row alternates cs-uk and he-en segments.  Every row runs the same loop of calls over
all segments for both tools, in interleaved rounds (:func:`_common.interleaved_times`); the
table gives the median over rounds of the per-call time (loop time / segments) in microseconds,
CPU time of this process (steadier than wall time on a shared machine), one thread.  Every
row checks that both tools give the same floats on every segment before it is timed.

Rows (the targets of issue 41 in brackets):
``sentence_bleu(h, [r])`` (30x), ``sentence_chrf`` (25x), ``sentence_ter`` (60x),
``BLEU(effective_order=True).sentence_score`` on one reused object (12x),
``CHRF().sentence_score`` reused (25x), NLTK ``sentence_bleu([r], h, smoothing_function=
method1)`` on token lists (20x NLTK), a verl-style reward ``compute_score(source, completion,
reference)`` against a sacreBLEU ``sentence_bleu`` call (25x), NLTK's ``modified_precision``
and ``brevity_penalty`` per segment, and ``batch.sentence_bleu_batch`` on one row of token
ids (NLTK style, method 1) against NLTK on the same ids.
"""

import argparse
import os

from _common import check_backend, interleaved_times, machine_info, read_lines, wmt23_files

check_backend()

import sacrebleu  # noqa: E402
from nltk.translate import bleu_score as nltk_bleu  # noqa: E402

import rapidbleu  # noqa: E402
import rapidbleu.nltk as rb_nltk  # noqa: E402
from rapidbleu import batch as rb_batch  # noqa: E402
from rapidbleu import rewards as rb_rewards  # noqa: E402


def pair(lang, n, system=None):
    refs = wmt23_files(f"generaltest2023.{lang}.ref.refA.*")
    hyps = wmt23_files(f"generaltest2023.{lang}.hyp.{system or '*'}")
    r = read_lines(refs[0])
    h = read_lines(hyps[0])
    keep = [(a, b) for a, b in zip(h, r, strict=True) if a.strip() and b.strip()]
    return [a for a, _ in keep[:n]], [b for _, b in keep[:n]]


def rows(n):
    h, r = pair("cs-uk", n, "GPT4-5shot.uk")
    h2, r2 = pair("he-en", n)
    mixed_h = [x for ab in zip(h[: n // 2], h2[: n // 2], strict=False) for x in ab]
    mixed_r = [x for ab in zip(r[: n // 2], r2[: n // 2], strict=False) for x in ab]
    th = [x.split() for x in h]
    tr = [x.split() for x in r]
    m1n = nltk_bleu.SmoothingFunction().method1
    m1r = rb_nltk.SmoothingFunction().method1
    ids_h = [[hash(w) % 32000 for w in x] for x in th]
    ids_r = [[hash(w) % 32000 for w in x] for x in tr]
    sb_bleu = sacrebleu.BLEU(effective_order=True)
    rb_bleu = rapidbleu.BLEU(effective_order=True)
    sb_chrf = sacrebleu.CHRF()
    rb_chrf = rapidbleu.CHRF()
    return [
        (
            "`sentence_bleu(h, [r])`",
            "sacreBLEU",
            30,
            lambda: [sacrebleu.sentence_bleu(a, [b]).score for a, b in zip(h, r, strict=True)],
            lambda: [rapidbleu.sentence_bleu(a, [b]).score for a, b in zip(h, r, strict=True)],
        ),
        (
            "`sentence_chrf(h, [r])`",
            "sacreBLEU",
            25,
            lambda: [sacrebleu.sentence_chrf(a, [b]).score for a, b in zip(h, r, strict=True)],
            lambda: [rapidbleu.sentence_chrf(a, [b]).score for a, b in zip(h, r, strict=True)],
        ),
        (
            "`sentence_ter(h, [r])`",
            "sacreBLEU",
            60,
            lambda: [sacrebleu.sentence_ter(a, [b]).score for a, b in zip(h, r, strict=True)],
            lambda: [rapidbleu.sentence_ter(a, [b]).score for a, b in zip(h, r, strict=True)],
        ),
        (
            "`BLEU(effective_order=True).sentence_score` (reused)",
            "sacreBLEU",
            12,
            lambda: [sb_bleu.sentence_score(a, [b]).score for a, b in zip(h, r, strict=True)],
            lambda: [rb_bleu.sentence_score(a, [b]).score for a, b in zip(h, r, strict=True)],
        ),
        (
            "`CHRF().sentence_score` (reused)",
            "sacreBLEU",
            25,
            lambda: [sb_chrf.sentence_score(a, [b]).score for a, b in zip(h, r, strict=True)],
            lambda: [rb_chrf.sentence_score(a, [b]).score for a, b in zip(h, r, strict=True)],
        ),
        (
            "NLTK `sentence_bleu([r], h, method1)` (token lists)",
            "NLTK",
            20,
            lambda: [nltk_bleu.sentence_bleu([b], a, smoothing_function=m1n) for a, b in zip(th, tr, strict=True)],
            lambda: [rb_nltk.sentence_bleu([b], a, smoothing_function=m1r) for a, b in zip(th, tr, strict=True)],
        ),
        (
            "NLTK `modified_precision([r], h, 2)`",
            "NLTK",
            None,
            lambda: [float(nltk_bleu.modified_precision([b], a, 2)) for a, b in zip(th, tr, strict=True)],
            lambda: [float(rb_nltk.modified_precision([b], a, 2)) for a, b in zip(th, tr, strict=True)],
        ),
        (
            "NLTK `brevity_penalty(r_len, h_len)`",
            "NLTK",
            None,
            lambda: [nltk_bleu.brevity_penalty(len(b), len(a)) for a, b in zip(th, tr, strict=True)],
            lambda: [rb_nltk.brevity_penalty(len(b), len(a)) for a, b in zip(th, tr, strict=True)],
        ),
        (
            "reward `compute_score(src, completion, ref)` vs sacreBLEU `sentence_bleu`",
            "sacreBLEU",
            25,
            lambda: [sacrebleu.sentence_bleu(a, [b]).score / 100 for a, b in zip(mixed_h, mixed_r, strict=True)],
            lambda: [rb_rewards.compute_score("wmt23", a, b) for a, b in zip(mixed_h, mixed_r, strict=True)],
        ),
        (
            "`sentence_bleu_batch([h_ids], [[r_ids]])` (one row, NLTK style) vs NLTK on the ids",
            "NLTK",
            None,
            lambda: [
                nltk_bleu.sentence_bleu([b], a, smoothing_function=m1n) for a, b in zip(ids_h, ids_r, strict=True)
            ],
            lambda: [
                float(rb_batch.sentence_bleu_batch([a], [[b]], smoothing_function=m1r)[0])
                for a, b in zip(ids_h, ids_r, strict=True)
            ],
        ),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--segments", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print(machine_info())
    print(f"{args.segments} segments a loop; {args.rounds} interleaved rounds; CPU time per call; 1 thread")
    print()
    print("| call | reference tool | reference us/call | rapidbleu us/call | ratio | target |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    short = 0
    for name, tool, target, ref_fn, rb_fn in rows(args.segments):
        a, b = ref_fn(), rb_fn()
        if len(a) != len(b) or any(x != y for x, y in zip(a, b, strict=True)):
            bad = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
            raise SystemExit(f"{name}: segment {bad} differs: {a[bad]!r} vs {b[bad]!r}")
        (_, ref_cpu, _), (_, rb_cpu, _) = interleaved_times([(ref_fn, 1, 1), (rb_fn, 1, 1)], args.rounds)
        n = len(a)
        ratio = ref_cpu / rb_cpu
        mark = "" if target is None else (f"{target}x" + ("" if ratio >= target else " (short)"))
        short += target is not None and ratio < target
        print(f"| {name} | {tool} | {ref_cpu / n * 1e6:.1f} | {rb_cpu / n * 1e6:.2f} | {ratio:.1f}x | {mark} |")
    print()
    print(f"rows short of their target: {short}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("RAPIDBLEU_NUM_THREADS", "1")
    raise SystemExit(main())
