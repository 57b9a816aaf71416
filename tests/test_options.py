"""Every option value sacreBLEU 2.6.0 scores gives its score here, and what it cannot score or
scores as nonsense is refused with a clear error.

Each option of BLEU, chrF and TER (the classes and sacreBLEU's ``corpus_*``/``sentence_*``
functions) gets the values harness code sends -- ``None`` for an on/off option (sacreBLEU reads
it as False), 0/1 and int-valued floats, numpy scalars (a numpy ``float32`` beta makes sacreBLEU
compute chrF in float32), fractions, values at the edges -- and is compared with sacreBLEU itself
on real WMT23 segments (two references, one missing) and adversarial ones: the score's value
and type, its name and the signature, the sentence scores, and for some the bootstrap interval
(``Score._mean``/``_ci``, values and types).  For every value refused, the test checks our error
(type and message) and what sacreBLEU does with the value (it fails, or scores something that
means nothing), which is why it is refused (docs/exactness.md, "Option values").  Every test runs once per
backend.
"""

import logging
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sacrebleu
from conftest import data_files, read

import rapidbleu

pytestmark = pytest.mark.usefixtures("backend")

_FILES = data_files(
    "generaltest2023.he-en.hyp.ONLINE-B.en", "generaltest2023.he-en.ref.refA.en", "generaltest2023.he-en.ref.refB.en"
)
assert _FILES is not None, "the WMT23 samples ship with the tests"
_HYP, _REF_A, _REF_B = (read(p)[:10] for p in _FILES)

#: Adversarial segments (hypothesis, first reference, second reference or None): empty ones,
#: whitespace only, case, punctuation at word edges, 's before punctuation (TER's normalizer),
#: CJK, XML entities, a tokenized period, emoji, a segment with no match at all.
_ODD = [
    ("", "", None),
    ("   ", "a", "b"),
    ("A DOG barked, loudly!", "The dog barked loudly.", "a dog barked"),
    ("(hi) Jim's.", "hi, Jim's.", None),
    ("他们 在 吃饭。", "他们在吃饭。", "他们吃饭"),
    ("&amp; &lt;tag&gt; 3.5", "& <tag> 3.5", None),
    ("Foo bar .", "foo bar", "Foo  bar ."),
    ("🙂 ok 🙂", "ok 🙂", None),
    ("xyz", "abc", "def"),
]
HYPS = _HYP + [h for h, _, _ in _ODD]
REFS = [_REF_A + [a for _, a, _ in _ODD], _REF_B[:3] + [None] + _REF_B[4:] + [b for _, _, b in _ODD]]
#: Segments whose sentence scores are compared one by one (real and adversarial).
SENTENCES = [0, 3, 10, 11, 12, 13, 14, 18]

VERSION = f"rapidbleu-{rapidbleu.__version__}"


def _same_number(ours: Any, theirs: Any) -> None:
    assert type(ours) is type(theirs), (ours, theirs)
    assert repr(ours) == repr(theirs) or (ours != ours and theirs != theirs), (ours, theirs)


def _same_score(ours: Any, theirs: Any) -> None:
    _same_number(ours.score, theirs.score)
    assert ours.name == theirs.name
    assert str(ours) == str(theirs)


def _signature(metric: Any) -> str:
    return str(metric.get_signature()).replace(VERSION, sacrebleu.__version__)


def _compare(name: str, kwargs: dict[str, Any], bootstrap: bool = False) -> None:
    """``sacrebleu.<name>(**kwargs)`` against ``rapidbleu.<name>(**kwargs)``: corpus score,
    signature, sentence scores one by one and in one call, and (``bootstrap``) the interval."""
    ours, theirs = getattr(rapidbleu, name)(**kwargs), getattr(sacrebleu, name)(**kwargs)
    _same_score(ours.corpus_score(HYPS, REFS), theirs.corpus_score(HYPS, REFS))
    assert _signature(ours) == _signature(theirs)
    batch = ours.sentence_scores(HYPS, REFS)
    for i in SENTENCES:
        refs = [stream[i] for stream in REFS if stream[i] is not None]
        want = theirs.sentence_score(HYPS[i], refs)
        _same_score(ours.sentence_score(HYPS[i], refs), want)
        assert batch[i] == want.score, (i, batch[i], want.score)
    if bootstrap:
        a = getattr(rapidbleu, name)(**kwargs).corpus_score(HYPS, REFS, n_bootstrap=50)
        b = getattr(sacrebleu, name)(**kwargs).corpus_score(HYPS, REFS, n_bootstrap=50)
        _same_score(a, b)
        _same_number(a._mean, b._mean)
        _same_number(a._ci, b._ci)


@pytest.fixture(autouse=True)
def _quiet():
    """sacreBLEU's and our warnings about sentence BLEU without effective order etc."""
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


# ============================================================================================
# Values sacreBLEU scores: the same score, name, signature, sentence scores
# ============================================================================================
ON_OFF = [None, False, True, 0, 1, 0.0, 1.0, np.True_, np.False_, np.int64(1), np.float64(0.0)]

BLEU_VALUES = [
    {},
    *({flag: v} for flag in ("lowercase", "force", "effective_order") for v in ON_OFF),
    *({"tokenize": t} for t in (None, "13a", "none", "intl", "char", "zh")),
    *(
        {"smooth_method": m, "smooth_value": v}
        for m in ("exp", "floor", "add-k", "none")
        for v in (None, 0, 0.5, 2, 1e-9, np.float32(0.1), np.float16(0.1), np.float64(0.3), np.int64(2))
    ),
    *({"max_ngram_order": n} for n in (1, 2, 3, 5, 9, 64, np.int64(3), np.int8(2))),
    *({"max_ngram_order": n, "effective_order": True} for n in (1, 6, np.int32(5))),
    *({"trg_lang": lang} for lang in ("", "en", "zh", None)),
    {"trg_lang": "zh", "tokenize": "13a"},
]

CHRF_BETAS = [
    0, 0.0, 0.5, 1, 1.5, 2, 2.0, 3, 1e-300, 1e-8, 1e154,
    np.float32(0.5), np.float32(2), np.float64(0.5), np.float16(0.5), np.longdouble(0.5),
    np.int64(2), np.int8(3), np.uint8(0), Fraction(1, 2), Fraction(1, 3),
]  # fmt: skip

CHRF_VALUES = [
    *({"beta": b} for b in CHRF_BETAS),
    *({"beta": b, "eps_smoothing": True, "word_order": 2} for b in (0, 0.5, np.float32(0.5), Fraction(1, 3))),
    *({"char_order": c, "word_order": w} for c, w in ((0, 1), (0, 2), (1, 0), (4, 2), (6, 3), (64, 0), (2, 64))),
    {"char_order": np.int64(6), "word_order": np.int8(2)},
    {"char_order": np.int64(6), "word_order": np.int8(2), "eps_smoothing": True},  # numpy's division
    *({flag: v} for flag in ("lowercase", "whitespace", "eps_smoothing") for v in ON_OFF),
]

TER_VALUES = [
    *({flag: v} for flag in ("normalized", "no_punct", "asian_support", "case_sensitive") for v in ON_OFF),
    {"normalized": True, "asian_support": True},
    {"no_punct": 1, "asian_support": np.True_},
    {"normalized": None, "case_sensitive": 1.0, "no_punct": np.int64(0)},
]


@pytest.mark.parametrize("kwargs", BLEU_VALUES, ids=repr)
def test_bleu_option_values_score_as_sacrebleu(kwargs):
    _compare("BLEU", kwargs)


@pytest.mark.parametrize("kwargs", CHRF_VALUES, ids=repr)
def test_chrf_option_values_score_as_sacrebleu(kwargs):
    _compare("CHRF", kwargs)


@pytest.mark.parametrize("kwargs", TER_VALUES, ids=repr)
def test_ter_option_values_score_as_sacrebleu(kwargs):
    _compare("TER", kwargs)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("BLEU", {}),
        ("BLEU", {"smooth_method": "floor", "smooth_value": np.float32(0.1)}),
        ("BLEU", {"effective_order": None, "max_ngram_order": np.int64(3)}),
        ("CHRF", {}),
        ("CHRF", {"beta": 0}),
        ("CHRF", {"beta": 0.5, "word_order": 2}),
        ("CHRF", {"beta": np.float32(0.5)}),  # float32 throughout
        ("CHRF", {"beta": np.float64(2)}),  # float64 resamples: numpy's promotion
        ("CHRF", {"beta": np.int64(2), "eps_smoothing": True}),
        ("CHRF", {"beta": np.float16(1)}),
        ("CHRF", {"beta": Fraction(1, 2)}),
        ("CHRF", {"char_order": np.int64(6), "eps_smoothing": True}),  # float32 / int64: float64
        ("TER", {}),
        ("TER", {"normalized": None, "case_sensitive": 1}),
    ],
    ids=repr,
)
def test_bootstrap_interval_values_and_types_as_sacrebleu(name, kwargs):
    """``Score._mean`` and ``Score._ci`` after ``n_bootstrap``: sacreBLEU's numbers and types
    (Python floats for BLEU, numpy float32 for chrF and TER, float64 for a numpy float64 or
    int64 chrF beta), and the same printed text."""
    _compare(name, kwargs, bootstrap=True)


def test_readme_chrf_example_with_beta_one_half():
    hyps = ["The cat sat on the mat.", "A dog barked."]
    refs = [["The cat is on the mat.", "The dog barked."], ["A cat sat on a mat.", None]]
    score = rapidbleu.CHRF(beta=0.5).corpus_score(hyps, refs)
    assert score.score == 71.28202784593421 == sacrebleu.CHRF(beta=0.5).corpus_score(hyps, refs).score
    assert score.name == "chrF0.5"


COMPAT_CALLS = [
    ("corpus_bleu", {}),
    ("corpus_bleu", {"smooth_method": "floor", "smooth_value": np.float32(0.2), "force": None, "lowercase": 1}),
    ("corpus_bleu", {"tokenize": None, "use_effective_order": None}),
    ("corpus_bleu", {"tokenize": "char", "use_effective_order": 1.0}),
    ("raw_corpus_bleu", {"smooth_value": np.float16(0.1)}),
    ("raw_corpus_bleu", {"smooth_value": None}),
    ("corpus_chrf", {"beta": 0}),
    ("corpus_chrf", {"beta": np.float32(0.5), "word_order": 2, "remove_whitespace": None}),
    ("corpus_chrf", {"remove_whitespace": False, "eps_smoothing": None, "char_order": 3}),
    ("corpus_ter", {"normalized": None, "no_punct": 1, "asian_support": np.True_, "case_sensitive": 0.0}),
]

SENTENCE_CALLS = [
    ("sentence_bleu", {}),
    ("sentence_bleu", {"smooth_method": "add-k", "smooth_value": np.float32(0.5), "use_effective_order": None}),
    ("sentence_bleu", {"lowercase": None, "tokenize": "intl"}),
    ("sentence_chrf", {"beta": 0.5, "remove_whitespace": None}),
    ("sentence_chrf", {"beta": np.float64(0), "word_order": 2, "eps_smoothing": 1}),
    ("sentence_ter", {"normalized": 1, "case_sensitive": None}),
]


@pytest.mark.parametrize(("function", "kwargs"), COMPAT_CALLS, ids=repr)
def test_corpus_functions_take_sacrebleus_values(function, kwargs):
    _same_score(getattr(rapidbleu, function)(HYPS, REFS, **kwargs), getattr(sacrebleu, function)(HYPS, REFS, **kwargs))


@pytest.mark.parametrize(("function", "kwargs"), SENTENCE_CALLS, ids=repr)
def test_sentence_functions_take_sacrebleus_values(function, kwargs):
    for i in SENTENCES:
        refs = [stream[i] for stream in REFS if stream[i] is not None]
        _same_score(
            getattr(rapidbleu, function)(HYPS[i], refs, **kwargs), getattr(sacrebleu, function)(HYPS[i], refs, **kwargs)
        )


def test_statistics_paths_with_a_numpy_beta():
    """The rows sacreBLEU's bootstrap scripts score (``_compute_score_from_stats`` on int, int64
    and float32 rows) and the pairwise matrix, with a numpy float32 beta."""
    ours, theirs = rapidbleu.CHRF(beta=np.float32(0.5)), sacrebleu.CHRF(beta=np.float32(0.5))
    rows = ours._extract_corpus_statistics(HYPS, REFS)
    assert rows == theirs._extract_corpus_statistics(HYPS, REFS)
    total = np.array(rows).sum(axis=0)
    for row in (total.tolist(), total, total.astype(np.float32), total.astype(np.float64)):
        _same_score(ours._compute_score_from_stats(row), theirs._compute_score_from_stats(row))
    stats = ours.corpus_statistics(HYPS, REFS)
    for dtype in (None, np.int64, np.float32):
        got = ours.scores_from_stats(stats, dtype)
        want = [theirs._compute_score_from_stats(r.tolist() if dtype is None else r.astype(dtype)).score for r in stats]
        # (the array numpy makes of sacreBLEU's scores: float32 rows with a Python 0.0 among them
        # -- a segment without any match -- give float64)
        assert got.dtype == np.array(want).dtype
        assert got.tolist() == [float(w) for w in want]
    from rapidbleu.batch import pairwise_chrf

    cands = HYPS[:6]
    matrix = pairwise_chrf(cands, beta=np.float32(0.5))
    assert matrix.tolist() == [[float(theirs.sentence_score(a, [b]).score) for b in cands] for a in cands]


# ============================================================================================
# Values refused: what sacreBLEU does with each (fails, or scores nonsense), and our error
# ============================================================================================
def _sacre(name: str, kwargs: dict[str, Any]) -> Any:
    """sacreBLEU's corpus score with these options, or the exception it raises."""
    try:
        return getattr(sacrebleu, name)(**kwargs).corpus_score(HYPS, REFS)
    except Exception as exc:  # (what sacreBLEU raises is the point)
        return exc


def _sacre_sentence(name: str, kwargs: dict[str, Any], hyp: str, refs: list[str]) -> Any:
    try:
        return getattr(sacrebleu, name)(**kwargs).sentence_score(hyp, refs)
    except Exception as exc:
        return exc


def _on_short_corpus(check):
    """``check`` applied to sacreBLEU's score of a corpus with orders without any match (where
    BLEU's floor and add-k smoothing read their value) instead of the result given."""

    def run(_result: Any, name: str, kwargs: dict[str, Any]) -> bool:
        try:
            result = getattr(sacrebleu, name)(**kwargs).corpus_score(["the cat"], [["a cat sat"]])
        except Exception as exc:
            result = exc
        return check(result)

    run.short = True  # type: ignore[attr-defined]
    return run


def _fails(result: Any) -> bool:
    return isinstance(result, Exception)


def _same_as(name: str, other: dict[str, Any]):
    """sacreBLEU scores the value as it scores ``other`` (so the value is read as something else)."""

    def check(result: Any) -> bool:
        return not _fails(result) and result.score == _sacre(name, other).score

    return check


def _named(label: str):
    return lambda result: not _fails(result) and result.name == label


#: (metric, options, our exception type(s), words of our message, how sacreBLEU takes them,
#: whether our exception is an instance of the one sacreBLEU raises).
REFUSED = [
    # chrF beta: a negative weight (sacreBLEU squares the sign away and names the score chrF-2),
    # a bool (chrFTrue), nan and inf (no reference is ever chosen: IndexError), a square too
    # large (OverflowError), a numpy integer whose square wraps (2**32 squared is 0 in int64)
    ("CHRF", {"beta": -2}, ValueError, "beta must be a finite number >= 0, got -2", _named("chrF-2"), False),
    ("CHRF", {"beta": -0.5}, ValueError, "beta must be a finite number >= 0", _same_as("CHRF", {"beta": 0.5}), False),
    ("CHRF", {"beta": True}, TypeError, "beta must be a number >= 0, got bool", _named("chrFTrue"), False),
    ("CHRF", {"beta": np.True_}, TypeError, "beta must be a number >= 0, got bool", _named("chrFTrue"), False),
    ("CHRF", {"beta": math.nan}, ValueError, "beta must be a finite number >= 0, got nan", _fails, False),
    ("CHRF", {"beta": math.inf}, ValueError, "beta must be a finite number >= 0, got inf", _fails, False),
    ("CHRF", {"beta": 1e200}, OverflowError, "beta=1e+200 is too large", _fails, True),
    ("CHRF", {"beta": 10**200}, OverflowError, "is too large", _fails, True),
    ("CHRF", {"beta": np.float32(1e20)}, OverflowError, "is too large", _fails, False),
    ("CHRF", {"beta": np.int64(2**32)}, ValueError, "wraps around", _same_as("CHRF", {"beta": 0}), False),
    ("CHRF", {"beta": None}, TypeError, "beta must be a number >= 0, got NoneType", _fails, True),
    ("CHRF", {"beta": "2"}, TypeError, "beta must be a number >= 0, got str", _fails, True),
    ("CHRF", {"beta": 1j}, TypeError, "got complex", _fails, True),
    # chrF orders: none at all (sacreBLEU: IndexError), below 0 (char_order -1 counts as 0 while
    # the order sum drops a word order), bools (nc:yes in the signature), floats (range() fails)
    ("CHRF", {"char_order": 0, "word_order": 0}, ValueError, "both 0", _fails, False),
    ("CHRF", {"char_order": -1, "word_order": 2}, ValueError, "char_order must be between 0 and 64", _named("chrF2++"), False),
    ("CHRF", {"char_order": True}, TypeError, "char_order must be an int, got bool", _same_as("CHRF", {"char_order": 1}), False),
    ("CHRF", {"char_order": 6.0}, TypeError, "char_order must be an int, got float", _fails, True),
    # on/off options: a string (sacreBLEU switches the option on for "False"), other numbers
    ("CHRF", {"lowercase": "False"}, TypeError, "lowercase must be True or False", _same_as("CHRF", {"lowercase": True}), False),
    ("CHRF", {"eps_smoothing": 2}, TypeError, "eps_smoothing must be True or False", _same_as("CHRF", {"eps_smoothing": True}), False),
    ("CHRF", {"whitespace": []}, TypeError, "whitespace must be True or False", _same_as("CHRF", {}), False),
    ("TER", {"normalized": "no"}, TypeError, "normalized must be True or False", _same_as("TER", {"normalized": True}), False),
    ("TER", {"case_sensitive": math.nan}, TypeError, "case_sensitive must be True or False", _same_as("TER", {"case_sensitive": True}), False),
    ("TER", {"no_punct": 0.5}, TypeError, "no_punct must be True or False", _same_as("TER", {"no_punct": True}), False),
    ("BLEU", {"lowercase": "False"}, TypeError, "lowercase must be True or False", _same_as("BLEU", {"lowercase": True}), False),
    ("BLEU", {"effective_order": 2}, TypeError, "effective_order must be True or False", _same_as("BLEU", {"effective_order": True}), False),
    ("BLEU", {"force": "yes"}, TypeError, "force must be True or False", _same_as("BLEU", {}), False),
    # BLEU: no n-gram order (sacreBLEU scores 0.0), a bool order (read as 1), a float (range()
    # fails); smoothing values that are nan, inf, negative or not numbers
    ("BLEU", {"max_ngram_order": 0}, ValueError, "max_ngram_order must be >= 1, got 0", lambda r: r.score == 0.0, False),
    ("BLEU", {"max_ngram_order": True}, TypeError, "max_ngram_order must be an int, got bool", _same_as("BLEU", {"max_ngram_order": 1}), False),
    ("BLEU", {"max_ngram_order": 4.0}, TypeError, "max_ngram_order must be an int, got float", _fails, True),
    ("BLEU", {"smooth_method": "floor", "smooth_value": math.nan}, ValueError, "smooth_value must be a finite number >= 0", _on_short_corpus(lambda r: math.isnan(r.score)), False),
    ("BLEU", {"smooth_method": "add-k", "smooth_value": math.inf}, ValueError, "smooth_value must be a finite number >= 0", lambda r: math.isnan(r.score), False),
    ("BLEU", {"smooth_method": "floor", "smooth_value": -0.1}, ValueError, "smooth_value must be a finite number >= 0", _on_short_corpus(_fails), False),
    ("BLEU", {"smooth_method": "floor", "smooth_value": True}, TypeError, "got bool True", _same_as("BLEU", {"smooth_method": "floor", "smooth_value": 1}), False),
    ("BLEU", {"smooth_method": "floor", "smooth_value": "0.1"}, TypeError, "got str '0.1'", _on_short_corpus(_fails), False),
    ("BLEU", {"smooth_method": "EXP"}, AssertionError, "unknown smooth_method 'EXP'", _fails, True),
    ("BLEU", {"tokenize": "13A"}, KeyError, "unknown tokenizer '13A'", _fails, True),
]  # fmt: skip

#: Limits: values sacreBLEU scores that rapidbleu does not take (the compiled kernels' bound of
#: 64 orders; sacreBLEU takes minutes and the scores measure nothing there).
LIMITS = [
    ("BLEU", {"max_ngram_order": 65}, ValueError, "max_ngram_order must be <= 64"),
    ("CHRF", {"char_order": 65}, ValueError, "char_order must be between 0 and 64, got 65"),
    ("CHRF", {"word_order": 100}, ValueError, "word_order must be between 0 and 64, got 100"),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (sacreBLEU's, on numpy overflow)
@pytest.mark.parametrize(("name", "kwargs", "error", "words", "sacre", "same_type"), REFUSED, ids=repr)
def test_refused_values_and_why(name, kwargs, error, words, sacre, same_type):
    with pytest.raises(error, match=None) as info:
        getattr(rapidbleu, name)(**kwargs)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError | TypeError)  # (ours are ValueErrors or TypeErrors too)
    theirs = _sacre(name, kwargs)
    assert sacre(theirs, name, kwargs) if getattr(sacre, "short", False) else sacre(theirs), theirs
    if same_type:
        assert isinstance(theirs, Exception), theirs
        assert isinstance(info.value, type(theirs)), (theirs, info.value)


def test_refused_beta_nan_fails_or_is_nonsense_in_sacrebleus_sentence_score():
    """A nan beta: sacreBLEU's corpus score fails (above); a sentence score is 1e-14 for any
    input (every comparison with nan is false, so every order takes the epsilon)."""
    a = _sacre_sentence("CHRF", {"beta": math.nan, "eps_smoothing": True}, "a dog", ["a dog"])
    b = _sacre_sentence("CHRF", {"beta": math.nan, "eps_smoothing": True}, "a dog", ["the cat sat"])
    assert a.score == b.score < 1e-13


@pytest.mark.parametrize(("name", "kwargs", "error", "words"), LIMITS, ids=repr)
def test_documented_limits(name, kwargs, error, words):
    with pytest.raises(error, match=words):
        getattr(rapidbleu, name)(**kwargs)
    assert not _fails(_sacre(name, kwargs))  # sacreBLEU scores it: a limit, not a refusal


@pytest.mark.parametrize(
    "call",
    [
        lambda: rapidbleu.corpus_chrf(HYPS, REFS, beta=-1),
        lambda: rapidbleu.sentence_chrf("a", ["a"], beta=math.nan),
        lambda: rapidbleu.corpus_chrf(HYPS, REFS, remove_whitespace="False"),
        lambda: rapidbleu.corpus_bleu(HYPS, REFS, use_effective_order="yes"),
        lambda: rapidbleu.sentence_bleu("a", ["a"], lowercase=2),
        lambda: rapidbleu.corpus_ter(HYPS, REFS, normalized="False"),
        lambda: rapidbleu.sentence_ter("a", ["a"], asian_support=[1]),
    ],
)
def test_compat_functions_refuse_the_same_values(call):
    with pytest.raises((TypeError, ValueError), match="must be"):
        call()
