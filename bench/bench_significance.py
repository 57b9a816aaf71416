"""sacreBLEU vs rapidbleu: paired bootstrap and approximate randomization over 5 systems.

One command, one run:

    python bench/bench_significance.py            # ~20,000 segments, bs 1000, ar 10,000
    python bench/bench_significance.py --quick    # 2,196 segments, bs 200, ar 1,000

Systems: the three WMT23 de-en submissions in the data folder plus two made from them (one with
the words of every third line shuffled, one with every fourth line truncated to half); the
corpus is repeated to reach the requested size.  Each measurement runs in a fresh subprocess
(so peak RSS belongs to that test alone): it extracts the statistics, then times the test
proper.  "test" times exclude statistics extraction (which is issue 1's business); "total"
includes it.  Results (scores, means, CIs, p-values) of both tools are compared for equality.
Output: a markdown table on stdout.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import warnings

from _common import check_backend, perturbed_systems, read_lines, wmt23_dir, wmt23_files

PAIR, SYSTEMS = "de-en", ("ONLINE-W", "GTCOM_Peter", "AIRC")


def find(name):
    """A WMT23 file: the full selection ($RAPIDBLEU_WMT23_DIR or ../shared/data/wmt23 beside the
    repository) first, else the 100-line samples in tests/data/wmt23."""
    return str(wmt23_files(name, wmt23_dir(name))[0])


read = read_lines


def build_corpus(n_segments):
    _src, tgt = PAIR.split("-")
    ref = read(find(f"generaltest2023.{PAIR}.ref.refA.{tgt}"))
    hyps = [read(find(f"generaltest2023.{PAIR}.hyp.{s}.{tgt}")) for s in SYSTEMS]
    shuffled, truncated = perturbed_systems(hyps[0], hyps[1])
    names = [*list(SYSTEMS), "ONLINE-W-shuf", "GTCOM-trunc"]
    systems = [*hyps, shuffled, truncated]
    reps = max(1, -(-n_segments // len(ref)))
    return names, [s * reps for s in systems], ref * reps


def child(tool, test, n_seg, n):
    warnings.simplefilter("ignore")
    names, systems, ref = build_corpus(n_seg)
    os.environ["SACREBLEU_SEED"] = "12345"
    t0 = time.perf_counter()
    if tool == "sacrebleu":
        from sacrebleu.metrics import BLEU
        from sacrebleu.significance import PairedTest

        metric = BLEU(references=[ref])
        cache = {id(s): metric._extract_corpus_statistics(s, None) for s in systems}
        t1, c1 = time.perf_counter(), time.process_time()
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        # Hand PairedTest the statistics computed above, so that only the test is timed.
        BLEU._extract_corpus_statistics = lambda _self, hyps, _refs: cache[id(hyps)]
        _sigs, scores = PairedTest(list(zip(names, systems, strict=False)), {"BLEU": metric}, None, test, n)()
        t2 = time.perf_counter()
        extract, test_time = t1 - t0, t2 - t1
    else:
        import rapidbleu
        from rapidbleu.significance import paired_ar, paired_bs

        metric = rapidbleu.BLEU(references=[ref])
        stats = [metric.corpus_statistics(s, None) for s in systems]
        t1, c1 = time.perf_counter(), time.process_time()
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        fn = paired_bs if test == "bs" else paired_ar
        res = fn(stats[0], stats[1:], metric, n)
        t2 = time.perf_counter()
        extract, test_time = t1 - t0, t2 - t1
        scores = {"BLEU": res}
    cpu = time.process_time() - c1
    rss2 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = {
        "extract": extract,
        "test": test_time,
        "cpu": cpu,
        "rss_before_mb": rss1 / 1024,
        "rss_peak_mb": rss2 / 1024,
        "results": [[r.score, r.p_value, r.mean, r.ci] for r in scores["BLEU"]],
    }
    print(json.dumps(out, default=float))


def run_child(tool, test, n_seg, n):
    env = dict(os.environ, RAPIDBLEU_BACKEND=os.environ.get("RAPIDBLEU_BACKEND", "auto"))
    p = subprocess.run(
        [sys.executable, __file__, "--child", tool, test, str(n_seg), str(n)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if p.returncode:
        sys.exit(f"{tool} {test} failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="2,196 segments, bs 200, ar 1,000")
    ap.add_argument("--segments", type=int, default=None)
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        tool, test, n_seg, n = args.child
        child(tool, test, int(n_seg), int(n))
        return
    check_backend()
    n_seg = args.segments or (2196 if args.quick else 20000)
    plan = [("bs", 200 if args.quick else 1000), ("ar", 1000 if args.quick else 10000)]
    names, systems, _ = build_corpus(n_seg)
    print(
        f"Corpus: WMT23 {PAIR}, {len(systems[0])} segments, {len(systems)} systems "
        f"(baseline {names[0]}); SACREBLEU_SEED=12345; {os.cpu_count()} CPUs\n"
    )
    print(
        "| test | n | sacreBLEU wall s (CPU s) | rapidbleu wall s (CPU s) | speed-up wall (CPU) "
        "| sacreBLEU peak RSS MB (+ for the test) | rapidbleu peak RSS MB (+ for the test) | results equal |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for test, n in plan:
        s = run_child("sacrebleu", test, n_seg, n)
        r = run_child("rapidbleu", test, n_seg, n)
        equal = s["results"] == r["results"]
        print(
            f"| paired-{test} | {n} | {s['test']:.2f} ({s['cpu']:.2f}) | {r['test']:.3f} ({r['cpu']:.3f}) "
            f"| {s['test'] / r['test']:.1f}x ({s['cpu'] / r['cpu']:.1f}x) "
            f"| {s['rss_peak_mb']:.0f} (+{s['rss_peak_mb'] - s['rss_before_mb']:.0f}) "
            f"| {r['rss_peak_mb']:.0f} (+{r['rss_peak_mb'] - r['rss_before_mb']:.0f}) | {equal} |",
            flush=True,
        )
    print(
        "\nTimes are for the test alone (statistics precomputed for both tools); CPU time includes "
        "BLAS threads. Peak RSS is the child process's maximum; '+' is its growth during the test."
    )


if __name__ == "__main__":
    main()
