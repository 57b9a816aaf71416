"""Token-id streams in pure Python: the oracle of ``ids_cy`` and the fallback where the extension
is not built.

Two utilities of ``rapidbleu.ids``, not statistics: packing Python lists of ids into one flat
buffer, and the id cleaning rule applied to a flat stream.  Both twins expose them with the
same signatures and results; the docstrings here document both (``backend`` copies them onto
the compiled functions).  A flat stream is ``(flat, lens)``: int64 ids end to end and the
length of each sequence (-1: no sequence).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..._base.errors import lengths_overrun_error, lengths_sum_error

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "python"


def pack_int_lists(seqs: object, allow_none: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """One stream of token-id lists as ``(flat, lens)``, or ``None`` when it is not that form.

    Args:
        seqs: a list or tuple whose items are lists or tuples of exact ``int`` (``bool`` and
            numpy scalars excluded) that fit in int64, or ``None`` when ``allow_none``.

    Returns:
        ``(flat, lens)``: int64 arrays, all ids end to end and the length of each sequence
        (-1 for ``None``); ``None`` for any other input (the caller's checked path then
        accepts or refuses it with a precise error).
    """
    if type(seqs) is not list and type(seqs) is not tuple:
        return None
    if not all(type(e) is list or type(e) is tuple or (allow_none and e is None) for e in seqs):
        return None
    lens = np.fromiter((-1 if e is None else len(e) for e in seqs), dtype=np.int64, count=len(seqs))
    flat_list = list(chain.from_iterable(e for e in seqs if e is not None))
    if not all(type(t) is int for t in flat_list):
        return None
    try:
        flat = np.array(flat_list, dtype=np.int64)
    except OverflowError:
        return None
    return flat, lens


def _id_set(ids: int | Sequence[int] | np.ndarray | None) -> np.ndarray:
    """``None``, one id or a sequence of ids as a sorted int64 array without repeats."""
    if ids is None:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.asarray(ids, dtype=np.int64).reshape(-1))


def clean_flat(
    flat: np.ndarray,
    lens: np.ndarray,
    pad_id: int | None = None,
    eos_id: int | Sequence[int] | np.ndarray | None = None,
    drop_ids: Sequence[int] | np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Token-id cleaning applied to n sequences stored end to end (the rule of ``rapidbleu.ids``).

    The *special* ids are ``pad_id``, the eos ids and ``drop_ids``; every other id is *content*.
    Each sequence is cut at the first eos id that comes after a content id (that eos and
    everything after it are dropped; an eos before any content, e.g. a decoder-start token or
    left padding with pad == eos, does not cut), then every special id left is dropped.  With
    no eos id nothing is cut; ``None`` (or an empty ``drop_ids``) disables a rule.

    Args:
        flat: int64 array, the ids end to end.
        lens: int64 array (n,), the length of each sequence; -1 means "no sequence" and stays
            -1 (it takes no ids from ``flat``).
        pad_id: an int within int64, or None.
        eos_id: an int within int64, a sequence of them (several eos ids), or None.
        drop_ids: a sequence of ints within int64 (also dropped wherever they are: decoder
            start, bos, other special tokens), or None.

    Returns:
        ``(flat, lens)`` cleaned (the inputs themselves when no rule is set).

    Raises:
        ValueError: lengths that do not add up to the buffer.
    """
    eos = _id_set(eos_id)
    special = np.union1d(np.union1d(_id_set(pad_id), eos), _id_set(drop_ids))
    if not special.size:
        return flat, lens
    n = len(lens)
    sizes = np.maximum(lens, 0)
    if len(sizes) and int(sizes.max()) > len(flat):  # before summing: huge lengths overflow
        raise lengths_overrun_error(len(flat))
    if int(sizes.sum()) != len(flat):
        raise lengths_sum_error(int(sizes.sum()), len(flat))
    seg = np.repeat(np.arange(n), sizes)
    keep = ~np.isin(flat, special)  # content
    if eos.size:
        pos = np.arange(len(flat))
        never = np.iinfo(np.int64).max
        content = np.flatnonzero(keep)
        first_content = np.full(n, never, dtype=np.int64)
        u, idx = np.unique(seg[content], return_index=True)  # sorted: the first per segment
        first_content[u] = content[idx]
        hits = np.flatnonzero(np.isin(flat, eos) & (pos > first_content[seg]))
        cut = np.full(n, never, dtype=np.int64)
        u, idx = np.unique(seg[hits], return_index=True)
        cut[u] = hits[idx]
        keep &= pos < cut[seg]
    new_lens = np.bincount(seg[keep], minlength=n).astype(np.int64)
    new_lens[lens < 0] = -1
    return np.ascontiguousarray(flat[keep], dtype=np.int64), new_lens
