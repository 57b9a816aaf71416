"""rapidbleu.stats: the statistics of a corpus split any way sum to the whole, and the sum
scores exactly as one call on the whole corpus (sacreBLEU and NLTK), in one process or many."""

import os
import pickle

import numpy as np
import pytest
import sacrebleu
from conftest import SAMPLE_DIR, integration, read
from nltk.translate import bleu_score as nltk_bleu

import rapidbleu
import rapidbleu.nltk as rb_nltk
import rapidbleu.stats
from rapidbleu.registry import METRICS
from rapidbleu.stats import ConfigMismatchError, corpus_stats, merge, nltk_corpus_stats

HYP = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")
HYP2 = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")


def _cuts(n, parts, seed):
    rng = np.random.default_rng(seed)
    inner = sorted(rng.choice(np.arange(1, n), size=parts - 1, replace=False).tolist())
    return list(zip([0, *inner], [*inner, n], strict=False))


def _parts(cuts, hyps, refs, **kw):
    return [corpus_stats(hyps[a:b], [r[a:b] for r in refs], **kw) for a, b in cuts]


SETTINGS = [
    {},
    {"tokenize": "intl", "lowercase": True},
    {"smooth_method": "floor", "smooth_value": 0.3},
    {"smooth_method": "add-k", "effective_order": True},
    {"smooth_method": "none", "tokenize": "char"},
]


@pytest.mark.parametrize("kw", SETTINGS)
@pytest.mark.parametrize("parts", [1, 2, 7])
def test_sum_of_parts_equals_whole_sacrebleu(kw, parts):
    refs = [REF, HYP2]
    whole = rapidbleu.BLEU(**kw).corpus_score(HYP, refs)
    theirs = sacrebleu.BLEU(**kw).corpus_score(HYP, refs)
    pieces = _parts(_cuts(len(HYP), parts, parts), HYP, refs, **kw)
    for total in (sum(pieces), merge(pieces), pieces[0] if parts == 1 else pieces[0] + merge(pieces[1:])):
        got = total.score()
        assert got.score == whole.score == theirs.score
        assert str(got) == str(whole) == str(theirs)
        assert total.n_segments == len(HYP)
    metric = rapidbleu.BLEU(**kw)
    metric.corpus_score(HYP, refs)
    assert sum(pieces).signature().format() == metric.get_signature().format()


def test_vector_roundtrip_and_pickle():
    pieces = _parts(_cuts(len(HYP), 3, 1), HYP, [REF])
    total = sum(pieces)
    vec = np.sum([p.vector for p in pieces], axis=0)  # what an all-reduce computes
    again = pieces[0].from_vector(vec)
    assert again == total
    assert again.score().score == total.score().score
    clone = pickle.loads(pickle.dumps(total))
    assert clone == total
    assert str(clone.score()) == str(total.score())
    assert total.vector.dtype == np.int64
    assert total.vector.shape == (2 + 2 * 4 + 1,)


def test_different_settings_refuse_to_merge():
    a = corpus_stats(HYP[:10], [REF[:10]])
    for kw in ({"tokenize": "intl"}, {"lowercase": True}, {"smooth_method": "floor"}, {"max_ngram_order": 3}):
        with pytest.raises(ConfigMismatchError, match="different settings"):
            a + corpus_stats(HYP[10:20], [REF[10:20]], **kw)
    with pytest.raises(ConfigMismatchError, match="different settings"):
        merge([a, corpus_stats(HYP[10:20], [REF[10:20], HYP2[10:20]])])  # nrefs 1 vs 2
    nl = nltk_corpus_stats([[r.split()] for r in REF[:5]], [h.split() for h in HYP[:5]])
    with pytest.raises(ConfigMismatchError, match="nltk-style"):
        a + nl
    with pytest.raises(TypeError):
        a + np.zeros(11, dtype=np.int64)
    with pytest.raises(ValueError, match="no statistics"):
        merge([])
    with pytest.raises(ValueError, match="no segments"):
        a.from_vector(np.zeros(11, dtype=np.int64)).score()
    with pytest.raises(ValueError, match=r"statistics vector: row 0, column 0 is negative \(-1\)"):
        a.from_vector(-np.ones(11, dtype=np.int64))
    with pytest.raises(ValueError, match="11 values"):
        a.from_vector(np.zeros(12, dtype=np.int64))
    # an all-reduce in floats: whole numbers are counts; 5.5 was truncated, inf cast to int64
    assert a.from_vector(a.vector.astype(np.float64)).score().score == a.score().score
    for bad, why in ((5.5, "statistics are whole counts"), (np.nan, "need a number"), (np.inf, "need a number")):
        vec = a.vector.astype(np.float64)
        vec[3] = bad
        with pytest.raises(ValueError, match=rf"column 3 \(matches_2\) is {bad!r}; {why}"):
            a.from_vector(vec)
    with pytest.raises(ValueError, match=r"\(segments\) is 2.25; statistics are whole counts"):
        nl.from_vector([*nl.vector.tolist()[:-1], 2.25])


@pytest.mark.parametrize(
    "kw", [{}, {"word_order": 2, "lowercase": True}, {"beta": 3, "whitespace": True, "eps_smoothing": True}]
)
def test_chrf_parts_merge_and_score_as_the_whole(kw):
    """chrF's statistics of any split sum to the whole corpus's, and score exactly as one call
    (and as sacreBLEU); vectors, pickles, signatures; other chrF settings or another metric
    refuse to merge."""
    refs = [REF, HYP2]
    metric = rapidbleu.CHRF(**kw)
    whole = metric.corpus_score(HYP, refs)
    theirs = sacrebleu.CHRF(**kw)
    assert whole.score == theirs.corpus_score(HYP, refs).score
    pieces = _parts(_cuts(len(HYP), 5, 3), HYP, refs, metric=rapidbleu.CHRF(**kw))
    total = sum(pieces)
    assert total == merge(pieces)
    assert total.metric_id == "chrf"
    assert str(total.score()) == str(whole)
    assert total.n_segments == len(HYP)
    assert str(total.signature()) == str(metric.get_signature())
    assert total.vector.shape == (3 * metric.order + 1,)
    again = pieces[0].from_vector(np.sum([p.vector for p in pieces], axis=0))
    assert again == total
    assert pickle.loads(pickle.dumps(total)) == total
    other = corpus_stats(HYP[:9], [REF[:9], HYP2[:9]], metric=rapidbleu.CHRF(**{**kw, "char_order": 5}))
    with pytest.raises(ConfigMismatchError, match="char_order: 6 vs 5"):
        total + other
    with pytest.raises(ConfigMismatchError, match="cannot merge chrf and bleu"):
        total + corpus_stats(HYP[:9], [REF[:9], HYP2[:9]])


@pytest.mark.parametrize("kw", [{}, {"normalized": True, "no_punct": True}, {"case_sensitive": True}])
def test_ter_parts_merge_and_score_as_the_whole(kw):
    """TER's float statistics of any split sum to the whole corpus's and score as one call
    (sacreBLEU's floats, on 60 segments with two references: lengths are halves, so every sum
    is exact); vectors (float64), pickles, signatures; other TER settings or another metric
    refuse to merge.  With three references (thirds) the merged lengths stay within 1e-13 of
    one left-to-right pass."""
    import ter_reference

    hyps, refs = HYP[:60], [REF[:60], HYP2[:60]]
    metric = rapidbleu.TER(**kw)
    whole = metric.corpus_score(hyps, refs)
    if not kw:
        assert whole.score == ter_reference.sacre_score(ter_reference.sacre_statistics(hyps, refs)).score
    pieces = _parts(_cuts(len(hyps), 5, 4), hyps, refs, metric=rapidbleu.TER(**kw))
    total = sum(pieces)
    assert total == merge(pieces)
    assert total.metric_id == "ter"
    assert str(total.score()) == str(whole)
    assert total.score().score == whole.score
    assert total.n_segments == len(hyps)
    assert str(total.signature()) == str(metric.get_signature())
    assert total.vector.dtype == np.float64
    assert total.vector.shape == (3,)
    again = pieces[0].from_vector(np.sum([p.vector for p in pieces], axis=0))
    assert again == total
    assert pickle.loads(pickle.dumps(total)) == total
    with pytest.raises(ValueError, match="whole counts"):
        pieces[0].from_vector([2.5, 10.0, 3.0])
    other = corpus_stats(hyps[:9], [r[:9] for r in refs], metric=rapidbleu.TER(**{**kw, "asian_support": True}))
    with pytest.raises(ConfigMismatchError, match="asian_support: False vs True"):
        total + other
    with pytest.raises(ConfigMismatchError, match="cannot merge ter and bleu"):
        total + corpus_stats(hyps[:9], [r[:9] for r in refs])
    three = [*refs, HYP[:60]]
    one_pass = metric.corpus_totals(hyps, three)
    merged = sum(_parts(_cuts(len(hyps), 7, 5), hyps, three, metric=rapidbleu.TER(**kw)))
    assert merged.row[0] == one_pass[0]
    assert merged.row[1] == pytest.approx(one_pass[1], rel=1e-13)


_BY_NAME = {
    "bleu": {"tokenize": "intl", "smooth_method": "floor"},
    "chrf": {"word_order": 2, "beta": 3},
    "ter": {"normalized": True, "no_punct": True},
    "nltk": {"max_ngram_order": 5},
}


@pytest.mark.parametrize("metric_id", sorted(_BY_NAME))
def test_corpus_stats_takes_every_registered_metric_by_name(metric_id):
    """``corpus_stats(..., metric="chrf", word_order=2)``: a registered metric's name and its
    options (it was an ``AttributeError``), scoring as the metric's own corpus score on the
    whole corpus, alone and merged from parts."""
    # (every metric rapidbleu registers is tested; a test module may register its own)
    assert sorted(m for m, cls in METRICS.items() if cls.__module__.startswith("rapidbleu.")) == sorted(_BY_NAME)
    hyps, refs = HYP[:40], [REF[:40], HYP2[:40]]
    for options in ({}, _BY_NAME[metric_id]):
        metric = METRICS[metric_id](**options)
        whole = metric.corpus_score(hyps, refs)
        got = corpus_stats(hyps, refs, metric=metric_id, **options)
        assert got.metric_id == metric_id
        assert got.config == metric.config()
        merged = sum(_parts(_cuts(len(hyps), 3, 2), hyps, refs, metric=metric_id, **options))
        if metric_id == "nltk":
            assert got.score() == merged.score() == whole
            assert whole == rb_nltk.corpus_bleu(
                [[r.split() for r in seg] for seg in zip(*refs, strict=True)], [h.split() for h in hyps]
            )
        else:
            assert str(got.score()) == str(merged.score()) == str(whole)
            assert got.score().score == whole.score
    with pytest.raises(ValueError, match="unknown metric 'chrF'"):
        corpus_stats(hyps, refs, metric="chrF")
    with pytest.raises(TypeError, match="not both"):
        corpus_stats(hyps, refs, metric=METRICS[metric_id](), lowercase=True)


def test_counts_beyond_int64_are_refused_quoting_them():
    """The vector holds int64 (for all-reduce sums): a count beyond it -- given, summed from
    segments or merged -- is refused with its value, not wrapped (which was refused as
    "non-negative" or scored)."""
    chrf = rapidbleu.CHRF()
    chrf.num_refs = 1
    want = r"statistics vector: row 0, column 0 \(char1_hyp\) is 9223372036854775808, which numpy int64"
    with pytest.raises(ValueError, match=want):
        rapidbleu.stats.from_segment_stats([[2**62] * 18, [2**62] * 18], chrf)  # the sum
    with pytest.raises(ValueError, match=r"is 1180591620717411303424, which numpy int64"):
        rapidbleu.stats.from_segment_stats([[2**70] * 18], chrf)
    half = rapidbleu.stats.from_segment_stats([[2**62] * 18], chrf)
    with pytest.raises(ValueError, match=want):
        half + half
    with pytest.raises(ValueError, match=want):
        half.from_vector(np.array([2**63] * 19, dtype=np.uint64))
    with pytest.raises(ValueError, match=r"is 10000000000000000000, which numpy int64"):
        half.from_vector(np.array([1e19] * 19))
    assert (half + half.from_vector([2**62 - 1] * 18 + [1])).vector.tolist() == [2**63 - 1] * 18 + [2]


SMOOTH = nltk_bleu.SmoothingFunction()


@pytest.mark.parametrize("method", range(8))
@pytest.mark.parametrize("order", [4, 5])
def test_sum_of_parts_equals_whole_nltk(method, order):
    refs = [[r.split(), h.split()] for r, h in zip(REF, HYP2, strict=False)]
    hyps = [h.split() for h in HYP]
    fn = getattr(SMOOTH, f"method{method}")
    weights = (1 / order,) * order
    want = nltk_bleu.corpus_bleu(refs, hyps, weights=weights, smoothing_function=fn)
    ours = rb_nltk.corpus_bleu(refs, hyps, weights=weights, smoothing_function=fn)
    assert ours == want
    for parts in (1, 3):
        pieces = [nltk_corpus_stats(refs[a:b], hyps[a:b], order) for a, b in _cuts(len(hyps), parts, 5)]
        assert sum(pieces).score(weights, fn) == want
        assert merge(pieces).score([weights, (0.5, 0.5)], fn) == rb_nltk.corpus_bleu(
            refs, hyps, weights=[weights, (0.5, 0.5)], smoothing_function=fn
        )
    vec_total = pieces[0].from_vector(np.sum([p.vector for p in pieces], axis=0))
    if method in (5, 6, 7):
        with pytest.raises(ValueError, match="last segment"):
            vec_total.score(weights, fn)
    else:
        assert vec_total.score(weights, fn) == want


def test_nltk_last_segment_and_errors():
    refs = [[["a", "b", "c"]], [["the", "cat", "sat", "on", "the", "mat"]]]
    hyps = [["a", "b", "c"], ["the", "cat", "sat", "on", "mat"]]
    st = nltk_corpus_stats(refs[:1], hyps[:1]) + nltk_corpus_stats(refs[1:], hyps[1:])
    for m in (5, 6, 7):
        fn = getattr(SMOOTH, f"method{m}")
        assert st.score(smoothing_function=fn) == nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=fn)
    with pytest.raises(TypeError, match="custom smoothing"):
        st.score(smoothing_function=lambda p_n, **kw: p_n)
    with pytest.raises(ValueError, match="5 n-gram orders"):
        st.score(weights=(0.2,) * 5)
    with pytest.raises(TypeError, match="no sacreBLEU signature"):
        st.signature()
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        nltk_corpus_stats(refs, hyps[:1])
    with pytest.raises(TypeError, match="NLTK-style"):
        corpus_stats(HYP[:3], [REF[:3]]).score(weights=(1,))
    # max_ngram_order as everywhere else: an int (TypeError), 1..64 (ValueError)
    with pytest.raises(TypeError, match="max_ngram_order must be an int, got float"):
        nltk_corpus_stats(refs, hyps, 2.0)
    with pytest.raises(ValueError, match="max_ngram_order must be <= 64"):
        nltk_corpus_stats(refs, hyps, 65)


def _ddp_worker(rank, world, port, path):
    import torch
    import torch.distributed as dist

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    # each process scores its shard ...
    shard = corpus_stats(HYP[rank::world], [REF[rank::world]])
    # ... one all_reduce sums the statistics ...
    vec = torch.from_numpy(shard.vector.copy())
    dist.all_reduce(vec, op=dist.ReduceOp.SUM)
    total = shard.from_vector(vec.numpy())
    # ... and NLTK-style objects with the last segment's numbers travel as objects
    nl = nltk_corpus_stats([[r.split()] for r in REF[rank::world]], [h.split() for h in HYP[rank::world]])
    gathered = [None] * world
    dist.all_gather_object(gathered, nl)
    if rank == 0:
        with open(path, "w") as fh:
            fh.write(repr((total.score().score, str(total.score()), merge(gathered).score())))
    dist.destroy_process_group()


@pytest.mark.integration
def test_torch_distributed_all_reduce(tmp_path):
    torch = integration("torch")
    import socket

    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "rank0.txt"
    mp.spawn(_ddp_worker, args=(2, port, str(out)), nprocs=2, join=True)
    score, text, nl = eval(out.read_text())
    whole = rapidbleu.BLEU().corpus_score(HYP, [REF])
    assert score == whole.score
    assert text == str(whole)
    refs = [[r.split()] for r in REF]
    hyps = [h.split() for h in HYP]
    # the shards are interleaved: NLTK's score does not depend on segment order for method 0
    assert nl == nltk_bleu.corpus_bleu(refs, hyps)
    assert torch is not None
