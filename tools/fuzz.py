#!/usr/bin/env python3
"""Differential fuzzing: random adversarial inputs, rapidbleu against sacreBLEU 2.6.0 and NLTK,
and every compiled kernel against its Python twin.

Each case is drawn from a seeded generator (case ``i`` of seed ``s`` is always the same input,
so a failure prints the command that replays it) and is one of:

* ``sacre``: corpus and sentence BLEU of random strings (punctuation, digits with separators,
  CJK, Hangul, emoji, combining marks, case-changing letters, every kind of whitespace, lone
  surrogates, long tokens, empty lines) with a random tokenizer (13a, intl, zh, char, none),
  lowercasing, smoothing, effective order and 1-3 reference streams (``None`` gaps): every
  field of the score equal to sacreBLEU's, on both backends;
* ``nltk``: ``corpus_bleu``/``sentence_bleu`` of random token sequences (ints, strs, mixed, bools
  and floats that compare equal to ints) with random weights, smoothing methods 0-7 and
  ``auto_reweigh``: the same float as NLTK, or the same exception type, on both backends;
* ``kernels``: the compiled twin of each kernel (``bleu_stats``, ``ids``, ``bleu_sets``, ``bleu_scores``)
  against the Python one on random flat id streams, token lists and statistics, parameters at
  the edges (huge and tiny smoothing values, numpy scalars, counts near 2**53, lengths of -1):
  the same floats, or the same exception type and message;
* ``chrf``: chrF and chrF++ of the same random strings (empty lines, every kind of whitespace,
  long tokens, 1-3 reference streams with ``None`` gaps) with random character and word orders,
  beta, lowercase, whitespace, epsilon smoothing and now and then a bootstrap CI: corpus and
  sentence scores equal to sacreBLEU's (every field and the formatted text) on both backends;
  statistics given back (counts from 0 to past 2**63, Python ints, int64 and float32 rows)
  scored as sacreBLEU's ``_compute_score_from_stats`` scores them; and the chrF kernels'
  compiled twin against the Python one;
* ``ter``: TER the same way, with every tokenizer switch (normalized, no_punct,
  asian_support, case_sensitive), repeated words (shifts), statistics given back in every
  arithmetic (None, int64, float64, float32) and the TER kernels' twins, ``translation_edit_rate``
  on random word lists against sacreBLEU's ``lib_ter`` too.

Usage::

    python tools/fuzz.py                     # 60 s, seed 0
    python tools/fuzz.py --seconds 14400     # four hours
    python tools/fuzz.py --seed 7 --case 1234  # replay one case (printed on a mismatch)
    python tools/fuzz.py --kinds chrf ter    # only some kinds of cases

Exits 1 on the first mismatch (after printing it), 0 otherwise; a memory error under the
sanitizer build of ``.ci/run`` aborts the process, which fails the step too.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import random
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

KINDS = ("sacre", "nltk", "kernels", "chrf", "ter")

# -------------------------------------------------------------------------- random inputs

_ATOMS = [
    "the",
    "Cat",
    "sat",
    "on",
    "mat",
    "İstanbul",
    "straße",
    "ΣΊΣΥΦΟΣ",
    "ǅungla",
    "ﬁne",
    "1,000.5",
    "3.14",
    "2-3",
    "12:30",
    "1/2",
    "&quot;",
    "&amp;",
    "don't",
    "U.S.",
    "e.g.",
    "-",
    "--",
    "...",
    "!?",
    "(",
    ")",
    "[",
    "]",
    "«",
    "»",
    "„",
    "“",
    "—",
    "·",
    "$",
    "€",
    "%",
    "#",
    "中文",
    "你好世界",
    "。",
    "，",
    "日本語",
    "カタカナ",
    "한국어",
    "ไทย",
    "עברית",
    "العربية",
    "😀",
    "👍🏽",
    "e\u0301",
    "a\u0308\u0301",
    "\u200d",
    "\ufeff",
    "\u00ad",
    "x\u0300y",
    "\ud800",
    "\udfff",
    "\U0010ffff",
    "\x00",
    "\x7f",
    "A" * 40,
    "ab" * 300,
]
_SPACES = [" ", " ", " ", "  ", "\t", "\u3000", "\xa0", "\u2028", "\x0c", "\x1c", "\u200b", "\r", "\x85"]


def _line(rng: random.Random) -> str:
    if rng.random() < 0.05:
        return ""
    n = rng.randint(1, 25)
    parts = []
    for _ in range(n):
        parts.append(rng.choice(_ATOMS))
        parts.append(rng.choice(_SPACES))
    text = "".join(parts)
    return text if rng.random() < 0.8 else rng.choice(_SPACES) + text


def _tokens(rng: random.Random, vocab: list[Any], lo: int = 0, hi: int = 12) -> list[Any]:
    return [rng.choice(vocab) for _ in range(rng.randint(lo, hi))]


def _vocab(rng: random.Random) -> list[Any]:
    kind = rng.randrange(4)
    if kind == 0:
        return list(range(rng.randint(2, 9)))
    if kind == 1:
        return ["a", "b", "c", "d", "ab", "long token " * 3, "é", "e\u0301"][: rng.randint(2, 8)]
    if kind == 2:
        return [0, 1, 2, "a", "b", (1, 2), 1.0, True]  # Python's ==: 1 == 1.0 == True
    return [rng.randint(-(2**63), 2**63 - 1) for _ in range(rng.randint(2, 6))]


# -------------------------------------------------------------------------- comparisons


class Mismatch(AssertionError):
    pass


#: Comparisons made, those where both sides raised (the same error), and chrF and TER
#: bootstraps that sacreBLEU fails on (see ``_reference``): reported at the end.
TALLY = {"compared": 0, "both_raised": 0, "sacre_failed": 0}


def _outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    try:
        value = call()
    except Exception as exc:
        return ("error", type(exc), str(exc))
    return ("value", value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype.kind == "f" or b.dtype.kind == "f":
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            return a.shape == b.shape and bool(np.array_equal(a64.view(np.int64), b64.view(np.int64)))
        return a.shape == b.shape and bool(np.array_equal(a, b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # nan
    return bool(a == b) and type(a) is type(b)


def _check(what: str, want: tuple[Any, ...], got: tuple[Any, ...], any_error: bool = False) -> None:
    """``got`` is ``want``: the same value (bit for bit), or both an error -- of a subclass of
    ``want``'s type, or of any type with ``any_error`` (where rapidbleu refuses with its own
    ``ValueError`` what sacreBLEU fails on with another)."""
    TALLY["compared"] += 1
    if want[0] == "error" and got[0] == "error":
        TALLY["both_raised"] += 1
        if not any_error and not issubclass(got[1], want[1]):
            raise Mismatch(f"{what}: expected {want[1].__name__} ({want[2]}), got {got[1].__name__} ({got[2]})")
        return
    if want[0] != got[0] or not _same(want[1], got[1]):
        raise Mismatch(f"{what}: expected {want!r}, got {got!r}")


@contextlib.contextmanager
def backend(name: str) -> Iterator[None]:
    """Every kernel of one backend for the duration (as the tests' ``backend`` fixture)."""
    from rapidbleu._core import backend as _backend

    saved = {kind: _backend.select(kind=kind) for kind in _backend.TWINS}
    try:
        for kind in _backend.TWINS:
            setattr(_backend, kind, _backend.select(name, kind))
        yield
    finally:
        for kind, module in saved.items():
            setattr(_backend, kind, module)


BACKENDS = ("python", "cython")

# -------------------------------------------------------------------------- the cases


def case_sacre(rng: random.Random) -> None:
    import sacrebleu

    import rapidbleu

    n = rng.randint(1, 6)
    hyps = [_line(rng) for _ in range(n)]
    streams: list[list[str | None]] = [[_line(rng) for _ in range(n)] for _ in range(rng.randint(1, 3))]
    if len(streams) > 1 and rng.random() < 0.3:
        for i in range(n):
            if rng.random() < 0.3:
                streams[rng.randrange(1, len(streams))][i] = None
    method = rng.choice(["exp", "floor", "add-k", "none"])
    value = rng.choice([None, None, 0.0, 0.01, 1, 2, 7.5]) if method in ("floor", "add-k") else None
    opts = {
        "tokenize": rng.choice(["13a", "13a", "intl", "zh", "char", "none"]),
        "lowercase": rng.random() < 0.3,
        "smooth_method": method,
        "smooth_value": value,
        "effective_order": rng.random() < 0.5,
        "max_ngram_order": rng.choice([4, 4, 1, 2, 6]),
    }
    fields = ("score", "counts", "totals", "sys_len", "ref_len", "precisions", "bp")

    def run(module: Any) -> Callable[[], Any]:
        def call() -> Any:
            m = module.BLEU(**opts)
            corpus = m.corpus_score(hyps, streams)
            sent = m.sentence_score(hyps[0], [s[0] for s in streams if s[0] is not None] or [""])
            return [[getattr(s, f) for f in fields] for s in (corpus, sent)]

        return call

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _outcome(run(sacrebleu))
        for name in BACKENDS:
            with backend(name):
                _check(f"sacre[{name}] {opts}", want, _outcome(run(rapidbleu)))


def case_nltk(rng: random.Random) -> None:
    from nltk.translate import bleu_score as nb  # type: ignore[import-untyped]

    from rapidbleu import nltk as rb

    vocab = _vocab(rng)
    n = rng.randint(1, 5)
    hyps = [_tokens(rng, vocab) for _ in range(n)]
    refs = [[_tokens(rng, vocab, 0 if rng.random() < 0.1 else 1) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    weights = rng.choice(
        [
            (0.25,) * 4,
            (0.5, 0.5),
            (1 / 3,) * 3,
            (1.0,),
            tuple(rng.random() for _ in range(rng.randint(1, 5))),
            [(0.25,) * 4, (0.5, 0.5)],
        ]
    )
    method = rng.randint(0, 7)
    reweigh = rng.random() < 0.3
    eps, alpha, k = rng.choice([0.1, 1e-9, 2]), rng.choice([5, 0.5]), rng.choice([5, 1, 0.25])

    def run(module: Any) -> Callable[[], Any]:
        def call() -> Any:
            sf = module.SmoothingFunction(epsilon=eps, alpha=alpha, k=k)
            fn = getattr(sf, f"method{method}")
            corpus = module.corpus_bleu(refs, hyps, weights, fn, auto_reweigh=reweigh)
            sent = module.sentence_bleu(refs[0], hyps[0], weights, fn, auto_reweigh=reweigh)
            return [corpus, sent]

        return call

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _outcome(run(nb))
        for name in BACKENDS:
            with backend(name):
                _check(f"nltk[{name}] method{method} weights={weights} reweigh={reweigh}", want, _outcome(run(rb)))


def _flat_stream(rng: random.Random, n: int, none_ok: bool) -> tuple[np.ndarray, np.ndarray]:
    span = rng.choice([5, 300, 2**20, 2**62])
    lens = [(-1 if none_ok and rng.random() < 0.15 else rng.randint(0, 15)) for _ in range(n)]
    flat = np.array([rng.randrange(-span, span) for _ in range(sum(max(0, x) for x in lens))], dtype=np.int64)
    return flat, np.array(lens, dtype=np.int64)


_EDGE_VALUES: list[Any] = [
    None,
    0,
    1,
    0.1,
    2,
    1e-300,
    1e300,
    1.7e308,
    2**53,
    2**60 + 1,
    np.float32(0.1),
    np.float64(0.3),
]
_NLTK_PARAMS: list[Any] = [
    0.1,
    1,
    5,
    0,
    -1,
    5e-324,
    2.0**-60,
    2.0**51,
    1e300,
    np.float64(0.3),
    float("inf"),
    float("nan"),
]


def _stats_rows(rng: random.Random, N: int) -> np.ndarray:
    m = rng.randint(0, 8)
    top = rng.choice([60, 10**6, 2**53 - 1])
    c = np.array([rng.randint(0, top) for _ in range(m)], dtype=np.int64)
    tot = np.maximum(0, c[:, None] - np.arange(N)[None, :])
    cor = (tot * np.array([[rng.random() for _ in range(N)] for _ in range(m)]).reshape(m, N)).astype(np.int64)
    r = np.array([rng.randint(0, top) for _ in range(m)], dtype=np.int64)
    rows = np.column_stack([c, r, cor, tot]).astype(np.int64) if m else np.zeros((0, 2 + 2 * N), np.int64)
    if m and rng.random() < 0.1:
        rows[rng.randrange(m), rng.randrange(2 + 2 * N)] = rng.choice([-1, 2**53, 2**62])
    return rows


def case_kernels(rng: random.Random) -> None:
    from rapidbleu._core import backend as _backend

    py = {kind: _backend.select("python", kind) for kind in _backend.TWINS}
    cy = {kind: _backend.select("cython", kind) for kind in _backend.TWINS}
    N = rng.choice([1, 2, 4, 4, 7])
    w = rng.choice([1, 2, -1])
    calls: list[tuple[str, str, Callable[[Any], Any]]] = []
    n = rng.randint(0, 12)
    hyp = _flat_stream(rng, n, False)
    refs = [_flat_stream(rng, n, True) for _ in range(rng.randint(1, 3))]
    calls.append(("bleu_stats", "flat_stats", lambda m: m.flat_stats(*hyp, refs, N, w)))
    vocab = _vocab(rng)
    toks = [_tokens(rng, vocab) for _ in range(n)]
    trefs = [[_tokens(rng, vocab) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    calls.append(("bleu_stats", "token_stats", lambda m: m.token_stats(toks, trefs, N, w)))
    lines = [_line(rng) for _ in range(n)]
    rlines = [[_line(rng) for _ in range(n)]]
    tok, lower = rng.choice(["13a", "intl", "zh", "char", "none"]), rng.random() < 0.5
    calls.append(("bleu_stats", "string_stats", lambda m: m.string_stats(lines, rlines, N, tok, lower, w)))
    one_refs = [_line(rng) if rng.random() < 0.8 else None for _ in range(rng.randint(0, 10))]
    one_hyp = _line(rng)
    calls.append(("bleu_stats", "sentence_row", lambda m: m.sentence_row(one_hyp, one_refs, N, tok, lower)))
    calls.append(
        ("bleu_stats", "token_row", lambda m: m.token_row(toks[0] if toks else [], trefs[0] if trefs else [], N))
    )
    ids = [[rng.randint(-3, 5) for _ in range(rng.randint(0, 8))] for _ in range(n)]
    clean = (rng.choice([None, 0, 1]), rng.choice([None, 2, [2, 3]]), rng.choice([None, [], [4], [-3, 4]]))
    calls.append(("ids", "pack_int_lists", lambda m: m.pack_int_lists(ids + [None] * (n % 2), n % 2 == 1)))
    flat_ids, lens_ids = _flat_stream(rng, n, True)
    flat_ids %= 6
    calls.append(("ids", "clean_flat", lambda m: m.clean_flat(flat_ids, lens_ids, *clean)))
    sflat, slens = _flat_stream(rng, n, False)
    calls.append(("bleu_sets", "self_stats", lambda m: m.self_stats(sflat, slens, N, w)))
    calls.append(("bleu_sets", "pairwise_stats", lambda m: m.pairwise_stats(sflat, slens, N, w)))
    method = rng.choice(["exp", "floor", "add-k", "none"])
    value = rng.choice(_EDGE_VALUES)
    eff = rng.random() < 0.5
    calls.append(("bleu_sets", "pairwise_scores", lambda m: m.pairwise_scores(sflat, slens, N, method, value, eff, w)))
    rows = _stats_rows(rng, N)
    dtype = rng.choice([None, np.int64, np.float32])
    calls.append(("bleu_scores", "sacre_scores", lambda m: m.sacre_scores(rows, N, method, value, eff, dtype, w)))
    weights = tuple(rng.choice([0.25, 0.5, 1 / 3, -0.5, 2.0**51]) for _ in range(rng.randint(1, N)))
    if rng.random() < 0.5:
        weights = (0.25,) * min(4, N) if N >= 4 else weights
    nm, p1, p2 = rng.randint(0, 4), rng.choice(_NLTK_PARAMS), rng.choice(_NLTK_PARAMS)
    reweigh = rng.random() < 0.3
    calls.append(("bleu_scores", "nltk_scores", lambda m: m.nltk_scores(rows, N, weights, nm, p1, p2, reweigh, w)))
    row = rows[0].tolist() if len(rows) else [0] * (2 + 2 * N)
    calls.append(("bleu_scores", "bleu_of_row", lambda m: m.bleu_of_row(row, N, method, value, eff)))
    calls.append(("bleu_scores", "nltk_of_row", lambda m: m.nltk_of_row(row, N, weights, nm, p1, p2, reweigh)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind, name, call in calls:
            want = _outcome(lambda: call(py[kind]))
            got = _outcome(lambda: call(cy[kind]))
            if want[0] == "error" and got[0] == "error" and (want[1], want[2]) != (got[1], got[2]):
                raise Mismatch(
                    f"{kind}.{name}: python raised {want[1].__name__}({want[2]}), cython {got[1].__name__}({got[2]})"
                )
            _check(f"{kind}.{name}", want, got)


def _text(rng: random.Random) -> str:
    """A random line, or now and then one of whitespace only."""
    if rng.random() < 0.05:
        return "".join(rng.choice(_SPACES) for _ in range(rng.randint(1, 4)))
    return _line(rng)


def _streams(rng: random.Random, n: int) -> list[list[str | None]]:
    """1-3 reference streams of random lines, ``None`` gaps in all but the first."""
    streams: list[list[str | None]] = [[_text(rng) for _ in range(n)] for _ in range(rng.randint(1, 3))]
    if len(streams) > 1 and rng.random() < 0.4:
        for i in range(n):
            if rng.random() < 0.4:
                streams[rng.randrange(1, len(streams))][i] = None
    return streams


def _count(rng: random.Random) -> int:
    """A count at the edges of the number types: small, past float32's exact integers, around
    2**53 (exact float64 integers), within and past int64, past uint64."""
    return rng.choice(
        [
            rng.randint(0, 60),
            rng.randint(0, 60),
            rng.randint(0, 2**24 + 9),
            2**53 + rng.randint(-3, 3),
            rng.randint(0, 2**62),
            2**63 + rng.randint(-2, 9),
            2**64 + rng.randint(0, 9),
            2**70 + rng.randint(-5, 5),
        ]
    )


def _held(row: list[Any], dtype: Any) -> Any:
    """A row as sacreBLEU holds it in ``dtype``'s arithmetic: Python numbers (None), or a numpy
    array (its randomization trials: int64; its bootstrap resamples: float32)."""
    return list(row) if dtype is None else np.array(row, dtype=dtype)


def _given_back(what: str, ours: Any, theirs: Any, rows: list[list[Any]], dtype: Any, rng: random.Random) -> None:
    """Statistics given back: ``ours.scores_from_stats(rows, dtype)`` (and each row's
    ``score_from_stats`` for Python numbers) against sacreBLEU's ``_compute_score_from_stats``
    of each row held in ``dtype``."""
    container: Any = rows if rows else np.zeros((0, len(ours.stats_columns)), dtype=np.int64)
    if rows and rng.random() < 0.3 and all(type(v) is int and 0 <= v < 2**64 for r in rows for v in r):
        container = np.array(rows, dtype=np.uint64)

    def sacre() -> Any:
        return [float(theirs._compute_score_from_stats(_held(r, dtype)).score) for r in rows]

    want = _outcome(sacre)
    _check(
        f"{what} scores_from_stats dtype={dtype}",
        want,
        _outcome(lambda: ours.scores_from_stats(container, dtype).tolist()),
        True,
    )
    if dtype is None and rows:
        _check(
            f"{what} score_from_stats",
            want,
            _outcome(lambda: [float(ours.score_from_stats(r).score) for r in rows]),
            True,
        )


def _twins(kind: str, calls: list[tuple[str, Callable[[Any], Any]]]) -> None:
    """Each call on the compiled twin of ``kind`` against the Python one: the same value, or
    the same exception type and message."""
    from rapidbleu._core import backend as _backend

    py, cy = _backend.select("python", kind), _backend.select("cython", kind)
    for name, call in calls:
        want = _outcome(lambda: call(py))
        got = _outcome(lambda: call(cy))
        if want[0] == "error" and got[0] == "error" and (want[1], want[2]) != (got[1], got[2]):
            raise Mismatch(
                f"{kind}.{name}: python raised {want[1].__name__}({want[2]}), cython {got[1].__name__}({got[2]})"
            )
        _check(f"{kind}.{name}", want, got)


def _reference(sacre: Callable[[], Any], ours: Callable[[], Any]) -> tuple[Any, ...]:
    """What a chrF or TER case is compared with: sacreBLEU's outcome, unless its bootstrap failed
    where a resample scores a Python float among numpy float32 scores (chrF's 0.0 without a
    match, TER's 100.0 on empty references: ``statistics.mean`` refuses the mix with a
    ``TypeError``) -- rapidbleu gives the CI, and there its backends are compared with each
    other (the Python one as the reference)."""
    want = _outcome(sacre)
    if want[0] == "error" and want[1] is TypeError and "coerce" in want[2]:
        TALLY["sacre_failed"] += 1
        with backend("python"):
            want = _outcome(ours)
    return want


@functools.lru_cache(maxsize=1)
def _betas() -> tuple[Any, ...]:
    """chrF's beta values to draw: integers and floats >= 1, and 0.5 and 0 where rapidbleu takes
    them (sacreBLEU does)."""
    import rapidbleu

    out: list[Any] = [1, 2, 2, 3, 1.5, 10, 2.0]
    for beta in (0.5, 0):
        try:
            rapidbleu.CHRF(beta=beta)
        except ValueError:
            continue
        out.append(beta)
    return tuple(out)


def _chrf_rows(rng: random.Random, order: int) -> list[list[int]]:
    """Valid chrF rows (per order matches <= both sides, no hypothesis n-grams without reference
    ones) of counts at the edges."""
    rows = []
    for _ in range(rng.randint(0, 4)):
        row: list[int] = []
        for _ in range(order):
            ref = _count(rng)
            hyp = 0 if ref == 0 else _count(rng)
            row += [hyp, ref, rng.randint(0, min(hyp, ref))]
        rows.append(row)
    return rows


def case_chrf(rng: random.Random) -> None:
    import sacrebleu

    import rapidbleu

    n = rng.randint(1, 6)
    hyps = [_text(rng) for _ in range(n)]
    streams = _streams(rng, n)
    char_order, word_order = rng.choice([6, 6, 0, 1, 2, 3, 8]), rng.choice([0, 0, 2, 1, 3])
    if char_order == word_order == 0:
        char_order = 6
    opts = {
        "char_order": char_order,
        "word_order": word_order,
        "beta": rng.choice(_betas()),
        "lowercase": rng.random() < 0.3,
        "whitespace": rng.random() < 0.3,
        "eps_smoothing": rng.random() < 0.3,
    }
    n_bootstrap = rng.choice([1] * 8 + [3, 12])
    fields = ("score", "char_order", "word_order", "beta")

    def run(module: Any) -> Callable[[], Any]:
        def call() -> Any:
            m = module.CHRF(**opts)
            corpus = m.corpus_score(hyps, streams, n_bootstrap=n_bootstrap)
            sent = m.sentence_score(hyps[0], [s[0] for s in streams if s[0] is not None] or [""])
            return [[getattr(s, f) for f in fields] + [str(s)] for s in (corpus, sent)]

        return call

    rows = _chrf_rows(rng, char_order + word_order)
    dtype = rng.choice([None, None, np.int64, np.float32])
    w = rng.choice([1, 2, -1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _reference(run(sacrebleu), run(rapidbleu))
        for name in BACKENDS:
            with backend(name):
                _check(f"chrf[{name}] {opts} n_bootstrap={n_bootstrap}", want, _outcome(run(rapidbleu)))
                _given_back(f"chrf[{name}] {opts}", rapidbleu.CHRF(**opts), sacrebleu.CHRF(**opts), rows, dtype, rng)
        checked = _outcome(lambda: rapidbleu.CHRF(**opts).checked_sums(rows, dtype) if rows else None)
        sents = hyps + [r for s in streams for r in s if r is not None]
        calls: list[tuple[str, Callable[[Any], Any]]] = [
            ("chrf_stats", lambda m: m.chrf_stats(hyps, streams, opts, w)),
            ("chrf_pairwise_stats", lambda m: m.chrf_pairwise_stats(sents, opts, w)),
            ("chrf_pairwise_scores", lambda m: m.chrf_pairwise_scores(sents, opts, w)),
        ]
        if checked[0] == "value" and checked[1] is not None:
            rows_checked = checked[1]
            calls.append(
                (
                    "chrf_scores",
                    lambda m: m.chrf_scores(rows_checked, opts, dtype, w),
                )
            )
        _twins("chrf", calls)


_TER_WORDS = ["a", "b", "c", "the", "cat", "A", "a.", "'s", "x" * 30]


def _ter_rows(rng: random.Random) -> list[list[Any]]:
    """TER rows ``[num_edits, ref_length]``: whole edits at the edges, lengths as the averages of
    1-3 references (floats) or ints."""
    rows: list[list[Any]] = []
    for _ in range(rng.randint(0, 4)):
        edits, length = _count(rng), _count(rng)
        rows.append([edits, rng.choice([length, length / rng.choice([1, 2, 3]), 0, 0.0])])
    return rows


def case_ter(rng: random.Random) -> None:
    import sacrebleu
    from sacrebleu.metrics import lib_ter as sacre_lib_ter

    import rapidbleu
    from rapidbleu.metrics import lib_ter

    n = rng.randint(1, 5)
    hyps = [_text(rng) for _ in range(n)]
    streams = _streams(rng, n)
    if rng.random() < 0.3:  # repeated words: shifts
        hyps = [" ".join(rng.choice(_TER_WORDS) for _ in range(rng.randint(0, 25))) for _ in range(n)]
        streams = [[" ".join(rng.choice(_TER_WORDS) for _ in range(rng.randint(0, 25))) for _ in range(n)]]
    opts = {k: rng.random() < 0.5 for k in ("normalized", "no_punct", "asian_support", "case_sensitive")}
    n_bootstrap = rng.choice([1] * 8 + [3, 12])
    fields = ("score", "num_edits", "ref_length")

    def run(module: Any) -> Callable[[], Any]:
        def call() -> Any:
            m = module.TER(**opts)
            corpus = m.corpus_score(hyps, streams, n_bootstrap=n_bootstrap)
            sent = m.sentence_score(hyps[0], [s[0] for s in streams if s[0] is not None] or [""])
            return [[getattr(s, f) for f in fields] + [str(s)] for s in (corpus, sent)]

        return call

    rows = _ter_rows(rng)
    dtype = rng.choice([None, None, np.int64, np.float64, np.float32])
    words = [[rng.choice(_TER_WORDS[: rng.randint(2, 9)]) for _ in range(rng.randint(0, 30))] for _ in range(2)]
    w = rng.choice([1, 2, -1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _reference(run(sacrebleu), run(rapidbleu))
        tr = _outcome(lambda: sacre_lib_ter.translation_edit_rate(*words))
        for name in BACKENDS:
            with backend(name):
                _check(f"ter[{name}] {opts} n_bootstrap={n_bootstrap}", want, _outcome(run(rapidbleu)))
                _given_back(f"ter[{name}] {opts}", rapidbleu.TER(**opts), sacrebleu.TER(**opts), rows, dtype, rng)
                _check(
                    f"ter[{name}] translation_edit_rate {words}",
                    tr,
                    _outcome(lambda: lib_ter.translation_edit_rate(*words)),
                )
        checked = _outcome(lambda: rapidbleu.TER(**opts).checked_sums(rows, dtype) if rows else None)
        calls: list[tuple[str, Callable[[Any], Any]]] = [
            ("ter_stats", lambda m: m.ter_stats(hyps, streams, opts, w)),
            ("translation_edit_rate", lambda m: m.translation_edit_rate(*words)),
        ]
        if checked[0] == "value" and checked[1] is not None:
            rows_checked = checked[1]
            calls.append(("ter_scores", lambda m: m.ter_scores(rows_checked, dtype)))
        _twins("ter", calls)


CASES: dict[str, Callable[[random.Random], None]] = {
    "sacre": case_sacre,
    "nltk": case_nltk,
    "kernels": case_kernels,
    "chrf": case_chrf,
    "ter": case_ter,
}


def run_case(seed: int, i: int, kinds: tuple[str, ...] = KINDS) -> str:
    """Case ``i`` of ``seed``: of kind ``kinds[i % len(kinds)]``, its input drawn from a generator
    seeded with both."""
    rng = random.Random(f"{seed}:{i}")
    kind = kinds[i % len(kinds)]
    CASES[kind](rng)
    return kind


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60; 14400 = four hours)")
    ap.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    ap.add_argument("--case", type=int, default=None, help="run only case CASE of the seed (a replay)")
    ap.add_argument(
        "--kinds", nargs="+", choices=KINDS, default=list(KINDS), help="the kinds of cases, in turn (default: all)"
    )
    args = ap.parse_args(argv)
    kinds = tuple(args.kinds)
    from rapidbleu._core import backend as _backend

    try:
        _backend.select("cython", "bleu_stats")
    except ImportError as exc:
        print(f"fuzz: the compiled core is not available ({exc})", file=sys.stderr)
        return 2
    for name in ("sacrebleu", "rapidbleu"):  # their "enable effective_order" advice, per case
        logging.getLogger(name).setLevel(logging.ERROR)
    cases = [args.case] if args.case is not None else None
    counts = dict.fromkeys(KINDS, 0)
    start, i = time.monotonic(), 0
    while True:
        if cases is not None:
            if not cases:
                break
            i = cases.pop()
        elif time.monotonic() - start >= args.seconds:
            break
        try:
            counts[run_case(args.seed, i, kinds)] += 1
        except Mismatch as exc:
            print(f"MISMATCH in case {i} of seed {args.seed}: {exc}", file=sys.stderr)
            chosen = "" if kinds == KINDS else " --kinds " + " ".join(kinds)
            print(f"replay: python tools/fuzz.py --seed {args.seed} --case {i}{chosen}", file=sys.stderr)
            return 1
        i += 1
    total = sum(counts.values())
    print(
        f"fuzz: {total} cases in {time.monotonic() - start:.0f} s (seed {args.seed}): "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
        + f"; {TALLY['compared']} comparisons ({TALLY['both_raised']} the same error on both sides; "
        + f"{TALLY['sacre_failed']} chrF/TER bootstraps sacreBLEU fails on, the backends compared), 0 mismatches"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
