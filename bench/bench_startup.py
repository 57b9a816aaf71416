"""Whole-process start-up: ``rapidbleu REF -i HYP`` vs ``sacrebleu REF -i HYP`` on one WMT23
system, and ``import rapidbleu`` vs ``import sacrebleu``.

    python bench/bench_startup.py [--runs 21] [--before PYTHON] [--importtime]

Every command runs ``--runs`` times as a fresh subprocess (hyperfine-style: the runs of all
commands are interleaved, so load from other processes hits every command alike); the table
gives the median wall time and the ratio to sacreBLEU's median in the same run.  ``--before``
adds the same rows for another environment's interpreter (e.g. one with an older rapidbleu
installed), so before and after are measured in one run.  ``--importtime`` also prints the
largest entries of ``python -X importtime`` for ``import rapidbleu`` and ``import rapidbleu.cli``
(cumulative microseconds, one run each: indicative only).
Data: en-de ONLINE-W with reference A from the WMT23 folder (557 segments in the full
selection, 100 in tests/data/wmt23).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

from _common import check_backend, wmt23_files

check_backend()


def cli_cmd(python, tool, ref, hyp):
    # the console script's own code, run by that interpreter (as the entry point does)
    code = {
        "rapidbleu": "import sys; from rapidbleu.cli import main; sys.exit(main())",
        "sacrebleu": "import sys; from sacrebleu.sacrebleu import main; sys.exit(main())",
    }[tool]
    return [python, "-c", code, ref, "-i", hyp]


def run_all(cmds, runs):
    times = {name: [] for name, _ in cmds}
    outs = {}
    for _ in range(runs):
        for name, cmd in cmds:
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True, check=False)
            times[name].append(time.perf_counter() - t0)
            if p.returncode:
                sys.exit(f"{name} failed ({p.returncode}): {p.stderr[-2000:]}")
            outs[name] = p.stdout
    return {k: statistics.median(v) for k, v in times.items()}, outs


def importtime(python, module, top=12):
    p = subprocess.run(
        [python, "-X", "importtime", "-c", f"import {module}"], stderr=subprocess.PIPE, text=True, check=False
    )
    rows = []
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cum, name = line[len("import time:") :].split("|")
            if cum.strip().isdigit():
                rows.append((int(cum), name.rstrip()))
    total = next((c for c, n in rows if n.strip() == module), None)
    rows.sort(reverse=True)
    return total, rows[:top]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--before", default=None, help="interpreter of another environment to compare")
    ap.add_argument("--importtime", action="store_true")
    args = ap.parse_args()

    hyp = str(wmt23_files("generaltest2023.en-de.hyp.ONLINE-W.de")[0])
    ref = str(wmt23_files("generaltest2023.en-de.ref.refA.de")[0])
    with open(hyp, encoding="utf-8") as fh:
        n = sum(1 for _ in fh)
    py = sys.executable
    envs = [("", py)] + ([(" (before)", args.before)] if args.before else [])
    cmds = [
        ("python -c pass", [py, "-c", "pass"]),
        ("sacrebleu REF -i HYP", cli_cmd(py, "sacrebleu", ref, hyp)),
        ("import sacrebleu", [py, "-c", "import sacrebleu"]),
    ]
    for tag, exe in envs:
        cmds += [
            (f"rapidbleu REF -i HYP{tag}", cli_cmd(exe, "rapidbleu", ref, hyp)),
            (f"import rapidbleu{tag}", [exe, "-c", "import rapidbleu"]),
            (f"import rapidbleu.cli{tag}", [exe, "-c", "import rapidbleu.cli"]),
            (f"import numpy{tag}", [exe, "-c", "import numpy"]),
        ]
    med, outs = run_all(cmds, args.runs)
    print(
        f"{n} segments (en-de ONLINE-W); {args.runs} interleaved runs per command; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.1f}\n"
    )
    print("| command | median wall ms | sacreBLEU / this (same kind) |")
    print("| --- | ---: | ---: |")
    for name, _ in cmds:
        base = med["sacrebleu REF -i HYP"] if "REF" in name else med["import sacrebleu"] if "import" in name else None
        ratio = f"{base / med[name]:.2f}x" if base else "-"
        print(f"| `{name}` | {1000 * med[name]:.0f} | {ratio} |")
    a = outs["rapidbleu REF -i HYP"].split('"score": ')[1].split(",")[0]
    b = outs["sacrebleu REF -i HYP"].split('"score": ')[1].split(",")[0]
    print(f"\nscores: rapidbleu {a}, sacrebleu {b}: {'equal' if a == b else 'DIFFERENT'}")
    if args.importtime:
        for tag, exe in envs:
            for module in ("rapidbleu", "rapidbleu.cli", "sacrebleu"):
                total, rows = importtime(exe, module)
                print(
                    f"\n`python -X importtime -c 'import {module}'`{tag}: {total / 1000:.1f} ms; largest (cumulative us):"
                )
                print("```")
                print("\n".join(f"{c:>8} {name}" for c, name in rows))
                print("```")


if __name__ == "__main__":
    main()
