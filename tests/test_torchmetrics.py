"""rapidbleu.torchmetrics: sacreBLEU's floats (/100) through torchmetrics' Metric API, states that
sum across processes (torch.distributed, gloo, two processes), and torchmetrics' own values
within float32 precision (BLEU) or exactly (chrF, TER: torchmetrics' formulas, float32).

Skipped without torch/torchmetrics unless RAPIDBLEU_REQUIRE_TORCH=1 (set by .ci/run)."""

import functools
import os
import socket

import pytest

if os.environ.get("RAPIDBLEU_REQUIRE_TORCH") != "1":
    pytest.importorskip("torch", reason="torch not installed (extra rapidbleu[torchmetrics])")
    pytest.importorskip("torchmetrics", reason="torchmetrics not installed (extra rapidbleu[torchmetrics])")

import sacrebleu
import torch
import torchmetrics.text as tmt
from conftest import SAMPLE_DIR, read

import rapidbleu
from rapidbleu.torchmetrics import BLEUScore, CHRFScore, CorpusScore, SacreBLEUScore, TranslationEditRate

pytestmark = pytest.mark.integration

HYP = read(SAMPLE_DIR / "generaltest2023.he-en.hyp.ONLINE-B.en")
REF_A = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refA.en")
REF_B = read(SAMPLE_DIR / "generaltest2023.he-en.ref.refB.en")
TARGET = [[a, b] for a, b in zip(REF_A, REF_B, strict=True)]
ZH_HYP = read(SAMPLE_DIR / "generaltest2023.en-zh.hyp.HW-TSC.zh")
ZH_REF = read(SAMPLE_DIR / "generaltest2023.en-zh.ref.refA.zh")


def _sacre(hyps, streams, n_gram=4, smooth=False, tokenize="13a", lowercase=False):
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
    return _fed(tmt.SacreBLEUScore(**dict(kw)), HYP, TARGET).item()


@pytest.mark.parametrize(
    "kw",
    [{}, {"smooth": True}, {"n_gram": 2}, {"n_gram": 1, "smooth": True}, {"tokenize": "intl", "lowercase": True}],
)
def test_sacrebleu_score_equals_sacrebleu_and_torchmetrics(kw, backend):
    value = _fed(SacreBLEUScore(**kw), HYP, TARGET)
    assert value.dtype == torch.float64
    assert value.shape == ()
    assert value.item() == _sacre(HYP, [REF_A, REF_B], **kw)
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
    with pytest.raises(ValueError, match="beta >= 1"):
        CHRFScore(beta=0.5)


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
    with pytest.raises(ValueError, match="at least one reference"):
        metric.update(["a"], [[]])
    with pytest.raises(ValueError, match="no reference"):
        metric.update(["a", "b"], [["a"], []])
    assert metric.total_num_edits.item() == metric.total_tgt_len.item() == 0


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
    with open(f"{path}.{rank}", "w") as fh:
        fh.write(repr((value.item(), their_value.item(), local.tolist(), ours.stats.tolist(), other)))
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
    for value, their_value, _local, _after, other in results:
        assert value == want  # the whole corpus's sacreBLEU float on every rank
        assert value == pytest.approx(their_value, rel=1e-6)
        # chrF, TER: the whole slice's values, as one process computes them (which equal
        # torchmetrics', tests above); segment scores in rank order
        for (corpus, segments), cls, n in zip(other, (CHRFScore, TranslationEditRate), (N_CHRF, N_TER), strict=True):
            whole_corpus, whole_segments = _fed(cls(return_sentence_level_score=True), HYP[:n], TARGET[:n])
            assert corpus == whole_corpus.item()
            assert segments == whole_segments.tolist()
    # each rank holds only its shard's statistics (torchmetrics restores them after the synced
    # compute); together they are the whole corpus's
    whole = SacreBLEUScore()
    whole.update(HYP, TARGET)
    assert [a + b for a, b in zip(results[0][2], results[1][2], strict=True)] == whole.stats.tolist()
    assert results[0][2] != results[1][2]
    assert all(r[2] == r[3] for r in results)
