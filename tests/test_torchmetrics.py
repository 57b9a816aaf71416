"""rapidbleu.torchmetrics: sacreBLEU's floats (/100) through torchmetrics' Metric API, states that
sum across processes (torch.distributed, gloo, two processes), and torchmetrics' own values
within float32 precision.

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

from rapidbleu.torchmetrics import BLEUScore, SacreBLEUScore

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
    with open(f"{path}.{rank}", "w") as fh:
        fh.write(repr((value.item(), their_value.item(), local.tolist(), ours.stats.tolist())))
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
    for value, their_value, _local, _after in results:
        assert value == want  # the whole corpus's sacreBLEU float on every rank
        assert value == pytest.approx(their_value, rel=1e-6)
    # each rank holds only its shard's statistics (torchmetrics restores them after the synced
    # compute); together they are the whole corpus's
    whole = SacreBLEUScore()
    whole.update(HYP, TARGET)
    assert [a + b for a, b in zip(results[0][2], results[1][2], strict=True)] == whole.stats.tolist()
    assert results[0][2] != results[1][2]
    assert all(r[2] == r[3] for r in results)
