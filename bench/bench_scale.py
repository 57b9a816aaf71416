"""BLEU at scale: a corpus of N segments (the WMT23 data repeated) scored by the streaming
command line, by Spark (local[2]), Dask (2 worker processes) and Ray (2 CPUs), against sacreBLEU on the
unrepeated data scaled to N; plus the memory of bootstrap resampling on 1M segments.

The check: repeating a corpus k times multiplies every statistic by k, and BLEU of the
repeated corpus equals BLEU of the unrepeated one exactly (every ratio is the same correctly
rounded quotient), so every engine must print the unrepeated corpus's score to the last digit.

Memory: each engine runs in its own process tree, sampled every 0.2 s with psutil (resident
set size of every process: the CLI; Spark's JVM and Python workers; Dask's client, scheduler
and workers).

Usage::

    python bench/bench_scale.py --segments 1000000            # quick
    python bench/bench_scale.py --segments 10000000 --write   # full, writes bench/results_scale.md

Needs the full WMT23 data (../shared/data/wmt23 or $RAPIDBLEU_WMT23_DIR), sacrebleu, and for
the cluster runs the spark, dask and ray extras (and Java 17+).
"""

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PAIRS = ("cs-uk", "de-en", "en-de", "he-en", "zh-en")  # the 13a pairs


def data_dir() -> Path:
    env = os.environ.get("RAPIDBLEU_WMT23_DIR")
    d = Path(env) if env else ROOT.parent / "shared" / "data" / "wmt23"
    if not (d / "references").is_dir():
        sys.exit(f"WMT23 data not found at {d} (set RAPIDBLEU_WMT23_DIR)")
    return d


def read(path: Path):
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


def base_corpus():
    """Every system output of the 13a pairs against reference A: (hypotheses, references)."""
    d = data_dir()
    hyps, refs = [], []
    for pair in PAIRS:
        trg = pair.split("-")[1]
        ref = read(d / "references" / f"generaltest2023.{pair}.ref.refA.{trg}")
        for hyp in sorted((d / "system-outputs").glob(f"generaltest2023.{pair}.hyp.*.{trg}")):
            h = read(hyp)
            assert len(h) == len(ref), hyp
            hyps += h
            refs += ref
    return hyps, refs


# --------------------------------------------------------------------------------------------
# measuring a process tree
# --------------------------------------------------------------------------------------------
class TreeSampler:
    """Peak RSS of every process under ``pid`` (and of their sum), sampled every 0.2 s."""

    def __init__(self, pid: int):
        import psutil

        self.root = psutil.Process(pid)
        self.peak = {}
        self.total = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _label(self, p):
        try:
            cmd = " ".join(p.cmdline())
        except Exception:
            cmd = p.name()
        if "java" in p.name():
            return "Spark JVM (driver + executors)"
        if "pyspark.daemon" in cmd or "pyspark/daemon" in cmd or "pyspark.worker" in cmd:
            return "Spark Python worker"
        if ("distributed" in cmd and "spawn" in cmd) or "multiprocessing" in cmd:
            return "Dask worker/nanny"
        if "default_worker.py" in cmd or cmd.startswith("ray::"):
            return "Ray worker"
        return p.name()

    def _run(self):
        import psutil

        while not self._stop.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.Error:
                break
            tot = 0
            for p in procs:
                try:
                    rss = p.memory_info().rss
                except psutil.Error:
                    continue
                tot += rss
                key = (p.pid, self._label(p))
                self.peak[key] = max(self.peak.get(key, 0), rss)
            self.total = max(self.total, tot)
            self._stop.wait(0.2)

    def stop(self):
        self._stop.set()
        self._t.join()
        by_label = {}
        for (_pid, label), rss in self.peak.items():
            by_label.setdefault(label, []).append(rss)
        return {
            "total_mb": self.total / 2**20,
            "per_process_mb": {k: [round(v / 2**20) for v in sorted(vs, reverse=True)] for k, vs in by_label.items()},
        }


def measured(cmd, env=None):
    """Run ``cmd``; (seconds, stdout, memory summary, ru_maxrss of the children in MB)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    sampler = TreeSampler(proc.pid)
    out, err = proc.communicate()
    secs = time.perf_counter() - t0
    mem = sampler.stop()
    if proc.returncode:
        sys.exit(f"{cmd} failed:\n{err.decode()[-3000:]}")
    return secs, out.decode(), mem, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


# --------------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------------
def write_repeated(hyps, refs, n, directory: Path, name: str):
    """Text files of the base corpus repeated to ``n`` segments (n a multiple of its size)."""
    h, r = directory / f"{name}.hyp", directory / f"{name}.ref"
    hb = ("\n".join(hyps) + "\n").encode()
    rb = ("\n".join(refs) + "\n").encode()
    k = n // len(hyps)
    with open(h, "wb") as fh, open(r, "wb") as fr:
        for _ in range(k):
            fh.write(hb)
            fr.write(rb)
    return h, r


def write_parquet(hyps, refs, n, directory: Path, files: int = 20):
    """Parquet files (``hyp``, ``ref`` columns) of the corpus repeated to ``n`` segments."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    k = n // len(hyps)
    table = pa.table({"hyp": pa.array(hyps, pa.string()), "ref": pa.array(refs, pa.string())})
    out = directory / "parquet"
    out.mkdir()
    per = [k // files + (1 if i < k % files else 0) for i in range(files)]
    for i, reps in enumerate(per):
        if not reps:
            continue
        with pq.ParquetWriter(out / f"part-{i:03d}.parquet", table.schema) as w:
            for _ in range(reps):
                w.write_table(table)
    return out


# --------------------------------------------------------------------------------------------
# engines (each run in its own process: python bench_scale.py --engine ...)
# --------------------------------------------------------------------------------------------
def engine_spark(path: str):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import rapidbleu.spark as rbs

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(path)
    t0 = time.perf_counter()
    score = rbs.corpus_bleu(df, "hyp", "ref")
    secs = time.perf_counter() - t0
    print(
        json.dumps(
            {"score": score.score, "text": str(score), "seconds_in_job": secs, "partitions": df.rdd.getNumPartitions()}
        )
    )
    spark.stop()


def engine_dask(path: str):
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import rapidbleu.dask as rbd

    with (
        LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster),
    ):
        ddf = dd.read_parquet(path)
        t0 = time.perf_counter()
        score = rbd.corpus_bleu(ddf, "hyp", "ref")
        secs = time.perf_counter() - t0
        print(
            json.dumps(
                {"score": score.score, "text": str(score), "seconds_in_job": secs, "partitions": ddf.npartitions}
            )
        )


def engine_ray(path: str):
    import logging

    import ray

    import rapidbleu.ray as rbr

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    ray.data.DataContext.get_current().enable_progress_bars = False
    ds = ray.data.read_parquet(path)
    t0 = time.perf_counter()
    score = rbr.corpus_bleu(ds, "hyp", "ref")
    secs = time.perf_counter() - t0
    # (Ray counts blocks only of a materialized Dataset; the parquet files are the input units)
    files = len(list(Path(path).glob("*.parquet")))
    print(json.dumps({"score": score.score, "text": str(score), "seconds_in_job": secs, "partitions": files}))
    ray.shutdown()


def engine_significance(kind: str, n: int, samples: int):
    """Peak memory of a 1,000-resample CI / a paired bootstrap of two systems on n segments
    (statistics from the WMT23 corpus tiled to n rows, int64 as the API returns them)."""
    import numpy as np

    import rapidbleu
    from rapidbleu.significance import bootstrap_ci, paired_bs

    hyps, refs = base_corpus()
    bleu = rapidbleu.BLEU()
    a = bleu.corpus_statistics(hyps, [refs])
    b = bleu.corpus_statistics(hyps[1:] + hyps[:1], [refs])
    a, b = np.resize(a, (n, a.shape[1])), np.resize(b, (n, b.shape[1]))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    res = bootstrap_ci(a, bleu, samples) if kind == "ci" else paired_bs(a, [b], bleu, samples)
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - t0,
                "inputs_mb": (a.nbytes + (b.nbytes if kind != "ci" else 0)) / 2**20,
                "rss_before_mb": before,
                "result": repr(res),
            }
        )
    )


# --------------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--segments", type=int, default=1_000_000, help="corpus size (rounded to whole repeats)")
    ap.add_argument("--small", type=int, default=100_000, help="the small corpus for the memory comparison")
    ap.add_argument("--skip", nargs="*", default=[], choices=["spark", "dask", "ray", "significance", "sacrebleu"])
    ap.add_argument("--significance-segments", type=int, default=1_000_000)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--write", action="store_true", help="write bench/results_scale.md (or --out)")
    ap.add_argument("--out", default="results_scale.md", help="file name under bench/ for --write")
    ap.add_argument("--engine", nargs="+", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.engine:
        kind, *rest = a.engine
        if kind == "spark":
            engine_spark(rest[0])
        elif kind == "dask":
            engine_dask(rest[0])
        elif kind == "ray":
            engine_ray(rest[0])
        else:
            engine_significance(rest[0], int(rest[1]), int(rest[2]))
        return

    import rapidbleu

    hyps, refs = base_corpus()
    base = len(hyps)
    k = max(1, round(a.segments / base))
    n = k * base
    k_small = max(1, round(a.small / base))
    want = rapidbleu.BLEU().corpus_score(hyps, [refs])
    print(f"base corpus: {base} segments (WMT23 {', '.join(PAIRS)}, every system vs refA): {want}")
    print(f"scaled corpus: {k} repeats = {n:,} segments")
    rows = []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))

    with tempfile.TemporaryDirectory(prefix="rb-scale-") as tmp_name:
        tmp = Path(tmp_name)
        bh, br = write_repeated(hyps, refs, base, tmp, "base")
        sh, sr = write_repeated(hyps, refs, k_small * base, tmp, "small")
        t0 = time.perf_counter()
        lh, lr = write_repeated(hyps, refs, n, tmp, "large")
        print(f"wrote {n:,}-line files ({lh.stat().st_size / 2**30:.2f} GiB each) in {time.perf_counter() - t0:.0f} s")

        def cli(h, r, label, segs):
            # -b -w 14: the score alone with 14 decimals, all the digits of its repr
            secs, out, mem, _ = measured(
                [sys.executable, "-m", "rapidbleu", str(r), "-i", str(h), "-q", "-b", "-w", "14"], env
            )
            score = float(out) if out.strip() == f"{want.score:.14f}" else None
            rows.append({"engine": label, "segments": segs, "seconds": secs, "score": score, "mem": mem})
            print(
                f"{label}: {segs:,} segments {secs:.1f} s {segs / secs:,.0f} seg/s, peak {mem['total_mb']:.0f} MB, "
                f"BLEU {score}"
            )
            return score

        cli(sh, sr, "rapidbleu CLI (streaming)", k_small * base)
        cli(lh, lr, "rapidbleu CLI (streaming)", n)
        # the same in-memory in one API call, for throughput (what the CLI did before streaming)
        code = (
            "import sys, time, json, rapidbleu\n"
            "h=[l.rstrip() for l in open(sys.argv[1], encoding='utf-8', newline='\\n')]\n"
            "r=[l.rstrip() for l in open(sys.argv[2], encoding='utf-8', newline='\\n')]\n"
            "print(json.dumps({'score': rapidbleu.BLEU().corpus_score(h, [r]).score}))\n"
        )
        secs, out, mem, _ = measured([sys.executable, "-c", code, str(sh), str(sr)], env)
        rows.append(
            {
                "engine": "rapidbleu API, whole corpus in memory",
                "segments": k_small * base,
                "seconds": secs,
                "score": json.loads(out)["score"],
                "mem": mem,
            }
        )
        print(f"API in memory: {k_small * base:,} segments {secs:.1f} s, peak {mem['total_mb']:.0f} MB")

        if "sacrebleu" not in a.skip:
            secs, out, mem, _ = measured(
                [sys.executable, "-m", "sacrebleu", str(br), "-i", str(bh), "-q", "-b", "-w", "14"], env
            )
            score = float(out) if out.strip() == f"{want.score:.14f}" else None
            rows.append(
                {
                    "engine": "sacreBLEU CLI (unrepeated corpus)",
                    "segments": base,
                    "seconds": secs,
                    "score": score,
                    "mem": mem,
                }
            )
            print(
                f"sacreBLEU: {base:,} segments {secs:.1f} s -> {secs * k:.0f} s scaled to {n:,}; "
                f"peak {mem['total_mb']:.0f} MB"
            )

        if not {"spark", "dask", "ray"} <= set(a.skip):
            t0 = time.perf_counter()
            pq = write_parquet(hyps, refs, n, tmp)
            print(f"wrote parquet in {time.perf_counter() - t0:.0f} s")
            for eng in ("spark", "dask", "ray"):
                if eng in a.skip:
                    continue
                secs, out, mem, _ = measured([sys.executable, __file__, "--engine", eng, str(pq)], env)
                info = json.loads(out.strip().splitlines()[-1])
                label = {
                    "spark": "Spark local[2]",
                    "dask": "Dask LocalCluster, 2 worker processes",
                    "ray": "Ray Data, ray.init(num_cpus=2)",
                }[eng]
                rows.append(
                    {
                        "engine": label,
                        "segments": n,
                        "seconds": secs,
                        "job_seconds": info["seconds_in_job"],
                        "score": info["score"],
                        "mem": mem,
                        "partitions": info["partitions"],
                    }
                )
                print(
                    f"{label}: {secs:.1f} s total, {info['seconds_in_job']:.1f} s job "
                    f"({n / info['seconds_in_job']:,.0f} seg/s), {info['partitions']} partitions, "
                    f"peak {mem['total_mb']:.0f} MB: {mem['per_process_mb']}  BLEU {info['score']}"
                )

    sig = []
    if "significance" not in a.skip:
        for kind in ("ci", "pbs"):
            secs, out, mem, _ = measured(
                [sys.executable, __file__, "--engine", "sig", kind, str(a.significance_segments), str(a.samples)], env
            )
            info = json.loads(out)
            sig.append(
                {
                    "kind": kind,
                    "seconds": info["seconds"],
                    "peak_mb": mem["total_mb"],
                    "inputs_mb": info["inputs_mb"],
                    "before_mb": info["rss_before_mb"],
                }
            )
            print(
                f"significance {kind}: {a.significance_segments:,} segments, {a.samples} resamples: "
                f"{info['seconds']:.0f} s, peak {mem['total_mb']:.0f} MB (int64 inputs {info['inputs_mb']:.0f} MB)"
            )

    ok = all(r["score"] == want.score for r in rows)
    print("every engine gives the unrepeated corpus's score exactly:", ok)
    if a.write:
        write_md(rows, sig, want, base, n, k, a)
    if not ok:
        sys.exit(1)


def write_md(rows, sig, want, base, n, k, a):
    import numpy as np
    import sacrebleu

    import rapidbleu

    lines = [
        "# BLEU at scale (`bench/bench_scale.py`)",
        "",
        (
            f"Machine: {os.cpu_count()} cores, shared with other jobs; Python {platform.python_version()}, "
            f"rapidbleu {rapidbleu.__version__} ({rapidbleu.backend}), sacreBLEU {sacrebleu.__version__}, "
            f"NumPy {np.__version__}."
        ),
        "",
        (
            f"Corpus: every WMT23 system output of {', '.join(PAIRS)} against reference A ({base:,} segments), "
            f"repeated {k} times = **{n:,} segments**.  Its BLEU equals the unrepeated corpus's exactly "
            f"({want.score!r}); every row below printed that float."
        ),
        "",
        "Memory: peak resident set size of the process tree (sampled every 0.2 s).",
        "",
        "| engine | segments | wall s | segments/s | peak MB (tree) | per process (MB) | score ok |",
        "| --- | ---: | ---: | ---: | ---: | --- | :-: |",
    ]
    for r in rows:
        secs = r.get("job_seconds", r["seconds"])
        per = "; ".join(f"{k}: {v}" for k, v in r["mem"]["per_process_mb"].items())
        wall = f"{r['seconds']:.1f}" + (f" ({secs:.1f} in the job)" if "job_seconds" in r else "")
        lines.append(
            f"| {r['engine']} | {r['segments']:,} | {wall} | {r['segments'] / secs:,.0f} | "
            f"{r['mem']['total_mb']:.0f} | {per} | {'yes' if r['score'] == want.score else 'NO'} |"
        )
    sac = [r for r in rows if r["engine"].startswith("sacreBLEU")]
    if sac:
        s = sac[0]
        lines += [
            "",
            (
                f"sacreBLEU scaled to {n:,} segments: {s['seconds'] * k:,.0f} s "
                f"({base / s['seconds']:,.0f} segments/s; it reads the whole corpus into memory, "
                f"{s['mem']['total_mb']:.0f} MB for {base:,} segments)."
            ),
        ]
    if sig:
        lines += [
            "",
            f"## Resampling on {a.significance_segments:,} segments ({a.samples} resamples)",
            "",
            "| test | seconds | peak MB (process) | of which int64 input statistics |",
            "| --- | ---: | ---: | ---: |",
        ]
        for s in sig:
            name = "bootstrap CI, 1 system" if s["kind"] == "ci" else "paired bootstrap, 2 systems"
            lines.append(f"| {name} | {s['seconds']:.0f} | {s['peak_mb']:.0f} | {s['inputs_mb']:.0f} |")
    (HERE / a.out).write_text("\n".join(lines) + "\n", "utf-8")
    print("wrote", HERE / a.out)


if __name__ == "__main__":
    main()
