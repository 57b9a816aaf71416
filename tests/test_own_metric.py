"""A metric of one's own reaches every side door unchanged: a unigram F1 defined here (its
statistics kernel in Python, its score from the statistics, registered by this file alone) runs
through the command line (``-m``), confidence intervals and the paired tests, ``CorpusStats``,
Spark, Dask and Ray, the batch and pairwise functions, the reward functions, torchmetrics and
the comparison report, and every number is the one the metric gives on its own.

The engines run the metric on their workers: the metric's class travels there by reference, so
each test makes this file importable on the workers as the engine's users ship code (Spark's
``addPyFile``, ``sys.path`` through Dask's ``Client.run``, Ray's ``working_dir``), and a worker
that imports it has the metric registered as it is here.  This module imports nothing from
``conftest`` at the top for that reason (a worker imports this file alone).
"""

import json
import os
import pickle
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import rapidbleu
from rapidbleu import batch, mbr, rewards
from rapidbleu import stats as rstats
from rapidbleu.cli import main
from rapidbleu.compare import comparison_report
from rapidbleu.registry import METRICS, Metric, register
from rapidbleu.score import Score, Signature
from rapidbleu.significance import paired_ar, paired_bs

HERE = Path(__file__).resolve()


def _words(text: str, lowercase: bool) -> list[str]:
    return (text.lower() if lowercase else text).split()


def unigram_stats(hyp: str, refs: list[str], lowercase: bool) -> list[int]:
    """``[matches, hypothesis words, reference words]`` of a hypothesis against its best
    reference (the highest F1, the first of equal ones): clipped word matches."""
    h = Counter(_words(hyp, lowercase))
    best: list[int] | None = None
    for ref in refs:
        r = Counter(_words(ref, lowercase))
        row = [sum((h & r).values()), sum(h.values()), sum(r.values())]
        # F1 = 2m / (h + r): compare m1 * (h + r2) with m2 * (h + r1), exactly
        if best is None or row[0] * (best[1] + best[2]) > best[0] * (row[1] + row[2]):
            best = row
    assert best is not None
    return best


@register
class UnigramF1(Metric):
    """Unigram F1 in percent: ``100 * 2 * matches / (hypothesis words + reference words)``."""

    metric_id: ClassVar[str] = "unigram_f1"
    display_name: ClassVar[str] = "unigram F1"

    def __init__(self, lowercase: bool = False, workers: int = 1) -> None:
        self.lowercase = bool(lowercase)
        self.workers = workers

    @property
    def stats_columns(self) -> tuple[str, ...]:
        return ("matches", "hyp_len", "ref_len")

    def corpus_statistics(self, hypotheses: Any, references: Any = None) -> np.ndarray:
        hyps = list(hypotheses)
        streams = [list(s) for s in references]
        for i, h in enumerate(hyps):
            if not isinstance(h, str):
                raise TypeError(f"hypotheses[{i}] is a {type(h).__name__}; unigram F1 scores strings")
        refs = [[s[i] for s in streams if s[i] is not None] for i in range(len(hyps))]
        if any(not r for r in refs):
            raise ValueError("a segment without any reference")
        counts = {sum(s[i] is not None for s in streams) for i in range(len(hyps))}
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        rows = [unigram_stats(h, r, self.lowercase) for h, r in zip(hyps, refs, strict=True)]
        return np.array(rows, dtype=np.int64).reshape(len(hyps), 3)

    @staticmethod
    def _f1(m: Any, h: Any, r: Any) -> float:
        return 100.0 * 2 * float(m) / float(h + r) if h + r else 0.0

    def score_from_stats(self, stats: Any) -> Score:
        m, h, r = (int(x) for x in stats)
        return Score("UF1", self._f1(m, h, r))

    def scores_from_stats(self, sums: Any, dtype: Any = None) -> np.ndarray:
        rows = self.checked_sums(sums, dtype)
        return np.array([self._f1(*row) for row in rows.tolist()], dtype=np.float64)

    def config(self) -> dict[str, Any]:
        return {"lowercase": self.lowercase, "num_refs": self._seen_num_refs()}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "UnigramF1":
        metric = cls(lowercase=config["lowercase"])
        metric.num_refs = config["num_refs"]
        return metric

    def get_signature(self) -> Signature:
        return Signature({"num_refs": self._seen_num_refs(), "n_bootstrap": self.n_bootstrap, "seed": self.seed})


HYPS = [
    "the cat sat on the mat",
    "a dog barks at the moon",
    "it was raining all day",
    "we went home early",
    "nothing matches here",
    "the quick brown fox jumps",
]
OTHER = [
    "the cat is on the mat",
    "the dog barks at night",
    "it rained all day long",
    "we went home",
    "nothing at all",
    "a quick brown fox jumped",
]
REFS = [
    "the cat sat on a mat",
    "a dog barked at the moon",
    "it was raining the whole day",
    "we came home early",
    "something else entirely",
    "the quick brown fox jumps over",
]
REFS2 = ["a cat sat on the mat", None, "rain all day", "we went home early", None, "the fox jumps"]


def own(hyps: list[str], streams: list[list[Any]], **options: Any) -> float:
    """The metric's own corpus score, by hand from :func:`unigram_stats`."""
    rows = np.array([unigram_stats(h, [s[i] for s in streams if s[i] is not None], False) for i, h in enumerate(hyps)])
    m, h, r = rows.sum(axis=0).tolist()
    assert not options
    return 100.0 * 2 * m / (h + r)


def test_the_metric_is_registered_and_scores_by_hand():
    assert METRICS["unigram_f1"] is UnigramF1
    metric = UnigramF1()
    assert metric.corpus_score(HYPS, [REFS]).score == own(HYPS, [REFS])
    assert metric.corpus_score(HYPS, [REFS, REFS2]).score == own(HYPS, [REFS, REFS2])
    assert metric.sentence_score(HYPS[0], [REFS[0]]).score == 100.0 * 2 * 5 / 12


# -------------------------------------------------------------------------- command line


@pytest.fixture
def files(tmp_path):
    def write(name, lines):
        path = tmp_path / name
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        return str(path)

    return write("hyp.txt", HYPS), write("other.txt", OTHER), write("ref.txt", REFS)


def cli_json(capsys, *args: str) -> Any:
    capsys.readouterr()
    assert main(list(args)) in (0, None)
    return json.loads(capsys.readouterr().out)


def test_command_line_scores_and_confidence(files, capsys):
    hyp, _, ref = files
    out = cli_json(capsys, ref, "-i", hyp, "-m", "unigram_f1", "bleu")
    by_name = {d["name"]: d for d in out}
    assert by_name["UF1"]["score"] == round(own(HYPS, [REFS]), 1)
    assert by_name["BLEU"]["score"] == round(rapidbleu.BLEU().corpus_score(HYPS, [REFS]).score, 1)

    with_ci = cli_json(capsys, ref, "-i", hyp, "-m", "unigram_f1", "--confidence", "-w", "4")
    want = UnigramF1().corpus_score(HYPS, [REFS], n_bootstrap=1000)
    assert (with_ci["score"], with_ci["confidence_mean"], with_ci["confidence_var"]) == tuple(
        round(v, 4) for v in (want.score, want._mean, want._ci)
    )
    assert "bs:1000" in with_ci["signature"]

    capsys.readouterr()
    assert main([ref, "-i", hyp, "-m", "unigram_f1", "-b"]) in (0, None)
    assert capsys.readouterr().out.strip() == f"{own(HYPS, [REFS]):.1f}"


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_on_the_command_line_and_in_python(files, capsys, test):
    hyp, other, ref = files
    out = cli_json(capsys, ref, "-i", hyp, other, "-m", "unigram_f1", f"--paired-{test}", "-w", "4")
    assert [row["UF1"]["score"] for row in out] == [own(h, [REFS]) for h in (HYPS, OTHER)]

    metric = UnigramF1()
    base, system = (metric.corpus_statistics(h, [REFS]) for h in (HYPS, OTHER))
    results = paired_bs(base, [system], metric) if test == "bs" else paired_ar(base, [system], metric)
    assert [r.score for r in results] == [own(h, [REFS]) for h in (HYPS, OTHER)]
    assert out[1]["UF1"]["p_value"] == results[1].p_value
    assert 0 < results[1].p_value <= 1


# -------------------------------------------------------------------------- CorpusStats


def test_corpus_stats_merge_pickle_and_score():
    whole = rstats.corpus_stats(HYPS, [REFS, REFS2], metric=UnigramF1())
    by_name = rstats.corpus_stats(HYPS, [REFS, REFS2], metric="unigram_f1")
    assert whole == by_name
    halves = [rstats.corpus_stats(HYPS[s], [REFS[s], REFS2[s]], metric="unigram_f1") for s in (slice(3), slice(3, 6))]
    merged = rstats.merge(halves)
    assert merged.vector.tolist() == whole.vector.tolist()
    again = pickle.loads(pickle.dumps(merged))
    assert again == whole
    assert again.metric_id == "unigram_f1"
    assert again.score().score == own(HYPS, [REFS, REFS2])


# -------------------------------------------------------------------------- batches


def test_sentence_batch_and_pairwise_matrix(monkeypatch):
    metric = UnigramF1()
    want = [metric.sentence_score(h, [r]).score for h, r in zip(HYPS, REFS, strict=True)]
    assert batch.sentence_batch(HYPS, REFS, metric=metric).tolist() == want
    nested = [[r, s] if s is not None else [r] for r, s in zip(REFS, REFS2, strict=True)]
    per = batch.sentence_batch(HYPS, nested, metric=metric, reference_layout="per_hypothesis")
    assert per.tolist() == [metric.sentence_score(h, refs).score for h, refs in zip(HYPS, nested, strict=True)]

    cands = HYPS + OTHER
    matrix = [[metric.sentence_score(a, [b]).score for b in cands] for a in cands]
    monkeypatch.setattr(UnigramF1, "pairwise_block", 30)  # blocks of 2 rows of 12 pairs
    assert batch.pairwise(cands, metric=metric).tolist() == matrix
    off = batch.pairwise(cands, metric=metric, diagonal=0.0)
    assert np.diag(off).tolist() == [0.0] * len(cands)
    with pytest.raises(ValueError, match="candidates is empty"):
        batch.pairwise([], metric=metric)
    with pytest.raises(TypeError, match=r"candidates\[1\] is a int; unigram F1 scores strings"):
        batch.pairwise(["a", 1], metric=metric)
    # hypotheses against other references, and MBR's expected utilities over them
    cross = metric.cross_scores(HYPS, OTHER[:3])
    assert cross.tolist() == [[metric.sentence_score(a, [b]).score for b in OTHER[:3]] for a in HYPS]
    res = mbr.expected_utility(HYPS, OTHER[:3], metric=metric, weights=[1, 2, 1])
    assert res.utilities.tolist() == cross.tolist()
    assert res.best == int(np.argmax(cross @ np.array([0.25, 0.5, 0.25])))


# -------------------------------------------------------------------------- rewards


def test_reward_functions():
    metric = UnigramF1()
    want = [metric.sentence_score(h, [r]).score / 100 for h, r in zip(HYPS, REFS, strict=True)]
    reward = rewards.SentenceReward(metric)
    assert reward.__name__ == "unigram_f1"
    assert reward(prompts=[""] * len(HYPS), completions=HYPS, reference=REFS) == want  # TRL
    assert reward.compute_score("d", HYPS[0], REFS[0]) == want[0]  # verl
    assert rewards.compute_score("d", HYPS[1], REFS[1], None, metric="unigram_f1") == want[1]
    batch_scores = rewards.compute_score_batch(["d"] * 6, HYPS, REFS, None, metric="unigram_f1")
    assert [float(x) for x in batch_scores] == want
    halved = rewards.reward_of("unigram_f1", transform=lambda s: s / 200, name="half")
    assert halved.__name__ == "half"
    assert halved.scores(HYPS, REFS) == [w / 2 for w in want]
    consensus = rewards.ConsensusReward(metric)(prompts=["p"] * 3 + ["q"] * 3, completions=HYPS)
    pairs = [[metric.sentence_score(a, [b]).score / 100 for b in HYPS] for a in HYPS]
    group = [[0, 1, 2]] * 3 + [[3, 4, 5]] * 3
    assert consensus == pytest.approx([sum(pairs[i][j] for j in g if j != i) / 2 for i, g in enumerate(group)])


# -------------------------------------------------------------------------- report


def test_comparison_report():
    pytest.importorskip("jinja2", reason="the report extra (rapidbleu[report])")
    report = comparison_report(
        {"mine": HYPS, "other": OTHER}, [REFS], metrics=[UnigramF1(), "bleu"], n_samples=100, n_bootstrap=100
    )
    found = {m.metric_id: m for m in report.metrics}
    assert [s.score for s in found["unigram_f1"].scores] == [own(h, [REFS]) for h in (HYPS, OTHER)]
    assert "UF1" in report.to_text()
    by_name = comparison_report([HYPS, OTHER], [REFS], metrics=["unigram_f1"], n_samples=100, n_bootstrap=100)
    assert [m.metric_id for m in by_name.metrics] == ["unigram_f1"]


@pytest.mark.integration
def test_reward_functions_openrlhf():
    """OpenRLHF's ``reward_func`` returns torch tensors: with torch installed."""
    from conftest import integration

    integration("torch")
    metric = UnigramF1()
    want = [metric.sentence_score(h, [r]).score / 100 for h, r in zip(HYPS, REFS, strict=True)]
    got = rewards.SentenceReward(metric).reward_func(HYPS, [""] * len(HYPS), REFS)
    assert got["rewards"].tolist() == pytest.approx(want)


# -------------------------------------------------------------------------- torchmetrics


@pytest.mark.integration
def test_torchmetrics_corpus_score():
    from conftest import integration

    torch = integration("torch")
    integration("torchmetrics")
    import rapidbleu.torchmetrics as tm

    state = tm.CorpusScore(UnigramF1())
    state.update(HYPS[:3], [[r] for r in REFS[:3]])
    state.update([], [])
    state.update(HYPS[3:], [[r] for r in REFS[3:]])
    value = state.compute()
    assert value.dtype == torch.float64
    assert value.item() == own(HYPS, [REFS]) / 100


# -------------------------------------------------------------------------- engines


def engine(module: str, switch: str) -> None:
    """Skip without the engine (an extra, as ``tests/test_spark.py`` and the others), unless its
    switch is 1."""
    if os.environ.get(switch) != "1":
        extra = module.split(".", maxsplit=1)[0]
        pytest.importorskip(module, reason=f"{module} not installed (extra rapidbleu[{extra}])")


def test_spark():
    engine("pyspark", "RAPIDBLEU_REQUIRE_SPARK")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import rapidbleu.spark as rbs

    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    try:
        spark.sparkContext.addPyFile(str(HERE))  # the metric's module, on every worker
        df = spark.sparkContext.parallelize(list(zip(HYPS, REFS, strict=True)), 3).toDF(["hyp", "ref"])
        assert rbs.corpus_score(df, "hyp", "ref", metric="unigram_f1").score == own(HYPS, [REFS])
        rows = df.select(rbs.sentence_score("hyp", "ref", metric="unigram_f1").alias("s")).collect()
        assert [r.s for r in rows] == batch.sentence_batch(HYPS, REFS, metric=UnigramF1()).tolist()
    finally:
        spark.stop()


def test_dask():
    engine("dask.dataframe", "RAPIDBLEU_REQUIRE_DASK")
    engine("distributed", "RAPIDBLEU_REQUIRE_DASK")
    import dask
    import dask.dataframe as dd
    import pandas as pd
    from distributed import Client, LocalCluster

    import rapidbleu.dask as rbd

    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None)
    with cluster, Client(cluster) as client:
        client.run(sys.path.insert, 0, str(HERE.parent))  # the metric's module, on every worker
        with dask.config.set({"dataframe.convert-string": False}):
            ddf = dd.from_pandas(pd.DataFrame({"hyp": HYPS, "ref": REFS}), npartitions=3, sort=False)
        assert rbd.corpus_score(ddf, "hyp", "ref", metric="unigram_f1").score == own(HYPS, [REFS])
        got = rbd.sentence_score(ddf, "hyp", "ref", metric="unigram_f1").compute().tolist()
        assert got == batch.sentence_batch(HYPS, REFS, metric=UnigramF1()).tolist()


@pytest.mark.integration
def test_ray(tmp_path):
    from conftest import integration

    ray = integration("ray")
    integration("ray.data")
    import logging

    import rapidbleu.ray as rbr

    shutil.copy(HERE, tmp_path / HERE.name)  # the metric's module, on every worker (Ray's working_dir)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
        runtime_env={"working_dir": str(tmp_path)},
    )
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        ds = ray.data.from_items(
            [{"i": i, "hyp": h, "ref": r} for i, (h, r) in enumerate(zip(HYPS, REFS, strict=True))],
            override_num_blocks=3,
        )
        assert rbr.corpus_score(ds, "hyp", "ref", metric="unigram_f1").score == own(HYPS, [REFS])
        rows = rbr.sentence_score(ds, "hyp", "ref", metric="unigram_f1").sort("i").take_all()
        assert [r["unigram_f1"] for r in rows] == batch.sentence_batch(HYPS, REFS, metric=UnigramF1()).tolist()
    finally:
        ray.shutdown()
