"""rapidbleu.torchmetrics: sacreBLEU's floats (/100, as float32) through torchmetrics' Metric API,
states that sum across processes (torch.distributed, gloo, two processes), torchmetrics' own
values within float32 precision (BLEU) or exactly (chrF, TER: torchmetrics' formulas, float32),
and the contract torchmetrics' own tester checks of every metric (scripting, pickling, device
moves, constants, empty updates), side by side with torchmetrics' classes.

Skipped without torch/torchmetrics unless RAPIDBLEU_REQUIRE_TORCH=1 (set by .ci/run)."""

import functools
import io
import math
import os
import pickle
import socket

import numpy as np
import pytest

if os.environ.get("RAPIDBLEU_REQUIRE_TORCH") != "1":
    pytest.importorskip("torch", reason="torch not installed (extra rapidbleu[torchmetrics])")
    pytest.importorskip("torchmetrics", reason="torchmetrics not installed (extra rapidbleu[torchmetrics])")

import sacrebleu
import torch
import torchmetrics
import torchmetrics.text as tmt
from conftest import SAMPLE_DIR, read
from packaging.version import InvalidVersion
from torch import Tensor

import rapidbleu
from rapidbleu.torchmetrics import (
    BLEUScore,
    CHRFScore,
    CorpusScore,
    SacreBLEUScore,
    TorchmetricsRules,
    TranslationEditRate,
    torchmetrics_rules,
)

pytestmark = pytest.mark.integration

HYP = read(SAMPLE_DIR / "generaltest2023.he-en.hyp.ONLINE-B.en")
REF_A = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refA.en")
REF_B = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refB.en")
TARGET = [[a, b] for a, b in zip(REF_A, REF_B, strict=True)]
ZH_HYP = read(SAMPLE_DIR / "generaltest2023.en-zh.hyp.HW-TSC.zh")
ZH_REF = read(SAMPLE_DIR / "generaltest2023.en-zh.ref.refA.zh")


def _sacre(hyps, streams, n_gram=4, smooth=False, tokenize="13a", lowercase=False):
    """sacreBLEU's corpus BLEU / 100 as the float32 our BLEU classes return (a Python float)."""
    return float(np.float32(_sacre64(hyps, streams, n_gram, smooth, tokenize, lowercase)))


def _sacre64(hyps, streams, n_gram=4, smooth=False, tokenize="13a", lowercase=False):
    bleu = sacrebleu.BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method="add-k" if smooth else "none",
        max_ngram_order=n_gram,
        force=True,
    )
    return bleu.corpus_score(hyps, streams).score / 100


def _fed(metric, hyps, target, batch=37):
    for i in range(0, len(hyps), batch):
        metric.update(hyps[i : i + batch], target[i : i + batch])
    return metric.compute()


@functools.cache
def _theirs(kw: tuple) -> float:
    """torchmetrics' own value (computed once for both backends' runs)."""
    value = _fed(tmt.SacreBLEUScore(**dict(kw)), HYP, TARGET)
    assert value.dtype == torch.float32
    return value.item()


@pytest.mark.parametrize(
    "kw",
    [{}, {"smooth": True}, {"n_gram": 2}, {"n_gram": 1, "smooth": True}, {"tokenize": "intl", "lowercase": True}],
)
def test_sacrebleu_score_equals_sacrebleu_and_torchmetrics(kw, backend):
    value = _fed(SacreBLEUScore(**kw), HYP, TARGET)
    assert value.dtype == torch.float32  # torchmetrics' dtype
    assert value.shape == ()
    assert value.item() == _sacre(HYP, [REF_A, REF_B], **kw)  # the float32 nearest sacreBLEU's
    theirs = _theirs(tuple(sorted(kw.items())))
    # torchmetrics' intl tokenizer is its own re-implementation; the others are sacreBLEU's rules
    tol = 1e-6 if kw.get("tokenize", "13a") == "13a" else 5e-3
    assert value.item() == pytest.approx(theirs, rel=tol)


def test_bleu_score_whitespace_tokens_and_weights():
    one_ref = [[r] for r in REF_A]
    for kw in ({}, {"smooth": True}, {"n_gram": 3}, {"weights": [0.4, 0.3, 0.2, 0.1]}, {"weights": [0.25] * 4}):
        ours = _fed(BLEUScore(**kw), HYP, one_ref).item()
        theirs = _fed(tmt.BLEUScore(**kw), HYP, one_ref).item()
        assert ours == pytest.approx(theirs, rel=1e-6), kw
        if "weights" not in kw or kw["weights"] == [0.25] * 4:
            n = kw.get("n_gram", 4)
            assert ours == _sacre(HYP, [REF_A], n_gram=n, smooth=kw.get("smooth", False), tokenize="none")
    assert isinstance(SacreBLEUScore(), BLEUScore)
    assert issubclass(tmt.SacreBLEUScore, tmt.BLEUScore)
    zh = _fed(SacreBLEUScore(tokenize="zh"), ZH_HYP, ZH_REF)  # target as one string per prediction
    assert zh.item() == _sacre(ZH_HYP, [ZH_REF], tokenize="zh")


def test_metric_api_reset_forward_merge():
    metric = SacreBLEUScore()
    batch = metric(HYP[:50], TARGET[:50])  # forward: the batch's value, and accumulated
    assert batch.item() == _sacre(HYP[:50], [REF_A[:50], REF_B[:50]])
    metric.update(HYP[50:], TARGET[50:])
    other = SacreBLEUScore()
    other.update(HYP[:10], TARGET[:10])
    metric.merge_state(other)  # (torchmetrics keeps a cached compute(): merge first, then compute)
    assert metric.compute().item() == _sacre(HYP + HYP[:10], [REF_A + REF_A[:10], REF_B + REF_B[:10]])
    assert metric.stats.dtype == torch.int64
    assert metric.stats.shape == (10,)
    metric.reset()
    assert metric.stats.sum().item() == 0
    metric.update([], [])
    metric.update("a b c d", [["a b c d"]])
    assert metric.compute().item() == _sacre(["a b c d"], [["a b c d"]])


def test_smoothing_where_torchmetrics_rule_differs():
    """No 4-gram match anywhere: sacreBLEU's add-k smooths order 4 (so do we); torchmetrics
    returns 0 before smoothing."""
    hyps, target = ["a b c x d e f"], [["a b c y d e f"]]
    ours = _fed(SacreBLEUScore(smooth=True), hyps, target).item()
    assert ours == _sacre(hyps, [["a b c y d e f"]], smooth=True) > 0
    assert _fed(tmt.SacreBLEUScore(smooth=True), hyps, target).item() == 0


def test_errors():
    with pytest.raises(ValueError, match="different weights than `n_gram`: 3 != 4"):
        SacreBLEUScore(weights=[0.5, 0.25, 0.25])
    with pytest.raises(KeyError):
        SacreBLEUScore(tokenize="nope")
    metric = SacreBLEUScore()
    with pytest.raises(ValueError, match="Corpus has different size 2 != 1"):
        metric.update(["a", "b"], [["a"]])
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        metric.update(["a"], [[]])  # a prediction without any reference
    with pytest.raises(TypeError, match=r"target\[0\] is a int"):
        metric.update(["a"], [3])
    assert metric.stats.sum().item() == 0  # nothing was added by the failed calls


#: torchmetrics' chrF and TER run in Python per n-gram and per shift: a slice of the sample
#: (two references each) keeps their runs to a few seconds.
N_CHRF, N_TER = 16, 30


@functools.cache
def _theirs_sentence_level(cls_name: str, kw: tuple, n: int) -> tuple:
    """torchmetrics' (corpus, segment) values on the first n segments, fed in batches."""
    metric = getattr(tmt, cls_name)(return_sentence_level_score=True, **dict(kw))
    corpus, segments = _fed(metric, HYP[:n], TARGET[:n], batch=7)
    return corpus, segments


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"n_word_order": 0, "beta": 1.0, "lowercase": True},
        {"n_char_order": 3, "n_word_order": 3, "whitespace": True},
        {"beta": 0.5},
        {"beta": 0.0, "n_word_order": 0},
    ],
)
def test_chrf_score_equals_torchmetrics(kw, backend):
    """torchmetrics' chrF formula on rapidbleu's statistics: the same float32 corpus and segment
    scores, bit for bit, with two references (the best one chosen per segment)."""
    corpus, segments = _fed(CHRFScore(return_sentence_level_score=True, **kw), HYP[:N_CHRF], TARGET[:N_CHRF], batch=7)
    their_corpus, their_segments = _theirs_sentence_level("CHRFScore", tuple(sorted(kw.items())), N_CHRF)
    assert corpus.dtype == their_corpus.dtype == torch.float32
    assert corpus.shape == ()
    assert corpus.item() == their_corpus.item()
    assert segments.dtype == torch.float32
    assert torch.equal(segments, their_segments)
    plain = _fed(CHRFScore(**kw), HYP[:N_CHRF], TARGET[:N_CHRF])
    assert isinstance(plain, torch.Tensor)
    assert plain.item() == corpus.item()


def test_chrf_score_rules_that_differ_from_sacrebleu():
    """A segment without any match adds no reference n-grams (torchmetrics), and the orders'
    F-scores are averaged (not sacreBLEU's effective-order precision and recall); sacreBLEU's chrF
    is CorpusScore(rapidbleu.CHRF())."""
    hyps, target = ["abc d", "the cat", "", "- Yeah."], [["xyz w"], ["the cat sat on the mat"], ["x"], ["Ja."]]
    ours = _fed(CHRFScore(), hyps, target)
    assert ours.item() == _fed(tmt.CHRFScore(), hyps, target).item()
    with_refs = rapidbleu.CHRF(word_order=2, eps_smoothing=True).corpus_score(hyps, [[t[0] for t in target]])
    assert with_refs.score / 100 != pytest.approx(ours.item(), abs=1e-3)  # "xyz w" counted there
    # a reference without n-grams of an order: sacreBLEU counts none of the hypothesis's either
    assert rapidbleu.CHRF().corpus_statistics(["- Yeah."], [["Ja."]])[0, 9] == 0  # char 4-grams
    assert _fed(CHRFScore(return_sentence_level_score=True), ["- Yeah.", "Ja"], [["Ja."], ["Ja"]])[1].tolist() == (
        _fed(tmt.CHRFScore(return_sentence_level_score=True), ["- Yeah.", "Ja"], [["Ja."], ["Ja"]])[1].tolist()
    )
    streams = [[t[0] for t in target]]
    sacre = _fed(CorpusScore(rapidbleu.CHRF()), hyps, target).item()
    assert sacre == sacrebleu.CHRF().corpus_score(hyps, streams).score / 100
    assert sacre != pytest.approx(_fed(CHRFScore(n_word_order=0), hyps, target).item(), abs=1e-3)
    # without whitespace=True, a no-break space inside a line: sacreBLEU's character n-grams drop
    # it, torchmetrics' keep it (documented; rapidbleu's are sacreBLEU's)
    nbsp = (["about 1\xa0week"], [["about one\xa0week"]])
    spaces = (["about 1 week"], [["about one week"]])
    ours = _fed(CHRFScore(), *nbsp).item()
    assert ours == _fed(tmt.CHRFScore(), *spaces).item() != _fed(tmt.CHRFScore(), *nbsp).item()
    with pytest.raises(ValueError, match="n_char_order"):
        CHRFScore(n_char_order=0)
    with pytest.raises(ValueError, match="n_word_order"):
        CHRFScore(n_word_order=-1)
    with pytest.raises(ValueError, match="Expected argument `beta` to be greater than 0") as ours_error:
        CHRFScore(beta=-0.5)
    with pytest.raises(ValueError, match="beta") as their_error:
        tmt.CHRFScore(beta=-0.5)
    assert str(ours_error.value) == str(their_error.value)


@pytest.mark.parametrize("kw", [{}, {"lowercase": False, "normalize": True}, {"no_punctuation": True}])
def test_translation_edit_rate_equals_torchmetrics(kw, backend):
    """torchmetrics' TER (the reference's words shifted toward the hypothesis, float32 sums) from
    rapidbleu's TER kernel: the same float32 corpus and segment values."""
    metric = TranslationEditRate(return_sentence_level_score=True, **kw)
    corpus, segments = _fed(metric, HYP[:N_TER], TARGET[:N_TER], batch=7)
    their_corpus, their_segments = _theirs_sentence_level("TranslationEditRate", tuple(sorted(kw.items())), N_TER)
    assert corpus.dtype == torch.float32
    assert corpus.item() == their_corpus.item()
    assert torch.equal(segments, their_segments)
    assert metric.total_num_edits.dtype == torch.float32
    assert not metric.higher_is_better


def test_translation_edit_rate_rules_that_differ_from_sacrebleu():
    """An empty hypothesis has no edits in torchmetrics (sacreBLEU: one per reference word), and
    shifts go the other way (here torchmetrics finds 7 edits where sacreBLEU finds 8);
    asian_support on Chinese; sacreBLEU's TER is CorpusScore(rapidbleu.TER())."""
    cases = [(["", "a b"], [["x y z"], ["a b"]]), (["f f b b c d e b a"], [["c a f d"]]), (ZH_HYP[:2], ZH_REF[:2])]
    for hyps, target in cases:
        for kw in ({}, {"asian_support": True, "normalize": True, "no_punctuation": True}):
            ours = _fed(TranslationEditRate(**kw), hyps, target).item()
            assert ours == _fed(tmt.TranslationEditRate(**kw), hyps, target).item(), (hyps, kw)
    assert _fed(TranslationEditRate(), *cases[0]).item() == 0.0
    assert sacrebleu.corpus_ter(cases[0][0], [["x y z", "a b"]]).score == 60  # 3 deletions / 5 words
    assert _fed(TranslationEditRate(), *cases[1]).item() == 1.75
    assert sacrebleu.sentence_ter(cases[1][0][0], ["c a f d"]).score == 200
    sacre = CorpusScore(rapidbleu.TER())
    assert _fed(sacre, HYP[:N_TER], TARGET[:N_TER]).item() == (
        sacrebleu.TER().corpus_score(HYP[:N_TER], [REF_A[:N_TER], REF_B[:N_TER]]).score / 100
    )
    with pytest.raises(ValueError, match="`lowercase` to be of type boolean"):
        TranslationEditRate(lowercase=1)
    metric = TranslationEditRate()
    with pytest.raises(TypeError):
        metric.update(["a", None], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is a int"):
        metric.update(["a", "b"], [["a"], [3]])
    with pytest.raises(ValueError, match="Corpus has different size 1 != 2"):
        metric.update(["a"], [["a"], ["b"]])
    assert metric.total_num_edits.item() == metric.total_tgt_len.item() == 0


# --------------------------------------------------------------------------------------------
# The contract torchmetrics' own tester checks of every metric (its MetricTester / TextTester):
# scripting, pickling, device moves, hashing, constants, states, forward; side by side with
# torchmetrics' classes on the same inputs.
# --------------------------------------------------------------------------------------------
#: (our class, torchmetrics' class, constructor arguments): every class and option the tester runs
PAIRS = [
    (BLEUScore, tmt.BLEUScore, {}),
    (SacreBLEUScore, tmt.SacreBLEUScore, {}),
    (SacreBLEUScore, tmt.SacreBLEUScore, {"tokenize": "intl", "lowercase": True}),
    (CHRFScore, tmt.CHRFScore, {}),
    (CHRFScore, tmt.CHRFScore, {"return_sentence_level_score": True}),
    (TranslationEditRate, tmt.TranslationEditRate, {}),
    (TranslationEditRate, tmt.TranslationEditRate, {"return_sentence_level_score": True}),
]
PAIR_IDS = [f"{ours.__name__}-{'-'.join(map(str, kw.values())) or 'default'}" for ours, _, kw in PAIRS]
#: a small batch of WMT23 segments (two references each) for the slow torchmetrics classes
SMALL = (HYP[:6], TARGET[:6])


def _values(result):
    """A compute()/forward() result as plain values: a float, or (float, list of floats)."""
    if isinstance(result, tuple):
        return tuple(_values(r) for r in result)
    return result.tolist()


def _flat(result):
    """A compute()/forward() result as one flat list of floats (for pytest.approx)."""
    values = _values(result)
    if not isinstance(values, tuple):
        return [values]
    return [v for part in values for v in (part if isinstance(part, list) else [part])]


def _dtypes(result):
    return tuple(r.dtype for r in result) if isinstance(result, tuple) else result.dtype


@pytest.mark.parametrize(("ours", "theirs", "kw"), PAIRS, ids=PAIR_IDS)
def test_scripting_and_saving_keep_the_states(ours, theirs, kw):
    """torch.jit.script compiles every metric (torchmetrics' tester scripts each one; string
    annotations defeated it), and torch.jit.save / load keep the states' values."""
    for cls in (ours, theirs):
        metric = cls(**kw)
        metric.update(*SMALL)
        scripted = torch.jit.script(metric)
        buffer = io.BytesIO()
        torch.jit.save(scripted, buffer)
        buffer.seek(0)
        loaded = torch.jit.load(buffer)
        for name, default in metric._defaults.items():
            state = getattr(metric, name)
            for copy in (scripted, loaded):
                if isinstance(default, list):
                    assert [t.tolist() for t in getattr(copy, name)] == [t.tolist() for t in state]
                else:
                    assert torch.equal(getattr(copy, name), state), (cls, name)
    for scorer in (rapidbleu.BLEU(), rapidbleu.CHRF(), rapidbleu.TER()):
        torch.jit.script(CorpusScore(scorer))


@pytest.mark.parametrize(("ours", "theirs", "kw"), PAIRS, ids=PAIR_IDS)
def test_pickle_device_moves_and_precision_keep_values(ours, theirs, kw):
    """What the tester does between updates: .to(device), pickle round trips, hash; and .half(),
    .float(), .double() change nothing (torchmetrics' rule: only set_dtype casts states)."""
    values = []
    for cls in (ours, theirs):
        whole = cls(**kw)
        whole.update(HYP[:12], TARGET[:12])
        metric = cls(**kw).to("cpu")
        metric.update(*SMALL)
        metric = pickle.loads(pickle.dumps(metric))
        dtypes = {name: getattr(metric, name).dtype for name, d in metric._defaults.items() if not isinstance(d, list)}
        metric = metric.half().double().float()
        assert {name: getattr(metric, name).dtype for name in dtypes} == dtypes
        assert hash(metric)
        metric.update(HYP[6:12], TARGET[6:12])
        assert _values(pickle.loads(pickle.dumps(metric)).compute()) == _values(whole.compute())
        values.append(_flat(metric.compute()))
    assert values[0] == pytest.approx(values[1], rel=1e-6)


def test_pickle_with_a_mecab_tokenizer():
    """A metric whose tokenizer holds a MeCab tagger pickles (the tagger is loaded again), as
    torchmetrics' SacreBLEUScore(tokenize="ja-mecab") does."""
    pytest.importorskip("MeCab", reason="extra [ja] not installed")
    pytest.importorskip("ipadic", reason="extra [ja] not installed")
    preds, target = ["これは美しい花です。"], [["これは美しい花です。", "おいしい寿司を食べたい。"]]
    metric = SacreBLEUScore(tokenize="ja-mecab")
    metric.update(preds, target)
    copy = pickle.loads(pickle.dumps(metric))
    copy.update(preds, target)
    metric.update(preds, target)
    assert copy.compute().item() == metric.compute().item() == tmt.SacreBLEUScore(tokenize="ja-mecab")(preds, target)


@pytest.mark.parametrize(("ours", "theirs", "kw"), PAIRS, ids=PAIR_IDS)
def test_constants_states_and_output_dtypes_are_torchmetrics(ours, theirs, kw):
    """The constants the tester and Lightning read, each state's reduction and kind (ours keep
    integer counts where torchmetrics sums float32), the output dtypes (float32 everywhere, as
    torchmetrics), and forward's result without a gradient (is_differentiable False)."""
    mine, other = ours(**kw), theirs(**kw)
    for const in ("is_differentiable", "higher_is_better", "plot_lower_bound", "plot_upper_bound"):
        assert getattr(mine, const) == getattr(other, const), const
    with pytest.raises(RuntimeError, match="Can't change const `higher_is_better`"):
        mine.higher_is_better = True
    reductions = {getattr(f, "__name__", f) for f in other._reductions.values()}
    assert {getattr(f, "__name__", f) for f in mine._reductions.values()} == reductions
    assert {type(d) for d in mine._defaults.values()} == {type(d) for d in other._defaults.values()}
    for name, default in mine._defaults.items():
        if isinstance(default, Tensor):
            assert default.dtype == (torch.float32 if ours is TranslationEditRate else torch.int64), name
    if ours is TranslationEditRate:
        assert mine._defaults.keys() == other._defaults.keys()
    batch, their_batch = mine(*SMALL), other(*SMALL)
    assert _dtypes(batch) == _dtypes(their_batch)
    assert _dtypes(mine.compute()) == _dtypes(other.compute())
    assert not (batch[0] if isinstance(batch, tuple) else batch).requires_grad


def test_corpus_score_takes_the_direction_of_its_metric():
    """CorpusScore(TER()) is an error rate: lower is better, as TranslationEditRate; it cannot be
    changed on an instance (torchmetrics' constant)."""
    assert CorpusScore(rapidbleu.TER()).higher_is_better is False
    assert CorpusScore(rapidbleu.CHRF()).higher_is_better is True
    assert CorpusScore(rapidbleu.BLEU()).higher_is_better is True
    with pytest.raises(RuntimeError, match="Can't change const"):
        CorpusScore(rapidbleu.TER()).higher_is_better = True


@pytest.mark.parametrize(("ours", "theirs", "kw"), PAIRS, ids=PAIR_IDS)
def test_forward_gives_the_batch_and_accumulates(ours, theirs, kw, backend):
    """forward: the batch's own value, while compute() covers every batch; reset starts over;
    merge_state adds another metric's states (a DDP-style merge: the value of all the batches,
    the incoming segment scores first; torchmetrics' own BLEU and chrF refuse merge_state, their
    full_state_update is True)."""
    results = []
    for cls in (ours, theirs):
        metric = cls(**kw)
        first = metric(HYP[:4], TARGET[:4])
        second = metric(HYP[4:9], TARGET[4:9])
        accumulated = metric.compute()
        metric.reset()
        again = metric(HYP[4:9], TARGET[4:9])
        results.append([_flat(r) for r in (first, second, accumulated, again)])
    if ours in (BLEUScore, SacreBLEUScore):  # sacreBLEU's float (as float32), theirs within float32
        flat = [[v for row in result for v in row] for result in results]
        assert flat[0] == pytest.approx(flat[1], rel=1e-6)
        tokenize = {"tokenize": "none"} if ours is BLEUScore else {}
        assert results[0][2] == [_sacre(HYP[:9], [REF_A[:9], REF_B[:9]], **tokenize, **kw)]
    else:
        assert results[0] == results[1]
    assert results[0][1] == results[0][3]
    metric, other, whole = ours(**kw), ours(**kw), ours(**kw)
    metric.update(HYP[:4], TARGET[:4])
    other.update(HYP[4:9], TARGET[4:9])
    metric.merge_state(other)  # torchmetrics' rule: the incoming segments first
    whole.update(HYP[4:9], TARGET[4:9])
    whole.update(HYP[:4], TARGET[:4])
    assert _values(metric.compute()) == _values(whole.compute())


# --------------------------------------------------------------------------------------------
# Updates without samples (an empty batch; a DDP rank without data) and compute() before any
# update give torchmetrics' empty values.
# --------------------------------------------------------------------------------------------
#: (preds, target) of an update without any sample, in the layouts torchmetrics' tests use
EMPTY = [([], []), ([], [[]]), ((), ())]


@pytest.mark.parametrize(("ours", "theirs", "kw"), PAIRS, ids=PAIR_IDS)
def test_empty_updates_add_nothing(ours, theirs, kw):
    """An empty batch adds nothing and forward gives torchmetrics' empty value (0; with segment
    scores, ValueError: nothing to concatenate, as torchmetrics); compute() before any update
    too; an empty batch between others leaves the value as it was."""
    mine, other = ours(**kw), theirs(**kw)
    if kw.get("return_sentence_level_score"):
        for metric in (mine, other):
            with pytest.raises(ValueError):  # noqa: PT011 -- torchmetrics' own ValueError differs in text
                metric.compute()
            with pytest.raises(ValueError):  # noqa: PT011
                metric(*EMPTY[0])
    else:
        assert _values(mine.compute()) == _values(other.compute()) == 0.0
        for preds, target in EMPTY:
            batch, their_batch = mine(preds, target), other(preds, target)
            assert _values(batch) == _values(their_batch) == 0.0
            assert batch.dtype == their_batch.dtype
    for name, default in mine._defaults.items():  # nothing was added
        state = getattr(mine, name)
        assert state == [] if isinstance(default, list) else torch.equal(state, default), name
    for metric in (mine, other):
        metric.reset()
        metric.update(*SMALL)
        metric.update([], [])
        metric.update(HYP[6:8], TARGET[6:8])
    whole = ours(**kw)
    whole.update(HYP[:8], TARGET[:8])
    assert _values(mine.compute()) == _values(whole.compute())
    assert _flat(mine.compute()) == pytest.approx(_flat(other.compute()), rel=1e-6)


def test_empty_texts_and_predictions_without_references():
    """Empty text where torchmetrics' classes score it: BLEU takes an empty list as an empty
    text; chrF and TER a prediction with an empty list of references (chrF counts its n-grams,
    TER adds no edits and no length: segment score 0, as torchmetrics; torchmetrics' TER length
    sum turns NaN there, so its corpus value is 0 from then on, ours is the other segments').
    torchmetrics' BLEU fails on a prediction without references, so ours refuses it."""
    for ours, theirs in ((BLEUScore, tmt.BLEUScore), (SacreBLEUScore, tmt.SacreBLEUScore)):
        for preds, target in (([[]], [[[]]]), ([[], "a b"], [[[]], ["a b", []]])):
            assert ours()(preds, target).item() == theirs()(preds, target).item()
        with pytest.raises(ValueError, match="segment 1 has no reference"):
            ours().update(["a", "b"], [["a"], []])
        with pytest.raises(ValueError, match="Corpus has different size 0 != 1"):
            ours().update([], [["a reference without a prediction"]])
    cases = [(["python"], [[]]), ("", []), (["x"], ["a b", "x y"]), (HYP[6:9], [[], TARGET[7], []])]
    for ours, theirs in ((CHRFScore, tmt.CHRFScore), (TranslationEditRate, tmt.TranslationEditRate)):
        for preds, target in cases:
            mine, other = ours(return_sentence_level_score=True), theirs(return_sentence_level_score=True)
            (corpus, segments), (their_corpus, their_segments) = mine(preds, target), other(preds, target)
            assert segments.tolist() == their_segments.tolist(), (ours, preds)
            if ours is CHRFScore or segments.numel() == 1:
                assert corpus.item() == their_corpus.item(), (ours, preds)
    mine, other = TranslationEditRate(), tmt.TranslationEditRate()
    for metric in (mine, other):
        metric.update(HYP[6:9], [[], TARGET[7], []])
    assert math.isnan(other.total_tgt_len.item())
    assert other.compute().item() == 0.0
    assert mine.compute().item() == _fed(TranslationEditRate(), HYP[7:8], TARGET[7:8]).item() > 0


# --------------------------------------------------------------------------------------------
# TER's tokenization (once per text, as torchmetrics) and the rules of the torchmetrics version
# installed.
# --------------------------------------------------------------------------------------------
def test_translation_edit_rate_tokenizes_each_text_once():
    """With normalize, tokenizing twice differs from once ("m's." gives "m's ." once, "m 's ."
    twice); torchmetrics tokenizes hypothesis and reference once each (sacreBLEU's TER tokenizes
    references twice; the hypothesis, in the reference's place here, was tokenized twice)."""
    assert TranslationEditRate(normalize=True)(["m's."], [["l"]]).item() == 2.0
    preds = ["m's.", "Jim's car is red.", "It's the cat's.", HYP[72]]
    target = [["l"], ["Jim's car's red."], ["It is the cat's."], TARGET[72]]
    for kw in ({"normalize": True}, {"normalize": True, "lowercase": False, "no_punctuation": True}):
        ours = TranslationEditRate(normalize=True, return_sentence_level_score=True)(preds, target)
        theirs = tmt.TranslationEditRate(normalize=True, return_sentence_level_score=True)(preds, target)
        assert _values(ours) == _values(theirs), kw


def test_torchmetrics_rules_by_version():
    """1.9.0 and earlier: TER shifts the reference, chrF drops an unmatched segment's reference
    n-grams; every later version has torchmetrics' fixes."""
    old, fixed = TorchmetricsRules(True, True), TorchmetricsRules(False, False)
    for version in ("1.9.0", "1.8.2", "1.9.0rc1", "1.0.0", "0.11.4"):
        assert torchmetrics_rules(version) == old, version
    for version in ("1.9.1", "1.9.0.post1", "1.10.0", "1.10.0.dev0", "2.0.0"):
        assert torchmetrics_rules(version) == fixed, version
    with pytest.raises(InvalidVersion):
        torchmetrics_rules("not a version")


#: Inputs where torchmetrics' releases differ: TER's direction of shifts (1.0 then 1.25, as
#: sacreBLEU), an empty hypothesis (0 then 1), an empty reference (1 then 0); chrF's segment
#: without any match (its reference n-grams dropped, then its first reference's counted).
TER_CASES = [
    (["hello hello the a dog"], [["jumps dog lazy the"]], {"lowercase": False}),
    ([""], [["hello world foo"]], {}),
    (["a b"], [[""]], {}),
]
CHRF_CASES = [
    (
        ["the cat sat on the mat", "qqqq", "a dog barked loudly"],
        [["the cat sat on a mat"], ["zzzzzz yyyy"], ["dog barks"]],
    ),
    (["qqqq", "the cat sat"], [["zzzzzzzz", "yyyyyyyyyyyy yyyy"], ["the cat sat", "a cat sat"]]),
]


def test_classes_follow_the_installed_torchmetrics():
    """On the inputs where torchmetrics' releases differ, the values of the torchmetrics
    installed (and its rules are the ones the selector gives for its version)."""
    rules = torchmetrics_rules(torchmetrics.__version__)
    for preds, target, kw in TER_CASES:
        ours = TranslationEditRate(**kw)(preds, target).item()
        assert ours == tmt.TranslationEditRate(**kw)(preds, target).item(), preds
    assert (TranslationEditRate(lowercase=False)(*TER_CASES[0][:2]).item() == 1.0) == rules.ter_shifts_reference
    for preds, target in CHRF_CASES:
        ours = CHRFScore(return_sentence_level_score=True)(preds, target)
        assert _values(ours) == _values(tmt.CHRFScore(return_sentence_level_score=True)(preds, target))


def test_fixed_rules_after_torchmetrics_1_9(monkeypatch):
    """The rules of the releases after 1.9.0 (the metric reads the version when it is made):
    TER shifts the hypothesis toward the reference, sacreBLEU's direction, so on WMT23 segments
    its segment TERs are sacreBLEU's (within float32), except 0 edits against an empty reference;
    a chrF segment without any match counts its first reference, as sacreBLEU's chrF statistics
    (equal to sacreBLEU's eps-smoothed chrF++ where every reference has every order)."""
    monkeypatch.setattr(torchmetrics, "__version__", "1.10.0")
    for (preds, target, kw), want in zip(TER_CASES, (1.25, 1.0, 0.0), strict=True):
        assert TranslationEditRate(**kw)(preds, target).item() == want
    corpus, segments = TranslationEditRate(return_sentence_level_score=True)(HYP[:N_TER], TARGET[:N_TER])
    sacre = [sacrebleu.sentence_ter(h, t).score / 100 for h, t in zip(HYP[:N_TER], TARGET[:N_TER], strict=True)]
    assert segments.tolist() == pytest.approx(sacre, rel=1e-6)
    assert corpus.item() == pytest.approx(sacrebleu.corpus_ter(HYP[:N_TER], [REF_A[:N_TER], REF_B[:N_TER]]).score / 100)
    eps = sacrebleu.CHRF(word_order=2, eps_smoothing=True)
    preds, target = CHRF_CASES[0]
    want = eps.corpus_score(preds, [[t[0] for t in target]]).score / 100
    assert CHRFScore()(preds, target).item() == pytest.approx(want, rel=1e-6)
    # without any match against either reference: the first one counts, whichever is shorter
    # (sacreBLEU's smoothed F-score prefers the shorter "zzzzzzzz" in either order)
    preds, target = CHRF_CASES[1]
    for refs in (target[0], target[0][::-1]):
        both = CHRFScore(return_sentence_level_score=True)(preds, [refs, target[1]])
        first = CHRFScore(return_sentence_level_score=True)(preds, [refs[:1], target[1]])
        assert _values(both) == _values(first)
    assert CHRFScore()(preds, [target[0][::-1], target[1]]).item() != CHRFScore()(preds, target).item()
    monkeypatch.setattr(torchmetrics, "__version__", "1.9.0")
    assert CHRFScore()(*CHRF_CASES[0]).item() == tmt.CHRFScore()(*CHRF_CASES[0]).item()
    assert CHRFScore()(*CHRF_CASES[0]).item() != pytest.approx(
        eps.corpus_score(CHRF_CASES[0][0], [[t[0] for t in CHRF_CASES[0][1]]]).score / 100, abs=1e-2
    )


def _ddp_worker(rank, world, port, path):
    import torch.distributed as dist

    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    ours, theirs = SacreBLEUScore(), tmt.SacreBLEUScore()
    for i in range(rank * 10, len(HYP), world * 10):  # interleaved shards of 10
        ours.update(HYP[i : i + 10], TARGET[i : i + 10])
        theirs.update(HYP[i : i + 10], TARGET[i : i + 10])
    local = ours.stats.clone()
    value, their_value = ours.compute(), theirs.compute()  # both sync their states (sum)
    # chrF and TER with segment scores (list states, concatenated across processes; torchmetrics
    # 1.9's own classes fail there: torch.cat of the gathered tensor)
    other = []
    for cls, n in ((CHRFScore, N_CHRF), (TranslationEditRate, N_TER)):
        metric = cls(return_sentence_level_score=True)
        for i in range(rank * n // 2, (rank + 1) * n // 2, 5):  # rank 0 the first half, rank 1 the second
            metric.update(HYP[i : min(i + 5, (rank + 1) * n // 2)], TARGET[i : min(i + 5, (rank + 1) * n // 2)])
        corpus, segments = metric.compute()
        other.append((corpus.item(), segments.tolist()))
    # a rank without data: its update is an empty batch, and compute gives the other rank's values
    idle = []
    for cls, n in ((SacreBLEUScore, N_TER), (CHRFScore, N_CHRF), (TranslationEditRate, N_TER)):
        metric = cls() if cls is SacreBLEUScore else cls(return_sentence_level_score=True)
        metric.update(*((HYP[:n], TARGET[:n]) if rank == 0 else ([], [])))
        idle.append(_values(metric.compute()))
    with open(f"{path}.{rank}", "w") as fh:
        fh.write(repr((value.item(), their_value.item(), local.tolist(), ours.stats.tolist(), other, idle)))
    dist.destroy_process_group()


def test_ddp_two_processes_sum_states(tmp_path):
    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "rank"
    mp.spawn(_ddp_worker, args=(2, port, str(out)), nprocs=2, join=True)
    results = [eval((tmp_path / f"rank.{r}").read_text()) for r in range(2)]
    want = _sacre(HYP, [REF_A, REF_B])
    for value, their_value, _local, _after, other, idle in results:
        assert value == want  # the whole corpus's sacreBLEU float on every rank
        assert value == pytest.approx(their_value, rel=1e-6)
        # chrF, TER: the whole slice's values, as one process computes them (which equal
        # torchmetrics', tests above); segment scores in rank order
        for (corpus, segments), cls, n in zip(other, (CHRFScore, TranslationEditRate), (N_CHRF, N_TER), strict=True):
            whole_corpus, whole_segments = _fed(cls(return_sentence_level_score=True), HYP[:n], TARGET[:n])
            assert corpus == whole_corpus.item()
            assert segments == whole_segments.tolist()
        assert idle[0] == _sacre(HYP[:N_TER], [REF_A[:N_TER], REF_B[:N_TER]])
        for values, cls, n in zip(idle[1:], (CHRFScore, TranslationEditRate), (N_CHRF, N_TER), strict=True):
            assert values == _values(_fed(cls(return_sentence_level_score=True), HYP[:n], TARGET[:n]))
    # each rank holds only its shard's statistics (torchmetrics restores them after the synced
    # compute); together they are the whole corpus's
    whole = SacreBLEUScore()
    whole.update(HYP, TARGET)
    assert [a + b for a, b in zip(results[0][2], results[1][2], strict=True)] == whole.stats.tolist()
    assert results[0][2] != results[1][2]
    assert all(r[2] == r[3] for r in results)
