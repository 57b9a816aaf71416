"""The command line's reader (``rapidbleu.textio.LineReader``) on one very long line and on
ordinary lines: wall and CPU time and peak RSS of reading every line, medians of fresh
subprocesses (the versions compared take turns).

    python bench/bench_reader.py [--mb 25,50,100,200] [--before OLD_TEXTIO.py] [--runs 3] [--cli]

Inputs (written once to a temporary folder): ``long``, one line of N MB of ASCII words without
a final newline (the case that was quadratic: the unfinished line was concatenated with every
new 1 MB block); ``lines``, N MB of a WMT23 English file's lines repeated (the ordinary case).
``--before`` times another version of ``textio.py`` on the same files (it imports nothing from
the package: ``git show REV:src/rapidbleu/textio.py > old.py``); ``--cli`` also times
``python -m rapidbleu FILE -i FILE -b -tok none`` on the long line (reading twice plus scoring).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import wmt23_files

CHILD = r"""
import importlib.util, json, resource, sys, time
textio_path, path = sys.argv[1], sys.argv[2]
if textio_path == "-":
    from rapidbleu import textio
else:
    spec = importlib.util.spec_from_file_location("textio_under_test", textio_path)
    textio = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(textio)
t, c = time.perf_counter(), time.process_time()
reader = textio.LineReader(path)
n = chars = 0
while True:
    got = reader.read(20000)
    if not got:
        break
    n += len(got)
    chars += sum(map(len, got))
wall, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"wall": wall, "cpu": cpu, "lines": n, "chars": chars,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def write_inputs(folder: Path, mb: int) -> dict[str, Path]:
    text = wmt23_files("generaltest2023.de-en.ref.refA.en")[0].read_text("utf-8")
    size = mb * 1_000_000
    long = folder / f"long-{mb}.txt"
    words = " ".join(text.split())
    with long.open("w", encoding="ascii", errors="replace") as fh:
        left = size
        while left > 0:
            piece = words[:left]
            fh.write(piece)
            left -= len(piece)
    lines = folder / f"lines-{mb}.txt"
    with lines.open("w", encoding="utf-8") as fh:
        left = size
        while left > 0:
            fh.write(text)
            left -= len(text.encode("utf-8"))
    return {"long": long, "lines": lines}


def child(textio: str, path: Path) -> dict:
    p = subprocess.run([sys.executable, "-c", CHILD, textio, str(path)], capture_output=True, text=True, check=False)
    if p.returncode:
        raise SystemExit(p.stderr)
    return json.loads(p.stdout)


def interleaved(runs: int, versions: list[tuple[str, str]], path: Path) -> dict[str, list[dict]]:
    """``runs`` children per version, the versions taking turns (so that a change of load on a
    shared machine hits them alike)."""
    out: dict[str, list[dict]] = {tag: [] for tag, _ in versions}
    for _ in range(runs):
        for tag, textio in versions:
            out[tag].append(child(textio, path))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", default="25,50,100,200")
    ap.add_argument("--before", default=None, help="another textio.py to time on the same inputs")
    ap.add_argument("--before-max-mb", type=int, default=100, help="skip --before above this size (quadratic)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cli", action="store_true", help="also time the whole command line on the long line")
    args = ap.parse_args()
    versions = [("this", "-")] + ([("before", args.before)] if args.before else [])
    print("| input | MB | textio | wall s (median) | CPU s (median) | peak RSS MB | lines |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for mb in map(int, args.mb.split(",")):
            inputs = write_inputs(Path(tmp), mb)
            for kind, path in inputs.items():
                skip = kind == "long" and mb > args.before_max_mb
                timed = interleaved(args.runs, [v for v in versions if not (skip and v[0] == "before")], path)
                for tag, _ in versions:
                    if tag not in timed:
                        print(f"| {kind} | {mb} | {tag} | skipped (> --before-max-mb) | | | |", flush=True)
                        continue
                    res = timed[tag]
                    wall = statistics.median(r["wall"] for r in res)
                    cpu = statistics.median(r["cpu"] for r in res)
                    peak = max(r["peak"] for r in res)
                    print(
                        f"| {kind} | {mb} | {tag} | {wall:.2f} | {cpu:.2f} | {peak / 1e6:.0f} | {res[0]['lines']} |",
                        flush=True,
                    )
            if args.cli:
                long = str(inputs["long"])
                cmd = [sys.executable, "-m", "rapidbleu", long, "-i", long, "-b", "-tok", "none"]
                walls = []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    subprocess.run(cmd, check=True, capture_output=True)
                    walls.append(time.perf_counter() - t)
                print(f"| long, whole CLI `-b -tok none` | {mb} | this | {statistics.median(walls):.2f} | | | |")
            for p in inputs.values():
                p.unlink()


if __name__ == "__main__":
    main()
