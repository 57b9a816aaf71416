"""rapidbleu.spark on a local Spark session: corpus BLEU from per-partition statistics and the
sentence BLEU column equal single-process rapidbleu (and sacreBLEU / NLTK) exactly.

Skipped without PySpark unless RAPIDBLEU_REQUIRE_SPARK=1 (set by .ci/run)."""

import os
import sys

import pytest

if os.environ.get("RAPIDBLEU_REQUIRE_SPARK") != "1":
    pytest.importorskip("pyspark", reason="PySpark not installed (extra rapidbleu[spark])")

import sacrebleu
from conftest import SAMPLE_DIR, read
from nltk.translate import bleu_score as nltk_bleu

import rapidbleu

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")

HYP = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
REF2 = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")
# a variable number of references per row: 1, 2 or 3
ARR = [
    [r] if i % 3 == 0 else ([r, s] if i % 3 == 1 else [r, s, h[::-1]])
    for i, (r, s, h) in enumerate(zip(REF, REF2, HYP, strict=False))
]


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("rapidbleu-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "32")  # several batches per partition
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def df(spark):
    rows = list(zip(HYP, REF, REF2, ARR, strict=False))
    # 3 slices of consecutive rows: DataFrame order is the corpus order
    return spark.sparkContext.parallelize(rows, 3).toDF(["hyp", "ref", "ref2", "refs"]).cache()


def test_corpus_bleu_equals_single_process(df):
    import rapidbleu.spark as rbs

    # a reference column given twice, or the hypothesis column as a reference, counts as given
    for refs, streams in (
        ("ref", [REF]),
        (["ref", "ref2"], [REF, REF2]),
        (["ref", "ref"], [REF, REF]),
        (["ref", "hyp"], [REF, HYP]),
    ):
        for kw in ({}, {"tokenize": "intl", "lowercase": True, "smooth_method": "floor"}):
            stats = rbs.corpus_stats(df, "hyp", refs, **kw)
            got = stats.score()
            want = rapidbleu.BLEU(**kw).corpus_score(HYP, streams)
            assert got.score == want.score == sacrebleu.BLEU(**kw).corpus_score(HYP, streams).score
            assert str(got) == str(want)
            metric = rapidbleu.BLEU(**kw)
            metric.corpus_score(HYP, streams)
            assert str(stats.signature()) == str(metric.get_signature())
            assert stats.n_segments == len(HYP)
    # an array column with 1-3 references per row: nrefs:var, as with None-padded streams
    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    stats = rbs.corpus_stats(df, "hyp", "refs")
    metric = rapidbleu.BLEU()
    assert str(stats.score()) == str(metric.corpus_score(HYP, padded))
    assert "nrefs:var" in str(stats.signature())
    assert str(stats.signature()) == str(metric.get_signature())


def test_corpus_bleu_nltk_style(df):
    import rapidbleu.spark as rbs

    refs = [[r.split(), s.split()] for r, s in zip(REF, REF2, strict=False)]
    hyps = [h.split() for h in HYP]
    smooth = nltk_bleu.SmoothingFunction()
    for fn in (None, "method1", smooth.method5):  # method 5 reads the last row: order matters
        want = nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=getattr(smooth, fn) if isinstance(fn, str) else fn)
        assert rbs.corpus_bleu(df, "hyp", ["ref", "ref2"], style="nltk", smoothing_function=fn) == want


def test_sentence_bleu_column(df):
    import rapidbleu.spark as rbs

    rows = df.select(
        rbs.sentence_bleu("hyp", ["ref", "ref2"]).alias("s"),
        rbs.sentence_bleu("hyp", "refs", style="nltk", smoothing_function="method1").alias("n"),
    ).collect()
    want = [sacrebleu.sentence_bleu(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=False)]
    assert [r["s"] for r in rows] == want
    smooth = nltk_bleu.SmoothingFunction().method1
    want_n = [
        nltk_bleu.sentence_bleu([x.split() for x in a], h.split(), smoothing_function=smooth)
        for h, a in zip(HYP, ARR, strict=False)
    ]
    assert [r["n"] for r in rows] == want_n


def test_chrf_corpus_and_sentence_scores(df):
    """chrF++ through the generic functions (``metric="chrf"``): the corpus score from summed
    partition statistics, with 1-3 references per row, and the sentence column, equal to
    single-process rapidbleu and sacreBLEU."""
    import rapidbleu.spark as rbs

    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    kw = {"word_order": 2, "lowercase": True}
    got = rbs.corpus_score(df, "hyp", "refs", metric="chrf", **kw)
    metric = rapidbleu.CHRF(**kw)
    want = metric.corpus_score(HYP, padded)
    assert str(got) == str(want)
    assert got.score == sacrebleu.CHRF(**kw).corpus_score(HYP, padded).score
    stats = rbs.corpus_stats(df, "hyp", ["ref", "ref2"], metric="chrf", beta=3)
    assert stats.metric_id == "chrf"
    assert stats.score().score == sacrebleu.CHRF(beta=3).corpus_score(HYP, [REF, REF2]).score
    rows = df.select(rbs.sentence_score("hyp", ["ref", "ref2"], metric="chrf", **kw).alias("c")).collect()
    theirs = sacrebleu.CHRF(**kw)
    assert [r["c"] for r in rows] == [
        theirs.sentence_score(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=False)
    ]
    with pytest.raises(TypeError, match="tokenize"):
        rbs.corpus_score(df, "hyp", "ref", metric="chrf", tokenize="13a")
    with pytest.raises(ValueError, match="unknown metric 'meteor'; known: bleu, chrf, ter"):
        rbs.corpus_score(df, "hyp", "ref", metric="meteor")
    # TER the same way (float statistics per partition; single-process rapidbleu, whose TER
    # equals sacreBLEU's in test_ter)
    ter = rapidbleu.TER(case_sensitive=True)
    got = rbs.corpus_score(df, "hyp", "refs", metric="ter", case_sensitive=True)
    assert str(got) == str(ter.corpus_score(HYP, padded))
    rows = df.select(rbs.sentence_score("hyp", ["ref", "ref2"], metric="ter").alias("t")).collect()
    assert [r["t"] for r in rows] == rapidbleu.TER().sentence_scores(HYP, [REF, REF2]).tolist()


def test_ter_corpus_and_sentence_scores(df):
    """TER through the generic functions (``metric="ter"``): float statistics summed over
    partitions (exact with one or two references per row: the reference lengths are whole or
    halves), the sentence column; equal to single-process rapidbleu and sacreBLEU.  With 1-3
    references per row the lengths are thirds, whose float sum depends on its order: within
    1e-13 of one pass (README)."""
    import ter_reference

    import rapidbleu.spark as rbs

    theirs = ter_reference.sacre_statistics(HYP, [REF, REF2])
    got = rbs.corpus_score(df, "hyp", ["ref", "ref2"], metric="ter")
    assert got.score == ter_reference.sacre_score(theirs).score
    assert str(got) == str(rapidbleu.TER().corpus_score(HYP, [REF, REF2]))
    kw = {"normalized": True, "case_sensitive": True}
    stats = rbs.corpus_stats(df, "hyp", ["ref", "ref2"], metric="ter", **kw)
    metric = rapidbleu.TER(**kw)
    assert str(stats.score()) == str(metric.corpus_score(HYP, [REF, REF2]))
    assert str(stats.signature()) == str(metric.get_signature())
    rows = df.select(rbs.sentence_score("hyp", ["ref", "ref2"], metric="ter").alias("t")).collect()
    assert [r["t"] for r in rows] == [ter_reference.sacre_score([row]).score for row in theirs]
    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    mixed = rbs.corpus_score(df, "hyp", "refs", metric="ter", no_punct=True)
    assert mixed.score == pytest.approx(rapidbleu.TER(no_punct=True).corpus_score(HYP, padded).score, rel=1e-13)


def test_errors(spark, df):
    import rapidbleu.spark as rbs

    with pytest.raises(ValueError, match="no column 'nope'"):
        rbs.corpus_bleu(df, "hyp", "nope")
    with pytest.raises(ValueError, match="empty"):
        rbs.corpus_bleu(df.limit(0), "hyp", "ref")
    bad = spark.createDataFrame([("a b c", "a b c"), (None, "x")], "hyp string, ref string")
    with pytest.raises(Exception, match="hypothesis at row 1 of partition 0 is null"):
        rbs.corpus_bleu(bad.coalesce(1), "hyp", "ref")
    with pytest.raises(TypeError, match="NLTK-style"):
        rbs.corpus_bleu(df, "hyp", "ref", weights=(1,))


def test_rows_named_across_arrow_batches_and_nltk_bleu_n(spark, df):
    """A bad row is named by its row in its Spark partition and that partition, counted across
    the partition's Arrow batches (32 rows each here: it was named by its row in its batch);
    style="nltk", max_ngram_order=2 is NLTK's BLEU-2 (it scored BLEU-4); a sentence-score
    column is in the DataFrame's row order, whatever the partitioning."""
    import rapidbleu.spark as rbs

    rows = [(f"the cat sat on mat number {i}", f"the cat sat on the mat number {i}") for i in range(40)]
    rows[35] = (None, "x")
    bad = spark.createDataFrame(rows, "hyp string, ref string").coalesce(1)
    with pytest.raises(Exception, match=r"hypothesis at row 35 of partition 0 is null"):
        rbs.corpus_bleu(bad, "hyp", "ref")
    with pytest.raises(Exception, match=r"hypothesis at row 35 of partition 0 is null"):
        bad.select(rbs.sentence_bleu("hyp", "ref")).collect()
    m1 = nltk_bleu.SmoothingFunction().method1
    kw = {"style": "nltk", "max_ngram_order": 2, "smoothing_function": "method1"}
    refs = [[r.split()] for r in REF]
    assert rbs.corpus_bleu(df, "hyp", "ref", **kw) == nltk_bleu.corpus_bleu(
        refs, [h.split() for h in HYP], (0.5, 0.5), m1
    )
    shuffled = df.repartition(4)
    got = shuffled.select("hyp", "ref", rbs.sentence_bleu("hyp", "ref", **kw).alias("s")).collect()
    assert [r["s"] for r in got] == [
        nltk_bleu.sentence_bleu([r["ref"].split()], r["hyp"].split(), (0.5, 0.5), m1) for r in got
    ]


def test_no_pyspark_pandas_notice_from_rapidbleus_calls(df):
    """PySpark warns on each use of its pandas code paths when pandas is newer than it supports
    ("FutureWarning: PySpark does not yet fully support pandas >= 3.0.0 ..."): a notice about
    PySpark, which rapidbleu's own calls (building the sentence-score UDF, the corpus score's
    Arrow pass) do not pass on to the user."""
    import warnings

    import rapidbleu.spark as rbs

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rbs.sentence_score("hyp", "ref")
        score = rbs.corpus_score(df, "hyp", "ref")
    assert score.score == rapidbleu.corpus_bleu(HYP, [REF]).score
    assert [str(w.message) for w in caught if "PySpark" in str(w.message)] == []
