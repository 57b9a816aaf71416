"""Minimum Bayes risk (MBR) decoding: expected utilities and reference-aggregated metrics.

MBR decoding picks, among hypotheses ``h_1 .. h_n`` of one source, the one with the highest
expected utility against pseudo-references ``r_1 .. r_m`` (samples of the model), weighted by
``p_j`` (uniform, given weights, or a softmax of the model's log-probabilities):
``E(h_i) = sum_j p_j u(h_i, r_j)``.

* :func:`expected_utility`: the ``(n, m)`` utility matrix ``u(h_i, r_j)`` of any rapidbleu
  metric (sentence BLEU, chrF/chrF++, TER: the sentence scores of the metric protocol, equal to
  sacreBLEU's ``sentence_score``), its weighted row means and the chosen hypothesis, on strings
  (and token ids for BLEU), computed block by block.
* :func:`aggregate_chrf` and :func:`aggregate_bleu`: *reference aggregation*, linear in
  ``n + m``: each hypothesis scored once against the weighted mean of the pseudo-references'
  n-gram counts (DeNero et al. 2009, "Fast Consensus Decoding over Translation Forests", for
  BLEU; Vamvas and Sennrich 2024, "Linear-time Minimum Bayes Risk Decoding with Reference
  Aggregation", for chrF).  The method is mbrs' ``expected_scores_reference_aggregation`` (the
  pseudo-references' n-gram counts and lengths averaged with the weights, a hypothesis's
  matches clipped against the averages, then sacreBLEU's formula on the float statistics); for
  chrF without word n-grams it is fastchrf's ``aggregate_chrf``.

Weights: ``weights`` (``m`` non-negative finite numbers, not all zero; normalised by their sum)
or ``log_probs`` (``m`` log-probabilities, finite or ``-inf``; their softmax, as mbrs'
``reference_lprobs``), never both; neither gives the plain mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import Unpack

    from ._core.metric import Metric
else:
    from ._base.lazy import numpy as np

from ._base.errors import id_element_error
from ._core import backend as _backend
from ._core.aggregate import aggregate_py as _aggregate_py
from ._core.chrf.chrf_py import CHRFOptions, is_plain_beta, split_words
from ._core.inputs import preprocess
from ._core.validate import as_list, check_keywords, resolve_workers

#: Pairs scored per block by :func:`expected_utility` (about 1 MB of scores and strings).
BLOCK_PAIRS = 1 << 16


class MBRResult(NamedTuple):
    """What :func:`expected_utility` returns.

    Attributes:
        utilities: float64 ``(n, m)``, ``u(h_i, r_j)``; None with ``keep_matrix=False``.
        expected: float64 ``(n,)``, ``sum_j p_j u(h_i, r_j)``.
        best: index of the chosen hypothesis: the first highest expected utility (lowest for a
            metric where lower is better, TER).
    """

    utilities: np.ndarray | None
    expected: np.ndarray
    best: int


# ------------------------------------------------------------------------------------------
# Input checks (each names what is wrong and where, before any work)
# ------------------------------------------------------------------------------------------
def _sequence(x: Any, what: str) -> list[Any]:
    if isinstance(x, np.ndarray):
        return list(x.tolist()) if x.dtype.kind in "UO" else list(x)
    return as_list(x, what, "a list of sentences")


def _strings(x: Any, what: str) -> list[str]:
    items = _sequence(x, what)
    for i, s in enumerate(items):
        if not isinstance(s, str):
            raise TypeError(f"{what}[{i}] is a {type(s).__name__}; expected a string")
    return items


def _pseudo_references(refs: Any, what: str = "pseudo_references") -> None:
    if len(refs) == 0:
        raise ValueError(f"{what} is empty: MBR needs at least one pseudo-reference")


def reference_weights(weights: Any, log_probs: Any, m: int) -> tuple[np.ndarray, float]:
    """``(v, divisor)`` of ``m`` pseudo-references: ``p_j = v_j / divisor``.

    Neither given: ``v_j = 1``, ``divisor = m``.  ``weights``: ``v = weights * 2**-e``, the
    power of two that puts the largest in [0.5, 1) (exact: ``v_j / divisor`` is the float of the
    unscaled weights, and weights up to float64's largest or down to its smallest subnormal
    neither overflow nor lose digits), ``divisor = math.fsum(v)``.  ``log_probs``: ``v_j =
    exp(lp_j - max lp)``, ``divisor = math.fsum(v)`` (the softmax, as mbrs' ``log_softmax`` of
    ``reference_lprobs``, computed without overflow).

    Raises:
        ValueError: both given; not ``m`` values or not 1-D; a value that is not a real number,
            a negative or non-finite weight, all weights zero, a ``nan`` or ``+inf``
            log-probability, or every log-probability ``-inf``; the first bad index named.
        TypeError: a value that is not a number.
    """
    if weights is not None and log_probs is not None:
        raise ValueError("give weights or log_probs, not both")
    if weights is None and log_probs is None:
        return np.ones(m, dtype=np.float64), float(m)
    name = "weights" if weights is not None else "log_probs"
    raw = weights if weights is not None else log_probs
    if hasattr(raw, "detach"):  # a torch tensor (mbrs' reference_lprobs)
        raw = raw.detach().cpu().numpy()
    values = raw.tolist() if isinstance(raw, np.ndarray) else list(raw)
    if np.ndim(raw) != 1 or len(values) != m:
        raise ValueError(f"{name} must hold one number per pseudo-reference ({m}), got shape {np.shape(raw)}")
    for j, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name}[{j}] is a {type(value).__name__}; expected a real number")
    arr = np.asarray(values, dtype=np.float64)
    if name == "weights":
        bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0))
        if bad.size:
            j = int(bad[0])
            raise ValueError(f"weights[{j}] is {float(arr[j])!r}: weights must be finite and >= 0")
        top = float(arr.max())
        if not top > 0:
            raise ValueError("weights are all zero: at least one pseudo-reference needs a positive weight")
        # scaled by a power of two, the largest into [0.5, 1): exact (p_j = v_j / divisor is the
        # float it was unscaled) where nothing overflowed, and no sum of 1e308s overflows, no
        # product of a subnormal weight rounds away its digits
        v = np.ldexp(arr, -math.frexp(top)[1])
        return v, math.fsum(v.tolist())
    bad = np.flatnonzero(np.isnan(arr) | (arr == np.inf))
    if bad.size:
        j = int(bad[0])
        raise ValueError(f"log_probs[{j}] is {float(arr[j])!r}: log-probabilities must be finite or -inf")
    if np.all(arr == -np.inf):
        raise ValueError("log_probs are all -inf: at least one pseudo-reference needs a probability above 0")
    with np.errstate(over="ignore"):  # -1e308 - 1e308 is -inf: a probability of 0
        v = np.exp(arr - arr.max())
    return v, math.fsum(v.tolist())


def _units(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The code points of ``texts`` one after the other (int64) and the offsets (n + 1,)."""
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=offsets[1:])
    raw = "".join(texts).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(raw, dtype=np.uint32).astype(np.int64), offsets


def _ids(seqs: list[Sequence[Any]], vocab: dict[Any, int]) -> tuple[np.ndarray, np.ndarray]:
    """Token sequences as ids through ``vocab`` (one vocabulary for hypotheses and
    references), one after the other (int64), and the offsets (n + 1,)."""
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=offsets[1:])
    flat = [vocab.setdefault(t, len(vocab)) for s in seqs for t in s]
    return np.array(flat, dtype=np.int64), offsets


def _aggregate(
    hyps: tuple[np.ndarray, np.ndarray],
    refs: tuple[np.ndarray, np.ndarray],
    v: np.ndarray,
    d: float,
    order: int,
    w: int,
) -> np.ndarray:
    out: np.ndarray = _backend.aggregate.ngram_stats(hyps[0], hyps[1], refs[0], refs[1], v, d, order, w)
    return out


# ------------------------------------------------------------------------------------------
# Reference aggregation
# ------------------------------------------------------------------------------------------
def aggregate_chrf(
    hypotheses: Sequence[str],
    pseudo_references: Sequence[str],
    *,
    weights: Any = None,
    log_probs: Any = None,
    workers: int = 1,
    **options: Unpack[CHRFOptions],
) -> np.ndarray:
    """Reference-aggregated chrF / chrF++ (0-100) of every hypothesis: float64 ``(n,)``.

    Hypothesis ``i`` is scored against the weighted mean of the pseudo-references' character
    (and, with ``word_order``, word) n-gram counts: per order, its n-grams, the mean
    reference n-gram count and the matches ``sum_g min(c_h(g), A(g))`` (``A`` the mean
    counts), then sacreBLEU's chrF formula on those float statistics (Popović 2015, 2017;
    reference aggregation: Vamvas and Sennrich 2024).  Equal (to rounding) to mbrs'
    ``MetricChrF.expected_scores_reference_aggregation`` and, for ``word_order=0``, fastchrf's
    ``aggregate_chrf`` (``remove_whitespace = not whitespace``).  The argmax is the MBR choice.
    Exact formulas: ``rapidbleu._core.aggregate.aggregate_py``.

    Args:
        hypotheses: n strings; pseudo_references: m >= 1 strings (a list, tuple or numpy
            array of strings; the same list for the usual MBR setting).
        weights, log_probs: the pseudo-references' weights (see the module docstring).
        workers: threads over hypotheses (1 serial, -1 all cores); same results.
        options: ``rapidbleu.CHRF``'s options by name (``rapidbleu.chrf.CHRFOptions``:
            ``char_order``, ``word_order``, ``beta``, ``lowercase``, ``whitespace``,
            ``eps_smoothing``; each missing one has ``CHRF``'s default; a ``beta`` that is not
            a Python int or float is used as ``float(beta)``).

    Raises:
        TypeError: a hypothesis or reference that is not a string (its index named), a bad
            option type, an unknown keyword, a weight that is not a number.
        ValueError: no pseudo-reference, bad options, bad weights (see
            :func:`reference_weights`).
    """
    from .chrf import CHRF

    check_keywords(options, CHRFOptions, "aggregate_chrf")
    metric = CHRF(**options)
    w = resolve_workers(workers)
    hyps = _strings(hypotheses, "hypotheses")
    refs = _strings(pseudo_references, "pseudo_references")
    _pseudo_references(refs)
    v, d = reference_weights(weights, log_probs, len(refs))
    if metric.lowercase:
        hyps, refs = [s.lower() for s in hyps], [s.lower() for s in refs]
    blocks = []
    if metric.char_order:
        chars = (lambda t: t) if metric.whitespace else (lambda t: "".join(t.split()))
        h, r = _units([chars(s) for s in hyps]), _units([chars(s) for s in refs])
        blocks.append(_aggregate(h, r, v, d, metric.char_order, w))
    if metric.word_order:
        vocab: dict[Any, int] = {}
        h = _ids([split_words(s) for s in hyps], vocab)
        r = _ids([split_words(s) for s in refs], vocab)
        blocks.append(_aggregate(h, r, v, d, metric.word_order, w))
    rows = np.ascontiguousarray(np.concatenate(blocks, axis=1))
    b = metric.beta if is_plain_beta(metric.beta) else float(metric.beta)
    out: np.ndarray = _backend.aggregate.chrf_row_scores(rows, b, metric.eps_smoothing, w)
    return out


def _token_seqs(sentences: Any, what: str, bleu: Any) -> list[Sequence[Any]]:
    """Strings tokenized by the BLEU's tokenizer (lowercased if asked), string-token lists
    as given, or token ids (Python or numpy integers, lists or 1-D integer arrays); one form for the whole list (an empty sequence fits any)."""
    return _token_form(sentences, what, bleu)[0]


def _token_form(
    sentences: Any, what: str, bleu: Any, form: str | None = None
) -> tuple[list[Sequence[Any]], str | None]:
    """:func:`_token_seqs` and the form of the list (``"string"``, ``"tokens"``, ``"ids"``; None
    if every item is empty), which must be ``form`` when that is given.

    Raises:
        TypeError: an item of no form, or of another form than the items before it (or than
            ``form``, the hypotheses'); ids holding a bool or a float (item and position named)."""
    items = _sequence(sentences, what)
    out: list[Sequence[Any]] = []
    given = form
    seq: list[Any]
    for i, s in enumerate(items):
        if isinstance(s, str):
            kind, seq = "string", preprocess(s, bleu.tokenizer, bleu.lowercase).split()
        elif isinstance(s, np.ndarray) and s.ndim == 1 and s.dtype.kind in "iu":
            kind, seq = "ids", s.astype(np.int64).tolist()
        elif isinstance(s, Sequence) and all(isinstance(t, str) for t in s) and len(s) > 0:
            kind, seq = "tokens", list(s)
        elif isinstance(s, Sequence) and all(_is_id(t) for t in s):
            kind, seq = "ids", [int(t) for t in s]
        elif isinstance(s, Sequence) and _is_id(s[0]):
            j = next(j for j, t in enumerate(s) if not _is_id(t))
            raise id_element_error(f"{what}[{i}]", j, s[j])
        else:
            raise TypeError(
                f"{what}[{i}] is a {type(s).__name__}; expected a string, a list of string tokens or token ids"
            )
        if kind == "string" or len(seq) > 0:  # (an empty list or array fits any form)
            if form is not None and kind != form:
                earlier = "the hypotheses are" if given is not None and form == given else "an earlier item is"
                raise TypeError(f"{what}[{i}] is {kind} but {earlier} {form}: use one form")
            form = kind
        out.append(seq)
    return out, form


def _is_id(token: object) -> bool:
    """A token id: a Python or numpy integer (``bool`` and ``numpy.bool_`` are not ids)."""
    return isinstance(token, (int, np.integer)) and not isinstance(token, (bool, np.bool_))


def _token_sets(hypotheses: Any, pseudo_references: Any, bleu: Any) -> tuple[list[Sequence[Any]], list[Sequence[Any]]]:
    """The hypotheses' and the pseudo-references' token sequences, both of one form."""
    hyps, form = _token_form(hypotheses, "hypotheses", bleu)
    refs, _ = _token_form(pseudo_references, "pseudo_references", bleu, form)
    return hyps, refs


def _bleu(options: dict[str, Any]) -> Any:
    from .bleu import BLEU

    return BLEU(**options)


def aggregate_bleu(
    hypotheses: Sequence[Any],
    pseudo_references: Sequence[Any],
    *,
    weights: Any = None,
    log_probs: Any = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_ngram_order: int = 4,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    workers: int = 1,
) -> np.ndarray:
    """Reference-aggregated sentence BLEU (0-100) of every hypothesis: float64 ``(n,)``.

    DeNero et al. (2009)'s consensus BLEU as mbrs computes it
    (``MetricBLEU.expected_scores_reference_aggregation``): the pseudo-references' n-gram
    counts and lengths averaged with the weights; a hypothesis's matches per order
    ``sum_g min(c_h(g), A(g))``, its n-gram totals and length, the mean reference length as
    ``r``; then sacreBLEU's BLEU formula (Papineni et al. 2002; smoothing as
    ``rapidbleu.BLEU``, Chen and Cherry 2014) on those float statistics.  Exact formulas:
    ``rapidbleu._core.aggregate.aggregate_py``.

    Args:
        hypotheses: n sentences: strings (tokenized by ``tokenize``, lowercased if asked),
            lists of string tokens, or token ids (lists of ints or 1-D integer arrays); one
            form for both lists.  pseudo_references: m >= 1 of the same form.
        weights, log_probs: the pseudo-references' weights (see the module docstring).
        tokenize, lowercase, max_ngram_order, smooth_method, smooth_value, effective_order:
            ``rapidbleu.BLEU``'s options (effective order on by default, as sentence BLEU).
        workers: threads over hypotheses (1 serial, -1 all cores); same results.

    Raises:
        TypeError: a sentence of another form (its index named), a bad option type, a weight
            that is not a number.
        ValueError: no pseudo-reference, bad options (unknown tokenizer or smoothing, order
            out of range), bad weights (see :func:`reference_weights`).
    """
    bleu = _bleu(
        {
            "tokenize": tokenize,
            "lowercase": lowercase,
            "max_ngram_order": max_ngram_order,
            "smooth_method": smooth_method,
            "smooth_value": smooth_value,
            "effective_order": effective_order,
        }
    )
    w = resolve_workers(workers)
    hyps, refs = _token_sets(hypotheses, pseudo_references, bleu)
    _pseudo_references(refs)
    v, d = reference_weights(weights, log_probs, len(refs))
    vocab: dict[Any, int] = {}
    order = bleu.max_ngram_order
    rows = _aggregate(_ids(hyps, vocab), _ids(refs, vocab), v, d, order, w)
    return _aggregate_py.bleu_row_scores(rows, bleu.smooth_method, bleu.smooth_value, bleu.effective_order)


# ------------------------------------------------------------------------------------------
# Expected utilities
# ------------------------------------------------------------------------------------------
def _metric_of(metric: Any) -> Metric:
    from ._core.metric import check_metric

    if metric is None:
        from .chrf import CHRF

        return CHRF()
    return check_metric(metric).sentence_metric()


def _pairwise_self(metric: Any, sents: list[Any]) -> np.ndarray:
    """The ``(n, n)`` matrix of a set against itself: the protocol's ``pairwise_scores``
    (BLEU's and chrF's pairwise kernels, blocks of sentence scores otherwise), or BLEU's
    ``pairwise_id_scores`` for token sequences (the caller checked the metric is BLEU)."""
    if all(isinstance(s, str) for s in sents):
        out: np.ndarray = metric.pairwise_scores(sents)
        return out
    flat, offsets = _ids(_token_seqs(sents, "hypotheses", metric), {})
    scores: np.ndarray = metric.pairwise_id_scores(flat, np.diff(offsets))
    return scores


def _cross(metric: Any, hyps: list[Any], refs: list[Any], text: bool) -> np.ndarray:
    """The ``(len(hyps), len(refs))`` utilities of hypotheses against other pseudo-references:
    the protocol's ``cross_scores`` (BLEU's kernel; blocks of sentence scores otherwise), or
    for token sequences BLEU's ``pairwise_id_scores`` of the hypotheses against the
    pseudo-references (only those pairs)."""
    if text:
        out: np.ndarray = metric.cross_scores(hyps, refs)
        return out
    hyp_seqs, ref_seqs = _token_sets(hyps, refs, metric)
    flat, offsets = _ids(hyp_seqs + ref_seqs, {})
    scores: np.ndarray = metric.pairwise_id_scores(flat, np.diff(offsets), hypotheses=len(hyps))
    return scores


def expected_utility(
    hypotheses: Sequence[Any],
    pseudo_references: Sequence[Any] | None = None,
    *,
    metric: Any = None,
    weights: Any = None,
    log_probs: Any = None,
    keep_matrix: bool = True,
    block_pairs: int = BLOCK_PAIRS,
) -> MBRResult:
    """MBR's expected utilities in one call: the utility matrix, its weighted row means, the
    choice.

    ``utilities[i, j] = metric.sentence_score(hypotheses[i], [pseudo_references[j]]).score``
    (the metric's sentence configuration: BLEU with effective order, as
    ``sacrebleu.sentence_bleu``), ``expected[i] = sum_j p_j utilities[i, j]`` with ``p`` the
    weights (the module docstring), ``best`` its first argmax (argmin for TER, where lower is
    better).  For one set against itself (``pseudo_references`` None or the very same list),
    the metric's ``pairwise_scores`` (the pairwise kernels of BLEU, chrF and TER); otherwise
    blocks of about ``block_pairs`` pairs (whole rows) through its ``cross_scores`` (BLEU's
    kernel, which counts only the pairs of hypotheses with pseudo-references, on token ids
    too; blocks of sentence scores otherwise).  Threads: the metric's own ``workers``.

    Args:
        hypotheses: n >= 1 sentences: strings; token ids or string-token lists for BLEU.
        pseudo_references: m >= 1 sentences of the same form, or None for the hypotheses
            themselves.
        metric: a rapidbleu metric object (``rapidbleu.BLEU(...)``, ``CHRF(...)``,
            ``TER(...)``, any metric of the protocol); default ``CHRF()``.
        weights, log_probs: the pseudo-references' weights (module docstring).
        keep_matrix: return the ``(n, m)`` matrix (8 n m bytes); False keeps only the
            expected utilities (memory: one block).
        block_pairs: pairs per block (>= 1) of hypotheses against other pseudo-references.

    Returns:
        :class:`MBRResult` ``(utilities, expected, best)``: float64 ``(n, m)`` or None, float64
        ``(n,)``, int.

    Raises:
        TypeError: a metric that is not a rapidbleu metric, a sentence of the wrong type (its
            index named), a weight that is not a number.
        ValueError: no hypothesis or no pseudo-reference, bad weights, ``block_pairs`` < 1.
    """
    m_obj = _metric_of(metric)
    if type(block_pairs) is not int or block_pairs < 1:
        raise ValueError(f"block_pairs must be an int >= 1, got {block_pairs!r}")
    same = pseudo_references is None or pseudo_references is hypotheses
    hyps = _sequence(hypotheses, "hypotheses")
    if not hyps:
        raise ValueError("hypotheses is empty: MBR needs at least one hypothesis")
    refs = hyps if same else _sequence(pseudo_references, "pseudo_references")
    _pseudo_references(refs)
    n, m = len(hyps), len(refs)
    v, d = reference_weights(weights, log_probs, m)
    text = all(isinstance(s, str) for s in hyps) and all(isinstance(s, str) for s in refs)
    if not text:
        from .bleu import BLEU

        if type(m_obj) is not BLEU:
            bad = next(i for i, s in enumerate(hyps + refs) if not isinstance(s, str))
            where = f"hypotheses[{bad}]" if bad < n else f"pseudo_references[{bad - n}]"
            item = (hyps + refs)[bad]
            why = (
                "only BLEU scores token sequences" if isinstance(item, (Sequence, np.ndarray)) else "expected a string"
            )
            raise TypeError(f"{where} is a {type(item).__name__}; {why}")
    if same:
        matrix = _pairwise_self(m_obj, hyps)
        expected = matrix @ v / d
        return MBRResult(matrix if keep_matrix else None, expected, _choose(m_obj, expected))
    out = np.empty((n, m), dtype=np.float64) if keep_matrix else None
    expected = np.empty(n, dtype=np.float64)
    rows = max(1, block_pairs // m)
    for start in range(0, n, rows):
        block = hyps[start : start + rows]
        scores = _cross(m_obj, block, refs, text).astype(np.float64, copy=False)
        if out is not None:
            out[start : start + len(block)] = scores
        expected[start : start + len(block)] = scores @ v / d
    return MBRResult(out, expected, _choose(m_obj, expected))


def _choose(metric: Any, expected: np.ndarray) -> int:
    return int(np.argmax(expected) if metric.higher_is_better else np.argmin(expected))


__all__ = ["MBRResult", "aggregate_bleu", "aggregate_chrf", "expected_utility", "reference_weights"]
