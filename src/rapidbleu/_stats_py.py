"""Pure-Python sufficient statistics: the oracle the compiled core is tested against, and the
fallback where the extension is not available.

Both backends expose the same two functions with the same signatures and outputs; the
docstrings here are the documentation of both (``_backend`` copies them onto the compiled
functions).  Inputs arrive already validated by ``rapidbleu._validate``.
"""

from collections import Counter
from typing import Hashable, List, Optional, Sequence

import numpy as np

from ._stats import closest_ref_len, n_columns
from .tokenizers import get_tokenizer

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "python"


def _order_counts(tokens: Sequence[Hashable], max_order: int) -> List[Counter]:
    """One Counter per order 1..max_order (unigrams keyed by token, n > 1 by tuples)."""
    counts = [Counter(tokens)]
    for n in range(2, max_order + 1):
        counts.append(Counter(zip(*[tokens[i:] for i in range(n)])))
    return counts


def _max_ref_counts(ref_token_lists, max_order: int) -> List[Counter]:
    """Per order, the maximum count of each n-gram over the references (clipping counts)."""
    merged = None
    for tokens in ref_token_lists:
        counts = _order_counts(tokens, max_order)
        if merged is None:
            merged = counts
            continue
        for m, c in zip(merged, counts):
            for gram, k in c.items():
                if k > m.get(gram, 0):
                    m[gram] = k
    return merged or [Counter() for _ in range(max_order)]


def _row(hyp_tokens, ref_token_lists, max_order: int, out) -> None:
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


def string_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
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
        workers: threads for the compiled backend (1 = serial, -1 = all cores); the
            pure-Python backend accepts and ignores it.

    Returns:
        int64 array of shape (n, 2 + 2N): ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` per
        segment (see ``rapidbleu._stats``).
    """
    tok = get_tokenizer(tokenizer)

    def prep(line: str):
        if lowercase:
            line = line.lower()
        return tok(line.rstrip()).split()

    n = len(hypotheses)
    for k, stream in enumerate(references):
        if len(stream) != n:
            raise ValueError(f"{n} hypotheses but reference stream {k} has {len(stream)} lines")
    out = np.zeros((n, n_columns(max_ngram_order)), dtype=np.int64)
    for i, hyp in enumerate(hypotheses):
        refs = [prep(r) for r in (stream[i] for stream in references) if r is not None]
        if not refs:
            raise ValueError(f"segment {i} has no reference (every stream is None there)")
        row = [0] * n_columns(max_ngram_order)
        _row(prep(hyp), refs, max_ngram_order, row)
        out[i] = row
    return out


def token_stats(
    hypotheses: Sequence[Sequence[int]],
    references: Sequence[Sequence[Sequence[int]]],
    max_ngram_order: int = 4,
    workers: int = 1,
) -> np.ndarray:
    """Per-sentence BLEU sufficient statistics of token-id sequences.

    Args:
        hypotheses: n sequences of integer token ids (lists or 1-D int64 arrays).
        references: n lists of reference id sequences (at least one per segment): unlike
            ``string_stats``, *segment-major* (NLTK's layout).
        max_ngram_order: N >= 1.
        workers: as in ``string_stats``.

    Returns:
        int64 array of shape (n, 2 + 2N), the same layout as ``string_stats``; equal to
        ``string_stats`` on the ids written as space-separated strings with tokenizer ``none``
        (the references transposed to streams).
    """
    out = np.zeros((len(hypotheses), n_columns(max_ngram_order)), dtype=np.int64)
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        row = [0] * n_columns(max_ngram_order)
        _row(
            [int(t) for t in hyp],
            [[int(t) for t in r] for r in refs],
            max_ngram_order,
            row,
        )
        out[i] = row
    return out
