"""rapidbleu.dask on a 2-process LocalCluster: corpus BLEU from per-partition statistics and
sentence BLEU per row equal single-process rapidbleu (and sacreBLEU / NLTK) exactly.

Skipped without dask/distributed unless RAPIDBLEU_REQUIRE_DASK=1 (set by .ci/run)."""

import os

import pytest

if os.environ.get("RAPIDBLEU_REQUIRE_DASK") != "1":
    pytest.importorskip("dask.dataframe", reason="Dask not installed (extra rapidbleu[dask])")
    pytest.importorskip("distributed", reason="distributed not installed (extra rapidbleu[dask])")

import sacrebleu
from conftest import SAMPLE_DIR, read
from nltk.translate import bleu_score as nltk_bleu

import rapidbleu

HYP = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
REF2 = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")
ARR = [
    [r] if i % 3 == 0 else ([r, s] if i % 3 == 1 else [r, s, h[::-1]])
    for i, (r, s, h) in enumerate(zip(REF, REF2, HYP, strict=False))
]


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def ddf(client):
    import dask
    import dask.dataframe as dd
    import pandas as pd

    pdf = pd.DataFrame({"hyp": HYP, "ref": REF, "ref2": REF2, "refs": ARR})
    # Dask turns object columns into strings by default, lists included: keep the lists
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(pdf, npartitions=3, sort=False)


def test_corpus_bleu_equals_single_process(ddf):
    import rapidbleu.dask as rbd

    # a reference column given twice, or the hypothesis column as a reference, counts as given
    for refs, streams in (
        ("ref", [REF]),
        (["ref", "ref2"], [REF, REF2]),
        (["ref", "ref"], [REF, REF]),
        (["ref", "hyp"], [REF, HYP]),
    ):
        for kw in ({}, {"tokenize": "intl", "lowercase": True, "smooth_method": "add-k"}):
            stats = rbd.corpus_stats(ddf, "hyp", refs, **kw)
            want = rapidbleu.BLEU(**kw).corpus_score(HYP, streams)
            assert stats.score().score == want.score == sacrebleu.BLEU(**kw).corpus_score(HYP, streams).score
            assert str(stats.score()) == str(want)
    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    metric = rapidbleu.BLEU()
    want = metric.corpus_score(HYP, padded)
    stats = rbd.corpus_stats(ddf, "hyp", "refs")
    assert str(stats.score()) == str(want)
    assert str(stats.signature()) == str(metric.get_signature())


def test_nltk_style_and_sentences(ddf):
    import rapidbleu.dask as rbd

    refs = [[r.split(), s.split()] for r, s in zip(REF, REF2, strict=False)]
    hyps = [h.split() for h in HYP]
    smooth = nltk_bleu.SmoothingFunction()
    for fn in ("method1", "method7"):
        want = nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=getattr(smooth, fn))
        assert rbd.corpus_bleu(ddf, "hyp", ["ref", "ref2"], style="nltk", smoothing_function=fn) == want
    got = rbd.sentence_bleu(ddf, "hyp", ["ref", "ref2"]).compute().tolist()
    assert got == [sacrebleu.sentence_bleu(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=False)]
    got = rbd.sentence_bleu(ddf, "hyp", "refs", style="nltk", smoothing_function="method1").compute().tolist()
    assert got == [
        nltk_bleu.sentence_bleu([x.split() for x in a], h.split(), smoothing_function=smooth.method1)
        for h, a in zip(HYP, ARR, strict=False)
    ]


def test_bags(client):
    import dask.bag as db

    import rapidbleu.dask as rbd

    bag = db.from_sequence(list(zip(HYP, ARR, strict=False)), npartitions=4)
    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    assert str(rbd.bag_corpus_bleu(bag)) == str(rapidbleu.BLEU().corpus_score(HYP, padded))
    assert (
        rbd.bag_sentence_bleu(bag).compute()
        == rapidbleu.BLEU(effective_order=True).sentence_scores(HYP, padded).tolist()
    )
    bag1 = db.from_sequence(list(zip(HYP, REF, strict=False)), npartitions=3)
    assert rbd.bag_corpus_bleu(bag1, style="nltk") == nltk_bleu.corpus_bleu(
        [[r.split()] for r in REF], [h.split() for h in HYP]
    )


def test_chrf_frames_and_bags(ddf):
    """chrF (and chrF++) through the generic functions: corpus scores from summed partition
    statistics (a list column with 1-3 references), sentence scores, bags; equal to
    single-process rapidbleu and sacreBLEU."""
    import dask.bag as db

    import rapidbleu.dask as rbd

    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    kw = {"word_order": 2, "eps_smoothing": True}
    got = rbd.corpus_score(ddf, "hyp", "refs", metric="chrf", **kw)
    assert str(got) == str(rapidbleu.CHRF(**kw).corpus_score(HYP, padded))
    assert got.score == sacrebleu.CHRF(**kw).corpus_score(HYP, padded).score
    stats = rbd.corpus_stats(ddf, "hyp", ["ref", "ref2"], metric="chrf")
    assert stats.score().score == sacrebleu.CHRF().corpus_score(HYP, [REF, REF2]).score
    series = rbd.sentence_score(ddf, "hyp", ["ref", "ref2"], metric="chrf", **kw)
    assert series.name == "chrf"
    theirs = sacrebleu.CHRF(**kw)
    want = [theirs.sentence_score(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=False)]
    assert series.compute().tolist() == want
    bag = db.from_sequence(list(zip(HYP, ARR, strict=False)), npartitions=4)
    assert str(rbd.bag_corpus_score(bag, "chrf")) == str(rapidbleu.CHRF().corpus_score(HYP, padded))
    assert (
        rbd.bag_sentence_score(bag, "chrf", **kw).compute()
        == rapidbleu.CHRF(**kw).sentence_scores(HYP, padded).tolist()
    )
    with pytest.raises(ValueError, match="sacreBLEU style only"):
        rbd.corpus_score(ddf, "hyp", "ref", metric="chrf", style="nltk")
    # TER the same way (float statistics per partition; single-process rapidbleu, whose TER
    # equals sacreBLEU's in test_ter)
    ter = rapidbleu.TER(normalized=True)
    assert str(rbd.corpus_score(ddf, "hyp", "refs", metric="ter", normalized=True)) == str(
        ter.corpus_score(HYP, padded)
    )
    series = rbd.sentence_score(ddf, "hyp", "ref", metric="ter")
    assert series.name == "ter"
    assert series.compute().tolist() == rapidbleu.TER().sentence_scores(HYP, [REF]).tolist()


def test_ter_frames_and_bags(ddf):
    """TER through the generic functions: float statistics summed over partitions (exact with
    one or two references per row), sentence scores, bags; equal to single-process rapidbleu
    and sacreBLEU (1-3 references per row: thirds, within 1e-13 of one pass, README)."""
    import dask.bag as db
    import ter_reference

    import rapidbleu.dask as rbd

    theirs = ter_reference.sacre_statistics(HYP, [REF, REF2])
    got = rbd.corpus_score(ddf, "hyp", ["ref", "ref2"], metric="ter")
    assert got.score == ter_reference.sacre_score(theirs).score
    assert str(got) == str(rapidbleu.TER().corpus_score(HYP, [REF, REF2]))
    series = rbd.sentence_score(ddf, "hyp", ["ref", "ref2"], metric="ter")
    assert series.name == "ter"
    assert series.compute().tolist() == [ter_reference.sacre_score([row]).score for row in theirs]
    kw = {"asian_support": True, "no_punct": True}
    pairs = list(zip(HYP, [[r, s] for r, s in zip(REF, REF2, strict=True)], strict=True))
    bag = db.from_sequence(pairs, npartitions=4)
    assert str(rbd.bag_corpus_score(bag, "ter", **kw)) == str(rapidbleu.TER(**kw).corpus_score(HYP, [REF, REF2]))
    assert (
        rbd.bag_sentence_score(bag, "ter", **kw).compute()
        == rapidbleu.TER(**kw).sentence_scores(HYP, [REF, REF2]).tolist()
    )
    padded = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]
    mixed = rbd.corpus_score(ddf, "hyp", "refs", metric="ter")
    assert mixed.score == pytest.approx(rapidbleu.TER().corpus_score(HYP, padded).score, rel=1e-13)


def test_errors(ddf):
    import dask.dataframe as dd
    import pandas as pd

    import rapidbleu.dask as rbd

    with pytest.raises(ValueError, match="no column 'nope'"):
        rbd.corpus_bleu(ddf, "hyp", "nope")
    bad = dd.from_pandas(pd.DataFrame({"hyp": ["a", None], "ref": ["a", "b"]}), npartitions=1)
    with pytest.raises(TypeError, match="hypothesis at row 1 is null"):
        rbd.corpus_bleu(bad, "hyp", "ref")
    with pytest.raises(TypeError, match="custom smoothing"):
        rbd.corpus_bleu(ddf, "hyp", "ref", style="nltk", smoothing_function=lambda p, **k: p)


def test_bad_rows_named_by_their_row_in_the_whole_frame(client):
    """Partitions whose own index restarts at 0 (as after read_csv): a null or a method-6 row
    is named by its position in the whole DataFrame, not in its partition."""
    import dask
    import dask.dataframe as dd
    import numpy as np
    import pandas as pd

    import rapidbleu.dask as rbd
    from rapidbleu.nltk import SmoothingError

    def part(hyps, refs):
        return dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=1)

    ok = ["the cat sat on the mat"] * 4
    nulls = dd.concat([part(ok, ok), part(["the cat", np.nan, "a b"], ["the cat", "x", None])])
    for call in (
        lambda: rbd.corpus_bleu(nulls, "hyp", "ref"),
        lambda: rbd.sentence_bleu(nulls, "hyp", "ref").compute(),
    ):
        with pytest.raises(TypeError, match=r"rapidbleu\.dask: hypothesis at row 5 is null"):
            call()
    no_ref = dd.concat([part(ok, ok), part(["the cat", "a b"], ["the cat", None])])
    with pytest.raises(ValueError, match=r"rapidbleu\.dask: row 5 has no reference"):
        rbd.corpus_bleu(no_ref, "hyp", "ref")
    with dask.config.set({"dataframe.convert-string": False}):  # a column of lists of references
        lists = dd.concat([part(ok, [[r] for r in ok]), part(["the cat", "a b", "c"], [["the cat"], [], ["c", "d"]])])
        with pytest.raises(ValueError, match=r"rapidbleu\.dask: row 5 has no reference"):
            rbd.corpus_bleu(lists, "hyp", "ref")
    # method 6: unigram matches but no trigram match
    m6 = dd.concat([part(ok, ok), part([*ok[:2], "the dog sat on a mat"], ok[:3])])
    with pytest.raises(SmoothingError, match=r"rapidbleu\.dask: row 6: smoothing method 6 needs"):
        rbd.sentence_bleu(m6, "hyp", "ref", style="nltk", smoothing_function="method6").compute()


def test_nltk_style_max_ngram_order_is_bleu_n(ddf, client):
    """style="nltk", max_ngram_order=2 is NLTK's BLEU-2 (weights=(0.5, 0.5)), corpus and
    sentences, frames and bags (it scored BLEU-4); weights of another length are refused."""
    import dask.bag as db

    import rapidbleu.dask as rbd

    m1 = nltk_bleu.SmoothingFunction().method1
    refs = [[r.split()] for r in REF]
    want = nltk_bleu.corpus_bleu(refs, [h.split() for h in HYP], (0.5, 0.5), m1)
    kw = {"style": "nltk", "max_ngram_order": 2, "smoothing_function": "method1"}
    assert rbd.corpus_bleu(ddf, "hyp", "ref", **kw) == want
    bag = db.from_sequence(list(zip(HYP, REF, strict=False)), npartitions=3)
    assert rbd.bag_corpus_bleu(bag, **kw) == want
    sentences = [nltk_bleu.sentence_bleu(r, h.split(), (0.5, 0.5), m1) for r, h in zip(refs, HYP, strict=False)]
    assert rbd.sentence_bleu(ddf, "hyp", "ref", **kw).compute().tolist() == sentences
    assert rbd.bag_sentence_bleu(bag, **kw).compute() == sentences
    with pytest.raises(ValueError, match="weights has 3 orders but max_ngram_order=2"):
        rbd.corpus_bleu(ddf, "hyp", "ref", weights=(1 / 3,) * 3, **kw)


def test_sentence_scores_keep_the_frames_index(client):
    """The sentence-score Series has the input DataFrame's index (a string index, unsorted,
    repeated across partitions, as after concatenating frames), value for value, and assigns
    back as a column."""
    import dask
    import dask.dataframe as dd
    import pandas as pd

    import rapidbleu.dask as rbd

    index = pd.Index([f"id{(7 * i) % 11}" for i in range(len(HYP))], name="doc")
    pdf = pd.DataFrame({"hyp": HYP, "ref": REF}, index=index)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.concat(
            [
                dd.from_pandas(pdf.iloc[:50], npartitions=2, sort=False),
                dd.from_pandas(pdf.iloc[50:], npartitions=1, sort=False),
            ]
        )
    got = rbd.sentence_bleu(ddf, "hyp", "ref").compute()
    assert got.index.equals(pdf.index)
    assert got.tolist() == [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(HYP, REF, strict=False)]
    with_scores = ddf.assign(bleu=rbd.sentence_bleu(ddf, "hyp", "ref")).compute()
    assert with_scores.index.equals(pdf.index)
    assert with_scores["bleu"].tolist() == got.tolist()


def test_bad_pairs_of_a_bag_named_by_partition(client):
    """A bad pair of a bag is named by its position in its partition and that partition (it
    was "row 1 of the partition", whichever partition); sentence scores keep the bag's order."""
    import dask.bag as db

    import rapidbleu.dask as rbd

    pairs = [("the cat sat", "the cat sat"), ("a b c", ["a b d", "a b c"]), ("x y", "x z")] * 2
    bag = db.from_sequence(pairs, npartitions=2)
    want = [sacrebleu.sentence_bleu(h, [r] if isinstance(r, str) else r).score for h, r in pairs]
    assert rbd.bag_sentence_bleu(bag).compute() == want
    bad = db.from_sequence([*pairs[:3], pairs[3], (None, "x"), pairs[5]], npartitions=2)
    for call in (lambda: rbd.bag_corpus_bleu(bad), lambda: rbd.bag_sentence_bleu(bad).compute()):
        with pytest.raises(TypeError, match=r"rapidbleu\.dask: hypothesis at row 1 of partition 1 is null"):
            call()
