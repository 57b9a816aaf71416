"""Benchmark of chrF and chrF++: rapidbleu against sacreBLEU 2.6.0 (and fastchrf, sacrebleu-mojo).

In one run, on the WMT23 selection (every system output with its first reference, all pairs
concatenated) and on a large corpus (that concatenation repeated 6 times):

* corpus chrF and chrF++: sacreBLEU's ``CHRF().corpus_score``; rapidbleu's compiled core with
  1 and 2 threads; the pure-Python backend; sacrebleu-mojo's ``corpus_chrf`` (Python >= 3.12
  only: timed in a child process of the interpreter given by ``--mojo-python``, on the same
  files);
* the command line, ``-m chrf`` and ``-m chrf -cw 2`` (chrF++), whole processes: ``sacrebleu``
  against ``rapidbleu`` (``--workers 1`` and ``2``) on one WMT23 system (en-de ONLINE-W, 557
  segments) and on all of WMT23 as one file; CPU time is the child processes' (user + system);
* sentence chrF of every segment: a loop of sacreBLEU's ``sentence_score``; rapidbleu's
  ``rapidbleu.batch.sentence_chrf_batch``; fastchrf's ``pairwise_chrf`` with one hypothesis and
  one reference per "source" (character n-grams only);
* a 256 x 256 pairwise chrF matrix (the MBR utility): sacreBLEU's ``sentence_score`` for each
  pair; rapidbleu's ``rapidbleu.batch.pairwise_chrf``; fastchrf's ``pairwise_chrf``;
* peak memory of one very long line (``--bigline MB``), in a child process.

Every result is compared with sacreBLEU's (exact float equality; otherwise the largest
difference is shown).  Times are medians of ``--runs`` runs (wall and CPU of this process;
on a shared machine CPU time is the steadier number); sacreBLEU runs once, and where it would
take minutes it runs on a part and is scaled linearly (the table says so).

Usage: python bench/bench_chrf.py [--runs 5] [--mojo-python PYTHON3.12] [--bigline 10]
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import check_backend, machine_info, median_time, read_lines, shown_path, wmt23_files

MOJO_CHILD = r"""
import json, sys, time
import sacrebleu_mojo
hyps, refs, word_orders, runs = json.load(sys.stdin)
out = {"info": sacrebleu_mojo.backend_info()}
for wo in word_orders:
    times, score = [], None
    for _ in range(runs):
        t = time.perf_counter()
        score = sacrebleu_mojo.corpus_chrf(hyps, [refs], word_order=wo).score
        times.append(time.perf_counter() - t)
    times.sort()
    out[str(wo)] = [times[len(times) // 2], score]
print(json.dumps(out))
"""


def load_corpus():
    """(hypotheses, references): every WMT23 system output with its pair's first reference."""
    hyps, refs = [], []
    for hyp_path in wmt23_files("generaltest2023.*.hyp.*"):
        _, pair, _, _system, lang = hyp_path.name.split(".")
        ref_path = sorted(wmt23_files(f"generaltest2023.{pair}.ref.*.{lang}"))[0]
        hyps += read_lines(hyp_path)
        refs += read_lines(ref_path)
    return hyps, refs


def run_cli(cmd, runs):
    """Run a command ``runs`` times: (median wall s, median CPU s of the child process: user +
    system, its standard output)."""
    walls, cpus, out = [], [], ""
    for _ in range(max(1, runs)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2], cpus[len(cpus) // 2], out


def compare(got, want):
    """'exact', or the largest absolute difference."""
    got, want = [float(x) for x in got], [float(x) for x in want]
    if got == want:
        return "exact"
    return f"max abs diff {max(abs(a - b) for a, b in zip(got, want, strict=True)):.2e}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each rapidbleu timing (median)")
    ap.add_argument("--reps", type=int, default=6, help="copies of WMT23 in the large corpus")
    ap.add_argument("--mojo-python", help="a Python >= 3.12 with sacrebleu-mojo installed")
    ap.add_argument("--bigline", type=float, default=10, help="MB of the long-line memory check (0: skip)")
    ap.add_argument("--sentence-part", type=int, default=3000, help="segments sacreBLEU's loop is timed on")
    args = ap.parse_args()

    rapidbleu = check_backend()
    import numpy as np
    import sacrebleu

    from rapidbleu._core import backend as _backend
    from rapidbleu.batch import pairwise_chrf, sentence_chrf_batch

    print(machine_info())
    hyps, refs = load_corpus()
    big_h, big_r = hyps * args.reps, refs * args.reps
    chars = sum(map(len, hyps)) + sum(map(len, refs))
    print(
        f"WMT23: {len(hyps)} segments, {chars / 1e6:.1f} M characters (hypotheses + references); "
        f"large corpus: {len(big_h)} segments ({args.reps} x WMT23)\n"
    )
    rows = []  # (section, tool, wall, cpu, speed-up wall, speed-up cpu, check, note)

    def add(section, tool, wall, cpu, base_wall, base_cpu, check, note=""):
        rows.append((section, tool, wall, cpu, base_wall / wall, base_cpu / cpu if cpu else float("nan"), check, note))

    # -- corpus chrF / chrF++ ------------------------------------------------------------------
    mojo = {}
    if args.mojo_python:
        payload = json.dumps([hyps, refs, [0, 2], args.runs])
        res = subprocess.run(
            [args.mojo_python, "-c", MOJO_CHILD], input=payload, capture_output=True, text=True, check=False
        )
        if res.returncode == 0:
            mojo = json.loads(res.stdout)
            print(f"sacrebleu-mojo: {mojo['info'].get('native_source', mojo['info'])}")
        else:
            print(f"sacrebleu-mojo not run: {res.stderr.strip().splitlines()[-1:]}")
    else:
        print("sacrebleu-mojo not run: give --mojo-python (it needs Python >= 3.12)")

    for wo, label in ((0, "chrF"), (2, "chrF++")):
        sb_wall, sb_cpu, sb = median_time(lambda wo=wo: sacrebleu.CHRF(word_order=wo).corpus_score(hyps, [refs]), 1)
        section = f"WMT23 corpus {label}"
        add(section, "sacreBLEU corpus_score", sb_wall, sb_cpu, sb_wall, sb_cpu, f"{sb.score:.4f}", "1 run")
        for workers in (1, 2):
            w, c, s = median_time(
                lambda wo=wo, workers=workers: rapidbleu.CHRF(word_order=wo, workers=workers).corpus_score(
                    hyps, [refs]
                ),
                args.runs,
            )
            add(
                section, f"rapidbleu cython, {workers} thread(s)", w, c, sb_wall, sb_cpu, compare([s.score], [sb.score])
            )
        saved = _backend.chrf
        _backend.chrf = _backend.select("python", "chrf")
        try:
            w, c, s = median_time(lambda wo=wo: rapidbleu.CHRF(word_order=wo).corpus_score(hyps, [refs]), 1)
        finally:
            _backend.chrf = saved
        add(section, "rapidbleu python backend", w, c, sb_wall, sb_cpu, compare([s.score], [sb.score]), "1 run")
        if str(wo) in mojo:
            m_wall, m_score = mojo[str(wo)]
            add(
                section,
                "sacrebleu-mojo corpus_chrf (Python 3.12)",
                m_wall,
                0,
                sb_wall,
                sb_cpu,
                compare([m_score], [sb.score]),
                "child process; wall only",
            )

        section = f"large corpus {label}"
        big_wall, big_cpu = sb_wall * args.reps, sb_cpu * args.reps
        add(
            section,
            "sacreBLEU corpus_score",
            big_wall,
            big_cpu,
            big_wall,
            big_cpu,
            f"{sb.score:.4f}",
            f"timed on WMT23, x {args.reps}",
        )
        for workers in (1, 2):
            w, c, s = median_time(
                lambda wo=wo, workers=workers: rapidbleu.CHRF(word_order=wo, workers=workers).corpus_score(
                    big_h, [big_r]
                ),
                args.runs,
            )
            add(
                section,
                f"rapidbleu cython, {workers} thread(s)",
                w,
                c,
                big_wall,
                big_cpu,
                compare([s.score], [sb.score]),
            )

    # -- the command line -----------------------------------------------------------------------------
    with tempfile.TemporaryDirectory(prefix="bench-chrf-") as tmp:
        all_h, all_r = Path(tmp) / "wmt23.hyp", Path(tmp) / "wmt23.ref"
        all_h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        all_r.write_text("\n".join(refs) + "\n", encoding="utf-8")
        one_h = wmt23_files("generaltest2023.en-de.hyp.ONLINE-W.de")[0]
        one_r = wmt23_files("generaltest2023.en-de.ref.*.de")[0]
        for (h, r, what), (extra, label) in (
            (inputs, metric)
            for inputs in (
                (one_h, one_r, "en-de ONLINE-W, 557 segments"),
                (all_h, all_r, f"WMT23, {len(hyps)} segments"),
            )
            for metric in (([], "chrF"), (["-cw", "2"], "chrF++"))
        ):
            section = f"CLI -m chrf, {label}, {what}"
            args_ = [str(r), "-i", str(h), "-m", "chrf", *extra, "-b", "-w", "6", "-q"]
            sb_wall, sb_cpu, sb_out = run_cli([sys.executable, "-m", "sacrebleu", *args_], 1)
            add(section, "sacrebleu", sb_wall, sb_cpu, sb_wall, sb_cpu, sb_out, "1 run")
            for workers in (1, 2):
                w, c, out = run_cli([sys.executable, "-m", "rapidbleu", *args_, "--workers", str(workers)], args.runs)
                check = "exact" if out == sb_out else f"{out} vs {sb_out}"
                add(section, f"rapidbleu --workers {workers}", w, c, sb_wall, sb_cpu, check)

    # -- sentence chrF of every segment ------------------------------------------------------------
    part = min(args.sentence_part, len(hyps))
    step = max(1, len(hyps) // part)
    sub_h, sub_r = hyps[::step][:part], refs[::step][:part]
    theirs = sacrebleu.CHRF()
    sb_wall, sb_cpu, sb_scores = median_time(
        lambda: [theirs.sentence_score(h, [r]).score for h, r in zip(sub_h, sub_r, strict=True)], 1
    )
    scale = len(hyps) / len(sub_h)
    sb_wall, sb_cpu = sb_wall * scale, sb_cpu * scale
    section = "WMT23 sentence chrF (every segment)"
    add(
        section,
        "sacreBLEU sentence_score loop",
        sb_wall,
        sb_cpu,
        sb_wall,
        sb_cpu,
        "-",
        f"1 run on {len(sub_h)} segments, scaled",
    )
    for workers in (1, 2):
        w, c, got = median_time(lambda workers=workers: sentence_chrf_batch(hyps, refs, workers=workers), args.runs)
        add(
            section,
            f"rapidbleu sentence_chrf_batch, {workers} thread(s)",
            w,
            c,
            sb_wall,
            sb_cpu,
            compare(got[::step][:part], sb_scores),
        )
    try:
        import fastchrf

        w, c, got = median_time(
            lambda: fastchrf.pairwise_chrf(
                [[h] for h in hyps],
                [[r] for r in refs],
                char_order=6,
                beta=2.0,
                remove_whitespace=True,
                eps_smoothing=False,
            ),
            args.runs,
        )
        flat = [x[0][0] for x in got]
        add(
            section,
            "fastchrf pairwise_chrf (1 x 1 per segment)",
            w,
            c,
            sb_wall,
            sb_cpu,
            compare(flat[::step][:part], sb_scores),
        )
    except ImportError:
        print("fastchrf not installed: its rows are missing")

    # -- 256 x 256 pairwise matrix -----------------------------------------------------------------
    sents = [h for h in hyps if h][:: max(1, len(hyps) // 256)][:256]
    sb_rows = 32
    sb_wall, sb_cpu, sb_part = median_time(
        lambda: [[theirs.sentence_score(a, [b]).score for b in sents] for a in sents[:sb_rows]], 1
    )
    scale = len(sents) / sb_rows
    sb_wall, sb_cpu = sb_wall * scale, sb_cpu * scale
    section = f"pairwise chrF {len(sents)} x {len(sents)}"
    add(
        section,
        "sacreBLEU sentence_score per pair",
        sb_wall,
        sb_cpu,
        sb_wall,
        sb_cpu,
        "-",
        f"1 run on {sb_rows} rows, scaled",
    )
    for workers in (1, 2):
        w, c, got = median_time(lambda workers=workers: pairwise_chrf(sents, workers=workers), args.runs)
        add(
            section,
            f"rapidbleu pairwise_chrf, {workers} thread(s)",
            w,
            c,
            sb_wall,
            sb_cpu,
            compare(np.asarray(got[:sb_rows]).ravel(), np.ravel(sb_part)),
        )
    try:
        import fastchrf

        w, c, got = median_time(
            lambda: fastchrf.pairwise_chrf(
                [sents], [sents], char_order=6, beta=2.0, remove_whitespace=True, eps_smoothing=False
            ),
            args.runs,
        )
        add(
            section,
            "fastchrf pairwise_chrf",
            w,
            c,
            sb_wall,
            sb_cpu,
            compare(np.asarray(got[0])[:sb_rows].ravel(), np.ravel(sb_part)),
        )
    except ImportError:
        pass

    print("| section | tool | wall s | CPU s | speed-up (wall) | speed-up (CPU) | check | notes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for section, tool, wall, cpu, sw, sc, check, note in rows:
        cpu_s = f"{cpu:.3f}" if cpu else "-"
        sc_s = f"{sc:.1f}x" if cpu else "-"
        print(f"| {section} | {tool} | {wall:.3f} | {cpu_s} | {sw:.1f}x | {sc_s} | {check} | {note} |")

    # -- one very long line -------------------------------------------------------------------------
    if args.bigline > 0:
        print(
            f"\nOne line of {args.bigline:g} MB (hypothesis) and one of the same size (reference), ASCII words; "
            "peak RSS of a child process during the call over its RSS before (the peak is reset first), per character of the two lines:\n"
        )
        print("| text | chrF | peak MB | bytes per character | wall s |")
        print("| --- | --- | ---: | ---: | ---: |")
        child = str(Path(__file__).absolute().parent / "bench_chrf.py")
        for text in ("repeated", "shuffled"):
            for wo in (0, 2):
                res = subprocess.run(
                    [sys.executable, child, "--bigline-child", str(args.bigline), str(wo), text],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                peak, per_char, wall = json.loads(res.stdout)
                print(f"| {text} | {'chrF++' if wo else 'chrF'} | {peak:.0f} | {per_char:.1f} | {wall:.2f} |")
    print(f"\n(rapidbleu from {shown_path(Path(rapidbleu.__file__).parent)})")


def bigline_child(mb, wo, text):
    """One long line and its reference: (peak RSS growth MB, bytes per character, wall s)."""
    import random

    from rapidbleu._core.chrf import chrf_cy as _chrf_cy

    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(20000)]
    n = int(mb * 1e6)
    if text == "shuffled":  # most long n-grams distinct
        hyp = " ".join(rng.choice(words) for _ in range(n // 5))[:n]
        ref = " ".join(rng.choice(words) for _ in range(n // 5))[:n]
    else:  # one paragraph over and over
        hyp = (" ".join(words[:300]) * (n // 1500 + 1))[:n]
        ref = (" ".join(words[5:310]) * (n // 1500 + 1))[:n]
    del words
    before = _reset_peak()
    t = time.perf_counter()
    _chrf_cy.chrf_stats([hyp], [[ref]], {"char_order": 6, "word_order": wo})
    wall = time.perf_counter() - t
    grown = _peak() - before
    print(json.dumps([grown / 1e6, grown / (len(hyp) + len(ref)), wall]))


def _status(field):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(field))


def _reset_peak():
    """Reset the peak RSS to the current RSS (Linux: /proc/self/clear_refs) and return it, so
    that the peak after a call is the call's own (the text built before it may have peaked
    higher)."""
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    return _status("VmRSS:")


def _peak():
    return _status("VmHWM:")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--bigline-child":
        bigline_child(float(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        main()
