"""Drop-in details found by a new-user review, each checked against sacreBLEU / NLTK themselves:
``BLEU.compute_bleu``, ``BLEU.TOKENIZERS``, sacreBLEU's command-line options we do not
implement, sacreBLEU's exception types, NLTK's ``Fraction`` display, the names NLTK's
``bleu_score`` module exposes (``ngrams``, ``Counter``, ...), clean command-line errors for a
failed model download and a bad ``RAPIDBLEU_BACKEND``."""

import argparse
import collections
import inspect
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from nltk.util import ngrams as nltk_ngrams
from sacrebleu.metrics import BLEU as SacreBLEU

import rapidbleu
from rapidbleu import cli
from rapidbleu import nltk as rnltk
from rapidbleu._scoring_py import SMOOTH_DEFAULTS
from conftest import SAMPLE_DIR, systems


# -- 1. BLEU.compute_bleu -------------------------------------------------------------------
def _fields(score):
    return (score.score, str(score), list(score.counts), list(score.totals), score.precisions, score.bp,
            score.ratio, score.sys_len, score.ref_len, score.prec_str)


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
        kwargs = dict(smooth_method=smooth_method, smooth_value=value, effective_order=effective_order,
                      max_ngram_order=order)
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
    assert [(p.name, p.default) for p in ours.parameters.values()] == \
           [(p.name, p.default) for p in theirs.parameters.values()]
    assert isinstance(inspect.getattr_static(rapidbleu.BLEU, "compute_bleu"), staticmethod)
    assert isinstance(rapidbleu.BLEU().compute_bleu(*args), rapidbleu.BLEUScore)


def test_compute_bleu_fairseq_call():
    """fairseq: numpy arrays of summed counts, exp smoothing, keywords."""
    counts, totals = np.array([4182, 2221, 1224, 673]), np.array([6006, 5506, 5006, 4506])
    kw = dict(sys_len=6006, ref_len=6213, smooth_method="exp")
    ours = rapidbleu.BLEU.compute_bleu(correct=counts.copy(), total=totals.copy(), **kw)
    theirs = SacreBLEU.compute_bleu(correct=counts.copy(), total=totals.copy(), **kw)
    assert (ours.score, str(ours), ours.precisions) == (theirs.score, str(theirs), theirs.precisions)


def test_compute_bleu_equals_corpus_score():
    pair, system, hyp, refs = systems(SAMPLE_DIR)[0]
    hyps = hyp.read_text("utf-8").splitlines()
    ref_streams = [r.read_text("utf-8").splitlines() for r in refs]
    corpus = rapidbleu.corpus_bleu(hyps, ref_streams)
    again = rapidbleu.BLEU.compute_bleu(corpus.counts, corpus.totals, corpus.sys_len, corpus.ref_len,
                                        smooth_method="exp")
    assert str(again) == str(corpus) and again.score == corpus.score


def test_compute_bleu_leaves_the_callers_lists_alone():
    correct, total = [2, 0, 0, 0], [3, 2, 1, 0]
    score = rapidbleu.BLEU.compute_bleu(correct, total, 3, 3, smooth_method="add-k")
    assert score.counts == [2, 1, 1, 1] and score.totals == [3, 3, 2, 1]  # as sacreBLEU reports
    assert correct == [2, 0, 0, 0] and total == [3, 2, 1, 0]


def test_compute_bleu_unknown_smoothing():
    for exc in (AssertionError, ValueError):
        with pytest.raises(exc):
            rapidbleu.BLEU.compute_bleu([1], [1], 1, 1, smooth_method="bogus", max_ngram_order=1)
    with pytest.raises(AssertionError):
        SacreBLEU.compute_bleu([1], [1], 1, 1, smooth_method="bogus", max_ngram_order=1)


# -- 2. BLEU.TOKENIZERS ---------------------------------------------------------------------
def test_tokenizers_on_the_class():
    ours, theirs = rapidbleu.BLEU.TOKENIZERS, SacreBLEU.TOKENIZERS
    assert type(ours) is type(theirs)
    assert list(ours) == list(theirs)
    assert ours == theirs
    assert list(rapidbleu.BLEU().TOKENIZERS) == list(SacreBLEU().TOKENIZERS)
    assert "13a" in ours and len(ours) == len(theirs)


# -- 3. command-line options of sacreBLEU that rapidbleu lacks --------------------------------
def _sacrebleu_parser(monkeypatch):
    """sacreBLEU's own ArgumentParser, caught as it parses."""
    from sacrebleu import sacrebleu as sacre_main

    caught = []

    def grab(self, *args, **kwargs):
        caught.append(self)
        raise SystemExit(0)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", grab)
    with pytest.raises(SystemExit):
        sacre_main.parse_args()
    monkeypatch.undo()
    return caught[0]


def _option_strings(parser):
    return {s for action in parser._actions for s in action.option_strings}


def test_every_sacrebleu_option_is_known(monkeypatch):
    """Same option names, hence the same abbreviations: `-t` is --test-set, not a prefix of -tok."""
    theirs = _sacrebleu_parser(monkeypatch)
    ours = cli.build_parser()
    assert _option_strings(theirs) <= _option_strings(ours)
    assert ours.allow_abbrev == theirs.allow_abbrev
    # and each takes the same number of values, so the rest of the line parses the same
    ours_by_flag = {s: a for a in ours._actions for s in a.option_strings}
    for action in theirs._actions:
        for flag in action.option_strings:
            assert ours_by_flag[flag].nargs == action.nargs, flag


def test_abbreviations_resolve_as_in_sacrebleu(monkeypatch):
    """Every prefix of a sacreBLEU long option that sacreBLEU resolves to one option resolves
    to that option here too (our extra options, e.g. --workers, must not make it ambiguous)."""
    theirs = _sacrebleu_parser(monkeypatch)
    ours = cli.build_parser()

    def resolve(parser, prefix):
        by_flag = {s: a for a in parser._actions for s in a.option_strings}
        if prefix in by_flag:
            return by_flag[prefix]
        hits = {id(a): a for s, a in by_flag.items() if s.startswith(prefix)}
        return next(iter(hits.values())) if len(hits) == 1 else None

    checked = 0
    for flag in sorted(_option_strings(theirs)):
        if not flag.startswith("--"):
            continue
        for k in range(3, len(flag) + 1):
            want = resolve(theirs, flag[:k])
            if want is None:
                continue
            got = resolve(ours, flag[:k])
            assert got is not None and set(want.option_strings) <= set(got.option_strings), flag[:k]
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("argv, message", [
    (["-t", "wmt14"], "-t/--test-set: test sets are not supported; give reference files"),
    (["--test-set", "wmt14", "-l", "de-en"], "-t/--test-set: test sets are not supported; give reference files"),
    (["-t", "13a"], "-t/--test-set: test sets are not supported"),       # not -tok 13a
    (["--list"], "--list: test sets are not supported; give reference files"),
    (["--echo", "src"], "--echo: test sets are not supported; give reference files"),
    (["-ol", "en"], "--origlang: test sets are not supported"),
    (["-d"], "-d/--detail: "),
    (["--chrf-beta", "3"], "--chrf-beta: chrF and TER are not supported"),
    (["--ter-normalized"], "--ter-normalized: chrF and TER are not supported"),
])
def test_unsupported_options_are_one_line_errors(argv, message, capsys):
    pair, system, hyp, refs = systems(SAMPLE_DIR)[0]
    code = cli.main([str(refs[0]), *argv, "-i", str(hyp)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("rapidbleu: error: ") and message in err and err.count("\n") == 1


def test_test_set_error_from_the_command(tmp_path):
    r = subprocess.run([sys.executable, "-m", "rapidbleu", "-t", "wmt14", "-l", "de-en"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == "rapidbleu: error: -t/--test-set: test sets are not supported; give reference files\n"


# -- 4. sacreBLEU's exception types ----------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda m: m.corpus_bleu([None], [["a"]]),
    lambda m: m.sentence_bleu(None, ["a"]),
    lambda m: m.BLEU().sentence_score(None, ["a"]),
], ids=["corpus_bleu", "sentence_bleu", "sentence_score"])
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


# -- 5. NLTK's Fraction, as shown --------------------------------------------------------------
@pytest.mark.parametrize("refs, hyp, n", [
    ([["a", "b", "a", "c"]], ["a"] * 4, 1),
    ([["a", "b", "a", "c"]], ["a", "b", "a", "b"], 2),
    ([["the", "cat"], ["a", "cat"]], ["cat", "cat", "cat"], 1),
    ([["x"]], ["y"], 1),
    ([["x", "y"]], ["x"], 3),                     # shorter than n: denominator max(1, 0)
    ([["a", "b", "c", "d"]], ["a", "b", "c", "d"], 2),
])
def test_modified_precision_displays_as_nltk(refs, hyp, n):
    ours, theirs = rnltk.modified_precision(refs, hyp, n), nltk_bleu.modified_precision(refs, hyp, n)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    assert ours._normalize == theirs._normalize is False
    assert float(ours) == float(theirs)


@pytest.mark.parametrize("num, den, normalize", [
    (2, 4, False), (4, 4, False), (0, 3, False), (6, 3, False), (-2, 4, False), (2, -4, False),
    (2, 4, True), (6, 3, True), (3, None, False),
])
def test_fraction_displays_as_nltk(num, den, normalize):
    ours, theirs = rnltk.Fraction(num, den, _normalize=normalize), nltk_bleu.Fraction(num, den, _normalize=normalize)
    assert (repr(ours), str(ours)) == (repr(theirs), str(theirs))
    assert ours._normalize == theirs._normalize == normalize
    if den is not None:
        assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
        assert (ours._original_numerator, ours._original_denominator) == (num, den)


# -- 6. names NLTK's bleu_score module exposes -------------------------------------------------
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
    assert next(lazy) == (0, 1, 2) and next(lazy) == (1, 2, 3)
    for bad in (-1,):
        with pytest.raises(ValueError):
            list(nltk_ngrams([1, 2], bad))
        with pytest.raises(ValueError):
            list(rnltk.ngrams([1, 2], bad))


# -- 7. clean command-line errors ----------------------------------------------------------------
def test_failed_model_download_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sentencepiece")

    def no_network(*args, **kwargs):
        raise urllib.error.URLError("no network (simulated)")

    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu"))  # no cached model there
    for var in ("RAPIDBLEU_FLORES101_MODEL", "RAPIDBLEU_FLORES200_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    pair, system, hyp, refs = systems(SAMPLE_DIR)[0]
    for tok in ("flores101", "flores200", "spm"):
        code = cli.main([str(refs[0]), "-i", str(hyp), "-tok", tok, "-q"])
        err = capsys.readouterr().err
        assert code == 1, tok
        assert err.startswith("rapidbleu: error: ") and err.count("\n") == 1, err
        assert "no network (simulated)" in err and "SentencePiece model" in err
    assert not list((tmp_path / "sacrebleu" / "models").iterdir())  # no partial model left


def _run_with_backend(value, *command):
    env = dict(os.environ, RAPIDBLEU_BACKEND=value)
    return subprocess.run([sys.executable, *command], capture_output=True, text=True, env=env, timeout=120)


def test_bad_backend_variable_is_a_one_line_error(tmp_path):
    pair, system, hyp, refs = systems(SAMPLE_DIR)[0]
    args = [str(refs[0]), "-i", str(hyp)]
    # the console script: a file named rapidbleu, like the one pip writes
    script = tmp_path / "rapidbleu"
    script.write_text("import sys\nfrom rapidbleu.cli import main\nsys.exit(main())\n", "utf-8")
    for command in (["-m", "rapidbleu", *args], [str(script), *args]):
        r = _run_with_backend("bogus", *command)
        assert r.returncode == 1, r.stderr
        assert r.stdout == ""
        assert r.stderr == "rapidbleu: error: RAPIDBLEU_BACKEND='bogus': choose one of auto, cython, python\n"
        assert _run_with_backend("python", *command).returncode == 0


def test_bad_backend_variable_still_raises_in_a_library():
    # chosen on first use: importing succeeds, the first score (or rapidbleu.backend) raises
    assert _run_with_backend("bogus", "-c", "import rapidbleu").returncode == 0
    r = _run_with_backend("bogus", "-c", "import rapidbleu; rapidbleu.corpus_bleu(['a'], [['a']])")
    assert r.returncode == 1 and "Traceback" in r.stderr and "BackendChoiceError" in r.stderr
    r = _run_with_backend("bogus", "-c", "import rapidbleu\ntry:\n rapidbleu.backend\nexcept ValueError:\n print('caught')")
    assert r.stdout == "caught\n", r.stderr
