"""Benchmark of TER where segments are short: pairwise TER and TER per WMT23 output, one run.

    python bench/bench_ter_short.py [--data DIR] [--n 1000] [--runs 3] [--pairwise-runs 1] [--every-long 20]

* **pairwise TER, n x n** (default 1,000 x 1,000): the first n hypotheses of WMT23 he-en
  ONLINE-B (English sentences, an MBR-like candidate set).  rapidbleu:
  ``rapidbleu.batch.pairwise_ter(s, workers=1)`` on the whole matrix; sacreBLEU: a loop of
  ``TER().sentence_score(s[i], [s[j]])`` over the rows ``i`` of every 200th candidate (all
  ``j``), scaled to n x n by the rows it skipped; the rows it scored are checked float for
  float against rapidbleu's.
* **TER per WMT23 output**, one thread: every output of cs-uk and he-en (whole, about 2,000
  short segments each), and of en-de (paragraphs: every ``--every-long``-th segment, sacreBLEU
  taking minutes on a whole output), reference A; both tools on the same segments,
  ``corpus_score``, each score checked float for float.

Every figure is a median: per WMT23 output, ``--runs`` interleaved rounds (rapidbleu after one
untimed warm-up run; a round runs sacreBLEU once and rapidbleu three times, so that the drift of
a shared machine's speed meets both tools alike); for the matrix, ``--pairwise-runs`` (default 1:
about half a minute of CPU per run for each tool) runs of each (CPU time of this process, the steadier
number on a shared machine; wall time too); ratios are ratios of those medians, measured in the
same run.
"""

import argparse
import os
import sys
from pathlib import Path

from _common import check_backend, interleaved_times, machine_info, median_time, read_lines, wmt23_dir, wmt23_files

rapidbleu = check_backend()


def output(data, pair, system, lang):
    hyps = read_lines(wmt23_files(f"generaltest2023.{pair}.hyp.{system}.{lang}", data)[0])
    refs = read_lines(wmt23_files(f"generaltest2023.{pair}.ref.refA.{lang}", data)[0])
    return hyps, refs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None, help="WMT23 folder (default: $RAPIDBLEU_WMT23_DIR, ../shared/data/wmt23)")
    ap.add_argument("--n", type=int, default=1000, help="candidates of the pairwise matrix")
    ap.add_argument("--runs", type=int, default=3, help="runs of each tool per WMT23 output (medians)")
    ap.add_argument("--pairwise-runs", type=int, default=1, help="runs of each tool on the pairwise matrix")
    ap.add_argument("--every-long", type=int, default=20, help="en-de: every K-th segment")
    ap.add_argument("--skip-pairwise", action="store_true")
    args = ap.parse_args()
    data = Path(args.data) if args.data else wmt23_dir("generaltest2023.*.hyp.*")

    import sacrebleu

    from rapidbleu.batch import pairwise_ter

    print(machine_info())
    print(f"sacreBLEU {sacrebleu.__version__}; {args.runs} runs per figure (medians)\n")
    mismatches = []
    print("| what | pairs / segments | sacreBLEU CPU s | rapidbleu CPU s | speed-up (CPU) | speed-up (wall) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")

    if not args.skip_pairwise:
        sents = read_lines(wmt23_files("generaltest2023.he-en.hyp.ONLINE-B.en", data)[0])[: args.n]
        n = len(sents)
        rows = list(range(0, n, 200))
        ter = sacrebleu.TER()
        ow, oc, got = median_time(lambda: pairwise_ter(sents, workers=1), args.pairwise_runs, warmup=1)
        sw, sc, want = median_time(
            lambda: [[ter.sentence_score(sents[i], [r]).score for r in sents] for i in rows], args.pairwise_runs
        )
        scale = n / len(rows)
        if got[rows].tolist() != want:
            mismatches.append("pairwise TER: the sampled rows differ from sacreBLEU's sentence_score")
        print(
            f"| pairwise TER {n} x {n} (sacreBLEU: {len(rows)} rows, scaled) | {n * n} | {sc * scale:.1f} "
            f"| {oc:.2f} | {sc * scale / oc:.0f}x | {sw * scale / ow:.0f}x |"
        )

    for pair, lang, systems in (
        ("cs-uk", "uk", ("GPT4-5shot", "ONLINE-W", "ONLINE-Y")),
        ("he-en", "en", ("ONLINE-B", "ONLINE-Y")),
        ("en-de", "de", ("AIRC", "ONLINE-M", "ONLINE-W")),
    ):
        for system in systems:
            hyps, refs = output(data, pair, system, lang)
            every = args.every_long if pair == "en-de" else 1
            hyps, refs = hyps[::every], refs[::every]
            (ow, oc, got), (sw, sc, want) = interleaved_times(
                [
                    (lambda: rapidbleu.TER(workers=1).corpus_score(hyps, [refs]), 3, 1),
                    (lambda: sacrebleu.TER().corpus_score(hyps, [refs]), 1, 0),
                ],
                args.runs,
            )
            if (got.score, got.num_edits, got.ref_length) != (want.score, want.num_edits, want.ref_length):
                mismatches.append(f"{pair} {system}: {got} != sacreBLEU {want}")
            what = f"TER {pair} {system}" + (f" (every {every}th segment)" if every > 1 else "")
            print(f"| {what} | {len(hyps)} | {sc:.3f} | {oc:.4f} | {sc / oc:.0f}x | {sw / ow:.0f}x |")

    print()
    print(
        "\n".join(f"MISMATCH: {m}" for m in mismatches) or "Every rapidbleu score equals sacreBLEU's, float for float."
    )
    print(f"(os.cpu_count() = {os.cpu_count()}; load average at the end: {os.getloadavg()[0]:.1f})")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
