"""rapidbleu.nltk against the installed NLTK (nltk.translate.bleu_score).

Every comparison asks for the *same float* (the implementation reproduces NLTK's order of
operations); on a mismatch the message gives the relative error, which the project tolerates
up to 1e-12 where exactness is impossible (``EXACT = False``).
"""

import math
import random
import warnings
from fractions import Fraction as PyFraction
from pathlib import Path

import numpy as np
import pytest
from conftest import systems, wmt23_dir

nb = pytest.importorskip("nltk.translate.bleu_score")
import collections  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from nltk.translate import bleu_score as nltk_bleu  # noqa: E402
from nltk.util import ngrams as nltk_ngrams  # noqa: E402

import rapidbleu.nltk as rb  # noqa: E402
from rapidbleu import nltk as rnltk  # noqa: E402
from rapidbleu._base.errors import NoReferencesError  # noqa: E402
from rapidbleu._core import backend as _backend  # noqa: E402
from rapidbleu._core.nltk.nltk_inputs import token_statistics  # noqa: E402
from rapidbleu.tokenizers import get_tokenizer  # noqa: E402

# Every test here runs once per backend (conftest.backend).
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.usefixtures("backend")]

#: All comparisons bit-exact (True), or within REL_TOL (False).
EXACT = True
REL_TOL = 1e-12

WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25),
    (1,),
    (0.5, 0.5),
    (1 / 3,) * 3,
    (0.2,) * 5,
    (0.1, 0.3, 0.5, 0.1),
    [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4, (0.2,) * 5],
]

NLTK_CC = nb.SmoothingFunction()
RB_CC = rb.SmoothingFunction()


def _close(a, b):
    if a == b and type(a) in (int, float) and type(b) in (int, float):
        return True
    if EXACT:
        return False
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def assert_same(expected, got, what=""):
    """Scalars or (nested) lists of scores; ``got`` may be a numpy array."""
    if isinstance(got, np.ndarray):
        got = got.tolist()
    if isinstance(expected, list):
        assert isinstance(got, list), (what, expected, got)
        assert len(got) == len(expected), (what, expected, got)
        for e, g in zip(expected, got, strict=False):
            assert_same(e, g, what)
        return
    assert not isinstance(got, list), (what, expected, got)
    rel = abs(expected - got) / abs(expected) if expected else abs(got)
    assert _close(expected, got), f"{what}: NLTK {expected!r} rapidbleu {got!r} (rel {rel:.3g})"


def outcome(fn):
    """``('ok', value)`` or ``('err', exception type)``."""
    try:
        return "ok", fn()
    except Exception as exc:
        return "err", type(exc)


def assert_same_outcome(nltk_fn, rb_fn, what=""):
    kind_n, val_n = outcome(nltk_fn)
    kind_r, val_r = outcome(rb_fn)
    if kind_n == "err":
        assert kind_r == "err", f"{what}: NLTK raised {val_n.__name__}, rapidbleu returned {val_r}"
        assert issubclass(val_r, val_n), f"{what}: {val_r.__name__} is not a {val_n.__name__}"
    else:
        assert kind_r == "ok", f"{what}: rapidbleu raised {val_r.__name__}, NLTK gave {val_n}"
        assert_same(val_n, val_r, what)


# --------------------------------------------------------------------------- WMT23 data


def _data_dir():
    d = wmt23_dir()
    return d if (d / "system-outputs").is_dir() and (d / "references").is_dir() else None


@pytest.fixture(scope="module")
def wmt():
    """(list_of_references, hypotheses): a spread of WMT23 segments, 13a-tokenized."""
    root = _data_dir()
    if root is None:
        pytest.skip("full WMT23 data not found ($RAPIDBLEU_WMT23_DIR or ../shared/data/wmt23)")
    tok = get_tokenizer("13a")

    def lines(path):
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")

    def prep(line):
        return tok(line.rstrip()).split()

    refs_all, hyps_all = [], []
    found = [(hyp, [lines(r) for r in refs], lines(hyp)) for _pair, _system, hyp, refs in systems(root)]
    # every 29th segment of every system (all pairs, one and two references), or more often in
    # a smaller selection, for some 900 segments
    total = sum(len(h) for *_, h in found)
    step = max(1, min(29, total // 900))
    for hyp_file, refs, hyps in found:
        for i in range(len(hyp_file.name) % step, len(hyps) - 1, step):
            hyps_all.append(prep(hyps[i]))
            refs_all.append([prep(r[i]) for r in refs])
    assert len(hyps_all) > 800 or (step == 1 and hyps_all)
    return refs_all, hyps_all


@pytest.mark.parametrize("method", range(8))
def test_wmt_corpus_methods(wmt, method):
    refs, hyps = wmt
    assert_same_outcome(
        lambda: nb.corpus_bleu(refs, hyps, smoothing_function=getattr(NLTK_CC, f"method{method}")),
        lambda: rb.corpus_bleu(refs, hyps, smoothing_function=getattr(RB_CC, f"method{method}")),
        f"corpus method{method}",
    )


@pytest.mark.parametrize("weights", WEIGHTS[1:], ids=lambda w: str(len(w)))
def test_wmt_corpus_weights(wmt, weights):
    refs, hyps = wmt
    for method in (0, 5):
        assert_same_outcome(
            lambda: nb.corpus_bleu(refs, hyps, weights, getattr(NLTK_CC, f"method{method}")),
            lambda: rb.corpus_bleu(refs, hyps, weights, getattr(RB_CC, f"method{method}")),
            f"corpus weights={weights} method{method}",
        )


def test_wmt_corpus_short_prefix_auto_reweigh(wmt):
    refs, hyps = wmt
    # A tiny corpus (< 4 tokens) is where auto_reweigh matters.
    short = [(r, h[:k]) for r, h, k in zip(refs, hyps, [1, 2, 3, 1], strict=False)]
    for r, h in short:
        for method in range(6):
            assert_same_outcome(
                lambda: nb.sentence_bleu(
                    r, h, smoothing_function=getattr(NLTK_CC, f"method{method}"), auto_reweigh=True
                ),
                lambda: rb.sentence_bleu(r, h, smoothing_function=getattr(RB_CC, f"method{method}"), auto_reweigh=True),
                "auto_reweigh",
            )
    assert_same(nb.corpus_bleu(refs, hyps, auto_reweigh=True), rb.corpus_bleu(refs, hyps, auto_reweigh=True))


@pytest.mark.parametrize("method", range(8))
def test_wmt_sentence_batch(wmt, method):
    refs, hyps = wmt
    refs, hyps = refs[::4], hyps[::4]
    nf = getattr(NLTK_CC, f"method{method}")
    rf = getattr(RB_CC, f"method{method}")
    weights = (0.25,) * 4 if method != 0 else [(0.5, 0.5), (0.25,) * 4, (0.2,) * 5]
    expected, keep = [], []
    for i, (r, h) in enumerate(zip(refs, hyps, strict=False)):
        kind, val = outcome(lambda: nb.sentence_bleu(r, h, weights, nf))
        if kind == "ok":  # method 6 refuses sentences without trigram matches
            expected.append(val)
            keep.append(i)
        else:
            assert_same_outcome(
                lambda: nb.sentence_bleu(r, h, weights, nf), lambda: rb.sentence_bleu(r, h, weights, rf)
            )
    assert len(keep) > 50
    refs_k, hyps_k = [refs[i] for i in keep], [hyps[i] for i in keep]
    got = rb.sentence_bleu_batch(refs_k, hyps_k, weights, rf)
    assert got.dtype == np.float64
    assert got.shape == ((len(keep), 3) if isinstance(weights, list) else (len(keep),))
    assert_same(expected, got, f"batch method{method}")
    one_by_one = [rb.sentence_bleu(r, h, weights, rf) for r, h in zip(refs_k[:150], hyps_k[:150], strict=False)]
    assert_same(expected[:150], one_by_one, f"sentence method{method}")


def test_wmt_batch_weights_and_reweigh(wmt):
    refs, hyps = wmt
    refs, hyps = refs[:120], [h[: (i % 5)] if i % 7 == 0 else h for i, h in enumerate(hyps[:120])]
    for weights in WEIGHTS:
        for method in (None, 1, 3, 4):
            nf = getattr(NLTK_CC, f"method{method}") if method is not None else None
            rf = getattr(RB_CC, f"method{method}") if method is not None else None
            for reweigh in (False, True):
                expected = [nb.sentence_bleu(r, h, weights, nf, reweigh) for r, h in zip(refs, hyps, strict=False)]
                got = rb.sentence_bleu_batch(refs, hyps, weights, rf, reweigh)
                assert_same(expected, got, f"batch {weights} {method} {reweigh}")


# --------------------------------------------------------------------------- properties

ALPHABETS = [["a", "b"], ["a", "b", "c"], list("abcdef"), [0, 1], [0, 1, 2, 3], [7, "x"]]
WEIGHT_CHOICES = [*WEIGHTS, (0.5, 0.5, 0.0, 0.0), (0.4, 0.3, 0.2, 0.1, 0.0, 0.0)]


@st.composite
def corpora(draw, max_segments=4):
    alphabet = draw(st.sampled_from(ALPHABETS))
    token = st.sampled_from(alphabet)
    sentence = st.lists(token, min_size=0, max_size=draw(st.sampled_from([3, 6, 14])))
    n = draw(st.integers(1, max_segments))
    hyps = [draw(sentence) for _ in range(n)]
    refs = [draw(st.lists(sentence, min_size=1, max_size=4)) for _ in range(n)]
    return refs, hyps


params = st.tuples(st.sampled_from(WEIGHT_CHOICES), st.integers(0, 8), st.booleans())


def _fns(method):
    if method == 8:
        return None, None
    return getattr(NLTK_CC, f"method{method}"), getattr(RB_CC, f"method{method}")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), params)
def test_property_corpus(data, p):
    refs, hyps = data
    weights, method, reweigh = p
    nf, rf = _fns(method)
    assert_same_outcome(
        lambda: nb.corpus_bleu(refs, hyps, weights, nf, reweigh),
        lambda: rb.corpus_bleu(refs, hyps, weights, rf, reweigh),
        f"corpus {weights} m{method} {reweigh}",
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(max_segments=6), params)
def test_property_sentence_and_batch(data, p):
    refs, hyps = data
    weights, method, reweigh = p
    nf, rf = _fns(method)
    expected = [outcome(lambda: nb.sentence_bleu(r, h, weights, nf, reweigh)) for r, h in zip(refs, hyps, strict=False)]
    for (r, h), (_kind, _val) in zip(zip(refs, hyps, strict=False), expected, strict=False):
        assert_same_outcome(
            lambda: nb.sentence_bleu(r, h, weights, nf, reweigh),
            lambda: rb.sentence_bleu(r, h, weights, rf, reweigh),
            "sentence",
        )
    errors = [val for kind, val in expected if kind == "err"]
    if errors:
        with pytest.raises(errors[0]):
            rb.sentence_bleu_batch(refs, hyps, weights, rf, reweigh)
    else:
        assert_same([val for _, val in expected], rb.sentence_bleu_batch(refs, hyps, weights, rf, reweigh), "batch")


@settings(max_examples=120, deadline=None)
@given(corpora(max_segments=1), st.integers(1, 6))
def test_property_modified_precision(data, n):
    refs, hyps = data
    a = nb.modified_precision(refs[0], hyps[0], n)
    b = rb.modified_precision(refs[0], hyps[0], n)
    assert isinstance(b, PyFraction)
    assert (b.numerator, b.denominator) == (a.numerator, a.denominator)
    # Equal values.  (Ours compares by value; NLTK's own Fraction on Python >= 3.12 compares its
    # reduced numerator with another's raw one, so NLTK's Fraction(0, 2) != Fraction(0, 2) there
    # and ``a == b`` is NLTK's answer, not ours.)
    assert float(a) == float(b)
    assert b == a
    hl = len(hyps[0])
    assert nb.closest_ref_length(refs[0], hl) == rb.closest_ref_length(refs[0], hl)
    r = rb.closest_ref_length(refs[0], hl)
    assert_same(nb.brevity_penalty(r, hl), rb.brevity_penalty(r, hl))
    assert type(nb.brevity_penalty(r, hl)) is type(rb.brevity_penalty(r, hl))


# --------------------------------------------------------------------------- edge cases


REF1 = [
    "It",
    "is",
    "a",
    "guide",
    "to",
    "action",
    "that",
    "ensures",
    "that",
    "the",
    "military",
    "will",
    "forever",
    "heed",
    "Party",
    "commands",
]
REF2 = [
    "It",
    "is",
    "the",
    "guiding",
    "principle",
    "which",
    "guarantees",
    "the",
    "military",
    "forces",
    "always",
    "being",
    "under",
    "the",
    "command",
    "of",
    "the",
    "Party",
]
HYP1 = [
    "It",
    "is",
    "a",
    "guide",
    "to",
    "action",
    "which",
    "ensures",
    "that",
    "the",
    "military",
    "always",
    "obeys",
    "the",
    "commands",
    "of",
    "the",
    "party",
]
HYP2 = ["he", "read", "the", "book", "because", "he", "was", "interested", "in", "world", "history"]
REF3 = ["he", "was", "interested", "in", "world", "history", "because", "he", "read", "the", "book"]


def test_fraction_unnormalized():
    p = rb.modified_precision([["a", "b"]], ["a", "a", "b", "b"], 1)
    q = nb.modified_precision([["a", "b"]], ["a", "a", "b", "b"], 1)
    assert (p.numerator, p.denominator) == (q.numerator, q.denominator) == (2, 4)
    assert p == PyFraction(1, 2)
    assert float(p) == 0.5
    short = rb.modified_precision([["a", "b"]], ["a"], 3)  # NLTK's max(1, 0) denominator
    assert (short.numerator, short.denominator) == (0, 1)
    assert rb.Fraction(6, 8).numerator == 6
    assert float(rb.Fraction(6, 8) + 1) == 1.75
    import copy
    import pickle

    f = pickle.loads(pickle.dumps(rb.Fraction(6, 8)))
    assert (f.numerator, f.denominator) == (6, 8)
    assert copy.deepcopy(f).numerator == 6


def test_zero_length_hypothesis_and_empty_reference():
    assert rb.sentence_bleu([REF1], []) == nb.sentence_bleu([REF1], []) == 0
    assert type(rb.sentence_bleu([REF1], [])) is int
    assert rb.sentence_bleu([REF1], [], [(1,), (0.5, 0.5)]) == [0, 0]
    assert rb.sentence_bleu([[]], ["a"]) == nb.sentence_bleu([[]], ["a"]) == 0
    assert_same(
        nb.sentence_bleu([[], ["a", "b"]], ["a", "b"], (0.5, 0.5)),
        rb.sentence_bleu([[], ["a", "b"]], ["a", "b"], (0.5, 0.5)),
    )
    assert rb.sentence_bleu_batch([[REF1], [REF2]], [[], HYP1]).tolist()[0] == 0.0


def test_errors():
    with pytest.raises(ValueError, match="2 hypotheses but 1 lists of references"):
        rb.corpus_bleu([[REF1]], [HYP1, HYP2])
    with pytest.raises(AssertionError):  # still caught by code written for NLTK
        rb.corpus_bleu([[REF1]], [HYP1, HYP2])
    with pytest.raises(ValueError, match="1 hypotheses but 2"):
        rb.sentence_bleu_batch([[REF1], [REF2]], [HYP1])
    with pytest.raises(ZeroDivisionError):
        nb.corpus_bleu([], [])
    with pytest.raises(rb.EmptyCorpusError):
        rb.corpus_bleu([], [])
    with pytest.raises(ZeroDivisionError):
        rb.corpus_bleu([], [])
    assert rb.sentence_bleu_batch([], []).shape == (0,)
    assert rb.sentence_bleu_batch([], [], [(1,), (0.5, 0.5)]).shape == (0, 2)
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        rb.corpus_bleu([[REF1], []], [HYP1, HYP2])
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        rb.closest_ref_length([], 3)
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        rb.modified_precision([REF1], HYP1, 0)


@pytest.mark.parametrize("call", ["corpus_bleu", "sentence_bleu_batch", "nltk_corpus_stats"])
@pytest.mark.parametrize("weights", [(0.25,) * 4, (0.5,) * 70, ()], ids=["4", "70", "0"])
def test_segment_errors_as_if_checked_first(call, weights):
    """The segments are checked only when the counting fails (the core reads them anyway), but
    the error is the one of checking them all first: a None hypothesis before an empty list of
    references anywhere, either before bad weights, with no exception chained."""
    from rapidbleu.stats import nltk_corpus_stats

    def run(refs, hyps):
        if call == "nltk_corpus_stats":
            return nltk_corpus_stats(refs, hyps, 4)
        return getattr(rb, call)(refs, hyps, weights)

    a = ["a", "b"]
    cases = [
        (([[a], [], [a]], [a, a, None]), TypeError, r"hypotheses\[2\] is None"),
        (([[a], [a], []], [a, a, a]), rb.NoReferencesError, "segment 2 has no reference"),
        (([[a], [a], [a]], [None, a, a]), TypeError, r"hypotheses\[0\] is None"),
    ]
    for (refs, hyps), err, msg in cases:
        with pytest.raises(err, match=msg) as info:
            run(refs, hyps)
        assert info.value.__context__ is None
        assert info.value.__cause__ is None
    if call != "nltk_corpus_stats" and len(weights) == 70:  # fine segments: the weights' error
        with pytest.raises(ValueError, match="weights has 70 entries"):
            run([[a]], [a])


def test_nltk_doc_examples():
    refs = [[REF1, REF2], [REF3]]
    hyps = [HYP1, HYP2]
    for w in [(0.25,) * 4, (0.1, 0.3, 0.5, 0.1), [(0.5, 0.5), (0.333, 0.333, 0.334), (0.25,) * 4, (0.2,) * 5]]:
        assert_same(nb.corpus_bleu(refs, hyps, w), rb.corpus_bleu(refs, hyps, w))
    assert_same(nb.sentence_bleu([REF1], HYP1), rb.sentence_bleu([REF1], HYP1))
    # Tiny positive score without smoothing (NLTK's sys.float_info.min precision).
    tiny = rb.sentence_bleu([["a", "b"]], ["a", "b"])
    assert tiny == nb.sentence_bleu([["a", "b"]], ["a", "b"])
    assert 0 < tiny < 1e-150


def _warned(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = call()
    return value, type(value), [(w.category, str(w.message)) for w in seen]


def test_sentence_bleu_one_segment_a_call_is_nltks():
    """``sentence_bleu`` called once per segment (its one-segment path: the kernel's row, the
    metric of each option set built once) gives NLTK's value, type and warnings, reads the
    smoother's parameters as they are at each call, and takes what NLTK takes (tuples,
    int ids, mixed token types, a hypothesis shorter than the orders)."""
    nsf, rsf = nb.SmoothingFunction(), rb.SmoothingFunction()
    cases = [
        ([REF1, REF2], HYP1),
        ([REF3], HYP2),
        ([["a", "b"]], ["a", "b"]),
        ([["a"]], ["b"]),
        ([["a", "b", "c"]], []),
        ([("a", "b", "c", "d"), ["a", "b"]], ["a", "b", "c"]),
        ([[1, 2, 3, 4, 5]], [1, 2, 3, 9, 5]),
        ([[1, "1", 2.0, 2]], [1, 2, "1", 2]),
    ]
    for refs, hyp in cases:
        for method in range(5):
            for weights in [(0.25,) * 4, (0.5, 0.5), [(0.5, 0.5), (1 / 3,) * 3], (0.2,) * 5]:
                for reweigh in (False, True):
                    for eps in (0.1, 0.3):
                        nsf.epsilon = rsf.epsilon = eps
                        nsf.k = rsf.k = 3 + eps
                        theirs = _warned(
                            lambda: nb.sentence_bleu(refs, hyp, weights, getattr(nsf, f"method{method}"), reweigh)
                        )
                        ours = _warned(
                            lambda: rb.sentence_bleu(refs, hyp, weights, getattr(rsf, f"method{method}"), reweigh)
                        )
                        assert ours == theirs, (refs, hyp, method, weights, reweigh, eps)
            # the default smoothing (none), and NLTK's own SmoothingFunction given to ours
            assert _warned(lambda: rb.sentence_bleu(refs, hyp)) == _warned(lambda: nb.sentence_bleu(refs, hyp))
            assert _warned(lambda: rb.sentence_bleu(refs, hyp, smoothing_function=nsf.method2)) == _warned(
                lambda: nb.sentence_bleu(refs, hyp, smoothing_function=nsf.method2)
            )


def test_sentence_bleu_options_of_other_types_are_not_mistaken():
    """Options equal in value but not in type are not one option set: Fraction weights (equal
    to floats) and Decimal weights (NLTK's ``w * log(p)`` fails on a Decimal) after float
    weights of the same values give NLTK's own outcome."""
    from decimal import Decimal

    refs, hyp = [REF1, REF2], HYP1
    rb.sentence_bleu(refs, hyp, (0.5, 0.5))
    for weights in [
        (PyFraction(1, 2), PyFraction(1, 2)),
        (Decimal("0.5"), Decimal("0.5")),
        (1, 0, 0, 0),
        (True, False),
    ]:
        assert outcome(lambda w=weights: rb.sentence_bleu(refs, hyp, w)) == outcome(
            lambda w=weights: nb.sentence_bleu(refs, hyp, w)
        )


def test_warnings_method0():
    with pytest.warns(UserWarning, match="3-gram"):
        rb.sentence_bleu([["a", "b"]], ["a", "b"])
    with pytest.warns(UserWarning, match="1 of 2 hypotheses"):
        rb.sentence_bleu_batch([[["a", "b"]], [REF1]], [["a", "b"], REF1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rb.sentence_bleu([REF1], REF1)  # everything matches: no warning


def test_nltk_smoothing_objects_and_custom_callables():
    refs, hyps = [[REF1, REF2], [REF3]], [HYP1, HYP2[:5]]
    odd = nb.SmoothingFunction(epsilon=0.01, alpha=3, k=2)
    ours = rb.SmoothingFunction(epsilon=0.01, alpha=3, k=2)
    for m in range(8):
        expected = nb.corpus_bleu(refs, hyps, smoothing_function=getattr(odd, f"method{m}"))
        assert_same(expected, rb.corpus_bleu(refs, hyps, smoothing_function=getattr(odd, f"method{m}")))
        assert_same(expected, rb.corpus_bleu(refs, hyps, smoothing_function=getattr(ours, f"method{m}")))
        batch_expected = [
            nb.sentence_bleu(r, h, smoothing_function=getattr(odd, f"method{m}"))
            for r, h in zip(refs, hyps, strict=False)
        ]
        assert_same(batch_expected, rb.sentence_bleu_batch(refs, hyps, smoothing_function=getattr(odd, f"method{m}")))

    def custom(p_n, references, hypothesis, hyp_len):
        return [PyFraction(p.numerator + 1, p.denominator + 2) for p in p_n]

    assert_same(
        nb.corpus_bleu(refs, hyps, smoothing_function=custom), rb.corpus_bleu(refs, hyps, smoothing_function=custom)
    )
    assert_same(
        [nb.sentence_bleu(r, h, smoothing_function=custom) for r, h in zip(refs, hyps, strict=False)],
        rb.sentence_bleu_batch(refs, hyps, smoothing_function=custom),
    )
    # Fraction weights and a Fraction epsilon take the exact per-row path.
    fw = (PyFraction(1, 3),) * 3
    frac_eps = rb.SmoothingFunction(epsilon=PyFraction(1, 7))
    frac_eps_n = nb.SmoothingFunction(epsilon=PyFraction(1, 7))
    assert_same(
        [nb.sentence_bleu(r, h, fw, frac_eps_n.method1) for r, h in zip(refs, hyps, strict=False)],
        rb.sentence_bleu_batch(refs, hyps, fw, frac_eps.method1),
    )


def test_smoothing_methods_direct():
    """Calling SmoothingFunction methods by hand, as NLTK users do."""
    for m in range(8):
        p_n = [nb.modified_precision([REF1, REF2], HYP1, i) for i in range(1, 5)]
        q_n = [rb.modified_precision([REF1, REF2], HYP1, i) for i in range(1, 5)]
        a = getattr(NLTK_CC, f"method{m}")(p_n, [REF1, REF2], HYP1, len(HYP1))
        b = getattr(RB_CC, f"method{m}")(q_n, [REF1, REF2], HYP1, len(HYP1))
        assert [float(x) for x in a] == [float(x) for x in b]


def test_int_tokens_and_backend():
    rng = random.Random(5)
    hyps = [[rng.randrange(4) for _ in range(rng.randrange(12))] for _ in range(50)]
    refs = [[[rng.randrange(4) for _ in range(rng.randrange(1, 12))] for _ in range(2)] for _ in range(50)]
    assert_same(nb.corpus_bleu(refs, hyps), rb.corpus_bleu(refs, hyps))
    assert_same(
        [nb.sentence_bleu(r, h, smoothing_function=NLTK_CC.method3) for r, h in zip(refs, hyps, strict=False)],
        rb.sentence_bleu_batch(refs, hyps, smoothing_function=RB_CC.method3, workers=2),
    )
    assert _backend.bleu_stats.NAME in ("python", "cython")


def test_stats_come_from_core(monkeypatch):
    calls = []
    real = _backend.bleu_stats.token_stats

    def spy(*args, **kwargs):
        calls.append(args[2] if len(args) > 2 else kwargs.get("max_ngram_order"))
        return real(*args, **kwargs)

    monkeypatch.setattr(_backend.bleu_stats, "token_stats", spy)
    rb.corpus_bleu([[REF1]], [HYP1], (0.2,) * 5)
    rb.sentence_bleu_batch([[REF1]], [HYP1], (0.5, 0.5), RB_CC.method5)
    assert calls == [5, 5]
    assert math.isfinite(rb.sentence_bleu([REF1], HYP1))


# --------------------------------------------------------------------------- from statistics


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(max_segments=6), params, st.integers(0, 2))
def test_property_sentence_bleu_from_stats(data, p, extra):
    """Scores from a statistics matrix (of any depth >= what is needed) equal NLTK's."""
    refs, hyps = data
    weights, method, reweigh = p
    nf, rf = _fns(method)
    weight_list = weights if isinstance(weights, list) else [weights]
    K = max(len(w) for w in weight_list)
    N = max(K, 5 if method in (5, 7) else 1) + extra
    stats = token_statistics(refs, hyps, N)
    expected = [outcome(lambda: nb.sentence_bleu(r, h, weights, nf, reweigh)) for r, h in zip(refs, hyps, strict=False)]
    errors = [val for kind, val in expected if kind == "err"]
    for fn in (nf, rf):
        if errors:
            with pytest.raises(errors[0]):
                rb.sentence_bleu_from_stats(stats, weights, fn, reweigh)
        else:
            got = rb.sentence_bleu_from_stats(stats, weights, fn, reweigh, max_ngram_order=N)
            assert got.shape == ((len(hyps), len(weights)) if isinstance(weights, list) else (len(hyps),))
            assert_same([val for _, val in expected], got, "from_stats")


def test_from_stats_sacrebleu_statistics():
    """sacreBLEU's statistics rows have the same layout and meaning."""
    from sacrebleu.metrics import BLEU

    hyps = ["a b c a b", "b", "c c a b c a", ""]
    refs = [["a b c", "c a b c", "b", "a b"], ["a b c a", "b b", "c a b", "a"]]
    stats = np.array(BLEU(tokenize="none", max_ngram_order=5)._extract_corpus_statistics(hyps, refs))
    for m in range(8):
        want = [
            outcome(
                lambda: nb.sentence_bleu(
                    [r0.split(), r1.split()], h.split(), (1 / 3,) * 3, getattr(NLTK_CC, f"method{m}")
                )
            )
            for h, r0, r1 in zip(hyps, *refs, strict=False)
        ]
        if any(kind == "err" for kind, _ in want):
            with pytest.raises(rb.SmoothingError):
                rb.sentence_bleu_from_stats(stats, (1 / 3,) * 3, getattr(NLTK_CC, f"method{m}"))
            continue
        assert_same(
            [v for _, v in want], rb.sentence_bleu_from_stats(stats, (1 / 3,) * 3, getattr(NLTK_CC, f"method{m}"))
        )


def test_from_stats_errors():
    stats = token_statistics([[REF1], [REF2]], [HYP1, HYP2], 4)

    def custom(p_n, references, hypothesis, hyp_len):
        return p_n

    with pytest.raises(TypeError, match="statistics do not hold"):
        rb.sentence_bleu_from_stats(stats, smoothing_function=custom)
    with pytest.raises(ValueError, match="at least 5 orders"):
        rb.sentence_bleu_from_stats(stats, smoothing_function=RB_CC.method5)
    with pytest.raises(ValueError, match="at least 5 orders"):
        rb.sentence_bleu_from_stats(stats, (0.5, 0.5), smoothing_function=NLTK_CC.method7)
    with pytest.raises(ValueError, match="5 n-gram orders but the statistics hold only 4"):
        rb.sentence_bleu_from_stats(stats, (0.2,) * 5)
    with pytest.raises(ValueError, match="max_ngram_order=3"):
        rb.sentence_bleu_from_stats(stats, (0.5, 0.5), max_ngram_order=3)
    with pytest.raises(ValueError, match="shape"):
        rb.sentence_bleu_from_stats(stats[:, :-1])
    with pytest.raises(ValueError, match="shape"):
        rb.sentence_bleu_from_stats(stats[0])
    with pytest.raises(TypeError, match="integer"):
        rb.sentence_bleu_from_stats(stats.astype(float))
    bad = stats.copy()
    bad[0, -1] += 1
    with pytest.raises(ValueError, match="totals_n"):
        rb.sentence_bleu_from_stats(bad)
    bad = stats.copy()
    bad[0, 2] = bad[0, 6] + 1
    with pytest.raises(ValueError, match="matches_n <= totals_n"):
        rb.sentence_bleu_from_stats(bad)
    with pytest.raises(rb.SmoothingError):
        rb.sentence_bleu_from_stats(stats, (0.5, 0.5), RB_CC.method6)
    assert rb.sentence_bleu_from_stats(np.zeros((0, 10), dtype=np.int64)).shape == (0,)
    assert rb.sentence_bleu_from_stats(stats, [(0.5, 0.5), ()]).shape == (2, 2)
    assert rb.sentence_bleu_from_stats(stats, ()).tolist() == [0.0, 0.0]


def test_from_stats_warning_points_at_caller():
    stats = token_statistics([[["a", "b"]], [REF1]], [["a", "b"], REF1], 4)
    with pytest.warns(UserWarning, match="1 of 2 hypotheses") as rec:
        rb.sentence_bleu_from_stats(stats)
    assert {Path(w.filename).name for w in rec} == {Path(__file__).name}
    with pytest.warns(UserWarning) as rec:  # noqa: PT030 -- checks the type only
        rb.sentence_bleu_batch([[["a", "b"]], [REF1]], [["a", "b"], REF1])
    assert {Path(w.filename).name for w in rec} == {Path(__file__).name}


# -- NLTK's Fraction, as shown --------------------------------------------------------------
@pytest.mark.parametrize(
    ("refs", "hyp", "n"),
    [
        ([["a", "b", "a", "c"]], ["a"] * 4, 1),
        ([["a", "b", "a", "c"]], ["a", "b", "a", "b"], 2),
        ([["the", "cat"], ["a", "cat"]], ["cat", "cat", "cat"], 1),
        ([["x"]], ["y"], 1),
        ([["x", "y"]], ["x"], 3),  # shorter than n: denominator max(1, 0)
        ([["a", "b", "c", "d"]], ["a", "b", "c", "d"], 2),
    ],
)
def test_modified_precision_displays_as_nltk(refs, hyp, n):
    ours, theirs = rnltk.modified_precision(refs, hyp, n), nltk_bleu.modified_precision(refs, hyp, n)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    assert ours._normalize == theirs._normalize is False
    assert float(ours) == float(theirs)


@pytest.mark.parametrize(
    ("num", "den", "normalize"),
    [
        (2, 4, False),
        (4, 4, False),
        (0, 3, False),
        (6, 3, False),
        (-2, 4, False),
        (2, -4, False),
        (2, 4, True),
        (6, 3, True),
        (3, None, False),
    ],
)
def test_fraction_displays_as_nltk(num, den, normalize):
    ours, theirs = rnltk.Fraction(num, den, _normalize=normalize), nltk_bleu.Fraction(num, den, _normalize=normalize)
    assert (repr(ours), str(ours)) == (repr(theirs), str(theirs))
    assert ours._normalize == theirs._normalize == normalize
    if den is not None:
        assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
        assert (ours._original_numerator, ours._original_denominator) == (num, den)


# -- names NLTK's bleu_score module exposes -------------------------------------------------
def test_module_names_of_nltk_bleu_score():
    from rapidbleu.nltk import Counter, Fraction, ngrams  # noqa: F401

    assert Counter is collections.Counter
    missing = [name for name in vars(nltk_bleu) if not name.startswith("__") and not hasattr(rnltk, name)]
    assert missing == []
    assert "ngrams" in rnltk.__all__


def test_ngrams_as_nltk():
    rng = random.Random(7)
    for _ in range(300):
        seq = [rng.choice("abc") for _ in range(rng.randint(0, 8))]
        n = rng.randint(0, 6)
        kw = {}
        if rng.random() < 0.5:
            kw = {"pad_left": rng.random() < 0.5, "pad_right": rng.random() < 0.5}
            if rng.random() < 0.5:
                kw.update(left_pad_symbol="<s>", right_pad_symbol="</s>")
        assert list(rnltk.ngrams(seq, n, **kw)) == list(nltk_ngrams(seq, n, **kw)), (seq, n, kw)
        assert list(rnltk.ngrams(iter(seq), n, **kw)) == list(nltk_ngrams(iter(seq), n, **kw))
    assert list(rnltk.ngrams("abcd", 2)) == [("a", "b"), ("b", "c"), ("c", "d")]
    lazy = rnltk.ngrams(iter(range(10**9)), 3)  # lazy, like NLTK's: no list is built
    assert next(lazy) == (0, 1, 2)
    assert next(lazy) == (1, 2, 3)
    for bad in (-1,):
        with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
            list(nltk_ngrams([1, 2], bad))
        with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
            list(rnltk.ngrams([1, 2], bad))


def test_weights_over_the_order_limit_name_weights():
    """NLTK scores weights of any length; rapidbleu stops at 64 orders.  The error used to say
    ``max_ngram_order must be <= 64 ... got 70``, naming an argument the caller never gave."""
    from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch

    w = (1 / 70,) * 70
    hyp, refs = ["a", "b"], [["a", "b"]]
    calls = [
        lambda: rb.corpus_bleu([refs], [hyp], weights=w),
        lambda: rb.corpus_bleu([refs], [hyp], weights=[(1,), w]),
        lambda: rb.sentence_bleu(refs, hyp, weights=w),
        lambda: rb.sentence_bleu_batch([refs], [hyp], weights=w),
        lambda: sentence_bleu_batch([[1, 2]], [[1, 2]], weights=w),
        lambda: self_bleu([[1, 2], [1]], weights=w),
        lambda: pairwise_bleu([[1, 2], [1]], weights=w, style="nltk"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="weights has 70 entries"):
            call()


# --------------------------------------------------------------------------- NLTK's warnings and error types
def _caught(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    return [(str(w.message), w.category) for w in caught]


@pytest.mark.parametrize(
    ("refs", "hyp"),
    [
        ([["a", "b", "c"]], ["a", "b", "d"]),
        ([["let", "it", "go"]], ["let", "go", "it"]),
        ([["John", "loves", "Mary", "?"]], ["John", "loves", "Mary"]),
    ],
)
def test_nltk_zero_match_warning_is_nltks(refs, hyp):
    ours = _caught(rnltk.sentence_bleu, refs, hyp)
    assert ours
    assert ours == _caught(nltk_bleu.sentence_bleu, refs, hyp)
    assert _caught(rnltk.corpus_bleu, [refs], [hyp]) == _caught(nltk_bleu.corpus_bleu, [refs], [hyp])


def test_nltk_empty_references_is_a_key_error_too():
    with pytest.raises(KeyError):
        nltk_bleu.sentence_bleu([], ["a"])
    for call in (lambda: rnltk.sentence_bleu([], ["a"]), lambda: rnltk.corpus_bleu([[["a"]], []], [["a"], ["b"]])):
        with pytest.raises(KeyError) as err:
            call()
        assert isinstance(err.value, ValueError)
        assert isinstance(err.value, NoReferencesError)
    with pytest.raises(ValueError, match=r"^segment 1 has no reference"):
        rnltk.corpus_bleu([[["a"]], []], [["a"], ["b"]])


def test_nltk_none_hypothesis_names_the_position():
    with pytest.raises(TypeError):
        nltk_bleu.corpus_bleu([[["a"]], [["b"]]], [["a"], None])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is None"):
        rnltk.corpus_bleu([[["a"]], [["b"]]], [["a"], None])
    with pytest.raises(TypeError):
        nltk_bleu.sentence_bleu([["a"]], None)
    with pytest.raises(TypeError, match=r"^hypothesis is None"):
        rnltk.sentence_bleu([["a"]], None)


@pytest.mark.parametrize("bad", ["dict_refs", "dict_hyps", "set_hyps"])
def test_nltk_unordered_input_is_a_type_error(bad):
    refs, hyps = [[["a", "b"]], [["c"]]], [["a", "b"], ["c"]]
    if bad == "dict_refs":
        refs = dict(enumerate(refs))
    elif bad == "dict_hyps":
        hyps = dict(enumerate(hyps))
    else:
        hyps = {("a", "b"), ("c",)}
    with pytest.raises(TypeError, match="must be an ordered sequence"):
        rnltk.corpus_bleu(refs, hyps)


# --------------------------------------------------------------------------- errors name the row


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["ok", "no-trigram", "no-match"]), min_size=1, max_size=12))
def test_method6_error_names_the_sentence_a_loop_fails_at(kinds):
    """Method 6 on a sentence with unigram but no trigram matches: the batch fails where NLTK's
    loop of sentence_bleu fails, and says which sentence (rows are scored once per distinct
    statistics row, so the first failing row is found by first occurrence)."""
    ref = ["the", "cat", "sat", "on", "the", "mat"]
    hyp = {"ok": ref, "no-trigram": ["the", "dog", "sat", "on", "a", "mat"], "no-match": ["x", "y", "z", "w"]}
    hyps = [hyp[k] for k in kinds]
    refs = [[ref]] * len(hyps)
    first = next(
        (
            i
            for i, h in enumerate(hyps)
            if outcome(lambda h=h: nb.sentence_bleu([ref], h, smoothing_function=NLTK_CC.method6))[0] == "err"
        ),
        None,
    )
    if first is None:
        assert_same(
            [nb.sentence_bleu([ref], h, smoothing_function=NLTK_CC.method6) for h in hyps],
            rb.sentence_bleu_batch(refs, hyps, smoothing_function=RB_CC.method6),
        )
        return
    with pytest.raises(rb.SmoothingError, match=rf"^hypothesis {first}: smoothing method 6 needs") as info:
        rb.sentence_bleu_batch(refs, hyps, smoothing_function=RB_CC.method6)
    assert info.value.row == first
    stats = token_statistics(refs, hyps, 4)
    with pytest.raises(rb.SmoothingError, match=rf"^row {first} of stats: smoothing method 6"):
        rb.sentence_bleu_from_stats(stats, smoothing_function=NLTK_CC.method6)


def test_method6_errors_of_the_batch_functions_name_the_row():
    from rapidbleu import batch

    texts = ["the cat sat on the mat", "the cat sat on the mat", "the dog sat on a mat"]
    with pytest.raises(rb.SmoothingError, match=r"^hypothesis 2: "):
        batch.sentence_bleu_batch(texts, [texts[0]] * 3, smoothing_function=RB_CC.method6)
    with pytest.raises(rb.SmoothingError, match=r"^sentence 2: "):
        batch.self_bleu(texts, smoothing_function=RB_CC.method6)
    with pytest.raises(rb.SmoothingError, match=r"^candidate 0 against candidate 2: "):
        batch.pairwise_bleu(texts, style="nltk", smoothing_function=RB_CC.method6)


# ------------------------------------------------------------------------------------------
# The side doors' NLTK style: max_ngram_order=N is BLEU-N, text is split on whitespace
# ------------------------------------------------------------------------------------------
SIDE_HYPS = ["the cat sat on the mat today", "a dog barked , loudly", "the quick brown fox"]
SIDE_REFS = ["the cat sat on a mat", "a dog barked loudly .", "a quick brown fox jumped"]


def _nltk_side(weights, smoothing=None, hyps=SIDE_HYPS, refs=SIDE_REFS):
    """NLTK's sentence and corpus BLEU on str.split() tokens."""
    sentences = [
        nltk_bleu.sentence_bleu([r.split()], h.split(), weights, smoothing_function=smoothing)
        for h, r in zip(hyps, refs, strict=True)
    ]
    corpus = nltk_bleu.corpus_bleu([[r.split()] for r in refs], [h.split() for h in hyps], weights, smoothing)
    return sentences, corpus


@pytest.mark.parametrize("order", [1, 2, 3, 5])
@pytest.mark.parametrize("given_weights", [False, True])
def test_engine_options_max_ngram_order_is_bleu_n(order, given_weights):
    """ScoreOptions(style="nltk", max_ngram_order=N) -- what Spark, Dask and Ray run -- scores
    NLTK's BLEU-N (uniform weights of length N), not BLEU-4."""
    from rapidbleu._core import engines

    weights = (1.0 / order,) * order
    kw = {"weights": weights} if given_weights else {}
    opts = engines.ScoreOptions(style="nltk", max_ngram_order=order, smoothing_function="method1", **kw)
    want_sentences, want_corpus = _nltk_side(weights, nltk_bleu.SmoothingFunction().method1)
    streams = [SIDE_REFS]
    assert engines.partition_sentence_scores(opts, SIDE_HYPS, streams).tolist() == want_sentences
    parts = [engines.partition_stats(opts, SIDE_HYPS[:1], [SIDE_REFS[:1]])]
    parts.append(engines.partition_stats(opts, SIDE_HYPS[1:], [SIDE_REFS[1:]]))
    assert engines.score(opts, rapidbleu_stats().CorpusStats(*engines.combine(opts, parts))) == want_corpus


def rapidbleu_stats():
    import rapidbleu.stats

    return rapidbleu.stats


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_ngram_order": 2, "weights": (1 / 3,) * 3}, "weights has 3 orders but max_ngram_order=2"),
        ({"max_ngram_order": 2, "weights": [(0.5, 0.5), (1.0,)]}, "max_ngram_order=2 with a list of weight tuples"),
        ({"max_ngram_order": 0}, "max_ngram_order"),
    ],
)
def test_engine_options_max_ngram_order_against_weights_is_refused(kwargs, message):
    from rapidbleu._core import engines

    with pytest.raises(ValueError, match=message):
        engines.ScoreOptions(style="nltk", **kwargs)


def test_statistics_of_fewer_than_four_orders_score_bleu_n():
    """Statistics counting N < 4 orders (the engines' BLEU-2, ``nltk_corpus_stats(...,
    max_ngram_order=2)``) rebuild a metric of N orders (it counted 4 and refused them)."""
    import rapidbleu.stats

    refs, hyps = [[r.split()] for r in SIDE_REFS], [h.split() for h in SIDE_HYPS]
    for n in (1, 2, 3):
        weights = (1.0 / n,) * n
        stats = rapidbleu.stats.nltk_corpus_stats(refs, hyps, max_ngram_order=n)
        assert stats.score(weights=weights) == _nltk_side(weights)[1]
        with pytest.raises(ValueError, match="orders"):
            stats.score()  # NLTK's default BLEU-4 needs 4
