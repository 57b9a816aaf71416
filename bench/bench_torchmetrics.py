"""rapidbleu.torchmetrics against torchmetrics itself on the WMT23 corpus: the same
``update``/``compute`` calls, batches of 64 segments as an evaluation loop feeds them.

    python bench/bench_torchmetrics.py [--repeat 3] [--batch 64]

Corpus: every WMT23 system output of the 13a pairs (cs-uk, de-en, en-de, he-en, zh-en) against
reference A (the corpus of bench_scale.py).  ``SacreBLEUScore()`` (13a) and ``BLEUScore()``
(whitespace tokens), 4-grams, no smoothing.  CPU seconds of this process, medians of
``--repeat`` runs of a whole pass (a new metric, every batch updated, one compute).  Checks:
rapidbleu's value is sacreBLEU's float / 100 exactly; torchmetrics' (float32) equals it to
float32 precision.
"""

import argparse

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


def one_pass(cls, hyps, target, batch, **kw):
    metric = cls(**kw)
    for i in range(0, len(hyps), batch):
        metric.update(hyps[i : i + batch], target[i : i + batch])
    return metric.compute().item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=64)
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
        exact = rb_value == want / 100
        print(
            f"| {name} | {tm_cpu:.2f} | {rb_cpu:.3f} | **{tm_cpu / rb_cpu:.0f}x** | {'yes' if exact else 'NO'} | "
            f"{abs(rb_value - tm_value):.1e} |"
        )
        if not exact or abs(rb_value - tm_value) > 1e-6 * max(1.0, abs(rb_value)):
            raise SystemExit(f"{name}: values disagree: {rb_value!r} {tm_value!r} {want / 100!r}")


if __name__ == "__main__":
    main()
