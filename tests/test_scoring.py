"""The scoring layer: every statistics -> score formula exists once in Python
(``rapidbleu._core.bleu.bleu_scores_py``, the oracle) and once compiled (``rapidbleu._core.bleu.bleu_scores_cy``).

The compiled twin must give the oracle's floats bit for bit on random statistics, on every
interpreter (the builtin ``sum()`` changed in CPython 3.12), for every smoothing method,
effective order on and off, rows with ``correct_1 == 0``, zero totals and the three arithmetic
types sacreBLEU uses (Python ints, numpy int64, numpy float32).  These tests need neither
sacreBLEU nor NLTK; the oracle itself is compared with them below and in the other files.
"""

import ast
import inspect
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import HAVE_CYTHON, REQUIRE_CYTHON

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core.bleu import bleu_scores_py as py
from rapidbleu._core.bleu import bleu_stats_py
from rapidbleu._core.validate import MAX_ORDER_LIMIT, resolve_workers

needs_cy = pytest.mark.skipif(not HAVE_CYTHON and not REQUIRE_CYTHON, reason="compiled extension not built")
SRC = Path(rapidbleu.__file__).resolve().parent  # the package under test (checkout or installed)

SACRE_METHODS = [
    ("exp", None),
    ("floor", None),
    ("floor", 0.37),
    ("add-k", None),
    ("add-k", 0.5),
    ("add-k", 2),
    ("none", None),
]


def cy():
    return _backend.select("cython", "bleu_scores")


def random_rows(rng, m, N):
    """Statistics rows of every awkward kind: empty hypotheses, zero totals at high orders,
    ``correct_1 == 0`` with higher-order matches (not from real text, but a valid input of
    the formula), all-zero matches, long corpora (large sums)."""
    c = rng.integers(0, 60, m)
    c[rng.random(m) < 0.05] = 0
    big = rng.random(m) < 0.1
    c[big] = rng.integers(10**5, 3 * 10**7, big.sum())
    r = np.maximum(0, c + rng.integers(-15, 15, m))
    tot = np.maximum(0, c[:, None] - np.arange(N)[None, :])
    cor = (tot * rng.random((m, N)) ** 2 * (rng.random((m, N)) > 0.3)).astype(np.int64)
    cor[rng.random(m) < 0.15, 0] = 0
    return np.column_stack([c, r, cor, tot]).astype(np.int64)


def bits(a):
    return np.asarray(a, dtype=np.float64).view(np.int64)


# ------------------------------------------------------------------------ sacreBLEU formula


@needs_cy
@pytest.mark.parametrize(("method", "value"), SACRE_METHODS)
@pytest.mark.parametrize("eff", [False, True])
@pytest.mark.parametrize("dtype", [None, np.int64, np.float32])
def test_sacre_compiled_equals_oracle(method, value, eff, dtype):
    rng = np.random.default_rng(20250 + len(method))
    for N in (1, 2, 4, 7):
        rows = random_rows(rng, 700, N)
        want = py.sacre_scores(rows, N, method, value, eff, dtype)
        got = cy().sacre_scores(rows, N, method, value, eff, dtype, 2)
        assert np.array_equal(bits(got), bits(want)), (N, method, value, eff, dtype)


def test_sacre_oracle_is_the_scalar_formula():
    """``sacre_scores`` is ``bleu_from_stats`` row by row, in the caller's arithmetic."""
    rng = np.random.default_rng(5)
    rows = random_rows(rng, 200, 4)
    for method, value in SACRE_METHODS:
        got = py.sacre_scores(rows, 4, method, value, True)
        want = [py.bleu_from_stats(r[2:6], r[6:10], r[0], r[1], method, value, True, 4)[0] for r in rows.tolist()]
        assert got.tolist() == want


def test_sum_of_logs_follows_the_interpreter():
    """A row whose log-sum differs between plain and compensated summation: the score is the
    running interpreter's ``sum()`` (a left-to-right sum was wrong on 3.12+)."""
    rng = np.random.default_rng(11)
    rows = random_rows(rng, 3000, 4)
    scores = py.sacre_scores(rows, 4, "exp", None, False)
    differ = 0
    for row, score in zip(rows.tolist(), scores.tolist(), strict=False):
        _, _, _, prec, bp = py.bleu_from_stats(row[2:6], row[6:], row[0], row[1], "exp", None, False, 4)
        if not any(row[2:6]):
            continue
        logs = [py.my_log(p) for p in prec]
        plain = 0
        for x in logs:
            plain = plain + x
        if plain != sum(logs):
            differ += 1
            assert score == bp * math.exp(sum(logs) / 4)
    if sys.version_info >= (3, 12):
        assert differ > 0  # the compensated sum does change some rows here


@needs_cy
def test_sacre_row_inside_pairwise_matches_oracle():
    from rapidbleu._core.bleu import bleu_sets_cy as _bleu_sets_cy
    from rapidbleu._core.bleu import bleu_sets_py as _bleu_sets_py

    rng = np.random.default_rng(3)
    seqs = [rng.integers(0, 6, rng.integers(0, 12)).tolist() for _ in range(40)]
    lens = np.array([len(x) for x in seqs], dtype=np.int64)
    ids = np.array([t for x in seqs for t in x], dtype=np.int64)
    for method, value in SACRE_METHODS:
        a = _bleu_sets_cy.pairwise_scores(ids, lens, 4, method, value, True, 2)
        b = _bleu_sets_py.pairwise_scores(ids, lens, 4, method, value, True)
        assert np.array_equal(bits(a), bits(b)), method


# ------------------------------------------------------------------------ NLTK formula

NLTK_CASES = [
    (0, 0.1, 5),
    (1, 0.1, 5),
    (1, 0.37, 5),
    (1, 1, 5),
    (1, 0.0, 5),
    (1, -0.2, 5),
    (2, 0.1, 5),
    (3, 0.1, 5),
    (4, 0.1, 5),
    (4, 0.1, 2.5),
    (4, 0.1, 7),
]
WEIGHTS = [(0.25,) * 4, (1 / 3,) * 3, (0.5, 0.5), (1.0,), (0.1, 0.2, 0.3, 0.15, 0.25), (0.4, 0.3, 0.2, 0.1, 0.0, 0.0)]


@needs_cy
@pytest.mark.parametrize(("method", "eps", "k"), NLTK_CASES)
@pytest.mark.parametrize("reweigh", [False, True])
def test_nltk_compiled_equals_oracle(method, eps, k, reweigh):
    rng = np.random.default_rng(777 + method)
    for N in (4, 6):
        rows = random_rows(rng, 500, N)
        rows = rows[rows[:, 0] < 10**5]  # NLTK precisions as Fractions: keep the oracle quick
        for w in WEIGHTS:
            if len(w) > N or (reweigh and w != py.DEFAULT_WEIGHTS):
                continue
            want = py.nltk_scores(rows, N, w, method, eps, k, reweigh)
            got = cy().nltk_scores(rows, N, w, method, eps, k, reweigh, 2)
            assert np.array_equal(bits(got), bits(want)), (N, w, method, eps, k, reweigh)


@needs_cy
def test_scores_with_threads_equal_one_thread():
    """Scoring takes a thread only per 16,384 rows (a row costs well under a microsecond):
    a matrix big enough for three threads gives the one-thread floats."""
    rows = random_rows(np.random.default_rng(5), 50_000, 4)
    for workers in (2, 3):
        assert np.array_equal(
            bits(cy().sacre_scores(rows, 4, "exp", None, True, None, workers)),
            bits(cy().sacre_scores(rows, 4, "exp", None, True, None, 1)),
        )
        assert np.array_equal(
            bits(cy().nltk_scores(rows, 4, (0.25,) * 4, 1, 0.1, 0.0, False, workers)),
            bits(cy().nltk_scores(rows, 4, (0.25,) * 4, 1, 0.1, 0.0, False, 1)),
        )


# ------------------------------------------------------------- every argument, both twins


def outcome(call):
    """What a call gives: the floats' bits, or the exception's type and message."""
    try:
        return ("value", bits(call()).tolist())
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


_EDGE_ROWS = np.array(
    [
        [5, 5, 3, 2, 1, 0, 5, 4, 3, 2],
        [3, 3, 3, 2, 1, 0, 3, 2, 1, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 4, 1, 0, 0, 0, 1, 0, 0, 0],  # matches with an empty hypothesis (not from text)
        [2**53 - 1, 2**53 - 1, 2**53 - 1, 2**53 - 2, 1, 0, 2**53 - 1, 2**53 - 2, 2**53 - 3, 2**53 - 4],
        [2**52 + 1, 3, 2**52 - 1, 2**40, 7, 0, 2**52 + 1, 2**52, 2**52 - 1, 2**52 - 2],
    ],
    dtype=np.int64,
)

_SMOOTH_VALUES = [None, 0, 1, 0.1, 0.37, 2, 1e300, 1.7e308, 2**53, 2**60 + 1, np.float32(0.1), np.float64(0.1)]


@needs_cy
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # numpy's, in float32
@pytest.mark.parametrize("dtype", [None, np.int64, np.float32])
@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
def test_sacre_twins_agree_on_every_argument(dtype, method):
    """Extreme smoothing values (huge floats and ints, numpy scalars) and counts up to 2**53 - 1:
    the same floats or the same error from both twins (add-k past exact int64 counts is an
    ``OverflowError``; the compiled twin's C conversions never leave their range)."""
    for value in _SMOOTH_VALUES:
        for eff in (False, True):
            for rows in (_EDGE_ROWS, _EDGE_ROWS[:4]):
                want = outcome(lambda: py.sacre_scores(rows, 4, method, value, eff, dtype))
                got = outcome(lambda: cy().sacre_scores(rows, 4, method, value, eff, dtype))
                assert got == want, (method, value, eff, dtype, len(rows))


@pytest.mark.parametrize("mod", [py, pytest.param("cy", marks=needs_cy)], ids=["python", "cython"])
def test_scoring_twins_refuse_counts_beyond_exact(mod):
    """Beyond 2**53 - 1 the twins' C doubles and numpy's types part from Python ints: int64 and
    float32 rows and NLTK's scores refuse such counts, quoting them as given; Python-int rows
    (``dtype=None``, sacreBLEU's corpus scores) are scored, by the Python formula."""
    mod = cy() if mod == "cy" else mod
    for bad in (2**53, -1):
        rows = _EDGE_ROWS.copy()
        rows[1, 3] = bad
        for dtype in (None, np.int64, np.float32) if bad < 0 else (np.int64, np.float32):
            with pytest.raises(ValueError, match=f"row 1, column 3 is {bad}; statistics must be counts from 0"):
                mod.sacre_scores(rows, 4, "none", None, False, dtype)
        with pytest.raises(ValueError, match=f"row 1, column 3 is {bad}; statistics must be counts from 0"):
            mod.nltk_scores(rows, 4, (0.25,) * 4, 0, 0.1, 5, False)
    for big in (np.array([[2**63 + 5] * 10], dtype=np.uint64), np.full((1, 10), 1e20)):
        with pytest.raises(ValueError, match=rf"row 0, column 0 is {re.escape(repr(big[0, 0].item()))};"):
            mod.sacre_scores(big, 4, "none", None, False, np.int64)  # (not the value wrapped into int64)
    for method, value in SACRE_METHODS:
        for eff in (False, True):
            rows = [[2**70 + 1, 2**70 + 3, 2**69, 2**68 + 1, 0, 5, 2**70 + 1, 2**70, 2**70 - 1, 2**70 - 2]]
            want = py.bleu_from_stats(rows[0][2:6], rows[0][6:], rows[0][0], rows[0][1], method, value, eff, 4)[0]
            assert mod.sacre_scores(rows, 4, method, value, eff).tolist() == [want]
    with pytest.raises(ValueError, match="column 0 is nan"):
        mod.sacre_scores(np.full((1, 10), np.nan), 4, "none", None, False, np.float32)
    with pytest.raises(OverflowError, match=r"add-k smooth_value=1e[+]300"):
        mod.sacre_scores(_EDGE_ROWS[:1], 4, "add-k", 1e300, False, np.int64)


@needs_cy
@pytest.mark.parametrize("method", ["none", "floor", "add-k", "exp"])
def test_bleu_of_row_twins_agree(method):
    """One row as a sentence-level call scores it (lists of Python ints, the kernel's
    ``sentence_row``): the same tuple, value and type for value, from both twins, on random
    rows, rows at and past 2**53, float counts, numpy rows and every smoothing value; and
    ``bleu_from_stats`` of the split row."""
    rng = np.random.default_rng(5)
    rows = [r.tolist() for r in random_rows(rng, 300, 4)] + _EDGE_ROWS.tolist()
    rows += [[2**53, 3, 2, 1, 0, 0, 2**53, 2, 1, 0], [5.0, 6.0, 3.0, 1.0, 0.0, 0.0, 5.0, 4.0, 3.0, 2.0]]

    def result(call):
        try:
            return ("value", call())
        except Exception as exc:
            return ("error", type(exc).__name__, str(exc))

    for value in [None, 0, 1, 0.37, 2**60 + 1, np.float64(0.1)]:
        for eff in (False, True):
            for row in rows:
                want = result(lambda row=row: py.bleu_of_row(row, 4, method, value, eff))
                got = result(lambda row=row: cy().bleu_of_row(row, 4, method, value, eff))
                assert repr(got) == repr(want), (row, method, value, eff)
                if want[0] == "value":
                    assert [type(x) for x in got[1][1]] == [type(x) for x in want[1][1]]
                    split = py.bleu_from_stats(row[2:6], row[6:], row[0], row[1], method, value, eff, 4)
                    assert repr(split) == repr(want[1])
    for mod in (py, cy()):
        assert mod.bleu_of_row(np.array(rows[0]), 4, method) == py.bleu_of_row(rows[0], 4, method)
        with pytest.raises(ValueError, match=r"got \(9,\)"):
            mod.bleu_of_row(rows[0][:9], 4, method)


@needs_cy
@pytest.mark.parametrize("method", [0, 1, 2, 3, 4])
def test_nltk_of_row_twins_agree(method):
    """One row as NLTK's ``sentence_bleu`` scores it once per segment: the same float or error
    from both twins, equal to ``nltk_scores`` of the row (rows past 2**53, non-lists, extreme
    parameters included)."""
    rows = [r.tolist() for r in _EDGE_ROWS] + [[2**53, 3, 2, 1, 0, 0, 2**53, 2, 1, 0], (5, 5, 3, 2, 1, 0, 5, 4, 3, 2)]
    for weights in [(0.25,) * 4, (0.5, 0.5), (1.0,), (0.1,) * 5, ()]:
        for param in [0.1, 5, 0, 1e300, np.float64(0.3)]:
            for reweigh in (False, True):
                for row in rows:
                    want = outcome(lambda row=row: py.nltk_of_row(row, 4, weights, method, param, param, reweigh))
                    got = outcome(lambda row=row: cy().nltk_of_row(row, 4, weights, method, param, param, reweigh))
                    assert got == want, (row, weights, param, reweigh)
                    matrix = outcome(
                        lambda row=row: py.nltk_scores([list(row)], 4, weights, method, param, param, reweigh)[0]
                    )
                    assert want == matrix


_NLTK_PARAMS = [0.1, 1, 5, 0, -1, 5e-324, 2.0**-60, 2.0**51, 1e300, np.float64(0.3), float("inf"), float("nan")]


@needs_cy
@pytest.mark.parametrize("method", [0, 1, 2, 3, 4])
def test_nltk_twins_agree_on_every_argument(method):
    """NLTK's float methods with extreme parameters (k = 0 divides by zero as in NLTK, huge
    weights overflow ``math.exp``, infinities and nans) and rows NLTK cannot produce (an empty
    hypothesis with matches): the same floats or the same error from both twins."""
    weight_sets = [(0.25,) * 4, (0.5, 0.5), (1.0,), (-0.25,) * 4, (2.0**51,) * 3, (float("inf"), 0.5), (0.1,) * 5]
    for weights in weight_sets:
        for param in _NLTK_PARAMS:
            for reweigh in (False, True):
                want = outcome(lambda: py.nltk_scores(_EDGE_ROWS, 4, weights, method, param, param, reweigh))
                got = outcome(lambda: cy().nltk_scores(_EDGE_ROWS, 4, weights, method, param, param, reweigh))
                assert got == want, (method, weights, param, reweigh)


@needs_cy
def test_scoring_twins_take_fortran_ordered_statistics():
    """A column-major matrix (``stats.T`` of a transposed table, ``np.asfortranarray``) is
    scored, not refused by the compiled twin's C-contiguous view ("ndarray is not
    C-contiguous"): ``check_matrix``'s copy is C-ordered."""
    rows = np.asfortranarray(_EDGE_ROWS[:3])
    for mod in (py, cy()):
        assert (
            mod.sacre_scores(rows, 4, "exp", None, True).tolist()
            == py.sacre_scores(_EDGE_ROWS[:3], 4, "exp", None, True).tolist()
        )
        assert (
            mod.nltk_scores(rows, 4, (0.25,) * 4, 1, 0.1, 5, False).tolist()
            == py.nltk_scores(_EDGE_ROWS[:3], 4, (0.25,) * 4, 1, 0.1, 5, False).tolist()
        )
    assert py.check_matrix(rows, 4, np.float32).flags.c_contiguous


@needs_cy
@pytest.mark.parametrize("method", [0, 1, 2, 3, 4])
def test_nltk_kernel_scores_twins_agree(method):
    """The trusted entry for a counting kernel's own rows: the same floats or error from both
    twins, equal to ``nltk_scores`` (which checks and copies them first) on every row it could
    get; other forms (lists, another dtype, a view that is not C-contiguous, a wrong width)
    are scored by ``nltk_scores``, checks and errors included."""
    rng = np.random.default_rng(5)
    hyps = [rng.integers(0, 6, size=rng.integers(0, 12)).tolist() for _ in range(40)]
    refs = [[rng.integers(0, 6, size=rng.integers(0, 12)).tolist()] for _ in range(40)]
    kernel_rows = bleu_stats_py.token_stats(hyps, refs, 4)
    others = [
        _EDGE_ROWS,
        _EDGE_ROWS.tolist(),
        _EDGE_ROWS.astype(np.int32),
        np.asfortranarray(_EDGE_ROWS),
        _EDGE_ROWS[:, :8],
        np.zeros((0, 10), dtype=np.int64),
    ]
    for weights in [(0.25,) * 4, (0.5, 0.5), (1.0,), (0.1,) * 5, ()]:
        for param in [0.1, 5, 0, 1e300, np.float64(0.3), float("nan")]:
            for reweigh in (False, True):
                for rows in [kernel_rows, *others]:
                    want = outcome(lambda rows=rows: py.nltk_scores(rows, 4, weights, method, param, param, reweigh))
                    for mod in (py, cy()):
                        got = outcome(
                            lambda mod=mod, rows=rows: mod.nltk_kernel_scores(
                                rows, 4, weights, method, param, param, reweigh
                            )
                        )
                        assert got == want, (mod.NAME, method, weights, param, reweigh)


# ------------------------------------------------------------------------ one set of twins


@needs_cy
@pytest.mark.parametrize("kind", sorted(_backend.TWINS))
def test_twins_have_one_documentation_and_signature(kind):
    """RapidFuzz's ``validate_attrs``: the compiled functions carry the Python twin's docstring,
    name and parameters."""
    _, _, names = _backend.TWINS[kind]
    compiled, python = _backend.select("cython", kind), _backend.select("python", kind)
    assert compiled.NAME == "cython"
    assert python.NAME == "python"
    for name in names:
        a, b = getattr(compiled, name), getattr(python, name)
        assert a.__name__ == b.__name__ == name
        assert a.__doc__ == b.__doc__, name
        assert b.__doc__, name
        params = [(p.name, p.kind, p.default) for p in inspect.signature(a).parameters.values()]
        assert params == [(p.name, p.kind, p.default) for p in inspect.signature(b).parameters.values()], name


@pytest.mark.parametrize("kind", sorted(_backend.TWINS))
def test_compiled_stub_takes_its_twins_signatures(kind):
    """Each compiled module's stub (``<module>_cy.pyi``) types exactly the twin's functions by
    importing them from the Python twin: one signature per function, none written twice."""
    import ast
    from pathlib import Path

    compiled, python, names = _backend.TWINS[kind]
    folder = Path(_backend.__file__).parent / compiled.split(".")[0]
    stub = ast.parse((folder / f"{compiled.split('.')[1]}.pyi").read_text("utf-8"))
    imported = [
        (node.module, alias.name, alias.asname)
        for node in stub.body
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
    ]
    assert sorted(imported) == sorted((python.split(".")[1], name, name) for name in names)
    public = [n.name for n in stub.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    assert public == []


@pytest.mark.parametrize(("workers", "want"), [(1, 1), (3, 3), (-1, None), (-2, None)])
def test_workers_rule(workers, want):
    import os

    got = resolve_workers(workers)
    if want is None:
        cores = os.cpu_count() or 1
        assert got == max(1, cores + 1 + workers)
    else:
        assert got == want


@pytest.mark.parametrize(
    ("bad", "err"), [(0, ValueError), (None, TypeError), (1.0, TypeError), (True, TypeError), ("2", TypeError)]
)
def test_workers_refused_everywhere(backend, bad, err):
    """One meaning of ``workers``: the same error from every public entry point, both backends."""
    import rapidbleu
    from rapidbleu import batch, ids, nltk

    calls = [
        lambda: rapidbleu.BLEU(workers=bad).corpus_score(["a b"], [["a b"]]),
        lambda: batch.self_bleu(["a b c", "a b d"], workers=bad),
        lambda: batch.pairwise_bleu(["a b c", "a b d"], workers=bad),
        lambda: batch.sentence_bleu_batch([[1, 2, 3]], [[1, 2, 3]], workers=bad),
        lambda: ids.stats_ids([[1, 2, 3]], [[1, 2, 3]], workers=bad),
        lambda: nltk.corpus_bleu([[["a", "b"]]], [["a", "b"]], workers=bad),
        lambda: nltk.sentence_bleu_batch([[["a", "b"]]], [["a", "b"]], workers=bad),
    ]
    for call in calls:
        with pytest.raises(err):
            call()


@pytest.mark.parametrize("order", [0, MAX_ORDER_LIMIT + 1, 10**8])
def test_unreasonable_order_refused_before_any_work(backend, order):
    import rapidbleu
    from rapidbleu import batch, ids, nltk

    calls = [
        lambda: rapidbleu.BLEU(max_ngram_order=order),
        lambda: batch.self_bleu(["a b c", "a b d"], max_ngram_order=order),
        lambda: batch.pairwise_bleu(["a b c", "a b d"], max_ngram_order=order),
        lambda: batch.sentence_bleu_batch([[1, 2, 3]], [[1, 2, 3]], max_ngram_order=order),
        lambda: ids.stats_ids([[1, 2, 3]], [[1, 2, 3]], max_ngram_order=order),
        lambda: _backend.bleu_stats.string_stats(["a"], [["a"]], order),
        lambda: _backend.bleu_scores.sacre_scores(np.zeros((1, 4), np.int64), order, "exp", None, False),
    ]
    if order:
        calls.append(lambda: nltk.corpus_bleu([[["a"]]], [["a"]], weights=(1 / order,) * min(order, 10**3)))
    for call in calls:
        with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
            call()


# ------------------------------------------------------------------------ one import graph


def _package_imports():
    """module -> set of rapidbleu modules it imports (at any level of the file)."""
    graph = {}
    for path in sorted(SRC.rglob("*.py")) + sorted(SRC.rglob("*.pyx")):
        rel = path.relative_to(SRC).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(["rapidbleu", *parts])
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".pyx":  # only its Python-level imports matter here
            text = "\n".join(line for line in text.splitlines() if re.match(r"(from [\w.]+ import \w|import \w)", line))
        deps = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(0, node.level - 1)):
                    base = base.rsplit(".", 1)[0]
                mod = (base + ("." + node.module if node.module else "")) if node.level else (node.module or "")
                if mod.startswith("rapidbleu"):
                    deps.add(mod)
                    for alias in node.names:  # "from . import x" imports the module x
                        deps.add(f"{mod}.{alias.name}")
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("rapidbleu"))
        graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def test_no_import_cycles():
    """No module of the package imports, directly or through others, a module that imports it
    (``__init__`` modules excluded as targets: importing a submodule runs them by design)."""
    graph = _package_imports()
    assert len(graph) > 20, "the package's modules were not found"
    assert graph["rapidbleu.batch"], "the package's modules were not found"
    inits = {m for m in graph if (SRC / Path(*m.split(".")[1:]) / "__init__.py").is_file() or m == "rapidbleu"}
    edges = {m: deps - inits for m, deps in graph.items()}
    state = {}

    def visit(m, stack):
        state[m] = 1
        for d in sorted(edges[m]):
            if state.get(d) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*stack, m, d]))
            if d not in state:
                visit(d, [*stack, m])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [])
