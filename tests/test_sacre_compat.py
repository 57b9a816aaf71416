"""Issue 13, where real code reaches past the documented API: sacreBLEU's module paths and
semi-private methods, its logger, NLTK's warnings and error types, and the places where
rapidbleu deliberately differs (command-line values, seed 0, identical systems, malformed
input).  Each behaviour is compared with sacreBLEU 2.6.0 / NLTK themselves where they define
it.  Every test runs once per backend (``conftest.backend``)."""

import argparse
import gzip
import importlib
import logging
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import sacrebleu.compat
import sacrebleu.metrics.helpers as sacre_helpers
import sacrebleu.utils as sacre_utils
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest as SacrePairedTest

import rapidbleu
from rapidbleu import cli
from rapidbleu import nltk as rnltk
from rapidbleu import significance as rsig
from rapidbleu._validate import NoReferencesError

pytestmark = pytest.mark.usefixtures("backend")

ROOT = Path(__file__).resolve().parent.parent

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him.", "Foo bar ."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first.", "foo bar"],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog.", None],
]
OTHER = ["The dog bit a man.", "It was surprising.", "The man bit him.", "foo"]

CONFIGS = [
    {},
    {"smooth_method": "floor"},
    {"smooth_method": "add-k", "effective_order": True},
    {"smooth_method": "none", "max_ngram_order": 2, "lowercase": True},
    {"tokenize": "char", "smooth_method": "floor", "smooth_value": 0.3},
]


# -- 1. module paths -------------------------------------------------------------------------
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


# -- 3. semi-private methods ----------------------------------------------------------------
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


# -- 4. logging and NLTK's warnings -----------------------------------------------------------
@pytest.fixture
def sacre_logger():
    """The ``sacrebleu`` logger, enabled at the start (other libraries' logging setup, e.g.
    ``distributed``'s ``dictConfig``, disables the loggers that exist when they configure) and
    restored after."""
    logs = [logging.getLogger(name) for name in ("sacrebleu", "rapidbleu")]
    saved = [(log.level, log.disabled) for log in logs]
    for log in logs:
        log.setLevel(logging.NOTSET)
        log.disabled = False
    yield logs[0]
    for log, (level, disabled) in zip(logs, saved, strict=False):
        log.setLevel(level)
        log.disabled = disabled


def test_sacrebleu_logger_silences_rapidbleu(caplog, sacre_logger):
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert any("effective_order" in r.getMessage() for r in caplog.records)
    caplog.clear()
    sacre_logger.setLevel(logging.ERROR)
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert not caplog.records
    sacre_logger.setLevel(logging.NOTSET)
    sacre_logger.disabled = True
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert not caplog.records


def test_rapidbleu_logger_level_still_applies(caplog, sacre_logger):
    log = logging.getLogger("rapidbleu")
    old = log.level
    log.setLevel(logging.ERROR)
    try:
        with caplog.at_level(logging.WARNING, logger="root"):
            rapidbleu.BLEU().sentence_score("a b", ["a b"])
        assert not [r for r in caplog.records if r.name == "rapidbleu"]
    finally:
        log.setLevel(old)


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


# -- 5. command line --------------------------------------------------------------------------
SAMPLE = ROOT / "tests" / "data" / "wmt23"
REF = str(SAMPLE / "generaltest2023.de-en.ref.refA.en")
HYP = str(SAMPLE / "generaltest2023.de-en.hyp.ONLINE-W.en")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-l", "enzh"], "-l/--language-pair 'enzh': expected SRC-TRG with a dash"),
        (["-l", "en-"], "-l/--language-pair 'en-': expected SRC-TRG with a dash"),
        (["-m", "meteor"], "-m/--metrics meteor: unknown metric"),
        (["-w", "-1"], "-w/--width -1: the number of decimals must be >= 0"),
        # sacreBLEU runs its defaults (1000 / 10000) for 0 or less and prints the number given;
        # with -cin 1 it prints no interval
        (["-i", HYP, "-pbs", "-pbsn", "0"], "-pbsn/--paired-bs-n 0: give at least 2 bootstrap resamples"),
        (["-i", HYP, "-pbs", "-pbsn", "-5"], "-pbsn/--paired-bs-n -5: give at least 2 bootstrap resamples"),
        (["-i", HYP, "-pbs", "-pbsn", "1"], "-pbsn/--paired-bs-n 1: give at least 2 bootstrap resamples"),
        (["-i", HYP, "-par", "-parn", "0"], "-parn/--paired-ar-n 0: give at least 1 approximate randomization trial"),
        (["-ci", "-cin", "1"], "-cin/--confidence-n 1: give at least 2 bootstrap resamples"),
        (["-ci", "-cin", "0"], "-cin/--confidence-n 0: give at least 2 bootstrap resamples"),
        (["--workers", "0"], "--workers 0: workers must be 1 (serial), k > 1 (threads) or negative"),
        (["-sv", "nan"], "smooth_value must be a finite number >= 0 or None, got nan"),
        (["-s", "floor", "-sv", "-0.5"], "smooth_value must be a finite number >= 0 or None, got -0.5"),
        (["-sv", "inf"], "smooth_value must be a finite number >= 0 or None, got inf"),
    ],
)
def test_cli_refuses_values_in_one_line(options, message, capsys):
    assert cli.main([REF, "-i", HYP, "-q", *options]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"rapidbleu: error: {message}")


@pytest.mark.parametrize("options", [["-l", "de-en"], ["-m", "bleu"], ["-w", "0"], ["-s", "floor", "-sv", "0"]])
def test_cli_valid_values_still_score(options, capsys):
    assert cli.main([REF, "-i", HYP, "-b", *options]) == 0
    assert float(capsys.readouterr().out) > 0


# -- 6. significance: seed 0, identical systems -----------------------------------------------
def _stats(hyps):
    return rapidbleu.BLEU().corpus_statistics(hyps, REFS)


@pytest.mark.parametrize("test", [rsig.paired_bs, rsig.paired_ar])
def test_seed_zero_fixes_the_draws(test):
    runs = [test(_stats(HYPS), [_stats(OTHER)], rapidbleu.BLEU(), 200, seed=0) for _ in range(2)]
    assert [(r.p_value, r.mean, r.ci) for r in runs[0]] == [(r.p_value, r.mean, r.ci) for r in runs[1]]


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_sacrebleu_seed_zero_env_is_reproducible(test_type, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    systems = [("base", HYPS), ("other", OTHER)]
    runs = [rsig.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, REFS, test_type, n_samples=200)() for _ in range(2)]
    assert [r.p_value for r in runs[0][1]["BLEU"]] == [r.p_value for r in runs[1][1]["BLEU"]]
    assert "seed:0" in str(runs[0][0]["BLEU"])
    assert rsig.seed_from_env() == ("0", 0)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_identical_systems_are_not_significant(test_type, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = [("base", HYPS), ("same", list(HYPS))]
    _, ours = rsig.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, REFS, test_type, n_samples=100)()
    _, theirs = SacrePairedTest(systems, {"BLEU": SacreBLEU()}, REFS, test_type, n_samples=100)()
    assert ours["BLEU"][1].p_value == 1.0
    assert theirs["BLEU"][1].p_value == 1 / 101  # sacreBLEU: "significant"


def test_other_p_values_stay_sacrebleus(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = [("base", HYPS), ("other", OTHER)]
    for test_type in ("bs", "ar"):
        _, ours = rsig.PairedTest(systems, {"BLEU": rapidbleu.BLEU()}, REFS, test_type, n_samples=150)()
        _, theirs = SacrePairedTest(systems, {"BLEU": SacreBLEU()}, REFS, test_type, n_samples=150)()
        assert ours["BLEU"][1].p_value == theirs["BLEU"][1].p_value


# -- 7. validation ----------------------------------------------------------------------------
BAD_SMOOTH = [float("nan"), float("inf"), -float("inf"), -0.1, "0.1", True, [1]]


@pytest.mark.parametrize("value", BAD_SMOOTH, ids=repr)
def test_bad_smooth_value_on_every_sacre_entry_point(value):
    from rapidbleu.ids import corpus_bleu_ids

    calls = [
        lambda: rapidbleu.BLEU(smooth_method="floor", smooth_value=value),
        lambda: rapidbleu.BLEU.compute_bleu([1, 0, 0, 0], [3, 2, 1, 0], 3, 3, "floor", value),
        lambda: rapidbleu.corpus_bleu(HYPS, REFS, smooth_method="add-k", smooth_value=value),
        lambda: rapidbleu.sentence_bleu("a b", ["a b"], smooth_value=value),
        lambda: rapidbleu.raw_corpus_bleu(HYPS, REFS, value),
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


@pytest.mark.parametrize("value", [0, 0.0, 0.01, 2, np.float32(0.5), np.int64(3)], ids=repr)
def test_good_smooth_values_match_sacrebleu(value):
    ours = rapidbleu.corpus_bleu(HYPS, REFS, smooth_method="floor", smooth_value=value)
    theirs = sacrebleu.corpus_bleu(HYPS, REFS, smooth_method="floor", smooth_value=value)
    assert ours.score == theirs.score
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("make", [dict.fromkeys, set, frozenset], ids=["dict", "set", "frozenset"])
def test_unordered_containers_are_type_errors(make):
    metric = rapidbleu.BLEU()
    calls = [
        lambda: rapidbleu.corpus_bleu(make(HYPS), [REFS[0]]),
        lambda: rapidbleu.corpus_bleu(HYPS, [make(REFS[0])]),
        lambda: rapidbleu.sentence_bleu("a", make(["a", "b"])),
        lambda: metric.corpus_statistics(make(HYPS), [REFS[0]]),
        lambda: metric._extract_corpus_statistics(HYPS, make(map(tuple, REFS))),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="must be an ordered sequence"):
            call()


def _good_stats():
    return rapidbleu.BLEU().corpus_statistics(HYPS, REFS)


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


# -- 8. license ------------------------------------------------------------------------------
def test_license_file_is_apache_2():
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("tests run outside the checkout (.ci/run checks LICENSE in the wheel and sdist)")
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text
    assert "Version 2.0, January 2004" in text
    assert len(text) > 10000
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "Apache-2.0"' in pyproject
    assert 'license-files = ["LICENSE"]' in pyproject
    assert "LICENSE" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


def test_score_of_finite_stats_is_finite():
    assert math.isfinite(rapidbleu.BLEU().score_from_stats(_good_stats().sum(0)).score)
