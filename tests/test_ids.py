"""Token-id input, batched sentence scores, self-BLEU and pairwise matrices.

Every score is compared for float equality (``==``, not approx) with sacreBLEU 2.6.0 or NLTK.
Compiled-kernel comparisons skip when ``rapidbleu._core.bleu.bleu_sets_cy`` is not built.
"""

import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core.bleu import bleu_scores_py as _bleu_scores_py
from rapidbleu._core.bleu import bleu_sets_py as _bleu_sets_py
from rapidbleu._core.bleu import bleu_stats_py as _bleu_stats_py
from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch
from rapidbleu.ids import corpus_bleu_ids, stats_ids
from rapidbleu.tokenizers import get_tokenizer

# Every test here runs once per backend (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")

HAVE_CY = importlib.util.find_spec("rapidbleu._core.bleu.bleu_sets_cy") is not None
needs_cy = pytest.mark.skipif(not HAVE_CY, reason="rapidbleu._core.bleu.bleu_sets_cy not built")
DATA = Path(__file__).resolve().parent / "data" / "wmt23"
SM = SmoothingFunction()


def s(ids):
    return " ".join(map(str, ids))


def flat(seqs):
    """A list of id sequences as the sets kernels take it: ``(flat int64 ids, int64 lengths)``."""
    lens = np.array([len(x) for x in seqs], dtype=np.int64)
    ids = np.concatenate([np.asarray(x, dtype=np.int64) for x in seqs]) if seqs else np.zeros(0, np.int64)
    return ids.astype(np.int64), lens


def rand_seqs(rng, n, vocab=8, max_len=14, min_len=0):
    return [rng.integers(0, vocab, size=rng.integers(min_len, max_len + 1)).tolist() for _ in range(n)]


def read(name, n=None):
    with open(DATA / name, encoding="utf-8") as fh:
        lines = [line.rstrip("\n") for line in fh]
    return lines[:n] if n else lines


class Tensorish:
    """A CPU 'tensor': exposes only __array__ (as torch tensors do)."""

    def __init__(self, data, dtype=np.int64):
        self._a = np.asarray(data, dtype=dtype)

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)


# ------------------------------------------------------------------- ids == string path


@pytest.mark.parametrize("order", [1, 2, 4, 6])
def test_stats_ids_equal_string_path(order):
    rng = np.random.default_rng(order)
    hyps = rand_seqs(rng, 120, vocab=6)
    r1, r2 = rand_seqs(rng, 120, vocab=6), rand_seqs(rng, 120, vocab=6)
    got = stats_ids(hyps, [r1, r2], max_ngram_order=order)
    bleu = rapidbleu.BLEU(tokenize="none", max_ngram_order=order, force=True)
    want = bleu.corpus_statistics([s(h) for h in hyps], [[s(r) for r in r1], [s(r) for r in r2]])
    assert got.dtype == np.int64
    assert got.shape == (120, 2 + 2 * order)
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("method", "value", "eff"), [("exp", None, False), ("floor", 0.2, True), ("add-k", 2, False), ("none", None, False)]
)
def test_corpus_bleu_ids_equal_sacrebleu(method, value, eff):
    rng = np.random.default_rng(7)
    hyps = rand_seqs(rng, 200, vocab=10, max_len=20)
    refs = rand_seqs(rng, 200, vocab=10, max_len=20)
    got = corpus_bleu_ids(hyps, refs, smooth_method=method, smooth_value=value, effective_order=eff)
    want = sacrebleu.corpus_bleu(
        [s(h) for h in hyps],
        [[s(r) for r in refs]],
        smooth_method=method,
        smooth_value=value,
        tokenize="none",
        use_effective_order=eff,
    )
    assert got.score == want.score
    assert got.counts == want.counts
    assert got.totals == want.totals
    assert got.sys_len == want.sys_len
    assert got.ref_len == want.ref_len


def test_corpus_bleu_ids_multi_ref_with_none():
    hyps = [[1, 2, 3, 4], [5, 6, 7]]
    r1 = [[1, 2, 3], None]
    r2 = [[1, 2, 3, 4, 5], [5, 6]]
    got = corpus_bleu_ids(hyps, [r1, r2])
    want = sacrebleu.corpus_bleu(["1 2 3 4", "5 6 7"], [["1 2 3", None], ["1 2 3 4 5", "5 6"]], tokenize="none")
    assert got.score == want.score


# ------------------------------------------------------------------- padded arrays, eos, __array__


def test_padded_2d_equals_lists_and_pad_anywhere_removed():
    hyps = [[5, 6, 7, 8], [5, 9], [7]]
    refs = [[5, 6, 7], [5, 9, 9, 1], [7, 7]]
    H = np.full((3, 6), 0, dtype=np.int32)
    R = np.full((3, 6), 0, dtype=np.int16)
    for i, h in enumerate(hyps):
        H[i, : len(h)] = h
    for i, r in enumerate(refs):
        R[i, 2 : 2 + len(r)] = r  # left padding
    want = stats_ids(hyps, refs)
    assert np.array_equal(stats_ids(H, R, pad_id=0), want)
    # pad inside a row is removed too
    assert np.array_equal(stats_ids([[5, 0, 6, 7, 8], [5, 9], [7]], refs, pad_id=0), want)
    # without pad_id the pads are tokens
    assert not np.array_equal(stats_ids(H, R), want)


def test_eos_truncates_and_is_excluded():
    eos = 2
    hyps = [[5, 6, eos, 9, 9], [7, 8, 9]]
    refs = [[5, 6, 1, eos], [eos, 7, 8]]
    got = stats_ids(hyps, refs, eos_id=eos)
    # an eos before any content (a decoder-start token) does not cut
    want = stats_ids([[5, 6], [7, 8, 9]], [[5, 6, 1], [7, 8]])
    assert np.array_equal(got, want)
    # eos first, then pad: pad == eos (GPT-2 style) with right padding
    H = np.array([[5, 6, 3, 3], [7, 3, 3, 3]])
    assert np.array_equal(stats_ids(H, H, pad_id=3, eos_id=3), stats_ids([[5, 6], [7]], [[5, 6], [7]]))


def test_array_protocol_objects_and_dtypes():
    hyps = [[1, 2, 3], [4, 5]]
    refs = [[1, 2, 3, 4], [4, 5, 6]]
    want = stats_ids(hyps, refs)
    assert np.array_equal(stats_ids([Tensorish(h) for h in hyps], [Tensorish(r, np.uint8) for r in refs]), want)
    assert np.array_equal(
        stats_ids(Tensorish([[1, 2, 3], [4, 5, -1]]), Tensorish([[1, 2, 3, 4], [4, 5, 6, -1]]), pad_id=-1), want
    )
    assert np.array_equal(stats_ids([np.array(h, dtype=np.int8) for h in hyps], refs), want)
    assert np.array_equal(stats_ids(tuple(tuple(h) for h in hyps), [refs]), want)  # explicit list of streams


def test_negative_ids_allowed():
    got = sentence_bleu_batch([[-5, -6, -7, 2**62]], [[-5, -6, -7, 2**62]])
    assert (
        got[0]
        == sacrebleu.sentence_bleu(
            "-5 -6 -7 4611686018427387904", ["-5 -6 -7 4611686018427387904"], tokenize="none"
        ).score
    )


@pytest.mark.parametrize(
    ("hyps", "refs", "exc", "match"),
    [
        ([[1, 2]], [[1], [2]], ValueError, "reference stream 0 .* 2 rows but there is 1 hypothesis"),
        ([[1, 2], [3], [4]], [[[1], [3], [4]], [[1]]], ValueError, "reference stream 1 .* 1 row but"),
        (np.zeros((2, 3), dtype=np.float32), [[1], [2]], TypeError, "dtype float32"),
        ([[1.0, 2.0]], [[1]], TypeError, "integers"),
        ([[True, False]], [[1]], TypeError, "integers"),
        (np.zeros((2, 3, 4), dtype=np.int64), [[1], [2]], ValueError, "3-D"),
        ([[1, 2]], np.zeros((1, 2, 2), dtype=np.int64), ValueError, "3-D"),
        ([[1, 2]], [1, 2], TypeError, "flat sequence"),
        ([1, 2], [[1, 2]], TypeError, "single integer"),
        (["1 2"], [[1]], TypeError, "str"),
        ([], [], ValueError, "empty|cannot tell"),
        ([[1, 2]], [[]], ValueError, "cannot tell"),
        ([None], [[1]], ValueError, "None"),
        (np.array([[2**63]], dtype=np.uint64), [[1]], OverflowError, "int64"),
        ([[2**64]], [[1]], OverflowError, "int64"),
    ],
)
def test_errors(hyps, refs, exc, match):
    with pytest.raises(exc, match=match):
        stats_ids(hyps, refs)


def test_error_segment_without_reference_and_bad_specials():
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        stats_ids([[1], [2]], [[[1], None], [[1], None]])
    with pytest.raises(TypeError, match="pad_id"):
        stats_ids([[1]], [[1]], pad_id=1.0)
    with pytest.raises(ValueError, match="smooth_method"):
        corpus_bleu_ids([[1]], [[1]], smooth_method="nope")


# ------------------------------------------------------------------- sentence_bleu_batch


def test_sentence_batch_strings_equal_sacrebleu_and_single_sentence_path():
    hyps = read("generaltest2023.de-en.hyp.AIRC.en", 100)
    refs = read("generaltest2023.de-en.ref.refA.en", 100)
    for method, value in (("exp", None), ("floor", None), ("add-k", None), ("none", None)):
        got = sentence_bleu_batch(hyps, [refs], smooth_method=method, smooth_value=value)
        assert got.dtype == np.float64
        assert got.shape == (100,)
        one = rapidbleu.BLEU(smooth_method=method, effective_order=True)
        for i in range(0, 100, 7 if method != "exp" else 1):
            want = sacrebleu.sentence_bleu(hyps[i], [refs[i]], smooth_method=method, smooth_value=value).score
            assert got[i] == want, (method, i)
            assert got[i] == one.sentence_score(hyps[i], [refs[i]]).score
    # a bare stream of strings is one reference each; lowercase passes through
    got = sentence_bleu_batch(hyps[:30], refs[:30], lowercase=True, effective_order=False)
    for i in range(30):
        assert got[i] == sacrebleu.sentence_bleu(hyps[i], [refs[i]], lowercase=True, use_effective_order=False).score


def test_sentence_batch_ids_equal_sacrebleu_on_id_strings():
    rng = np.random.default_rng(3)
    hyps = rand_seqs(rng, 300, vocab=7, max_len=12)
    r1, r2 = rand_seqs(rng, 300, vocab=7, max_len=12), rand_seqs(rng, 300, vocab=7, max_len=12)
    got = sentence_bleu_batch(hyps, [r1, r2], workers=2)
    for i in range(300):
        want = sacrebleu.sentence_bleu(s(hyps[i]), [s(r1[i]), s(r2[i])], tokenize="none").score
        assert got[i] == want


def test_sentence_batch_nltk_style_equals_nltk():
    rng = np.random.default_rng(4)
    hyps = rand_seqs(rng, 150, vocab=6, max_len=10)
    refs = rand_seqs(rng, 150, vocab=6, max_len=10)
    for weights, fn in (((0.25,) * 4, SM.method1), ((1 / 3,) * 3, SM.method1), ((0.5, 0.5), SM.method0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sentence_bleu_batch(hyps, refs, weights=weights, smoothing_function=fn)
            for i in range(150):
                want = nltk_sentence_bleu([refs[i]], hyps[i], weights, smoothing_function=fn)
                assert got[i] == want, (weights, i)


# ------------------------------------------------------------------- self-BLEU


def naive_self_stats(seqs, order):
    n = len(seqs)
    return _bleu_stats_py.token_stats(seqs, [[seqs[j] for j in range(n) if j != i] for i in range(n)], order)


def kernels():
    mods = [_bleu_sets_py]
    if HAVE_CY:
        from rapidbleu._core.bleu import bleu_sets_cy as _bleu_sets_cy

        mods.append(_bleu_sets_cy)
    return mods


seq_lists = st.lists(st.lists(st.integers(-2, 5), max_size=9), min_size=2, max_size=12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seqs=seq_lists, order=st.integers(1, 5))
def test_self_stats_property_equals_naive(seqs, order):
    want = naive_self_stats(seqs, order)
    for mod in kernels():
        got = mod.self_stats(*flat(seqs), order, 2)
        assert np.array_equal(got, want), mod.NAME


@settings(max_examples=60, deadline=None)
@given(seqs=st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=8), min_size=2, max_size=8))
def test_self_bleu_nltk_style_property(seqs):
    got = self_bleu(seqs)
    for i in range(len(seqs)):
        others = [x for j, x in enumerate(seqs) if j != i]
        assert got[i] == nltk_sentence_bleu(others, seqs[i], (0.25,) * 4, smoothing_function=SM.method1)


def test_self_bleu_texygen_trigram_and_sacrebleu_style():
    sents = read("generaltest2023.de-en.hyp.AIRC.en", 60)
    toks = [x.split() for x in sents]
    got = self_bleu(toks, weights=(1 / 3,) * 3)  # Texygen's default: trigram, method1
    for i in range(0, 60, 5):
        others = [t for j, t in enumerate(toks) if j != i]
        assert got[i] == nltk_sentence_bleu(others, toks[i], (1 / 3,) * 3, smoothing_function=SM.method1)
    sac = self_bleu(sents, style="sacrebleu")
    for i in range(0, 60, 5):
        others = [t for j, t in enumerate(sents) if j != i]
        assert sac[i] == sacrebleu.sentence_bleu(sents[i], others).score
    assert np.array_equal(self_bleu(sents, style="sacrebleu", workers=2), sac)


def test_self_bleu_duplicates_and_errors():
    seqs = [[1, 2, 3], [1, 2, 3], [4, 5], [1, 2, 3, 1, 2, 3]]
    got = self_bleu(seqs, style="sacrebleu")
    for i in range(4):
        others = [s(x) for j, x in enumerate(seqs) if j != i]
        assert got[i] == sacrebleu.sentence_bleu(s(seqs[i]), others, tokenize="none").score
    with pytest.raises(ValueError, match="at least 2"):
        self_bleu([[1, 2]])
    with pytest.raises(ValueError, match="style"):
        self_bleu(seqs, style="bleu")


def test_self_bleu_matches_fast_bleu_closely():
    fast_bleu = pytest.importorskip("fast_bleu")
    rng = np.random.default_rng(5)
    seqs = rand_seqs(rng, 80, vocab=9, min_len=1)
    fb = np.array(fast_bleu.SelfBLEU(seqs, {4: (0.25,) * 4}).get_score()[4])
    # fast-bleu computes in long double with float32 weights: equal to ~1 ulp, not bit-exact
    assert np.allclose(fb, self_bleu(seqs), rtol=1e-12, atol=0)


# ------------------------------------------------------------------- pairwise


def test_pairwise_equals_pair_loop_and_diagonal():
    rng = np.random.default_rng(6)
    seqs = [*rand_seqs(rng, 30, vocab=6, max_len=10), []]
    got = pairwise_bleu(seqs, workers=2)
    assert got.shape == (31, 31)
    assert got.dtype == np.float64
    for i in range(31):
        for j in range(31):
            assert got[i, j] == sacrebleu.sentence_bleu(s(seqs[i]), [s(seqs[j])], tokenize="none").score
    assert got[0, 0] == 100.00000000000004
    assert got[30, 30] == 0.0
    d = pairwise_bleu(seqs, diagonal=np.nan)
    assert np.isnan(np.diag(d)).all()
    assert np.array_equal(d[~np.eye(31, dtype=bool)], got[~np.eye(31, dtype=bool)])
    nl = pairwise_bleu(seqs, style="nltk", weights=(0.5, 0.5))
    for i in range(0, 31, 3):
        for j in range(31):
            assert nl[i, j] == nltk_sentence_bleu([seqs[j]], seqs[i], (0.5, 0.5), smoothing_function=SM.method1)


@settings(max_examples=50, deadline=None)
@given(
    seqs=st.lists(st.lists(st.integers(0, 4), max_size=8), min_size=1, max_size=7),
    order=st.integers(1, 5),
    method=st.sampled_from(["exp", "floor", "add-k", "none"]),
)
def test_pairwise_property(seqs, order, method):
    n = len(seqs)
    want_st = _bleu_stats_py.token_stats(
        [seqs[i] for i in range(n) for _ in range(n)], [[seqs[j]] for _ in range(n) for j in range(n)], order
    ).reshape(n, n, -1)
    want = _bleu_scores_py.sacre_scores(want_st.reshape(n * n, -1), order, method, None, True).reshape(n, n)
    for mod in kernels():
        assert np.array_equal(mod.pairwise_stats(*flat(seqs), order, 1), want_st)
        assert np.array_equal(mod.pairwise_scores(*flat(seqs), order, method, None, True, 2), want)


@settings(max_examples=50, deadline=None)
@given(
    seqs=st.lists(st.lists(st.integers(0, 4), max_size=8), min_size=1, max_size=8),
    order=st.integers(1, 5),
    method=st.sampled_from(["exp", "floor", "add-k", "none"]),
    data=st.data(),
)
def test_cross_scores_of_a_split_stream(seqs, order, method, data):
    """``hypotheses=k``: the first k sentences against the others, only those pairs: the
    block ``[:k, k:]`` of the whole matrix, bit for bit in both twins."""
    k = data.draw(st.integers(0, len(seqs)))
    whole = _bleu_sets_py.pairwise_scores(*flat(seqs), order, method, None, True)
    for mod in kernels():
        got = mod.pairwise_scores(*flat(seqs), order, method, None, True, 2, hypotheses=k)
        assert got.shape == (k, len(seqs) - k)
        assert np.array_equal(got, whole[:k, k:])


@pytest.mark.parametrize("bad", [-1, 4, 1.0, None])
def test_split_outside_the_stream_is_refused(bad):
    for mod in kernels():
        if bad is None:  # (None: the whole set against itself)
            assert mod.pairwise_scores(*flat([[1], [2], [3]]), 4, "exp", None, True).shape == (3, 3)
            continue
        with pytest.raises(ValueError, match=r"hypotheses must be an int from 0 to the 3 sentences"):
            mod.pairwise_scores(*flat([[1], [2], [3]]), 4, "exp", None, True, 1, hypotheses=bad)


@settings(max_examples=30, deadline=None)
@given(
    seqs=st.lists(st.lists(st.integers(0, 4), max_size=8), min_size=1, max_size=9),
    order=st.integers(1, 5),
    rows=st.integers(1, 4),
)
def test_pairwise_blocks_equal_the_whole_table(seqs, order, rows):
    """A block of rows at a time (both twins) gives the rows of the whole pairwise table."""
    want = _bleu_sets_py.pairwise_stats(*flat(seqs), order, 1)
    for mod in kernels():
        blocks = list(mod.pairwise_stats_blocks(*flat(seqs), order, 2, block_rows=rows))
        assert [start for start, _ in blocks] == list(range(0, len(seqs), rows))
        assert np.array_equal(np.concatenate([b for _, b in blocks]), want)
    with pytest.raises(ValueError, match="block_rows"):
        next(_bleu_sets_py.pairwise_stats_blocks(*flat(seqs), order, 1, block_rows=0))


def test_pairwise_nltk_memory_is_the_output_plus_a_block(backend):
    """NLTK-style pairwise scores on 2,000 sentences: the whole (n, n, 2 + 2N) int64 table would
    be 320 MB; scored a block at a time the call's peak stays near the 32 MB output plus one
    16 MB block and its scoring (measured in a child process: VmHWM after the call minus before)."""
    code = (
        "import numpy as np, rapidbleu.batch as B\n"
        "rng = np.random.default_rng(1)\n"
        "seqs = [rng.integers(0, 40, rng.integers(3, 25)).tolist() for _ in range(2000)]\n"
        "B.pairwise_bleu(seqs[:20], style='nltk')\n"
        "def hwm():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM'): return int(line.split()[1]) * 1024\n"
        "before = hwm()\n"
        "out = B.pairwise_bleu(seqs, style='nltk')\n"
        "print((hwm() - before) / 2**20, out.shape)\n"
    )
    if backend == "python":
        pytest.skip("4 million pairs: the compiled kernels only (the Python twin's blocks are tested above)")
    env = {**os.environ, "RAPIDBLEU_BACKEND": backend}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, env=env)
    assert res.returncode == 0, res.stderr
    grown_mb = float(res.stdout.split()[0])
    assert grown_mb < 120, f"pairwise NLTK scoring grew the peak by {grown_mb:.0f} MB"


def test_pairwise_strings_wmt():
    cands = read("generaltest2023.de-en.hyp.AIRC.en", 25)
    got = pairwise_bleu(cands)
    for i in range(0, 25, 4):
        for j in range(25):
            assert got[i, j] == sacrebleu.sentence_bleu(cands[i], [cands[j]]).score


# ------------------------------------------------------------------- compiled kernels


@needs_cy
def test_hash_collisions_never_match():
    from rapidbleu._core.bleu import bleu_sets_cy as _bleu_sets_cy

    rng = np.random.default_rng(8)
    seqs = [*rand_seqs(rng, 40, vocab=30), [2**62, -(2**62), 1, 2**32 + 1]]
    want_self = _bleu_sets_py.self_stats(*flat(seqs), 4)
    want_pair = _bleu_sets_py.pairwise_stats(*flat(seqs), 4)
    # mask 0: every key on one probe chain
    assert np.array_equal(_bleu_sets_cy._self_stats_masked(*flat(seqs), 4, 1, 0), want_self)
    assert np.array_equal(_bleu_sets_cy._pairwise_stats_masked(*flat(seqs), 4, 2, 0), want_pair)


@needs_cy
def test_workers_give_identical_results():
    from rapidbleu._core.bleu import bleu_sets_cy as _bleu_sets_cy

    rng = np.random.default_rng(10)
    seqs = rand_seqs(rng, 500, vocab=50, max_len=30)
    a = _bleu_sets_cy.self_stats(*flat(seqs), 4, 1)
    assert np.array_equal(a, _bleu_sets_cy.self_stats(*flat(seqs), 4, 2))
    assert np.array_equal(a, _bleu_sets_py.self_stats(*flat(seqs), 4))
    p1 = _bleu_sets_cy.pairwise_scores(*flat(seqs[:100]), 4, "exp", None, True, 1)
    assert np.array_equal(p1, _bleu_sets_cy.pairwise_scores(*flat(seqs[:100]), 4, "exp", None, True, -1))


# ------------------------------------------------------------------- NLTK-style, every method

NLTK_SM = [SmoothingFunction(), SmoothingFunction(epsilon=0.0, alpha=3, k=2), SmoothingFunction(epsilon=0.01, k=7)]
NLTK_WEIGHTS = [
    (0.25,) * 4,
    (1 / 3,) * 3,
    (0.5, 0.5),
    (1.0,),
    (0.1, 0.2, 0.3, 0.15, 0.25),
    (0.4, 0.3, 0.2, 0.1, 0.0, 0.0),
]


def _nltk_or_error(refs, hyp, weights, fn):
    try:
        return nltk_sentence_bleu(refs, hyp, weights, smoothing_function=fn)
    except (AssertionError, IndexError) as exc:  # method 6
        return exc


def _ours(fn_rb, fn_nltk, rb_object):
    return fn_rb if rb_object else fn_nltk


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seqs=st.lists(st.lists(st.integers(0, 3), max_size=9), min_size=2, max_size=7),
    weights=st.sampled_from(NLTK_WEIGHTS),
    method=st.integers(0, 7),
    sm=st.sampled_from(range(len(NLTK_SM))),
    rb_object=st.booleans(),
)
def test_self_bleu_every_method_equals_naive_nltk(seqs, weights, method, sm, rb_object):
    from rapidbleu import nltk as rbn

    nf = getattr(NLTK_SM[sm], f"method{method}")
    s = NLTK_SM[sm]
    rf = getattr(rbn.SmoothingFunction(s.epsilon, s.alpha, s.k), f"method{method}") if rb_object else nf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [
            _nltk_or_error([x for j, x in enumerate(seqs) if j != i], seqs[i], weights, nf) for i in range(len(seqs))
        ]
        errors = [w for w in want if isinstance(w, Exception)]
        if errors:
            with pytest.raises(type(errors[0])):
                self_bleu(seqs, weights=weights, smoothing_function=rf)
            return
        got = self_bleu(seqs, weights=weights, smoothing_function=rf, workers=2)
    assert got.dtype == np.float64
    assert got.shape == (len(seqs),)
    assert got.tolist() == want


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seqs=st.lists(st.lists(st.integers(0, 3), max_size=8), min_size=1, max_size=6),
    weights=st.sampled_from(NLTK_WEIGHTS),
    method=st.integers(0, 7),
    sm=st.sampled_from(range(len(NLTK_SM))),
)
def test_pairwise_every_method_equals_naive_nltk(seqs, weights, method, sm):
    nf = getattr(NLTK_SM[sm], f"method{method}")
    n = len(seqs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [[_nltk_or_error([seqs[j]], seqs[i], weights, nf) for j in range(n)] for i in range(n)]
        errors = [w for row in want for w in row if isinstance(w, Exception)]
        if errors:
            with pytest.raises(type(errors[0])):
                pairwise_bleu(seqs, style="nltk", weights=weights, smoothing_function=nf)
            return
        got = pairwise_bleu(seqs, style="nltk", weights=weights, smoothing_function=nf, workers=2)
    assert got.shape == (n, n)
    assert got.tolist() == want


def test_nltk_style_methods_on_real_text():
    """Every method on WMT sentences (longer, more matches than the property tests); method 6
    refuses some of these sentences (no trigram match), as NLTK does: the properties cover it."""
    toks = [x.split() for x in read("generaltest2023.de-en.hyp.AIRC.en", 40)]
    for method in (0, 1, 2, 3, 4, 5, 7):
        nf = getattr(SM, f"method{method}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = self_bleu(toks, weights=(0.25,) * 4, smoothing_function=nf)
            pw = pairwise_bleu(toks[:12], style="nltk", smoothing_function=nf)
            for i in range(0, 40, 7):
                others = [t for j, t in enumerate(toks) if j != i]
                assert got[i] == nltk_sentence_bleu(others, toks[i], smoothing_function=nf), (method, i)
            for i in range(0, 12, 5):
                for j in range(12):
                    assert pw[i, j] == nltk_sentence_bleu([toks[j]], toks[i], smoothing_function=nf)


def test_nltk_style_custom_callable_refused_without_tokens():
    def custom(p_n, references, hypothesis, hyp_len):
        return p_n

    seqs = [[1, 2, 3], [1, 2], [3, 2, 1]]
    with pytest.raises(TypeError, match="statistics do not hold"):
        self_bleu(seqs, smoothing_function=custom)
    with pytest.raises(TypeError, match="statistics do not hold"):
        pairwise_bleu(seqs, style="nltk", smoothing_function=custom)
    # sentence_bleu_batch has the tokens: callables work there
    got = sentence_bleu_batch(seqs, seqs[::-1], smoothing_function=custom)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert got.tolist() == [
            nltk_sentence_bleu([r], h, smoothing_function=custom) for h, r in zip(seqs, seqs[::-1], strict=False)
        ]


def test_method5_stats_are_five_orders(monkeypatch):
    """Methods 5 and 7 read the 5-gram precision: the kernels are asked for 5 orders."""
    orders = []
    real = _backend.bleu_sets.self_stats

    def spy(ids, lens, order, workers=1):
        orders.append(order)
        return real(ids, lens, order, workers)

    monkeypatch.setattr(_backend.bleu_sets, "self_stats", spy)
    seqs = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7], [2, 3]]
    self_bleu(seqs, weights=(0.5, 0.5), smoothing_function=SM.method5)
    self_bleu(seqs, weights=(0.5, 0.5), smoothing_function=SM.method1)
    self_bleu(seqs, max_ngram_order=6, smoothing_function=SM.method7)
    assert orders == [5, 2, 6]


def test_nltk_style_batch_with_several_text_reference_streams():
    """K streams of reference strings (sacreBLEU's layout) in NLTK style: each segment gets
    its K references, as a loop of NLTK sentence_bleu would (regression: the streams were
    read as one stream of token lists)."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    from rapidbleu.batch import sentence_bleu_batch

    m1 = SmoothingFunction().method1
    hyps = ["the cat sat on the mat", "a dog ran home", "x y"]
    refs = [["the cat sat on the mat", "a dog ran", "x y z"], ["cat sat", "a dog ran home", "y"]]
    expected = [
        sentence_bleu([refs[0][i].split(), refs[1][i].split()], hyps[i].split(), smoothing_function=m1)
        for i in range(3)
    ]
    got = sentence_bleu_batch(hyps, refs, smoothing_function=m1, tokenize="none")
    assert got.tolist() == expected
    tok_refs = [[r.split() for r in stream] for stream in refs]
    tok_hyps = [h.split() for h in hyps]
    assert sentence_bleu_batch(tok_hyps, tok_refs, smoothing_function=m1).tolist() == expected
    assert sentence_bleu_batch(tok_hyps, tok_refs[0], smoothing_function=m1).tolist() == [
        sentence_bleu([tok_refs[0][i]], tok_hyps[i], smoothing_function=m1) for i in range(3)
    ]


# -- string-token input whose first item is empty (the form is read from the first item that tells)


def test_token_lists_with_an_empty_first_item():
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch

    hyps = [[], ["a", "b", "c"], ["a", "x"]]
    refs = [["x"], ["a", "b", "c"], ["a", "x", "y"]]
    want = [
        sacrebleu.sentence_bleu(" ".join(h), [" ".join(r)], tokenize="none").score
        for h, r in zip(hyps, refs, strict=False)
    ]
    assert sentence_bleu_batch(hyps, refs).tolist() == want
    refs_empty_first = [[], ["a", "b", "c"], ["a", "x", "y"]]
    want = [
        sacrebleu.sentence_bleu(" ".join(h), [" ".join(r)], tokenize="none").score
        for h, r in zip(hyps[1:], refs_empty_first[1:], strict=False)
    ]
    assert sentence_bleu_batch([*hyps[1:], []], [*refs_empty_first[1:], []]).tolist()[:2] == want
    sm = SmoothingFunction().method1
    got = sentence_bleu_batch([["x"], *hyps[1:]], refs_empty_first, weights=(0.5, 0.5), smoothing_function=sm)
    assert got.tolist() == [
        sentence_bleu([r], h, (0.5, 0.5), smoothing_function=sm)
        for h, r in zip([["x"], *hyps[1:]], refs_empty_first, strict=False)
    ]
    sents = [[], ["a", "b"], ["a", "b", "c"]]
    assert self_bleu(sents).tolist() == [
        sentence_bleu([s for j, s in enumerate(sents) if j != i], sents[i], smoothing_function=sm) for i in range(3)
    ]
    assert pairwise_bleu(sents).tolist() == [
        [sacrebleu.sentence_bleu(" ".join(a), [" ".join(b)], tokenize="none").score for b in sents] for a in sents
    ]


def test_generator_references_are_read_like_generator_hypotheses():
    from rapidbleu.ids import stats_ids

    want = stats_ids([[1, 2, 3], [4]], [[1, 2, 3], [4, 5]])
    got = stats_ids((h for h in [[1, 2, 3], [4]]), (r for r in [[1, 2, 3], [4, 5]]))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    ("flat_ids", "lens", "message"),
    [
        ([1, 2, 3], [2, 2], r"lens must be >= 0 and add up to len\(flat\) = 3"),
        ([1, 2, 3], [4, -1], r"lens must be >= 0 and add up to len\(flat\) = 3"),
        ([[1, 2], [3, 4]], [2, 2], "flat and lens must be 1-D"),
    ],
)
def test_sets_kernels_refuse_bad_flat_streams(flat_ids, lens, message):
    """Both twins check the flat stream with the one rule (``validate.check_flat_stream``)."""
    for mod in kernels():
        for call in (mod.self_stats, mod.pairwise_stats):
            with pytest.raises(ValueError, match=message):
                call(flat_ids, lens, 4)


def test_first_reference_holding_every_hypothesis_ngram_twice_does_not_corrupt_the_heap(backend):
    """A reference before the last that contains every n-gram id of the hypothesis and then one
    more occurrence made the kernel store one past the end of its list of touched ids (sized
    exactly for the ids): glibc aborted ("free(): invalid size") within a few calls once the
    id count put that store on the next chunk's header (h = 22 distinct tokens, order 4).  Run
    in a child so that a regression fails this test instead of killing the session."""
    import subprocess
    import sys

    code = (
        "import rapidbleu.nltk as rn\n"
        "from rapidbleu.ids import stats_ids\n"
        "for h in range(2, 60):\n"
        "    hyp = list(range(h)); toks = [str(t) for t in hyp]\n"
        "    for _ in range(3):\n"
        "        st = stats_ids([hyp], [[hyp * 2], [hyp]], max_ngram_order=4)\n"
        "        assert st[0].tolist() == [h, h] + [max(0, h - n + 1) for n in range(1, 5)] * 2, st\n"
        "        assert rn.corpus_bleu([[hyp * 2, hyp]], [hyp]) == rn.corpus_bleu([[toks * 2, toks]], [toks])\n"
        "print('ok')\n"
    )
    import os

    env = dict(os.environ, RAPIDBLEU_BACKEND=backend)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, check=False)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])


# ------------------------------------------------------------------- reference layouts


def test_ambiguous_reference_layout_is_refused_nltk_style():
    """NLTK's layout (one list of references per hypothesis) with as many hypotheses as
    references per hypothesis fits sacreBLEU's layout too; it was read as streams and scored
    against the wrong references ([1.0, 0.669] where NLTK gives [1.0, 1.0])."""
    hyps = [[1, 2, 3, 4, 5], [10, 11, 12, 13, 14]]
    refs = [[[1, 2, 3, 4, 5], [1, 2, 3, 4, 6]], [[10, 11, 12, 13, 14], [10, 11, 12, 13, 15]]]
    nltk_scores = [nltk_sentence_bleu(r, h, smoothing_function=SM.method1) for r, h in zip(refs, hyps, strict=True)]
    assert nltk_scores == [1.0, 1.0]
    with pytest.raises(ValueError, match=r"could be read two ways.*reference_layout="):
        sentence_bleu_batch(hyps, refs, smoothing_function=SM.method1)
    got = sentence_bleu_batch(hyps, refs, smoothing_function=SM.method1, reference_layout="per_hypothesis")
    assert got.tolist() == nltk_scores
    streams = sentence_bleu_batch(hyps, refs, smoothing_function=SM.method1, reference_layout="streams")
    want = [nltk_sentence_bleu([refs[0][i], refs[1][i]], hyps[i], smoothing_function=SM.method1) for i in range(2)]
    assert streams.tolist() == want
    # the same shapes as text and as string tokens
    texts = [[" ".join(map(str, r)) for r in rr] for rr in refs]
    text_hyps = [" ".join(map(str, h)) for h in hyps]
    with pytest.raises(ValueError, match="could be read two ways"):
        sentence_bleu_batch(text_hyps, texts, weights=(0.25,) * 4)
    with pytest.raises(ValueError, match="could be read two ways"):
        sentence_bleu_batch(
            [h.split() for h in text_hyps], [[t.split() for t in tt] for tt in texts], weights=(0.5, 0.5)
        )
    # sacreBLEU style keeps sacreBLEU's layout, as documented
    assert sentence_bleu_batch(hyps, refs).tolist() == [
        sacrebleu.sentence_bleu(" ".join(map(str, hyps[i])), [texts[0][i], texts[1][i]], tokenize="none").score
        for i in range(2)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.tuples(
            st.lists(st.integers(0, 5), min_size=1, max_size=8),
            st.lists(st.lists(st.integers(0, 5), max_size=8), min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=6,
    ),
    method=st.sampled_from([0, 1, 2, 4, 7]),
    as_arrays=st.booleans(),
)
def test_per_hypothesis_layout_equals_nltk(data, method, as_arrays):
    """``reference_layout='per_hypothesis'`` is NLTK's list_of_references, any number of
    references per hypothesis (as lists, or as padded-free lists of 1-D arrays)."""
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    fn = getattr(SM, f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [nltk_sentence_bleu(r, h, smoothing_function=fn) for r, h in zip(refs, hyps, strict=True)]
        given_refs = [[np.array(x, dtype=np.int64) for x in r] for r in refs] if as_arrays else refs
        got = sentence_bleu_batch(hyps, given_refs, smoothing_function=fn, reference_layout="per_hypothesis")
    assert got.tolist() == want


def test_reference_layout_errors():
    with pytest.raises(ValueError, match="reference_layout must be one of 'streams', 'per_hypothesis'"):
        sentence_bleu_batch(["a b"], ["a b"], reference_layout="nltk")
    with pytest.raises(ValueError, match="references \\(one list per hypothesis\\) has 1 list but there are 2"):
        sentence_bleu_batch(["a b", "c"], [["a b"]], reference_layout="per_hypothesis")
    with pytest.raises(ValueError, match="needs one list of references per hypothesis"):
        sentence_bleu_batch(["a b", "c"], ["a b", "c"], reference_layout="per_hypothesis")


# Lists of numpy integer scalars (what iterating an array or ``array.tolist()`` of a numpy
# scalar gives) are ids in every entry point, as the arrays themselves are; numpy bool and
# float are refused.
NP_HYPS = [[np.int64(3), np.int32(5), np.int16(7), np.uint8(8)], [np.int64(3), np.int64(5), np.int64(9)], []]
NP_REFS = [[np.int64(3), np.int32(5), np.int64(7), np.int64(8)], [np.uint32(3), np.int64(5)], [np.int64(1)]]


def _ints(seqs):
    return [[int(t) for t in s] for s in seqs]


@pytest.mark.parametrize(
    "call",
    [
        lambda h, r: corpus_bleu_ids(h, [r]).score,
        lambda h, r: stats_ids(h, [r]).tolist(),
        lambda h, r: sentence_bleu_batch(h, [r]).tolist(),
        lambda h, r: sentence_bleu_batch(h, [r], smoothing_function="method1").tolist(),
        lambda h, r: self_bleu(h + r).tolist(),
        lambda h, r: pairwise_bleu(h + r).tolist(),
        lambda h, r: rapidbleu.mbr.aggregate_bleu(h, r).tolist(),
        lambda h, r: rapidbleu.mbr.expected_utility(h, r, metric=rapidbleu.BLEU()).utilities.tolist(),
        lambda h, r: rapidbleu.mbr.expected_utility(h + r, metric=rapidbleu.BLEU()).utilities.tolist(),
        lambda h, r: rapidbleu.rewards.BLEUReward(use_ids=True)(completion_ids=h, reference=r),
        lambda h, r: rapidbleu.rewards.BLEUReward(use_ids=True, style="nltk")(
            completion_ids=h, reference=[[x] for x in r]
        ),
    ],
)
def test_lists_of_numpy_integers_are_ids_everywhere(call):
    import rapidbleu.mbr
    import rapidbleu.rewards  # noqa: F401 -- the entry points of the calls

    want = call(_ints(NP_HYPS), _ints(NP_REFS))
    assert call(NP_HYPS, NP_REFS) == want
    arrays = [np.asarray(s, dtype=np.int64) for s in NP_HYPS], [np.asarray(s, dtype=np.int64) for s in NP_REFS]
    assert call(*arrays) == want


@pytest.mark.parametrize(
    "call",
    [
        lambda h: sentence_bleu_batch(h, [[[1, 2]]]),
        lambda h: self_bleu([*h, [1, 2]]),
        lambda h: rapidbleu.mbr.aggregate_bleu(h, [[1, 2]]),
        lambda h: rapidbleu.mbr.expected_utility(h, [[1, 2]], metric=rapidbleu.BLEU()),
    ],
)
@pytest.mark.parametrize("bad", [np.True_, np.float64(3.0), np.float32(1.0)])
def test_numpy_bool_and_float_are_not_ids(call, bad):
    import rapidbleu.mbr  # noqa: F401 -- the entry point of the calls

    with pytest.raises(TypeError, match=r"(hypotheses|sentences)\[0\]\[1\] is a (bool|float)"):
        call([[np.int64(1), bad]])


def test_nltk_style_splits_text_on_whitespace_everywhere():
    """NLTK style on strings is NLTK's sentence_bleu on ``str.split()`` tokens in the batch
    function, the rewards and the engines alike (the batch function tokenized with 13a);
    ``tokenize=`` names a sacreBLEU tokenizer for all of them."""
    from rapidbleu._core import engines
    from rapidbleu.rewards import BLEUReward

    hyps = ["The cat, sat on the mat.", "A dog barked (loudly)!", "a b c d e"]
    refs = ["The cat sat on the mat .", "a dog barked ( loudly ) !", "a b c d f"]
    kw = {"weights": (0.5, 0.5), "smoothing_function": "method1"}
    m1 = SM.method1
    want = [nltk_sentence_bleu([r.split()], h.split(), (0.5, 0.5), m1) for h, r in zip(hyps, refs, strict=True)]
    assert sentence_bleu_batch(hyps, [refs], **kw).tolist() == want
    assert sentence_bleu_batch(hyps, [[r] for r in refs], reference_layout="per_hypothesis", **kw).tolist() == want
    assert BLEUReward(style="nltk", **kw).scores(hyps, refs) == want
    opts = engines.ScoreOptions(style="nltk", **kw)
    assert engines.partition_sentence_scores(opts, hyps, [refs]).tolist() == want
    # a sacreBLEU tokenizer by name, the same in each
    tok = get_tokenizer("13a")
    want13a = [
        nltk_sentence_bleu([tok(r).split()], tok(h).split(), (0.5, 0.5), m1) for h, r in zip(hyps, refs, strict=True)
    ]
    assert sentence_bleu_batch(hyps, [refs], tokenize="13a", **kw).tolist() == want13a
    assert BLEUReward(style="nltk", tokenize="13a", **kw).scores(hyps, refs) == want13a
    # self-BLEU and the pairwise matrix, NLTK style by default: whitespace tokens too
    assert self_bleu(hyps).tolist() == self_bleu([h.split() for h in hyps]).tolist()
    got = pairwise_bleu(hyps, style="nltk", smoothing_function=m1).tolist()
    assert got == pairwise_bleu([h.split() for h in hyps], style="nltk", smoothing_function=m1).tolist()
    assert self_bleu(hyps, tokenize="13a").tolist() == self_bleu([tok(h).split() for h in hyps]).tolist()
    assert self_bleu(hyps, style="sacrebleu").tolist() == self_bleu(hyps, style="sacrebleu", tokenize="13a").tolist()
    assert pairwise_bleu(hyps).tolist() == pairwise_bleu([tok(h).split() for h in hyps]).tolist()
    # sacreBLEU style keeps sacreBLEU's default tokenizer, 13a
    assert sentence_bleu_batch(hyps, [refs]).tolist() == [
        sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs, strict=True)
    ]


# ------------------------------------------------- small batches: a training step's call (issue 38)


def _small_batch(n, T, seed, vocab=6):
    rng = np.random.default_rng(seed)
    h = rng.integers(0, vocab, size=(n, T), dtype=np.int64)
    r = h.copy()
    m = rng.random((n, T)) < 0.4
    r[m] = rng.integers(0, vocab, size=int(m.sum()))
    return h, r


def test_plain_id_stats_are_the_checked_paths_rows():
    """``plain_id_stats`` (a padded int64 array or lists of int lists, one reference stream)
    gives the rows of ``IdStreams``; ``plain_id_row`` the row of a one-row batch; any other
    form is None (the checked path reads it)."""
    from rapidbleu.ids import IdStreams, plain_id_row, plain_id_stats, stats_of_streams

    for n, T in [(1, 1), (1, 8), (5, 3), (32, 8), (3, 0)]:
        h, r = _small_batch(n, T, n * 10 + T)
        want = stats_of_streams(IdStreams(h, r), 4, 1)
        assert plain_id_stats(h, r, 4, 1).tolist() == want.tolist()
        assert plain_id_stats(h, r, 4, 2).tolist() == want.tolist()
        assert plain_id_stats(h[:, ::-1], r, 4, 1).tolist() == stats_of_streams(IdStreams(h[:, ::-1], r), 4, 1).tolist()
        if T:
            hl, rl = h.tolist(), r.tolist()
            assert plain_id_stats(hl, rl, 4, 1).tolist() == want.tolist()
            assert plain_id_stats(hl, [rl], 4, 1).tolist() == want.tolist()
            if n == 1:
                assert plain_id_row(hl, [rl], 4) == want[0].tolist()
                assert plain_id_row(hl, rl, 3) == stats_of_streams(IdStreams(h, r), 3, 1)[0].tolist()
            else:
                assert plain_id_row(hl, rl, 4) is None
    h, r = _small_batch(4, 5, 1)
    hl, rl = h.tolist(), r.tolist()
    for hyps, refs in [
        (h.astype(np.int32), r),
        (h, r.astype(np.uint64)),
        (h, r[:3]),
        (h, [r]),
        (h.reshape(-1), r),
        (hl, [rl, rl]),
        (hl, rl[:3]),
        (hl, [[], *rl[1:]]),
        ([[True, *x[1:]] for x in hl], rl),
        ([[np.int64(1), *x[1:]] for x in hl], rl),
        ([[2**63, *x[1:]] for x in hl], rl),
        ([], []),
        (tuple(hl), rl),
        ([" ".join(map(str, x)) for x in hl], rl),
    ]:
        assert plain_id_stats(hyps, refs, 4, 1) is None
        assert plain_id_row(hyps[:1], refs, 4) is None


@pytest.mark.parametrize("method", [0, 1, 2, 3, 4, 5, 7])
def test_small_batch_fast_path_is_the_general_path(method):
    """A training step's call (NLTK style, options seen before, plain ids) scores the rows the
    checked path scores, the same floats and warnings, for arrays, lists, one row and ``[[ref]]``
    (``reference_layout='streams'`` takes the checked path), on every call."""
    fn = getattr(SmoothingFunction(), f"method{method}")
    for n, T in [(1, 1), (1, 7), (2, 5), (32, 8)]:
        h, r = _small_batch(n, T, 7 * n + T)
        for hyps, refs in [(h, r), (h.tolist(), r.tolist()), (h.tolist(), [r.tolist()])]:
            for weights in [None, (0.5, 0.5), (0.2, 0.3, 0.5)]:
                with warnings.catch_warnings(record=True) as want_w:
                    warnings.simplefilter("always")
                    want = sentence_bleu_batch(
                        hyps, refs, weights=weights, smoothing_function=fn, reference_layout="streams"
                    )
                for _ in range(3):  # the first call builds the metric, the next ones reuse it
                    with warnings.catch_warnings(record=True) as got_w:
                        warnings.simplefilter("always")
                        got = sentence_bleu_batch(hyps, refs, weights=weights, smoothing_function=fn)
                    assert got.dtype == np.float64
                    assert got.tolist() == want.tolist(), (n, T, weights)
                    assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
                if weights is None and method == 1:
                    hl, rl = np.asarray(hyps).tolist(), np.asarray(refs).reshape(n, T).tolist()
                    nltk_want = [nltk_sentence_bleu([rl[i]], hl[i], smoothing_function=fn) for i in range(n)]
                    assert got.tolist() == nltk_want


def test_small_batch_fast_path_reads_the_smoother_now():
    """The metric is built once per option set, but a ``SmoothingFunction``'s ``epsilon`` and
    ``k`` are read at each call (a user may change them between steps); options that compare
    equal but score differently (Fraction weights, a float order) are not confused."""
    from fractions import Fraction

    sf = SmoothingFunction()
    h = [[1, 2, 3, 4, 5, 6]]
    r = [[[1, 2, 3, 9, 5, 8]]]
    for method in (1, 4):
        fn = getattr(sf, f"method{method}")
        first = sentence_bleu_batch(h, r, smoothing_function=fn).tolist()
        sf.epsilon, sf.k = 0.3, 7
        assert sentence_bleu_batch(h, r, smoothing_function=fn).tolist() == [
            nltk_sentence_bleu(r[0], h[0], smoothing_function=fn)
        ]
        assert (
            sentence_bleu_batch(h * 2, r[0] * 2, smoothing_function=fn).tolist()
            == [nltk_sentence_bleu(r[0], h[0], smoothing_function=fn)] * 2
        )
        sf.epsilon, sf.k = 0.1, 5
        assert sentence_bleu_batch(h, r, smoothing_function=fn).tolist() == first
    fn = sf.method1
    floats = sentence_bleu_batch(h, r, weights=(0.25, 0.25, 0.25, 0.25), smoothing_function=fn)
    fractions = sentence_bleu_batch(h, r, weights=(Fraction(1, 4),) * 4, smoothing_function=fn)
    assert fractions.tolist() == [nltk_sentence_bleu(r[0], h[0], (Fraction(1, 4),) * 4, smoothing_function=fn)]
    assert floats.tolist() == [nltk_sentence_bleu(r[0], h[0], smoothing_function=fn)]
    with pytest.raises(TypeError):
        sentence_bleu_batch(h, r, smoothing_function=fn, max_ngram_order=4.0)
    with pytest.raises(ValueError, match="workers"):
        sentence_bleu_batch(h, r, smoothing_function=fn, workers=0)
    with pytest.raises(TypeError, match="workers"):
        sentence_bleu_batch(h, r, smoothing_function=fn, workers=True)


def test_small_batch_fast_path_keeps_the_errors():
    """Input the fast path does not take goes the checked way: the same errors as on a first
    call (bad ids, a reference stream of another length, no references)."""
    fn = SmoothingFunction().method1
    h = [[1, 2, 3], [4, 5, 6]]
    sentence_bleu_batch(h, h, smoothing_function=fn)  # (the metric of these options built)
    with pytest.raises(TypeError, match=r"hypotheses\[0\]"):
        sentence_bleu_batch([[1.5, 2]], [[1, 2]], smoothing_function=fn)
    with pytest.raises(ValueError, match="reference stream 0"):
        sentence_bleu_batch(h, [[1, 2, 3]], smoothing_function=fn)
    with pytest.raises(OverflowError):
        sentence_bleu_batch([[2**64]], [[1]], smoothing_function=fn)
    with pytest.raises(ValueError, match="hypotheses is empty"):
        sentence_bleu_batch(np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64), smoothing_function=fn)


def test_nltk_metric_float_scoring_is_its_general_scoring():
    """``NLTKBLEU.float_scoring`` (one plain weight tuple, methods 1-4, plain parameters read
    now) is where ``kernel_rows_scores`` and ``kernel_row_score`` give the floats of
    ``scores_of_kernel_rows``."""
    from fractions import Fraction

    from rapidbleu.ids import IdStreams, stats_of_streams
    from rapidbleu.nltk_bleu import NLTKBLEU

    h, r = _small_batch(16, 6, 3)
    stats = stats_of_streams(IdStreams(h, r), 5, 1)
    for method in range(8):
        for weights in [(0.25,) * 4, (0.5, 0.5), [(0.25,) * 4, (0.5, 0.5)], (Fraction(1, 2),) * 2]:
            sf = SmoothingFunction()
            fn = getattr(sf, f"method{method}")
            metric = NLTKBLEU(weights, fn, max_ngram_order=5)
            plain = method in (1, 2, 3, 4) and isinstance(weights, tuple) and type(weights[0]) is float
            assert metric.float_scoring() is plain
            if plain:
                want = metric.scores_of_kernel_rows(stats.copy())
                assert metric.kernel_rows_scores(stats.copy()).tolist() == want.tolist()
                assert [metric.kernel_row_score(row) for row in stats.tolist()] == want.tolist()
                sf.epsilon, sf.k = Fraction(1, 10), Fraction(5)
                assert metric.float_scoring() is (method in (2, 3))
