"""Segments long enough for the core's chunked table growth (more than 2**15 tokens or
n-grams: the tables start small and are rehashed as distinct entries arrive) give the same
statistics as the pure-Python twin: str texts (13a, char), pre-split str tokens and int ids,
with the full hash and with a hash that keeps few bits (long probe chains across rehashes)."""

import random

import numpy as np
import pytest

from rapidbleu import _stats_py as py

try:
    from rapidbleu import _stats_cy as cy
except ImportError as exc:  # pure-Python install
    pytest.skip(f"rapidbleu._stats_cy is not built ({exc})", allow_module_level=True)

FEW_BITS = 0xFFF0000000000000  # 12 bits of hash: many collisions, still fast enough


def _words(rng, n, vocab):
    return [vocab[int(rng.paretovariate(1.2)) % len(vocab)] for _ in range(n)]


@pytest.fixture(scope="module")
def long_pair():
    rng = random.Random(7)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 8))) for _ in range(3000)]
    vocab += [",", ".", "3.5", "-", "é", "日本"]
    hyp = _words(rng, 90_000, vocab)
    ref = [w for k, w in enumerate(hyp) if k % 5] + _words(rng, 5_000, vocab)
    ref2 = _words(rng, 40_000, vocab)
    return hyp, ref, ref2


@pytest.mark.parametrize("tok", ["13a", "char"])
@pytest.mark.parametrize("mask", [None, FEW_BITS])
def test_long_str_segment(long_pair, tok, mask):
    hyp, ref, ref2 = long_pair
    hyps = [" ".join(hyp), "a short one", " ".join(hyp[:40_000])]
    refs = [[" ".join(ref), "a short two", " ".join(ref2)], [" ".join(ref2), None, " ".join(ref)]]
    expected = py.string_stats(hyps, refs, 4, tok)
    got = cy.string_stats(hyps, refs, 4, tok) if mask is None else cy._string_stats_masked(hyps, refs, 4, tok, False, 1, mask)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mask", [None, FEW_BITS])
def test_long_token_segments(long_pair, mask):
    hyp, ref, ref2 = long_pair
    vocab = {}
    ids = [[vocab.setdefault(w, len(vocab) * 7919) for w in seq] for seq in (hyp, ref, ref2)]
    for h, rs in (([hyp, ref2], [[ref, ref2], [ref2, hyp]]), ([ids[0], ids[2]], [[ids[1], ids[2]], [ids[2], ids[0]]])):
        refs_by_seg = [list(r) for r in zip(*rs)]
        expected = py.token_stats(h, refs_by_seg, 4)
        got = (cy.token_stats(h, refs_by_seg, 4) if mask is None
               else cy._token_stats_masked(h, refs_by_seg, 4, 1, mask))
        np.testing.assert_array_equal(got, expected)
