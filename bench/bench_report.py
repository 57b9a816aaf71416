"""How long the comparison report takes, against sacreBLEU's --paired-bs on the same data.

    python bench/bench_report.py                   # 2,000 segments x 5 systems, 3 runs each
    python bench/bench_report.py --segments 500 --runs 1

Data: the WMT23 cs-uk test set (three submissions; the full data from $RAPIDBLEU_WMT23_DIR or
../shared/data/wmt23 beside the repository, else the 200-line samples in tests/data/wmt23),
plus two systems made from them (words of every third line shuffled; every fourth line cut to
half), cut or repeated to the requested number of segments and written to a temporary folder.

Each command runs in a fresh process and is timed from start to exit (interpreter start-up and
imports included, as a user sees it), ``--runs`` times; the table gives medians:

* ``rapidbleu --report report.html`` (HTML page with plots: paired bootstrap, 1,000 resamples);
* ``rapidbleu --report -`` (the same comparison as text tables);
* ``rapidbleu --paired-bs`` and ``sacrebleu --paired-bs`` (the table only, 1,000 resamples).

The ratios are sacreBLEU's ``--paired-bs`` time divided by each rapidbleu time.  Output: a
markdown table on stdout.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import check_backend, perturbed_systems, read_lines, wmt23_dir, wmt23_files

PAIR, SYSTEMS = "cs-uk", ("ONLINE-W", "GPT4-5shot", "ONLINE-Y")


def find(name):
    """A WMT23 file from the full selection if present, else from the samples in tests/."""
    return str(wmt23_files(name, wmt23_dir(name))[0])


read = read_lines


def build(n_segments, folder):
    tgt = PAIR.split("-")[1]
    ref = read(find(f"generaltest2023.{PAIR}.ref.refA.{tgt}"))
    hyps = [read(find(f"generaltest2023.{PAIR}.hyp.{s}.{tgt}")) for s in SYSTEMS]
    shuffled, cut = perturbed_systems(hyps[0], hyps[1])
    names = [*list(SYSTEMS), "ONLINE-W-shuffled", "GPT4-5shot-cut"]
    reps = -(-n_segments // len(ref))
    paths = []
    for name, lines in [("ref", ref), *list(zip(names, [*hyps, shuffled, cut], strict=False))]:
        p = str(Path(folder, f"{name}.{tgt}"))
        with open(p, "w", encoding="utf-8") as fh:
            fh.write("\n".join((lines * reps)[:n_segments]) + "\n")
        paths.append(p)
    return paths[0], paths[1:]


def timed(cmd, runs):
    env = {**os.environ, "SACREBLEU_SEED": "12345", "PYTHONWARNINGS": "ignore"}
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True, check=False)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {proc.stderr[-1000:]}")
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-sacrebleu", action="store_true", help="skip sacreBLEU (not installed)")
    args = ap.parse_args()
    check_backend()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        ref, systems = build(args.segments, tmp)
        out = str(Path(tmp, "report.html"))
        rows = [
            ("rapidbleu --report report.html", [py, "-m", "rapidbleu", ref, "-i", *systems, "--report", out, "-q"]),
            ("rapidbleu --report -", [py, "-m", "rapidbleu", ref, "-i", *systems, "--report", "-", "-q"]),
            ("rapidbleu --paired-bs", [py, "-m", "rapidbleu", ref, "-i", *systems, "--paired-bs", "-q"]),
        ]
        if not args.no_sacrebleu:
            rows.append(("sacrebleu --paired-bs", [py, "-m", "sacrebleu", ref, "-i", *systems, "--paired-bs", "-q"]))
        results = [(label, timed(cmd, args.runs)) for label, cmd in rows]
        size = Path(out).stat().st_size
    sacre = dict(results).get("sacrebleu --paired-bs")
    print(
        f"{args.segments} segments x {len(systems)} systems ({PAIR}), paired bootstrap with 1000 resamples, "
        f"median of {args.runs} runs, wall time per command (fresh process); HTML report {size / 1024:.0f} KiB\n"
    )
    print("| command | seconds | sacreBLEU --paired-bs / this |")
    print("|---|---:|---:|")
    for label, t in results:
        ratio = f"{sacre / t:.1f}x" if sacre else "-"
        print(f"| `{label}` | {t:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
