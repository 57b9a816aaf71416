"""What the Spark and Dask integrations run on each partition: plain Python lists in, integer
statistics or float scores out (no Spark or Dask import here, so workers import little).

A partition's corpus statistics are ``(vector, num_refs, last)``: the int64 vector of
``rapidbleu.stats`` (column sums and segment count), the number of references of its
segments (``-1`` when it varies) and, NLTK style, the last segment's numbers for smoothing
methods 5-7.  The driver combines them into one ``CorpusStats`` (:func:`combine`).
"""

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .stats import CorpusStats, sacre_config

Part = tuple[Any, int, tuple[int, ...] | None]


class ScoreOptions:
    """Settings of a distributed BLEU computation (picklable, checked on the driver).

    Args:
        style: ``"sacrebleu"`` (0-100, ``rapidbleu.BLEU``) or ``"nltk"`` (0-1,
            ``rapidbleu.nltk``).
        tokenize: sacreBLEU style: a sacreBLEU tokenizer name (default ``13a``).  NLTK style:
            ``None`` (default) splits on whitespace (``str.split()``); a tokenizer name
            tokenizes with it, then splits on spaces.
        lowercase: lowercase the text first.
        smooth_method, smooth_value, effective_order: sacreBLEU's (``effective_order`` for the
            corpus score; sentence scores use effective order, as ``sacrebleu.sentence_bleu``).
        max_ngram_order: N (sacreBLEU style); NLTK style: the longest weight tuple.
        weights, smoothing_function, auto_reweigh: NLTK style, as ``rapidbleu.nltk``; the
            smoothing function is ``None``, ``"method0"``..``"method7"`` or a
            ``SmoothingFunction`` method (rapidbleu's or NLTK's).

    Raises:
        ValueError: unknown style, smoothing method or tokenizer.
        TypeError: a custom smoothing callable (it needs the tokens; not supported here).
    """

    def __init__(
        self,
        style: str = "sacrebleu",
        tokenize: str | None = None,
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = 4,
        weights=None,
        smoothing_function=None,
        auto_reweigh: bool = False,
    ):
        if style not in ("sacrebleu", "nltk"):
            raise ValueError(f"style must be 'sacrebleu' or 'nltk', got {style!r}")
        self.style = style
        self.tokenize = tokenize
        self.lowercase = bool(lowercase)
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.effective_order = bool(effective_order)
        self.max_ngram_order = int(max_ngram_order)
        self.auto_reweigh = bool(auto_reweigh)
        self.weights = weights
        self.smoothing = _smoothing_spec(smoothing_function)
        if style == "sacrebleu":
            if weights is not None or smoothing_function is not None or auto_reweigh:
                raise TypeError("weights/smoothing_function/auto_reweigh are NLTK-style options (style='nltk')")
            self.metric()  # checks smoothing and tokenizer now, on the driver
        else:
            from . import nltk as rb_nltk

            wl, _ = rb_nltk._weight_list(weights if weights is not None else (0.25,) * 4)
            self.max_ngram_order = max(1, max(len(w) for w in wl))
            if tokenize is not None:
                _tokenizer(tokenize)

    def key(self) -> tuple:
        return (
            self.style,
            self.tokenize,
            self.lowercase,
            self.smooth_method,
            self.smooth_value,
            self.effective_order,
            self.max_ngram_order,
        )

    def metric(self, sentence: bool = False):
        return _metric(self.key(), sentence)

    def smoothing_function(self) -> Callable[..., Any] | None:
        if self.smoothing is None:
            return None
        from . import nltk as rb_nltk

        method, params = self.smoothing
        return getattr(rb_nltk.SmoothingFunction(**params), f"method{method}")


def _smoothing_spec(fn) -> tuple[int, dict[str, Any]] | None:
    if fn is None:
        return None
    from . import nltk as rb_nltk

    if isinstance(fn, str):
        if fn not in rb_nltk._METHODS:
            raise ValueError(f"smoothing_function must be one of {', '.join(rb_nltk._METHODS)}, got {fn!r}")
        return int(fn[-1]), {}
    method, owner = rb_nltk._resolve_smoothing(fn)
    if method is None:
        raise TypeError(
            "a custom smoothing callable needs each pair's tokens and is not supported here; "
            "use one of SmoothingFunction's methods"
        )
    if owner is None:
        return None
    return method, {"epsilon": owner.epsilon, "alpha": owner.alpha, "k": owner.k}


@lru_cache(maxsize=8)
def _metric(key: tuple, sentence: bool):
    from .bleu import BLEU

    _style, tokenize, lowercase, smooth_method, smooth_value, effective_order, n = key
    return BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        force=True,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=True if sentence else effective_order,
        max_ngram_order=n,
    )


@lru_cache(maxsize=8)
def _tokenizer(name: str):
    from .tokenizers import get_tokenizer

    return get_tokenizer(name)


# --------------------------------------------------------------------------------------------
# Input shapes
# --------------------------------------------------------------------------------------------
def as_streams(hyps: Sequence, ref_columns: Sequence[Sequence], where: str = "") -> list[list]:
    """Reference streams (``streams[k][i]``; ``None`` = no k-th reference) from reference
    columns whose values are strings, nulls, or arrays (lists) of strings: row ``i``'s
    references are its values in column order, an array contributing all its elements.

    Raises:
        TypeError: a hypothesis that is not a string, a reference value of another type.
        ValueError: a row without any reference (named by its position in the partition).
    """
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            what = "null" if h is None else type(h).__name__
            raise TypeError(f"{where}hypothesis at row {i} of the partition is {what}, expected a string")
    cols = [list(c) for c in ref_columns]
    if all(set(map(type, c)) <= {str, type(None)} for c in cols):
        streams = cols  # the common case: one string column per reference
    else:
        rows = []
        for i in range(len(hyps)):
            row: list[str | None] = []
            for c in cols:
                v = c[i]
                if v is None or isinstance(v, str):
                    row.append(v)
                elif isinstance(v, (list, tuple, np.ndarray)):
                    row.extend(v)
                else:
                    raise TypeError(
                        f"{where}references at row {i} of the partition: a {type(v).__name__}, "
                        "expected a string, null or array of strings"
                    )
            rows.append(row)
        k = max((len(r) for r in rows), default=1)
        streams = [[r[j] if j < len(r) else None for r in rows] for j in range(max(k, 1))]
    for i in range(len(hyps)):
        if all(s[i] is None for s in streams):
            raise ValueError(f"{where}row {i} of the partition has no reference")
    return streams


def column_list(series) -> list:
    """A pandas Series as a list, missing values (``None``, ``pd.NA``, NaN) as ``None``."""
    values = series.tolist()
    if series.isna().any():
        mask = series.isna().tolist()
        values = [None if m else v for v, m in zip(values, mask, strict=False)]
    return values


def merge_parts(parts: Sequence[Part | None]) -> Part | None:
    """The ``Part`` of consecutive pieces of one partition (None if all are empty)."""
    present = [p for p in parts if p is not None]
    if not present:
        return None
    vector = np.sum([p[0] for p in present], axis=0)
    nrefs = {p[1] for p in present}
    return vector, (nrefs.pop() if len(nrefs) == 1 else -1), present[-1][2]


def _nltk_tokens(opts: ScoreOptions, texts: Sequence[str | None]) -> list[list[str] | None]:
    tok = _tokenizer(opts.tokenize) if opts.tokenize is not None else None
    out: list[list[str] | None] = []
    for t in texts:
        if t is None:
            out.append(None)
            continue
        if opts.lowercase:
            t = t.lower()
        out.append(tok(t.rstrip()).split() if tok is not None else t.split())
    return out


def _nltk_inputs(opts, hyps, streams):
    hyp_tokens = _nltk_tokens(opts, hyps)
    ref_tokens = [_nltk_tokens(opts, s) for s in streams]
    refs = [[s[i] for s in ref_tokens if s[i] is not None] for i in range(len(hyps))]
    return refs, hyp_tokens


# --------------------------------------------------------------------------------------------
# Per partition
# --------------------------------------------------------------------------------------------
def partition_stats(opts: ScoreOptions, hyps: Sequence[str], streams: list[list]) -> Part | None:
    """``(vector, num_refs, last)`` of one partition, or None when it has no rows."""
    if not len(hyps):
        return None
    if opts.style == "sacrebleu":
        st = opts.metric().corpus_statistics(list(hyps), streams)
        vector = np.concatenate([st.sum(axis=0, dtype=np.int64), [st.shape[0]]])
        return vector, _num_refs(streams), None
    from .stats import nltk_corpus_stats

    refs, hyp_tokens = _nltk_inputs(opts, hyps, streams)
    part = nltk_corpus_stats(refs, hyp_tokens, opts.max_ngram_order)
    return part.vector.copy(), 0, part._last


def _num_refs(streams: list[list]) -> int:
    """References per segment, -1 when it varies (as ``BLEU`` counts them)."""
    if not any(None in s for s in streams):
        return len(streams)
    counts = {sum(s[i] is not None for s in streams) for i in range(len(streams[0]))}
    return counts.pop() if len(counts) == 1 else -1


def combine(opts: ScoreOptions, parts: Sequence[Part | None]) -> CorpusStats:
    """One ``CorpusStats`` from the partitions' results, in partition order.

    The number of references is the partitions' common one, else ``-1`` (``nrefs:var``), as
    ``BLEU`` finds it on the whole corpus.

    Raises:
        ValueError: no rows at all.
    """
    present = [p for p in parts if p is not None]
    if not present:
        raise ValueError("no rows: the DataFrame is empty")
    vector = np.sum([np.asarray(p[0], dtype=np.int64) for p in present], axis=0)
    if opts.style == "sacrebleu":
        nrefs = {int(p[1]) for p in present}
        metric = opts.metric()
        metric.num_refs = nrefs.pop() if len(nrefs) == 1 else -1
        return CorpusStats("sacrebleu", sacre_config(metric), vector)
    return CorpusStats("nltk", {"max_ngram_order": opts.max_ngram_order}, vector, present[-1][2])


def score(opts: ScoreOptions, stats: CorpusStats):
    """The corpus score: a ``BLEUScore`` (sacreBLEU style) or NLTK's float(s)."""
    if opts.style == "sacrebleu":
        return stats.score()
    return stats.score(opts.weights, opts.smoothing_function(), opts.auto_reweigh)


def partition_sentence_scores(opts: ScoreOptions, hyps: Sequence[str], streams: list[list]) -> np.ndarray:
    """float64 sentence BLEU of every row: ``rapidbleu.batch.sentence_bleu_batch`` (sacreBLEU
    style, effective order, 0-100) or ``rapidbleu.nltk.sentence_bleu_batch`` (NLTK, 0-1)."""
    if not len(hyps):
        return np.zeros(0, dtype=np.float64)
    if opts.style == "sacrebleu":
        from .batch import sentence_bleu_batch
        from .tokenizers import DEFAULT_TOKENIZER

        tok = DEFAULT_TOKENIZER if opts.tokenize is None else opts.tokenize
        return np.asarray(
            sentence_bleu_batch(
                list(hyps),
                streams,
                smooth_method=opts.smooth_method,
                smooth_value=opts.smooth_value,
                effective_order=True,
                max_ngram_order=opts.max_ngram_order,
                tokenize=tok,
                lowercase=opts.lowercase,
            ),
            dtype=np.float64,
        )
    from . import nltk as rb_nltk

    refs, hyp_tokens = _nltk_inputs(opts, hyps, streams)
    weights = opts.weights if opts.weights is not None else (0.25,) * 4
    out = rb_nltk.sentence_bleu_batch(
        refs, hyp_tokens, weights=weights, smoothing_function=opts.smoothing_function(), auto_reweigh=opts.auto_reweigh
    )
    out = np.asarray(out, dtype=np.float64)
    if out.ndim != 1:
        raise ValueError("sentence scores take one weight tuple, not a list of them")
    return out
