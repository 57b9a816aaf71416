"""chrF and chrF++: rapidbleu.CHRF equals sacreBLEU 2.6.0's CHRF, float for float.

Grouped by behaviour: real WMT23 outputs under every option set, several references (``None``
included), adversarial text (empty, whitespace only, Unicode whitespace and case, long lines),
the two kernels against each other (hypothesis), pairwise matrices, the score from statistics
in sacreBLEU's three number types, the API around it (signature, score object, module paths,
sacreBLEU's semi-private methods) and the option checks.

CI runs each option set on the first segments of one WMT23 system (fewer for the pure-Python
backend, which is as slow as sacreBLEU); ``RAPIDBLEU_CHRF_FULL=1`` runs every whole system under
every option set on both backends.
"""

import json
import logging
import math
import os
import random
import subprocess
import sys
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from conftest import HAVE_CYTHON, REQUIRE_CYTHON, SAMPLE_DIR, differing_in_threads, full_data_dir, read, systems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core.chrf import chrf_py as py

FULL = os.environ.get("RAPIDBLEU_CHRF_FULL") == "1"
needs_cy = pytest.mark.skipif(not HAVE_CYTHON and not REQUIRE_CYTHON, reason="compiled extension not built")
SIG_VERSION = f"version:rapidbleu-{rapidbleu.__version__}"

#: Option sets of the exactness tests: chrF, chrF+, chrF++, and each option on its own and mixed.
OPTION_SETS = [
    {},
    {"word_order": 2},
    {"word_order": 1},
    {"word_order": 2, "whitespace": True},
    {"word_order": 2, "lowercase": True},
    {"eps_smoothing": True},
    {"eps_smoothing": True, "word_order": 2, "beta": 1},
    {"char_order": 4, "word_order": 2, "beta": 3},
    {"beta": 1.5, "whitespace": True, "lowercase": True},
    {"char_order": 0, "word_order": 3},
]


def opt_id(opts):
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "chrF"


def cy():
    return _backend.select("cython", "chrf")


@pytest.fixture(autouse=True)
def _quiet_loggers():
    saved = {name: logging.getLogger(name).level for name in ("sacrebleu", "rapidbleu")}
    for name in saved:
        logging.getLogger(name).setLevel(logging.ERROR)
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


def sig(metric):
    return metric.get_signature().format().replace(SIG_VERSION, f"version:{sacrebleu.__version__}")


def assert_same_score(ours, theirs):
    assert ours.score == theirs.score
    assert ours.name == theirs.name
    assert str(ours) == str(theirs)
    for width in (1, 2, 4):
        assert ours.format(width=width) == theirs.format(width=width)


def assert_matches_sacrebleu(hyps, refs, opts):
    """Statistics rows, corpus score, sentence scores and signature equal sacreBLEU's."""
    ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
    rows = theirs._extract_corpus_statistics(hyps, refs)
    assert ours.corpus_statistics(hyps, refs).tolist() == rows
    assert_same_score(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    want = [theirs._compute_score_from_stats(r).score for r in rows]
    assert ours.sentence_scores(hyps, refs).tolist() == want
    assert sig(ours) == sig(theirs)


# ============================================================================================
# Real data: every WMT23 output (CI: one system per option set)
# ============================================================================================
@cache
def _wmt23():
    return systems(full_data_dir())


#: Segments of each chosen system in CI (all with RAPIDBLEU_CHRF_FULL=1), per backend.
CI_SEGMENTS = {"cython": 500, "python": 80}


@lru_cache(maxsize=64)
def _sacre_rows(hyp_path, ref_paths, opts_key, n):
    """sacreBLEU's per-segment rows of (the first n segments of) one system, computed once."""
    hyps = read(hyp_path)[:n]
    refs = [read(p)[:n] for p in ref_paths]
    return hyps, refs, SacreCHRF(**dict(opts_key))._extract_corpus_statistics(hyps, refs)


def _chosen_systems(i):
    all_systems = _wmt23()
    if FULL:
        return all_systems
    pick = all_systems[(7 * i + 2) % len(all_systems)]
    multi = [s for s in all_systems if len(s[3]) > 1]
    if i == 0 and multi:  # the default chrF also on a system with several references
        return [pick, multi[0]] if multi[0] != pick else [pick]
    return [pick]


@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=[opt_id(o) for o in OPTION_SETS])
def test_wmt23_outputs_score_as_sacrebleu(backend, index):
    opts = OPTION_SETS[index]
    for _pair, _system, hyp_path, ref_paths in _chosen_systems(index):
        n = None if FULL else CI_SEGMENTS[backend]
        hyps, refs, rows = _sacre_rows(hyp_path, tuple(ref_paths), tuple(sorted(opts.items())), n)
        theirs = SacreCHRF(**opts)
        ours = rapidbleu.CHRF(**opts)
        stats = ours.corpus_statistics(hyps, refs)
        assert stats.tolist() == rows, hyp_path.name
        corpus = theirs._aggregate_and_compute(rows)
        assert ours.score_from_stats(stats.sum(axis=0)).score == corpus.score
        assert ours.scores_from_stats(stats).tolist() == [theirs._compute_score_from_stats(r).score for r in rows]
        for i in (0, len(hyps) // 2, len(hyps) - 1):  # sentence_score itself, on a few segments
            seg_refs = [r[i] for r in refs]
            assert ours.sentence_score(hyps[i], seg_refs).score == theirs.sentence_score(hyps[i], seg_refs).score


# ============================================================================================
# Several references, None among them
# ============================================================================================
def _sample(name, n=40):
    return read(SAMPLE_DIR / name)[:n]


@pytest.mark.parametrize("opts", [{}, {"word_order": 2, "eps_smoothing": True}, {"beta": 1, "lowercase": True}])
def test_many_references_with_gaps(backend, opts):
    hyps = _sample("generaltest2023.he-en.hyp.ONLINE-Y.en")
    ref_a = _sample("generaltest2023.he-en.ref.refA.en")
    ref_b = _sample("generaltest2023.he-en.ref.refB.en")
    other = _sample("generaltest2023.he-en.hyp.ONLINE-B.en")
    gappy = [
        None if i % 3 == 0 else s
        for i, s in enumerate(_sample("generaltest2023.he-en.hyp.Samsung_Research_Philippines.en"))
    ]
    only_some = [s if i % 4 == 0 else None for i, s in enumerate(ref_b)]
    for refs in ([ref_a, ref_b], [ref_b, ref_a], [ref_a, ref_b, other, gappy], [only_some, ref_a, gappy]):
        assert_matches_sacrebleu(hyps, refs, opts)
    # a reference equal to the hypothesis wins, wherever it is
    assert_matches_sacrebleu(hyps, [ref_a, hyps, ref_b], opts)


def test_ties_keep_the_first_best_reference(backend):
    """References with equal sentence scores but different statistics: the first one counts
    (found by search with the oracle; sacreBLEU replaces only on a strictly higher score)."""
    for hyp, a, b, opts in (
        ("ab", "aa", "a a", {"word_order": 2}),
        ("aab", "aa", "a a", {"word_order": 2}),
        ("ab ba", "aaa", "bbbb", {}),
    ):
        ours = rapidbleu.CHRF(**opts)
        assert ours.sentence_score(hyp, [a]).score == ours.sentence_score(hyp, [b]).score
        rows = ours.corpus_statistics([hyp, hyp], [[a, b], [b, a]])
        assert rows[0].tolist() != rows[1].tolist()
        assert_matches_sacrebleu([hyp, hyp], [[a, b], [b, a]], opts)


# ============================================================================================
# Adversarial text
# ============================================================================================
UNICODE_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
NOT_SPACES = "\u200b\ufeff\u180e"  # zero-width space, BOM, Mongolian vowel separator: not str.isspace

ADVERSARIAL = [
    (["", "a", " "], [["", "", "a"]]),
    (["   ", "\t\n", "x"], [[" ", "", "  x  "]]),
    ([f"a{UNICODE_SPACES}b c"], [["ab c"]]),
    ([f"a{NOT_SPACES}b"], [[f"a {NOT_SPACES} b"]]),
    (["İstanbul ẞtraße ΣΑΣ Ǆ ﬁ"], [["i̇stanbul ßtrasse σας ǆ fi"]]),  # lowercase longer than the original
    (
        ["Κόσμε 日本語のテキスト 😀😀😀 \U00010348"],
        [["κόσμε 日本語 テキスト 😀 \U00010348\U00010348"]],
    ),  # kinds 2 and 4
    (["abc"], [["日本abc"]]),  # kind 1 against kind 2: code points, not bytes
    (["(hi) a. .a .. ... , -x- 'q' \"w\""], [["( hi ) a . . a .. ... , - x - ' q ' \" w \""]]),
    (["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], [["aaaaaaaa"]]),
    (["a a a a a a a a a a b"], [["a a a b b a a"]]),
    (["the the the cat cat"], [["the cat the cat the"]]),
    (["x"], [["xxxxxxxxxxx"]]),
    # every ASCII character at the end and at the start of a word, and alone
    (
        [" ".join(f"w{c} {c}w {c}" for c in map(chr, range(33, 127)))],
        [[" ".join(f"w{c} {c}w" for c in map(chr, range(33, 127, 2)))]],
    ),
    (["prioritized__ ¿qué? «x» 。y"], [["prioritized_ _ ¿qué ? « x » 。 y"]]),
    (["abcdefg"], [["hijklmnop"]]),
]

ADV_OPTIONS = [
    {},
    {"word_order": 2},
    {"word_order": 2, "whitespace": True, "lowercase": True},
    {"eps_smoothing": True, "word_order": 3, "char_order": 8, "beta": 3},
]


@pytest.mark.parametrize("opts", ADV_OPTIONS, ids=[opt_id(o) for o in ADV_OPTIONS])
def test_adversarial_text(backend, opts):
    for hyps, refs in ADVERSARIAL:
        assert_matches_sacrebleu(hyps, refs, opts)
        swapped = [next(r[i] for r in refs) for i in range(len(hyps))]  # references as hypotheses
        assert_matches_sacrebleu(swapped, [list(hyps)], opts)


def test_long_lines(backend):
    rng = random.Random(5)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyzäö") for _ in range(rng.randint(1, 9))) for _ in range(400)]
    shuffled = " ".join(rng.choice(words) + rng.choice(["", "", ",", "."]) for _ in range(9000))
    repeated = " ".join(words[:30]) * 40
    ref = " ".join(w for k, w in enumerate(shuffled.split()) if k % 6)
    hyps = [shuffled, repeated, "short one"]
    refs = [[ref, repeated[:5000], "short two"], [repeated, None, shuffled[:20000]]]
    for opts in ({"word_order": 2}, {"whitespace": True, "char_order": 7}):
        want = py.chrf_stats(hyps, refs, opts)
        assert rapidbleu.CHRF(**opts).corpus_statistics(hyps, refs).tolist() == want.tolist()


# ============================================================================================
# The compiled kernel against the oracle
# ============================================================================================
ALPHABET = "aab ABc.,(')\"-_~@[`{" + "\u3000\x1c\u200b\u0130\u00dfé日😀\t\u00bf\u3002"
texts = st.text(alphabet=ALPHABET, max_size=40)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 4))
    hyps = draw(st.lists(texts, min_size=n, max_size=n))
    n_streams = draw(st.integers(1, 3))
    streams = [draw(st.lists(st.one_of(st.none(), texts), min_size=n, max_size=n)) for _ in range(n_streams)]
    for i in range(n):  # every segment keeps at least one reference
        if all(s[i] is None for s in streams):
            streams[0][i] = draw(texts)
    return hyps, streams


options = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 7),
        "word_order": st.integers(0, 3),
        "beta": st.one_of(st.integers(0, 5), st.floats(0.0, 4.0), st.sampled_from([np.float32(0.5), np.int64(3)])),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


@needs_cy
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), options)
def test_kernels_agree_with_each_other_and_sacrebleu(corpus, opts):
    hyps, refs = corpus
    want = py.chrf_stats(hyps, refs, opts)
    assert cy().chrf_stats(hyps, refs, opts, workers=2).tolist() == want.tolist()
    masked = cy()._chrf_stats_masked(hyps, refs, opts, 1, 0)
    assert masked.tolist() == want.tolist()  # every hash equal: collisions never change a count
    assert SacreCHRF(**opts)._extract_corpus_statistics(hyps, refs) == want.tolist()


def random_rows(rng, m, order):
    """Valid statistics rows of every awkward kind: empty sides, zero matches, big sums."""
    h = rng.integers(0, 300, (m, order)) * (rng.random((m, order)) > 0.15)
    r = rng.integers(0, 300, (m, order)) * (rng.random((m, order)) > 0.15)
    big = rng.random(m) < 0.1
    h[big] *= 100_000
    r[big] *= 90_000
    h = np.where(r == 0, 0, h)
    match = (np.minimum(h, r) * rng.random((m, order)) ** 2 * (rng.random((m, order)) > 0.2)).astype(np.int64)
    return np.stack([h, r, match], axis=2).reshape(m, 3 * order).astype(np.int64)


@needs_cy
@pytest.mark.parametrize("dtype", [None, np.int64, np.float32])
@pytest.mark.parametrize("eps", [False, True])
def test_score_kernels_agree_bit_for_bit(dtype, eps):
    rng = np.random.default_rng(11)
    # (beta below 1 and 0 too: the formula's guarded denominators, as sacreBLEU's; numpy betas
    # take the Python formula on both backends)
    for beta in (0, 0.0, 0.01, 0.5, 1, 2, 3, 7, 1.5, 2.75, 10.1, np.float32(0.5), np.float64(2)):
        for co, wo in ((6, 0), (6, 2), (1, 0), (0, 2), (9, 3)):
            rows = random_rows(rng, 400, co + wo)
            opts = {"char_order": co, "word_order": wo, "beta": beta, "eps_smoothing": eps}
            want = py.chrf_scores(rows, opts, dtype)
            got = cy().chrf_scores(rows, opts, dtype, 2)
            assert got.dtype == want.dtype
            assert got.tobytes() == want.tobytes(), (beta, co, wo, dtype, eps)


@pytest.mark.parametrize("dtype", [None, np.int64, np.float32, np.float64])
def test_score_from_stats_in_sacrebleus_number_types(backend, dtype):
    """``_compute_score_from_stats`` (and ``scores_from_stats`` for the protocol's dtypes)
    give sacreBLEU's value for rows held as Python ints or numpy arrays (float32: bootstrap
    resamples, int64: approximate randomization, float64: harnesses' own arrays)."""
    rng = np.random.default_rng(3)
    for opts in ({}, {"word_order": 2, "eps_smoothing": True}, {"beta": 1.5}):
        ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
        rows = random_rows(rng, 150, ours.order)
        held = rows.tolist() if dtype is None else rows.astype(dtype)
        want = [theirs._compute_score_from_stats(r).score for r in held]
        got = [ours._compute_score_from_stats(r).score for r in held]
        assert [float(x) for x in got] == [float(x) for x in want]
        assert [type(x) for x in got] == [type(x) for x in want]
        if dtype is not np.float64:
            assert ours.scores_from_stats(rows, dtype).tolist() == [float(x) for x in want]


# ============================================================================================
# Pairwise matrices (MBR utilities)
# ============================================================================================
PAIRWISE = [*_sample("generaltest2023.de-en.hyp.AIRC.en", 12), "", "same", "same", "Same thing."]


@pytest.mark.parametrize("opts", [{}, {"word_order": 2, "eps_smoothing": True, "lowercase": True}])
def test_pairwise_matrix_is_sentence_chrf_of_each_pair(backend, opts):
    kernel = _backend.chrf
    theirs = SacreCHRF(**opts)
    want = [[theirs.sentence_score(h, [r]).score for r in PAIRWISE] for h in PAIRWISE]
    got = kernel.chrf_pairwise_scores(PAIRWISE, opts, workers=2)
    assert got.tolist() == want
    stats = kernel.chrf_pairwise_stats(PAIRWISE, opts)
    n = len(PAIRWISE)
    pairs = rapidbleu.CHRF(**opts).corpus_statistics([h for h in PAIRWISE for _ in PAIRWISE], [PAIRWISE * n])
    assert stats.reshape(n * n, -1).tolist() == pairs.tolist()


# ============================================================================================
# rapidbleu.batch: sentence chrF of a batch, the pairwise (MBR) matrix
# ============================================================================================
def test_sentence_chrf_batch_is_sacrebleus_loop(backend):
    from rapidbleu.batch import sentence_chrf_batch

    hyps = [*_sample("generaltest2023.he-en.hyp.ONLINE-Y.en", 30), "", "  "]
    ref_a = [*_sample("generaltest2023.he-en.ref.refA.en", 30), "x", "y"]
    ref_b = [None if i % 4 == 1 else r for i, r in enumerate(_sample("generaltest2023.he-en.ref.refB.en", 30))]
    ref_b += ["", None]
    for opts in ({}, {"word_order": 2, "lowercase": True}, {"beta": 3, "eps_smoothing": True, "whitespace": True}):
        theirs = SacreCHRF(**opts)
        one = [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, ref_a, strict=True)]
        assert sentence_chrf_batch(hyps, ref_a, **opts).tolist() == one  # one stream
        assert sentence_chrf_batch(np.array(hyps), [np.array(ref_a)], **opts, workers=2).tolist() == one
        two = [
            theirs.sentence_score(h, [r for r in (a, b) if r is not None]).score
            for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
        ]
        assert sentence_chrf_batch(hyps, [ref_a, ref_b], **opts).tolist() == two
        per_hyp = [[r for r in (a, b) if r is not None] for a, b in zip(ref_a, ref_b, strict=True)]
        got = sentence_chrf_batch(hyps, per_hyp, **opts, reference_layout="per_hypothesis")
        assert got.tolist() == two


def test_pairwise_chrf_is_sacrebleus_loop(backend):
    from rapidbleu.batch import pairwise_chrf

    for opts in ({}, {"word_order": 2, "beta": 1, "lowercase": True}):
        theirs = SacreCHRF(**opts)
        want = np.array([[theirs.sentence_score(h, [r]).score for r in PAIRWISE] for h in PAIRWISE])
        assert pairwise_chrf(PAIRWISE, **opts).tolist() == want.tolist()
        got = pairwise_chrf(np.array(PAIRWISE), **opts, diagonal=np.nan, workers=2)
        np.fill_diagonal(want, np.nan)
        assert np.array_equal(got, want, equal_nan=True)


def test_chrf_batch_errors():
    from rapidbleu.batch import pairwise_chrf, sentence_chrf_batch

    with pytest.raises(ValueError, match="candidates is empty"):
        pairwise_chrf([])
    with pytest.raises(TypeError, match=r"candidates\[1\] is a int"):
        pairwise_chrf(["a", 3])
    with pytest.raises(TypeError, match="single string"):
        pairwise_chrf("abc")
    with pytest.raises(TypeError, match="ordered sequence"):
        sentence_chrf_batch({"a", "b"}, ["a", "b"])
    with pytest.raises(ValueError, match="char_order must be between 0 and 64"):
        sentence_chrf_batch(["a"], ["a"], char_order=-1)
    with pytest.raises(ValueError, match="beta must be"):
        pairwise_chrf(["a"], beta=-0.5)
    with pytest.raises(ValueError, match="reference stream 1"):
        sentence_chrf_batch(["a", "b", "c"], [["a", "b", "c"], ["a"]])
    with pytest.raises(ValueError, match="no reference"):
        sentence_chrf_batch(["a", "b"], [["a", None], [None, None]])


@needs_cy
def test_pairwise_chrf_memory_is_the_output_plus_a_block():
    """400 candidates, chrF++: the (n, n, 24) int64 statistics table would be 31 MB; the call's
    peak grows by the 1.3 MB output and a block (a row of statistics and the candidates' ids),
    measured in a child process (VmHWM after the call minus before)."""
    code = r"""
import sys
sys.path.insert(0, sys.argv[1])
from conftest import SAMPLE_DIR, read
import rapidbleu.batch as B
cands = [line for f in sorted(SAMPLE_DIR.glob("*.hyp.*en")) for line in read(f)][:400]
B.pairwise_chrf(cands[:10], word_order=2)
def hwm():
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM"))
before = hwm()
out = B.pairwise_chrf(cands, word_order=2)
print((hwm() - before) / 2**20, out.shape)
"""
    env = {**os.environ, "RAPIDBLEU_BACKEND": "cython"}
    here = str(Path(__file__).absolute().parent)
    res = subprocess.run([sys.executable, "-c", code, here], capture_output=True, text=True, check=False, env=env)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[1:] == ["(400,", "400)"]
    assert float(res.stdout.split()[0]) < 10, res.stdout


# ============================================================================================
# Threads, hash collisions
# ============================================================================================
@needs_cy
def test_workers_do_not_change_results():
    hyps = _sample("generaltest2023.en-de.hyp.ONLINE-M.de", 200) * 2
    refs = [_sample("generaltest2023.en-de.ref.refA.de", 200) * 2]
    chrfpp = {"char_order": 6, "word_order": 2}
    one = cy().chrf_stats(hyps, refs, chrfpp)
    for workers in (2, 3, -1):
        assert np.array_equal(cy().chrf_stats(hyps, refs, chrfpp, workers=workers), one)
    sums = np.repeat(one, 50, axis=0)
    assert np.array_equal(cy().chrf_scores(sums, chrfpp, workers=2), cy().chrf_scores(sums, chrfpp))


@needs_cy
def test_colliding_hashes_never_change_a_count():
    rng = random.Random(9)
    hyps = [*_sample("generaltest2023.cs-uk.hyp.ONLINE-Y.uk", 40), "".join(rng.choice("abc d") for _ in range(3000))]
    refs = [[*_sample("generaltest2023.cs-uk.ref.refA.uk", 40), "".join(rng.choice("abc d") for _ in range(2000))]]
    for mask in (0, 0xFFF0000000000000):
        got = cy()._chrf_stats_masked(hyps, refs, {"char_order": 6, "word_order": 2}, 1, mask)
        assert got.tolist() == py.chrf_stats(hyps, refs, {"char_order": 6, "word_order": 2}).tolist()


@needs_cy
def test_huge_line_memory_is_bounded():
    """A 3 MB line of shuffled words (most high-order n-grams distinct) and its reference:
    the call's peak memory stays under 40 bytes per character of the two texts (about 26 is
    expected: ids and positions, counts and the pair table of one order at a time; see
    chrf.h), measured in a child process."""
    code = r"""
import random
from rapidbleu._core.chrf import chrf_cy
rng = random.Random(1)
words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(20000)]
hyp = " ".join(rng.choice(words) for _ in range(600_000))[:3_000_000]
ref = " ".join(rng.choice(words) for _ in range(600_000))[:3_000_000]
def status(field):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(field))
with open("/proc/self/clear_refs", "w") as fh:  # the peak from here on is the call's
    fh.write("5")
before = status("VmRSS:")
chrf_cy.chrf_stats([hyp], [[ref]], {"char_order": 6, "word_order": 2})
print((status("VmHWM:") - before) / (len(hyp) + len(ref)))
"""
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("needs Linux's /proc/self/clear_refs to measure one call's peak memory")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 4 < float(out.stdout) < 40, out.stdout  # (4: the ids alone; below, nothing was measured)


# ============================================================================================
# The API around the numbers
# ============================================================================================
def test_signature_name_and_format_match_sacrebleu():
    hyps, refs = ["The cat sat.", "A dog"], [["The cat sat down.", "The dog"], [None, "A dog!"]]
    for opts in ({}, {"word_order": 2}, {"beta": 3, "lowercase": True, "whitespace": True, "eps_smoothing": True}):
        ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
        with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
            ours.get_signature()  # nothing scored yet: the number of references is unknown
        a, b = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
        assert_same_score(a, b)
        assert repr(a) == repr(b)
        assert (a.beta, a.char_order, a.word_order) == (b.beta, b.char_order, b.word_order)
        assert sig(ours) == sig(theirs)
        s_ours = ours.get_signature().format(short=True)
        assert s_ours == theirs.get_signature().format(short=True).replace(
            "v:2.6.0", f"v:rapidbleu-{rapidbleu.__version__}"
        )
        ours_json = a.format(signature=str(ours.get_signature()), is_json=True)
        assert ours_json.replace(f"rapidbleu-{rapidbleu.__version__}", "2.6.0") == b.format(
            signature=str(theirs.get_signature()), is_json=True
        )
        ours.sentence_score("x", ["y"])
        theirs.sentence_score("x", ["y"])
        assert sig(ours) == sig(theirs)  # nrefs:1 after a sentence
    assert rapidbleu.CHRF(word_order=2, beta=1.5).corpus_score(["a"], [["a"]]).name == "chrF1.5++"


def test_bootstrap_interval_matches_sacrebleu(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps = _sample("generaltest2023.zh-en.hyp.HW-TSC.en", 150)
    refs = [_sample("generaltest2023.zh-en.ref.refA.en", 150)]
    for opts in ({}, {"word_order": 2, "eps_smoothing": True}):
        ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
        a, b = ours.corpus_score(hyps, refs, n_bootstrap=300), theirs.corpus_score(hyps, refs, n_bootstrap=300)
        assert (a.score, float(a._mean), float(a._ci)) == (b.score, float(b._mean), float(b._ci))
        assert str(a) == str(b)
        assert sig(ours) == sig(theirs)


def test_module_paths_and_compat_functions():
    from rapidbleu.compat import corpus_chrf, sentence_chrf
    from rapidbleu.metrics import CHRF, METRICS, CHRFScore
    from rapidbleu.metrics.base import Metric
    from rapidbleu.metrics.chrf import CHRF as CHRF2
    from rapidbleu.metrics.chrf import CHRFSignature
    from rapidbleu.metrics.helpers import extract_all_char_ngrams, extract_char_ngrams, extract_word_ngrams

    assert CHRF is CHRF2 is rapidbleu.CHRF
    assert METRICS["CHRF"] is CHRF
    assert CHRFScore is rapidbleu.CHRFScore
    assert issubclass(CHRFSignature, rapidbleu.score.Signature)
    assert isinstance(CHRF(), Metric)
    assert corpus_chrf is rapidbleu.corpus_chrf
    assert sentence_chrf is rapidbleu.sentence_chrf
    assert rapidbleu.extract_char_ngrams is extract_char_ngrams
    hyps, refs = ["Die  Beziehung ist gut.", "x"], [["Das Verhältnis ist gut.", "y"]]
    for kw in ({}, {"remove_whitespace": False, "word_order": 2, "beta": 3, "eps_smoothing": True}):
        assert corpus_chrf(hyps, refs, **kw).score == sacrebleu.corpus_chrf(hyps, refs, **kw).score
        assert sentence_chrf(hyps[0], refs[0], **kw).score == sacrebleu.sentence_chrf(hyps[0], refs[0], **kw).score
    for line in ("a b  c", " ab\u3000cd ", ""):
        for ws in (False, True):
            assert extract_char_ngrams(line, 2, ws) == sacrebleu.extract_char_ngrams(line, 2, ws)
            assert extract_all_char_ngrams(line, 3, ws) == sacrebleu.metrics.helpers.extract_all_char_ngrams(
                line, 3, ws
            )
    assert extract_word_ngrams(["a", "b", "c"], 2) == sacrebleu.extract_word_ngrams(["a", "b", "c"], 2)
    assert CHRF.CHAR_ORDER == 6
    assert CHRF.WORD_ORDER == 0
    assert CHRF.BETA == 2


def test_semi_private_methods_match_sacrebleu():
    refs = [["The (cat) sat.", "Ünïcode, text"], ["the cat sat!", None]]
    hyps = ["The cat sat on it.", "unicode text"]
    for opts in (
        {},
        {"word_order": 2, "lowercase": True},
        {"word_order": 1, "whitespace": True, "eps_smoothing": True},
    ):
        ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
        assert ours._cache_references(refs) == theirs._cache_references(refs)
        assert ours.num_refs == theirs.num_refs == -1
        info_o, info_t = (
            ours._extract_reference_info(["a (b) c.", "d"]),
            theirs._extract_reference_info(["a (b) c.", "d"]),
        )
        assert info_o == info_t
        hyp = ours._preprocess_segment("The CAT (sat).")
        assert hyp == theirs._preprocess_segment("The CAT (sat).")
        assert ours._remove_punctuation(hyp) == theirs._remove_punctuation(hyp)
        assert ours._compute_segment_statistics(hyp, info_o) == theirs._compute_segment_statistics(hyp, info_t)
        stats_o, stats_t = ours._extract_corpus_statistics(hyps, refs), theirs._extract_corpus_statistics(hyps, refs)
        assert stats_o == stats_t
        assert all(type(v) is int for row in stats_o for v in row)
        assert ours._compute_f_score(stats_o[0]) == theirs._compute_f_score(stats_t[0])
        assert_same_score(ours._aggregate_and_compute(stats_o), theirs._aggregate_and_compute(stats_t))
        arr = np.array(stats_o, dtype=np.int64)
        assert ours._aggregate_and_compute(arr).score == theirs._aggregate_and_compute(arr).score
        trial = arr[None, :1]  # approximate randomization: one (1, k) int64 row
        assert ours._aggregate_and_compute(trial[0]).score == theirs._aggregate_and_compute(trial[0]).score
        # cached references
        ours_c, theirs_c = rapidbleu.CHRF(**opts, references=refs), SacreCHRF(**opts, references=refs)
        assert ours_c._extract_corpus_statistics(hyps, None) == theirs_c._extract_corpus_statistics(hyps, None)
        assert ours_c.corpus_score(hyps, None).score == theirs_c.corpus_score(hyps, None).score


def test_float_counters_as_mbrs_aggregates_them():
    """mbrs weights each reference's n-gram counts (floats) and scores against their sum with
    ``_get_match_statistics`` and ``_compute_f_score``: float arithmetic in sacreBLEU's order."""
    refs = ["the cat sat on the mat", "a cat sat", "the dog sat on a mat"]
    weights = [0.5, 0.3, 0.2]
    for opts in ({}, {"word_order": 2}):
        ours, theirs = rapidbleu.CHRF(**opts), SacreCHRF(**opts)
        results = []
        for metric in (ours, theirs):
            per_ref = metric._cache_references([[r] for r in refs])[0]["ref_ngrams"]
            agg = [Counter() for _ in range(metric.order)]
            for w, grams in zip(weights, per_ref, strict=True):
                for k, counter in enumerate(grams):
                    agg[k] += Counter({g: c * w for g, c in counter.items()})
            hyp = metric._preprocess_segment("the cat sat on a mat")
            grams = sacrebleu.metrics.helpers.extract_all_char_ngrams(hyp, metric.char_order, metric.whitespace)
            words = metric._remove_punctuation(hyp)
            grams += [sacrebleu.extract_word_ngrams(words, n) for n in range(1, metric.word_order + 1)]
            row = []
            for h, r in zip(grams, agg, strict=True):
                row += metric._get_match_statistics(h, r)
            results.append((row, metric._compute_f_score(row)))
        assert results[0] == results[1]


def test_config_round_trip():
    metric = rapidbleu.CHRF(char_order=5, word_order=2, beta=3, lowercase=True, eps_smoothing=True)
    metric.corpus_score(["a b"], [["a c"], ["b"]])
    again = rapidbleu.CHRF.from_config(metric.config())
    assert again.config() == metric.config()
    assert again.num_refs == 2
    assert sig(again) == sig(metric)
    assert metric.stats_columns[:3] == ("char1_hyp", "char1_ref", "char1_match")
    assert metric.stats_columns[-1] == "word2_match"
    assert len(metric.stats_columns) == 21
    assert (metric.metric_id, metric.higher_is_better, metric.stats_dtype) == ("chrf", True, "int64")


# ============================================================================================
# Bad options and bad statistics: a clear error before any work
# ============================================================================================
@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"char_order": -1}, ValueError, "char_order must be between 0 and 64"),
        ({"char_order": 65}, ValueError, "char_order must be between 0 and 64"),
        ({"word_order": 100}, ValueError, "word_order must be between 0 and 64"),
        ({"char_order": 2.0}, TypeError, "char_order must be an int"),
        ({"word_order": True}, TypeError, "word_order must be an int"),
        ({"char_order": 0, "word_order": 0}, ValueError, "both 0"),
        ({"beta": -1}, ValueError, "beta must be a finite number >= 0"),
        ({"beta": math.nan}, ValueError, "beta must be a finite number >= 0"),
        ({"beta": math.inf}, ValueError, "beta must be a finite number >= 0"),
        ({"beta": 1e200}, OverflowError, "is too large"),
        ({"beta": "2"}, TypeError, "beta must be a number"),
        ({"beta": True}, TypeError, "beta must be a number"),
        ({"lowercase": "False"}, TypeError, "lowercase must be True or False"),
        ({"whitespace": 2}, TypeError, "whitespace must be True or False"),
        ({"eps_smoothing": "yes"}, TypeError, "eps_smoothing must be True or False"),
        ({"workers": 0}, ValueError, "workers"),
        ({"references": "a reference"}, TypeError, "references"),
        ({"order": 6}, TypeError, "unexpected keyword"),
    ],
)
def test_bad_options_are_refused_in_the_constructor(kwargs, error, words):
    with pytest.raises(error, match=words):
        rapidbleu.CHRF(**kwargs)


def test_accepted_option_values():
    assert rapidbleu.CHRF(beta=np.int64(3)).beta == 3
    assert type(rapidbleu.CHRF(beta=np.int64(3)).beta) is np.int64  # kept: sacreBLEU computes with it
    assert rapidbleu.CHRF(char_order=np.int32(4), word_order=0, lowercase=np.True_, whitespace=1).lowercase is True
    assert rapidbleu.CHRF(char_order=0, word_order=2).order == 2
    assert rapidbleu.CHRF(char_order=64, word_order=64).order == 128


def test_bad_statistics_are_named():
    metric = rapidbleu.CHRF(char_order=2, word_order=1)
    good = [5, 4, 3, 4, 3, 2, 2, 2, 1]
    assert (
        metric.score_from_stats(good).score
        == SacreCHRF(char_order=2, word_order=1)._compute_score_from_stats(good).score
    )
    for bad, words in (
        (good[:-1], "have 8 columns but need 9"),
        ([5, 4, 6, *good[3:]], "row 0, order char1: more matches than hypothesis n-grams"),
        ([5, 4, 3, 4, 3, 2, 2, 1, 2], "row 0, order word1: more matches than reference n-grams"),
        ([5, 0, 0, *good[3:]], "hypothesis n-grams counted where the reference has none"),
        ([-1, *good[1:]], "row 0, column 0 is negative"),
        ([5.5, *good[1:]], "column 0 \\(char1_hyp\\) is 5.5"),
        ([math.nan, *good[1:]], "is nan"),
    ):
        with pytest.raises(ValueError, match=words):
            metric.score_from_stats(bad)
    with pytest.raises(ValueError, match="row 1"):
        metric.scores_from_stats([good, [5, 4, 6, *good[3:]]])
    with pytest.raises(ValueError, match="one row"):
        metric.score_from_stats([good, good])
    with pytest.raises(ValueError, match="dtype"):
        metric.scores_from_stats([good], np.float16)


def test_bad_inputs_are_named(backend):
    metric = rapidbleu.CHRF()
    with pytest.raises(ValueError, match="reference stream 0 has 1 line but there are 2 hypotheses"):
        metric.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is a int"):
        metric.corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        metric.corpus_score(["a", "b"], [["a", None]])
    with pytest.raises(TypeError, match="write \\[ref\\]"):
        metric.sentence_score("a", "a")
    with pytest.raises(RuntimeError, match="no references"):
        metric.corpus_score(["a"], None)
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] is a bytes"):
        _backend.chrf.chrf_stats(["a"], [[b"a"]], {})


# ============================================================================================
# One segment a call (issue 41): the core's chrf_sentence_row and chrf_of_row
# ============================================================================================
sentence_options = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 7),
        "word_order": st.integers(0, 3),
        "beta": st.one_of(
            st.integers(0, 5),
            st.floats(0.0, 4.0),
            st.sampled_from([0.5, 1e6, 1e150, 2**26, 2**40, np.float32(0.5), np.int64(3), np.float64(2.0)]),
        ),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


def _outcome(call):
    try:
        return ("value", call())
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


@needs_cy
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(texts, st.sampled_from(["", " ", "\t \u3000", "a" * 50])),
    st.lists(st.one_of(texts, st.none(), st.sampled_from(["", "  ", "\u3000"])), max_size=12),
    sentence_options,
)
def test_sentence_row_twins_agree(hyp, refs, opts):
    """One segment's row: the same Python ints from both twins, the batch kernel's row (up to
    12 references: beyond the stack arrays too; ``None`` skipped, or no reference at all: the
    same error), with every hash colliding too; and its score from both twins, the float of
    ``f_score`` (``score_from_stats``)."""
    want = _outcome(lambda: py.chrf_sentence_row(hyp, refs, opts))
    got = _outcome(lambda: cy().chrf_sentence_row(hyp, refs, opts))
    assert got == want
    assert _outcome(lambda: cy()._chrf_sentence_row_masked(hyp, refs, opts, 0)) == want
    if want[0] == "error":
        assert want[1] == "NoReferencesError"
        assert all(r is None for r in refs)
        return
    row = got[1]
    assert all(type(v) is int for v in row)
    assert row == cy().chrf_stats([hyp], [[r] for r in refs], opts).tolist()[0]
    score = cy().chrf_of_row(row, opts)
    assert repr(score) == repr(py.chrf_of_row(row, opts))
    assert type(score) is type(py.chrf_of_row(row, opts))
    metric = rapidbleu.CHRF(**opts)
    assert repr(score) == repr(metric.score_from_stats(row).score)


@needs_cy
def test_chrf_of_row_beyond_the_fast_path():
    """Rows the compiled ``chrf_of_row`` hands to the twin's formula (counts past 2**53, numpy
    counts, tuples, a numpy or Fraction beta, numpy orders) and rows of the wrong length: the
    same value, type and error from both twins."""
    from fractions import Fraction

    big = 2**60
    rows = [[big, big, big - 1] * 6, [np.int64(3), np.int64(4), np.int64(2)] * 6, tuple([5, 6, 4] * 6), [1, 2] * 9]
    rows.append([3, 4, 2] * 6)
    for opts in (
        {},
        {"beta": np.float32(0.5)},
        {"beta": Fraction(1, 2)},
        {"char_order": np.int64(6), "eps_smoothing": True},
        {"eps_smoothing": True},
        {"beta": 2**40},
    ):
        for row in [*rows, [1, 2, 1]]:
            want = _outcome(lambda row=row, opts=opts: py.chrf_of_row(row, opts))
            got = _outcome(lambda row=row, opts=opts: cy().chrf_of_row(row, opts))
            assert repr(got) == repr(want), (row, opts)
            if want[0] == "value":
                assert type(got[1]) is type(want[1])


@needs_cy
def test_sentence_row_long_segments_many_references_and_threads():
    """Segments past the shared scratch space's bounds (code points, references) count in a
    space of their own; threads calling at once (the shared space taken by one, the others in
    their own) get every row right."""

    rng = random.Random(7)
    long_hyp = " ".join(f"w{rng.randrange(3000)}" for _ in range(20_000))
    long_ref = " ".join(f"w{rng.randrange(3000)}" for _ in range(20_000))
    assert len(long_hyp) + len(long_ref) > cy()._ONE_SHARED_CPS
    many = [f"ref {k} a b" for k in range(cy()._ONE_SHARED_REFS + 5)]
    for opts in ({}, {"word_order": 2, "lowercase": True}, {"beta": np.float32(0.5)}):
        assert cy().chrf_sentence_row(long_hyp, [long_ref], opts) == py.chrf_sentence_row(long_hyp, [long_ref], opts)
        assert cy().chrf_sentence_row("ref 7 a b c", many, opts) == py.chrf_sentence_row("ref 7 a b c", many, opts)
    hyps, streams = SAMPLE_HYPS_REFS()
    opts = {"word_order": 2}
    want = [py.chrf_sentence_row(h, [r], opts) for h, r in zip(hyps, streams, strict=True)]
    assert not differing_in_threads(
        lambda: [cy().chrf_sentence_row(h, [r], opts) for h, r in zip(hyps, streams, strict=True)], want, 10
    )


def SAMPLE_HYPS_REFS():
    rng = random.Random(3)
    words = ["Straße", "İstanbul", "ΣΊΣΥΦΟΣ", "日本語", "cat", "dog", "😀", "the", "a", "(hi)", "end."]
    hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 25))) for _ in range(150)]
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 25))) for _ in range(150)]
    return hyps, refs


@needs_cy
def test_sentence_row_refuses_non_str():
    for hyp, refs in (("a", ["a", 3]), (None, ["a"]), (b"a", ["a"]), ("a", [b"a"]), ("a", [None, 3.0])):
        for opts in ({}, {"lowercase": True}):
            want = _outcome(lambda hyp=hyp, refs=refs, opts=opts: py.chrf_sentence_row(hyp, refs, opts))
            assert want[:2] == ("error", "TypeError")
            assert _outcome(lambda hyp=hyp, refs=refs, opts=opts: cy().chrf_sentence_row(hyp, refs, opts)) == want
    for bad in ({"char_order": 0, "word_order": 0}, {"beta": -1}, {"beta": float("nan")}, {"char_order": 1.0}):
        want = _outcome(lambda bad=bad: py.chrf_sentence_row("a", ["a"], bad))
        assert want[0] == "error"
        assert _outcome(lambda bad=bad: cy().chrf_sentence_row("a", ["a"], bad)) == want


def _same_chrf_result(ours, theirs):
    assert vars(ours).keys() - {"_verbose"} == vars(theirs).keys() - {"_verbose"}
    for key, value in vars(theirs).items():
        assert repr(getattr(ours, key)) == repr(value), key
        assert type(getattr(ours, key)) is type(value), key
    assert_same_score(ours, theirs)
    assert ours.format(score_only=True) == theirs.format(score_only=True)
    signature = "nrefs:1|case:mixed"
    assert json.loads(ours.format(signature=signature, is_json=True)) == json.loads(
        theirs.format(signature=signature, is_json=True)
    )


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"word_order": 2},
        {"beta": 0.5},
        {"beta": 2.0},
        {"beta": 3, "eps_smoothing": True},
        {"char_order": 4, "word_order": 1, "remove_whitespace": False},
        {"beta": np.float32(1.5)},
    ],
    ids=opt_id,
)
def test_sentence_chrf_and_sentence_score_equal_sacrebleus(backend, opts):
    """``sentence_chrf`` (its metric built once per option set, options told apart by type) and
    a reused ``CHRF().sentence_score``: every attribute (value and type), the texts and the
    signature equal sacreBLEU's, on every call."""
    hyps, refs = SAMPLE_HYPS_REFS()
    cases = [(h, [r]) for h, r in zip(hyps[:40], refs[:40], strict=True)]
    cases += [("", [""]), (" ", ["a"]), ("a b", [None, "a c", "a b"]), ("x", ["y", None, "x y", "x"])]
    ctor = {
        ("whitespace" if k == "remove_whitespace" else k): (not v if k == "remove_whitespace" else v)
        for k, v in opts.items()
    }
    ours_m, theirs_m = rapidbleu.CHRF(**ctor), SacreCHRF(**ctor)
    for _ in range(2):
        for hyp, rs in cases:
            _same_chrf_result(rapidbleu.sentence_chrf(hyp, rs, **opts), sacrebleu.sentence_chrf(hyp, rs, **opts))
            _same_chrf_result(ours_m.sentence_score(hyp, rs), theirs_m.sentence_score(hyp, rs))
            assert ours_m.num_refs == theirs_m.num_refs
            assert sig(ours_m) == sig(theirs_m)


def test_sentence_chrf_refuses_bad_input_on_every_call(backend):
    """An invalid option or input raises on every call (the shared metric caches no error), with
    the errors of today's checks."""
    for _ in range(2):
        with pytest.raises(TypeError, match="remove_whitespace"):
            rapidbleu.sentence_chrf("a", ["a"], remove_whitespace="no")
        with pytest.raises(ValueError, match="beta"):
            rapidbleu.sentence_chrf("a", ["a"], beta=-1)
        with pytest.raises(ValueError, match="char_order"):
            rapidbleu.sentence_chrf("a", ["a"], char_order=0)
        with pytest.raises(TypeError):
            rapidbleu.sentence_chrf("a", "a")
        with pytest.raises(ValueError, match="no reference"):
            rapidbleu.sentence_chrf("a", [None])
        with pytest.raises(TypeError):
            rapidbleu.sentence_chrf("a", ["a", 3])
        with pytest.raises(TypeError):
            rapidbleu.sentence_chrf(None, ["a"])
    # an unhashable option value builds a metric every call, and is still checked
    with pytest.raises(TypeError, match="beta"):
        rapidbleu.sentence_chrf("a", ["a"], beta=[2])
