"""rapidbleu's BLEU equals sacreBLEU's, float for float, on real WMT23 data and random input."""

import inspect
import logging
import math
import random
import sys

import numpy as np
import pytest
import sacrebleu
from conftest import OFFICIAL_TOKENIZER, SAMPLE_DIR, TINY_HYPS, TINY_REFS, full_data_dir, read, score_rows, systems
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

import rapidbleu
from rapidbleu._core.bleu.bleu_scores_py import SMOOTH_DEFAULTS

# Every test here runs once per backend (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(autouse=True)
def _quiet_loggers():
    """Silence both tools' advisory warnings here, without changing levels for other tests."""
    saved = {name: logging.getLogger(name).level for name in ("sacrebleu", "rapidbleu")}
    for name in saved:
        logging.getLogger(name).setLevel(logging.ERROR)
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


SIG_VERSION = f"version:rapidbleu-{rapidbleu.__version__}"


def assert_same(ours, theirs):
    """Every field of the result, and the printed text, equal."""
    assert ours.score == theirs.score
    assert list(ours.counts) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert ours.precisions == theirs.precisions
    assert ours.bp == theirs.bp
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.ratio == theirs.ratio
    assert str(ours) == str(theirs)
    for width in (1, 2, 4):
        assert ours.format(width=width) == theirs.format(width=width)
    assert ours.prec_str == theirs.prec_str
    assert [type(x) for x in ours.counts] == [type(x) for x in theirs.counts]


def sig(metric):
    return metric.get_signature().format().replace(SIG_VERSION, f"version:{sacrebleu.__version__}")


# -- the official WMT23 table ----------------------------------------------------------------
def test_official_13a_rows_reproduced():
    data = full_data_dir()
    rows = [row for row in score_rows(data) if row["pair"] not in OFFICIAL_TOKENIZER]  # zh, char: test_tokenizers
    if not rows:
        pytest.skip(f"{data / 'scores.tsv'} has no row of a 13a pair")
    checked = 0
    for row in rows:
        pair, system = row["pair"], row["system"]
        hyps, refs = read(row["hyp"]), read(row["ref"])
        score = rapidbleu.BLEU().corpus_score(hyps, [refs]).score
        # The running interpreter's sacreBLEU, float for float ...
        assert score == sacrebleu.corpus_bleu(hyps, [refs]).score, (pair, system)
        # ... and the official table, computed before Python 3.12: from 3.12 the builtin sum()
        # of the log precisions is compensated, so sacreBLEU itself may move in the last bit.
        if sys.version_info < (3, 12):
            assert score == float(row["score"]), (pair, system, row["metric"])
        else:
            assert math.isclose(score, float(row["score"]), rel_tol=4e-15, abs_tol=0.0), (pair, system)
        checked += 1
    assert checked == len(rows) > 0  # (the developer selection: 15 systems x (bleu-refA, bleu-all))


@pytest.mark.parametrize("where", ["sample", "full"])
def test_every_13a_system_equals_sacrebleu(where):
    data = SAMPLE_DIR if where == "sample" else full_data_dir()
    found = [s for s in systems(data) if s[0] not in OFFICIAL_TOKENIZER]
    if not found:
        pytest.skip(f"no system output of a 13a pair in {data}")
    n = 0
    for _pair, _system, hyp_path, ref_paths in found:
        hyps = read(hyp_path)
        refs = [read(p) for p in ref_paths]
        for ref_set in ([refs[0]], refs) if len(refs) > 1 else ([refs[0]],):
            ours, theirs = rapidbleu.BLEU(), sacrebleu.BLEU()
            assert_same(ours.corpus_score(hyps, ref_set), theirs.corpus_score(hyps, ref_set))
            assert sig(ours) == theirs.get_signature().format()
            n += 1
    # every system, and those with two references again with both (developer selection: 15 + 3)
    assert n == len(found) + sum(len(refs) > 1 for *_, refs in found) > 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"lowercase": True},
        {"tokenize": "none"},
        {"smooth_method": "floor"},
        {"smooth_method": "floor", "smooth_value": 0.3},
        {"smooth_method": "add-k"},
        {"smooth_method": "add-k", "smooth_value": 2.5},
        {"smooth_method": "none"},
        {"effective_order": True},
        {"max_ngram_order": 2},
        {"max_ngram_order": 6, "smooth_method": "none"},
    ],
)
def test_options_on_sample_equal_sacrebleu(kwargs):
    for pair, _system, hyp_path, ref_paths in systems(SAMPLE_DIR):
        if pair not in ("de-en", "he-en", "cs-uk"):
            continue
        hyps, refs = read(hyp_path), [read(p) for p in ref_paths]
        ours, theirs = rapidbleu.BLEU(**kwargs), sacrebleu.BLEU(**kwargs)
        assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
        assert sig(ours) == theirs.get_signature().format()
        assert ours.get_signature().format(short=True).replace(
            f"v:rapidbleu-{rapidbleu.__version__}", f"v:{sacrebleu.__version__}"
        ) == theirs.get_signature().format(short=True)


def test_sentence_scores_of_sample_equal_sacrebleu():
    pair_files = next(s for s in systems(SAMPLE_DIR) if s[0] == "he-en")
    hyps, refs = read(pair_files[2]), [read(p) for p in pair_files[3]]
    ours = rapidbleu.BLEU(effective_order=True)
    theirs = sacrebleu.BLEU(effective_order=True)
    batch = ours.sentence_scores(hyps, refs)
    for i, hyp in enumerate(hyps):
        seg_refs = [r[i] for r in refs]
        expected = theirs.sentence_score(hyp, seg_refs)
        assert_same(ours.sentence_score(hyp, seg_refs), expected)
        assert batch[i] == expected.score


def test_sentence_bleu_options_told_apart_by_type():
    """``sentence_bleu`` builds its metric once per option set: options equal in value but not
    in type (add-k's 1 and 1.0 make int and float counts) are two sets, each sacreBLEU's
    result; a bad option is refused on every call, not only the first."""
    hyp, ref = "the cat sat on the mat today", "the cat is on the mat"
    for value in (1, 1.0, 1, 0.5):
        for method in ("add-k", "floor"):
            for _ in range(2):
                ours = rapidbleu.sentence_bleu(hyp, [ref], smooth_method=method, smooth_value=value)
                assert_same(ours, sacrebleu.sentence_bleu(hyp, [ref], smooth_method=method, smooth_value=value))
    for low in (False, True, 0, 1):
        assert_same(
            rapidbleu.sentence_bleu(hyp.upper(), [ref], lowercase=low),
            sacrebleu.sentence_bleu(hyp.upper(), [ref], lowercase=low),
        )
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown smooth_method"):
            rapidbleu.sentence_bleu(hyp, [ref], smooth_method="nope")
    # an unhashable option value is not cached, and still checked
    with pytest.raises(ValueError, match="smooth_value"):
        rapidbleu.sentence_bleu(hyp, [ref], smooth_method="floor", smooth_value=[0.1])


def test_sentence_bleu_negative_zero_and_str_subclasses():
    """``-0.0`` equals ``0.0`` (and hashes alike) but sacreBLEU prints it: the metric built for
    one is not the other's; a ``str`` subclass (``numpy.str_``, from an array of strings) is a
    string, lowercased by its own ``lower()`` as sacreBLEU does."""
    np = pytest.importorskip("numpy")
    for first, second in ((0.0, -0.0), (-0.0, 0.0)):
        for value in (first, second, np.float64(second)):
            assert_same(
                rapidbleu.sentence_bleu("a b c", ["a c d"], smooth_method="floor", smooth_value=value),
                sacrebleu.sentence_bleu("a b c", ["a c d"], smooth_method="floor", smooth_value=value),
            )
    for hyp, refs in ((np.str_("The Cat sat"), ["the cat sat on"]), ("the cat", [np.str_("The CAT")])):
        for low in (False, True):
            assert_same(
                rapidbleu.sentence_bleu(hyp, refs, lowercase=low), sacrebleu.sentence_bleu(hyp, refs, lowercase=low)
            )


def test_sentence_score_text_made_on_first_read():
    """The BLEU result's texts (``prec_str``, the verbose part of ``format``) are made when
    read, equal to sacreBLEU's, and may be set as sacreBLEU's plain attributes can."""
    ours = rapidbleu.sentence_bleu("a b c d", ["a b c e"])
    theirs = sacrebleu.sentence_bleu("a b c d", ["a b c e"])
    assert "prec_str" not in vars(ours)
    assert_same(ours, theirs)
    ours.prec_str = theirs.prec_str = "x"
    assert ours.prec_str == "x"


# -- worked examples from the literature -----------------------------------------------------
def test_papineni_style_examples():
    s = rapidbleu.corpus_bleu(["the cat is on mat"], [["the cat is on the mat"]])
    assert f"{s.score:.3f}" == "57.893"
    assert s.score == sacrebleu.corpus_bleu(["the cat is on mat"], [["the cat is on the mat"]]).score
    two = rapidbleu.corpus_bleu(
        ["The cat sat on mat"], [["The cat sat on the mat"], ["The cat was sitting on the mat"]]
    )
    assert (
        two.score
        == sacrebleu.corpus_bleu(
            ["The cat sat on mat"], [["The cat sat on the mat"], ["The cat was sitting on the mat"]]
        ).score
    )
    assert f"{two.score:.3f}" == "57.893"
    clipped = rapidbleu.corpus_bleu(
        ["the the the the the the the"], [["The cat is on the mat."], ["There is a cat on the mat."]], lowercase=True
    )
    assert clipped.counts[0] == 2
    assert clipped.totals[0] == 7
    assert clipped.precisions[0] == 100.0 * 2 / 7


def test_perfect_match_is_sacrebleus_float():
    s = rapidbleu.corpus_bleu(["a b c d e"], [["a b c d e"]])
    assert s.score == 100.00000000000004
    assert s.score == sacrebleu.corpus_bleu(["a b c d e"], [["a b c d e"]]).score


def test_function_defaults_match_sacrebleu():
    hyp, refs = "the cat sat", ["the cat sat on the mat"]
    assert_same(rapidbleu.sentence_bleu(hyp, refs), sacrebleu.sentence_bleu(hyp, refs))
    assert_same(rapidbleu.raw_corpus_bleu([hyp], [refs[:1]]), sacrebleu.raw_corpus_bleu([hyp], [refs[:1]]))
    assert_same(rapidbleu.corpus_bleu([hyp], [refs[:1]]), sacrebleu.corpus_bleu([hyp], [refs[:1]]))


def test_variable_number_of_references_signature():
    hyps = ["a b c", "d e f"]
    refs = [["a b c", "d e"], ["a b", None]]
    ours, theirs = rapidbleu.BLEU(), sacrebleu.BLEU()
    assert_same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert "nrefs:var" in ours.get_signature().format()
    assert sig(ours) == theirs.get_signature().format()


def test_cached_references_equal_explicit():
    hyps = ["a b c", "d e f"]
    refs = [["a b c", "d e"]]
    cached = rapidbleu.BLEU(references=refs)
    assert_same(cached.corpus_score(hyps, None), sacrebleu.BLEU(references=refs).corpus_score(hyps, None))


# -- random input, property-based ------------------------------------------------------------
WORDS = ["a", "b", "the", "cat", "A", "The", ".", ",", "3", "3.5", "x-y", "&amp;", "é", "İ", "猫", "a.", "(b)"]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
smoothing = st.sampled_from(
    [("exp", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("add-k", 3), ("none", None)]
)


@settings(max_examples=150, deadline=None)
@given(
    data=st.integers(min_value=1, max_value=4).flatmap(
        lambda k: st.lists(
            st.tuples(sentence, st.lists(st.one_of(sentence, st.none()), min_size=k, max_size=k)),
            min_size=1,
            max_size=5,
        )
    ),
    smooth=smoothing,
    effective_order=st.booleans(),
    lowercase=st.booleans(),
    order=st.integers(min_value=1, max_value=5),
    tokenize=st.sampled_from(["13a", "none"]),
)
def test_random_corpora_equal_sacrebleu(data, smooth, effective_order, lowercase, order, tokenize):
    hyps = [h for h, _ in data]
    k = len(data[0][1])
    streams = [[refs[j] for _, refs in data] for j in range(k)]
    # a segment whose references are all None is rejected by rapidbleu (sacreBLEU mis-scores it)
    for i in range(len(hyps)):
        if all(s[i] is None for s in streams):
            streams[0][i] = ""
    kw = {
        "smooth_method": smooth[0],
        "smooth_value": smooth[1],
        "effective_order": effective_order,
        "lowercase": lowercase,
        "max_ngram_order": order,
        "tokenize": tokenize,
    }
    ours, theirs = rapidbleu.BLEU(**kw), sacrebleu.BLEU(**kw)
    assert_same(ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams))
    assert sig(ours) == theirs.get_signature().format()
    for i, hyp in enumerate(hyps):
        seg = [s[i] for s in streams]
        assert_same(ours.sentence_score(hyp, seg), theirs.sentence_score(hyp, seg))


# -- BLEU.compute_bleu -------------------------------------------------------------------
def _fields(score):
    return (
        score.score,
        str(score),
        list(score.counts),
        list(score.totals),
        score.precisions,
        score.bp,
        score.ratio,
        score.sys_len,
        score.ref_len,
        score.prec_str,
    )


def _random_stats(rng, order):
    """Statistics as a corpus or a sentence produces them, with many zero counts; sometimes
    totals that do not follow from sys_len (compute_bleu takes whatever it is given)."""
    sys_len = rng.choice([0, 0, 1, 2, 3, rng.randint(0, 12), rng.randint(0, 5000)])
    ref_len = rng.choice([0, sys_len, rng.randint(0, 12), rng.randint(0, 6000)])
    if rng.random() < 0.8:
        total = [max(0, sys_len - n) for n in range(order)]
    else:
        total = [rng.randint(0, 30) for _ in range(order)]
    shape = rng.random()
    if shape < 0.25:
        correct = [0] * order
    elif shape < 0.5:  # matches stop at some order
        stop = rng.randint(1, order)
        correct = [rng.randint(1, t) if (n < stop and t) else 0 for n, t in enumerate(total)]
    else:
        correct = [rng.randint(0, t) if rng.random() < 0.7 else 0 for t in total]
    return correct, total, sys_len, ref_len


@pytest.mark.parametrize("smooth_method", list(SMOOTH_DEFAULTS))
@pytest.mark.parametrize("effective_order", [False, True])
def test_compute_bleu_matches_sacrebleu(smooth_method, effective_order):
    rng = random.Random(f"{smooth_method}{effective_order}")
    for _ in range(600):
        order = rng.choice([4, 4, 1, 2, 3, 5, 6])
        correct, total, sys_len, ref_len = _random_stats(rng, order)
        value = rng.choice([None, None, rng.choice([0.01, 0.1, 0.5, 1, 2, 3.7])])
        kwargs = {
            "smooth_method": smooth_method,
            "smooth_value": value,
            "effective_order": effective_order,
            "max_ngram_order": order,
        }
        # sacreBLEU adds add-k's k to the lists it is given: each call gets its own copies
        theirs = SacreBLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, **kwargs)
        ours = rapidbleu.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, **kwargs)
        assert _fields(ours) == _fields(theirs), (correct, total, sys_len, ref_len, kwargs)


def test_compute_bleu_defaults_and_signature():
    # no smoothing by default (not BLEU()'s exp), N = 4
    args = ([3, 1, 0, 0], [5, 4, 3, 2], 5, 7)
    assert _fields(rapidbleu.BLEU.compute_bleu(*args)) == _fields(SacreBLEU.compute_bleu(*args))
    assert rapidbleu.BLEU.compute_bleu(*args).score == 0.0
    # fairseq inspects the argument names (getfullargspec) and passes them as keywords
    ours, theirs = inspect.signature(rapidbleu.BLEU.compute_bleu), inspect.signature(SacreBLEU.compute_bleu)
    assert [(p.name, p.default) for p in ours.parameters.values()] == [
        (p.name, p.default) for p in theirs.parameters.values()
    ]
    assert isinstance(inspect.getattr_static(rapidbleu.BLEU, "compute_bleu"), staticmethod)
    assert isinstance(rapidbleu.BLEU().compute_bleu(*args), rapidbleu.BLEUScore)


def test_compute_bleu_fairseq_call():
    """fairseq: numpy arrays of summed counts, exp smoothing, keywords."""
    counts, totals = np.array([4182, 2221, 1224, 673]), np.array([6006, 5506, 5006, 4506])
    kw = {"sys_len": 6006, "ref_len": 6213, "smooth_method": "exp"}
    ours = rapidbleu.BLEU.compute_bleu(correct=counts.copy(), total=totals.copy(), **kw)
    theirs = SacreBLEU.compute_bleu(correct=counts.copy(), total=totals.copy(), **kw)
    assert (ours.score, str(ours), ours.precisions) == (theirs.score, str(theirs), theirs.precisions)


def test_compute_bleu_equals_corpus_score():
    _pair, _system, hyp, refs = systems(SAMPLE_DIR)[0]
    hyps = hyp.read_text("utf-8").splitlines()
    ref_streams = [r.read_text("utf-8").splitlines() for r in refs]
    corpus = rapidbleu.corpus_bleu(hyps, ref_streams)
    again = rapidbleu.BLEU.compute_bleu(
        corpus.counts, corpus.totals, corpus.sys_len, corpus.ref_len, smooth_method="exp"
    )
    assert str(again) == str(corpus)
    assert again.score == corpus.score


def test_compute_bleu_leaves_the_callers_lists_alone():
    correct, total = [2, 0, 0, 0], [3, 2, 1, 0]
    score = rapidbleu.BLEU.compute_bleu(correct, total, 3, 3, smooth_method="add-k")
    assert score.counts == [2, 1, 1, 1]
    assert score.totals == [3, 3, 2, 1]
    assert correct == [2, 0, 0, 0]
    assert total == [3, 2, 1, 0]


def test_compute_bleu_unknown_smoothing():
    for exc in (AssertionError, ValueError):
        with pytest.raises(exc):
            rapidbleu.BLEU.compute_bleu([1], [1], 1, 1, smooth_method="bogus", max_ngram_order=1)
    with pytest.raises(AssertionError):
        SacreBLEU.compute_bleu([1], [1], 1, 1, smooth_method="bogus", max_ngram_order=1)


# -- BLEU.TOKENIZERS ---------------------------------------------------------------------
def test_tokenizers_on_the_class():
    ours, theirs = rapidbleu.BLEU.TOKENIZERS, SacreBLEU.TOKENIZERS
    assert type(ours) is type(theirs)
    assert list(ours) == list(theirs)
    assert ours == theirs
    assert list(rapidbleu.BLEU().TOKENIZERS) == list(SacreBLEU().TOKENIZERS)
    assert "13a" in ours
    assert len(ours) == len(theirs)


# -- smooth values sacreBLEU accepts --------------------------------------------------------
@pytest.mark.parametrize("value", [0, 0.0, 0.01, 2, np.float32(0.5), np.int64(3)], ids=repr)
def test_good_smooth_values_match_sacrebleu(value):
    ours = rapidbleu.corpus_bleu(TINY_HYPS, TINY_REFS, smooth_method="floor", smooth_value=value)
    theirs = sacrebleu.corpus_bleu(TINY_HYPS, TINY_REFS, smooth_method="floor", smooth_value=value)
    assert ours.score == theirs.score
    assert str(ours) == str(theirs)
