"""Compiled twin of ``rapidbleu._core.bleu.bleu_scores_py``: the same functions, signatures and floats.

sacreBLEU's formula and NLTK's float smoothing methods, row by row in C with the GIL released,
following the Python oracle operation for operation: C doubles (and C floats where sacreBLEU's
statistics are numpy float32), the C library's ``log``/``exp`` (which CPython's ``math`` calls),
the running CPython's ``sum()`` (plain before 3.12, Neumaier-compensated from 3.12, int terms
added plainly) and ``math.fsum`` (an exact sum rounded once).  Floating-point contraction is
off (``setup.py``), so no fused multiply-add can change a float.  Documentation is the twin's.

The twins agree for every argument, by construction where C alone could not:

* the rows are the twin's ``check_matrix`` copy (the call's own memory; counts below 2**53, so
  a count is the same number as a Python int and as a C double; Python ints beyond, which
  sacreBLEU's corpus scores take, are scored by the Python formula);
* parameters the C arithmetic does not reproduce exactly (numpy scalars, Fractions, ints beyond
  2**53, NLTK's method 4 with a k near 0) are scored by the Python formulas;
* a row whose C score is not finite (an overflow of ``exp``, an infinite precision) is scored
  again by the Python formula, which decides the value or the exception.
"""

import sys

import numpy as np

from libc.math cimport exp, fabs, isfinite, ldexp, log
from libc.stdint cimport int64_t

from . import bleu_scores_py as _twin
from .bleu_scores_py import (LOG_ZERO as PY_LOG_ZERO, SMOOTH_DEFAULTS, check_addk_range, check_matrix,
                          check_nltk_weights, is_plain_number, is_plain_smooth_value)
from ..threads import run_chunks
from ..validate import MAX_ORDER_LIMIT, check_order

#: Fewest rows per thread when scoring statistics: a row takes well under a microsecond (the
#: counting kernels' rows take microseconds, hence their smaller ``MIN_CHUNK``), so below this a
#: thread costs more than it saves (256 rows: 19 us in the calling thread, about 0.7 ms of CPU
#: with two threads).
_MIN_SCORE_CHUNK = 1 << 14

#: Rows scored in one piece, without the thread runner's timed slices (``run_chunks``'s
#: ``first``): a row takes well under a microsecond, so this many take a few milliseconds at
#: most, far less than a slice.
_ONE_SLICE_ROWS = 1 << 12

NAME = "cython"

cdef enum:
    M_NONE = 0
    M_FLOOR = 1
    M_ADDK = 2
    M_EXP = 3

cdef enum:
    A_PY = 0      # Python numbers: sacreBLEU's corpus and sentence scores
    A_I64 = 1     # numpy int64 arrays: add-k truncates (approximate randomization)
    A_F32 = 2     # numpy float32 arrays: float32 precisions (bootstrap resampling)

_METHODS = {"none": M_NONE, "floor": M_FLOOR, "add-k": M_ADDK, "exp": M_EXP}

#: The builtin sum() of floats is compensated (Neumaier) from CPython 3.12 on.
cdef bint NEUMAIER = sys.version_info >= (3, 12)
cdef int64_t LOG_ZERO = -9999999999  # == bleu_scores_py.LOG_ZERO (checked below)

# The C constants that mirror a Python one, checked once when the module is imported (not an
# assert: python -O must not skip it).
if MAX_N != MAX_ORDER_LIMIT or LOG_ZERO != PY_LOG_ZERO:
    raise ImportError(f"rapidbleu._core.bleu.bleu_scores_cy was built with MAX_N={MAX_N}, LOG_ZERO={LOG_ZERO}; "
                      f"the Python side has {MAX_ORDER_LIMIT}, {PY_LOG_ZERO}: rebuild the extension")


cdef int method_code(smooth_method) except -1:
    """The code of a method checked where it entered (``check_smoothing``)."""
    return _METHODS[smooth_method]


cdef double smooth_value_of(smooth_method, smooth_value) except? -1.0:
    """The value of a smoothing checked where it entered (``check_smooth_value``)."""
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    return 0.0 if smooth_value is None else float(smooth_value)


cdef inline double _sum_logs(const double *prec, int n, bint neumaier) noexcept nogil:
    """``sum([my_log(p) for p in prec[:n]])`` as the builtin computes it, divided later: leading
    ``LOG_ZERO`` ints add exactly, the first float joins them, then floats are added (with
    compensation from 3.12) and ints plainly; the compensation is added last if finite."""
    cdef int64_t acc = 0
    cdef double f = 0.0, c = 0.0, x, t
    cdef int i = 0
    while i < n and prec[i] == 0.0:
        acc += LOG_ZERO
        i += 1
    if i == n:
        return <double> acc
    f = (<double> acc) + log(prec[i])
    i += 1
    while i < n:
        if prec[i] == 0.0:
            f += <double> LOG_ZERO
        else:
            x = log(prec[i])
            if neumaier:
                t = f + x
                if fabs(f) >= fabs(x):
                    c += (f - t) + x
                else:
                    c += (x - t) + f
                f = t
            else:
                f += x
        i += 1
    if neumaier and c != 0.0 and isfinite(c):
        f += c
    return f


cdef inline double _bp(int64_t sys_len, int64_t ref_len) noexcept nogil:
    if sys_len < ref_len:
        if sys_len > 0:
            return exp(1.0 - (<double> ref_len) / (<double> sys_len))
        return 0.0
    return 1.0


cdef double sacre_row(const int64_t *row, int N, int method, double sv, bint eff) noexcept nogil:
    """``bleu_from_stats(row ...)[0]`` for Python numbers (``dtype=None``)."""
    return _sacre_row(row, N, method, sv, 100.0 * sv, eff, NEUMAIER, False)


ctypedef fused stat_t:
    int64_t  # Python ints (dtype None) and numpy int64 rows: double arithmetic
    float    # numpy float32 rows: float32 arithmetic


cdef double _sacre_row(const stat_t *row, int N, int method, double sv, double floor_num, bint eff,
                       bint neumaier, bint truncate, double *prec_out=NULL) noexcept nogil:
    """sacreBLEU's score of one row (``bleu_from_stats(row ...)[0]``), in the arithmetic sacreBLEU
    applies to the row's type: doubles for ``int64_t`` rows (add-k truncated back to int64 when
    ``truncate``: an int64 array stores it); the precisions also to ``prec_out`` if not NULL; for ``float`` rows NumPy >= 2's (NEP 50) float32
    arithmetic, a Python float meeting a float32 being rounded to float32 and the operation done
    in float32 (each product or quotient of floats below is one float32 operation).

    ``sv``: the smoothing value; ``floor_num``: floor's numerator ``100.0 * sv``.  For float rows
    the caller passes both already rounded to float32 as numpy rounds them (so no conversion
    here can go out of a float's range)."""
    cdef double prec[MAX_N]
    cdef double corr, tot, mteval = 1.0
    cdef int n, eff_order = N
    cdef bint anymatch = False
    for n in range(N):
        prec[n] = 0.0
        if row[2 + n] != 0:
            anymatch = True
    if not anymatch:
        if prec_out != NULL:
            for n in range(N):
                prec_out[n] = 0.0
        return 0.0
    for n in range(N):
        corr = <double> row[2 + n]
        tot = <double> row[2 + N + n]
        if method == M_ADDK and n > 0:
            if stat_t is float:
                corr = <float> corr + <float> sv
                tot = <float> tot + <float> sv
            else:
                corr = corr + sv
                tot = tot + sv
                if truncate:  # stored back into an int64 array
                    corr = <double> (<int64_t> corr)
                    tot = <double> (<int64_t> tot)
        if tot == 0.0:
            break
        if eff:
            eff_order = n + 1
        if corr == 0.0:
            if method == M_EXP:
                mteval *= 2.0
                if stat_t is float:
                    prec[n] = (<float> 100.0) / ((<float> mteval) * (<float> tot))
                else:
                    prec[n] = 100.0 / (mteval * tot)
            elif method == M_FLOOR:
                if stat_t is float:
                    prec[n] = (<float> floor_num) / (<float> tot)
                else:
                    prec[n] = floor_num / tot
        else:
            if stat_t is float:
                prec[n] = ((<float> 100.0) * (<float> corr)) / (<float> tot)
            else:
                prec[n] = (100.0 * corr) / tot
    if prec_out != NULL:
        for n in range(N):
            prec_out[n] = prec[n]
    return _bp(<int64_t> row[0], <int64_t> row[1]) * exp(_sum_logs(prec, eff_order, neumaier) / eff_order)


def bleu_of_row(row, max_ngram_order=4, smooth_method="none", smooth_value=None, effective_order=False):
    cdef int N
    if type(max_ngram_order) is int and 1 <= <long long> max_ngram_order <= MAX_N:
        N = <int> max_ngram_order
    else:
        N = check_order(max_ngram_order)
    cdef int code = method_code(smooth_method)
    cdef Py_ssize_t i, width = 2 + 2 * N
    cdef int64_t vals[2 + 2 * MAX_N]
    cdef double prec[MAX_N]
    cdef double sv, score
    if code == M_ADDK or type(row) is not list or len(row) != width or not is_plain_smooth_value(smooth_value):
        return _twin.bleu_of_row(row, N, smooth_method, smooth_value, effective_order)
    for i in range(width):
        x = (<list> row)[i]
        if type(x) is not int or not 0 <= x <= 9007199254740991:  # exact in a double (2**53 - 1)
            return _twin.bleu_of_row(row, N, smooth_method, smooth_value, effective_order)
        vals[i] = x
    sv = smooth_value_of(smooth_method, smooth_value)
    score = _sacre_row(vals, N, code, sv, 100.0 * sv, bool(effective_order), NEUMAIER, False, prec)
    if not isfinite(score):
        return _twin.bleu_of_row(row, N, smooth_method, smooth_value, effective_order)
    return (score, row[2:2 + N], row[2 + N:width], [prec[i] for i in range(N)],
            _bp(vals[0], vals[1]))


def sacre_scores(stats, max_ngram_order, smooth_method, smooth_value, effective_order, dtype=None, workers=1):
    cdef int N = check_order(max_ngram_order)
    cdef int code = method_code(smooth_method)
    cdef double sv = smooth_value_of(smooth_method, smooth_value)
    cdef double floor_num = 100.0 * sv
    cdef bint eff = bool(effective_order)
    cdef bint neu = NEUMAIER
    arr = check_matrix(stats, N, dtype, python_ints=True)  # the call's own copy: read below without the GIL
    check_addk_range(arr, N, smooth_method, smooth_value, dtype)
    if arr.dtype == object or not is_plain_smooth_value(smooth_value):  # (object: Python ints past 2**53)
        return _twin.sacre_scores(arr, N, smooth_method, smooth_value, effective_order, dtype, workers)
    cdef int amode = A_PY if dtype is None else A_I64 if arr.dtype == np.int64 else A_F32
    if amode == A_F32:
        # NEP 50: a Python number meeting a float32 is rounded to float32 first (numpy's
        # rounding, overflow to inf included), then the operation is done in float32
        with np.errstate(over="ignore"):
            sv = float(np.float32(0) + (SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value)
                       if smooth_method == "add-k" else 0.0)
            floor_num = float(np.float32(0) + floor_num)
    cdef Py_ssize_t n = arr.shape[0]
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef int64_t[:, ::1] si
    cdef float[:, ::1] sf
    if amode == A_F32:
        sf = arr
    else:
        si = arr

    def run(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i
        with nogil:
            if amode == A_F32:
                for i in range(lo, hi):
                    o[i] = _sacre_row(&sf[i, 0], N, code, sv, floor_num, eff, neu, False)
            else:
                for i in range(lo, hi):
                    o[i] = _sacre_row(&si[i, 0], N, code, sv, floor_num, eff, neu, amode == A_I64)

    run_chunks(run, n, workers, _MIN_SCORE_CHUNK, _ONE_SLICE_ROWS)
    _rescore_non_finite(out, lambda rows: _twin.sacre_scores(arr[rows], N, smooth_method, smooth_value,
                                                             effective_order, dtype))
    return out


def _rescore_non_finite(double[::1] out, score_rows):
    """Score again, with the Python formula ``score_rows(rows)``, every row whose C score is not
    finite: there the formula decides (an ``OverflowError`` from ``math.exp``, an infinity, a
    nan, ``math.fsum``'s ``ValueError``), which C cannot mirror without the GIL."""
    cdef Py_ssize_t i, n = out.shape[0]
    for i in range(n):
        if not isfinite(out[i]):
            break
    else:
        return  # (every score finite: no numpy call for a small batch)
    arr = out.base
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        arr[bad] = score_rows(bad)


# ------------------------------------------------------------------------------------ NLTK

cdef double _fsum(const double *terms, int n) noexcept nogil:
    """``math.fsum`` of finite terms whose partial sums cannot overflow (the caller's bounds):
    Shewchuk's exact partials, rounded once (half to even) at the end, as CPython computes it."""
    cdef double partials[2 * MAX_N + 32]
    cdef int i, j, k, m = 0
    cdef double x, y, t, hi, lo, yr
    for k in range(n):
        x = terms[k]
        i = 0
        for j in range(m):
            y = partials[j]
            if fabs(x) < fabs(y):
                t = x
                x = y
                y = t
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        m = i
        if x != 0.0:  # math.fsum keeps no zero partial
            partials[m] = x
            m += 1
    hi = 0.0
    if m > 0:
        m -= 1
        hi = partials[m]
        lo = 0.0
        while m > 0:
            x = hi
            m -= 1
            y = partials[m]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if m > 0 and ((lo < 0.0 and partials[m - 1] < 0.0) or (lo > 0.0 and partials[m - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


cdef double _nltk_row(const int64_t *row, int N, int K, const double *w, int method, double eps,
                      double kk, bint reweigh, double tiny) noexcept nogil:
    """``nltk_from_counts`` for one row and one weight tuple, methods 0-4 (NLTK 3.9/3.10); 0.0 for
    an empty hypothesis (brevity penalty 0), as the twin."""
    cdef double p[MAX_N]
    cdef double terms[MAX_N]
    cdef double d, bp
    cdef int64_t c = row[0], r = row[1], m
    cdef int i, nt = 0, used = K, zeros = 1
    if row[2] == 0 or c == 0:
        return 0.0
    for i in range(K):
        m = row[2 + i]
        d = <double> (row[2 + N + i] if row[2 + N + i] > 1 else 1)
        if m != 0:
            if method == 2 and i > 0:
                p[i] = (<double> (m + 1)) / (d + 1.0)
            else:
                p[i] = (<double> m) / d
        elif method == 0:
            p[i] = tiny
        elif method == 1:
            p[i] = eps / d
        elif method == 2:
            p[i] = 1.0 / (d + 1.0) if i > 0 else 0.0
        elif method == 3:
            p[i] = 1.0 / ldexp(d, zeros)
            zeros += 1
        elif c > 1:  # method 4
            p[i] = (1.0 / ((ldexp(1.0, zeros) * kk) / log(<double> c))) / d
            zeros += 1
        else:
            p[i] = 0.0  # method 4 leaves the zero precision, which is skipped
    if reweigh and c < 4 and c < K:  # (the twin zips the 1/c weights with the K precisions)
        used = <int> c
    for i in range(used):
        if p[i] > 0.0:
            terms[nt] = (1.0 / c if (reweigh and c < 4) else w[i]) * log(p[i])
            nt += 1
    if c > r:
        bp = 1.0
    else:
        bp = exp(1.0 - (<double> r) / (<double> c))
    return bp * exp(_fsum(terms, nt))


cdef bint _plain_floats(tuple weight) except -1:
    """``all(map(is_plain_number, weight))`` for ``check_nltk_weights``'s tuple of floats."""
    cdef double x
    for w in weight:
        x = w
        if not fabs(x) < 4503599627370496.0:  # 2**52 (nan is not plain)
            return False
    return True


def nltk_of_row(row, max_ngram_order, weights, method, epsilon, k, reweigh):
    cdef int N
    if type(max_ngram_order) is int and 1 <= <long long> max_ngram_order <= MAX_N:
        N = <int> max_ngram_order
    else:
        N = check_order(max_ngram_order)
    cdef Py_ssize_t i, width = 2 + 2 * N
    cdef int64_t vals[2 + 2 * MAX_N]
    cdef double wv[MAX_N]
    cdef int K
    if type(row) is not list or len(row) != width:  # the twin's check_matrix decides
        return _twin.nltk_of_row(row, N, weights, method, epsilon, k, reweigh)
    for i in range(width):
        x = (<list> row)[i]
        if type(x) is not int or not 0 <= x <= 9007199254740991:
            return _twin.nltk_of_row(row, N, weights, method, epsilon, k, reweigh)
        vals[i] = x
    K = len(weights) if type(weights) is tuple else 0
    plain = 1 <= K <= N and type(method) is int and 0 <= method <= 4 and not reweigh
    for i in range(K if plain else 0):  # the usual weights, a tuple of plain floats: checked here
        x = (<tuple> weights)[i]
        if type(x) is not float or not fabs(<double> x) < 4503599627370496.0:  # (is_plain_number's bound)
            plain = False
            break
        wv[i] = <double> x
    if not plain:
        weight = check_nltk_weights(weights, N, method, reweigh)
        if not _plain_floats(weight):
            return _twin.nltk_of_row(row, N, weights, method, epsilon, k, reweigh)
        K = len(weight)
        for i in range(K):
            wv[i] = weight[i]
    if not ((method != 1 or is_plain_number(epsilon)) and (
            method != 4 or (is_plain_number(k) and abs(k) >= 2.0**-52))):
        return _twin.nltk_of_row(row, N, weights, method, epsilon, k, reweigh)
    score = _nltk_row(vals, N, K, wv, method, float(epsilon) if method == 1 else 0.0,
                      float(k) if method == 4 else 0.0, bool(reweigh), sys.float_info.min)
    if not isfinite(score):
        return _twin.nltk_of_row(row, N, weights, method, epsilon, k, reweigh)
    return score


def nltk_scores(stats, max_ngram_order, weights, method, epsilon, k, reweigh, workers=1):
    cdef int N = check_order(max_ngram_order)
    arr = check_matrix(stats, N, None)  # the call's own copy: read below without the GIL
    return _nltk_scores(arr, N, weights, method, epsilon, k, reweigh, workers)


def nltk_kernel_scores(stats, max_ngram_order, weights, method, epsilon, k, reweigh, workers=1):
    cdef int N
    if type(max_ngram_order) is int and 1 <= <long long> max_ngram_order <= MAX_N:
        N = <int> max_ngram_order
    else:
        N = check_order(max_ngram_order)
    if not (type(stats) is np.ndarray and stats.dtype == np.int64 and stats.ndim == 2
            and stats.shape[1] == 2 + 2 * N and stats.flags.c_contiguous):
        return nltk_scores(stats, N, weights, method, epsilon, k, reweigh, workers)
    # a counting kernel's own fresh rows (the twin's contract): no copy, no range check
    return _nltk_scores(stats, N, weights, method, epsilon, k, reweigh, workers)


cdef _nltk_scores(arr, int N, weights, method, epsilon, k, reweigh, workers):
    """``nltk_scores`` of ``arr``, an int64 C-contiguous (n, 2 + 2N) matrix the call owns with
    counts in 0 .. 2**53 - 1 (``check_matrix``'s copy, or a counting kernel's fresh rows)."""
    weight = check_nltk_weights(weights, N, method, reweigh)
    # parameters C reproduces exactly (see the module docstring); k near 0 would divide by 0
    plain = _plain_floats(weight) and (method != 1 or is_plain_number(epsilon)) and (
        method != 4 or (is_plain_number(k) and abs(k) >= 2.0**-52))
    if not plain:
        return _twin.nltk_scores(arr, N, weights, method, epsilon, k, reweigh, workers)
    wa = np.array(weight, dtype=np.float64)
    cdef int K = wa.shape[0]
    cdef double[::1] wv = wa
    cdef int64_t[:, ::1] st = arr
    cdef Py_ssize_t n = arr.shape[0]
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] o = out
    cdef int meth = method
    cdef double eps = float(epsilon) if method == 1 else 0.0
    cdef double kk = float(k) if method == 4 else 0.0
    cdef bint rw = bool(reweigh)
    cdef double tiny = sys.float_info.min

    def run(Py_ssize_t lo, Py_ssize_t hi):
        cdef Py_ssize_t i
        with nogil:
            for i in range(lo, hi):
                o[i] = _nltk_row(&st[i, 0], N, K, &wv[0], meth, eps, kk, rw, tiny)

    run_chunks(run, n, workers, _MIN_SCORE_CHUNK, _ONE_SLICE_ROWS)
    _rescore_non_finite(out, lambda rows: _twin.nltk_scores(arr[rows], N, weights, method, epsilon, k, reweigh))
    return out
