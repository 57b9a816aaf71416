"""Benchmark of processing a fresh test-set cache: rapidbleu.dataset against sacreBLEU 2.6.0.

The WMT22 XML files found in ``$RAPIDBLEU_WMT22_XML_DIR`` (default ``../shared/data/wmt22-xml``
beside the repository) are copied into two fresh caches laid out as after sacreBLEU's download
of ``wmt22``; each tool then runs ``get_files`` for every pair (the fields read from the XML,
every text file written).  sacreBLEU parses each file twice (``fieldnames``, then
``process_to_text``) with lxml; rapidbleu once, with the standard library's ElementTree.  The
written files are compared byte for byte.  Times are medians of ``--runs`` runs (wall seconds),
each on new caches, both tools in this process.

Then the command line from a processed cache (whole processes, start-up included, the tools
taking turns in each round): ``--echo src`` and scoring a system (``-t wmt22 -l PAIR -i SYS``,
and with ``-m bleu chrf ter``), each tool's output checked equal to the other's.

Usage: python bench/bench_test_sets.py [--runs 5]
"""

import argparse
import filecmp
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

from _common import check_backend  # noqa: E402  (the installed rapidbleu, compiled core required)

check_backend()


def fresh_cache(base: pathlib.Path, files: dict[str, pathlib.Path], dataset) -> pathlib.Path:
    cache = pathlib.Path(tempfile.mkdtemp(dir=base))
    raw = cache / "wmt22" / "raw"
    raw.mkdir(parents=True)
    for url in dataset.data:
        (raw / ("wmt22." + url.rsplit("/", 1)[-1])).write_bytes(b"placeholder")
    for pair, path in files.items():
        entry = dataset.langpairs[pair]
        target = raw / (entry["path"] if isinstance(entry, dict) else entry[0])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return cache


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = pathlib.Path(os.environ.get("RAPIDBLEU_WMT22_XML_DIR", str(ROOT.parent / "shared" / "data" / "wmt22-xml")))
    import sacrebleu.dataset as sacre

    import rapidbleu.dataset as rapid

    files = {p.name.split(".")[1]: p for p in sorted(folder.glob("wmttest2022.*.all.xml"))}
    files = {pair: p for pair, p in files.items() if pair in sacre.DATASETS["wmt22"].langpairs}
    if not files:
        sys.exit(f"no WMT22 XML in {folder} (set RAPIDBLEU_WMT22_XML_DIR)")
    times: dict[str, list[float]] = {"sacrebleu": [], "rapidbleu": []}
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp)
        for _ in range(args.runs):
            s_cache = fresh_cache(base, files, sacre.DATASETS["wmt22"])
            r_cache = fresh_cache(base, files, sacre.DATASETS["wmt22"])
            ds = sacre.DATASETS["wmt22"]
            ds._outdir, ds._rawdir = str(s_cache / "wmt22"), str(s_cache / "wmt22" / "raw")
            t = time.perf_counter()
            for pair in files:
                ds.get_files(pair)
            times["sacrebleu"].append(time.perf_counter() - t)
            os.environ["SACREBLEU"] = str(r_cache)
            t = time.perf_counter()
            for pair in files:
                rapid.DATASETS["wmt22"].get_files(pair)
            times["rapidbleu"].append(time.perf_counter() - t)
            names = sorted(p.name for p in (s_cache / "wmt22").iterdir() if p.is_file())
            same = filecmp.cmpfiles(s_cache / "wmt22", r_cache / "wmt22", names, shallow=False)
            if same[1] or same[2] or sorted(p.name for p in (r_cache / "wmt22").iterdir() if p.is_file()) != names:
                sys.exit(f"the text files differ: {same[1] + same[2]}")
    s, r = statistics.median(times["sacrebleu"]), statistics.median(times["rapidbleu"])
    print(f"WMT22 XML, pairs {', '.join(files)}: fresh cache, get_files of every pair (median of {args.runs})")
    print(f"  sacreBLEU 2.6.0 (lxml, two parses): {s:.3f} s")
    print(f"  rapidbleu (ElementTree, one parse): {r:.3f} s   ({s / r:.2f}x)")
    command_lines(files, args.runs, sacre.DATASETS["wmt22"])


def command_lines(files: dict[str, pathlib.Path], runs: int, dataset) -> None:
    """Whole-process times of --echo and -t scoring from a processed cache, both tools."""
    import subprocess

    pair = sorted(files)[-1]
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp)
        caches = {tool: fresh_cache(base, files, dataset) for tool in ("sacrebleu", "rapidbleu")}
        env = {k: v for k, v in os.environ.items() if k != "RAPIDBLEU_AS_SACREBLEU"}

        def run(tool: str, argv: list[str]) -> tuple[float, str]:
            t = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-m", tool, *argv], env={**env, "SACREBLEU": str(caches[tool])},
                capture_output=True, text=True, check=True, cwd=base,
            ).stdout  # fmt: skip
            return time.perf_counter() - t, out.replace("rapidbleu-", "").replace("0.1.0", "2.6.0")

        hyp = base / "system.txt"
        hyp.write_text(run("sacrebleu", ["-t", "wmt22", "-l", pair, "--echo", "Online-A"])[1], encoding="utf-8")
        run("rapidbleu", ["-t", "wmt22", "-l", pair, "--echo", "src"])  # both caches processed
        cases = {
            "--echo src": ["-t", "wmt22", "-l", pair, "--echo", "src"],
            "-t wmt22 -i SYS (BLEU)": ["-t", "wmt22", "-l", pair, "-i", str(hyp)],
            "-t wmt22 -i SYS -m bleu chrf ter": [
                "-t",
                "wmt22",
                "-l",
                pair,
                "-i",
                str(hyp),
                "-m",
                "bleu",
                "chrf",
                "ter",
            ],
        }
        print(f"command line from a processed cache, wmt22 {pair} (whole process, median of {runs} rounds)")
        for name, argv in cases.items():
            times: dict[str, list[float]] = {"sacrebleu": [], "rapidbleu": []}
            outs = {}
            for _ in range(runs):
                for tool, spent in times.items():
                    seconds, outs[tool] = run(tool, argv)
                    spent.append(seconds)
            if outs["sacrebleu"] != outs["rapidbleu"]:
                sys.exit(f"{name}: the outputs differ")
            s, r = statistics.median(times["sacrebleu"]), statistics.median(times["rapidbleu"])
            print(f"  {name:<34} sacreBLEU {s:.3f} s   rapidbleu {r:.3f} s   ({s / r:.1f}x)")


if __name__ == "__main__":
    main()
