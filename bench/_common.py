"""What every bench script shares: the WMT23 data lookup, the line reader, the median timer and
the backend check.  The scripts time the *installed* rapidbleu (``pip install .`` or ``-e .``):
nothing here puts ``src/`` on ``sys.path``, which would silently time the pure-Python backend
of an unbuilt checkout.

Run a script as ``python bench/NAME.py`` (its folder is then on ``sys.path``, so
``from _common import ...`` works from any directory).
"""

import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Set to 1 to time the pure-Python backend anyway (the scripts refuse it by default).
ALLOW_PYTHON_ENV = "RAPIDBLEU_BENCH_ALLOW_PYTHON"


def wmt23_dir(need=None):
    """The WMT23 folder, by the tests' rule (``tests/wmt23_data.py``: ``$RAPIDBLEU_WMT23_DIR``,
    else ``../shared/data/wmt23`` beside the repository, else the samples in
    ``tests/data/wmt23``).  ``need``: a glob pattern (searched recursively) that must match in
    the folder; candidates without a match are skipped."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from wmt23_data import candidates
    finally:
        sys.path.pop(0)
    cands = candidates()
    for c in cands:
        if c.is_dir() and (need is None or next(c.glob(f"**/{need}"), None) is not None):
            return c
    sys.exit(f"WMT23 data not found (set RAPIDBLEU_WMT23_DIR); looked in {', '.join(map(str, cands))}")


def wmt23_files(pattern, folder=None):
    """Sorted files of the WMT23 folder (any subfolder) whose names match ``pattern``."""
    folder = folder or wmt23_dir(pattern)
    return sorted(p for p in Path(folder).glob(f"**/{pattern}") if p.is_file())


def read_lines(path):
    """The lines of a text file as sacreBLEU's command line reads them (UTF-8, split on
    ``\\n``, each line right-stripped)."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


def perturbed_systems(hyps_a, hyps_b, seed=1):
    """Two more systems for the significance and report benchmarks, made from real outputs:
    ``hyps_a`` with every third line's words shuffled, and ``hyps_b`` with every fourth line cut
    to its first half (the paired tests then have clear and less clear differences to find)."""
    import random

    rnd = random.Random(seed)
    shuffled = []
    for i, line in enumerate(hyps_a):
        words = line.split()
        if i % 3 == 0:
            rnd.shuffle(words)
        shuffled.append(" ".join(words))
    cut = [" ".join(x.split()[: max(1, len(x.split()) // 2)]) if i % 4 == 0 else x for i, x in enumerate(hyps_b)]
    return shuffled, cut


def median_time(fn, runs=5, warmup=0):
    """Run ``fn()`` ``warmup`` times untimed, then ``runs`` times: (median wall s, median CPU s of
    this process, last result).  A warm-up keeps one-time costs out of the figures (first-use
    tables, lazy imports, and the CPU time NumPy's BLAS threads spin for after its first import,
    which this process's CPU clock counts)."""
    return interleaved_times([(fn, runs, warmup)], 1)[0]


def interleaved_times(fns, rounds=3):
    """Time several ``(fn, runs_per_round, warmup)`` in interleaved rounds: each ``fn`` runs
    ``warmup`` times untimed, then every round runs each in turn ``runs_per_round`` times.  Returns, per
    ``fn``, (median wall s, median CPU s of this process, last result), as :func:`median_time`.
    On a shared machine whose speed drifts over seconds, the tools compared meet the same
    drift in every round, so the ratios of the medians are steadier than those of runs timed
    one tool after the other."""
    walls = [[] for _ in fns]
    cpus = [[] for _ in fns]
    outs = [None] * len(fns)
    for fn, _, warmup in fns:
        for _ in range(max(0, warmup)):
            fn()
    for _ in range(max(1, rounds)):
        for k, (fn, per_round, _) in enumerate(fns):
            for _ in range(max(1, per_round)):
                w, c = time.perf_counter(), time.process_time()
                outs[k] = fn()
                walls[k].append(time.perf_counter() - w)
                cpus[k].append(time.process_time() - c)
    return [(statistics.median(w), statistics.median(c), o) for w, c, o in zip(walls, cpus, outs, strict=True)]


def shown_path(path):
    """``path`` as the output shows it: relative to the repository when inside it, else only its
    last two parts (results files must not carry a machine's absolute paths)."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(Path("...", *path.parts[-2:]))


def check_backend(allow_python=False):
    """Print which rapidbleu is timed; exit unless it is the compiled backend (or
    ``allow_python`` / ``$RAPIDBLEU_BENCH_ALLOW_PYTHON=1``).  Returns the module."""
    import rapidbleu

    print(
        f"rapidbleu {rapidbleu.__version__} ({shown_path(Path(rapidbleu.__file__).parent)}), "
        f"backend: {rapidbleu.backend}"
    )
    if rapidbleu.backend != "cython" and not (allow_python or os.environ.get(ALLOW_PYTHON_ENV) == "1"):
        sys.exit(
            f"rapidbleu.backend is {rapidbleu.backend!r}: these timings are meant for the compiled "
            f"core (pip install . with a C compiler); set {ALLOW_PYTHON_ENV}=1 to time it anyway"
        )
    return rapidbleu


def machine_info():
    """One line: CPU, cores, load, Python, rapidbleu version and backend."""
    import rapidbleu

    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"CPU: {cpu}; cores: {os.cpu_count()}; load average at start: {load:.1f}; "
        f"Python {platform.python_version()}; rapidbleu {rapidbleu.__version__} ({rapidbleu.backend})"
    )
