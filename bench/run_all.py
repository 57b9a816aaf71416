"""Every benchmark in one run, one after the other, into one Markdown file: the run that the
README's performance table is taken from.

    python bench/run_all.py [--out bench/results_all.md] [--quick] [--only core,nltk,...]

Each script runs as a subprocess with the interpreter running this one (time the installed
package: ``pip install .`` first); its output is copied under a heading with the exact command,
its wall time and the load average when it started, so a noisy run can be seen as one.
``bench_scale.py`` (minutes of Spark and Dask at 1 M segments) and ``bench_gpu_tensors.py``
(needs a CUDA device) are not part of it; run them on their own.
"""

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (name, script and arguments of the full run, arguments with --quick)
RUNS = [
    ("core", ["bench_core.py"], ["bench_core.py", "--quick"]),
    ("tokenizers", ["bench_tokenizers.py"], ["bench_tokenizers.py", "--repeat", "2"]),
    ("startup", ["bench_startup.py", "--runs", "15"], ["bench_startup.py", "--runs", "5"]),
    ("nltk1", ["bench_nltk.py", "--workers", "1"], ["bench_nltk.py", "--quick", "--workers", "1"]),
    ("nltk2", ["bench_nltk.py", "--workers", "2"], ["bench_nltk.py", "--quick", "--workers", "2"]),
    ("ids", ["bench_ids.py"], ["bench_ids.py", "--quick"]),
    ("small", ["bench_small_batches.py", "--repeat", "15"], ["bench_small_batches.py", "--repeat", "5"]),
    ("per_call", ["bench_per_call.py"], ["bench_per_call.py", "--segments", "100", "--rounds", "3"]),
    ("significance", ["bench_significance.py"], ["bench_significance.py", "--quick"]),
    ("bigline", ["bench_bigline.py", "--mb", "50"], ["bench_bigline.py", "--mb", "5"]),
    ("reader", ["bench_reader.py"], ["bench_reader.py", "--mb", "10", "--runs", "1"]),
    ("report", ["bench_report.py"], ["bench_report.py", "--segments", "500", "--runs", "1"]),
    ("chrf", ["bench_chrf.py"], ["bench_chrf.py", "--runs", "2", "--bigline", "2", "--sentence-part", "1000"]),
    ("ter", ["bench_ter.py"], ["bench_ter.py", "--quick", "--skip-python"]),
    ("test_sets", ["bench_test_sets.py"], ["bench_test_sets.py", "--runs", "1"]),
    (
        "mbr",
        ["bench_mbr.py"],
        ["bench_mbr.py", "--runs", "1", "--size", "256", "--sources", "50", "--part", "3", "--fastchrf-part", "20"],
    ),
]


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(HERE / "results_all.md"))
    ap.add_argument("--quick", action="store_true", help="the scripts' smoke sizes (minutes, not tens of minutes)")
    ap.add_argument("--only", default="", help="comma-separated names: " + ", ".join(r[0] for r in RUNS))
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    unknown = only - {r[0] for r in RUNS}
    if unknown:
        sys.exit(f"unknown benchmark name(s): {', '.join(sorted(unknown))}")
    out = Path(args.out)
    failed = []
    with out.open("w", encoding="utf-8") as fh:
        fh.write(
            f"# All benchmarks in one run ({'quick' if args.quick else 'full'})\n\n"
            f"`python bench/run_all.py{' --quick' if args.quick else ''}` at commit {commit()}, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs ({platform.machine()}).\n"
        )
        for name, full, quick in RUNS:
            if only and name not in only:
                continue
            cmd = quick if args.quick else full
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            t0 = time.perf_counter()
            print(f"== {name}: python bench/{' '.join(cmd)}", flush=True)
            p = subprocess.run(
                [sys.executable, str(HERE / cmd[0]), *cmd[1:]], cwd=HERE, capture_output=True, text=True, check=False
            )
            wall = time.perf_counter() - t0
            fh.write(
                f"\n## {name}\n\n`python bench/{' '.join(cmd)}`: {wall:.0f} s, load average {load:.1f} "
                f"at the start{'' if p.returncode == 0 else f', FAILED (exit {p.returncode})'}\n\n"
            )
            fh.write(p.stdout.rstrip() + "\n")
            if p.returncode:
                fh.write("\n```\n" + p.stderr[-3000:] + "\n```\n")
                failed.append(name)
            fh.flush()
            print(f"   {wall:.0f} s{'' if p.returncode == 0 else ' FAILED'}", flush=True)
    print(f"written: {out}")
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
