"""Minimum Bayes risk decoding (``rapidbleu.mbr``): reference-aggregated chrF/chrF++ and BLEU
(the twins bit for bit, the formulas against sacreBLEU's sentence scores, fastchrf's
``aggregate_chrf`` and mbrs' reference aggregation) and the expected utilities of every metric
(against sacreBLEU's ``sentence_score`` of every pair), with the input errors."""

import importlib
import math
import pathlib
import sys
import types

import numpy as np
import pytest
import sacrebleu
from conftest import HAVE_CYTHON, integration, read, systems, wmt23_dir
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidbleu
from rapidbleu import mbr
from rapidbleu._core import backend as _backend
from rapidbleu._core.aggregate import aggregate_py as _aggregate_py

#: The twins compared directly (without the backend fixture).
TWINS = [_aggregate_py]
if HAVE_CYTHON:
    from rapidbleu._core.aggregate import aggregate_cy as _aggregate_cy

    TWINS.append(_aggregate_cy)

H = ["the cat sat on the mat.", "a cat is on the mat", "dogs bark", "", "The cat, sat on a mat!", "ça va ?"]
R = ["the cat is on the mat", "there is a cat on the mat", "a dog barks loudly", "cat", "  "]


def candidate_sets(pair="de-en", size=24, count=3):
    """``count`` candidate lists of WMT23 system outputs (``size`` each: the systems' outputs of
    consecutive segments), from the full data or the shipped samples."""
    outs = [read(hyp) for p, _s, hyp, _r in systems(wmt23_dir()) if p == pair]
    per = len(outs)
    sets = []
    for k in range(count):
        seg = k * (size // per + 1)
        sets.append([out[seg + i // per] for i, out in zip(range(size), outs * size, strict=False)])
    return sets


# ------------------------------------------------------------------------------------------
# The twins, bit for bit
# ------------------------------------------------------------------------------------------
def _packed(seqs):
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=offsets[1:])
    return np.array([u for s in seqs for u in s], dtype=np.int64), offsets


units = st.lists(st.lists(st.integers(-3, 4) | st.integers(-(2**63), 2**63 - 1), max_size=12), max_size=6)


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
@settings(deadline=None, max_examples=300)
@given(
    hyps=units,
    refs=units.filter(bool),
    weights=st.lists(st.floats(0, 1e6) | st.sampled_from([0.0, 1.0, 1e-300, 0.1]), min_size=6, max_size=6),
    order=st.integers(1, 7),
    workers=st.sampled_from([1, 2]),
)
def test_ngram_stats_twins_identical(hyps, refs, weights, order, workers):
    v = np.array(weights[: len(refs)])
    divisor = math.fsum(v.tolist()) or 1.0
    a = TWINS[0].ngram_stats(*_packed(hyps), *_packed(refs), v, divisor, order, workers)
    b = TWINS[1].ngram_stats(*_packed(hyps), *_packed(refs), v, divisor, order, workers)
    assert a.shape == (len(hyps), 3 * order)
    assert a.tobytes() == b.tobytes()


rows = st.lists(st.floats(0, 50, allow_subnormal=False) | st.sampled_from([0.0, 1.0, 3.0]), min_size=3, max_size=24)


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
@settings(deadline=None, max_examples=300)
@given(
    row=rows,
    n=st.integers(1, 3),
    beta=st.sampled_from([2, 1, 0, 3, 0.5, 2.5]),
    eps_smoothing=st.booleans(),
)
def test_chrf_row_scores_twins_identical(row, n, beta, eps_smoothing):
    width = len(row) // 3 * 3
    arr = np.array([row[:width]] * n, dtype=np.float64)
    a = TWINS[0].chrf_row_scores(arr, beta, eps_smoothing)
    b = TWINS[1].chrf_row_scores(arr, beta, eps_smoothing)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize(
    "options", [{}, {"word_order": 2}, {"whitespace": True, "lowercase": True}, {"eps_smoothing": True, "beta": 0.5}]
)
def test_aggregate_chrf_backends_identical_on_wmt23(backend, options, monkeypatch):
    """The public function on both backends: the same floats as the Python twin's."""
    cands = candidate_sets(size=30, count=1)[0]
    weights = np.linspace(0.1, 3.0, len(cands))
    got = mbr.aggregate_chrf(cands, cands, weights=weights, **options)
    monkeypatch.setattr(_backend, "aggregate", _aggregate_py)
    assert got.tobytes() == mbr.aggregate_chrf(cands, cands, weights=weights, **options).tobytes()
    assert got.shape == (len(cands),)


# ------------------------------------------------------------------------------------------
# The formulas
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"whitespace": True}, {"eps_smoothing": True}])
def test_aggregate_chrf_of_one_reference_is_sentence_chrf(backend, options):
    """With one pseudo-reference (or copies of it, or weights that keep only it), the mean
    counts are the reference's own: sacreBLEU's sentence chrF to the last digit."""
    sacre = sacrebleu.CHRF(**options)
    for ref in R:
        want = [sacre.sentence_score(h, [ref]).score for h in H]
        assert mbr.aggregate_chrf(H, [ref], **options).tolist() == want
        assert mbr.aggregate_chrf(H, [ref, ref, ref], **options).tolist() == want
        assert mbr.aggregate_chrf(H, [ref, "other words"], weights=[2.5, 0], **options).tolist() == want


@pytest.mark.parametrize("options", [{}, {"smooth_method": "floor"}, {"max_ngram_order": 2}, {"lowercase": True}])
def test_aggregate_bleu_of_one_reference_is_sentence_bleu(backend, options):
    sacre = sacrebleu.BLEU(effective_order=True, **options)
    for ref in R:
        want = [sacre.sentence_score(h, [ref]).score for h in H]
        assert mbr.aggregate_bleu(H, [ref], **options).tolist() == want
        assert mbr.aggregate_bleu(H, [ref, ref], log_probs=[-1.0, -1.0], **options).tolist() == want


def test_aggregate_chrf_mean_counts(backend):
    """Two references: the mean counts by hand.  ``ab`` against ``ab`` and ``cd`` (no
    whitespace): unigram mean counts a, b, c, d 0.5 each, total 2; bigram ab 0.5, cd 0.5."""
    got = mbr.aggregate_chrf(["ab"], ["ab", "cd"], char_order=2)
    # precision 0.5 and recall 0.5 on both orders: F = 0.5
    assert got.tolist() == [50.0]
    weighted = mbr.aggregate_chrf(["ab"], ["ab", "cd"], char_order=2, weights=[3, 1])
    # unigram matches min(1, .75) * 2 = 1.5 of 2 and of 2; bigram .75 of 1 and of 1
    assert weighted.tolist() == pytest.approx([75.0], rel=1e-15)


def test_aggregate_bleu_token_ids_equal_strings(backend):
    """BLEU on token ids is BLEU on the tokens they stand for."""
    vocab: dict[str, int] = {}

    def ids(s):
        return [vocab.setdefault(t, len(vocab)) for t in sacrebleu.BLEU().tokenizer(s).split()]

    lp = [-0.5, -2.0, -1.0, -3.0, -0.1]
    assert mbr.aggregate_bleu([ids(h) for h in H], [ids(r) for r in R], log_probs=lp).tolist() == (
        mbr.aggregate_bleu(H, R, log_probs=lp).tolist()
    )
    arrays = [np.array(ids(h), dtype=np.int32) for h in H]
    assert mbr.aggregate_bleu(arrays, [ids(r) for r in R]).tolist() == mbr.aggregate_bleu(H, R).tolist()


def test_no_hypotheses_and_empty_segments(backend):
    """No hypothesis: an empty array; empty strings: sacreBLEU's 0 (no n-gram on either side)."""
    assert mbr.aggregate_chrf([], R).shape == (0,)
    assert mbr.aggregate_bleu([], R).shape == (0,)
    assert mbr.aggregate_chrf(["", " "], ["", ""]).tolist() == [0.0, 0.0]
    assert mbr.aggregate_bleu([""], [""]).tolist() == [0.0]
    assert mbr.aggregate_chrf(["ab"], ["ab"], char_order=0, word_order=2).tolist() == [100.0]


def test_log_probs_are_a_softmax():
    v, d = mbr.reference_weights(None, [0.0, math.log(3.0), -math.inf], 3)
    assert (v / d).tolist() == pytest.approx([0.25, 0.75, 0.0], rel=1e-15)
    v, d = mbr.reference_weights(None, [-1000.0, -1000.0], 2)  # no underflow
    assert (v / d).tolist() == [0.5, 0.5]


@pytest.mark.parametrize(
    ("weights", "want"),
    [
        ([1e308, 1e308], [0.5, 0.5]),
        ([1.7976931348623157e308] * 3, [1 / 3] * 3),
        ([5e-324, 5e-324], [0.5, 0.5]),
        ([5e-324, 1e-323], [1 / 3, 2 / 3]),
        ([1e308, 5e-324], [1.0, 0.0]),
        ([0.0, 1e308, 0.0], [0.0, 1.0, 0.0]),
        ([2.0, 2.0, 2.0, 2.0], [0.25] * 4),
    ],
)
def test_weights_at_float64_extremes_are_normalised_without_overflow(weights, want):
    """The weights' sum of 1e308s overflows float64: they are scaled by a power of two first
    (exact), so p = v / divisor is the same float as without scaling where nothing overflows."""
    v, d = mbr.reference_weights(weights, None, len(weights))
    assert np.isfinite(v).all()
    assert math.isfinite(d)
    assert d > 0
    assert (v / d).tolist() == pytest.approx(want, rel=1e-15, abs=0)
    candidates = ["a b c", "a b d", "x y", "a c"][: len(weights)]
    got = mbr.expected_utility(candidates, metric=rapidbleu.CHRF(), weights=weights)
    equal = mbr.expected_utility(candidates, metric=rapidbleu.CHRF(), weights=want)
    assert np.isfinite(got.expected).all()
    assert got.expected.tolist() == pytest.approx(equal.expected.tolist(), rel=1e-14)
    assert mbr.aggregate_chrf(["a b c"], ["a b c"] * len(weights), weights=weights).tolist() == [100.0]


def test_scaled_weights_keep_ordinary_floats():
    """Scaling by a power of two changes no float of ordinary weights."""
    weights = [0.1, 0.7, 3.25]
    v, d = mbr.reference_weights(weights, None, 3)
    assert (v / d).tolist() == (np.asarray(weights) / math.fsum(weights)).tolist()


@pytest.mark.parametrize("lp", [[1e308, 1e308], [-1e308, -1e308], [1e308, -1e308], [-1.7976931348623157e308, 0.0]])
def test_log_probs_at_float64_extremes(lp):
    v, d = mbr.reference_weights(None, lp, 2)
    p = (v / d).tolist()
    assert all(math.isfinite(x) for x in p)
    assert math.fsum(p) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([1.0, math.inf], r"weights\[1\] is inf"),
        ([-math.inf, 1.0], r"weights\[0\] is -inf"),
        ([math.nan, 1.0], r"weights\[0\] is nan"),
        ([1.0, -5e-324], r"weights\[1\] is -5e-324"),
        ([0.0, 0.0], "weights are all zero"),
    ],
)
def test_bad_weights_are_named(weights, message):
    with pytest.raises(ValueError, match=message):
        mbr.expected_utility(["a", "b"], metric=rapidbleu.CHRF(), weights=weights)


def test_workers_do_not_change_results(backend):
    cands = candidate_sets(size=40, count=1)[0]
    a = mbr.aggregate_chrf(cands, cands, word_order=2, workers=1)
    assert a.tobytes() == mbr.aggregate_chrf(cands, cands, word_order=2, workers=-1).tobytes()
    b = mbr.aggregate_bleu(cands, cands, workers=1)
    assert b.tobytes() == mbr.aggregate_bleu(cands, cands, workers=3).tobytes()


# ------------------------------------------------------------------------------------------
# Against fastchrf and mbrs
# ------------------------------------------------------------------------------------------
def _fastchrf():
    return pytest.importorskip("fastchrf", reason="fastchrf not installed (pip install fastchrf: the test extra)")


@pytest.mark.parametrize("whitespace", [False, True])
def test_aggregate_chrf_equals_fastchrf(backend, whitespace):
    fastchrf = _fastchrf()
    for pair in ("de-en", "en-de", "zh-en"):
        for cands in candidate_sets(pair, size=24, count=3):
            want = np.array(fastchrf.aggregate_chrf([cands], [cands], remove_whitespace=not whitespace)[0])
            got = mbr.aggregate_chrf(cands, cands, whitespace=whitespace)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
            assert int(np.argmax(got)) == int(np.argmax(want))
            other = cands[::-1][:7]
            want = np.array(fastchrf.aggregate_chrf([cands], [other], remove_whitespace=not whitespace)[0])
            np.testing.assert_allclose(mbr.aggregate_chrf(cands, other, whitespace=whitespace), want, rtol=1e-12)


def _mbrs_metrics():
    """mbrs' chrF and BLEU metric modules, the real code, without ``mbrs.metrics``' package
    file (which imports every neural metric's dependencies: bert_score, COMET, ...)."""
    integration("torch")
    mbrs = integration("mbrs")
    if "mbrs.metrics.chrf" not in sys.modules:
        if "mbrs.metrics" not in sys.modules:
            package = types.ModuleType("mbrs.metrics")
            package.__path__ = [str(pathlib.Path(mbrs.__file__).parent / "metrics")]
            sys.modules["mbrs.metrics"] = package
            base = importlib.import_module("mbrs.metrics.base")
            for name in ("Metric", "MetricAggregatable", "register"):
                setattr(package, name, getattr(base, name))
        importlib.import_module("mbrs.metrics.chrf")
        importlib.import_module("mbrs.metrics.bleu")
    return sys.modules["mbrs.metrics.chrf"].MetricChrF, sys.modules["mbrs.metrics.bleu"].MetricBLEU


def _close_to_mbrs(got, want, rel):
    """mbrs returns float32 scores (and BLEU's log-softmax is float32): equal within ``rel``, and
    mbrs' choice is ours (or ties ours within the rounding)."""
    np.testing.assert_allclose(got, want, rtol=rel, atol=1e-9)
    assert got[int(np.argmax(want))] >= got.max() * (1 - rel)


@pytest.mark.integration
@pytest.mark.parametrize("word_order", [0, 2])
def test_aggregate_chrf_equals_mbrs(backend, word_order):
    metric_chrf, _ = _mbrs_metrics()
    torch = integration("torch")
    metric = metric_chrf(metric_chrf.Config(word_order=word_order, num_workers=1))
    gen = torch.Generator().manual_seed(0)
    for cands in candidate_sets("en-de", size=20, count=2):
        want = metric.expected_scores_reference_aggregation(cands, cands).double().numpy()
        got = mbr.aggregate_chrf(cands, cands, word_order=word_order)
        assert (got.astype(np.float32) == want.astype(np.float32)).mean() > 0.9
        _close_to_mbrs(got, want, 1e-6)
        lprobs = torch.randn(len(cands), generator=gen, dtype=torch.float64)
        want = metric.expected_scores_reference_aggregation(cands, cands, reference_lprobs=lprobs).double().numpy()
        _close_to_mbrs(mbr.aggregate_chrf(cands, cands, word_order=word_order, log_probs=lprobs), want, 1e-6)


@pytest.mark.integration
def test_aggregate_bleu_equals_mbrs(backend):
    _, metric_bleu = _mbrs_metrics()
    torch = integration("torch")
    metric = metric_bleu(metric_bleu.Config(num_workers=1))
    gen = torch.Generator().manual_seed(1)
    for cands in candidate_sets("de-en", size=20, count=2):
        want = metric.expected_scores_reference_aggregation(cands, cands).double().numpy()
        _close_to_mbrs(mbr.aggregate_bleu(cands, cands), want, 1e-6)
        lprobs = torch.randn(len(cands), generator=gen)
        want = metric.expected_scores_reference_aggregation(cands, cands, reference_lprobs=lprobs).double().numpy()
        # mbrs' float32 softmax, given as weights: the same numbers up to its float32 output
        weights = lprobs.log_softmax(dim=-1, dtype=torch.float32).double().exp().numpy()
        _close_to_mbrs(mbr.aggregate_bleu(cands, cands, weights=weights), want, 1e-6)
        _close_to_mbrs(mbr.aggregate_bleu(cands, cands, log_probs=lprobs), want, 1e-5)


# ------------------------------------------------------------------------------------------
# Expected utilities
# ------------------------------------------------------------------------------------------
METRICS = [
    (rapidbleu.CHRF, sacrebleu.CHRF, {}),
    (rapidbleu.CHRF, sacrebleu.CHRF, {"word_order": 2, "lowercase": True}),
    (rapidbleu.BLEU, sacrebleu.BLEU, {}),
    (rapidbleu.TER, sacrebleu.TER, {}),
    (rapidbleu.TER, sacrebleu.TER, {"normalized": True, "case_sensitive": True}),
]


@pytest.mark.parametrize(("ours", "theirs", "options"), METRICS)
def test_expected_utility_matrix_is_sentence_scores(backend, ours, theirs, options):
    sacre = theirs(**({"effective_order": True} if theirs is sacrebleu.BLEU else {}), **options)
    weights = [0.5, 2.0, 0.0, 1.0, 1.5]
    for refs in (R, None):
        rr = H if refs is None else refs
        want = np.array([[sacre.sentence_score(h, [r]).score for r in rr] for h in H])
        kw = {"weights": weights} if refs is not None else {}
        res = mbr.expected_utility(H, refs, metric=ours(**options), block_pairs=7, **kw)
        assert res.utilities.tolist() == want.tolist()
        p = np.array(weights) / sum(weights) if refs is not None else np.full(len(rr), 1 / len(rr))
        np.testing.assert_allclose(res.expected, want @ p, rtol=1e-12)
        assert res.best == int(np.argmax(res.expected) if ours is not rapidbleu.TER else np.argmin(res.expected))
        lean = mbr.expected_utility(H, refs, metric=ours(**options), keep_matrix=False, block_pairs=3, **kw)
        assert lean.utilities is None
        np.testing.assert_allclose(lean.expected, res.expected, rtol=1e-12)
        assert lean.best == res.best


@pytest.mark.parametrize(("ours", "theirs", "options"), METRICS)
def test_cross_scores_are_sentence_scores(backend, ours, theirs, options):
    """``Metric.cross_scores``: every hypothesis against every reference alone, float for
    float sacreBLEU's ``sentence_score`` (BLEU's kernel, blocks of sentence scores otherwise)."""
    sacre = theirs(**({"effective_order": True} if theirs is sacrebleu.BLEU else {}), **options)
    metric = ours(**options).sentence_metric()
    got = metric.cross_scores(H, R[:3])
    assert got.shape == (len(H), 3)
    assert got.tolist() == [[sacre.sentence_score(h, [r]).score for r in R[:3]] for h in H]


@pytest.mark.parametrize("metric", [rapidbleu.BLEU, rapidbleu.CHRF, rapidbleu.TER])
def test_cross_scores_refuse_what_is_not_a_list_of_strings(metric):
    """Every metric's ``cross_scores`` names the hypothesis or reference as given (not a
    position in an internal list of pairs), refuses a bare string and an empty side."""
    m = metric()
    with pytest.raises(TypeError, match=r"hypotheses\[3\] is a int"):
        m.cross_scores(["a", "b", "c", 5], ["x", "y", "z"])
    with pytest.raises(TypeError, match=r"references\[2\] is a int"):
        m.cross_scores(["a", "b", "c"], ["x", "y", 5])
    with pytest.raises(TypeError, match=r"references\[1\] is None"):
        m.cross_scores(["a"], ["x", None])
    with pytest.raises(TypeError, match="single str"):
        m.cross_scores("abc", ["abc"])
    with pytest.raises(ValueError, match="references is empty"):
        m.cross_scores(["a", "b"], [])


def test_token_forms_are_one_for_hypotheses_and_pseudo_references():
    bleu = rapidbleu.BLEU()
    with pytest.raises(TypeError, match=r"pseudo_references\[0\] is string but the hypotheses are ids"):
        mbr.expected_utility([[1, 2, 3]], ["1 2 3"], metric=bleu)
    with pytest.raises(TypeError, match=r"pseudo_references\[0\] is tokens but the hypotheses are string"):
        mbr.aggregate_bleu(["a b"], [["a", "b"]])
    # an empty sequence fits any form, first or not
    got = mbr.expected_utility([[], ["a", "b"]], [["a", "b"]], metric=bleu)
    assert got.utilities.tolist() == mbr.expected_utility(["", "a b"], ["a b"], metric=bleu).utilities.tolist()
    with pytest.raises(TypeError, match=r"pseudo_references\[0\] is a NoneType; expected a string"):
        mbr.expected_utility(["a"], [None], metric=rapidbleu.CHRF())


def test_expected_utility_token_ids(backend):
    sets = [[1, 2, 3, 4], [1, 2, 5], [7, 8, 1, 2, 3], []]
    refs = [[1, 2, 3], [2, 3, 4, 5]]
    as_text = [" ".join(f"w{t}" for t in s) for s in sets]
    refs_text = [" ".join(f"w{t}" for t in s) for s in refs]
    bleu = rapidbleu.BLEU()
    got = mbr.expected_utility(sets, refs, metric=bleu)
    want = mbr.expected_utility(as_text, refs_text, metric=bleu)
    assert got.utilities.tolist() == want.utilities.tolist()
    assert got.best == want.best
    assert (
        mbr.expected_utility(sets, metric=bleu).utilities.tolist()
        == mbr.expected_utility(as_text, metric=bleu).utilities.tolist()
    )


# ------------------------------------------------------------------------------------------
# Errors: what and where, before any work
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: mbr.aggregate_chrf(H, []), ValueError, "pseudo_references is empty"),
        (lambda: mbr.aggregate_chrf(H, "a string"), TypeError, "got a single str"),
        (lambda: mbr.aggregate_chrf(["a", 3], R), TypeError, r"hypotheses\[1\] is a int"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[1, 2]), ValueError, r"one number per pseudo-reference \(5\)"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[1, 2, -1, 0, 0]), ValueError, r"weights\[2\] is -1.0"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[0] * 5), ValueError, "weights are all zero"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[1, 1, 1, 1, math.nan]), ValueError, r"weights\[4\] is nan"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[1, 1, "x", 1, 1]), TypeError, r"weights\[2\] is a str"),
        (lambda: mbr.aggregate_chrf(H, R, log_probs=[0, math.inf, 0, 0, 0]), ValueError, r"log_probs\[1\] is inf"),
        (lambda: mbr.aggregate_chrf(H, R, log_probs=[-math.inf] * 5), ValueError, "all -inf"),
        (lambda: mbr.aggregate_chrf(H, R, weights=[1] * 5, log_probs=[0] * 5), ValueError, "not both"),
        (lambda: mbr.aggregate_chrf(H, R, char_order=70), ValueError, "char_order"),
        (lambda: mbr.aggregate_chrf(H, R, workers=0), ValueError, "workers"),
        # CHRF's options by name, and no other of its keywords (its references= cache)
        (lambda: mbr.aggregate_chrf(H, R, references=[R]), TypeError, "unexpected keyword argument 'references'"),
        (lambda: mbr.aggregate_chrf(H, R, char_ordr=2), TypeError, "unexpected keyword argument 'char_ordr'"),
        (lambda: mbr.aggregate_bleu(H, R, smooth_method="nope"), ValueError, "nope"),
        (lambda: mbr.aggregate_bleu(["a b", [1, 2]], R), TypeError, r"hypotheses\[1\] is ids but an earlier"),
        (lambda: mbr.aggregate_bleu([{"a": 1}], R), TypeError, r"hypotheses\[0\] is a dict"),
        (lambda: mbr.expected_utility([], R), ValueError, "hypotheses is empty"),
        (lambda: mbr.expected_utility(H, R, metric="chrf"), TypeError, "rapidbleu metric object"),
        (lambda: mbr.expected_utility(H, R, block_pairs=0), ValueError, "block_pairs"),
        (lambda: mbr.expected_utility([[1, 2]], R), TypeError, r"hypotheses\[0\] is a list; only BLEU"),
        (lambda: mbr.expected_utility(H, [*R[:2], 5]), TypeError, r"pseudo_references\[2\] is a int"),
    ],
)
def test_bad_input_is_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()
