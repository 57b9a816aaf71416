"""BLEU on token ids: for training and decoding loops, no detokenization, no string round trip.

A *stream* is one token-id sequence per segment, in any of these forms:

* a list (or tuple) of sequences of Python ints, of 1-D numpy integer arrays, or of objects
  exposing ``__array__`` (CPU tensors of torch, jax, ... without importing them);
* a 2-D integer array (or ``__array__`` object) of shape (n, T), one row per segment, padded
  with ``pad_id``.

Objects with ``detach()``, ``cpu()`` and ``device`` (torch tensors, also on a GPU) are moved
to host memory first (``x.detach().cpu()``), so ids straight from ``model.generate()`` need no
``.cpu()``; torch is never imported.

Cleaning, applied to every sequence of every stream (hypotheses and references alike), with
the special ids named as Hugging Face names them (``model.generation_config`` and the
tokenizer hold them):

* ``pad_token_id`` (alias ``pad_id``): the padding id;
* ``eos_token_id`` (alias ``eos_id``): the end-of-sequence id, or a list of several (as some
  generation configs hold);
* ``decoder_start_token_id``, ``bos_token_id``: the id(s) a generated row starts with;
* ``special_ids``: any other ids to drop (e.g. ``tokenizer.all_special_ids``, language codes).

The *special* ids are all of these; every other id is *content*.  Each sequence is

1. cut at the first eos id that comes **after a content id**: that eos and everything after
   it are dropped (what ``generate()`` writes after the end: pads, or more eos);
2. then stripped of every special id left: leading ones (the decoder-start token, which is
   the eos id for BART/mBART and the pad id for T5/Marian; a bos; left padding, also when
   pad == eos as for GPT-2) and any others.

An eos before any content therefore never cuts: ``[2, 0, 250, 251, 2, 1]`` with pad 1, eos 2
and bos 0 is ``[250, 251]``; so is ``[2, 250, 251, 2, 2]`` with pad == eos == 2 (left padding
and the decoder-start token are skipped, the eos after ``251`` ends the row).  A row with no
content is empty.  Without any special id the ids are scored as they are (a padded 2-D array
then counts its pads as tokens).  When cleaning leaves every hypothesis of a call empty
(every score 0, almost always a wrong special id) a ``RuntimeWarning`` says so.

Ids: any integer that fits in int64, negative ids included (so ``-100``, the usual "ignore"
label, works as ``pad_id``).  Unsigned arrays are accepted if their values fit.  Boolean
arrays and all-boolean sequences, floats (even integral ones), strings and objects are refused
with ``TypeError`` naming the item and its position, also inside a list of ints; so are a dict
or a set where a sequence is expected (their order would pair the wrong segments); arrays of 3
or more dimensions raise ``ValueError``.

Speed: a list of lists of Python ints is packed by the compiled core in one pass (a few ns per
id), a padded 2-D array is used as it is, other forms are converted row by row; the cleaning
is one pass of the core over each stream.  Streams
stay flat (one buffer each) all the way to the core.

References: either one stream (one reference per hypothesis, same forms as the hypotheses) or a
list of K streams (K references per hypothesis, sacreBLEU's convention: ``references[k][i]`` is
the k-th reference of segment i; in list streams a ``None`` entry means "no k-th reference for
this segment").  The two are told apart by nesting depth: a 2-D array or a list whose
elements are 1-D sequences of ints is one stream; a list whose elements are 2-D arrays or lists
of sequences is a list of streams.  An all-empty single stream is ambiguous: wrap it, ``[refs]``.
A list of lists given one per segment (``references[i]``: the references of segment i) where
they cannot be streams (as many lists as hypotheses, not all as long as the hypotheses) is read
that way, with one ``SegmentMajorReferencesWarning`` per process, as every door that takes
string streams reads it (``rapidbleu._core.inputs.segment_major_streams``).

Scores are sacreBLEU's (0-100), computed from the same statistics as ``rapidbleu.BLEU`` with
``tokenize='none'`` on the ids written as space-separated decimal strings (tested): BLEU from
Papineni, Roukos, Ward and Zhu (2002), smoothing methods from Chen and Cherry (2014).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

import numpy as np

from ._base.errors import EmptyInputError, id_element_error, kind_of, stream_length_error, warn_all_empty
from ._base.nogc import no_gc
from ._core import backend as _backend
from ._core.bleu.bleu_row import MAX_NGRAM_ORDER, n_columns
from ._core.inputs import join_flat, num_refs_of, segment_major_streams
from ._core.validate import (
    as_list,
    check_keywords,
    check_order,
    check_ordered,
    check_token_id,
    check_token_ids,
    resolve_alias,
    resolve_workers,
)
from .score import BLEUScore

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .bleu import BLEU

__all__ = [
    "IdCleaning",
    "IdKeywords",
    "IdNames",
    "IdStreams",
    "clean_ids",
    "corpus_bleu_ids",
    "id_cleaning",
    "stats_ids",
    "to_id_lists",
]

#: What a stream may be (see the module docstring): a list of id sequences, a padded 2-D
#: array, a (CPU or GPU) tensor, ...; checked at run time, ``Any`` for type checkers.
IdStream = Any
#: One stream of references, or a list of K streams.
IdReferences = Any
#: One special id, or several (``eos_token_id`` lists, ``special_ids``).
TokenIds = int | Iterable[int] | None

_INT64_MAX = 2**63 - 1


# ----------------------------------------------------------------------- the cleaning rule


class IdNames(TypedDict, total=False):
    """The special ids by Hugging Face's names (module docstring): the cleaning keywords of every
    entry point that takes token ids (``**cleaning: Unpack[IdKeywords]``), checked by
    :func:`id_cleaning`; none given is no cleaning."""

    pad_token_id: int | None
    eos_token_id: TokenIds
    decoder_start_token_id: int | None
    bos_token_id: int | None
    special_ids: TokenIds


class IdKeywords(IdNames, total=False):
    """:class:`IdNames` and the aliases ``pad_id`` (of ``pad_token_id``) and ``eos_id`` (of
    ``eos_token_id``)."""

    pad_id: int | None
    eos_id: TokenIds


class IdCleaning(NamedTuple):
    """The special ids of one call, validated (see the module docstring for the rule)."""

    pad: int | None = None
    eos: tuple[int, ...] = ()
    drop: tuple[int, ...] = ()
    described: str = ""

    @property
    def active(self) -> bool:
        return self.pad is not None or bool(self.eos) or bool(self.drop)

    def apply(self, flat: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rule applied to n sequences stored end to end, by the core (one pass in C, or
        vectorised numpy in the pure-Python backend); a length of -1 (no sequence) stays -1."""
        if not self.active:
            return flat, lens
        return _backend.ids.clean_flat(flat, lens, self.pad, self.eos or None, self.drop or None)


_NO_CLEANING = IdCleaning()


def id_cleaning(
    pad_token_id: int | None = None,
    eos_token_id: TokenIds = None,
    decoder_start_token_id: int | None = None,
    bos_token_id: int | None = None,
    special_ids: TokenIds = None,
    *,
    pad_id: int | None = None,
    eos_id: TokenIds = None,
) -> IdCleaning:
    """The cleaning of the module docstring from Hugging Face's names for the special ids
    (``pad_id``/``eos_id``: accepted aliases of ``pad_token_id``/``eos_token_id``).

    Raises:
        TypeError: an id that is not an integer, or a name given together with its alias.
        OverflowError: an id outside int64.
    """
    if (
        pad_token_id
        is eos_token_id
        is decoder_start_token_id
        is bos_token_id
        is special_ids
        is pad_id
        is eos_id
        is None
    ):
        return _NO_CLEANING  # all None: the common call, every step of a training loop
    pad = check_token_id(*resolve_alias("pad_token_id", pad_token_id, "pad_id", pad_id))
    eos = check_token_ids(*resolve_alias("eos_token_id", eos_token_id, "eos_id", eos_id))
    drop = [
        check_token_id(decoder_start_token_id, "decoder_start_token_id"),
        check_token_id(bos_token_id, "bos_token_id"),
    ]
    special = check_token_ids(special_ids, "special_ids")  # read once: it may be an iterator
    drop_ids = [d for d in drop if d is not None] + special
    parts = [
        f"{name}={value}"
        for name, value in (
            ("pad_token_id", pad),
            ("eos_token_id", eos[0] if len(eos) == 1 else eos or None),
            ("decoder_start_token_id", drop[0]),
            ("bos_token_id", drop[1]),
            ("special_ids", sorted(set(special)) or None),
        )
        if value is not None
    ]
    return IdCleaning(pad, tuple(sorted(set(eos))), tuple(sorted(set(drop_ids))), ", ".join(parts))


def cleaning_of(keywords: IdKeywords, where: str) -> IdCleaning:
    """:func:`id_cleaning` of the cleaning keywords an entry point ``where`` took as
    ``**cleaning`` (a keyword that is not one of :class:`IdKeywords` refused as Python refuses
    it).

    Raises:
        TypeError: an unknown keyword, and as :func:`id_cleaning`.
        OverflowError: as :func:`id_cleaning`.
    """
    if not keywords:
        return _NO_CLEANING  # the common call, every step of a training loop
    check_keywords(keywords, IdKeywords, where)
    return id_cleaning(**keywords)


# ----------------------------------------------------------------------- input forms


def _host(x: Any) -> Any:
    """``x`` in host memory: an object with ``detach()``, ``cpu()`` and ``device`` (a torch
    tensor, possibly on a GPU) as ``x.detach().cpu()``; anything else as it is."""
    if not isinstance(x, np.ndarray) and hasattr(x, "device") and hasattr(x, "detach") and hasattr(x, "cpu"):
        return x.detach().cpu()
    return x


def _asarray(x: Any) -> np.ndarray:
    return np.asarray(_host(x))


def is_arraylike(x: object) -> bool:
    return isinstance(x, np.ndarray) or (hasattr(x, "__array__") and not isinstance(x, (str, bytes)))


def _as_int_array(x: Any, what: str) -> np.ndarray:
    """``x`` (array, ``__array__`` object or sequence of ints) as an int64 numpy array."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{what} is a {kind_of(x)}; token ids must be integers (for text use the string API)")
    if is_arraylike(x):
        arr = _asarray(x)
    else:
        x = as_list(x, what, "a sequence of integer token ids")
        if len(x) == 0:
            return np.zeros(0, dtype=np.int64)
        for j, t in enumerate(x):
            if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
                raise id_element_error(what, j, t)
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


def clean_ids(seq: Any, pad_id: int | None = None, eos_id: TokenIds = None, **cleaning: Unpack[IdNames]) -> np.ndarray:
    """One id sequence cleaned by the rule of the module docstring: int64 1-D array.

    Raises:
        TypeError: non-integer ids or special ids; ValueError: not 1-D; OverflowError: an id
            outside int64.
    """
    check_keywords(cleaning, IdNames, "clean_ids")
    rule = id_cleaning(**cleaning, pad_id=pad_id, eos_id=eos_id)
    arr = _as_int_array(seq, "seq")
    if arr.ndim != 1:
        raise ValueError(f"seq is a {arr.ndim}-D array of shape {arr.shape}; expected 1-D")
    flat, _ = rule.apply(arr, np.array([arr.size], dtype=np.int64))
    return np.ascontiguousarray(flat, dtype=np.int64)


def _split(flat: np.ndarray, lens: np.ndarray) -> list[np.ndarray | None]:
    """Sequences stored end to end as a list of arrays (``None`` where the length is -1)."""
    ends = np.cumsum(np.maximum(lens, 0)).tolist()
    return [None if ln < 0 else flat[e - ln : e] for ln, e in zip(lens.tolist(), ends, strict=False)]


def _warn_if_all_emptied(lens_before: np.ndarray, lens_after: np.ndarray, what: str, cleaning: IdCleaning) -> None:
    """One ``RuntimeWarning`` when cleaning emptied every sequence of a stream that had ids."""
    if len(lens_after) and (lens_before > 0).any() and not (lens_after > 0).any():
        warn_all_empty(what, len(lens_after), cleaning.described)


def id_stream(
    x: IdStream, what: str, cleaning: IdCleaning, allow_none: bool = False, warn_empty: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """One stream, cleaned, as ``(flat, lens)``: its ids end to end (int64) and the length of
    each sequence (-1 for a ``None`` entry, where allowed).  ``warn_empty``: warn when the
    cleaning leaves every sequence empty (for hypotheses)."""
    flat, lens = _raw_stream(x, what, allow_none)
    out = cleaning.apply(flat, lens)
    if warn_empty and cleaning.active:
        _warn_if_all_emptied(lens, out[1], what, cleaning)
    return np.ascontiguousarray(out[0], dtype=np.int64), out[1]


def _raw_stream(x: IdStream, what: str, allow_none: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """One stream as ``(flat, lens)``, not cleaned."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{what} is a {kind_of(x)}; give token ids (or use the string API)")
    if is_arraylike(x):
        arr = _asarray(x)
        if arr.dtype.kind == "O" and arr.ndim == 1:
            x = list(arr)  # a ragged object array: a list of sequences
        else:
            if arr.ndim != 2:
                raise ValueError(
                    f"{what} is a {arr.ndim}-D array of shape {arr.shape}; a stream must be 2-D "
                    "(n segments x T positions, padded with pad_token_id) or a list of 1-D sequences"
                )
            arr = _check_dtype(arr, what)
            n, T = arr.shape
            return np.ascontiguousarray(arr.reshape(-1)), np.full(n, T, dtype=np.int64)
    x = as_list(x, what, "a list of token-id sequences or a 2-D array")
    # lists of lists of Python ints: packed by the core in one pass, no object per sentence
    packed = _backend.ids.pack_int_lists(x, allow_none)
    if packed is not None:
        return packed
    out: list[np.ndarray | None] = []
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
    return join_flat(out)


def _depth(x: Any, what: str = "references") -> int | None:
    """1 for a sequence of ids, 2 for a sequence of sequences, None if undecidable (empty, or
    only ``None``); a scalar (an int, or a float or string where an id belongs) is 0.

    Raises:
        TypeError: a dict or set inside (named by its position).
    """
    check_ordered(x, what)
    if is_arraylike(x):
        arr = _asarray(x)
        if arr.dtype.kind != "O":
            return arr.ndim
        x = list(arr)
    if x is None:
        return None
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        return 0
    if not isinstance(x, Sequence):
        return None
    for i, e in enumerate(x):
        if e is None:
            continue
        d = _depth(e, f"{what}[{i}]")
        if d is not None:
            return d + 1
    return None


def _none_inside(x: Any, what: str) -> str | None:
    """The position (``what[i][j]``) of a ``None`` inside one of the sequences of ``x``."""
    if is_arraylike(x) or not isinstance(x, Sequence):
        return None
    for i, e in enumerate(x):
        if isinstance(e, Sequence) and not isinstance(e, (str, bytes)):
            for j, t in enumerate(e):
                if t is None:
                    return f"{what}[{i}][{j}]"
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

    def __init__(
        self,
        hypotheses: IdStream,
        references: IdReferences,
        pad_id: int | None = None,
        eos_id: TokenIds = None,
        *,
        cleaning: IdCleaning | None = None,
    ) -> None:
        if cleaning is None:
            cleaning = id_cleaning(pad_id=pad_id, eos_id=eos_id)
        elif pad_id is not None or eos_id is not None:
            raise TypeError("give cleaning or pad_id/eos_id, not both")
        check_ordered(hypotheses, "hypotheses")
        check_ordered(references, "references")
        self.hyp = id_stream(hypotheses, "hypotheses", cleaning, warn_empty=True)
        n = self.n = len(self.hyp[1])
        if n == 0:
            raise ValueError("hypotheses is empty: BLEU needs at least one segment")
        streams, one = _split_reference_streams(references)
        if not one:
            streams = segment_major_streams(streams, n) or streams
        cleaned = []
        for k, s in enumerate(streams):
            name = "references" if one else f"references[{k}]"
            c = id_stream(s, name, cleaning, allow_none=not one)
            if len(c[1]) != n:
                raise stream_length_error(
                    f"reference stream {k} ({name})", len(c[1]), n, "rows", None if one else len(streams)
                )
            cleaned.append(c)
        self.ref_streams = cleaned
        present = np.zeros(n, dtype=np.int64)
        for _, lens in cleaned:
            present += lens >= 0
        self.num_refs = num_refs_of(present)

    @property
    def hyps(self) -> list[np.ndarray]:
        """The hypotheses as n int64 arrays."""
        return _split(*self.hyp)  # type: ignore[return-value]  # (no hypothesis has length -1)

    @property
    def refs(self) -> list[list[np.ndarray]]:
        """The references of each segment as n lists of int64 arrays (NLTK's layout)."""
        split = [_split(f, lens) for f, lens in self.ref_streams]
        return [[r for r in seg if r is not None] for seg in zip(*split, strict=False)]


def _split_reference_streams(references: IdReferences) -> tuple[list[Any], bool]:
    """``references`` as a list of streams (see the module docstring for the rule), and whether
    it was one stream itself."""
    if isinstance(references, (str, bytes)):
        raise TypeError("references must be token ids: a stream or a list of streams, got a string")
    check_ordered(references, "references")
    if not is_arraylike(references) and not isinstance(references, Sequence):
        try:
            references = list(references)  # a generator, as hypotheses may be
        except TypeError:
            raise TypeError(f"references must be a stream or a list of streams, got {kind_of(references)}") from None
    d = _depth(references)
    if d is None:
        where = _none_inside(references, "references")
        if where is not None:
            raise TypeError(
                f"{where} is None and no reference holds an id; token ids must be integers (None "
                "means 'no reference' only in a list of streams, and each segment needs one)"
            )
        raise ValueError(
            "cannot tell whether references is one stream or a list of streams (it is empty or "
            "all its sequences are empty); wrap one stream in a list: references=[stream]"
        )
    if d == 2:
        return [references], True
    if d == 3:
        if is_arraylike(references) and _asarray(references).dtype.kind != "O":
            raise ValueError(
                f"references is a 3-D array of shape {_asarray(references).shape}; give a list "
                "of 2-D arrays (one per reference set) or one 2-D array"
            )
        streams = list(references)
        if not streams:
            raise EmptyInputError("references is empty: give at least one reference stream")
        return streams, False
    if d == 1:
        raise TypeError(
            "references is a flat sequence of ints: give one sequence per hypothesis "
            "(a list of sequences or a 2-D array), or a list of such streams"
        )
    raise ValueError(f"references nest {d} levels deep; expected a stream (2) or a list of streams (3)")


def to_id_lists(
    x: IdStream, pad_id: int | None = None, eos_id: TokenIds = None, **cleaning: Unpack[IdNames]
) -> list[np.ndarray]:
    """One stream (list of sequences or 2-D array) as cleaned int64 1-D arrays (see module doc).

    Raises:
        TypeError: non-integer ids (named with their position), a string, a dict or set.
        ValueError: an array of 3 or more dimensions.
        OverflowError: an id outside int64.
    """
    check_keywords(cleaning, IdNames, "to_id_lists")
    rule = id_cleaning(**cleaning, pad_id=pad_id, eos_id=eos_id)
    flat, lens = id_stream(x, "sentences", rule)
    return _split(flat, lens)  # type: ignore[return-value]  # (a stream without None has no length -1)


def stats_ids(
    hypotheses: IdStream,
    references: IdReferences,
    *,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    workers: int = 1,
    **cleaning: Unpack[IdKeywords],
) -> np.ndarray:
    """Per-segment BLEU sufficient statistics of token ids.

    Args:
        hypotheses: one stream of n id sequences (see the module docstring for the forms).
        references: one stream (one reference each) or a list of K streams.
        cleaning: the special ids, :class:`IdKeywords` (``pad_token_id``, ``eos_token_id``,
            ``decoder_start_token_id``, ``bos_token_id``, ``special_ids``; the module docstring
            says how they clean); none given = no cleaning.  ``pad_id`` and ``eos_id`` are
            aliases of the first two.
        max_ngram_order: N >= 1.
        workers: threads of the compiled core (1 = serial, -1 = all cores); same result.

    Returns:
        int64 array of shape (n, 2 + 2N): ``[hyp_len, ref_len, matches_1..N, totals_1..N]``,
        identical to ``BLEU(tokenize='none').corpus_statistics`` on the cleaned ids written as
        space-separated strings.

    Warns:
        RuntimeWarning: the cleaning left every hypothesis empty.

    Raises:
        TypeError: non-integer ids or dtypes (naming the item and its position), strings, a
            flat list where a stream is expected, a dict or set, a special id given under both
            its names.
        ValueError: empty input, a reference stream whose row count differs from the
            hypotheses (named), arrays of 3+ dimensions, a segment without references.
        OverflowError: an id outside int64.
    """
    resolve_workers(workers)
    order = check_order(max_ngram_order)
    rule = cleaning_of(cleaning, "stats_ids")
    with no_gc():
        data = IdStreams(hypotheses, references, cleaning=rule)
        return stats_of_streams(data, order, workers)


def plain_id_stats(hypotheses: Any, references: Any, order: int, workers: int) -> np.ndarray | None:
    """``stats_of_streams(IdStreams(hypotheses, references), order, workers)`` without cleaning,
    for the two forms a training loop passes every step, packed without the checked path: two
    2-D int64 numpy arrays with as many rows (the hypotheses and one reference stream), or a
    list of lists of exact ``int`` and one reference stream in that form (a list of n lists,
    or a list holding one such list, as ``[[ref]]`` for one row).  ``None`` for any other form
    or anything unusual (an empty first reference, ``bool`` or numpy scalars, lengths that
    differ, ...): the caller then takes the checked path, which reads it or names the problem.

    The same ids reach the same counting kernel (``flat_stats``) as through :class:`IdStreams`,
    so the rows are the same; ``order`` and ``workers`` are checked by the caller."""
    if type(hypotheses) is np.ndarray:
        if not (
            type(references) is np.ndarray
            and hypotheses.ndim == 2
            and references.ndim == 2
            and hypotheses.dtype == np.int64
            and references.dtype == np.int64
            and 0 < hypotheses.shape[0] == references.shape[0]
        ):
            return None
        n, T = hypotheses.shape
        hyp = (hypotheses.reshape(-1), np.full(n, T, dtype=np.int64))
        ref = (references.reshape(-1), np.full(n, references.shape[1], dtype=np.int64))
    else:
        lists = _plain_lists(hypotheses, references)
        if lists is None:
            return None
        hyp, ref, _ = lists
    out = _backend.bleu_stats.flat_stats(hyp[0], hyp[1], [ref], order, workers)
    return np.asarray(out, dtype=np.int64).reshape(len(hyp[1]), n_columns(order))


def plain_id_row(hypotheses: Any, references: Any, order: int) -> list[int] | None:
    """:func:`plain_id_stats` of one row of lists (``[hyp]`` and ``[ref]`` or ``[[ref]]``) as
    the list of ``2 + 2N`` Python ints, counted by the one-segment kernel (``token_row``: no
    array, no thread runner), for a batch of one row to cost what one segment costs; ``None``
    for anything else (the ids are checked as :func:`plain_id_stats` checks them)."""
    if not (type(hypotheses) is list and type(references) is list and len(hypotheses) == len(references) == 1):
        return None
    ref = references[0]
    if type(ref) is not list or not ref:
        return None
    if type(ref[0]) is list:  # [[ref]]: one stream of one reference, in a list
        if len(ref) != 1 or not ref[0]:
            return None
        ref = ref[0]
    if _backend.ids.pack_int_lists([hypotheses[0], ref], False) is None:  # (the ids' check)
        return None
    return _backend.bleu_stats.token_row(hypotheses[0], [ref], order)


def _plain_lists(
    hypotheses: Any, references: Any
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], list[Any]] | None:
    """The packed hypotheses and reference stream of :func:`plain_id_stats`'s list form, and
    the stream itself; None for any other form."""
    if not (type(hypotheses) is list and type(references) is list and hypotheses and references):
        return None
    first = references[0]
    if type(first) is not list or not first:
        return None
    if type(first[0]) is list and len(references) == 1 and first[0]:
        references = first  # [stream]: one stream in a list
    packed_h = _backend.ids.pack_int_lists(hypotheses, False)
    packed_r = _backend.ids.pack_int_lists(references, False)
    if packed_h is None or packed_r is None or len(packed_r[1]) != len(packed_h[1]):
        return None
    return packed_h, packed_r, references


def stats_of_streams(data: IdStreams, order: int, workers: int) -> np.ndarray:
    out = _backend.bleu_stats.flat_stats(data.hyp[0], data.hyp[1], data.ref_streams, order, workers)
    return np.asarray(out, dtype=np.int64).reshape(data.n, n_columns(order))


def _bleu_object(
    smooth_method: str, smooth_value: float | None, effective_order: bool, max_ngram_order: int, workers: int
) -> BLEU:
    from .bleu import BLEU

    return BLEU(
        tokenize="none",
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_ngram_order,
        workers=workers,
    )


def corpus_bleu_ids(
    hypotheses: IdStream,
    references: IdReferences,
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    workers: int = 1,
    **cleaning: Unpack[IdKeywords],
) -> BLEUScore:
    """Corpus BLEU (0-100) of token ids, sacreBLEU's ``corpus_bleu`` on the id strings.

    Args: as :func:`stats_ids`, plus sacreBLEU's ``smooth_method`` (``exp`` default, ``floor``,
    ``add-k``, ``none``), ``smooth_value`` and ``effective_order`` (off, as for a corpus).

    Returns:
        ``BLEUScore`` (score 0-100, counts, totals, precisions, bp, sys_len, ref_len), equal to
        ``sacrebleu.corpus_bleu([' '.join(map(str, h)) ...], ..., tokenize='none')`` on the
        cleaned ids.

    Warns, Raises: as :func:`stats_ids`; ``ValueError`` for an unknown smoothing method.
    """
    resolve_workers(workers)
    order = check_order(max_ngram_order)
    rule = cleaning_of(cleaning, "corpus_bleu_ids")
    bleu = _bleu_object(smooth_method, smooth_value, effective_order, order, workers)
    with no_gc():
        data = IdStreams(hypotheses, references, cleaning=rule)
        stats = stats_of_streams(data, order, workers)
    bleu.num_refs = data.num_refs
    return bleu.score_from_stats(stats.sum(axis=0))
