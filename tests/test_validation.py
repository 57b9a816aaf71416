"""Bad input raises a clear error naming what is wrong and where (sacreBLEU would mis-score)."""

import math
import os
import re
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from conftest import TINY_HYPS, TINY_REFS

import rapidbleu
import rapidbleu.batch
import rapidbleu.ids
import rapidbleu.rewards
from rapidbleu import SegmentMajorReferencesWarning
from rapidbleu import significance as rsig
from rapidbleu._core.inputs import reset_segment_major_warning
from rapidbleu.ids import corpus_bleu_ids
from rapidbleu.nltk import NLTKBLEU
from rapidbleu.stats import corpus_stats

# Every test here runs once per backend (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")

HYPS = ["a b c", "d e f", "g h"]
REFS = [["a b c", "d e f", "g h"]]


def test_reference_stream_shorter_than_hypotheses():
    with pytest.raises(ValueError, match=r"reference stream 0 has 2 lines but there are 3 hypotheses"):
        rapidbleu.corpus_bleu(HYPS, [REFS[0][:2]])


def test_second_reference_stream_longer():
    with pytest.raises(ValueError, match=r"reference stream 1 has 4 lines but there are 3 hypotheses"):
        rapidbleu.corpus_bleu(HYPS, [REFS[0], REFS[0] + ["x"]])


#: The layout lighteval passes for chrF and TER, ``[[ref] for ref in golds]``: one list per
#: segment where sacreBLEU takes one list per reference stream.
GOLDS = ["the cat sat on the mat", "a dog barked at the postman", "it rained all day"]
SYSTEM = ["the cat sat on the mat", "a dog barked at the postman", "it snowed the whole week"]
SEGMENT_MAJOR = [[g] for g in GOLDS]
STREAMS = [GOLDS]  # the same references as one stream
LAYOUT_WORDS = re.escape("one list per segment (segment-major, e.g. [[ref] for ref in golds])")
TRANSPOSE_WORDS = re.escape("one list per reference stream (references[k][i]: the k-th reference of hypothesis i)")


@pytest.fixture
def layout_warnings():
    """The warnings of references given one list per segment in the test's calls: the
    once-per-process flag reset before (its documented hook), every warning recorded."""
    reset_segment_major_warning()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield lambda: [w for w in caught if issubclass(w.category, SegmentMajorReferencesWarning)]
    reset_segment_major_warning()


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_segment_major_references_are_scored_as_segments(name, layout_warnings):
    """sacreBLEU scores only the first segment of the layout, without a word (its zip stops at
    the shortest stream): here the same score as the first segment alone, though the third
    differs.  rapidbleu scores the corpus the caller meant (sacreBLEU's float on the transposed
    references) and warns once, saying what the layout looks like and how to transpose it."""
    theirs = getattr(sacrebleu, name)()
    assert theirs.corpus_score(SYSTEM, SEGMENT_MAJOR).score == theirs.corpus_score(SYSTEM[:1], SEGMENT_MAJOR).score
    assert theirs.corpus_score(SYSTEM, STREAMS).score != theirs.corpus_score(SYSTEM, SEGMENT_MAJOR).score
    ours = getattr(rapidbleu, name)()
    assert ours.corpus_score(SYSTEM, SEGMENT_MAJOR).score == theirs.corpus_score(SYSTEM, STREAMS).score
    assert ours.corpus_score(SYSTEM, SEGMENT_MAJOR).score == theirs.corpus_score(SYSTEM, STREAMS).score
    (warning,) = layout_warnings()  # one, for two calls
    assert issubclass(SegmentMajorReferencesWarning, UserWarning)
    assert warning.filename == __file__  # the caller's line
    message = str(warning.message)
    assert re.search(LAYOUT_WORDS, message)
    assert "3 lists for 3 hypotheses" in message
    assert "sacreBLEU would read them as reference streams and silently score only as many hypotheses as " in message
    assert "the shortest inner list has lines (the first one, for one reference a segment)" in message
    assert re.search(TRANSPOSE_WORDS, message)
    assert "list(zip(*references))" in message
    assert "itertools.zip_longest(*references)" in message


def _same(a: Any, b: Any) -> bool:
    """Two results of one door equal: scores by their float, arrays and rows element for element."""
    if isinstance(getattr(a, "score", None), float):  # a score object (a CorpusStats has a method)
        return type(a) is type(b) and a.score == b.score
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize(
    ("call", "refs"),
    [
        (lambda refs: rapidbleu.corpus_bleu(SYSTEM, refs), None),
        (lambda refs: rapidbleu.corpus_chrf(SYSTEM, refs), None),
        (lambda refs: rapidbleu.corpus_ter(SYSTEM, refs), None),
        (lambda refs: rapidbleu.BLEU().corpus_statistics(SYSTEM, refs), None),
        (lambda refs: rapidbleu.CHRF(word_order=2).corpus_score(SYSTEM, refs, n_bootstrap=10), None),
        (lambda refs: rapidbleu.TER().corpus_totals(SYSTEM, refs), None),
        (lambda refs: corpus_stats(SYSTEM, refs, metric=rapidbleu.TER()), None),
        (lambda refs: NLTKBLEU().corpus_statistics(SYSTEM, refs), None),
        (lambda refs: rapidbleu.BLEU()._extract_corpus_statistics(SYSTEM, refs), None),
        (lambda refs: rapidbleu.CHRF()._check_corpus_score_args(SYSTEM, refs), None),
        (lambda refs: corpus_bleu_ids([[1, 2], [3, 4], [5]], refs), ([[[1, 2]], [[3]], [[5]]], [[[1, 2], [3], [5]]])),
        (
            lambda refs: rapidbleu.ids.stats_ids([[1, 2], [3, 4], [5]], refs),
            ([[[1, 2], [1]], [[3]], [[5], [5, 6]]], [[[1, 2], [3], [5]], [[1], None, [5, 6]]]),
        ),
    ],
    ids=[
        "corpus_bleu",
        "corpus_chrf",
        "corpus_ter",
        "statistics",
        "bootstrap",
        "totals",
        "corpus_stats",
        "nltk",
        "semi-private",
        "sacrebleu-check",
        "ids",
        "ids-ragged",
    ],
)
def test_segment_major_references_on_every_entry_point(call, refs, layout_warnings):
    """Every door that takes reference streams reads the layout by the same rule: the result of
    the segment-major references is the result of the same references as streams, with one
    warning."""
    segment_major, streams = refs or (SEGMENT_MAJOR, STREAMS)
    ours = call(segment_major)
    assert len(layout_warnings()) == 1
    assert _same(ours, call(streams))
    assert len(layout_warnings()) == 1  # the streams: no warning


def test_segment_major_corpus_scores_are_sacrebleus(layout_warnings):
    """The module-level functions: sacreBLEU's floats of the transposed references."""
    assert rapidbleu.corpus_bleu(SYSTEM, SEGMENT_MAJOR).score == sacrebleu.corpus_bleu(SYSTEM, STREAMS).score
    assert rapidbleu.corpus_chrf(SYSTEM, SEGMENT_MAJOR).score == sacrebleu.corpus_chrf(SYSTEM, STREAMS).score
    assert rapidbleu.corpus_ter(SYSTEM, SEGMENT_MAJOR).score == sacrebleu.corpus_ter(SYSTEM, STREAMS).score
    assert len(layout_warnings()) == 1


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_segment_major_references_of_varying_number(name, layout_warnings):
    """Segments with two references and segments with one: the streams None-padded where a
    segment has fewer, sacreBLEU's variable references, with sacreBLEU's float (and its
    ``nrefs:var``)."""
    extra = ["the cat is on the mat", "it rained the whole day"]
    per_segment = [[GOLDS[0], extra[0]], [GOLDS[1]], [GOLDS[2], extra[1]]]
    padded = [GOLDS, [extra[0], None, extra[1]]]
    theirs = getattr(sacrebleu, name)()
    expected = theirs.corpus_score(SYSTEM, padded).score
    ours = getattr(rapidbleu, name)()
    assert ours.corpus_score(SYSTEM, per_segment).score == expected
    assert ours.num_refs == -1 == theirs.num_refs
    assert len(layout_warnings()) == 1


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_references_both_layouts_read_stay_streams(name, layout_warnings):
    """n lists of n references for n hypotheses could be either layout: they are streams,
    sacreBLEU's reading, without a warning."""
    hyps = SYSTEM[:2]
    refs = [[GOLDS[0], GOLDS[2]], [GOLDS[1], GOLDS[0]]]  # as segments they would pair differently
    ours = getattr(rapidbleu, name)().corpus_score(hyps, refs).score
    assert ours == getattr(sacrebleu, name)().corpus_score(hyps, refs).score
    as_segments = getattr(sacrebleu, name)().corpus_score(hyps, [list(s) for s in zip(*refs, strict=True)]).score
    assert ours != as_segments
    assert layout_warnings() == []


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_one_hypothesis_and_its_references(name, layout_warnings):
    """One hypothesis: ``[[ref]]`` reads the same either way (a stream, no warning);
    ``[[ref1, ref2]]`` cannot be a stream (two lines for one hypothesis) and is one segment with
    two references (sacreBLEU would score it against the first alone)."""
    theirs = getattr(sacrebleu, name)()
    ours = getattr(rapidbleu, name)()
    assert ours.corpus_score(SYSTEM[2:], [[GOLDS[2]]]).score == theirs.corpus_score(SYSTEM[2:], [[GOLDS[2]]]).score
    assert layout_warnings() == []
    two = [GOLDS[2], "it snowed the whole day"]
    expected = theirs.corpus_score(SYSTEM[2:], [[two[0]], [two[1]]]).score
    assert expected != theirs.corpus_score(SYSTEM[2:], [two]).score  # sacreBLEU: the first reference alone
    assert ours.corpus_score(SYSTEM[2:], [two]).score == expected
    assert ours.num_refs == 2
    assert len(layout_warnings()) == 1


def test_segment_major_warning_once_per_process(tmp_path):
    """One warning per process, whatever the call sites and metrics (the flag is the package's,
    not the warnings registry's, which the ``default`` filter keys by call site)."""
    script = tmp_path / "layout.py"
    script.write_text(
        textwrap.dedent(
            """
            import rapidbleu
            hyps = ["a b c", "d e f"]
            rapidbleu.corpus_bleu(hyps, [["a b c"], ["d e f"]])
            rapidbleu.corpus_chrf(hyps, [["a b c"], ["d e f"]])
            for _ in range(2):
                rapidbleu.TER().corpus_score(hyps, [["a b c"], ["d e f", "d e"]])
            print("done")
            """
        )
    )
    env = dict(os.environ, PYTHONWARNINGS="default", PYTHONPATH=str(Path(rapidbleu.__file__).parents[1]))
    res = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "done"
    assert res.stderr.count("SegmentMajorReferencesWarning") == 1, res.stderr
    assert res.stderr.startswith(f"{script}:4: SegmentMajorReferencesWarning: rapidbleu: ")


def test_segment_major_warning_hook_resets_it(layout_warnings):
    rapidbleu.corpus_bleu(SYSTEM, SEGMENT_MAJOR)
    rapidbleu.corpus_bleu(SYSTEM, SEGMENT_MAJOR)
    assert len(layout_warnings()) == 1
    reset_segment_major_warning()
    rapidbleu.corpus_bleu(SYSTEM, SEGMENT_MAJOR)
    assert len(layout_warnings()) == 2


@pytest.mark.parametrize(
    ("refs", "words"),
    [
        (
            [[GOLDS[0]], [], [GOLDS[2]]],
            "reference stream 0 has 1 line but there are 3 hypotheses; as many reference streams as hypotheses: they may be one list per segment",
        ),
        ([[g] for g in GOLDS[:2]], "reference stream 0 has 1 line but there are 3 hypotheses$"),
        ([GOLDS[0], [GOLDS[1]], [GOLDS[2]]], r"references\[0\] is a string"),
        ([{GOLDS[0]}, [GOLDS[1]], [GOLDS[2]]], r"references\[0\] must be an ordered sequence .* got a set"),
    ],
    ids=["a segment without references", "fewer lists than hypotheses", "a string", "a set"],
)
def test_references_fitting_neither_layout_keep_their_errors(refs, words, layout_warnings):
    with pytest.raises((TypeError, ValueError), match=words):
        rapidbleu.corpus_bleu(SYSTEM, refs)
    assert layout_warnings() == []


@pytest.mark.parametrize("kind", ["bleu_stats", "chrf", "ter"])
def test_segment_major_references_in_the_kernels(kind):
    """The kernels' own check of stream lengths says the same (one message, in ``_errors``)."""
    from rapidbleu._core import backend as _backend

    kernel = {"bleu_stats": "string_stats", "chrf": "chrf_stats", "ter": "ter_stats"}[kind]
    options = () if kind == "bleu_stats" else ({},)  # (chrF's and TER's kernels take their options as one value)
    with pytest.raises(ValueError, match=LAYOUT_WORDS):
        getattr(getattr(_backend, kind), kernel)(SYSTEM, SEGMENT_MAJOR, *options)


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_segment_major_cached_references_say_how_to_transpose(name):
    metric = getattr(rapidbleu, name)(references=SEGMENT_MAJOR)  # three streams of one line: valid
    with pytest.raises(ValueError, match="3 hypotheses but the cached references have 1 segment; ") as info:
        metric.corpus_score(SYSTEM, None)
    assert re.search(LAYOUT_WORDS, str(info.value))
    with pytest.raises(ValueError, match="reference stream 1 has 1 line but reference stream 0 has 2; if they are"):
        getattr(rapidbleu, name)(references=[["a", "b"], ["c"]])


def test_streams_of_the_right_layout_get_no_layout_hint():
    with pytest.raises(ValueError, match="reference stream 1 has 2 lines but there are 3 hypotheses") as info:
        rapidbleu.corpus_bleu(SYSTEM, [GOLDS, GOLDS[:2]])  # two streams, three hypotheses
    assert "segment-major" not in str(info.value)


def test_flat_list_of_reference_strings():
    with pytest.raises(TypeError, match=r"references\[0\] is a string; for a single reference write \[refs\]"):
        rapidbleu.corpus_bleu(HYPS, REFS[0])


def test_bare_string_as_hypotheses():
    with pytest.raises(TypeError, match="hypotheses must be a sequence of strings, got a single str"):
        rapidbleu.corpus_bleu("a b c", REFS)


def test_bare_string_as_references():
    with pytest.raises(TypeError, match="references must be a list of reference streams"):
        rapidbleu.corpus_bleu(HYPS, "a b c")


def test_bare_string_as_sentence_references():
    with pytest.raises(TypeError, match="got a single string; write \\[ref\\]"):
        rapidbleu.sentence_bleu("a b", "a b")


def test_none_hypothesis():
    with pytest.raises(ValueError, match=r"hypotheses\[1\] is None"):
        rapidbleu.corpus_bleu(["a", None, "c"], REFS)


def test_none_sentence_hypothesis():
    with pytest.raises(ValueError, match="hypothesis is None"):
        rapidbleu.sentence_bleu(None, ["a"])


def test_non_string_hypothesis():
    with pytest.raises(TypeError, match=r"hypotheses\[2\] is a int, expected str"):
        rapidbleu.corpus_bleu(["a", "b", 3], REFS)


def test_non_string_reference():
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is a bytes, expected str or None"):
        rapidbleu.corpus_bleu(HYPS, [["a", b"b", "c"]])


def test_segment_without_any_reference():
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        rapidbleu.corpus_bleu(HYPS, [["a", None, "c"], ["a", None, "c"]])


def test_sentence_without_any_reference():
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        rapidbleu.sentence_bleu("a b", [None])


def test_empty_corpus():
    with pytest.raises(ValueError, match="hypotheses is empty"):
        rapidbleu.corpus_bleu([], [[]])


def test_no_reference_streams():
    with pytest.raises(ValueError, match="references is empty"):
        rapidbleu.corpus_bleu(HYPS, [])


def test_unknown_smoothing_and_tokenizer_and_order():
    with pytest.raises(ValueError, match="unknown smooth_method 'expo'"):
        rapidbleu.BLEU(smooth_method="expo")
    with pytest.raises(ValueError, match="unknown tokenizer '14a'"):
        rapidbleu.BLEU(tokenize="14a")
    with pytest.raises(ValueError, match="max_ngram_order must be >= 1"):
        rapidbleu.BLEU(max_ngram_order=0)


def test_no_references_and_no_cache():
    with pytest.raises(RuntimeError, match="no references given and none cached"):
        rapidbleu.BLEU().corpus_score(HYPS, None)


def test_cached_references_length_mismatch():
    with pytest.raises(ValueError, match="2 hypotheses but the cached references have 3 segments"):
        rapidbleu.BLEU(references=REFS).corpus_score(HYPS[:2], None)
    # two streams of three segments and two hypotheses: either layout could be meant, and the
    # message offers both readings (it once told the caller to transpose correct streams)
    metric = rapidbleu.BLEU(references=[["r1", "r2", "r3"], ["q1", None, "q3"]])
    with pytest.raises(ValueError, match="if they are streams, give 3 hypotheses") as info:
        metric.corpus_score(["h1", "h2"], None)
    assert re.search(LAYOUT_WORDS, str(info.value))


@pytest.mark.parametrize("metric", [rapidbleu.BLEU, rapidbleu.CHRF, rapidbleu.TER])
@pytest.mark.parametrize(
    ("refs", "err", "message"),
    [
        (lambda: (s for s in REFS), TypeError, "a list of reference streams .* got generator"),
        (lambda: np.array(REFS), TypeError, "a list of reference streams .* got ndarray"),
        (lambda: [REFS[0], REFS[0][:2]], ValueError, "reference stream 1 has 2 lines but reference stream 0 has 3"),
    ],
    ids=["generator", "ndarray", "ragged"],
)
def test_cached_references_checked_when_given(
    metric: type[rapidbleu.BLEU | rapidbleu.CHRF | rapidbleu.TER],
    refs: Callable[[], Any],
    err: type[Exception],
    message: str,
) -> None:
    """``references=`` of a metric (and ``_cache_references``) get the same clear errors as
    references given to ``corpus_score``, not ``len()``/truth-value errors from inside."""
    with pytest.raises(err, match=message):
        metric(references=refs())
    with pytest.raises(err, match=message):
        metric()._cache_references(refs())


# Accepted on purpose (sacreBLEU scores these correctly): empty strings and odd Unicode.
def test_empty_strings_score_zero_not_error():
    s = rapidbleu.corpus_bleu(["", ""], [["", "a"]])
    assert s.score == 0.0
    assert s.sys_len == 0
    assert s.ref_len == 1


def test_odd_unicode_and_huge_line():
    line = ("\u00a0x\u200by\u3000z\U0001f600 " * 20000).strip()
    s = rapidbleu.corpus_bleu([line, "\ud800 lone"], [[line, "\ud800 lone"]])
    assert s.score == 100.00000000000004


def test_check_references_returns_private_streams():
    from rapidbleu._core.inputs import check_references

    s0, s1 = ["a", None, "c"], [None, "b", "c"]
    streams, num_refs = check_references((s0, s1), 3)
    assert streams == [s0, s1]
    assert num_refs == -1
    assert streams[0] is not s0
    assert streams[1] is not s1
    assert check_references([[*s0[:1], "b", "c"], ["x", "y", "z"]], 3)[1] == 2
    assert check_references([["a", None], [None, "b"]], 2)[1] == 1  # one per segment, varying streams


def test_variable_references_equal_sacrebleu():
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps = ["the cat sat on the mat", "a dog", "hello world .", "x y z"]
    refs = [
        ["the cat sat on a mat", None, "hello world !", "x y"],
        [None, "the dog", "hello there", None],
        ["a cat sat", "a dog barks", None, "x y z"],
    ]
    for kw in ({}, {"tokenize": "zh"}, {"tokenize": "char", "lowercase": True}, {"tokenize": "intl"}):
        ours = rapidbleu.BLEU(**kw).corpus_score(hyps, refs)
        theirs = sacrebleu.BLEU(**kw).corpus_score(hyps, refs)
        assert (ours.score, ours.counts, ours.totals, ours.ref_len) == (
            theirs.score,
            theirs.counts,
            theirs.totals,
            theirs.ref_len,
        )


# -- sacreBLEU's exception types ----------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.corpus_bleu([None], [["a"]]),
        lambda m: m.sentence_bleu(None, ["a"]),
        lambda m: m.BLEU().sentence_score(None, ["a"]),
    ],
    ids=["corpus_bleu", "sentence_bleu", "sentence_score"],
)
def test_none_hypothesis_is_a_type_error_too(call):
    with pytest.raises(TypeError):
        call(sacrebleu)
    for exc in (TypeError, ValueError):
        with pytest.raises(exc, match="is None"):
            call(rapidbleu)


def test_unknown_smooth_method_is_an_assertion_error_too():
    with pytest.raises(AssertionError):
        sacrebleu.BLEU(smooth_method="bogus")
    for exc in (AssertionError, ValueError):
        with pytest.raises(exc, match="unknown smooth_method 'bogus'"):
            rapidbleu.BLEU(smooth_method="bogus")


def test_unknown_tokenizer_is_a_key_error_too():
    with pytest.raises(KeyError):
        sacrebleu.BLEU(tokenize="bogus")
    for exc in (KeyError, ValueError):
        with pytest.raises(exc) as info:
            rapidbleu.BLEU(tokenize="bogus")
    assert str(info.value).startswith("unknown tokenizer 'bogus'")  # not quoted like a KeyError


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.corpus_bleu([], [[]]),
        lambda m: m.sentence_bleu("a b", []),
        lambda m: m.corpus_bleu(["a", "b"], [["a", None], ["a", None]]),
        lambda m: m.corpus_bleu(["a b c d"], [["a b c e"]], smooth_method="floor", smooth_value="0.1"),
        lambda m: m.corpus_bleu(["a", None], [["a", "b"]]),
        lambda m: m.BLEU(smooth_method="expo"),
        lambda m: m.BLEU(tokenize="14a"),
    ],
    ids=[
        "no hypotheses",
        "no references",
        "all references None",
        "smooth_value str",
        "None hypothesis",
        "unknown smoothing",
        "unknown tokenizer",
    ],
)
def test_errors_are_instances_of_sacrebleus_type(call):
    """Where sacreBLEU raises (some exception) for a mistake, ours is an instance of its type too,
    so ``except`` clauses written for sacreBLEU keep working."""
    import sacrebleu

    with pytest.raises(Exception) as theirs:  # noqa: PT011 -- checks the type only
        call(sacrebleu)
    with pytest.raises(theirs.type):
        call(rapidbleu)


# -- smooth_value, unordered containers, malformed statistics ---------------------------------
BAD_SMOOTH = [float("nan"), float("inf"), -float("inf"), -0.1, "0.1", True, [1]]


@pytest.mark.parametrize("value", BAD_SMOOTH, ids=repr)
def test_bad_smooth_value_on_every_sacre_entry_point(value):
    from rapidbleu.ids import corpus_bleu_ids

    calls = [
        lambda: rapidbleu.BLEU(smooth_method="floor", smooth_value=value),
        lambda: rapidbleu.BLEU.compute_bleu([1, 0, 0, 0], [3, 2, 1, 0], 3, 3, "floor", value),
        lambda: rapidbleu.corpus_bleu(TINY_HYPS, TINY_REFS, smooth_method="add-k", smooth_value=value),
        lambda: rapidbleu.sentence_bleu("a b", ["a b"], smooth_value=value),
        lambda: rapidbleu.raw_corpus_bleu(TINY_HYPS, TINY_REFS, value),
        lambda: corpus_bleu_ids([[1, 2, 3]], [[[1, 2, 3]]], smooth_method="floor", smooth_value=value),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="smooth_value must be a finite number >= 0 or None"):
            call()


def test_bad_smooth_value_in_sentence_bleu_batch_strings():
    from rapidbleu.batch import sentence_bleu_batch

    with pytest.raises(ValueError, match="smooth_value must be a finite number >= 0 or None"):
        sentence_bleu_batch(["a b"], [["a b"]], smooth_method="floor", smooth_value=float("nan"))


def test_bad_smooth_value_in_batch_id_paths():
    from rapidbleu.batch import pairwise_bleu, sentence_bleu_batch

    with pytest.raises(ValueError, match="smooth_value must be a finite number >= 0 or None"):
        sentence_bleu_batch([[1, 2]], [[1, 2]], smooth_method="floor", smooth_value=float("nan"))
    with pytest.raises(ValueError, match="smooth_value must be a finite number >= 0 or None"):
        pairwise_bleu(["a b", "a c"], smooth_method="floor", smooth_value=-1.0)


@pytest.mark.parametrize("make", [dict.fromkeys, set, frozenset], ids=["dict", "set", "frozenset"])
def test_unordered_containers_are_type_errors(make):
    metric = rapidbleu.BLEU()
    calls = [
        lambda: rapidbleu.corpus_bleu(make(TINY_HYPS), [TINY_REFS[0]]),
        lambda: rapidbleu.corpus_bleu(TINY_HYPS, [make(TINY_REFS[0])]),
        lambda: rapidbleu.sentence_bleu("a", make(["a", "b"])),
        lambda: metric.corpus_statistics(make(TINY_HYPS), [TINY_REFS[0]]),
        lambda: metric._extract_corpus_statistics(TINY_HYPS, make(map(tuple, TINY_REFS))),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="must be an ordered sequence"):
            call()


def _good_stats():
    return rapidbleu.BLEU().corpus_statistics(TINY_HYPS, TINY_REFS)


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda s: s[:, :-1], "have 9 columns but max_ngram_order=4 needs 10"),
        (lambda s: np.where(np.arange(s.size).reshape(s.shape) == 3, -1, s), "row 0, column 3 is negative"),
        (lambda s: np.hstack([s[:, :2], s[:, 6:7] + 1, s[:, 3:]]), "row 0 has more 1-gram matches"),
    ],
)
def test_malformed_statistics_are_value_errors(corrupt, message):
    bad, good, metric = corrupt(_good_stats()), _good_stats(), rapidbleu.BLEU()
    calls = [
        lambda: metric.score_from_stats(bad[0]),
        lambda: (
            rsig.paired_bs(bad, [good], metric, 10, seed=1)
            if bad.shape == good.shape
            else rsig.paired_bs(good[:, : bad.shape[1]], [bad], metric, 10, seed=1)
        ),
        lambda: (
            rsig.paired_ar(good, [bad], metric, 10, seed=1)
            if bad.shape == good.shape
            else rsig.paired_ar(bad, [bad], metric, 10, seed=1)
        ),
        lambda: rsig.bootstrap_ci(bad, metric, 10),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            call()


@pytest.mark.parametrize(("bad", "shown"), [(4.5, "4.5"), (np.nan, "nan"), (np.inf, "inf")])
def test_fractional_statistics_are_refused_not_truncated(bad, shown):
    """``score_from_stats`` and the significance functions refuse a count that is not a finite
    whole number (it was truncated: 5.5 -> 5), naming where it is."""
    row = _good_stats().sum(axis=0).astype(np.float64)
    row[2] = bad
    with pytest.raises(ValueError, match=rf"row 0, column 2 \(matches_1\) is {shown}; "):
        rapidbleu.BLEU().score_from_stats(row)
    with pytest.raises(ValueError, match=rf"row 0, column 2 \(matches_1\) is {shown}; "):
        rapidbleu.BLEU().score_from_stats(row.tolist())
    matrix = _good_stats().astype(np.float64)
    matrix[1, 2] = bad
    for call in (
        lambda: rsig.bootstrap_ci(matrix, rapidbleu.BLEU(), 10),
        lambda: rsig.paired_bs(_good_stats(), [matrix], rapidbleu.BLEU(), 10, seed=1),
    ):
        with pytest.raises(ValueError, match=rf"row 1, column 2 \(matches_1\) is {shown}; "):
            call()


def test_whole_float_statistics_still_score():
    stats = _good_stats().sum(axis=0)
    want = rapidbleu.BLEU().score_from_stats(stats).score
    assert rapidbleu.BLEU().score_from_stats(stats.astype(np.float64)).score == want
    assert rapidbleu.BLEU().score_from_stats([float(v) for v in stats]).score == want
    with pytest.raises(ValueError, match=r"row 0, column 4 \(matches_3\) is 2.5; statistics are whole counts"):
        rapidbleu.BLEU().score_from_stats([*map(int, stats[:4]), 2.5, *map(int, stats[5:])])


def test_score_from_stats_wants_one_row():
    with pytest.raises(ValueError, match=r"must be one row of 2 \+ 2N numbers .*got shape \(4, 10\)"):
        rapidbleu.BLEU().score_from_stats(_good_stats())


def test_score_of_finite_stats_is_finite():
    assert math.isfinite(rapidbleu.BLEU().score_from_stats(_good_stats().sum(0)).score)


# -- statistics of any size: sacreBLEU's float, or an error that quotes the value given -----
_BIG_ROWS = {
    "bleu": [
        [2**70] * 10,
        [2**70 + 1, 2**70 + 3, 2**70 - 5, 2**69 + 7, 2**68, 3, 2**70 + 1, 2**70, 2**69 + 9, 2**69],
        [2**53 + 1, 2**53 + 3, 2**53 + 1, 2**52, 7, 0, 2**53 + 1, 2**53, 2**53 - 1, 2**53 - 2],
        [2**63 + 9, 2**63 + 1, 2**63 + 5, 2**63 + 3, 5, 0, 2**63 + 7, 2**63 + 5, 2**63 + 3, 2**63 + 1],
    ],
    "chrf": [
        [2**70] * 18,  # sacreBLEU: 100.0 (a cast wrapped it: 0.0)
        [2**70] * 17 + [2**69],
        [2**53 + 3, 2**53 + 1, 2**53 + 1] * 6,  # past 2**53 C doubles round: Python ints do not
        [2**63 + 7, 2**63 + 9, 2**63 + 5] * 6,
        [2**64 + 7, 2**64 + 9, 2**63 + 5] * 6,
    ],
    "ter": [[2**70, 2**70], [2**53 + 3, 2**53 + 1], [2**64 + 1, 3], [2**63 + 1, 2**63 + 3], [2**60 + 1, 2.5]],
}
_SACRE = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}
_OURS = {"bleu": rapidbleu.BLEU, "chrf": rapidbleu.CHRF, "ter": rapidbleu.TER}


def _forms(row):
    """The row as a list, a tuple, an object array and, where numpy has one, a uint64 array."""
    out = [row, tuple(row), np.array(row, dtype=object)]
    if all(type(v) is int and v < 2**64 for v in row):
        out.append(np.array(row, dtype=np.uint64))
    return out


@pytest.mark.parametrize("metric_id", sorted(_BIG_ROWS))
def test_counts_beyond_int64_score_as_sacrebleu(metric_id):
    """sacreBLEU computes with Python numbers of any size: ``score_from_stats`` and
    ``scores_from_stats`` (Python-int rows) give its float for counts past 2**53 and 2**63, on
    both backends, in every container (a cast wrapped them, or C doubles rounded them)."""
    ours, theirs = _OURS[metric_id](), _SACRE[metric_id]()
    for row in _BIG_ROWS[metric_id]:
        want = theirs._compute_score_from_stats(list(row)).score
        for given in _forms(row):
            assert ours.score_from_stats(given).score == want, (row, type(given))
            assert ours.scores_from_stats([given, given]).tolist() == [want, want], (row, type(given))
        assert ours.scores_from_stats(np.array([row] * 3, dtype=object)).tolist() == [want] * 3


def test_statistics_beyond_a_type_are_refused_quoting_the_value():
    """Where a count cannot be held -- in int64 (randomization trials), float32 (resamples), or
    at all (beyond float64's range) -- or breaks a rule, the error quotes the value as given,
    never one wrapped by a cast (-9223372036854775808)."""
    chrf, ter, bleu = rapidbleu.CHRF(), rapidbleu.TER(), rapidbleu.BLEU()
    u64 = np.array([[2**63 + 7, 2**63 + 9, 2**63 + 5] * 6], dtype=np.uint64)
    cases = [
        (
            lambda: chrf.scores_from_stats(u64, np.int64),
            r"column 0 \(char1_hyp\) is 9223372036854775815, which numpy int64",
        ),
        (
            lambda: ter.scores_from_stats([[1e20, 3.0]], np.int64),
            r"column 0 \(num_edits\) is 1e\+20, which numpy int64",
        ),
        (
            lambda: ter.scores_from_stats([[5, 1e300]], np.float32),
            r"column 1 \(ref_length\) is 1e\+300, which numpy float32",
        ),
        (
            lambda: bleu.scores_from_stats(np.full((1, 10), 2**63 + 7, dtype=np.uint64), np.int64),
            r"column 0 \(hyp_len\) is 9223372036854775815, which numpy int64",
        ),
        (
            lambda: bleu.scores_from_stats([[2**60] * 10], np.float32),
            r"column 0 is 1152921504606846976; statistics must be counts",
        ),
        (
            lambda: chrf.score_from_stats([2**1100] * 18),
            r"column 0 \(char1_hyp\) is an integer of 1101 bits; counts must be within",
        ),
        (
            lambda: bleu.score_from_stats([2**70] * 9 + [2**69]),
            r"more 4-gram matches \(1180591620717411303424\) than 4-grams \(590295810358705651712\)",
        ),
        (
            lambda: chrf.score_from_stats([2**70] * 17 + [2**71]),
            r"more matches than hypothesis n-grams \(\[1180591620717411303424, 1180591620717411303424, 2361183241434822606848\]\)",
        ),
        (
            lambda: chrf.scores_from_stats(np.full((1, 18), 1e300), np.int64),
            r"\(char1_hyp\) is an integer of 301 digits \(about 1e\+300\), which numpy int64",
        ),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message) as info:
            call()
        assert "-92233720368547758" not in str(info.value)


def _valid_row(metric_id):
    metric = _OURS[metric_id]()
    return metric.combine(metric.corpus_statistics(TINY_HYPS, TINY_REFS))


@pytest.mark.parametrize("metric_id", sorted(_OURS))
@pytest.mark.parametrize("bad", [math.nan, math.inf, -1, 2.5])
def test_scores_from_stats_refuses_what_score_from_stats_refuses(metric_id, bad):
    """One rule for one row and for many: a non-finite, negative or fractional count (TER: its
    edits) is refused by both, with the same message, in every arithmetic (TER's scores of such
    rows were 0.0 or nan, BLEU's of a fractional count truncated it)."""
    metric = _OURS[metric_id]()
    row = [float(v) for v in _valid_row(metric_id)]
    row[0] = bad
    with pytest.raises(ValueError, match=r"^statistics: row 0, column 0") as one:
        metric.score_from_stats(row)
    for dtype in (None, np.int64, np.float32):
        with pytest.raises(ValueError, match=r"^statistics: row 0, column 0") as many:
            metric.scores_from_stats(np.array([row]), dtype)
        assert str(many.value) == str(one.value)


def test_nltk_statistics_are_checked_not_cast():
    """NLTK-style statistics: a uint64 count past int64 is quoted (it wrapped to a negative and
    was called "non-negative"), an aggregated row's NaN is named (``int(nan)`` failed), a
    float matrix is refused (its fractions were truncated)."""
    import rapidbleu.nltk
    from rapidbleu.nltk_bleu import NLTKBLEU

    st = np.array([[2**63 + 3, 5, 3, 2, 2**63 + 3, 2**63 + 2]], dtype=np.uint64)
    want = r"stats: row 0, column 0 \(hyp_len\) is 9223372036854775811, which numpy int64"
    with pytest.raises(ValueError, match=want):
        rapidbleu.nltk.sentence_bleu_from_stats(st, weights=(0.5, 0.5))
    metric = NLTKBLEU((0.5, 0.5), max_ngram_order=2)
    with pytest.raises(ValueError, match=want):
        metric.scores_from_stats(st)
    with pytest.raises(TypeError, match="integer array"):
        metric.scores_from_stats(np.array([[3, 3, 2.5, 2, 3, 2]]))
    with pytest.raises(ValueError, match=r"column 2 \(matches_1\) is nan; need a number"):
        metric.score_from_stats([3, 3, math.nan, 2, 3, 2, 3, 2])
    with pytest.raises(ValueError, match=r"have 6 columns but need 8"):
        metric.score_from_stats([3, 3, 3, 2, 3, 2])
    row = [2**70, 2**70, 2**70, 2**69, 2**70, 2**70, 2**70, 2**70]
    assert metric.score_from_stats(row) == metric.score_from_stats([4, 4, 4, 2, 4, 4, 4, 4])


def test_combine_sums_exactly_past_int64():
    """Column sums are Python ints however large (the int64 sum wrapped to a negative), and the
    row scores as sacreBLEU scores the same sums."""
    rows = np.array([[2**62] * 18] * 3, dtype=np.int64)
    chrf = rapidbleu.CHRF()
    assert chrf.combine(rows) == [3 * 2**62] * 18
    assert chrf.combine(rows, start=[2**70] * 18) == [2**70 + 3 * 2**62] * 18
    assert (
        chrf.score_from_stats(chrf.combine(rows)).score
        == sacrebleu.CHRF()._compute_score_from_stats([3 * 2**62] * 18).score
    )
    assert rapidbleu.BLEU().combine(rows[:, :10]) == [3 * 2**62] * 10
    with pytest.raises(ValueError, match=r"row 1, column 0 \(char1_hyp\) is nan"):
        chrf.combine(np.vstack([rows[:1], np.full((1, 18), np.nan)]))


def test_significance_refuses_statistics_whose_sums_leave_exact_integers():
    """Resamples and trials are sums of up to n rows, in float and int64 arrays: statistics that
    could sum past 2**53 - 1 are refused, quoting the value and its row (the trials' int64
    sums wrapped, and a negative sum was quoted)."""
    chrf = rapidbleu.CHRF()
    st = chrf.corpus_statistics(TINY_HYPS, TINY_REFS) * 2**58
    message = r"row \d+, column 0 \(char1_hyp\) is \d+; with 4 segments a bootstrap resample or randomization trial"
    for call in (
        lambda: rsig.paired_ar(st, [st[::-1]], chrf, 10, seed=1),
        lambda: rsig.paired_bs(st, [st[::-1]], chrf, 10, seed=1),
        lambda: rsig.bootstrap_ci(st, chrf, 10),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    ok = chrf.corpus_statistics(TINY_HYPS, TINY_REFS) * 2**40
    assert rsig.paired_ar(ok, [ok[::-1]], chrf, 10, seed=1)[1].score == chrf.score_from_stats(chrf.combine(ok)).score


# -- workers: checked where it is given, before any work ----------------------------------
_WORKERS_CALLS = {
    "BLEU": lambda f, w: f(workers=w),
    "CHRF": lambda f, w: f(workers=w),
    "TER": lambda f, w: f(workers=w),
    "corpus_bleu": lambda f, w: f([[["a", "b"]]], [["a", "b"]], workers=w),
    "sentence_bleu_batch": lambda f, w: (
        f([[["a", "b"]]], [["a", "b"]], workers=w)
        if f.__module__ == "rapidbleu.nltk"
        else f(["a b"], ["a b"], workers=w)
    ),
    "sentence_bleu_from_stats": lambda f, w: f([[2, 2, 2, 1, 2, 1]], weights=(0.5, 0.5), workers=w),
    "pairwise_bleu": lambda f, w: f(["a b", "a c"], workers=w),
    "pairwise_chrf": lambda f, w: f(["a b", "a c"], workers=w),
    "sentence_chrf_batch": lambda f, w: f(["a b"], ["a b"], workers=w),
    "pairwise_ter": lambda f, w: f(["a b", "a c"], workers=w),
    "sentence_ter_batch": lambda f, w: f(["a b"], ["a b"], workers=w),
    "self_bleu": lambda f, w: f(["a b", "a c"], workers=w),
    "corpus_bleu_ids": lambda f, w: f([[1, 2]], [[1, 2]], workers=w),
    "stats_ids": lambda f, w: f([[1, 2]], [[1, 2]], workers=w),
    "nltk_corpus_stats": lambda f, w: f([[["a", "b"]]], [["a", "b"]], workers=w),
}


def _public_callables_taking_workers():
    import importlib
    import inspect

    found = {}
    for name in ("rapidbleu", "rapidbleu.nltk", "rapidbleu.batch", "rapidbleu.ids", "rapidbleu.stats"):
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", [a for a in dir(module) if not a.startswith("_")]):
            obj = getattr(module, attr)
            try:
                params = inspect.signature(obj).parameters
            except (TypeError, ValueError):
                continue
            if "workers" in params:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


class _NoKernel:
    """Stands for a kernel module: any use of it fails the test (no work may start)."""

    def __getattr__(self, name):
        raise AssertionError(f"a kernel ({name}) ran before workers was checked")


@pytest.mark.parametrize(("bad", "err"), [(0, ValueError), (None, TypeError), (2.0, TypeError)])
def test_workers_checked_before_any_work(bad, err, monkeypatch):
    """Every public constructor and function with a ``workers`` argument refuses a bad value at
    once (``BLEU(workers=0)`` used to raise only at the first scoring call), before a kernel
    runs; found by introspection, so a new entry point cannot be missed."""
    from rapidbleu._core import backend as _backend

    callables = _public_callables_taking_workers()
    assert len(callables) >= 10
    for kind in (*_backend.TWINS, "impl"):
        monkeypatch.setattr(_backend, kind, _NoKernel(), raising=False)
    for qualname, fn in callables.items():
        call = _WORKERS_CALLS.get(fn.__name__)
        assert call is not None, f"{qualname} takes workers: add a call to _WORKERS_CALLS"
        with pytest.raises(err, match="workers"):
            call(fn, bad)


def _checked_once(monkeypatch, owner, name, entries, value):
    """Each call of ``entries`` checks ``value`` exactly once: ``owner.name`` (a check function)
    counted wherever the package imported it, each entry called and the checks it made compared."""
    import sys

    calls = []
    original = getattr(owner, name)

    def counted(arg):
        calls.append(arg)
        return original(arg)

    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("rapidbleu") and getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, counted)
    for entry, call in entries.items():
        calls.clear()
        call()
        assert calls == [value], (entry, calls)


def test_workers_checked_once_per_call(backend, monkeypatch):
    """One check of ``workers`` per call, where it enters (the constructor or the function that
    takes it): the kernels below trust it (each twin checked it again, and the thread runner a
    third time)."""
    from rapidbleu import batch, nltk
    from rapidbleu._core import validate
    from rapidbleu.stats import nltk_corpus_stats

    entries = {
        "BLEU": lambda: rapidbleu.BLEU(workers=2).corpus_score(HYPS, REFS),
        "CHRF": lambda: rapidbleu.CHRF(workers=2).corpus_score(HYPS, REFS),
        "TER": lambda: rapidbleu.TER(workers=2).corpus_score(HYPS, REFS),
        "self_bleu": lambda: batch.self_bleu(["a b c", "a b d", "b c d"], style="sacrebleu", workers=2),
        "pairwise_bleu": lambda: batch.pairwise_bleu(["a b c", "a b d"], workers=2),
        "corpus_bleu": lambda: nltk.corpus_bleu([[["a", "b", "c", "d"]]], [["a", "b", "c", "d"]], workers=2),
        "sentence_bleu_batch": lambda: nltk.sentence_bleu_batch([[["a", "b"]]], [["a", "b"]], workers=2),
        "sentence_bleu_batch custom": lambda: nltk.sentence_bleu_batch(
            [[["a", "b"]]], [["a", "b"]], smoothing_function=lambda p, **kw: p, workers=2
        ),
        "batch.sentence_bleu_batch strings": lambda: batch.sentence_bleu_batch(HYPS, REFS[0], workers=2),
        "batch.sentence_bleu_batch ids": lambda: batch.sentence_bleu_batch([[1, 2]], [[1, 2]], workers=2),
        "batch.sentence_bleu_batch nltk": lambda: batch.sentence_bleu_batch(
            [[1, 2]], [[1, 2]], weights=(0.5, 0.5), workers=2
        ),
        "batch.sentence_bleu_batch custom": lambda: batch.sentence_bleu_batch(
            [[1, 2]], [[1, 2]], smoothing_function=lambda p, **kw: p, workers=2
        ),
        "nltk_corpus_stats": lambda: nltk_corpus_stats([[["a", "b"]]], [["a", "b"]], workers=2),
    }
    _checked_once(monkeypatch, validate, "resolve_workers", entries, 2)


def test_smoothing_checked_once_per_call(backend, monkeypatch):
    """One check of ``smooth_method`` per call, where it enters (``BLEU(...)``, the function
    that takes it, or ``BLEU.compute_bleu``): the scoring twins below trust it (they checked it
    again for every corpus, sentence and matrix of statistics)."""
    from rapidbleu import batch, stats
    from rapidbleu._core.bleu import bleu_scores_py

    bleu = lambda: rapidbleu.BLEU(smooth_method="floor")  # noqa: E731
    st = stats.corpus_stats(HYPS, REFS, smooth_method="floor")
    ids = [[1, 2, 3], [1, 2, 4]]
    entries = {
        "corpus_score": lambda: bleu().corpus_score(HYPS, REFS),
        "corpus_score n_bootstrap": lambda: bleu().corpus_score(HYPS, REFS, n_bootstrap=3),
        "sentence_score": lambda: bleu().sentence_score("a b c", ["a b c"]),
        "sentence_scores": lambda: bleu().sentence_scores(HYPS, REFS),
        "compute_bleu": lambda: rapidbleu.BLEU.compute_bleu([2, 1, 0, 0], [3, 2, 1, 0], 3, 3, "floor"),
        "_compute_score_from_stats": lambda: bleu()._compute_score_from_stats([3, 3, 2, 1, 0, 0, 3, 2, 1, 0]),
        "sentence_bleu_batch": lambda: batch.sentence_bleu_batch(HYPS, REFS[0], smooth_method="floor"),
        "sentence_bleu_batch ids": lambda: batch.sentence_bleu_batch(ids, ids, smooth_method="floor"),
        "self_bleu": lambda: batch.self_bleu(ids, style="sacrebleu", smooth_method="floor"),
        "pairwise_bleu": lambda: batch.pairwise_bleu(ids, smooth_method="floor"),
        "corpus_bleu_ids": lambda: corpus_bleu_ids(ids, [ids], smooth_method="floor"),
        "corpus_stats": lambda: stats.corpus_stats(HYPS, REFS, smooth_method="floor"),
        # (a CorpusStats holds settings, not a metric: score() rebuilds one from them)
        "CorpusStats.score": st.score,
    }
    _checked_once(monkeypatch, bleu_scores_py, "check_smoothing", entries, "floor")


def test_smooth_value_checked_once_per_call(backend, monkeypatch):
    """One check of ``smooth_value`` per call, where it enters (``BLEU(...)``, the function that
    takes it, or ``BLEU.compute_bleu``): the scoring twins below trust it (they checked it
    again for every matrix of statistics)."""
    from rapidbleu import batch, mbr, stats
    from rapidbleu._core import validate

    bleu = lambda: rapidbleu.BLEU(smooth_method="floor", smooth_value=0.2)  # noqa: E731
    ids = [[1, 2, 3], [1, 2, 4]]
    kw = {"smooth_method": "floor", "smooth_value": 0.2}
    entries = {
        "corpus_score": lambda: bleu().corpus_score(HYPS, REFS),
        "corpus_score n_bootstrap": lambda: bleu().corpus_score(HYPS, REFS, n_bootstrap=3),
        "sentence_scores": lambda: bleu().sentence_scores(HYPS, REFS),
        "compute_bleu": lambda: rapidbleu.BLEU.compute_bleu([2, 1, 0, 0], [3, 2, 1, 0], 3, 3, **kw),
        "sentence_bleu_batch": lambda: batch.sentence_bleu_batch(HYPS, REFS[0], **kw),
        "sentence_bleu_batch ids": lambda: batch.sentence_bleu_batch(ids, ids, **kw),
        "self_bleu": lambda: batch.self_bleu(ids, style="sacrebleu", **kw),
        "pairwise_bleu": lambda: batch.pairwise_bleu(ids, **kw),
        "corpus_bleu_ids": lambda: corpus_bleu_ids(ids, [ids], **kw),
        "corpus_stats": lambda: stats.corpus_stats(HYPS, REFS, **kw),
        "aggregate_bleu": lambda: mbr.aggregate_bleu(HYPS, REFS[0], **kw),
    }
    _checked_once(monkeypatch, validate, "check_smooth_value", entries, 0.2)


def _resampling_calls() -> dict[str, Callable[[Any], Any]]:
    """Each entry point that takes a number of resamples or trials, called with ``n``."""
    from rapidbleu.significance import bootstrap_ci, paired_ar, paired_bs

    chrf = rapidbleu.CHRF()
    st = chrf.corpus_statistics(HYPS, REFS)
    return {
        "n_bootstrap": lambda n: chrf.corpus_score(HYPS, REFS, n_bootstrap=n),
        "n_bootstrap ": lambda n: bootstrap_ci(st, chrf, n),
        "n_samples": lambda n: paired_bs(st, [st], chrf, n_samples=n),
        "n_samples ": lambda n: paired_ar(st, [st], chrf, n_samples=n),
        "n_ar_confidence": lambda n: paired_ar(st, [st], chrf, n_samples=5, n_ar_confidence=n),
    }


@pytest.mark.parametrize("bad", [2.5, 3.0, "10", None, True])
def test_number_of_resamples_must_be_an_int(bad: object) -> None:
    """``n_bootstrap=2.5`` ran 2 resamples under a ``bs:2.5`` signature (sacreBLEU raises a
    ``TypeError``); strings and ``None`` failed in a comparison deep inside; ``True`` silently
    meant no interval.  Each is a ``TypeError`` naming the argument, before any resample."""
    for name, call in _resampling_calls().items():
        with pytest.raises(TypeError, match=f"{name.strip()} must be an int, got {re.escape(repr(bad))}"):
            call(bad)
    ok = rapidbleu.CHRF()
    assert "μ = " in str(ok.corpus_score(HYPS, REFS, n_bootstrap=np.int64(3)))  # numpy ints are ints
    assert "bs:3|" in str(ok.get_signature())


@pytest.mark.parametrize(
    ("door", "call"),
    [
        ("pairwise_chrf", lambda kw: rapidbleu.batch.pairwise_chrf(["a b"], **kw)),
        ("pairwise_ter", lambda kw: rapidbleu.batch.pairwise_ter(["a b"], **kw)),
        ("sentence_bleu_batch", lambda kw: rapidbleu.batch.sentence_bleu_batch([[1, 2]], [[1, 2]], **kw)),
        ("self_bleu", lambda kw: rapidbleu.batch.self_bleu([[1, 2], [1, 3]], **kw)),
        ("pairwise_bleu", lambda kw: rapidbleu.batch.pairwise_bleu([[1, 2], [1, 3]], **kw)),
        ("stats_ids", lambda kw: rapidbleu.ids.stats_ids([[1, 2]], [[1, 2]], **kw)),
        ("corpus_bleu_ids", lambda kw: rapidbleu.ids.corpus_bleu_ids([[1, 2]], [[1, 2]], **kw)),
        ("clean_ids", lambda kw: rapidbleu.ids.clean_ids([1, 2], **kw)),
        ("to_id_lists", lambda kw: rapidbleu.ids.to_id_lists([[1, 2]], **kw)),
        ("CHRFReward.__init__", lambda kw: rapidbleu.rewards.CHRFReward(**kw)),
        ("TERReward.__init__", lambda kw: rapidbleu.rewards.TERReward(**kw)),
        ("BLEUReward.__init__", lambda kw: rapidbleu.rewards.BLEUReward(**kw)),
    ],
)
def test_options_by_name_refuse_an_unknown_one_naming_the_door(door, call):
    """The doors that take a metric's options or the id-cleaning keywords by name (declared once,
    as a TypedDict) refuse a misspelt one as Python refuses an unknown keyword, naming the door."""
    with pytest.raises(TypeError, match=rf"^{re.escape(door)}\(\) got an unexpected keyword argument 'pad_token'$"):
        call({"pad_token": 0})


def test_nltk_style_batch_options_are_checked_not_ignored():
    """``sentence_bleu_batch`` in NLTK style: a smoothing method by name (as the engines and
    rewards take it), ``max_ngram_order=k`` as BLEU-k, and the options of the other style or
    weights that are no per-order numbers refused before any work, not ignored."""
    from nltk.translate.bleu_score import SmoothingFunction as NLTKSmoothing
    from nltk.translate.bleu_score import sentence_bleu

    from rapidbleu.batch import sentence_bleu_batch

    sf = NLTKSmoothing()
    hyp, ref = "a b c d", "a b d c"
    want2 = sentence_bleu([ref.split()], hyp.split(), (0.5, 0.5), smoothing_function=sf.method1)
    assert sentence_bleu_batch([hyp], [ref], smoothing_function=sf.method1, max_ngram_order=2).tolist() == [want2]
    want = sentence_bleu([ref.split()], hyp.split(), smoothing_function=sf.method4)
    assert sentence_bleu_batch([hyp], [ref], smoothing_function="method4").tolist() == [want]
    for bad, message in [
        ({"smoothing_function": sf.method1, "smooth_method": "floor"}, "sacreBLEU-style options"),
        ({"weights": (0.5, 0.5), "effective_order": False}, "sacreBLEU-style options"),
        ({"auto_reweigh": True}, "auto_reweigh is an NLTK-style option"),
        ({"weights": "0.5"}, "weights must be a tuple of per-order weights"),
        ({"weights": {1: 0.5}}, "got a dict"),
        ({"smoothing_function": 4}, "smoothing_function must be callable or a method's name"),
        ({"smoothing_function": "method9"}, "method9"),
    ]:
        with pytest.raises((TypeError, ValueError), match=message):
            sentence_bleu_batch([hyp], [ref], **bad)
    with pytest.raises(TypeError, match="weights must be a tuple"):
        rapidbleu.nltk_bleu.NLTKBLEU(weights="0.5")
