"""BLEU on token ids: for training and decoding loops, no detokenization, no string round trip.

A *stream* is one token-id sequence per segment, in any of these forms:

* a list (or tuple) of sequences of Python ints, of 1-D numpy integer arrays, or of objects
  exposing ``__array__`` (CPU tensors of torch, jax, ... without importing them);
* a 2-D integer array (or ``__array__`` object) of shape (n, T), one row per segment, padded
  with ``pad_id``.

Cleaning, applied to every sequence of every stream (hypotheses and references alike):

1. ``eos_id`` (optional): the sequence is cut at its first ``eos_id``; the eos and everything
   after it are dropped.
2. ``pad_id`` (optional): every id equal to ``pad_id`` is removed, wherever it is: trailing
   (right padding), leading (left padding, as decoder-only generation produces) or inside a
   row.  A padded 2-D array without ``pad_id`` is scored as is (the pads count as tokens).

If ``pad_id == eos_id`` (GPT-2 style) step 1 comes first, so a left-padded row is empty: give
``pad_id`` only, or strip left padding yourself, in that case.

Ids: any integer that fits in int64, negative ids included (so ``-100``, the usual "ignore"
label, works as ``pad_id``).  Unsigned arrays are accepted if their values fit.  Boolean
arrays and all-boolean sequences, floats (even integral ones), strings and objects are refused
with ``TypeError``, also inside a list of ints; arrays of 3 or more dimensions with ``ValueError``.

Speed: a padded 2-D array is cleaned with vectorised numpy; a list of lists of Python ints is
packed by the compiled core in one pass (a few ns per id); other forms row by row.  Streams
stay flat (one buffer each) all the way to the core.

References: either one stream (one reference per hypothesis, same forms as the hypotheses) or a
list of K streams (K references per hypothesis, sacreBLEU's convention: ``references[k][i]`` is
the k-th reference of segment i; in list streams a ``None`` entry means "no k-th reference for
this segment").  The two are told apart by nesting depth: a 2-D array or a list whose
elements are 1-D sequences of ints is one stream; a list whose elements are 2-D arrays or lists
of sequences is a list of streams.  An all-empty single stream is ambiguous: wrap it, ``[refs]``.

Scores are sacreBLEU's (0-100), computed from the same statistics as ``rapidbleu.BLEU`` with
``tokenize='none'`` on the ids written as space-separated decimal strings (tested): BLEU from
Papineni, Roukos, Ward and Zhu (2002), smoothing methods from Chen and Cherry (2014).
"""

import gc
from collections.abc import Sequence
from contextlib import contextmanager
from typing import List, Optional, Tuple

import numpy as np

from . import _backend
from ._scoring_py import check_smoothing
from ._stats import MAX_NGRAM_ORDER, n_columns
from ._validate import _kind, check_order, no_reference_error, stream_length_error
from .score import BLEUScore

__all__ = ["IdStreams", "clean_ids", "corpus_bleu_ids", "stats_ids", "to_id_lists"]

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


@contextmanager
def no_gc():
    """Pause the cyclic garbage collector while many small containers are built (lists of
    per-segment arrays): they form no cycles, and a collection traversing a big live heap at
    every few hundred allocations can cost more than the BLEU computation.  Restores the
    previous state."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _is_arraylike(x) -> bool:
    return isinstance(x, np.ndarray) or (hasattr(x, "__array__") and not isinstance(x, (str, bytes)))


def _as_int_array(x, what: str) -> np.ndarray:
    """``x`` (array, ``__array__`` object or sequence of ints) as an int64 numpy array."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{what} is a {_kind(x)}; token ids must be integers (for text use the string API)")
    if _is_arraylike(x):
        arr = np.asarray(x)
    else:
        if not isinstance(x, Sequence):
            try:
                x = list(x)
            except TypeError:
                raise TypeError(f"{what} must be a sequence of integer token ids, got {_kind(x)}") from None
        if len(x) == 0:
            return np.zeros(0, dtype=np.int64)
        for t in x:
            if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
                raise TypeError(
                    f"{what} contains a {_kind(t)} ({t!r}); token ids must be integers"
                )
        try:
            return np.array(x, dtype=np.int64)
        except OverflowError:
            raise OverflowError(f"{what}: a token id does not fit in int64") from None
    return _check_dtype(arr, what)


def _check_dtype(arr: np.ndarray, what: str) -> np.ndarray:
    kind = arr.dtype.kind
    if kind == "i":
        return arr.astype(np.int64, copy=False)
    if kind == "u":
        if arr.size and arr.max() > _INT64_MAX:
            raise OverflowError(f"{what}: a token id does not fit in int64")
        return arr.astype(np.int64)
    if kind == "O" and arr.size == 0:
        return np.zeros(arr.shape, dtype=np.int64)
    if kind == "f" and arr.size == 0:  # np.asarray([]) is float64: an empty sequence
        return np.zeros(arr.shape, dtype=np.int64)
    raise TypeError(
        f"{what} has dtype {arr.dtype}; token ids must be integers (cast with .long() / "
        ".astype(np.int64) if the values are ids)"
    )


def clean_ids(seq, pad_id: Optional[int] = None, eos_id: Optional[int] = None) -> np.ndarray:
    """One id sequence cleaned by the rules of the module docstring: int64 1-D array."""
    arr = _as_int_array(seq, "seq")
    flat, _ = _clean_flat(arr.reshape(-1), np.array([arr.size], dtype=np.int64),
                          _check_special(pad_id, "pad_id"), _check_special(eos_id, "eos_id"))
    return np.ascontiguousarray(flat, dtype=np.int64)


def _check_special(value, name: str):
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer or None, got {_kind(value)}")
    value = int(value)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise OverflowError(f"{name}={value} does not fit in int64")
    return value


def _clean_flat(flat: np.ndarray, lens: np.ndarray, pad_id, eos_id):
    """The cleaning rules applied to n sequences stored end to end, by the core (one pass in
    C; vectorised numpy in the pure-Python backend); a length of -1 (no sequence) stays -1."""
    return _backend.stats.clean_flat(flat, lens, pad_id, eos_id)


def _split(flat: np.ndarray, lens: np.ndarray) -> List[Optional[np.ndarray]]:
    """Sequences stored end to end as a list of arrays (``None`` where the length is -1)."""
    ends = np.cumsum(np.maximum(lens, 0)).tolist()
    return [None if ln < 0 else flat[e - ln:e] for ln, e in zip(lens.tolist(), ends)]


def _join(seqs: List[Optional[np.ndarray]]) -> Tuple[np.ndarray, np.ndarray]:
    """The inverse of :func:`_split`."""
    lens = np.fromiter((-1 if s is None else len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    parts = [s for s in seqs if s is not None and len(s)]
    flat = np.concatenate(parts).astype(np.int64, copy=False) if parts else np.zeros(0, dtype=np.int64)
    return np.ascontiguousarray(flat), lens


def _stream(x, what: str, pad_id, eos_id, allow_none: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """One stream, cleaned, as ``(flat, lens)``: its ids end to end (int64) and the length of
    each sequence (-1 for a ``None`` entry, where allowed)."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{what} is a {_kind(x)}; give token ids (or use the string API)")
    if _is_arraylike(x):
        arr = np.asarray(x)
        if arr.dtype.kind == "O" and arr.ndim == 1:
            x = list(arr)  # a ragged object array: a list of sequences
        else:
            if arr.ndim != 2:
                raise ValueError(
                    f"{what} is a {arr.ndim}-D array of shape {arr.shape}; a stream must be 2-D "
                    "(n segments x T positions, padded with pad_id) or a list of 1-D sequences"
                )
            arr = _check_dtype(arr, what)
            n, T = arr.shape
            flat, lens = _clean_flat(arr.reshape(-1), np.full(n, T, dtype=np.int64), pad_id, eos_id)
            return np.ascontiguousarray(flat), lens
    if not isinstance(x, Sequence):
        try:
            x = list(x)
        except TypeError:
            raise TypeError(f"{what} must be a list of token-id sequences or a 2-D array, got {_kind(x)}") from None
    # lists of lists of Python ints: packed by the core in one pass, no object per sentence
    packed = _backend.stats.pack_int_lists(x, allow_none)
    if packed is not None:
        return _clean_flat(packed[0], packed[1], pad_id, eos_id)
    out: List[Optional[np.ndarray]] = []
    for i, seq in enumerate(x):
        if seq is None:
            if allow_none:
                out.append(None)
                continue
            raise ValueError(f"{what}[{i}] is None; use an empty sequence for an empty output")
        if isinstance(seq, (int, np.integer)) and not isinstance(seq, (bool, np.bool_)):
            raise TypeError(
                f"{what}[{i}] is a single integer: a stream is a list of sequences; for one "
                f"sentence write [ids], not ids"
            )
        arr = _as_int_array(seq, f"{what}[{i}]")
        if arr.ndim != 1:
            raise ValueError(f"{what}[{i}] is a {arr.ndim}-D array of shape {arr.shape}; expected 1-D")
        out.append(arr.astype(np.int64, copy=False))
    flat, lens = _join(out)  # then cleaned in one pass, as every other form
    return _clean_flat(flat, lens, pad_id, eos_id)


def _depth(x) -> Optional[int]:
    """1 for a sequence of ints, 2 for a sequence of sequences, None if undecidable (empty)."""
    if _is_arraylike(x):
        arr = np.asarray(x)
        if arr.dtype.kind != "O":
            return arr.ndim
        x = list(arr)
    if isinstance(x, (str, bytes)):
        return 0
    if isinstance(x, (int, np.integer)):
        return 0
    if not isinstance(x, Sequence):
        return None
    for e in x:
        if e is None:
            continue
        d = _depth(e)
        if d is not None:
            return d + 1
    return None


class IdStreams:
    """Validated, cleaned id input, stored flat (one buffer per stream, no object per sentence).

    Attributes:
        hyp: ``(flat, lens)`` of the n hypotheses (int64 arrays: ids end to end, lengths).
        ref_streams: K >= 1 ``(flat, lens)`` pairs, one per reference stream; a length of -1
            means "no reference in this stream for this segment".
        n: number of segments.
        num_refs: references per segment (-1 when it varies).
    """

    def __init__(self, hypotheses, references, pad_id=None, eos_id=None):
        pad_id = _check_special(pad_id, "pad_id")
        eos_id = _check_special(eos_id, "eos_id")
        self.hyp = _stream(hypotheses, "hypotheses", pad_id, eos_id)
        n = self.n = len(self.hyp[1])
        if n == 0:
            raise ValueError("hypotheses is empty: BLEU needs at least one segment")
        streams, one = _split_reference_streams(references)
        cleaned = []
        for k, s in enumerate(streams):
            name = "references" if one else f"references[{k}]"
            c = _stream(s, name, pad_id, eos_id, allow_none=not one)
            if len(c[1]) != n:
                raise stream_length_error(f"reference stream {k} ({name})", len(c[1]), n, "rows")
            cleaned.append(c)
        self.ref_streams = cleaned
        present = np.zeros(n, dtype=np.int64)
        for _, lens in cleaned:
            present += lens >= 0
        if not present.all():
            i = int(np.flatnonzero(present == 0)[0])
            raise no_reference_error(i)
        self.num_refs = int(present[0]) if (present == present[0]).all() else -1

    @property
    def hyps(self) -> List[np.ndarray]:
        """The hypotheses as n int64 arrays."""
        return _split(*self.hyp)  # type: ignore[return-value]

    @property
    def refs(self) -> List[List[np.ndarray]]:
        """The references of each segment as n lists of int64 arrays (NLTK's layout)."""
        split = [_split(f, lens) for f, lens in self.ref_streams]
        return [[r for r in seg if r is not None] for seg in zip(*split)]


def _split_reference_streams(references) -> Tuple[list, bool]:
    """``references`` as a list of streams (see the module docstring for the rule), and whether
    it was one stream itself."""
    if isinstance(references, (str, bytes)):
        raise TypeError("references must be token ids: a stream or a list of streams, got a string")
    if not _is_arraylike(references) and not isinstance(references, Sequence):
        try:
            references = list(references)  # a generator, as hypotheses may be
        except TypeError:
            raise TypeError(f"references must be a stream or a list of streams, got {_kind(references)}") from None
    d = _depth(references)
    if d is None:
        raise ValueError(
            "cannot tell whether references is one stream or a list of streams (it is empty or "
            "all its sequences are empty); wrap one stream in a list: references=[stream]"
        )
    if d == 2:
        return [references], True
    if d == 3:
        if _is_arraylike(references) and np.asarray(references).dtype.kind != "O":
            raise ValueError(
                f"references is a 3-D array of shape {np.asarray(references).shape}; give a list "
                "of 2-D arrays (one per reference set) or one 2-D array"
            )
        streams = list(references)
        if not streams:
            raise ValueError("references is empty: give at least one reference stream")
        return streams, False
    if d == 1:
        raise TypeError(
            "references is a flat sequence of ints: give one sequence per hypothesis "
            "(a list of sequences or a 2-D array), or a list of such streams"
        )
    raise ValueError(f"references nest {d} levels deep; expected a stream (2) or a list of streams (3)")


def to_id_lists(x, pad_id: Optional[int] = None, eos_id: Optional[int] = None) -> List[np.ndarray]:
    """One stream (list of sequences or 2-D array) as cleaned int64 1-D arrays (see module doc)."""
    flat, lens = _stream(x, "sentences", _check_special(pad_id, "pad_id"), _check_special(eos_id, "eos_id"))
    return _split(flat, lens)  # type: ignore[return-value]


def stats_ids(hypotheses, references, *, pad_id: Optional[int] = None, eos_id: Optional[int] = None,
              max_ngram_order: int = MAX_NGRAM_ORDER, workers: int = 1) -> np.ndarray:
    """Per-segment BLEU sufficient statistics of token ids.

    Args:
        hypotheses: one stream of n id sequences (see the module docstring for the forms).
        references: one stream (one reference each) or a list of K streams.
        pad_id, eos_id: cleaning (module docstring); None = no cleaning.
        max_ngram_order: N >= 1.
        workers: threads of the compiled core (1 = serial, -1 = all cores); same result.

    Returns:
        int64 array of shape (n, 2 + 2N): ``[hyp_len, ref_len, matches_1..N, totals_1..N]``,
        identical to ``BLEU(tokenize='none').corpus_statistics`` on the ids written as
        space-separated strings.

    Raises:
        TypeError: non-integer ids or dtypes, strings, a flat list where a stream is expected.
        ValueError: empty input, a reference stream whose row count differs from the
            hypotheses (named), arrays of 3+ dimensions, a segment without references.
        OverflowError: an id outside int64.
    """
    order = check_order(max_ngram_order)
    with no_gc():
        data = IdStreams(hypotheses, references, pad_id, eos_id)
        return _stats_of(data, order, workers)


def _stats_of(data: IdStreams, order: int, workers: int) -> np.ndarray:
    out = _backend.stats.flat_stats(data.hyp[0], data.hyp[1], data.ref_streams, order, workers)
    return np.asarray(out, dtype=np.int64).reshape(data.n, n_columns(order))


def _bleu_object(smooth_method, smooth_value, effective_order, max_ngram_order, workers):
    from .bleu import BLEU

    check_smoothing(smooth_method)
    return BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                effective_order=effective_order, max_ngram_order=max_ngram_order, workers=workers)


def corpus_bleu_ids(hypotheses, references, *, pad_id: Optional[int] = None, eos_id: Optional[int] = None,
                    smooth_method: str = "exp", smooth_value: Optional[float] = None,
                    effective_order: bool = False, max_ngram_order: int = MAX_NGRAM_ORDER,
                    workers: int = 1) -> BLEUScore:
    """Corpus BLEU (0-100) of token ids, sacreBLEU's ``corpus_bleu`` on the id strings.

    Args: as :func:`stats_ids`, plus sacreBLEU's ``smooth_method`` (``exp`` default, ``floor``,
    ``add-k``, ``none``), ``smooth_value`` and ``effective_order`` (off, as for a corpus).

    Returns:
        ``BLEUScore`` (score 0-100, counts, totals, precisions, bp, sys_len, ref_len), equal to
        ``sacrebleu.corpus_bleu([' '.join(map(str, h)) ...], ..., tokenize='none')``.

    Raises: as :func:`stats_ids`; ``ValueError`` for an unknown smoothing method.
    """
    order = check_order(max_ngram_order)
    bleu = _bleu_object(smooth_method, smooth_value, effective_order, order, workers)
    with no_gc():
        data = IdStreams(hypotheses, references, pad_id, eos_id)
        stats = _stats_of(data, order, workers)
    bleu.num_refs = data.num_refs
    return bleu.score_from_stats(stats.sum(axis=0))
