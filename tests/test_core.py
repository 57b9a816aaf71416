"""The compiled core (``rapidbleu._core.bleu.bleu_stats_cy``) against the pure-Python oracle (``bleu_stats_py``).

Every test here skips when the extension is not built, except ``test_extension_required``,
which fails when ``RAPIDBLEU_REQUIRE_CYTHON=1`` (CI and wheel builds set it).
"""

import os
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from conftest import clean_ids_plain, differing_in_threads, wmt23_dir

from rapidbleu._core.bleu import bleu_stats_py as py
from rapidbleu._core.ids import ids_py
from rapidbleu.tokenizers.tokenizer_13a import tokenize_13a

try:
    from rapidbleu._core.bleu import bleu_stats_cy as cy
    from rapidbleu._core.ids import ids_cy

    _MISSING = None
except ImportError as exc:  # not built: pure-Python install
    cy = ids_cy = None
    _MISSING = f"rapidbleu._core.bleu.bleu_stats_cy is not built ({exc}); run `python setup.py build_ext --inplace`"

needs_cy = pytest.mark.skipif(cy is None, reason=_MISSING or "")


def ids_twin(mod):
    """The id-stream twin (``ids_py`` / ``ids_cy``) of the same backend as ``mod``."""
    return ids_py if mod is py else ids_cy


def streams(per_segment):
    """Segment-major reference lists as the reference streams ``string_stats`` takes: stream k
    holds each segment's k-th reference, ``None`` where a segment has fewer (as sacreBLEU's
    callers write a variable number of references)."""
    k_max = max((len(r) for r in per_segment), default=0)
    return [[r[k] if k < len(r) else None for r in per_segment] for k in range(k_max)]


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def test_extension_required():
    if os.environ.get("RAPIDBLEU_REQUIRE_CYTHON") == "1":
        assert cy is not None, _MISSING
    elif cy is None:
        pytest.skip(_MISSING)
    assert cy.NAME == "cython"


# -- WMT23: every system, element for element --------------------------------------------

_HERE = Path(__file__).resolve().parent
_FULL = wmt23_dir()  # the full selection has system-outputs/; the samples are flat
_DATA = _FULL if (_FULL / "system-outputs").is_dir() else None


def _lines(path):
    # as sacreBLEU's command line reads files: UTF-8, split on "\n" only, BOM kept
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _systems():
    if _DATA is None:
        return []
    return sorted(str(p) for p in (_DATA / "system-outputs").glob("*"))


def _system_id(path):
    return Path(path).name


@needs_cy
@pytest.mark.skipif(_DATA is None, reason="full WMT23 data not found ($RAPIDBLEU_WMT23_DIR or ../shared/data/wmt23)")
@pytest.mark.parametrize("system", _systems(), ids=_system_id)
def test_wmt23_system_matches_oracle(system):
    # generaltest2023.<pair>.hyp.<system>.<lang>; system names may contain dots
    name = Path(system).name
    pair, lang = name.split(".")[1], name.rsplit(".", 1)[1]
    ref_files = sorted(str(p) for p in (_DATA / "references").glob(f"generaltest2023.{pair}.ref.*.{lang}"))
    assert ref_files, f"no reference of {pair} in {_DATA / 'references'}"
    hyps = _lines(system)
    refs = [_lines(f) for f in ref_files]
    assert all(len(r) == len(hyps) for r in refs)
    expected = py.string_stats(hyps, refs)
    got = cy.string_stats(hyps, refs)
    assert got.dtype == np.int64
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# -- adversarial strings ------------------------------------------------------------------

_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
_PIECES = [
    *_SPACES,
    "\u200b",
    "\ufeff",
    "\U0001f600",
    "\U00010348",
    "e\u0301",
    "\u0301",
    "\ud800",
    "&amp;",
    "&amp;lt;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&amp;quot;",
    "&",
    "<skipped>",
    "<skip",
    "-\n",
    "\n",
    "-",
    ".",
    ",",
    "..",
    ",.",
    "3",
    "0",
    "42",
    "1,000",
    "3.5",
    "a",
    "b",
    "the",
    "cat",
    "İ",
    "Σ",
    "ß",
    "ǅ",
    "Ω",
    "(",
    ")",
    "'",
    '"',
    "$",
    "/",
    "~",
    "`",
    "@",
    "[",
    "]",
]
_word = st.sampled_from(_PIECES)
_text = st.lists(_word, max_size=25).map("".join) | st.text(max_size=30)
_refs = st.lists(_text, min_size=1, max_size=8)
_batch = st.lists(st.tuples(_text, _refs), min_size=1, max_size=6)

_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@needs_cy
def test_whitespace_is_python_isspace():
    assert cy._whitespace() == [c for c in range(0x110000) if chr(c).isspace()]


@needs_cy
@_SETTINGS
@given(_text)
def test_13a_tokens_equal_regex(line):
    assert cy._tokenize(line, "13a") == tokenize_13a(line.rstrip())
    assert cy._tokenize(line, "none") == " ".join(line.split())


@needs_cy
@_SETTINGS
@given(_batch, st.sampled_from(["13a", "none"]), st.booleans(), st.integers(1, 9))
def test_string_stats_equal_oracle(batch, tokenizer, lowercase, order):
    hyps = [h for h, _ in batch]
    refs = streams([r for _, r in batch])
    expected = py.string_stats(hyps, refs, order, tokenizer, lowercase)
    np.testing.assert_array_equal(cy.string_stats(hyps, refs, order, tokenizer, lowercase), expected)


@needs_cy
@_SETTINGS
@given(_batch, st.sampled_from(["13a", "none", "char"]), st.booleans(), st.integers(1, 9), st.sampled_from([1, 2]))
def test_string_totals_are_column_sums(batch, tokenizer, lowercase, order, workers):
    hyps = [h for h, _ in batch]
    refs = streams([r for _, r in batch])
    expected = py.string_stats(hyps, refs, order, tokenizer, lowercase).sum(axis=0).tolist()
    for mod in (py, cy):
        totals = mod.string_totals(hyps, refs, order, tokenizer, lowercase, workers)
        assert totals == expected
        assert all(type(v) is int for v in totals)


@needs_cy
def test_repeated_ngrams_and_long_lines():
    hyps = ["a a a a b " * 400, "x " * 5000 + "&amp;lt; 3.5 1,000 " * 50, "the " * 10]
    refs = streams([["a a b " * 300, "a " * 1000], ["x " * 10, "x " * 4999], ["the the", "the " * 3, "cat"]])
    for order in (1, 4, 9, 12):
        np.testing.assert_array_equal(cy.string_stats(hyps, refs, order), py.string_stats(hyps, refs, order))


_ids = st.lists(st.integers(-3, 6) | st.integers(-(2**63), 2**63 - 1), max_size=30)


@needs_cy
@_SETTINGS
@given(
    st.lists(st.tuples(_ids, st.lists(_ids, min_size=1, max_size=8)), min_size=1, max_size=6),
    st.integers(1, 9),
    st.booleans(),
)
def test_token_stats_equal_oracle(batch, order, as_arrays):
    hyps = [h for h, _ in batch]
    refs = [r for _, r in batch]
    expected = py.token_stats(hyps, refs, order)
    if as_arrays:
        hyps = [np.array(h, dtype=np.int64) for h in hyps]
        refs = [[np.array(x, dtype=np.int64) for x in r] for r in refs]
    np.testing.assert_array_equal(cy.token_stats(hyps, refs, order), expected)


@needs_cy
def test_token_stats_equal_string_stats_none():
    rng = np.random.default_rng(0)
    hyps = [rng.integers(0, 20, rng.integers(0, 30)) for _ in range(200)]
    refs = [[rng.integers(0, 20, rng.integers(0, 30)) for _ in range(rng.integers(1, 4))] for _ in hyps]
    as_str = lambda ids: " ".join(map(str, ids))  # noqa: E731
    got = cy.token_stats(hyps, refs)
    np.testing.assert_array_equal(
        got,
        cy.string_stats([as_str(h) for h in hyps], streams([[as_str(x) for x in r] for r in refs]), tokenizer="none"),
    )
    np.testing.assert_array_equal(got, py.token_stats(hyps, refs))


# -- threads ------------------------------------------------------------------------------


def _random_corpus(n, seed=1):
    rng = np.random.default_rng(seed)
    vocab = ["the", "cat", "sat", "on", "mat", ".", ",", "3.5", "a-b", "İ", "\u3000", "x&amp;y"]

    def line():
        return " ".join(rng.choice(vocab, rng.integers(0, 40)))

    return [line() for _ in range(n)], [[line() for _ in range(rng.integers(1, 4))] for _ in range(n)]


@needs_cy
def test_workers_give_identical_results():
    hyps, refs = _random_corpus(1000)
    one = cy.string_stats(hyps, streams(refs), workers=1)
    np.testing.assert_array_equal(one, py.string_stats(hyps, streams(refs)))
    for w in (2, 3, -1):
        np.testing.assert_array_equal(cy.string_stats(hyps, streams(refs), workers=w), one)
    ids = [[hash(t) % 50 for t in h.split()] for h in hyps]
    rids = [[[hash(t) % 50 for t in x.split()] for x in r] for r in refs]
    t1 = cy.token_stats(ids, rids, workers=1)
    for w in (2, -1):
        np.testing.assert_array_equal(cy.token_stats(ids, rids, workers=w), t1)


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
@pytest.mark.parametrize(("bad", "err"), [(0, ValueError), (1.5, TypeError), (True, TypeError), (None, TypeError)])
def test_bad_workers(mod, bad, err):
    """The same ``workers`` values are refused with the same error on both backends, where they
    enter (the twins trust the value checked there: test_validation's checks of every entry
    point); -2 means all cores but one, as in joblib."""
    import rapidbleu

    with pytest.raises(err):
        rapidbleu.BLEU(workers=bad)
    assert mod.string_stats(["a"], [["a"]], workers=-2).shape == (1, 10)
    one = rapidbleu.BLEU().corpus_score(["a b c d"], [["a b c d"]]).score
    assert rapidbleu.BLEU(workers=-2).corpus_score(["a b c d"], [["a b c d"]]).score == one


# -- one segment a call (sentence_row) ---------------------------------------------------------


@needs_cy
@_SETTINGS
@given(
    _text,
    st.lists(st.one_of(_text, st.none()), max_size=12),
    st.sampled_from(["13a", "none", "char", "zh", "intl"]),
    st.booleans(),
    st.integers(1, 9),
)
def test_sentence_row_equal_oracle_and_batch(hyp, refs, tokenizer, lowercase, order):
    """One segment's row: the same Python ints in both twins, and the batch kernel's row (up to
    12 references: beyond the stack array of 8 too; ``None`` skipped)."""
    if all(r is None for r in refs):
        for mod in (py, cy):
            with pytest.raises(ValueError, match="segment 0 has no reference"):
                mod.sentence_row(hyp, refs, order, tokenizer, lowercase)
        return
    want = py.sentence_row(hyp, refs, order, tokenizer, lowercase)
    got = cy.sentence_row(hyp, refs, order, tokenizer, lowercase)
    assert got == want
    assert all(type(v) is int for v in got)
    batch = cy.string_stats([hyp], [[r] for r in refs], order, tokenizer, lowercase)[0].tolist()
    assert got == batch


@needs_cy
@pytest.mark.parametrize("mask", [0, 0xFF00000000000000])
def test_sentence_row_collisions_and_python_tokenizers(mask):
    hyps, refs = _random_corpus(60, seed=3)
    for h, rs in zip(hyps, refs, strict=True):
        assert cy._sentence_row_masked(h, rs, 4, "13a", False, mask) == py.sentence_row(h, rs, 4)
    # lowercasing (Python's str.lower) before the C tokenizer, and a tokenizer without a C fast
    # path (MeCab, the ja extra), run in Python first
    for h, rs, tok in (("Ｈｅｌｌｏ WÖRLD!", ["hello wörld !"], "13a"), ("İstanbul'DA Σ", ["i̇stanbul'da σ"], "intl")):
        assert cy.sentence_row(h, rs, 4, tok, True) == py.sentence_row(h, rs, 4, tok, True)
    pytest.importorskip("MeCab")
    assert cy.sentence_row("猫が座った。", ["猫は座った。"], 4, "ja-mecab") == py.sentence_row(
        "猫が座った。", ["猫は座った。"], 4, "ja-mecab"
    )


@needs_cy
def test_sentence_row_long_segments_and_threads():
    """Segments past the shared scratch space's bound count in a space of their own; threads
    calling at once (the shared space taken by one, the others in their own) get every row
    right."""

    long_hyp = " ".join(f"w{i % 5000}" for i in range(40_000))
    long_ref = " ".join(f"w{(i * 7) % 5000}" for i in range(40_000))
    assert len(long_hyp) + len(long_ref) > cy._ONE_SHARED_CPS
    assert cy.sentence_row(long_hyp, [long_ref]) == py.sentence_row(long_hyp, [long_ref])
    hyps, refs = _random_corpus(200, seed=11)
    want = [py.sentence_row(h, rs) for h, rs in zip(hyps, refs, strict=True)]
    assert not differing_in_threads(
        lambda: [cy.sentence_row(h, rs) for h, rs in zip(hyps, refs, strict=True)], want, 20
    )


@needs_cy
def test_sentence_row_refuses_non_str():
    for hyp, refs in (("a", ["a", 3]), (None, ["a"]), (b"a", ["a"]), ("a", [b"a"])):
        with pytest.raises(TypeError, match="expected str"):
            cy.sentence_row(hyp, refs)
        with pytest.raises(TypeError, match="expected str"):
            cy.sentence_row(hyp, refs, lowercase=True)
    with pytest.raises(ValueError, match="max_ngram_order must be >= 1"):
        cy.sentence_row("a", ["a"], 0)


@needs_cy
@_SETTINGS
@given(
    st.lists(st.sampled_from(["a", "b", "ab", "x" * 20, "x" * 21]), max_size=12),
    st.lists(st.lists(st.sampled_from(["a", "b", "ab", "x" * 20, "x" * 21]), max_size=12), min_size=1, max_size=10),
    st.integers(1, 7),
    st.sampled_from(["str", "int", "tuple", "mixed"]),
)
def test_token_row_equal_oracle_and_batch(hyp, refs, order, form):
    """One segment of token sequences: the same Python ints in both twins and the batch
    kernel's row, for str tokens (short and long), int ids, tuples and mixed types."""
    vocab = {t: i for i, t in enumerate(["a", "b", "ab", "x" * 20, "x" * 21])}
    if form == "int":
        hyp, refs = [vocab[t] for t in hyp], [[vocab[t] for t in r] for r in refs]
    elif form == "tuple":
        hyp, refs = tuple(hyp), [tuple(r) for r in refs]
    elif form == "mixed":
        hyp, refs = [vocab[t] if t == "a" else t for t in hyp], [[1.0 if t == "b" else t for t in r] for r in refs]
    want = py.token_row(hyp, refs, order)
    got = cy.token_row(hyp, refs, order)
    assert got == want
    assert got == cy.token_stats([hyp], [refs], order)[0].tolist()
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        cy.token_row(hyp, [], order)


@needs_cy
def test_one_segment_rows_after_a_batch_in_the_shared_space():
    """A small id batch counts in the shared scratch space too (with its own direct id map); a
    one-segment call after it sets the map up for its own ids (a stale map counted ids outside
    its range as new: 0 matches for ``[0]`` against ``[0]``)."""
    flat = np.arange(100, 140, dtype=np.int64)
    lens = np.full(10, 4, dtype=np.int64)
    cy.flat_stats(flat, lens, [(flat, lens)], 4)
    for hyp, refs in (([0], [[0]]), ([1, 2, 3, 4], [[1, 2, 3, 4]]), ([7, 1, "1"], [[1, 7]])):
        assert cy.token_row(hyp, refs, 4) == py.token_row(hyp, refs, 4)
        cy.flat_stats(flat, lens, [(flat, lens)], 4)
    assert cy.sentence_row("a b", ["a b"]) == py.sentence_row("a b", ["a b"])


@needs_cy
def test_token_row_keeps_no_token_and_counts_large_segments():
    """The shared block drops its references to the caller's tokens when a call returns; a
    segment past the shared bound counts in a block of its own."""
    import sys

    long_token = "y" * 40
    before = sys.getrefcount(long_token)
    cy.token_row([long_token, "a"], [[long_token]], 2)
    assert sys.getrefcount(long_token) == before
    big = [f"w{i % 97}" for i in range(cy._ONE_SHARED_CPS + 5)]
    assert cy.token_row(big, [big[::-1]], 4) == py.token_row(big, [big[::-1]], 4)


# -- collisions ---------------------------------------------------------------------------


@needs_cy
@pytest.mark.parametrize("mask", [0, 1, 0xFF00000000000000])
def test_hash_collisions_do_not_change_counts(mask):
    """With every hash ANDed to (almost) nothing, all tokens and n-grams share a probe chain;
    exact key/content comparison must keep every count right."""
    hyps, refs = _random_corpus(300, seed=7)
    hyps += ["ab ba aab aba baa", "\ud800 \U0001f600 x", ""]
    refs += [["ba ab aba aab"], ["\U0001f600 \ud800 x"], ["a"]]
    for order in (1, 4, 9):
        expected = py.string_stats(hyps, streams(refs), order)
        got = cy._string_stats_masked(hyps, streams(refs), order, "13a", False, 1, mask)
        np.testing.assert_array_equal(got, expected)
    ids = [[hash(t) % 1000 for t in h.split()] for h in hyps]
    rids = [[[hash(t) % 1000 for t in x.split()] for x in r] for r in refs]
    np.testing.assert_array_equal(cy._token_stats_masked(ids, rids, 4, 1, mask), py.token_stats(ids, rids, 4))


@needs_cy
def test_empty_batch_and_shapes():
    assert cy.string_stats([], [], 4).shape == (0, 10)
    assert cy.string_stats([], [[], []], 4).shape == (0, 10)
    out = cy.string_stats([""], [[""], [" "]], 2)
    np.testing.assert_array_equal(out, py.string_stats([""], [[""], [" "]], 2))
    assert out.dtype == np.int64
    assert cy.string_totals([], [[]], 3) == py.string_totals([], [[]], 3) == [0] * 8


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_stream_layout_errors(mod):
    with pytest.raises(ValueError, match="stream 1 has 1 line but"):
        mod.string_stats(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        mod.string_stats(["a", "b"], [["a", None], [None, None]])
    with pytest.raises(ValueError, match="stream 1 has 1 line but"):
        mod.string_totals(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        mod.string_totals(["a", "b"], [["a", None], [None, None]])


@needs_cy
def test_non_str_is_a_type_error():
    # (the oracle trusts validated input; the core must still never read a non-str as one)
    for hyps, refs in ((["a", "b"], [["a", 3]]), (["a", None], [["a", "b"]]), ([b"a"], [["a"]])):
        with pytest.raises(TypeError, match="expected str"):
            cy.string_stats(hyps, refs)


@needs_cy
def test_streams_are_copied_and_none_skipped():
    """None entries are skipped (a segment's references are its non-None stream items, in
    stream order), and the core reads private copies of the lists."""
    hyps = ["the cat sat", "a b c d", "x"]
    refs = [["the cat", None, "x y"], [None, "a b c", None], ["the cat sat", "a b", "x"]]
    per_seg = [["the cat", "the cat sat"], ["a b c", "a b"], ["x y", "x"]]
    expected = np.array([py.string_stats([h], [[r] for r in rs])[0] for h, rs in zip(hyps, per_seg, strict=False)])
    np.testing.assert_array_equal(py.string_stats(hyps, refs), expected)
    np.testing.assert_array_equal(cy.string_stats(hyps, refs), expected)
    np.testing.assert_array_equal(cy.string_stats(hyps, refs, workers=2), expected)


# -- token sequences of any hashable tokens (NLTK's convention) ----------------------------

# Tokens that exercise each way the core reads a segment: exact str (code points), exact int
# (int64 ids), and everything else (mapped by a dict, Python's ==: 1 == 1.0 == True).
# The core reads exact str tokens in place: a token of up to 8 bytes (kind 1, 2 or 4 bytes per
# code point) is compared by its head word alone, a longer one by its bytes too; the strings
# below straddle those cases (equal heads with different tails, equal bytes in other kinds).
_str_tok = st.sampled_from(["a", "b", "ab", "", " ", "é", "\U0001f600", "\ud800", "a b", "İ"]) | st.sampled_from(
    [
        "abcd",
        "abcdabcd",
        "abcdabcdX",
        "abcdabcdY",
        "abcdabcdXY",
        "abcdbcda",
        "abcdefghijklmnopq",
        "abcdefghijklmnopr",
        "ĀĀĀĀ",
        "ĀĀĀĀĀ",
        "ĀĀĀĀĀ" + "a",
        "\x00\x01\x00\x01",
        "\u0100\u0100",
        "\U0001f600\U0001f600",
        "\U0001f600\U0001f600\U0001f600",
        "ééééééééé",
    ]
)
_int_tok = st.integers(-2, 3) | st.integers(-(2**63), 2**63 - 1) | st.just(2**64)
_odd_tok = st.sampled_from([1.0, True, False, 0, 2.5, (1, 2), "1", None, b"a", np.int64(1)])


def _seqs_of(tok):
    seq = st.lists(tok, max_size=12)
    return st.lists(st.tuples(seq, st.lists(seq, min_size=1, max_size=4)), min_size=1, max_size=8)


@needs_cy
@_SETTINGS
@given(
    _seqs_of(_str_tok) | _seqs_of(_int_tok) | _seqs_of(_str_tok | _int_tok | _odd_tok),
    st.integers(1, 6),
    st.sampled_from([1, 2]),
    st.sampled_from([1, 7, 1 << 20]),
    st.booleans(),
)
def test_token_sequences_equal_oracle(batch, order, workers, block, as_tuples):
    """Any hashable tokens, blocks of any size, any thread count: the oracle's numbers."""
    hyps = [h for h, _ in batch]
    refs = [r for _, r in batch]
    if as_tuples:
        hyps = [tuple(h) for h in hyps]
        refs = [tuple(tuple(x) for x in r) for r in refs]
    expected = py.token_stats(hyps, refs, order)
    with _block_size(block):
        np.testing.assert_array_equal(cy.token_stats(hyps, refs, order, workers=workers), expected)


@contextmanager
def _block_size(size):
    """Set the core's block size (tokens per packed block) for the duration."""
    old = cy._BLOCK_TOKENS
    cy._BLOCK_TOKENS = size
    try:
        yield
    finally:
        cy._BLOCK_TOKENS = old


@needs_cy
def test_str_tokens_equal_int_ids_and_string_path():
    """The same corpus as str tokens, as int ids and as text (tokenize='none'): one answer;
    also across many small blocks with two threads (packing overlaps counting)."""
    hyps, refs = _random_corpus(600, seed=3)
    tok_h = [h.split() for h in hyps]
    tok_r = [[x.split() for x in r] for r in refs]
    vocab = {}
    id_h = [[vocab.setdefault(t, len(vocab)) for t in h] for h in tok_h]
    id_r = [[[vocab.setdefault(t, len(vocab)) for t in x] for x in r] for r in tok_r]
    want = py.string_stats(hyps, streams(refs), 4, tokenizer="none")
    np.testing.assert_array_equal(cy.token_stats(tok_h, tok_r), want)
    np.testing.assert_array_equal(cy.token_stats(id_h, id_r), want)
    with _block_size(50):
        np.testing.assert_array_equal(cy.token_stats(tok_h, tok_r, workers=2), want)
        np.testing.assert_array_equal(cy.token_stats(id_h, id_r, workers=3), want)


@needs_cy
@pytest.mark.parametrize("mask", [0, 0xFF00000000000000])
def test_str_token_collisions_do_not_change_counts(mask):
    tok_h = [["ab", "ba", "a", "b", "ab"], ["\U0001f600", "x", "\ud800"], [], ["", "", " "]]
    tok_r = [[["ba", "ab", "ab"], ["a b"]], [["\U0001f600", "\ud800", "x"]], [["a"]], [[" ", ""]]]
    for order in (1, 3):
        np.testing.assert_array_equal(
            cy._token_stats_masked(tok_h, tok_r, order, 1, mask), py.token_stats(tok_h, tok_r, order)
        )


@needs_cy
@pytest.mark.parametrize("mask", [0, 0xFF00000000000000, 0xFFFFFFFFFFFFFFFF])
def test_str_token_heads_and_kinds(mask):
    """Tokens equal in their first 8 or 16 bytes, in their length or in their bytes but not their
    kind (\x00\x01\x00\x01 is kind 1, Ā = U+0100 kind 2: the same 4 bytes little-endian) stay
    distinct; equal tokens built apart (not the same object) match.  With mask 0 the hashes of
    long tokens (over 16 bytes) all compare equal, so their bytes decide."""
    base = [
        "abcdefgh",
        "abcdefghi",
        "abcdefghj",
        "abcdefghij",
        "\x00\x01\x00\x01",
        "\u0100\u0100",
        "ĀĀĀĀĀ",
        "ĀĀĀĀĀa",
        "\U0001f600\U0001f600\U0001f600",
        "abc",
        "abcabcab",
        "abcdefghijklmnop",
        "abcdefghijklmnopq",
        "abcdefghijklmnopr",
        "abcdefghXjklmnopq",
        "abcdefghijklmnopqrstuvwxyz",
        "abcdefghijklmnopqrstuvwxyZ",
        "\x00\x01" * 9,
        "\u0100" * 9,
        "\u0100" * 8 + "a",
    ]
    rng = np.random.default_rng(5)

    def copy(t):  # an equal str that is another object
        return "".join(list(t)) if len(t) > 1 else t

    tok_h = [[copy(base[k]) for k in rng.integers(0, len(base), rng.integers(0, 15))] for _ in range(60)]
    tok_r = [
        [[copy(base[k]) for k in rng.integers(0, len(base), rng.integers(0, 15))] for _ in range(2)] for _ in range(60)
    ]
    for order in (1, 2, 4):
        np.testing.assert_array_equal(
            cy._token_stats_masked(tok_h, tok_r, order, 1, mask), py.token_stats(tok_h, tok_r, order)
        )


@needs_cy
def test_str_tokens_references_are_dropped():
    """The core holds a reference to each long str token only while it counts: none is left
    behind, also when a segment turns out to need the dict path after some were taken."""
    import sys

    long_tok = "".join(["long token ", "of many bytes"])
    short_tok = "".join(["sh", "ort"])
    hyps = [[long_tok, short_tok, long_tok], [long_tok, long_tok, 3], [short_tok]]
    refs = [[[long_tok]], [[long_tok, "x"], [long_tok, 2.5]], [[long_tok, short_tok]]]
    before = sys.getrefcount(long_tok), sys.getrefcount(short_tok)
    for block in (1, 1 << 15):
        with _block_size(block):
            for w in (1, 2):
                np.testing.assert_array_equal(cy.token_stats(hyps, refs, 4, workers=w), py.token_stats(hyps, refs, 4))
    assert (sys.getrefcount(long_tok), sys.getrefcount(short_tok)) == before


@needs_cy
def test_token_stats_error_while_threads_count():
    """An error while packing a later block (a token's __hash__ raising in the dict path), with
    counting threads busy on an earlier one: the error comes out, every thread stops, and the
    strs' references are dropped."""
    import sys
    import threading

    class Bad:
        def __hash__(self):
            raise RuntimeError("bad token")

    long_tok = "".join(["a long token ", "of many bytes"])
    hyps = [[long_tok, "b", long_tok] for _ in range(400)] + [["x", Bad()]] + [["a"]] * 50
    refs = [[[long_tok, "b"]] for _ in range(400)] + [[["x"]]] + [[["a"]]] * 50
    threads, before = threading.active_count(), sys.getrefcount(long_tok)
    with _block_size(64):
        for w in (1, 2, 3):
            with pytest.raises(RuntimeError, match="bad token"):
                cy.token_stats(hyps, refs, 4, workers=w)
    assert threading.active_count() == threads
    assert sys.getrefcount(long_tok) == before
    with _block_size(64):
        np.testing.assert_array_equal(
            cy.token_stats(hyps[:400], refs[:400], 4, workers=2), py.token_stats(hyps[:400], refs[:400], 4)
        )


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_token_stats_errors(mod):
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        mod.token_stats([["a"], ["b"]], [[["a"]], []])
    with pytest.raises(ValueError, match="references has 1 segment but there are 2 hypotheses"):
        mod.token_stats([["a"], ["b"]], [[["a"]]])
    with pytest.raises(TypeError, match="unhashable"):
        mod.token_stats([[["a"]]], [[["a"]]])


# -- flat id streams -----------------------------------------------------------------------


def _flat(seqs):
    lens = np.array([-1 if s is None else len(s) for s in seqs], dtype=np.int64)
    flat = np.array([t for s in seqs if s is not None for t in s], dtype=np.int64)
    return flat, lens


@needs_cy
@_SETTINGS
@given(
    st.lists(st.tuples(_ids, st.lists(_ids | st.none(), min_size=2, max_size=2)), min_size=1, max_size=8).filter(
        lambda b: all(any(r is not None for r in refs) for _, refs in b)
    ),
    st.integers(1, 6),
    st.sampled_from([1, 2]),
)
def test_flat_stats_equal_oracle(batch, order, workers):
    """Flat streams (None = no reference in that stream) give token_stats' numbers."""
    hyps = [h for h, _ in batch]
    per_seg = [[r for r in refs if r is not None] for _, refs in batch]
    ref_streams = [_flat([refs[k] for _, refs in batch]) for k in range(2)]
    expected = py.token_stats(hyps, per_seg, order)
    np.testing.assert_array_equal(py.flat_stats(*_flat(hyps), ref_streams, order), expected)
    np.testing.assert_array_equal(cy.flat_stats(*_flat(hyps), ref_streams, order, workers=workers), expected)
    np.testing.assert_array_equal(cy._flat_stats_masked(*_flat(hyps), ref_streams, order, 1, 0), expected)


@needs_cy
@pytest.mark.parametrize("workers", [1, 2])
def test_id_range_direct_map_and_hash_table_agree(workers):
    """Int64 ids whose range is small (a model's vocabulary) are mapped by a direct-mapped
    array stamped per segment, others by the hash table: the same sequences shifted, spread
    or at the ends of int64 give the oracle's numbers either way, and under a test mask (which
    turns the direct map off); many segments reuse the map, and two threads each have one."""
    rng = np.random.default_rng(5)
    base = [rng.integers(0, 40, size=rng.integers(0, 60)) for _ in range(300)]
    refs = [[rng.integers(0, 40, size=rng.integers(0, 60)) for _ in range(rng.integers(1, 4))] for _ in range(300)]
    refs = [
        [np.concatenate([h[:k], r]) for r in rs]
        for h, rs, k in zip(base, refs, rng.integers(0, 30, size=300), strict=False)
    ]
    expected = py.token_stats([h.tolist() for h in base], [[r.tolist() for r in rs] for rs in refs], 4)
    # direct map (range 40), shifted, negative; hash table: spread (range 2**50) or the whole int64 range
    for f in (
        lambda x: x,
        lambda x: x + 10**15,
        lambda x: -x - 2**62,
        lambda x: x * 2**45,
        lambda x: np.where(x == 0, np.int64(-(2**63)), np.where(x == 1, np.int64(2**63 - 1), x)),
    ):
        hyps = [f(h).astype(np.int64) for h in base]
        rr = [[f(r).astype(np.int64) for r in rs] for rs in refs]
        np.testing.assert_array_equal(cy.token_stats(hyps, rr, 4, workers=workers), expected)
        np.testing.assert_array_equal(cy._token_stats_masked(hyps, rr, 4, workers, 0), expected)
        ref_streams = [_flat([rs[k] if k < len(rs) else None for rs in rr]) for k in range(3)]
        np.testing.assert_array_equal(cy.flat_stats(*_flat(hyps), ref_streams, 4, workers=workers), expected)


@needs_cy
def test_references_longer_than_a_block_of_positions():
    """The core looks up reference positions block by block (1,024 at a time): n-grams that
    straddle a block's end, and counts of one n-gram gathered over several blocks and
    references (small vocabularies repeat n-grams), are the oracle's."""
    rng = np.random.default_rng(11)
    hyps, refs = [], []
    for ln in (1023, 1024, 1025, 2049, 3000):
        hyps.append(rng.integers(0, 6, size=ln).tolist())
        refs.append([rng.integers(0, 6, size=m).tolist() for m in (ln, ln + 1, 1022, 5)])
    for order in (1, 4, 7):
        np.testing.assert_array_equal(cy.token_stats(hyps, refs, order), py.token_stats(hyps, refs, order))
        np.testing.assert_array_equal(
            cy.token_stats(hyps, [r[:1] for r in refs], order), py.token_stats(hyps, [r[:1] for r in refs], order)
        )


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_flat_stats_errors(mod):
    h = _flat([[1, 2], [3]])
    with pytest.raises(ValueError, match="reference stream 0 has 1 row but"):
        mod.flat_stats(*h, [_flat([[1]])])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        mod.flat_stats(*h, [_flat([[1], None])])
    with pytest.raises(ValueError, match="the lengths sum to 3 but the buffer holds 2 ids"):
        mod.flat_stats(np.array([1, 2]), h[1], [_flat([[1], [2]])])
    with pytest.raises(ValueError, match="no reference stream"):
        mod.flat_stats(*h, [])


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
@pytest.mark.parametrize(
    ("seqs", "allow_none", "packable"),
    [
        ([[1, 2], (3,), []], False, True),
        ([[1, 2], None], True, True),
        ([[1, 2], None], False, False),
        ([[1, True]], False, False),  # bool: the checked path refuses it
        ([[1, np.int64(2)]], False, False),  # numpy scalar: the checked path converts it
        ([[2**63]], False, False),  # beyond int64
        ([[-(2**63), 2**63 - 1]], False, True),
        ([[0, 1, -1, 2**30 - 1, 2**30, -(2**30), 2**31, -(2**62)]], False, True),  # one CPython digit or more
        ([[-(2**63) - 1]], False, False),
        ([[1.0]], False, False),
        ([np.array([1])], False, False),
        ([], False, True),
    ],
)
def test_pack_int_lists(mod, seqs, allow_none, packable):
    got = ids_twin(mod).pack_int_lists(seqs, allow_none)
    if not packable:
        assert got is None
        return
    flat, lens = got
    want_flat, want_lens = _flat(seqs)
    assert flat.dtype == lens.dtype == np.int64
    np.testing.assert_array_equal(flat, want_flat)
    np.testing.assert_array_equal(lens, want_lens)


_IDS = st.integers(-2, 3)


@needs_cy
@_SETTINGS
@given(
    st.lists(st.lists(_IDS, max_size=10) | st.none(), min_size=0, max_size=10),
    st.none() | _IDS,
    st.none() | _IDS | st.lists(_IDS, max_size=3),
    st.none() | st.lists(_IDS, max_size=3),
)
def test_clean_flat_equal_oracle(seqs, pad_id, eos_id, drop_ids):
    """The C cleaning pass equals numpy's (the oracle), and both equal the rule written plainly
    (leading specials skipped, cut at the first eos after content, specials dropped; -1
    lengths kept)."""
    flat, lens = _flat(seqs)
    want = ids_py.clean_flat(flat, lens, pad_id, eos_id, drop_ids)
    got = ids_cy.clean_flat(flat, lens, pad_id, eos_id, drop_ids)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    eos_ids = [] if eos_id is None else [eos_id] if isinstance(eos_id, int) else eos_id
    expect = [None if s is None else clean_ids_plain(s, pad_id, eos_ids, drop_ids or []) for s in seqs]
    np.testing.assert_array_equal(want[1], _flat(expect)[1])
    np.testing.assert_array_equal(want[0], _flat(expect)[0])


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_clean_flat_generate_rows(mod):
    """Rows as ``generate()`` writes them: a decoder-start token equal to eos (BART), a bos,
    right padding; left padding with pad == eos (GPT-2); several eos ids (Llama 3)."""
    rows = [[2, 0, 250, 251, 2, 1], [0, 300, 2, 1, 1, 1], [2, 2, 2, 7, 8, 2, 2], [2, 2, 2, 2, 2, 2]]
    flat, lens = _flat(rows)
    got = ids_twin(mod).clean_flat(flat, lens, 1, 2, [0])
    assert got[1].tolist() == [2, 1, 2, 0]
    assert got[0].tolist() == [250, 251, 300, 7, 8]
    got = ids_twin(mod).clean_flat(*_flat([[9, 5, 6, 8, 5, 5], [8, 9, 9]]), 9, [8, 7])
    assert got[1].tolist() == [2, 0]
    assert got[0].tolist() == [5, 6]
    same = ids_twin(mod).clean_flat(flat, lens)  # no rule: the inputs themselves
    assert same[0] is flat
    assert same[1] is lens


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_clean_flat_checks_lengths(mod):
    with pytest.raises(ValueError, match="the lengths add up to more than the 2 ids in the buffer"):
        ids_twin(mod).clean_flat(np.array([1, 2]), np.array([5]), 0, None)
    with pytest.raises(ValueError, match="the lengths sum to 3 but the buffer holds 4 ids"):
        ids_twin(mod).clean_flat(np.array([1, 2, 3, 4]), np.array([2, -1, 1]), 0, None)


# -- input that changes under the core's feet, and lengths that lie --------------------------


class _Clearing:
    """A token whose hash empties the given lists (user code running mid-call)."""

    def __init__(self, *lists):
        self.lists = lists

    def __hash__(self):
        for x in self.lists:
            x.clear()
        return 0


@needs_cy
@pytest.mark.parametrize("workers", [1, 2])
def test_lists_shortened_mid_call_raise_not_crash(workers):
    hyps = [["a", "b"]] * 5000
    refs = [[["a", "b"]]] * 5000
    hyps = [[_Clearing()], *hyps]
    refs = [[["a"]], *refs]
    hyps[0][0].lists = (hyps, refs)
    with _block_size(64), pytest.raises(IndexError):
        cy.token_stats(hyps, refs, 4, workers=workers)


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_pack_int_lists_survives_a_finalizer_changing_the_list(mod):
    import gc

    seqs = [[1, 2, 3]] * 20000
    original = list(seqs)

    class Cycle:
        def __del__(self):
            seqs.clear()

    old = gc.get_threshold()
    try:
        c = Cycle()
        c.self = c
        del c
        gc.set_threshold(1)
        got = ids_twin(mod).pack_int_lists(seqs)
    finally:
        gc.set_threshold(*old)
        gc.collect()
    if got is not None:  # packed from a consistent snapshot of the list
        flat, lens = got
        assert len(lens) in (len(original), 0)
        assert len(flat) == 3 * len(lens)


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_lengths_that_overflow_are_refused(mod):
    huge = np.array([2**63 - 1, 2**63 - 1, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="lengths add up to more than"):
        ids_twin(mod).clean_flat(np.zeros(0, np.int64), huge, 0, None)
    with pytest.raises(ValueError, match="lengths add up to more than"):
        mod.flat_stats(np.array([1, 2, 3]), np.array([1, 1, 1]), [(np.zeros(0, np.int64), huge)], 2)
    with pytest.raises(ValueError, match="hypotheses: the lengths add up to more than"):
        mod.flat_stats(np.zeros(0, np.int64), huge, [(np.array([1, 2, 3]), np.array([1, 1, 1]))], 2)


@needs_cy
def test_block_size_zero_still_progresses():
    hyps, refs = [["a", "b"], ["c"]], [[["a"]], [["c"]]]
    with _block_size(0):
        np.testing.assert_array_equal(cy.token_stats(hyps, refs, 2, workers=2), py.token_stats(hyps, refs, 2))


@pytest.mark.parametrize("mod", [py, pytest.param(cy, marks=needs_cy)], ids=["python", "cython"])
def test_twins_agree_on_bad_arguments(mod):
    assert ids_twin(mod).pack_int_lists(iter([[1]])) is None
    for bad in (2.7, "4", True):
        with pytest.raises(TypeError, match="max_ngram_order must be an int"):
            mod.token_stats([["a"]], [[["a"]]], bad)
        with pytest.raises(TypeError, match="max_ngram_order must be an int"):
            mod.flat_stats(np.array([1]), np.array([1]), [(np.array([1]), np.array([1]))], bad)
        with pytest.raises(TypeError, match="max_ngram_order must be an int"):
            mod.string_stats(["a"], [["a"]], bad)
    with pytest.raises(ValueError, match="max_ngram_order must be >= 1"):
        mod.token_stats([["a"]], [[["a"]]], 0)
