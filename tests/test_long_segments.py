"""Segments long enough for the core's chunked table growth (more than 2**15 tokens or
n-grams: the tables start small and are rehashed as distinct entries arrive) give the same
statistics as the pure-Python twin: str texts (13a, char), pre-split str tokens and int ids,
with the full hash and with a hash that keeps few bits (long probe chains across rehashes)."""

import random

import numpy as np
import pytest

from rapidbleu._core.bleu import bleu_stats_py as py

try:
    from rapidbleu._core.bleu import bleu_stats_cy as cy
except ImportError as exc:  # pure-Python install
    pytest.skip(f"rapidbleu._core.bleu.bleu_stats_cy is not built ({exc})", allow_module_level=True)

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
    got = (
        cy.string_stats(hyps, refs, 4, tok)
        if mask is None
        else cy._string_stats_masked(hyps, refs, 4, tok, False, 1, mask)
    )
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mask", [None, FEW_BITS])
def test_long_token_segments(long_pair, mask):
    hyp, ref, ref2 = long_pair
    vocab = {}
    ids = [[vocab.setdefault(w, len(vocab) * 7919) for w in seq] for seq in (hyp, ref, ref2)]
    for h, rs in (([hyp, ref2], [[ref, ref2], [ref2, hyp]]), ([ids[0], ids[2]], [[ids[1], ids[2]], [ids[2], ids[0]]])):
        refs_by_seg = [list(r) for r in zip(*rs, strict=False)]
        expected = py.token_stats(h, refs_by_seg, 4)
        got = cy.token_stats(h, refs_by_seg, 4) if mask is None else cy._token_stats_masked(h, refs_by_seg, 4, 1, mask)
        np.testing.assert_array_equal(got, expected)


# The long path counts one order at a time (bleu_ngram_long.h), the references in groups when
# they are together more than twice as long as the hypothesis (the first hypothesis here, and
# the shorter ones below): a reference that shares nothing with the hypothesis stops at
# order 1, one that shares only tokens at order 2, an empty or a short one has no n-grams of
# the longer orders; tables are sized from an estimate of the distinct n-grams when the last
# order had many (mostly distinct text) and grown from the last order's count otherwise
# (repetitive text); with a test mask they grow from 16 slots.
@pytest.fixture(scope="module")
def long_cases():
    rng = random.Random(11)
    vocab = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyzéß日") for _ in range(rng.randint(1, 9))) for _ in range(20_000)
    ]
    distinct = [rng.choice(vocab) for _ in range(60_000)]
    period = [rng.choice(vocab[:300]) for _ in range(700)]
    repetitive = (period * 90)[:60_000]
    stranger = ["zz" + w for w in distinct[:5_000]]  # no token in common with the hypothesis
    shuffled = list(distinct[:20_000])
    rng.shuffle(shuffled)  # tokens in common, few longer n-grams
    return distinct, repetitive, stranger, shuffled


@pytest.mark.parametrize("order", [1, 2, 6])
@pytest.mark.parametrize("mask", [None, FEW_BITS])
@pytest.mark.parametrize("which", ["distinct", "repetitive"])
def test_long_orders_and_many_references(long_cases, order, mask, which):
    distinct, repetitive, stranger, shuffled = long_cases
    hyp = distinct if which == "distinct" else repetitive
    edited = [w for k, w in enumerate(hyp) if k % 9] + ["tail"]
    refs_words = [edited, stranger, shuffled, [], hyp[100:103], hyp, repetitive[::-1]]
    hyps = [" ".join(hyp), "x y z", " ".join(hyp[:20_000])]
    refs = [
        [" ".join(r) for r in [refs_words[k], ["x"], refs_words[(k + 3) % len(refs_words)]]]
        for k in range(len(refs_words))
    ]
    expected = py.string_stats(hyps, refs, order, "13a")
    got = (
        cy.string_stats(hyps, refs, order, "13a")
        if mask is None
        else cy._string_stats_masked(hyps, refs, order, "13a", False, 1, mask)
    )
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mask", [None, FEW_BITS])
def test_long_int_and_char_orders(long_cases, mask):
    distinct, _repetitive, stranger, shuffled = long_cases
    vocab = {}
    ids = [[vocab.setdefault(w, len(vocab) * 7919 - 2**40) for w in seq] for seq in (distinct, shuffled, stranger)]
    # references at most twice the hypothesis's length: one group; more: several groups,
    # the hypothesis's orders recounted for each
    for h, rs in (
        ([ids[0]], [[ids[1], ids[2], ids[0][5:]]]),
        ([ids[0][:20_000]], [[ids[1], ids[0], ids[2], ids[1][::-1]]]),
    ):
        for order in (3, 5):
            expected = py.token_stats(h, rs, order)
            got = cy.token_stats(h, rs, order) if mask is None else cy._token_stats_masked(h, rs, order, 1, mask)
            np.testing.assert_array_equal(got, expected)
    for hyp in ("".join(distinct[:8_000]), "".join(distinct[:3_000])):
        refs = [["".join(shuffled[:6_000])], ["".join(distinct[:8_000:2])], ["".join(stranger[:3_000])]]
        expected = py.string_stats([hyp], refs, 5, "char")
        got = (
            cy.string_stats([hyp], refs, 5, "char")
            if mask is None
            else cy._string_stats_masked([hyp], refs, 5, "char", False, 1, mask)
        )
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("mask", [None, FEW_BITS])
def test_long_many_distinct_tokens(mask):
    """More distinct tokens than the first token table takes (it grows while the hypothesis's
    ids are given), as ints and as 13a words."""
    rng = random.Random(5)
    hyp = [rng.randrange(60_000) for _ in range(90_000)]
    refs = [[*hyp[5:50000], 7, 7, 7, *hyp[:40000]], [rng.randrange(80_000) for _ in range(30_000)]]
    expected = py.token_stats([hyp], [refs], 4)
    got = cy.token_stats([hyp], [refs], 4) if mask is None else cy._token_stats_masked([hyp], [refs], 4, 1, mask)
    np.testing.assert_array_equal(got, expected)
    h, rs = " ".join(f"w{x}" for x in hyp), [[" ".join(f"w{x}" for x in r)] for r in refs]
    expected = py.string_stats([h], rs, 4, "13a")
    got = (
        cy.string_stats([h], rs, 4, "13a")
        if mask is None
        else cy._string_stats_masked([h], rs, 4, "13a", False, 1, mask)
    )
    np.testing.assert_array_equal(got, expected)
