"""Resampling in bounded memory: statistics in narrow integer types give the very results of
int64 ones (which tests/test_significance.py compares to sacreBLEU), and chunks of draws never
exceed the element cap, however many segments."""

import numpy as np
import pytest
from conftest import SAMPLE_DIR, read

import rapidbleu
from rapidbleu import significance as S
from rapidbleu._core import bootstrap as B

HYPS = [read(SAMPLE_DIR / f"generaltest2023.de-en.hyp.{s}.en") for s in ("ONLINE-W", "AIRC", "GTCOM_Peter")]
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")


@pytest.fixture(scope="module")
def stats():
    bleu = rapidbleu.BLEU()
    return bleu, [bleu.corpus_statistics(h, [REF]) for h in HYPS]


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.int32])
def test_narrow_dtypes_give_identical_results(stats, dtype):
    bleu, (a, b, c) = stats
    assert a.max() < 256
    narrow = [x.astype(dtype) for x in (a, b, c)]
    assert S.bootstrap_ci(narrow[0], bleu, 200) == S.bootstrap_ci(a, bleu, 200)
    assert S.paired_bs(narrow[0], narrow[1:], bleu, 100) == S.paired_bs(a, [b, c], bleu, 100)
    assert S.paired_ar(narrow[0], narrow[1:], bleu, 160, 50) == S.paired_ar(a, [b, c], bleu, 160, 50)


def test_large_sums_path_equals_exact_path_where_both_apply(stats, monkeypatch):
    """Forcing the per-resample float32 summation (the path of large corpora) on a corpus whose
    sums are exact gives the same sums as the counts @ stats path."""
    _bleu, (a, b, _c) = stats
    want = B.bootstrap_sums(np.random.default_rng(7), [a, b], 64)
    monkeypatch.setattr(B, "_F32_EXACT", 1.0)  # every corpus now counts as "large"
    got = B.bootstrap_sums(np.random.default_rng(7), [a, b], 64)
    for x, y in zip(got, want, strict=False):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("n", [10, 1000, 100_000, 1_000_000, 10_000_001])
def test_chunks_are_capped(n):
    k = B._chunk_rows(n)
    assert k >= 1
    assert k * n <= B._MAX_CHUNK_ELEMS or k == 1
    m = 32 // np.gcd(32, n)
    k = B._chunk_rows(n, m)
    assert k % m == 0
    assert k * n <= B._MAX_CHUNK_ELEMS or k == m
