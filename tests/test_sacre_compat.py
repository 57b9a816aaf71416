"""Where real code reaches past sacreBLEU's documented API: its module paths (``metrics``,
``compat``, ``utils``, ``tokenizers.*``) and the semi-private ``BLEU`` methods that evaluation
harnesses and ``sacrebleu.significance.PairedTest`` call.  Each is compared with sacreBLEU 2.6.0
itself.  Every test runs once per backend (``conftest.backend``)."""

import argparse
import gzip
import importlib

import numpy as np
import pytest
import sacrebleu
import sacrebleu.compat
import sacrebleu.metrics.helpers as sacre_helpers
import sacrebleu.utils as sacre_utils
from conftest import TINY_HYPS, TINY_OTHER, TINY_REFS
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest as SacrePairedTest

import rapidbleu

pytestmark = pytest.mark.usefixtures("backend")

HYPS, REFS, OTHER = TINY_HYPS, TINY_REFS, TINY_OTHER

CONFIGS = [
    {},
    {"smooth_method": "floor"},
    {"smooth_method": "add-k", "effective_order": True},
    {"smooth_method": "none", "max_ngram_order": 2, "lowercase": True},
    {"tokenize": "char", "smooth_method": "floor", "smooth_value": 0.3},
]


# -- module paths -------------------------------------------------------------------------
def test_metrics_paths_are_rapidbleus_classes():
    from rapidbleu.metrics import BLEU, BLEUScore
    from rapidbleu.metrics.base import Metric, Score, Signature
    from rapidbleu.metrics.bleu import BLEU as BLEU2
    from rapidbleu.metrics.bleu import MAX_NGRAM_ORDER, BLEUSignature

    assert BLEU is BLEU2 is rapidbleu.BLEU
    assert BLEUScore is rapidbleu.BLEUScore
    assert BLEUSignature is rapidbleu.BLEUSignature
    assert MAX_NGRAM_ORDER == 4
    assert isinstance(BLEU(), Metric)
    assert issubclass(BLEUScore, Score)
    assert issubclass(BLEUSignature, Signature)


def test_package_layout_as_sacrebleus():
    """``import rapidbleu as sacrebleu`` code reaches the submodules as attributes."""
    assert rapidbleu.metrics.BLEU is rapidbleu.BLEU
    assert rapidbleu.compat.corpus_bleu is rapidbleu.corpus_bleu
    assert rapidbleu.utils.smart_open is rapidbleu.smart_open
    assert rapidbleu.extract_word_ngrams(["a", "b"], 1) == sacrebleu.extract_word_ngrams(["a", "b"], 1)
    assert rapidbleu.SACREBLEU_DIR == sacrebleu.SACREBLEU_DIR


def test_compat_functions_match_sacrebleu():
    from rapidbleu import compat

    refs = [REFS[0]]
    assert compat.corpus_bleu(HYPS, refs).score == sacrebleu.compat.corpus_bleu(HYPS, refs).score
    assert compat.raw_corpus_bleu(HYPS, refs).score == sacrebleu.compat.raw_corpus_bleu(HYPS, refs).score
    assert (
        compat.sentence_bleu(HYPS[0], [REFS[1][0]]).score == sacrebleu.compat.sentence_bleu(HYPS[0], [REFS[1][0]]).score
    )


@pytest.mark.parametrize("line", ["", "a", "a b a b c", "x y z w v u x y z", "the the the the the"])
def test_ngram_helpers_match_sacrebleu(line):
    from rapidbleu.metrics import helpers

    for lo, hi in [(1, 4), (2, 3), (1, 1), (3, 6), (0, 2)]:
        ours, theirs = (
            helpers.extract_all_word_ngrams(line, lo, hi),
            sacre_helpers.extract_all_word_ngrams(line, lo, hi),
        )
        assert ours == theirs
        assert type(ours[0]) is type(theirs[0])
        assert all(isinstance(k, tuple) for k in ours[0])
    for n in range(6):
        ours, theirs = helpers.extract_word_ngrams(line.split(), n), sacre_helpers.extract_word_ngrams(line.split(), n)
        assert ours == theirs
        assert type(ours) is type(theirs)


def test_utils_match_sacrebleu(tmp_path):
    from rapidbleu import utils

    for rows in ([[1, 2, 3]], [[1, 2], [3, 4], [5, 6]], list(np.arange(12, dtype=np.float32).reshape(4, 3) / 7)):
        ours, theirs = utils.sum_of_lists(rows), sacre_utils.sum_of_lists(rows)
        assert [type(v) for v in ours] == [type(v) for v in theirs]
        assert list(map(float, ours)) == list(map(float, theirs))
    one = [[1, 2]]
    assert utils.sum_of_lists(one) is one[0]
    for x in (0.0, 0, 1e-300, 3.5, 100.0):
        assert utils.my_log(x) == sacre_utils.my_log(x)
        assert type(utils.my_log(x)) is type(sacre_utils.my_log(x))
    ns = argparse.Namespace(bleu_a=1, bleu_b=2, chrf_c=3)
    for strip in (False, True):
        assert utils.args_to_dict(ns, "bleu", strip) == sacre_utils.args_to_dict(ns, "bleu", strip)
    gz = tmp_path / "x.txt.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as fh:
        fh.write("a\r\nb\n")
    with utils.smart_open(str(gz)) as a, sacre_utils.smart_open(str(gz)) as b:
        assert a.read() == b.read() == "a\r\nb\n"
    assert utils.SACREBLEU_DIR == sacre_utils.SACREBLEU_DIR
    with pytest.raises(SystemExit):
        utils.sanity_check_lengths(["a"], [["a", "b"]])


TOKENIZER_CLASSES = [
    ("tokenizer_none", "NoneTokenizer"),
    ("tokenizer_13a", "Tokenizer13a"),
    ("tokenizer_re", "TokenizerRegexp"),
    ("tokenizer_intl", "TokenizerV14International"),
    ("tokenizer_zh", "TokenizerZh"),
    ("tokenizer_char", "TokenizerChar"),
]
LINES = [
    "Hello, world. It's 3-4 p.m.!",
    "  a&amp;b &lt;x&gt; 1,000.5 ",
    "中文测试，好的。 mixed 文本",
    "x.y z,w $5 <skipped>",
]


@pytest.mark.parametrize(("module", "cls"), TOKENIZER_CLASSES)
def test_tokenizer_modules_under_sacrebleu_names(module, cls):
    ours = getattr(importlib.import_module(f"rapidbleu.tokenizers.{module}"), cls)()
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    assert ours.signature() == theirs.signature()
    for line in LINES:
        assert ours(line) == theirs(line)


def test_tokenizer_base_and_other_names():
    from rapidbleu.tokenizers import BaseTokenizer
    from rapidbleu.tokenizers.tokenizer_base import BaseTokenizer as Base2
    from rapidbleu.tokenizers.tokenizer_spm import Flores101Tokenizer, Flores200Tokenizer, spBLEU1KTokenizer  # noqa: F401

    assert Base2 is BaseTokenizer
    importlib.import_module("rapidbleu.tokenizers.tokenizer_ja_mecab")
    importlib.import_module("rapidbleu.tokenizers.tokenizer_ko_mecab")
    with pytest.raises(ImportError):
        importlib.import_module("rapidbleu.tokenizers.none")  # renamed to tokenizer_none


# -- semi-private methods ----------------------------------------------------------------
@pytest.mark.parametrize("kwargs", CONFIGS)
def test_extract_corpus_statistics_is_sacrebleus(kwargs):
    ours, theirs = rapidbleu.BLEU(**kwargs), SacreBLEU(**kwargs)
    a, b = ours._extract_corpus_statistics(HYPS, REFS), theirs._extract_corpus_statistics(HYPS, REFS)
    assert a == b
    assert type(a) is list
    assert all(type(row) is list for row in a)
    assert all(type(v) is int for row in a for v in row)
    x, y = ours._aggregate_and_compute(a), theirs._aggregate_and_compute(b)
    assert (x.score, str(x)) == (y.score, str(y))


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_score_from_stats_on_sacrebleus_types(kwargs):
    """Rows as sacreBLEU's significance module passes them: int64 and float32 arrays."""
    ours, theirs = rapidbleu.BLEU(**kwargs), SacreBLEU(**kwargs)
    rows = theirs._extract_corpus_statistics(HYPS, REFS)
    rng = np.random.default_rng(0)
    for dtype in (np.int64, np.float32):
        arr = np.array(rows, dtype=dtype)
        for idx in [rng.integers(0, len(rows), len(rows)) for _ in range(20)]:
            x = ours._compute_score_from_stats(arr[idx].sum(0))
            y = theirs._compute_score_from_stats(arr[idx].sum(0))
            assert (x.score, type(x.score), str(x)) == (y.score, type(y.score), str(y))
        for sub in (arr, arr[:1]):
            assert ours._aggregate_and_compute(sub).score == theirs._aggregate_and_compute(sub).score
    row = np.array(rows).sum(0).tolist()
    assert ours._compute_score_from_stats(row).score == theirs._compute_score_from_stats(row).score


def test_all_reduce_pattern_of_mlcommons_workload():
    """check args, per-shard statistics, sum across shards, aggregate: the corpus score."""
    metric = rapidbleu.BLEU()
    metric._check_corpus_score_args(HYPS, [REFS[0]])
    shards = [
        metric._extract_corpus_statistics(HYPS[:2], [REFS[0][:2]]),
        metric._extract_corpus_statistics(HYPS[2:], [REFS[0][2:]]),
    ]
    reduced = (np.array(shards[0]).sum(0) + np.array(shards[1]).sum(0))[None, :].tolist()
    assert metric._aggregate_and_compute(reduced).score == SacreBLEU().corpus_score(HYPS, [REFS[0]]).score


def test_segment_level_methods_are_sacrebleus():
    ours, theirs = rapidbleu.BLEU(lowercase=True), SacreBLEU(lowercase=True)
    refs = ["The cat, the CAT.", "a cat sat on the mat"]
    assert [ours._preprocess_segment(r) for r in refs] == [theirs._preprocess_segment(r) for r in refs]
    info_o = ours._extract_reference_info([ours._preprocess_segment(r) for r in refs])
    info_t = theirs._extract_reference_info([theirs._preprocess_segment(r) for r in refs])
    assert info_o == info_t
    hyp = ours._preprocess_segment("the cat the cat sat")
    assert ours._compute_segment_statistics(hyp, info_o) == theirs._compute_segment_statistics(hyp, info_t)
    for n, lens in [(3, [1, 5]), (3, [2, 4]), (0, [])]:
        assert ours._get_closest_ref_len(n, lens) == theirs._get_closest_ref_len(n, lens)
    assert ours._cache_references(REFS) == theirs._cache_references(REFS)
    assert ours.num_refs == theirs.num_refs


def test_check_args_raise_sacrebleus_types():
    metric = rapidbleu.BLEU()
    with pytest.raises(TypeError):
        metric._check_corpus_score_args([None, "a"], None)
    with pytest.raises(TypeError):
        metric._check_corpus_score_args(["a"], ["a"])
    with pytest.raises(TypeError):
        metric._check_sentence_score_args(None, ["a"])
    with pytest.raises(TypeError):
        metric._check_sentence_score_args("a", "a")
    with pytest.raises(TypeError):
        SacreBLEU()._check_sentence_score_args("a", [1])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] is a int"):
        metric._check_sentence_score_args("a", [1])
    metric._check_sentence_score_args("a", ["a"])


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_rapidbleu_metric_in_sacrebleus_paired_test(test_type, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = [("base", HYPS), ("other", OTHER)]
    _, theirs = SacrePairedTest(systems, {"BLEU": SacreBLEU()}, REFS, test_type, n_samples=300)()
    _, ours = SacrePairedTest(systems, {"BLEU": rapidbleu.BLEU()}, REFS, test_type, n_samples=300)()
    key = lambda rs: [(r.score, r.p_value, r.mean, r.ci) for r in rs]  # noqa: E731
    assert key(ours["BLEU"]) == key(theirs["BLEU"])
