"""rapidbleu.ray on a local Ray runtime started here (``ray.init(num_cpus=2)``): corpus BLEU, chrF
and TER from per-block statistics and sentence scores per row equal single-process rapidbleu (and
sacreBLEU / NLTK) exactly.

Skipped without Ray Data unless RAPIDBLEU_REQUIRE_RAY=1 (set by .ci/run)."""

import logging
import os

import pytest

if os.environ.get("RAPIDBLEU_REQUIRE_RAY") != "1":
    pytest.importorskip("ray.data", reason="Ray Data not installed (extra rapidbleu[ray])")

import sacrebleu
from conftest import SAMPLE_DIR, read
from nltk.translate import bleu_score as nltk_bleu

import rapidbleu

pytestmark = pytest.mark.integration

HYP = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")
REF2 = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")
# a list column with 1, 2 or 3 references per row
ARR = [
    [r] if i % 3 == 0 else ([r, s] if i % 3 == 1 else [r, s, h[::-1]])
    for i, (r, s, h) in enumerate(zip(REF, REF2, HYP, strict=True))
]
PADDED = [[row[k] if k < len(row) else None for row in ARR] for k in range(3)]


@pytest.fixture(scope="module")
def ds():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    rows = [
        {"i": i, "hyp": h, "ref": r, "ref2": s, "refs": a}
        for i, (h, r, s, a) in enumerate(zip(HYP, REF, REF2, ARR, strict=True))
    ]
    yield ray.data.from_items(rows, override_num_blocks=4)
    ray.shutdown()


def test_corpus_bleu_equals_single_process(ds):
    import rapidbleu.ray as rbr

    for refs, streams in (("ref", [REF]), (["ref", "ref2"], [REF, REF2]), (["ref", "hyp"], [REF, HYP])):
        for kw in ({}, {"tokenize": "intl", "lowercase": True, "smooth_method": "add-k"}):
            stats = rbr.corpus_stats(ds, "hyp", refs, **kw)
            want = rapidbleu.BLEU(**kw).corpus_score(HYP, streams)
            assert stats.score().score == want.score == sacrebleu.BLEU(**kw).corpus_score(HYP, streams).score
            assert str(rbr.corpus_bleu(ds, "hyp", refs, **kw)) == str(want)
    metric = rapidbleu.BLEU()
    stats = rbr.corpus_stats(ds, "hyp", "refs")  # a list column, a varying number of references
    assert str(stats.score()) == str(metric.corpus_score(HYP, PADDED))
    assert str(stats.signature()) == str(metric.get_signature())  # nrefs:var
    assert stats.n_segments == len(HYP)


def test_nltk_style_last_segment_and_sentences(ds):
    import rapidbleu.ray as rbr

    refs = [[r.split(), s.split()] for r, s in zip(REF, REF2, strict=True)]
    hyps = [h.split() for h in HYP]
    smooth = nltk_bleu.SmoothingFunction()
    for fn in ("method1", "method7"):  # method 7 reads the last segment: preserve_order for it
        want = nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=getattr(smooth, fn))
        assert rbr.corpus_bleu(ds, "hyp", ["ref", "ref2"], style="nltk", smoothing_function=fn) == want
    assert ds.context.execution_options.preserve_order is False  # restored after the call

    rows = sorted(rbr.sentence_bleu(ds, "hyp", ["ref", "ref2"]).take_all(), key=lambda r: r["i"])
    assert [r["bleu"] for r in rows] == [
        sacrebleu.sentence_bleu(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=False)
    ]
    assert rows[0]["hyp"] == HYP[0]  # the other columns are kept
    rows = sorted(
        rbr.sentence_bleu(ds, "hyp", "refs", column="b1", style="nltk", smoothing_function="method1").take_all(),
        key=lambda r: r["i"],
    )
    assert [r["b1"] for r in rows] == [
        nltk_bleu.sentence_bleu([x.split() for x in a], h.split(), smoothing_function=smooth.method1)
        for h, a in zip(HYP, ARR, strict=True)
    ]


def test_chrf_and_ter(ds):
    """``metric="chrf"`` / ``"ter"`` with the metric's options: the corpus score, signature and
    per-row sentence scores of one process (TER's statistics are floats: float64 blocks)."""
    import rapidbleu.ray as rbr

    got = rbr.corpus_score(ds, "hyp", ["ref", "ref2"], metric="chrf", word_order=2)
    want = rapidbleu.CHRF(word_order=2).corpus_score(HYP, [REF, REF2])
    assert str(got) == str(want)
    assert got.score == sacrebleu.CHRF(word_order=2).corpus_score(HYP, [REF, REF2]).score
    metric = rapidbleu.TER(normalized=True)
    stats = rbr.corpus_stats(ds, "hyp", "refs", metric="ter", normalized=True)  # 1-3 references per row
    want = metric.corpus_score(HYP, PADDED)
    assert stats.metric_id == "ter"
    assert str(stats.score()) == str(want)
    assert str(stats.signature()) == str(metric.get_signature())
    assert str(rbr.corpus_score(ds, "hyp", "refs", metric="ter", normalized=True)) == str(want)

    rows = sorted(rbr.sentence_score(ds, "hyp", "ref", metric="ter").take_all(), key=lambda r: r["i"])
    assert [r["ter"] for r in rows] == rapidbleu.TER().sentence_scores(HYP, [REF]).tolist()
    assert rows[1]["ter"] == sacrebleu.sentence_ter(HYP[1], [REF[1]]).score  # (TER's exactness: test_ter)
    chrf = sacrebleu.CHRF(lowercase=True)
    rows = sorted(
        rbr.sentence_score(ds, "hyp", ["ref", "ref2"], metric="chrf", column="c", lowercase=True).take_all(),
        key=lambda r: r["i"],
    )
    assert [r["c"] for r in rows] == [
        chrf.sentence_score(h, [r, s]).score for h, r, s in zip(HYP, REF, REF2, strict=True)
    ]
    with pytest.raises(TypeError, match="lowercase"):
        rbr.corpus_score(ds, "hyp", "ref", metric="ter", lowercase=True)  # TER: case_sensitive
    with pytest.raises(ValueError, match=r"unknown metric 'meteor'; known: bleu, .*ter"):
        rbr.corpus_score(ds, "hyp", "ref", metric="meteor")


def test_errors(ds):
    import ray

    import rapidbleu.ray as rbr

    with pytest.raises(ValueError, match="no column 'nope'"):
        rbr.corpus_bleu(ds, "hyp", "nope")
    with pytest.raises(ValueError, match="already has a column 'ref'"):
        rbr.sentence_bleu(ds, "hyp", "ref2", column="ref")
    with pytest.raises(TypeError, match="custom smoothing"):
        rbr.corpus_bleu(ds, "hyp", "ref", style="nltk", smoothing_function=lambda p, **k: p)
    bad = ray.data.from_items([{"hyp": "a", "ref": "a"}, {"hyp": None, "ref": "b"}])
    with pytest.raises(TypeError, match=r"hypothesis at row \d of the partition is null"):
        rbr.corpus_bleu(bad, "hyp", "ref")
    empty = ray.data.from_items([{"hyp": "a", "ref": "a"}]).filter(lambda _r: False)
    with pytest.raises(ValueError, match="no rows"):
        rbr.corpus_bleu(empty, "hyp", "ref")
