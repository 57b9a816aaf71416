"""Pure-Python sufficient statistics: the oracle the compiled core is tested against, and the
fallback where the extension is not available.

Both backends expose the same four functions with the same signatures and outputs; the
docstrings here are the documentation of both (``backend`` copies them onto the compiled
functions).  Inputs arrive already validated by ``rapidbleu._core.validate``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..._base.errors import (
    hypothesis_length_error,
    lengths_overrun_error,
    lengths_sum_error,
    no_reference_error,
    no_reference_stream_error,
    stream_length_error,
)
from ...tokenizers import get_tokenizer
from ..validate import check_order
from .bleu_row import closest_ref_len, n_columns

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "python"


def _order_counts(tokens: Sequence[Hashable], max_order: int) -> list[Counter[Hashable]]:
    """One Counter per order 1..max_order (unigrams keyed by token, n > 1 by tuples)."""
    counts: list[Counter[Hashable]] = [Counter(tokens)]
    for n in range(2, max_order + 1):
        counts.append(Counter(zip(*[tokens[i:] for i in range(n)], strict=False)))
    return counts


def _max_ref_counts(ref_token_lists: Sequence[Sequence[Hashable]], max_order: int) -> list[Counter[Hashable]]:
    """Per order, the maximum count of each n-gram over the references (clipping counts)."""
    merged = None
    for tokens in ref_token_lists:
        counts = _order_counts(tokens, max_order)
        if merged is None:
            merged = counts
            continue
        for m, c in zip(merged, counts, strict=False):
            for gram, k in c.items():
                if k > m.get(gram, 0):
                    m[gram] = k
    return merged or [Counter() for _ in range(max_order)]


def _row(
    hyp_tokens: Sequence[Hashable], ref_token_lists: Sequence[Sequence[Hashable]], max_order: int, out: list[int]
) -> None:
    hyp_len = len(hyp_tokens)
    out[0] = hyp_len
    out[1] = closest_ref_len(hyp_len, [len(r) for r in ref_token_lists])
    ref_counts = _max_ref_counts(ref_token_lists, max_order)
    hyp_counts = _order_counts(hyp_tokens, max_order)
    for n in range(max_order):
        ref = ref_counts[n]
        get = ref.get
        out[2 + n] = sum([min(k, get(gram, 0)) for gram, k in hyp_counts[n].items()])
        out[2 + max_order + n] = max(0, hyp_len - n)


def _rows(
    segments: Iterable[tuple[Any, list[list[Any]]]], prep: Callable[[Any], list[Any]], n: int, max_order: int
) -> np.ndarray:
    """The (n, 2 + 2N) statistics of n segments, each a raw hypothesis and its prepared
    references (refused when it has none), the hypothesis prepared by ``prep`` after that check."""
    out = np.zeros((n, n_columns(max_order)), dtype=np.int64)
    for i, (hyp, refs) in enumerate(segments):
        if not refs:
            raise no_reference_error(i)
        row = [0] * n_columns(max_order)
        _row(prep(hyp), refs, max_order, row)
        out[i] = row
    return out


def string_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
    workers: int = 1,
) -> np.ndarray:
    """Per-sentence BLEU sufficient statistics of raw strings.

    Each segment goes through sacreBLEU's preprocessing: ``str.lower()`` if ``lowercase``, then
    ``str.rstrip()``, then the tokenizer, then ``str.split()``.

    Args:
        hypotheses: n hypothesis strings.
        references: reference *streams* (sacreBLEU's layout): K lists of n items each, the
            k-th item of segment i being ``references[k][i]``, a ``str`` or ``None`` (no
            reference in stream k for segment i).  Every segment needs at least one ``str``
            (``ValueError`` otherwise); a stream of another length is a ``ValueError``.
        max_ngram_order: N >= 1.
        tokenizer: a registered tokenizer name.  The compiled core runs ``none``, ``13a``,
            ``char``, ``zh`` and ``intl`` in C (``fast_path``) and any other in Python first;
            ``BLEU`` applies those itself and passes ``"none"``.
        lowercase: lowercase with Python's ``str.lower`` before tokenizing.
        workers: threads for the compiled backend (``rapidbleu._core.validate.resolve_workers``:
            1 = serial, k > 1 threads, -1 = all cores), checked by the caller; unused here.

    Returns:
        int64 array of shape (n, 2 + 2N): ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` per
        segment (see ``rapidbleu._core.bleu.bleu_row``).
    """
    max_ngram_order = check_order(max_ngram_order)
    tok = get_tokenizer(tokenizer)

    def prep(line: str) -> list[str]:
        if lowercase:
            line = line.lower()
        return tok(line.rstrip()).split()

    n = len(hypotheses)
    for k, stream in enumerate(references):
        if len(stream) != n:
            raise stream_length_error(f"reference stream {k}", len(stream), n, n_streams=len(references))
    segments = (
        (hyp, [prep(r) for r in (stream[i] for stream in references) if r is not None])
        for i, hyp in enumerate(hypotheses)
    )
    return _rows(segments, prep, n, max_ngram_order)


def string_totals(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
    workers: int = 1,
) -> list[int]:
    """Corpus BLEU sufficient statistics of raw strings: the column sums of ``string_stats``.

    Same arguments and errors as ``string_stats``.  The compiled twin never builds the
    per-segment array and does not import numpy, so a command-line corpus score starts as
    fast as the counting allows.

    Returns:
        A list of ``2 + 2N`` Python ints: ``[hyp_len, ref_len, matches_1..N, totals_1..N]``
        summed over the n segments (all zeros for n = 0).
    """
    stats = string_stats(hypotheses, references, max_ngram_order, tokenizer, lowercase, workers)
    return [int(v) for v in stats.sum(axis=0)]


def sentence_row(
    hypothesis: str,
    references: Sequence[str | None],
    max_ngram_order: int = 4,
    tokenizer: str = "13a",
    lowercase: bool = False,
) -> list[int]:
    """The statistics of one segment: ``string_stats([hypothesis], [[r] for r in
    references])[0]`` as a list of ``2 + 2N`` Python ints, for the sentence-level entries a
    Python loop calls once per segment (the compiled twin builds no array and starts no thread;
    see ``bleu_stats_one.pxi`` for its memory).

    Args:
        hypothesis: the hypothesis string.
        references: its references (any iterable of ``str`` or ``None``; ``None`` skipped).
        max_ngram_order, tokenizer, lowercase: as in ``string_stats``.

    Raises:
        ValueError: no ``str`` reference.
        TypeError: a hypothesis or reference that is not a ``str`` (the compiled twin; this one
            fails as the tokenizer does).
    """
    max_ngram_order = check_order(max_ngram_order)
    tok = get_tokenizer(tokenizer)

    def prep(line: str) -> list[str]:
        if lowercase:
            line = line.lower()
        return tok(line.rstrip()).split()

    refs = [prep(r) for r in references if r is not None]
    if not refs:
        raise no_reference_error(0)
    row = [0] * n_columns(max_ngram_order)
    _row(prep(hypothesis), refs, max_ngram_order, row)
    return row


def _tokens(seq: Sequence[Hashable] | np.ndarray) -> list[Any]:
    """A token sequence as a list (numpy arrays as Python scalars, so ids compare as ints)."""
    return seq.tolist() if isinstance(seq, np.ndarray) else list(seq)


def token_row(
    hypothesis: Sequence[Hashable],
    references: Sequence[Sequence[Hashable]],
    max_ngram_order: int = 4,
) -> list[int]:
    """The statistics of one segment of token sequences: ``token_stats([hypothesis],
    [references])[0]`` as a list of ``2 + 2N`` Python ints, for NLTK's ``sentence_bleu`` called
    once per segment (the compiled twin builds no array and starts no thread).

    Raises:
        ValueError: no references.
    """
    max_ngram_order = check_order(max_ngram_order)
    refs = [_tokens(r) for r in references]
    if not refs:
        raise no_reference_error(0)
    row = [0] * n_columns(max_ngram_order)
    _row(_tokens(hypothesis), refs, max_ngram_order, row)
    return row


def token_stats(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray:
    """Per-sentence BLEU sufficient statistics of token sequences (NLTK's layout).

    Args:
        hypotheses: n token sequences (lists, tuples or 1-D numpy arrays).  Tokens are any
            hashable values compared with ``==`` as NLTK's Counters compare them (``1 == 1.0
            == True``); the compiled core reads lists/tuples of exact ``int`` (int64) or exact
            ``str`` tokens and 1-D integer arrays directly, and maps any other segment's tokens
            to ids with a dict first.
        references: n lists of reference token sequences (at least one per segment):
            *segment-major*, unlike ``string_stats``.
        max_ngram_order: N >= 1.
        workers: as in ``string_stats``.

    Returns:
        int64 array of shape (n, 2 + 2N), the same layout as ``string_stats``; for integer ids,
        equal to ``string_stats`` on the ids written as space-separated strings with tokenizer
        ``none`` (the references transposed to streams).

    Raises:
        ValueError: ``len(references) != len(hypotheses)``; a segment without references.
    """
    n = len(hypotheses)
    if len(references) != n:
        raise stream_length_error("references", len(references), n, "segments")
    max_ngram_order = check_order(max_ngram_order)
    segments = ((hyp, [_tokens(r) for r in seg_refs]) for hyp, seg_refs in zip(hypotheses, references, strict=False))
    return _rows(segments, _tokens, n, max_ngram_order)


def flat_stats(
    hyp_flat: np.ndarray,
    hyp_lens: np.ndarray,
    ref_streams: Sequence[tuple[np.ndarray, np.ndarray]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray:
    """``token_stats`` of integer ids stored flat: one buffer per stream, no object per sentence.

    Args:
        hyp_flat: int64 array, the n hypotheses' ids end to end.
        hyp_lens: int64 array (n,), the length of each hypothesis.
        ref_streams: K >= 1 pairs ``(flat, lens)`` in the same form, one per reference stream
            (sacreBLEU's layout); a length of -1 means "no reference in this stream for this
            segment" (it takes no ids from the buffer).
        max_ngram_order: N >= 1.
        workers: as in ``string_stats``.

    Returns:
        int64 array (n, 2 + 2N), as ``token_stats``.

    Raises:
        ValueError: a stream whose length count differs from the hypotheses', lengths that do
            not add up to their buffer, no reference stream, a segment without any reference.
    """
    max_ngram_order = check_order(max_ngram_order)
    n = len(hyp_lens)
    streams = [(np.asarray(hyp_flat, dtype=np.int64), np.asarray(hyp_lens, dtype=np.int64))]
    for k, (f, lens) in enumerate(ref_streams):
        if len(lens) != n:
            raise stream_length_error(f"reference stream {k}", len(lens), n, "rows", len(ref_streams))
        streams.append((np.asarray(f, dtype=np.int64), np.asarray(lens, dtype=np.int64)))
    if len(streams) == 1:
        raise no_reference_stream_error()
    split: list[list[list[int] | None]] = []
    for k, (f, lens) in enumerate(streams):
        what = "hypotheses" if k == 0 else f"reference stream {k - 1}"
        if len(lens) and int(np.maximum(lens, 0).max()) > len(f):  # before summing: no overflow
            raise lengths_overrun_error(len(f), what)
        total = int(np.maximum(lens, 0).sum())
        if total != len(f):
            raise lengths_sum_error(total, len(f), what)
        ends = np.cumsum(np.maximum(lens, 0)).tolist()
        split.append([None if ln < 0 else f[e - ln : e].tolist() for ln, e in zip(lens.tolist(), ends, strict=False)])
    hyps: list[list[int]] = []
    refs: list[list[list[int]]] = []
    for i, hyp in enumerate(split[0]):
        if hyp is None:
            raise hypothesis_length_error(i, -1)
        hyps.append(hyp)
        seg = [r for r in (s[i] for s in split[1:]) if r is not None]
        if not seg:
            raise no_reference_error(i)
        refs.append(seg)
    return token_stats(hyps, refs, max_ngram_order, workers)
