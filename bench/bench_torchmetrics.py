"""rapidbleu.torchmetrics against torchmetrics itself on the WMT23 corpus: the same
``update``/``compute`` calls, batches of 64 segments as an evaluation loop feeds them.

    python bench/bench_torchmetrics.py [--repeat 3] [--batch 64] [--subset 1000]

Corpus: every WMT23 system output of the 13a pairs (cs-uk, de-en, en-de, he-en, zh-en) against
reference A (the corpus of bench_scale.py).  ``SacreBLEUScore()`` (13a) and ``BLEUScore()``
(whitespace tokens), 4-grams, no smoothing, on all of it; ``CHRFScore()`` (chrF++, torchmetrics'
default) and ``TranslationEditRate()`` on ``--subset`` segments spread evenly over the corpus's
segments without whitespace other than spaces (torchmetrics' chrF and TER run in Python per
n-gram and per shift: the whole corpus would take it an hour; its chrF keeps a no-break space
inside a line as a character).  CPU seconds of this process, medians of ``--repeat`` runs of a whole pass (a new
metric, every batch updated, one compute).  Checks: BLEU: rapidbleu's value is sacreBLEU's
float / 100 as the nearest float32 and torchmetrics' equals it to float32 precision; chrF:
rapidbleu's float32 value is torchmetrics' exactly; TER: the same or, where torchmetrics' own
tercom code departs from sacreBLEU's on a segment, the difference is shown.
"""

import argparse

import numpy as np
from _common import check_backend, machine_info, median_time, read_lines, wmt23_dir

check_backend()

import sacrebleu  # noqa: E402
import torch  # noqa: E402
import torchmetrics  # noqa: E402
import torchmetrics.text as tmt  # noqa: E402

import rapidbleu.torchmetrics as rbt  # noqa: E402

PAIRS = ("cs-uk", "de-en", "en-de", "he-en", "zh-en")


def corpus():
    d = wmt23_dir("generaltest2023.de-en.ref.refA.en")
    hyps, refs = [], []
    for pair in PAIRS:
        trg = pair.split("-")[1]
        ref_file = next(d.glob(f"**/generaltest2023.{pair}.ref.refA.{trg}"))
        ref = read_lines(ref_file)
        for hyp in sorted(d.glob(f"**/generaltest2023.{pair}.hyp.*.{trg}")):
            h = read_lines(hyp)
            if len(h) == len(ref):
                hyps += h
                refs += ref
    return hyps, refs


def _spaces_only(text):
    return all(c == " " or not c.isspace() for c in text)


def one_pass(cls, hyps, target, batch, **kw):
    metric = cls(**kw)
    for i in range(0, len(hyps), batch):
        metric.update(hyps[i : i + batch], target[i : i + batch])
    return metric.compute().item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--subset", type=int, default=1000, help="segments for the chrF and TER rows")
    a = ap.parse_args()
    torch.set_num_threads(1)
    hyps, refs = corpus()
    target = [[r] for r in refs]
    print(machine_info())
    print(f"torch {torch.__version__}, torchmetrics {torchmetrics.__version__}, sacreBLEU {sacrebleu.__version__}")
    print(f"{len(hyps):,} segments (WMT23 {', '.join(PAIRS)}, every system vs refA), batches of {a.batch}")
    print()
    print(
        "| metric | torchmetrics CPU s | rapidbleu CPU s | speed-up | rapidbleu == sacreBLEU / 100 | |diff| to torchmetrics |"
    )
    print("| --- | ---: | ---: | ---: | :-: | ---: |")
    for name, tm_cls, rb_cls, tokenize in (
        ("SacreBLEUScore() (13a)", tmt.SacreBLEUScore, rbt.SacreBLEUScore, "13a"),
        ("BLEUScore() (whitespace)", tmt.BLEUScore, rbt.BLEUScore, "none"),
    ):
        _, tm_cpu, tm_value = median_time(lambda c=tm_cls: one_pass(c, hyps, target, a.batch), a.repeat)
        _, rb_cpu, rb_value = median_time(lambda c=rb_cls: one_pass(c, hyps, target, a.batch), a.repeat)
        want = sacrebleu.BLEU(tokenize=tokenize, smooth_method="none", force=True).corpus_score(hyps, [refs]).score
        exact = rb_value == float(np.float32(want / 100))  # the float32 nearest sacreBLEU's
        print(
            f"| {name} | {tm_cpu:.2f} | {rb_cpu:.3f} | **{tm_cpu / rb_cpu:.0f}x** | {'yes' if exact else 'NO'} | "
            f"{abs(rb_value - tm_value):.1e} |"
        )
        if not exact or abs(rb_value - tm_value) > 1e-6 * max(1.0, abs(rb_value)):
            raise SystemExit(f"{name}: values disagree: {rb_value!r} {tm_value!r} {want / 100!r}")
    # Segments whose text has no whitespace but spaces: without `whitespace`, torchmetrics'
    # chrF keeps a no-break space inside a line as a character, sacreBLEU's drops it (README).
    plain = [i for i, (h, r) in enumerate(zip(hyps, refs, strict=True)) if _spaces_only(h + r)]
    step = max(1, len(plain) // a.subset)
    chosen = plain[::step][: a.subset]
    sub_hyps, sub_target = [hyps[i] for i in chosen], [target[i] for i in chosen]
    print()
    print(
        f"{len(sub_hyps):,} of those segments (every {step}th of the {len(plain):,} whose only whitespace is "
        f"the space), batches of {a.batch}:"
    )
    print()
    print("| metric | torchmetrics CPU s | rapidbleu CPU s | speed-up | value | rapidbleu == torchmetrics |")
    print("| --- | ---: | ---: | ---: | ---: | :-: |")
    for name, tm_cls, rb_cls in (
        ("CHRFScore() (chrF++)", tmt.CHRFScore, rbt.CHRFScore),
        ("TranslationEditRate()", tmt.TranslationEditRate, rbt.TranslationEditRate),
    ):
        _, tm_cpu, tm_value = median_time(lambda c=tm_cls: one_pass(c, sub_hyps, sub_target, a.batch), a.repeat)
        _, rb_cpu, rb_value = median_time(lambda c=rb_cls: one_pass(c, sub_hyps, sub_target, a.batch), a.repeat)
        same = rb_value == tm_value
        verdict = "yes" if same else f"no: {tm_value:.6f} (|diff| {abs(rb_value - tm_value):.1e})"
        print(f"| {name} | {tm_cpu:.2f} | {rb_cpu:.3f} | **{tm_cpu / rb_cpu:.0f}x** | {rb_value:.6f} | {verdict} |")
        # TER: torchmetrics' own tercom re-implementation differs from sacreBLEU's on rare segments
        # (README); chrF must agree
        if not same and rb_cls is rbt.CHRFScore:
            raise SystemExit(f"{name}: values disagree: {rb_value!r} {tm_value!r}")


if __name__ == "__main__":
    main()
