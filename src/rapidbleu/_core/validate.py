"""Argument checks shared by every entry point: one function per check, one wording per mistake.

sacreBLEU silently mis-scores some malformed inputs (``zip`` truncates streams of different
lengths, a flat list of reference strings is read character by character); here each one raises
an error that says what is wrong and where.  The exception types (those that are also
sacreBLEU's or NLTK's type included) and the messages shared beyond one check are in
``rapidbleu._base.errors``.

Each value is checked once, where it enters (``ARCHITECTURE.md``, "One validation contract"):
a check returns the value in the form the code below it takes (``resolve_workers`` the number of
threads, ``check_order`` an ``int``), and that form travels on unchecked.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
from collections.abc import Iterable, Mapping, Sequence, Set, Sized
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, TypeVar

from .._base.errors import BadSmoothValueError, EmptyInputError, NoneHypothesisError, kind_of, no_reference_error

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from .._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

#: The largest maximum n-gram order any entry point accepts.  BLEU uses 4; orders beyond a few
#: dozen measure nothing, and the statistics matrix and the n-gram tables grow with N, so a
#: larger N is refused before anything is allocated.  (Also the C scorers' fixed bound.)
MAX_ORDER_LIMIT = 64

_T = TypeVar("_T")


# --------------------------------------------------------------------------------------------
# One function per check, one wording per mistake: every entry point and both backends call
# these, so a message (and its exception type) exists once.
# --------------------------------------------------------------------------------------------
def check_order(max_ngram_order: Any) -> int:
    """The maximum n-gram order N as an ``int`` in ``1 .. MAX_ORDER_LIMIT``.

    Raises:
        TypeError: not an integer (``bool`` and floats included).
        ValueError: N < 1 or N > ``MAX_ORDER_LIMIT`` (64).
    """
    if isinstance(max_ngram_order, bool) or not _is_int(max_ngram_order):
        raise TypeError(f"max_ngram_order must be an int, got {kind_of(max_ngram_order)}")
    if max_ngram_order < 1:
        raise ValueError(f"max_ngram_order must be >= 1, got {max_ngram_order}")
    if max_ngram_order > MAX_ORDER_LIMIT:
        raise ValueError(f"max_ngram_order must be <= {MAX_ORDER_LIMIT} (BLEU uses 4), got {max_ngram_order}")
    return int(max_ngram_order)


def _is_int(x: object) -> bool:
    """A Python or numpy integer (numpy registers its integer types as ``numbers.Integral``;
    an exact ``int``, the usual case, is told without the slower ABC check)."""
    return type(x) is int or isinstance(x, numbers.Integral)


def check_flag(value: _T, name: str) -> _T:
    """An on/off option: ``True``/``False`` (numpy's too), ``None`` (off: sacreBLEU reads an
    option by its truth value) or a number equal to 0 or 1 (``1``, ``0.0``, ``numpy.int64(1)``),
    returned as given (sacreBLEU prints some options as given in a signature: ``norm:1`` for
    ``TER(normalized=1)``, none at all for ``None``).

    Raises:
        TypeError: anything else, naming the option: a string (sacreBLEU would switch the
            option on for ``"False"``), another number (``2``, ``0.5``, ``nan``), a container.
    """
    v: object = value  # (checked as any object; returned with the caller's type)
    if v is None or isinstance(v, bool):
        return value
    if isinstance(v, numbers.Real):
        if v == 0 or v == 1:
            return value
    elif "numpy" in sys.modules and isinstance(v, np.bool_):  # (a numpy bool means numpy is loaded)
        return value
    raise TypeError(f"{name} must be True or False (or None, 0, 1), got {value!r} ({kind_of(value)})")


def check_resamples(value: object, name: str) -> int:
    """A number of resamples or trials (``n_bootstrap``, ``n_samples``, ``n_ar_confidence``) as
    an ``int``; what each value means (e.g. 1 or less: no interval) is the caller's rule.

    Raises:
        TypeError: not an int, naming the argument (``bool``, strings and floats included: a
            float such as 2.5 would otherwise run 2 resamples while the signature says
            ``bs:2.5``; sacreBLEU fails on it).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r} ({kind_of(value)})")
    return int(value)


def resolve_workers(workers: Any) -> int:
    """Threads for one call, by the one rule every ``workers`` argument follows.

    * ``1``: serial, in the calling thread (the default everywhere);
    * ``k > 1``: ``k`` threads (fewer when there is less work than that);
    * ``-1``: one thread per core (``os.cpu_count()``); ``-k``: all cores but ``k - 1``
      (joblib's convention), at least one.

    Raises:
        TypeError: not an int (``None``, ``True``, ``1.0``, strings).
        ValueError: ``0`` (no thread would run).
    """
    if isinstance(workers, bool) or not _is_int(workers):
        raise TypeError(f"workers must be an int (1 = serial, k > 1 threads, -1 = all cores), got {kind_of(workers)}")
    w = int(workers)
    if w == 0:
        raise ValueError("workers must be 1 (serial), k > 1 (threads) or negative (-1 = all cores), got 0")
    return threads_of(w)


def threads_of(workers: int) -> int:
    """The threads a ``workers`` that :func:`resolve_workers` accepted stands for (its rule,
    without its checks: where threads start, ``rapidbleu._core.threads.thread_count``)."""
    return max(1, (os.cpu_count() or 1) + 1 + workers) if workers < 0 else workers


def check_flat_stream(flat: npt.ArrayLike, lens: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One flat id stream as the sets kernels take it: ``(ids, lengths)``, both contiguous int64
    1-D arrays, the lengths >= 0 and adding up to ``len(ids)``.  The lengths are always a new
    array (checked after copying): the compiled kernels take their bounds from it without the
    GIL, so the caller's array may change meanwhile.

    Raises:
        ValueError: not 1-D, a negative length, or lengths that do not tile the buffer.
    """
    toks = np.ascontiguousarray(flat, dtype=np.int64)
    lengths = np.array(lens, dtype=np.int64)
    if toks.ndim != 1 or lengths.ndim != 1:
        raise ValueError("flat and lens must be 1-D")
    # (the largest length first: a sum of lengths that each fit the buffer cannot wrap around)
    if len(lengths) and (lengths.min() < 0 or lengths.max() > len(toks) or int(lengths.sum()) != len(toks)):
        raise ValueError(f"lens must be >= 0 and add up to len(flat) = {len(toks)}")
    return toks, lengths


def as_list(x: Any, what: str, expected: str) -> list[Any]:
    """``x`` (a list, tuple or other ordered iterable of segments) as a new list: the one rule
    of every door that takes a list of sentences, token lists or ids (``expected`` says which:
    "a sequence of strings", "a list of sentences", ...).

    Raises:
        TypeError: a single ``str`` or ``bytes`` ("wrap it in a list"), a mapping or a set
            (:func:`check_ordered`), or something that cannot be iterated, each naming ``what``
            and the kind given.
    """
    if isinstance(x, (str, bytes)):
        single = "string" if isinstance(x, str) else "bytes object"
        raise TypeError(f"{what} must be {expected}, got a single {single}; wrap it in a list")
    check_ordered(x, what)
    if isinstance(x, Sequence):
        return list(x)
    try:
        return list(x)
    except TypeError:
        raise TypeError(f"{what} must be {expected}, got {kind_of(x)}") from None


def _as_list(hypotheses: Any, what: str) -> list[Any]:
    hyps = as_list(hypotheses, what, "a sequence of strings")
    if not hyps:
        raise EmptyInputError(f"{what} is empty: a score needs at least one segment")
    return hyps


def _name_bad_hypothesis(hyps: list[Any], what: str) -> None:
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            if h is None:
                raise NoneHypothesisError(f"{what}[{i}] is None (every one must be a string; use '' for an empty one)")
            raise TypeError(f"{what}[{i}] is a {kind_of(h)}, expected str")


def check_hypotheses(hypotheses: Any, what: str = "hypotheses") -> list[str]:
    """Return ``hypotheses`` as a list after checking it is a non-empty sequence of ``str``.

    Raises:
        TypeError: not a sequence, a bare string, or an element that is not a string.
        ValueError: empty, or a ``None`` element (named by its 0-based index; then a
            :class:`NoneHypothesisError`, also a ``TypeError`` as in sacreBLEU).
    """
    hyps = _as_list(hypotheses, what)
    # Fast path: one C-level pass over the types; the per-item loop runs only to name an error
    # (or for str subclasses such as numpy.str_).
    if set(map(type, hyps)) != {str}:
        _name_bad_hypothesis(hyps, what)
    return hyps


def check_hypotheses_counting(hypotheses: Any, suffix: str, what: str = "hypotheses") -> tuple[list[str], int]:
    """``check_hypotheses`` and the number of hypotheses that end with ``suffix``, in one pass:
    on a large corpus every pass over the strings is mostly cache misses, and ``str.endswith``
    rejects whatever is not a ``str`` anyway (then the per-item loop names it).

    Raises:
        the same errors, with the same messages, as ``check_hypotheses``.
    """
    hyps = _as_list(hypotheses, what)
    try:
        count = sum(map(str.endswith, hyps, repeat(suffix)))
    except TypeError:
        _name_bad_hypothesis(hyps, what)
        raise
    return hyps, count


def check_sentence_args(hypothesis: Any, references: Any) -> tuple[str, list[str | None]]:
    """Checks for ``sentence_score(hypothesis, references)``; returns the references as a list
    (a list given is returned as it is: the callers read it, never keep or change it).

    Raises:
        TypeError: ``hypothesis`` not a string, ``references`` a bare string or not a sequence.
        ValueError: no non-None reference.
        NoneHypothesisError: ``hypothesis`` is None (a ``ValueError`` and, as in sacreBLEU, a
            ``TypeError``).
    """
    if type(hypothesis) is str and type(references) is list:  # the usual call, without the checks below
        return hypothesis, references
    if hypothesis is None:
        raise NoneHypothesisError("hypothesis is None; use '' for an empty output")
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str, got {kind_of(hypothesis)}")
    if isinstance(references, (str, bytes)):
        raise TypeError("references must be a sequence of reference strings, got a single string; write [ref]")
    if not isinstance(references, Sequence):
        check_ordered(references, "references")
        raise TypeError(f"references must be a sequence of reference strings, got {kind_of(references)}")
    return hypothesis, list(references)


# --------------------------------------------------------------------------------------------
# Where sacreBLEU fails late or not at all: one function per check, one wording per mistake.
# --------------------------------------------------------------------------------------------


def check_smooth_value(smooth_value: Any) -> None:
    """``smooth_value`` must be ``None`` (the method's default) or a finite real number >= 0.

    sacreBLEU accepts anything here and returns ``nan``/``inf`` scores or fails deep inside
    (a string); an explicit error says what is wrong instead.

    Raises:
        ValueError: not a real number (strings and ``bool`` included), ``nan``, ``inf`` or
            negative.
    """
    if smooth_value is None:
        return
    if isinstance(smooth_value, bool) or not isinstance(smooth_value, numbers.Real):
        raise BadSmoothValueError(
            f"smooth_value must be a finite number >= 0 or None, got {kind_of(smooth_value)} {smooth_value!r}"
        )
    if not math.isfinite(smooth_value) or smooth_value < 0:
        raise BadSmoothValueError(f"smooth_value must be a finite number >= 0 or None, got {smooth_value!r}")


def check_ordered(x: object, what: str) -> None:
    """Reject a mapping or a set where an ordered sequence of segments is expected: its
    iteration order (a dict's keys, a set's hash order) would silently pair hypotheses with
    the wrong references.

    Raises:
        TypeError: ``x`` is a mapping (``dict``, ...) or a set.
    """
    # (lists and tuples, the usual case, without the slower ABC check)
    if type(x) is not list and type(x) is not tuple and isinstance(x, (Mapping, Set)):
        raise TypeError(f"{what} must be an ordered sequence (a list or tuple), got a {kind_of(x)}")


def check_keywords(given: Iterable[str], allowed: Any, where: str) -> None:
    """Keyword arguments taken through ``**options`` (typed by the ``TypedDict`` ``allowed``:
    ``rapidbleu.chrf.CHRFOptions``, ``rapidbleu.ids.IdKeywords``, ...) refused as Python refuses
    an unknown keyword of ``where``.

    Raises:
        TypeError: a name that is not a key of ``allowed`` (Python's own message).
    """
    keys = allowed.__required_keys__ | allowed.__optional_keys__
    for name in given:
        if name not in keys:
            raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")


def check_style(style: str) -> None:
    """The scoring convention of a batch, engine or statistics call.

    Raises:
        ValueError: ``style`` is neither ``"nltk"`` (0-1, NLTK's ``sentence_bleu``) nor
            ``"sacrebleu"`` (0-100).
    """
    if style not in ("nltk", "sacrebleu"):
        raise ValueError(f"style must be 'nltk' (0-1, NLTK's sentence_bleu) or 'sacrebleu' (0-100), got {style!r}")


def check_nltk_references(list_of_references: Iterable[Sized]) -> None:
    """Every hypothesis needs at least one reference (``rapidbleu.nltk``).

    Raises:
        NoReferencesError: an empty list of references (a ``ValueError``, and a ``KeyError``
            as NLTK raises), naming the hypothesis by its 0-based index.
    """
    lengths = list(map(len, list_of_references))
    if 0 in lengths:
        raise no_reference_error(lengths.index(0))


def check_nltk_hypotheses(hypotheses: Iterable[object], what: str = "hypotheses") -> None:
    """No hypothesis may be ``None`` (``rapidbleu.nltk``; use ``[]`` for an empty output).

    Raises:
        TypeError: a ``None`` hypothesis (as NLTK), named by its 0-based index.
    """
    nones = list(map(is_, hypotheses, repeat(None)))
    if True in nones:
        raise TypeError(
            f"{what}[{nones.index(True)}] is None (every hypothesis must be a sequence of tokens; "
            "use [] for an empty output)"
        )


# --------------------------------------------------------------------------------------------
# Token ids (rapidbleu.ids, rapidbleu.batch): the special ids and the ids themselves.
# --------------------------------------------------------------------------------------------
_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


def check_token_id(value: Any, name: str) -> int | None:
    """A special token id (``pad_token_id`` etc.): ``None`` or an integer within int64.

    Raises:
        TypeError: not an integer (``bool`` and floats included).
        OverflowError: outside int64.
    """
    if value is None:
        return None
    return _int64_id(value, name)


def _int64_id(value: Any, name: str) -> int:
    """``check_token_id`` of a value that is not ``None``."""
    if isinstance(value, (bool, np.bool_)) or not _is_int(value):
        raise TypeError(f"{name} must be an int or None, got {kind_of(value)}")
    v = int(value)
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise OverflowError(f"{name}={v} does not fit in int64")
    return v


def check_token_ids(values: Any, name: str) -> list[int]:
    """Several special token ids (``special_ids``, or an ``eos_token_id`` list as Hugging Face
    configurations of some models hold): ``None`` (none), one integer, or an iterable of them.

    Raises:
        TypeError: a string or a mapping, or an element that is not an integer (named by its
            position; sets are fine, ``special_ids`` is a set of ids).
        OverflowError: an id outside int64.
    """
    if values is None:
        return []
    if _is_int(values) and not isinstance(values, (bool, np.bool_)):
        return [_int64_id(values, name)]
    if isinstance(values, (str, bytes, Mapping)):
        raise TypeError(f"{name} must be an int or a collection of ints, got {kind_of(values)}")
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{name} must be an int or a collection of ints, got {kind_of(values)}") from None
    # A None element passes through unchecked (check_token_id's None), as it always has; the
    # annotation states the contract (integers), so mypy sees the None as the error it is.
    return [check_token_id(v, f"{name}[{j}]") for j, v in enumerate(items)]  # type: ignore[misc]


def resolve_alias(name: str, value: object, alias: str, alias_value: object) -> tuple[object, str]:
    """One special id given under its Hugging Face name (``pad_token_id``) or rapidbleu's
    older alias (``pad_id``): ``(the value given, the name it was given under)``.

    Raises:
        TypeError: both given.
    """
    if value is not None and alias_value is not None:
        raise TypeError(f"give {name} or its alias {alias}, not both")
    return (value, name) if alias_value is None else (alias_value, alias)
