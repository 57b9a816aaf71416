"""BLEU of a batch: :func:`sentence_bleu_batch` (every segment's sentence BLEU),
:func:`self_bleu` and :func:`pairwise_bleu` (the MBR utility matrix), on strings, string-token
lists or token ids (``rapidbleu.batch.forms``).

Two families of scores, never mixed:

* **sacreBLEU-style** (0-100): ``rapidbleu.BLEU`` / ``sacrebleu.sentence_bleu`` -- smoothing
  ``exp`` (default), ``floor``, ``add-k``, ``none`` (Chen and Cherry 2014, methods 1-3 and
  mteval's NIST smoothing), effective order on for sentences, uniform weights;
* **NLTK-style** (0-1): ``nltk.translate.bleu_score.sentence_bleu`` -- per-order ``weights``
  and a ``smoothing_function`` (NLTK's ``SmoothingFunction().methodK`` or rapidbleu.nltk's,
  K = 0..7).  Scored by ``rapidbleu.nltk.sentence_bleu_from_stats`` from the statistics
  computed here (5 orders at least for methods 5 and 7), the same floats as NLTK; a custom
  smoothing callable needs tokens, so ``self_bleu``/``pairwise_bleu`` refuse it (``TypeError``)
  and ``sentence_bleu_batch`` hands it the tokens.

Strings are tokenized like sacreBLEU in sacreBLEU style (``tokenize``, default ``13a``, and
``lowercase``) and split on whitespace in NLTK style (``str.split()``, as the rewards and the
Spark/Dask/Ray engines split them), unless ``tokenize`` names a tokenizer.

BLEU: Papineni, Roukos, Ward and Zhu (2002).  Self-BLEU: Zhu et al. (2018), "Texygen: A
Benchmarking Platform for Text Generation Models", SIGIR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.nogc import without_gc
from .._core import backend as _backend
from .._core.bleu.bleu_row import MAX_NGRAM_ORDER
from .._core.nltk.nltk_batch import sentence_bleu_rows
from .._core.nltk.nltk_scores import rows_named
from .._core.nltk.nltk_smoothing import SmoothingFunction
from .._core.nltk.nltk_style import method_number, resolve_smoothing
from .._core.nltk.nltk_style import weights_of as _nltk_weights
from .._core.validate import check_order, check_ordered, check_style, resolve_workers
from ..bleu import BLEU
from ..ids import IdKeywords, IdReferences, IdStream, cleaning_of, plain_id_row, plain_id_stats, stats_of_streams
from ..nltk_bleu import NLTKBLEU, keep_nltk_metric, kept_nltk_metric, nltk_options_key
from .forms import first_item, id_data, reference_streams, sentences_flat, text_arrays
from .protocol import pairwise_matrix

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: NLTK-style per-order weights: one tuple ``(w_1, ..., w_N)`` (or ``None``: uniform).
Weights = Sequence[float] | None


def _sacre_scores(stats: np.ndarray, bleu: BLEU) -> np.ndarray:
    """sacreBLEU's sentence BLEU of statistics rows the package computed (valid by
    construction), with the options ``bleu`` checked."""
    return _backend.bleu_scores.sacre_scores(
        stats,
        bleu.max_ngram_order,
        bleu.smooth_method,
        bleu.smooth_value,
        bool(bleu.effective_order),
        None,
        bleu.workers,
    )


def _sacre_metric(
    order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    workers: int,
    tokenize: str | None = "none",
    lowercase: bool = False,
) -> BLEU:
    """sacreBLEU's BLEU of the scoring options (``force``: ids and pre-tokenized text are
    expected here); ``tokenize="none"``: the tokens or ids as they are."""
    return BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        force=True,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=order,
        workers=workers,
    )


# ----------------------------------------------------------------------- NLTK-style scoring


def _nltk_metric(order: int, weights: Any, smoothing_function: Any, auto_reweigh: bool, workers: int) -> NLTKBLEU:
    """The NLTK-style metric that scores statistics of ``order`` orders (at least 5 for
    smoothing methods 5 and 7, which read each sentence's 5-gram precision whatever the
    weights: ``NLTKBLEU.max_ngram_order``)."""
    return NLTKBLEU(weights, smoothing_function, auto_reweigh, max_ngram_order=order, workers=workers)


def _style_tokenize(tokenize: str | None, style: str) -> str | None:
    """The tokenizer of strings: ``tokenize`` when given, else ``13a`` in sacreBLEU style and
    None (``str.split()``) in NLTK style."""
    return "13a" if tokenize is None and style == "sacrebleu" else tokenize


@without_gc
def sentence_bleu_batch(
    hypotheses: IdStream,
    references: IdReferences,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    max_ngram_order: int = MAX_NGRAM_ORDER,
    workers: int = 1,
    *,
    tokenize: str | None = None,
    lowercase: bool = False,
    weights: Weights = None,
    smoothing_function: Callable[..., Any] | None = None,
    auto_reweigh: bool = False,
    reference_layout: str | None = None,
    **cleaning: Unpack[IdKeywords],
) -> np.ndarray:
    """Sentence BLEU of every segment in one call: float64 array of shape (n,).

    sacreBLEU-style (default): ``out[i] == sacrebleu.sentence_bleu(hyp_i, refs_i, smooth_method,
    smooth_value, use_effective_order=effective_order).score`` (0-100) for strings (tokenized with
    ``tokenize``, default ``13a``, and ``lowercase``), and the same on ids written as
    space-separated strings with ``tokenize='none'``.  The float is identical, not just close
    (tested).

    NLTK-style, when ``weights`` or ``smoothing_function`` is given: ``out[i] ==
    nltk.translate.bleu_score.sentence_bleu(refs_i, hyp_i, weights, smoothing_function)``
    (0-1, every ``SmoothingFunction`` method and custom callables); computed by
    ``rapidbleu.nltk.sentence_bleu_batch`` on the token ids.  Strings are split on whitespace
    (``str.split()``, lowercased first with ``lowercase``), as NLTK users split them and as the
    rewards and the Spark/Dask/Ray engines do; ``tokenize=`` names a sacreBLEU tokenizer to
    run first.

    Args:
        hypotheses: n strings, n token lists, or n id sequences / a padded (n, T) array.
        references: one stream (one reference per hypothesis, same forms) or a list of K
            streams (``references[k][i]``; ``None`` = no k-th reference for segment i);
            with ``reference_layout="per_hypothesis"``, NLTK's layout instead: n lists, the
            references of each hypothesis (``references[i][k]``).
        reference_layout: ``"streams"`` (sacreBLEU's, above) or ``"per_hypothesis"``
            (NLTK's); ``None`` (default) reads streams, but refuses, NLTK-style, references
            that both layouts would read (n lists of n references each, n >= 2: as many
            hypotheses as references per hypothesis), where a guess could score against the
            wrong references.
        smooth_method, smooth_value, effective_order: sacreBLEU's (not NLTK style).
        max_ngram_order: N; NLTK style, BLEU-N (uniform weights over N orders, or N weights).
        workers: threads of the compiled core (1 serial, -1 all cores); same results.
        cleaning: the special ids of token-id input, ``rapidbleu.ids.IdKeywords``
            (``pad_token_id``, ``eos_token_id``, ``decoder_start_token_id``, ``bos_token_id``,
            ``special_ids``; ``pad_id``, ``eos_id``: aliases), cleaned as ``rapidbleu.ids``
            says.
        tokenize, lowercase: for string input (``tokenize``: a sacreBLEU tokenizer's name;
            None, the default: ``13a`` in sacreBLEU style, ``str.split()`` in NLTK style).
        weights, smoothing_function, auto_reweigh: NLTK-style scoring (``smoothing_function``
            a ``SmoothingFunction`` method, a method's name ``"method0"``..``"method7"``, or a
            callable).

    A training loop's call costs little beyond the counting: NLTK style with a
    ``SmoothingFunction`` method, options seen in an earlier call (the metric built for them is
    kept, 64 option sets at most; the smoother's ``epsilon`` and ``k`` are read at each call),
    a padded int64 ``(n, T)`` array or lists of int lists with one reference stream and no
    cleaning are packed without the checked path and scored by the float kernel alone; a batch
    of one row costs what one segment of ``rapidbleu.nltk.sentence_bleu`` costs.  Same floats,
    warnings and errors as any other call.

    Warns:
        RuntimeWarning: id cleaning left every hypothesis empty (every score 0).

    Raises:
        ValueError: unknown smoothing, mismatched stream lengths (named), bad shapes, an
            unknown ``reference_layout``, references both layouts would read (NLTK-style,
            without ``reference_layout``).
        TypeError: mixed or non-integer input, a dict or set instead of a sequence, options of
            the other style (``smooth_method``, ``smooth_value``, ``effective_order`` with
            NLTK style; ``auto_reweigh`` without), weights that are a string or a mapping.
        SmoothingError: NLTK method 6 on a sentence without a trigram match (as NLTK),
            naming it (``hypothesis i``).
    """
    # A training step's call (NLTK style, options seen before, a padded int64 array or lists of
    # int lists, one reference stream, no cleaning): the metric an earlier call built (its
    # options checked then, workers among them) and the rows packed without the checked path.
    plain = (
        not cleaning
        and tokenize is None
        and lowercase is False
        and reference_layout is None
        and smooth_method == "exp"
        and smooth_value is None
        and effective_order is True
    )
    key = nltk_options_key(weights, smoothing_function, auto_reweigh, max_ngram_order, workers) if plain else None
    if key is not None:
        key = ("sentence_bleu_batch", *key)
        cached = kept_nltk_metric(key)
        if cached is not None:
            floats = cached.float_scoring()
            if floats and type(hypotheses) is list and len(hypotheses) == 1:
                row = plain_id_row(hypotheses, references, cached.max_ngram_order)
                if row is not None:  # one row: what one segment costs (rapidbleu.nltk.sentence_bleu)
                    resolve_workers(workers)
                    return np.array([cached.kernel_row_score(row)], dtype=np.float64)
            stats = plain_id_stats(hypotheses, references, cached.max_ngram_order, workers)
            if stats is not None:
                resolve_workers(workers)  # (the call's one check; the same value built the metric)
                if floats:
                    return cached.kernel_rows_scores(stats)
                with rows_named(lambda i: f"hypothesis {i}"):
                    return cached.scores_of_kernel_rows(stats)
    order = check_order(max_ngram_order)
    rule = cleaning_of(cleaning, "sentence_bleu_batch")
    nltk_style = weights is not None or smoothing_function is not None
    tokenize = _style_tokenize(tokenize, "nltk" if nltk_style else "sacrebleu")
    # the metric first: its constructor checks workers and the scoring options, before any work
    metric: BLEU | NLTKBLEU | None
    if not nltk_style:
        if auto_reweigh:
            raise TypeError("auto_reweigh is an NLTK-style option (with weights= or smoothing_function=)")
        metric = _sacre_metric(order, smooth_method, smooth_value, effective_order, workers, tokenize, lowercase)
    else:
        if smooth_method != "exp" or smooth_value is not None or effective_order is not True:
            raise TypeError(
                "smooth_method/smooth_value/effective_order are sacreBLEU-style options; NLTK style "
                "(weights=, smoothing_function=) smooths with smoothing_function"
            )
        if isinstance(smoothing_function, str):  # a method's name, as the engines and rewards take it
            smoothing_function = getattr(SmoothingFunction(), f"method{method_number(smoothing_function)}")
        elif smoothing_function is not None and not callable(smoothing_function):
            raise TypeError(f"smoothing_function must be callable or a method's name, got {smoothing_function!r}")
        # BLEU-k for max_ngram_order=k: uniform weights over k orders, or k weights
        w = _nltk_weights(weights, order if weights is None or order != MAX_NGRAM_ORDER else None)
        method, _ = resolve_smoothing(smoothing_function)
        if method is None:  # a custom smoothing callable reads each pair's tokens: no metric
            resolve_workers(workers)
            metric = None
        else:
            metric = _nltk_metric(len(w), w, smoothing_function, auto_reweigh, workers)
            if key is not None:
                keep_nltk_metric(key, metric)
    check_ordered(hypotheses, "hypotheses")
    check_ordered(references, "references")
    hypotheses, references = text_arrays(hypotheses), text_arrays(references)
    if reference_layout is not None or nltk_style:
        hypotheses, references = reference_streams(hypotheses, references, reference_layout)
    strings = isinstance(hypotheses, (list, tuple)) and len(hypotheses) > 0 and isinstance(first_item(hypotheses), str)
    if isinstance(metric, BLEU) and strings:
        streams = references
        if isinstance(first_item(references), str):
            streams = [references]  # one stream of strings
        return metric.sentence_scores(hypotheses, streams)

    data = id_data(hypotheses, references, tokenize, lowercase, rule)
    if isinstance(metric, BLEU):
        return _sacre_scores(stats_of_streams(data, order, workers), metric)
    if metric is None:
        return np.asarray(
            sentence_bleu_rows(
                [[r.tolist() for r in refs] for refs in data.refs],
                [h.tolist() for h in data.hyps],
                w,
                smoothing_function,
                auto_reweigh,
                workers,
            ),
            dtype=np.float64,
        )
    with rows_named(lambda i: f"hypothesis {i}"):
        return metric.scores_of_kernel_rows(stats_of_streams(data, metric.max_ngram_order, workers))


@without_gc
def self_bleu(
    sentences: IdStream,
    *,
    style: str = "nltk",
    max_ngram_order: int | None = None,
    weights: Weights = None,
    smoothing_function: Callable[..., Any] | None = None,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    tokenize: str | None = None,
    lowercase: bool = False,
    workers: int = 1,
    **cleaning: Unpack[IdKeywords],
) -> np.ndarray:
    """Self-BLEU of each sentence: BLEU of sentence i against all the other sentences.

    Definition (Zhu et al. 2018, Texygen; fast-bleu's ``SelfBLEU``): ``out[i] =
    sentence_bleu(references=[s_j for j != i], hypothesis=s_i)``; a corpus's Self-BLEU is
    ``out.mean()`` (higher = less diverse).  Texygen calls NLTK's ``sentence_bleu`` with uniform
    weights ``(1/N,) * N`` (N = 3 by default in Texygen, 4 in fast-bleu) and
    ``SmoothingFunction().method1`` (epsilon 0.1 for zero-match orders); fast-bleu does the
    same in C++ (method1 by default, method0 optional; its weights are float32, so its floats
    differ from NLTK's in the last bits).  Texygen's own scripts subsample (500 sentences) and
    its non-parallel variant keeps sentence i among its references; neither is done here.

    Computed without the O(n^2) scan: per n-gram the two largest counts over the set and the
    sentence holding the largest (``rapidbleu._core.bleu.bleu_sets_py`` explains), equal to the naive loop.

    Strings are split on whitespace in NLTK style (``str.split()``, as Texygen and fast-bleu
    split text, and as every NLTK-style entry point does) and tokenized with ``13a`` in
    sacreBLEU style, unless ``tokenize`` names a sacreBLEU tokenizer.

    Args:
        sentences: n >= 2 sentences (strings, string-token lists, or ids as in ``rapidbleu.ids``).
        style: ``"nltk"`` (default; 0-1, NLTK's ``sentence_bleu``, as Texygen/fast-bleu) or
            ``"sacrebleu"`` (0-100; ``smooth_method``/``smooth_value``/``effective_order`` as
            ``sacrebleu.sentence_bleu``).
        max_ngram_order: N (default: len(weights), else 4).
        weights: NLTK-style per-order weights (default uniform over N).
        smoothing_function: NLTK-style, ``SmoothingFunction().methodK`` (rapidbleu.nltk's or
            NLTK's, K = 0..7; default ``method1``, epsilon 0.1).  Methods 5 and 7 make the
            statistics 5 orders deep whatever N (they read the 5-gram precision).
        tokenize, lowercase: for string input (``tokenize``: a sacreBLEU tokenizer's name;
            None, the default: ``str.split()`` in NLTK style, ``13a`` in sacreBLEU style).
        workers: threads (1 serial, -1 all cores); same results.
        cleaning: the special ids of token-id input (``rapidbleu.ids.IdKeywords``).

    Returns:
        float64 array (n,): 0-1 (NLTK style) or 0-100 (sacreBLEU style).

    Raises:
        ValueError: fewer than 2 sentences, bad style/order/weights.
        TypeError: a smoothing callable other than the ``SmoothingFunction`` methods (it would
            need the tokens; loop over ``rapidbleu.nltk.sentence_bleu`` instead).
        rapidbleu.nltk.SmoothingError: method 6 and a sentence with unigram but no trigram
            match against the others (NLTK's assertion).
    """
    metric = _set_metric(
        style, max_ngram_order, weights, smoothing_function, smooth_method, smooth_value, effective_order, workers
    )
    tokenize = _style_tokenize(tokenize, style)
    flat, lens = sentences_flat(sentences, "sentences", tokenize, lowercase, cleaning_of(cleaning, "self_bleu"))
    if len(lens) < 2:
        raise ValueError(f"self-BLEU needs at least 2 sentences (each is scored against the others), got {len(lens)}")
    with rows_named(lambda i: f"sentence {i}"):
        return metric.scores_of_kernel_rows(_backend.bleu_sets.self_stats(flat, lens, metric.max_ngram_order, workers))


def _set_metric(
    style: str,
    max_ngram_order: int | None,
    weights: Weights,
    smoothing_function: Callable[..., Any] | None,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    workers: int,
) -> BLEU | NLTKBLEU:
    """The metric :func:`self_bleu` and :func:`pairwise_bleu` score a set of token ids with:
    sacreBLEU's BLEU (the ids as tokens) or NLTK style (``method1`` unless another smoothing is
    given, as Texygen), built before any work: ``style`` checked, then the order
    (``max_ngram_order``, else ``len(weights)`` in NLTK style, else 4), then, by the metric's
    constructor, ``workers`` and the scoring options."""
    check_style(style)
    order = _resolve_order(max_ngram_order, weights, style)
    if style == "sacrebleu":
        return _sacre_metric(order, smooth_method, smooth_value, effective_order, workers)
    if smoothing_function is None:
        smoothing_function = SmoothingFunction().method1
    return _nltk_metric(order, _nltk_weights(weights, order), smoothing_function, False, workers)


def _resolve_order(max_ngram_order: int | None, weights: Weights, style: str) -> int:
    if max_ngram_order is None:
        if weights is not None and style == "nltk":
            return check_order(len(_nltk_weights(weights, None)))  # (a message naming weights)
        max_ngram_order = MAX_NGRAM_ORDER
    return check_order(max_ngram_order)


@without_gc
def pairwise_bleu(
    candidates: IdStream,
    *,
    style: str = "sacrebleu",
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    max_ngram_order: int | None = None,
    weights: Weights = None,
    smoothing_function: Callable[..., Any] | None = None,
    diagonal: float | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
    workers: int = 1,
    **cleaning: Unpack[IdKeywords],
) -> np.ndarray:
    """Pairwise sentence-BLEU matrix (the MBR utility matrix): float64 array (n, n).

    ``out[i, j]`` = sentence BLEU of candidate i (hypothesis) against candidate j (its single
    reference); not symmetric (the brevity penalty and the precisions are the hypothesis's).
    sacreBLEU-style by default (0-100, ``sacrebleu.sentence_bleu(c_i, [c_j]).score``), or
    NLTK-style with ``style="nltk"`` (0-1, ``nltk.translate.bleu_score.sentence_bleu([c_j],
    c_i, weights, smoothing_function)``; ``weights`` default uniform, ``smoothing_function``
    default method1, any ``SmoothingFunction`` method 0-7, as in :func:`self_bleu`).  MBR picks
    ``argmax_i out[i].mean()`` (or a weighted sum).

    Diagonal: by default computed like any other pair, i.e. a candidate against itself
    (100.00000000000004 in sacreBLEU style for a non-empty candidate, sacreBLEU's float; 0 for
    an empty one); pass ``diagonal=x`` to overwrite it (e.g. ``0.0`` or ``np.nan`` to leave the
    self-pair out of an MBR mean).

    Memory: the ``(n, n)`` float64 output (8 n^2 bytes: 200 MB for 5,000 candidates) plus, NLTK
    style, one block of statistics rows at a time (about 16 MB) -- never the whole
    ``(n, n, 2 + 2N)`` statistics table; sacreBLEU style scores each pair in the kernel.

    Args:
        candidates: n sentences (strings, string-token lists, or ids as in ``rapidbleu.ids``).
        tokenize, lowercase: for string input (``tokenize``: a sacreBLEU tokenizer's name;
            None, the default: ``13a`` in sacreBLEU style, ``str.split()`` in NLTK style).
        workers: threads over row chunks (1 serial, -1 all cores); same results.
        cleaning: the special ids of token-id input (``rapidbleu.ids.IdKeywords``).

    Raises:
        ValueError: no candidates, bad style or smoothing.
        TypeError, SmoothingError: as in :func:`self_bleu` (NLTK style).
    """
    metric = _set_metric(
        style, max_ngram_order, weights, smoothing_function, smooth_method, smooth_value, effective_order, workers
    )
    tokenize = _style_tokenize(tokenize, style)
    flat, lens = sentences_flat(candidates, "candidates", tokenize, lowercase, cleaning_of(cleaning, "pairwise_bleu"))
    return pairwise_matrix(len(lens), lambda: metric.pairwise_id_scores(flat, lens), diagonal)
