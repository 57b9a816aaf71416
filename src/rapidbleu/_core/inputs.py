"""Input normalisation, each rule once: what every front door does to its inputs before a kernel.

* :func:`preprocess` -- sacreBLEU's preprocessing of one segment (lowercase, right-strip,
  tokenize), the one copy every caller uses;
* :func:`token_ids`, :func:`join_flat` -- string tokens as integer ids through one vocabulary,
  sequences stored end to end (how BLEU's set kernels take text);
* :func:`segment_major_streams` -- the one rule of the references' layout: references given
  one list per segment where streams are expected, in a layout that cannot be streams, become
  streams (with one warning per process);
* :func:`num_refs_of` -- references per segment from their counts (``-1`` when it varies, an
  error naming the first segment without any);
* :func:`check_statistics_matrix` -- the one validator of a statistics matrix, for any metric
  (``Metric.check_statistics`` adds the metric's own rules);
* :func:`column_sums` -- how rows of statistics add up to a corpus row, as sacreBLEU adds them.

Argument checks (orders, workers, hypotheses and reference streams) are in
``rapidbleu._core.validate``; the kernels below trust what these functions return.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import add, is_not
from typing import TYPE_CHECKING, Any

from .._base.errors import (
    INT64_MAX,
    MAX_EXACT_COUNT,
    EmptyInputError,
    SegmentMajorReferencesWarning,
    held_error,
    kind_of,
    no_reference_error,
    quote_stat,
    segment_major_warning,
    stream_length_error,
    streams_differ_error,
    warn_outside,
)
from .._base.lazy import is_ndarray
from .validate import check_ordered

if TYPE_CHECKING:
    import numpy as np
else:
    from .._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

__all__ = [
    "check_held",
    "check_references",
    "check_statistics_matrix",
    "column_sums",
    "exact_column_sums",
    "join_flat",
    "num_refs_of",
    "preprocess",
    "reset_segment_major_warning",
    "segment_major_streams",
    "stat_value",
    "streams_of_rows",
    "token_ids",
]


def preprocess(line: str, tokenizer: Callable[[str], str], lowercase: bool) -> str:
    """sacreBLEU's preprocessing of one segment (``Metric._preprocess_segment``): lowercase
    (Python's ``str.lower``) when asked, strip trailing whitespace (``str.rstrip``), then
    tokenize; the result is the tokens joined by single spaces."""
    if lowercase:
        line = line.lower()
    return tokenizer(line.rstrip())


def token_ids(token_lists: Iterable[Sequence[Any]], vocab: dict[Any, int]) -> list[np.ndarray]:
    """Each sequence of (hashable) tokens as an int64 array of ids: a token's id is its index in
    ``vocab``, which grows as new tokens come (so sequences mapped through one ``vocab`` share
    their ids, and n-grams of ids are n-grams of tokens)."""
    return [np.array([vocab.setdefault(t, len(vocab)) for t in toks], dtype=np.int64) for toks in token_lists]


def join_flat(seqs: Sequence[np.ndarray | None]) -> tuple[np.ndarray, np.ndarray]:
    """Sequences stored end to end: ``(flat, lens)``, int64 ids one after the other and each
    sequence's length (-1 for ``None``: no sequence)."""
    lens = np.fromiter((-1 if s is None else len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    parts = [s for s in seqs if s is not None and len(s)]
    flat = np.concatenate(parts).astype(np.int64, copy=False) if parts else np.zeros(0, dtype=np.int64)
    return np.ascontiguousarray(flat), lens


def num_refs_of(counts: Iterable[int] | np.ndarray) -> int:
    """References per segment from each segment's count (any iterable, or an integer array,
    checked without a Python loop): the common count, or ``-1`` when it varies (sacreBLEU's
    ``nrefs:var``).

    Raises:
        NoReferencesError: (a ``ValueError``) a segment without any reference, named by index.
    """
    if is_ndarray(counts):
        arr = counts
        if len(arr) and not arr.all():
            raise no_reference_error(int(np.flatnonzero(arr == 0)[0]))
        return int(arr[0]) if len(arr) and (arr == arr[0]).all() else (-1 if len(arr) else 0)
    distinct: set[int] = set()
    for i, c in enumerate(counts):
        if not c:
            raise no_reference_error(i)
        distinct.add(int(c))
    return distinct.pop() if len(distinct) == 1 else -1


def streams_of_rows(rows: Sequence[Sequence[Any]], at_least: int = 0) -> list[list[Any]]:
    """References given one list per segment (``rows[i]``: the references of segment i) as
    reference streams (``streams[k][i]``), as many as the longest row has (at least
    ``at_least``), with None where a segment has fewer references."""
    k = max(max((len(r) for r in rows), default=0), at_least)
    return [[r[j] if j < len(r) else None for r in rows] for j in range(k)]


#: Whether this process has shown its :class:`SegmentMajorReferencesWarning` (once per process,
#: whatever the warning filters and call sites: :func:`reset_segment_major_warning` for tests).
_segment_major_warned = False


def reset_segment_major_warning() -> None:
    """Forget that the :class:`SegmentMajorReferencesWarning` was shown: the next references
    given one list per segment warn again (a hook for tests; the warning is once per process)."""
    global _segment_major_warned  # noqa: PLW0603 -- the process-wide "shown once" flag
    _segment_major_warned = False


def segment_major_streams(references: Sequence[Any], n_hyps: int) -> list[list[Any]] | None:
    """The one rule of the references' layout, for every door that takes reference streams
    (``references[k][i]``: the k-th reference of hypothesis i, sacreBLEU's layout).

    References are read as **one list per segment** (``references[i]``: the references of
    hypothesis i, as lighteval's ``[[ref] for ref in golds]``) only where they cannot be
    streams and can be segments: as many lists as hypotheses, each a non-empty sequence
    (not a string), and not every one as long as the hypotheses (streams must all be).  Where
    every list is as long as the hypotheses, both readings fit and the references stay streams
    (sacreBLEU's reading, no warning): ``n`` lists of ``n`` references for ``n`` hypotheses, so
    for one hypothesis ``[[ref]]`` (the two readings are the same) is a stream, while
    ``[[ref1, ref2]]`` is one segment with two references.  Anything else is left to the
    streams' checks and their errors.

    Args:
        references: the sequence of lists given as references (already known not to be a
            string or an unordered collection).
        n_hyps: the number of hypotheses.

    Returns:
        The references transposed into streams (as many as the longest list has references,
        ``None`` where a segment has fewer, as sacreBLEU's variable references), after one
        :class:`SegmentMajorReferencesWarning` per process; or None: not this layout.
    """
    global _segment_major_warned  # noqa: PLW0603 -- the process-wide "shown once" flag
    if len(references) != n_hyps:
        return None
    lengths = []
    for row in references:
        if isinstance(row, (str, bytes)) or not (isinstance(row, Sequence) or is_ndarray(row)) or not len(row):
            return None
        lengths.append(len(row))
    if all(length == n_hyps for length in lengths):
        return None
    if not _segment_major_warned:
        _segment_major_warned = True
        warn_outside(segment_major_warning(n_hyps), SegmentMajorReferencesWarning)
    return streams_of_rows(references)


def check_references(references: Any, n_hyps: int | None) -> tuple[list[list[str | None]], int]:
    """Validate reference streams; they stay streams (the layout the statistics take).

    Args:
        references: a sequence of reference streams (one stream per reference set), each a
            sequence of ``n_hyps`` strings; ``None`` in a stream means "this segment has no
            reference in this stream" (a variable number of references).  References given
            one list per segment in a layout that cannot be streams are transposed, with a
            warning (:func:`segment_major_streams`).
        n_hyps: number of hypotheses, or None for references given without hypotheses (a
            metric's ``references=`` cache): then every stream must be as long as the first.

    Returns:
        ``(streams, num_refs)``: the streams as new lists (later changes to the caller's lists
        do not affect them), ``None`` entries kept; and the number of references per segment
        (-1 when it varies: signature ``nrefs:var``).

    Warns:
        SegmentMajorReferencesWarning: references given one list per segment, once per process.

    Raises:
        TypeError: a bare string or a flat list of strings instead of a list of streams, or a
            reference that is neither ``str`` nor ``None``.
        ValueError: no streams, a stream whose length differs from the hypotheses, or a segment
            left without any reference.
    """
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        check_ordered(references, "references")
        raise TypeError(
            f"references must be a list of reference streams (a list of lists of strings), got {kind_of(references)}"
        )
    streams = list(references)
    if not streams:
        raise EmptyInputError("references is empty: give at least one reference stream")
    if n_hyps is not None:
        streams = segment_major_streams(streams, n_hyps) or streams
    expected = n_hyps
    for k, stream in enumerate(streams):
        if isinstance(stream, str):
            raise TypeError(
                "references must be a list of reference streams, one list of strings per reference "
                f"set, but references[{k}] is a string; for a single reference write [refs], not refs"
            )
        if not isinstance(stream, Sequence):
            check_ordered(stream, f"references[{k}]")
            raise TypeError(f"references[{k}] must be a sequence of strings, got {kind_of(stream)}")
        if expected is None:  # no hypotheses to match: every stream as long as the first
            expected = len(stream)
        elif len(stream) != expected:
            if n_hyps is None:
                raise streams_differ_error(k, len(stream), expected)
            raise stream_length_error(f"reference stream {k}", len(stream), n_hyps, n_streams=len(streams))
    streams = [list(stream) for stream in streams]
    with_none = []
    for k, stream in enumerate(streams):
        kinds = set(map(type, stream))
        if kinds == {str}:
            continue
        for i, r in enumerate(stream):
            if r is not None and not isinstance(r, str):
                raise TypeError(f"references[{k}][{i}] is a {kind_of(r)}, expected str or None")
        if type(None) in kinds:
            with_none.append(stream)
    if not with_none:  # the common case: a fixed number of references, no per-item work
        return streams, len(streams)
    # references per segment, counted with C-level map passes (no list per segment)
    counts = [len(streams) - len(with_none)] * len(streams[0])
    for stream in with_none:
        counts = list(map(add, counts, map(is_not, stream, repeat(None))))
    return streams, num_refs_of(counts)


def sentence_num_refs(references: list[Any]) -> int:
    """The number of references of one segment (``sentence_score``'s list, ``None`` entries
    skipped), checked as :func:`check_references` checks ``[[r] for r in references]`` and with
    its errors, without building the streams when every entry is a string (a per-call cost of
    a loop that scores one segment a call).

    Raises:
        TypeError, ValueError: as :func:`check_references` (no reference, a reference that is
            neither ``str`` nor ``None``).
    """
    if len(references) == 1 and type(references[0]) is str:
        return 1
    if set(map(type, references)) != {str}:  # (None, other types, or none at all)
        return check_references([[r] for r in references], 1)[1]
    return len(references)


def _columns_text(columns: Sequence[str]) -> str:
    if len(columns) <= 8:
        return ", ".join(columns)
    return f"{', '.join(columns[:4])}, ..., {', '.join(columns[-2:])}"


def stat_value(rows: np.ndarray, r: int, c: int) -> Any:
    """``rows[r, c]`` as the caller gave it, for an error to quote: a Python number (a numpy
    scalar's ``.item()``, an object array's element itself)."""
    v = rows[r, c]
    return v.item() if hasattr(v, "item") else v


def _python_numbers(a: np.ndarray, columns: Sequence[str], what: str) -> tuple[np.ndarray, np.ndarray]:
    """An object array's values as exact Python numbers (integers as ``int``, any other real
    number as ``float``), and a float64 array of the same values for the checks (the same
    signs, finiteness and whole numbers).

    Raises:
        ValueError: a value that is not a real number, or an integer beyond float64's range.
    """
    width = len(columns)
    flat = a.reshape(-1).tolist()
    exact: list[Any] = []
    shadow: list[float] = []
    for i, v in enumerate(flat):
        r, c = divmod(i, width)
        try:
            if isinstance(v, (str, bytes)):
                raise TypeError
            x = int(v) if isinstance(v, numbers.Integral) else float(v)
            f = float(x)
        except OverflowError:
            raise ValueError(
                f"{what}: row {r}, column {c} ({columns[c]}) is {quote_stat(v)}; counts must be within "
                "float64's range (below 2**1024): no corpus has more, and the scores' float arithmetic "
                "(sacreBLEU's too) cannot hold them"
            ) from None
        except (TypeError, ValueError):
            raise ValueError(
                f"{what} must be numbers, but row {r}, column {c} ({columns[c]}) is a {type(v).__name__}"
            ) from None
        exact.append(x)
        shadow.append(f)
    return np.array(exact, dtype=object).reshape(a.shape), np.array(shadow, dtype=np.float64).reshape(a.shape)


def _whole_counts(exact: np.ndarray) -> np.ndarray:
    """Checked whole counts (any integer or float dtype, or exact Python numbers) as int64, or
    as an object array of Python ints where a value is beyond int64 (never a wrapped value)."""
    kind = exact.dtype.kind
    if kind in "ib" or (kind == "u" and (exact.dtype.itemsize < 8 or not exact.size or exact.max() <= INT64_MAX)):
        return exact  # (narrow types stay narrow: the command line keeps its statistics small)
    if kind == "f" and not (exact.size and exact.max() >= 2**63):
        return exact.astype(np.int64)
    values = [int(v) for v in exact.reshape(-1).tolist()]
    if kind == "O" and all(v <= INT64_MAX for v in values):
        return np.array(values, dtype=np.int64).reshape(exact.shape)
    return np.array(values, dtype=object).reshape(exact.shape)


def _float_statistics(exact: np.ndarray) -> np.ndarray:
    """Checked float statistics (TER's) as float64 (float arrays as they are), or as an object
    array of the exact Python numbers where an integer is beyond 2**53 (a float64 would round
    it; sacreBLEU divides the Python int)."""
    kind = exact.dtype.kind
    if kind == "f":
        return exact
    if kind in "iub":
        if exact.size and exact.max() > MAX_EXACT_COUNT:
            return exact.astype(object)
        return exact.astype(np.float64)
    if any(type(v) is int and v > MAX_EXACT_COUNT for v in exact.reshape(-1).tolist()):
        return exact
    return exact.astype(np.float64)


def check_statistics_matrix(
    stats: Any,
    columns: Sequence[str],
    dtype: str,
    what: str = "statistics",
    nonempty: bool = False,
    width_text: str | None = None,
) -> np.ndarray:
    """One row or a matrix of statistics rows with ``columns``, checked.

    Values are read exactly: Python ints of any size (up to float64's range), numpy arrays of
    any integer or float dtype (uint64 beyond int64 included), lists mixing ints and floats.
    No value is rounded, truncated or wrapped on the way, and an error quotes the value given.

    Args:
        stats: array-like, 1-D (one row) or 2-D (rows).
        columns: the column names (their number is the width).
        dtype: ``"int64"`` (counts: integral values required) or ``"float64"``.
        what: how errors name the matrix.
        nonempty: require at least one row.
        width_text: what the error for a wrong width says is needed (default: the number of
            columns and their names).

    Returns:
        The values as an array of the same shape.  Counts: integer dtypes as given (narrow
        unsigned types stay narrow), integral floats as int64; where a count is beyond int64,
        an object array of Python ints.  Float statistics: float arrays as given, others as
        float64; where an integer is beyond 2**53, an object array of the exact numbers.

    Raises:
        ValueError: not 1-D or 2-D, no rows when ``nonempty``, another width, not real
            numbers, a negative, non-finite or (for counts) fractional value, an integer beyond
            float64's range (2**1024); the first offending row and column are named.
    """
    a = np.asarray(stats)
    if a.ndim not in (1, 2) or (nonempty and (a.ndim != 2 or a.shape[0] == 0)):
        shape = "a non-empty 2-D matrix (segments x columns)" if nonempty else "one row or a 2-D matrix"
        raise ValueError(f"{what} must be {shape}, got shape {a.shape}")
    width = len(columns)
    if a.shape[-1] != width:
        need = width_text or f"need {width}: [{_columns_text(columns)}]"
        raise ValueError(f"{what} have {a.shape[-1]} columns but {need}")
    if a.dtype.kind == "f" and not is_ndarray(stats) and a.size and np.abs(a).max() > MAX_EXACT_COUNT:
        a = np.array(stats, dtype=object)  # numpy read Python ints beyond 2**53 as rounded floats
    if a.dtype.kind == "O":
        exact, a = _python_numbers(a, columns, what)
    elif a.dtype.kind in "iufb":
        exact = a
    else:
        raise ValueError(f"{what} must be numbers, got dtype {a.dtype}")
    rows = a.reshape(-1, width)
    given = exact.reshape(-1, width)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(rows)
        if bad.any():
            r, c = (int(v) for v in np.argwhere(bad)[0])
            raise ValueError(
                f"{what}: row {r}, column {c} ({columns[c]}) is {quote_stat(stat_value(given, r, c))}; need a number"
            )
    neg = rows < 0
    if neg.any():
        r, c = (int(v) for v in np.argwhere(neg)[0])
        raise ValueError(
            f"{what}: row {r}, column {c} is negative ({quote_stat(stat_value(given, r, c))}); counts must be >= 0"
        )
    if dtype == "int64":
        if a.dtype.kind == "f":
            frac = rows != np.floor(rows)
            if frac.any():
                r, c = (int(v) for v in np.argwhere(frac)[0])
                raise ValueError(
                    f"{what}: row {r}, column {c} ({columns[c]}) is {quote_stat(stat_value(given, r, c))}; "
                    "statistics are whole counts"
                )
        return _whole_counts(exact)
    return _float_statistics(exact)


def check_held(
    rows: np.ndarray, dtype: Any, columns: Sequence[str], what: str = "statistics", held: str | None = None
) -> None:
    """Checked statistics ``(m, k)`` (:func:`check_statistics_matrix`) that the arithmetic of
    ``dtype`` is to score: every value must fit that numpy type as sacreBLEU would hold it there
    -- ``numpy.int64`` up to 2**63 - 1, ``numpy.float32`` without rounding to infinity.  None
    (Python numbers), float64 and other dtypes (which the scoring kernels refuse) need nothing.
    ``held``: what the type is to the caller, for the error (default: the scores' arithmetic).

    Raises:
        ValueError: the first value beyond the type, quoted as given.
    """
    if dtype is None:
        return
    name = np.dtype(dtype).name
    if name == "int64":
        if rows.dtype.kind == "i" or (rows.dtype.kind == "u" and rows.dtype.itemsize < 8) or rows.dtype.kind == "b":
            return
        over = rows >= 2**63
    elif name == "float32":
        if rows.dtype.kind in "iub" and rows.dtype.itemsize < 8:
            return
        with np.errstate(over="ignore"):
            over = np.isinf(rows.astype(np.float32))
    else:
        return
    over = np.asarray(over, dtype=bool)
    if over.any():
        r, c = (int(v) for v in np.argwhere(over)[0])
        raise held_error(what, r, c, columns[c], stat_value(rows, r, c), name, held)


def exact_column_sums(a: np.ndarray) -> list[int]:
    """The column sums of integer rows ``(n, k)`` as Python ints, exact: in int64 where no sum
    can leave it, else in Python ints (never a wrapped sum)."""
    if a.dtype.kind == "O":
        return [int(v) for v in a.sum(axis=0).tolist()]
    if a.size:
        top = max(int(a.max()), -int(a.min()))
        if top and a.shape[0] > INT64_MAX // top:
            return [int(v) for v in a.astype(object).sum(axis=0).tolist()]
    return [int(v) for v in a.sum(axis=0, dtype=np.int64)]


def column_sums(stats: Any, dtype: str, start: Sequence[Any] | None = None) -> list[Any]:
    """The corpus row of per-segment rows, continuing from ``start`` (the row of the segments
    before these; None: nothing before): for counts (``dtype="int64"``) exact column sums as
    Python ints; for float statistics each column summed left to right in Python floats, as
    ``sacrebleu.utils.sum_of_lists`` does (the float of a sum depends on its order, so a corpus
    summed chunk by chunk with ``start`` equals one sum over all its segments)."""
    a = np.asarray(stats)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if dtype == "int64":
        sums = exact_column_sums(a)
        return sums if start is None else [int(x) + y for x, y in zip(start, sums, strict=True)]
    # (an object array holds Python ints beyond 2**53: summed from the int 0 as Python's sum()
    # does, they stay exact ints until a float joins them)
    if a.dtype.kind == "O" or (start is not None and not all(type(x) is float for x in start)):
        total = [0] * a.shape[1] if start is None else list(start)
        for row in a.tolist():
            for j, v in enumerate(row):
                total[j] += v
        return total
    # float rows: the same additions in the same order (add.accumulate adds one row at a time,
    # in double precision, as Python's floats do), without a Python loop
    first = np.zeros((1, a.shape[1])) if start is None else np.asarray([start], dtype=np.float64)
    return [float(x) for x in np.add.accumulate(np.concatenate([first, a.astype(np.float64)]), axis=0)[-1]]
