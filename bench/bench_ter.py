"""Benchmark of TER: rapidbleu (compiled, 1 and 2 threads; pure Python) against sacreBLEU, one run.

    python bench/bench_ter.py [--quick] [--data DIR] [--every K] [--options normalized,...]
    python bench/bench_ter.py --cli-only [--cli-lines N]

Corpora (reference A of each pair):

* **en-de ONLINE-W**: one WMT23 en-de system, 557 paragraph-level segments.  sacreBLEU is timed
  once on all of it (minutes); rapidbleu's times are medians of several runs.
* **WMT23**: every WMT23 output (33,471 segments).  sacreBLEU is timed once on every K-th
  segment of every output (default K = 10; 50 with ``--quick``) and scaled by the segments it
  skipped, output by output (its cost per segment varies by two orders of magnitude between
  paragraphs and sentences); rapidbleu runs on all of it.  Per-output rows follow.
* **large**: WMT23 six times (200,826 segments), rapidbleu only, 1 and 2 threads; the
  sacreBLEU column is the WMT23 estimate times six.

* **command line**: ``sacrebleu`` against ``rapidbleu`` (``--workers 1``), each a child
  process timed whole (start-up included; CPU = the child's user + system time), on the first
  ``--cli-lines`` lines (default 200) of WMT23 files: ``-m ter`` on one de-en system, ``-m ter
  --ter-normalized`` on he-en with its two references, ``-m bleu chrf ter`` on three de-en
  systems (a table), and ``-m ter --paired-bs`` on them (1,000 resamples).  sacreBLEU runs once,
  rapidbleu's figures are medians of 3 runs; the outputs are compared byte for byte (apart
  from ``version:``).

Every rapidbleu score is checked against sacreBLEU's on what sacreBLEU scored (float for float);
mismatches are printed.  CPU time is the steadier number on a shared machine.  The share of
tercom's tokenizer (Python, in both backends) in rapidbleu's time is measured separately.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import check_backend, machine_info, median_time, read_lines, wmt23_dir, wmt23_files

rapidbleu = check_backend()
from rapidbleu._core import backend as _backend  # noqa: E402
from rapidbleu._core.ter.ter_py import segment_words  # noqa: E402

OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")


def load(data):
    """[(output name, hypotheses, references A)] for every WMT23 output."""
    out = []
    for path in wmt23_files("generaltest2023.*.hyp.*", data):
        pair, system, lang = path.name.split(".")[1], path.name.split(".")[3], path.name.rsplit(".", 1)[1]
        ref = wmt23_files(f"generaltest2023.{pair}.ref.refA.{lang}", data)[0]
        out.append((f"{pair} {system}", read_lines(path), read_lines(ref)))
    return out


def with_backend(module, fn):
    saved = _backend.ter
    _backend.ter = module
    try:
        return fn()
    finally:
        _backend.ter = saved


def run_cli(cmd, runs):
    """Run a command ``runs`` times: (median wall s, median CPU s of the child process: user +
    system, its standard output with the version in signatures removed)."""
    walls, cpus, out = [], [], ""
    for _ in range(max(1, runs)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2], cpus[len(cpus) // 2], re.sub(r"(version:|v:|\"version\": \")[^|\"\s]+", r"\1X", out)


def cli_rows(data, lines, runs):
    """The command-line rows (module docstring): [(case, tool, wall, CPU, wall ratio, CPU ratio,
    output check)]."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:

        def head(pattern):
            out = []
            for path in sorted(wmt23_files(pattern, data)):
                target = Path(tmp) / path.name
                target.write_text("".join(f"{x}\n" for x in read_lines(path)[:lines]), "utf-8")
                out.append(str(target))
            return out

        de_ref, de_hyps = head("generaltest2023.de-en.ref.refA.en"), head("generaltest2023.de-en.hyp.*.en")
        he_refs, he_hyp = head("generaltest2023.he-en.ref.ref*.en"), head("generaltest2023.he-en.hyp.ONLINE-B.en")
        cases = [
            (f"-m ter, de-en {Path(de_hyps[0]).name.split('.')[3]}", [*de_ref, "-i", de_hyps[0], "-m", "ter"]),
            ("-m ter --ter-normalized, he-en ONLINE-B, 2 references", [*he_refs, "-i", *he_hyp, "-m", "ter"]),
            (f"-m bleu chrf ter, {len(de_hyps)} de-en systems", [*de_ref, "-i", *de_hyps, "-m", "bleu", "chrf", "ter"]),
            (
                f"-m ter --paired-bs (1000), {len(de_hyps)} de-en systems",
                [*de_ref, "-i", *de_hyps, "-m", "ter", "--paired-bs", "-f", "text"],
            ),
        ]
        cases[1][1].append("--ter-normalized")
        for what, argv in cases:
            case = f"CLI {what} (first {lines} lines)"
            sb_wall, sb_cpu, sb_out = run_cli([sys.executable, "-m", "sacrebleu", *argv, "-q"], 1)
            rows.append((case, "sacrebleu", sb_wall, sb_cpu, 1.0, 1.0, "1 run"))
            wall, cpu, out = run_cli([sys.executable, "-m", "rapidbleu", *argv, "-q", "--workers", "1"], runs)
            check = "output identical" if out == sb_out else "OUTPUT DIFFERS"
            rows.append(
                (case, "rapidbleu --workers 1", wall, cpu, sb_wall / wall, sb_cpu / cpu, f"{check}; {runs} runs")
            )
    return rows


def print_cli_rows(rows):
    print("| command line | tool | wall s | CPU s | speed-up (wall) | speed-up (CPU) | notes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for case, tool, wall, cpu, ratio, cpu_ratio, note in rows:
        print(f"| {case} | {tool} | {wall:.3f} | {cpu:.3f} | {ratio:.0f}x | {cpu_ratio:.0f}x | {note} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs; sacreBLEU on every 50th WMT23 segment")
    ap.add_argument("--data", default=None, help="WMT23 folder (default: $RAPIDBLEU_WMT23_DIR, ../shared/data/wmt23)")
    ap.add_argument("--every", type=int, default=None, help="sacreBLEU on every K-th WMT23 segment (default 10)")
    ap.add_argument("--options", default="", help="TER switches to turn on, comma-separated (e.g. normalized)")
    ap.add_argument("--skip-python", action="store_true", help="do not time the pure-Python backend")
    ap.add_argument("--cli-lines", type=int, default=200, help="lines of each file in the command-line rows")
    ap.add_argument("--cli-only", action="store_true", help="only the command-line rows")
    args = ap.parse_args()
    options = {name: name in args.options.split(",") for name in OPTION_NAMES}
    every = args.every or (50 if args.quick else 10)
    runs = 3 if args.quick else 5
    data = Path(args.data) if args.data else wmt23_dir("generaltest2023.*.hyp.*")

    import sacrebleu

    from rapidbleu._core.ter import ter_py as _ter_py

    try:
        from rapidbleu._core.ter import ter_cy as _ter_cy
    except ImportError as exc:
        sys.exit(f"compiled core not built ({exc}): pip install .")

    print(machine_info())
    if args.cli_only:
        print(f"sacreBLEU {sacrebleu.__version__}\n")
        print_cli_rows(cli_rows(data, args.cli_lines, 3))
        return
    outputs = load(data)
    print(f"TER options: {options}; sacreBLEU {sacrebleu.__version__}\n")
    rows, mismatches = [], []

    def ours(module, workers, hyps, refs):
        return with_backend(module, lambda: rapidbleu.TER(**options, workers=workers).corpus_score(hyps, [refs]))

    def sacre(hyps, refs):
        return sacrebleu.TER(**options).corpus_score(hyps, [refs])

    def check(where, tool, got, want):
        if (got.score, got.num_edits, got.ref_length) != (want.score, want.num_edits, want.ref_length):
            mismatches.append(f"{where} / {tool}: {got} != sacreBLEU {want}")

    def row(corpus, tool, wall, cpu, sb_wall, sb_cpu, score, note):
        rows.append(
            (corpus, tool, wall, cpu, sb_wall / wall, sb_cpu / cpu if cpu == cpu else float("nan"), score, note)
        )

    # -- one en-de system -------------------------------------------------------------------
    name, hyps, refs = next(o for o in outputs if o[0] == "en-de ONLINE-W")
    corpus = f"{name} ({len(hyps)} segments)"
    sb_wall, sb_cpu, want = median_time(lambda: sacre(hyps, refs), 1)
    row(corpus, "sacreBLEU corpus_score", sb_wall, sb_cpu, sb_wall, sb_cpu, f"{want.score:.4f}", "1 run")
    for tool, module, workers, k in (
        ("rapidbleu cython, 1 thread", _ter_cy, 1, runs),
        ("rapidbleu cython, 2 threads", _ter_cy, 2, runs),
        ("rapidbleu python backend", _ter_py, 1, 1),
    ):
        if module is _ter_py and args.skip_python:
            continue
        wall, cpu, got = median_time(lambda: ours(module, workers, hyps, refs), k)
        check(corpus, tool, got, want)
        row(
            corpus,
            tool,
            wall,
            cpu if workers == 1 else float("nan"),
            sb_wall,
            sb_cpu,
            f"{got.score:.4f}",
            f"{k} run(s)",
        )
    _, tc, _ = median_time(lambda: list(segment_words(hyps, [refs], options)), runs)
    tokenizer_share = [(corpus, tc, rows[1][3])]

    # -- every WMT23 output -----------------------------------------------------------------
    per_output = []
    sb_total_wall = sb_total_cpu = 0.0
    for name, hyps, refs in outputs:
        idx = list(range(0, len(hyps), every))
        h, r = [hyps[i] for i in idx], [refs[i] for i in idx]
        w, c, want = median_time(lambda: sacre(h, r), 1)
        scale = len(hyps) / len(idx)
        sb_total_wall += w * scale
        sb_total_cpu += c * scale
        got = ours(_ter_cy, 1, h, r)
        check(f"{name} every {every}th", "rapidbleu cython", got, want)
        ow, oc, full = median_time(lambda: ours(_ter_cy, 1, hyps, refs), 1)
        per_output.append((name, len(hyps), w * scale, c * scale, ow, oc, full.score))
    all_h = [x for _, h, _ in outputs for x in h]
    all_r = [x for _, _, r in outputs for x in r]
    corpus = f"WMT23 ({len(all_h)} segments)"
    note = f"1 run on every {every}th segment of each output, scaled"
    rows.append((corpus, "sacreBLEU corpus_score", sb_total_wall, sb_total_cpu, 1.0, 1.0, "-", note))
    for tool, workers in (("rapidbleu cython, 1 thread", 1), ("rapidbleu cython, 2 threads", 2)):
        wall, cpu, got = median_time(lambda: ours(_ter_cy, workers, all_h, all_r), 3 if not args.quick else 1)
        row(
            corpus,
            tool,
            wall,
            cpu if workers == 1 else float("nan"),
            sb_total_wall,
            sb_total_cpu,
            f"{got.score:.4f}",
            "3 runs" if not args.quick else "1 run",
        )
    _, tc, _ = median_time(lambda: list(segment_words(all_h, [all_r], options)), 1)
    tokenizer_share.append((corpus, tc, rows[-2][3]))

    # -- large: WMT23 six times ---------------------------------------------------------------
    big_h, big_r = all_h * 6, all_r * 6
    corpus = f"large ({len(big_h)} segments, WMT23 x 6)"
    rows.append(
        (corpus, "sacreBLEU (WMT23 estimate x 6)", 6 * sb_total_wall, 6 * sb_total_cpu, 1.0, 1.0, "-", "scaled")
    )
    for tool, workers in (("rapidbleu cython, 1 thread", 1), ("rapidbleu cython, 2 threads", 2)):
        wall, cpu, got = median_time(lambda: ours(_ter_cy, workers, big_h, big_r), 1)
        row(
            corpus,
            tool,
            wall,
            cpu if workers == 1 else float("nan"),
            6 * sb_total_wall,
            6 * sb_total_cpu,
            f"{got.score:.4f}",
            "1 run",
        )

    print("| corpus | tool | wall s | CPU s | speed-up (wall) | speed-up (CPU) | TER | notes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for corpus, tool, wall, cpu, ratio, cpu_ratio, score, note in rows:
        cpu_s = "-" if cpu != cpu else f"{cpu:.3f}"
        cpu_r = "-" if cpu_ratio != cpu_ratio else f"{cpu_ratio:.0f}x"
        print(f"| {corpus} | {tool} | {wall:.3f} | {cpu_s} | {ratio:.0f}x | {cpu_r} | {score} | {note} |")

    print(
        "\nEvery WMT23 output (sacreBLEU: every", f"{every}th segment, scaled; rapidbleu: compiled, 1 thread, 1 run)\n"
    )
    print("| output | segments | sacreBLEU CPU s (est.) | rapidbleu CPU s | speed-up (CPU) | TER |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, n, _sw, sc, _ow, oc, score in per_output:
        print(f"| {name} | {n} | {sc:.1f} | {oc:.3f} | {sc / oc:.0f}x | {score:.4f} |")

    print("\nThe command line (child processes, start-up included)\n")
    print_cli_rows(cli_rows(data, args.cli_lines, 3))

    print("\nShare of tercom's tokenizer (Python, both backends) in rapidbleu's 1-thread CPU time:")
    for corpus, tok_cpu, total_cpu in tokenizer_share:
        print(f"  {corpus}: {tok_cpu:.3f} s of {total_cpu:.3f} s ({100 * tok_cpu / total_cpu:.0f}%)")
    print()
    print(
        "\n".join(f"MISMATCH: {m}" for m in mismatches) or "Every rapidbleu score equals sacreBLEU's, float for float."
    )
    print(f"(os.cpu_count() = {os.cpu_count()})")


if __name__ == "__main__":
    main()
