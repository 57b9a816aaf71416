"""Metrics inside training and decoding loops: batched sentence scores, self-BLEU, pairwise
matrices.

Two functions take any metric of the protocol (``rapidbleu._core.metric.Metric``: ``BLEU()``,
``CHRF()``, ``TER()``, a metric of one's own) on strings: :func:`sentence_batch` (every
segment's sentence score in one call) and :func:`pairwise` (the ``(n, n)`` matrix of one set of
candidates, each against each: the utility or cost matrix of minimum-Bayes-risk decoding).  The
metric's own entry points are front doors to them: chrF (:func:`sentence_chrf_batch`,
:func:`pairwise_chrf`) is sacreBLEU's (0-100, ``rapidbleu.CHRF``: character n-grams, chrF++
with ``word_order=2``) on strings, and so is TER (:func:`sentence_ter_batch`,
:func:`pairwise_ter`; 0-100 and lower is better, ``rapidbleu.TER``); BLEU's
(:func:`sentence_bleu_batch`, :func:`pairwise_bleu`, :func:`self_bleu`) take token ids and NLTK's
scoring too, and the rest of this docstring is about them.

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

Inputs: a sentence is a string (sacreBLEU style: tokenized like sacreBLEU with ``tokenize``,
default ``13a``, and ``lowercase``; NLTK style: split on whitespace, ``str.split()``, as the
rewards and the Spark/Dask/Ray engines split it, unless ``tokenize`` names a tokenizer), a
sequence of string tokens (used as is), or token ids in any form that ``rapidbleu.ids``
accepts (lists of ints, 1-D integer arrays, a padded 2-D array, objects with ``__array__``,
torch tensors also on a GPU), cleaned as documented there (``pad_token_id``,
``eos_token_id``, ``decoder_start_token_id``, ``bos_token_id``, ``special_ids``, as Hugging Face
names them; ``pad_id``/``eos_id`` are aliases).  Lists of strings may also be numpy arrays of
strings (``dtype=str`` or object arrays of ``str``), for hypotheses and references alike.  A
dict or a set where a sequence is expected is a ``TypeError`` (its order would pair the wrong
sentences).

BLEU: Papineni, Roukos, Ward and Zhu (2002).  Self-BLEU: Zhu et al. (2018), "Texygen: A
Benchmarking Platform for Text Generation Models", SIGIR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._base.errors import stream_length_error
from ._base.nogc import without_gc
from ._core import backend as _backend
from ._core.bleu.bleu_row import MAX_NGRAM_ORDER
from ._core.inputs import join_flat, preprocess, streams_of_rows, token_ids
from ._core.metric import Metric, check_metric
from ._core.nltk.nltk_batch import sentence_bleu_rows
from ._core.nltk.nltk_scores import rows_named
from ._core.nltk.nltk_smoothing import SmoothingFunction
from ._core.nltk.nltk_style import method_number, resolve_smoothing
from ._core.nltk.nltk_style import weights_of as _nltk_weights
from ._core.validate import check_keywords, check_order, check_ordered, check_style, resolve_workers
from .bleu import BLEU
from .chrf import CHRF, CHRFOptions
from .ids import (
    IdCleaning,
    IdKeywords,
    IdReferences,
    IdStream,
    IdStreams,
    cleaning_of,
    id_stream,
    is_arraylike,
    stats_of_streams,
)
from .nltk_bleu import NLTKBLEU
from .ter import TER, TEROptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "pairwise",
    "pairwise_bleu",
    "pairwise_chrf",
    "pairwise_ter",
    "self_bleu",
    "sentence_batch",
    "sentence_bleu_batch",
    "sentence_chrf_batch",
    "sentence_ter_batch",
]

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


# ----------------------------------------------------------------------- NLTK-style scoring


def _nltk_metric(order: int, weights: Any, smoothing_function: Any, auto_reweigh: bool, workers: int) -> NLTKBLEU:
    """The NLTK-style metric that scores statistics of ``order`` orders (at least 5 for
    smoothing methods 5 and 7, which read each sentence's 5-gram precision whatever the
    weights: ``NLTKBLEU.max_ngram_order``)."""
    return NLTKBLEU(weights, smoothing_function, auto_reweigh, max_ngram_order=order, workers=workers)


# ----------------------------------------------------------------------- input handling


def _first(x: Iterable[Any]) -> Any:
    for e in x:
        if e is not None:
            return e
    return None


def _text_form(x: Any) -> str | None:
    """How a list of sentences is written, from the first item that tells: ``"str"`` (strings),
    ``"tokens"`` (lists of string tokens) or ``None`` (ids, or no item tells: all empty or None).
    Empty token lists are skipped, so ``[[], ["a"]]`` is token lists."""
    # (exact lists and ints first: a stream of id lists comes here once per row, see
    # _streams_text_form, and the general tests below cost a microsecond a row)
    if type(x) is not list and (is_arraylike(x) or isinstance(x, (str, bytes)) or not isinstance(x, Sequence)):
        return None
    for e in x:
        if e is None:
            continue
        if type(e) is int:
            return None
        if isinstance(e, str):
            return "str"
        if is_arraylike(e) or not isinstance(e, Sequence):
            return None
        if len(e):
            return "tokens" if isinstance(e[0], str) else None
    return None


def _streams_text_form(references: Any) -> str | None:
    """``_text_form`` of one reference stream, or of the first stream of a list of streams
    that tells (``"streams-of-tokens"`` / ``"streams-of-str"`` for those)."""
    form = _text_form(references)
    if form is not None or is_arraylike(references) or not isinstance(references, Sequence):
        return form
    for stream in references:
        inner = _text_form(stream) if stream is not None else None
        if inner is not None:
            return "streams-of-" + inner
    return None


def _text_arrays(x: Any) -> Any:
    """numpy arrays of strings (``dtype=str``, or object arrays whose first item is a ``str``)
    as lists, also as the items of a list or tuple (reference streams); anything else as it is."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "U" or (x.dtype.kind == "O" and x.size and isinstance(_first(x.flat), str)):
            return x.tolist()
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(e, np.ndarray) and e.dtype.kind in "UO" for e in x):
        return [_text_arrays(e) for e in x]
    return x


def _style_tokenize(tokenize: str | None, style: str) -> str | None:
    """The tokenizer of strings: ``tokenize`` when given, else ``13a`` in sacreBLEU style and
    None (``str.split()``) in NLTK style."""
    return "13a" if tokenize is None and style == "sacrebleu" else tokenize


def _sentences_flat(
    sentences: Any, what: str, tokenize: str | None, lowercase: bool, cleaning: IdCleaning
) -> tuple[np.ndarray, np.ndarray]:
    """Sentences of any accepted form as one flat id stream ``(flat, lens)``: strings are
    tokenized and mapped to ids, string-token lists mapped to ids, id forms cleaned
    (``rapidbleu.ids``)."""
    if isinstance(sentences, (str, bytes)):
        raise TypeError(f"{what} must be a list of sentences, got a single string; wrap it in a list")
    check_ordered(sentences, what)
    sentences = _text_arrays(sentences)
    if not is_arraylike(sentences) and not isinstance(sentences, Sequence):
        sentences = list(sentences)
    if _text_form(sentences) is None:
        return id_stream(sentences, what, cleaning, warn_empty=True)
    return join_flat(_text_ids(sentences, what, tokenize, lowercase))


def _as_is(line: str) -> str:
    """No tokenizer: the text's whitespace-separated words are its tokens (``str.split()``)."""
    return line


def _text_ids(
    sentences: Sequence[Any], what: str, tokenize: str | None, lowercase: bool, vocab: dict[str, int] | None = None
) -> list[np.ndarray]:
    """Strings -> tokenizer (``None``: none, NLTK's ``str.split()``) -> ids, or string-token
    lists -> ids, through one vocabulary."""
    from .tokenizers import get_tokenizer

    tok = (_as_is if tokenize is None else get_tokenizer(tokenize)) if _text_form(sentences) == "str" else None
    return token_ids(_token_lists(sentences, what, tok, lowercase), {} if vocab is None else vocab)


def _token_lists(
    sentences: Sequence[Any], what: str, tok: Callable[[str], str] | None, lowercase: bool
) -> Iterable[Sequence[str]]:
    """Each sentence's tokens: strings preprocessed (``tok`` given), string-token lists as they
    are; one form throughout."""
    for i, s in enumerate(sentences):
        if isinstance(s, str):
            if tok is None:
                raise TypeError(f"{what}[{i}] is a string but {what}[0] is a token list: use one form")
            yield preprocess(s, tok, lowercase).split()
        elif isinstance(s, Sequence) and all(isinstance(t, str) for t in s):
            if tok is not None:
                raise TypeError(f"{what}[{i}] is a token list but {what}[0] is a string: use one form")
            yield s
        else:
            raise TypeError(f"{what}[{i}] is a {type(s).__name__}; expected a string or a list of string tokens")


# ----------------------------------------------------------------------- any metric


def _strings(sentences: Any, what: str, metric: str) -> list[str]:
    """A list of strings from a list, tuple or numpy array of strings (``metric`` names the
    metric in the error).

    Raises:
        TypeError: a single string, a mapping or set, an item that is not a ``str`` (named).
    """
    if isinstance(sentences, (str, bytes)):
        raise TypeError(f"{what} must be a list of strings, got a single string; wrap it in a list")
    check_ordered(sentences, what)
    out = list(_text_arrays(sentences))
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise TypeError(f"{what}[{i}] is a {type(s).__name__}; {metric} scores strings")
    return out


def _matrix(n: int, scores: Callable[[], np.ndarray], diagonal: float | None) -> np.ndarray:
    """The pairwise scheme, for every metric and input form: no candidates is an error, then
    the ``(n, n)`` scores, their diagonal overwritten when ``diagonal`` is given."""
    if n == 0:
        raise ValueError("candidates is empty")
    out = scores()
    if diagonal is not None:
        np.fill_diagonal(out, diagonal)
    return out


def _sentence_batch(metric: Metric, hypotheses: Any, references: Any, reference_layout: str | None) -> np.ndarray:
    hyps = _strings(hypotheses, "hypotheses", metric.display_name)
    check_ordered(references, "references")
    references = _text_arrays(references)
    if reference_layout is not None:
        hyps, references = _reference_streams(hyps, references, reference_layout)
    streams = (
        [references] if isinstance(references, (list, tuple)) and isinstance(_first(references), str) else references
    )
    return metric.sentence_scores(hyps, streams)


def _pairwise(metric: Metric, candidates: Any, diagonal: float | None) -> np.ndarray:
    sents = _strings(candidates, "candidates", metric.display_name)
    return _matrix(len(sents), lambda: metric.pairwise_scores(sents), diagonal)


@without_gc
def sentence_batch(
    hypotheses: Sequence[str] | np.ndarray,
    references: Sequence[str | None] | Sequence[Sequence[str | None]] | np.ndarray,
    *,
    metric: Metric,
    reference_layout: str | None = None,
) -> np.ndarray:
    """The sentence score of every segment in one call, for any metric: ``out[i] ==
    metric.sentence_score(hyp_i, refs_i).score`` (the metric's ``sentence_scores``, its
    kernels' batch); float64 ``(n,)`` (wider only where the metric's scores are, as a chrF with a
    numpy ``beta``).

    Args:
        hypotheses: n strings (a list, tuple or numpy array of strings).
        references: one stream (n strings) or a list of K streams (``references[k][i]``;
            ``None`` = no k-th reference for segment i); with
            ``reference_layout="per_hypothesis"``, n lists of references instead
            (``references[i][k]``, NLTK's layout).
        metric: a metric object of the protocol (``rapidbleu.BLEU(...)``, ``rapidbleu.CHRF(...)``,
            ``rapidbleu.TER(...)``, ...), with its options and ``workers``; scored as it is
            configured (for sacreBLEU's sentence BLEU: ``BLEU(effective_order=True)``).
        reference_layout: ``"streams"`` or ``None`` (default: sacreBLEU's layout, above) or
            ``"per_hypothesis"``.

    Raises:
        TypeError: a hypothesis or reference that is not a string, a dict or set instead of a
            sequence, ``metric`` not a metric object.
        ValueError: mismatched stream lengths (named), a segment without any reference, and
            what the metric refuses.
    """
    return _sentence_batch(check_metric(metric), hypotheses, references, reference_layout)


@without_gc
def pairwise(candidates: Sequence[str] | np.ndarray, *, metric: Metric, diagonal: float | None = None) -> np.ndarray:
    """The pairwise sentence-score matrix of one set of candidates, for any metric (the
    utility, or cost, matrix of minimum-Bayes-risk decoding): float64 ``(n, n)``, ``out[i, j] ==
    metric.sentence_score(c_i, [c_j]).score``, candidate i the hypothesis and candidate j its
    single reference (not symmetric in general).  MBR picks ``argmax_i out[i].mean()`` (or
    ``argmin`` for an error rate, ``metric.higher_is_better`` False).

    Computed by ``metric.pairwise_scores`` (the protocol): the metric's pairwise kernel where it
    has one (BLEU, chrF), else blocks of rows through its batch of sentence scores (memory: the
    output and one block).

    Args:
        candidates: n strings (a list, tuple or numpy array of strings).
        metric: a metric object of the protocol, with its options and ``workers``.
        diagonal: a value for every ``out[i, i]`` (e.g. ``0.0`` or ``np.nan`` to leave the
            self-pair out of an MBR mean), or None to keep the computed ones.

    Raises:
        ValueError: no candidates, and what the metric refuses.
        TypeError: a candidate that is not a string, a dict or set, ``metric`` not a metric
            object.
    """
    return _pairwise(check_metric(metric), candidates, diagonal)


# ----------------------------------------------------------------------- BLEU


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
    order = check_order(max_ngram_order)
    rule = cleaning_of(cleaning, "sentence_bleu_batch")
    nltk_style = weights is not None or smoothing_function is not None
    tokenize = _style_tokenize(tokenize, "nltk" if nltk_style else "sacrebleu")
    # the metric first: its constructor checks workers and the scoring options, before any work
    metric: BLEU | NLTKBLEU | None
    if not nltk_style:
        if auto_reweigh:
            raise TypeError("auto_reweigh is an NLTK-style option (with weights= or smoothing_function=)")
        metric = BLEU(
            tokenize=tokenize,
            lowercase=lowercase,
            force=True,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
            max_ngram_order=order,
            workers=workers,
        )
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
    check_ordered(hypotheses, "hypotheses")
    check_ordered(references, "references")
    hypotheses, references = _text_arrays(hypotheses), _text_arrays(references)
    if reference_layout is not None or nltk_style:
        hypotheses, references = _reference_streams(hypotheses, references, reference_layout)
    strings = isinstance(hypotheses, (list, tuple)) and len(hypotheses) > 0 and isinstance(_first(hypotheses), str)
    if isinstance(metric, BLEU) and strings:
        streams = references
        if isinstance(_first(references), str):
            streams = [references]  # one stream of strings
        return metric.sentence_scores(hypotheses, streams)

    data = _id_data(hypotheses, references, tokenize, lowercase, rule)
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
        return metric.scores_from_stats(stats_of_streams(data, metric.max_ngram_order, workers))


#: How ``sentence_bleu_batch`` reads a list of lists of references.
REFERENCE_LAYOUTS = ("streams", "per_hypothesis")


def _is_sentence(x: Any, form: str | None) -> bool:
    """Whether ``x`` is one sentence in the hypotheses' form (``_text_form``): a string, a list
    of string tokens, or ids (a 1-D array, or a sequence that is empty or starts with an int)."""
    if form == "str":
        return isinstance(x, str)
    if isinstance(x, (str, bytes)) or x is None:
        return False
    if form == "tokens":
        return isinstance(x, Sequence) and all(isinstance(t, str) for t in x)
    if is_arraylike(x):
        return np.ndim(x) == 1
    return isinstance(x, Sequence) and (not x or isinstance(x[0], (int, np.integer)))


def _lists_of_sentences(references: Any, n: int, form: str | None, size: int | None = None) -> bool:
    """Whether ``references`` are ``n`` lists (or 2-D arrays) of sentences (``size`` each, if
    given): NLTK's layout."""
    if len(references) != n:
        return False
    for refs in references:
        if not (isinstance(refs, (list, tuple)) or (is_arraylike(refs) and np.ndim(refs) == 2)):
            return False
        if size is not None and len(refs) != size:
            return False
    return all(_is_sentence(r, form) for refs in references for r in refs)


def _reference_streams(hypotheses: Any, references: Any, layout: str | None) -> tuple[Any, Any]:
    """``(hypotheses, references)`` with the references as streams, read by ``layout`` (see
    ``sentence_bleu_batch``); hypotheses without a length become a list.

    Raises:
        ValueError: an unknown layout; ``per_hypothesis`` references that are not n lists of
            sentences; references both layouts read when ``layout`` is None.
    """
    if layout not in (None, *REFERENCE_LAYOUTS):
        raise ValueError(
            f"reference_layout must be one of {', '.join(map(repr, REFERENCE_LAYOUTS))} or None, got {layout!r}"
        )
    if layout == "streams" or not isinstance(references, (list, tuple)):
        return hypotheses, references
    if not hasattr(hypotheses, "__len__"):
        hypotheses = list(hypotheses)
    n = len(hypotheses)
    if layout is None:
        if n >= 2 and _lists_of_sentences(references, n, _text_form(hypotheses), size=n):
            raise ValueError(
                f"references could be read two ways: {n} lists of {n} references each, for {n} "
                "hypotheses. Give reference_layout='streams' (references[k][i]: the k-th "
                "reference of hypothesis i, sacreBLEU's layout) or 'per_hypothesis' "
                "(references[i]: the references of hypothesis i, NLTK's layout)"
            )
        return hypotheses, references
    if len(references) != n:
        raise stream_length_error("references (one list per hypothesis)", len(references), n, "lists")
    if not _lists_of_sentences(references, n, _text_form(hypotheses)):
        raise ValueError(
            "reference_layout='per_hypothesis' needs one list of references per hypothesis, each "
            "reference a sentence in the hypotheses' form"
        )
    if _text_form(hypotheses) is None and _streams_text_form(references) is None:
        # ids: an empty reference as an empty array, which cannot be read as an empty stream
        empty = np.zeros(0, dtype=np.int64)
        references = [[empty if not is_arraylike(r) and not len(r) else r for r in refs] for refs in references]
    return hypotheses, streams_of_rows(references)


def _id_data(
    hypotheses: Any, references: Any, tokenize: str | None, lowercase: bool, cleaning: IdCleaning
) -> IdStreams:
    """Hypotheses/references of any accepted form as an ``IdStreams`` (text mapped through one
    shared vocabulary)."""
    form = _text_form(hypotheses)
    rform = _streams_text_form(references)
    if form is None and rform in ("tokens", "streams-of-tokens"):
        form = "tokens"  # every hypothesis is empty: the references tell
    if form is None:
        return IdStreams(hypotheses, references, cleaning=cleaning)
    vocab: dict[str, int] = {}
    hyps = _text_ids(hypotheses, "hypotheses", tokenize, lowercase, vocab)
    # The hypotheses' form settles what a reference looks like: with string hypotheses a
    # reference is a string (so a list of strings is a stream of them); with token-list
    # hypotheses a reference is a token list (so a list of strings is one reference).
    one_stream = rform == form
    streams = [references] if one_stream else list(references)
    conv = []
    for k, s in enumerate(streams):
        check_ordered(s, "references" if one_stream else f"references[{k}]")
        if len(s) != len(hyps):
            raise stream_length_error(
                f"reference stream {k}", len(s), len(hyps), "rows", None if one_stream else len(streams)
            )
        idx = [i for i, x in enumerate(s) if x is not None]
        ids = _text_ids([s[i] for i in idx], f"references[{k}]", tokenize, lowercase, vocab)
        row: list[list[int] | None] = [None] * len(s)
        for i, a in zip(idx, ids, strict=False):
            row[i] = a.tolist()
        conv.append(row)
    return IdStreams([h.tolist() for h in hyps], conv)


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
    check_style(style)
    order = _resolve_order(max_ngram_order, weights, style)
    # the metric first: its constructor checks workers and the scoring options, before any work
    metric = _set_metric(
        style, order, weights, smoothing_function, smooth_method, smooth_value, effective_order, workers
    )
    tokenize = _style_tokenize(tokenize, style)
    flat, lens = _sentences_flat(sentences, "sentences", tokenize, lowercase, cleaning_of(cleaning, "self_bleu"))
    if len(lens) < 2:
        raise ValueError(f"self-BLEU needs at least 2 sentences (each is scored against the others), got {len(lens)}")
    with rows_named(lambda i: f"sentence {i}"):
        return metric.scores_from_stats(_backend.bleu_sets.self_stats(flat, lens, metric.max_ngram_order, workers))


def _set_metric(
    style: str,
    order: int,
    weights: Weights,
    smoothing_function: Callable[..., Any] | None,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    workers: int,
) -> BLEU | NLTKBLEU:
    """The metric :func:`self_bleu` and :func:`pairwise_bleu` score a set of token ids with:
    sacreBLEU's BLEU (the ids as tokens) or NLTK style (``method1`` unless another smoothing is
    given, as Texygen)."""
    if style == "sacrebleu":
        return BLEU(
            tokenize="none",
            force=True,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
            max_ngram_order=order,
            workers=workers,
        )
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
    check_style(style)
    order = _resolve_order(max_ngram_order, weights, style)
    # the metric first: its constructor checks workers and the scoring options, before any work
    metric = _set_metric(
        style, order, weights, smoothing_function, smooth_method, smooth_value, effective_order, workers
    )
    tokenize = _style_tokenize(tokenize, style)
    flat, lens = _sentences_flat(candidates, "candidates", tokenize, lowercase, cleaning_of(cleaning, "pairwise_bleu"))
    return _matrix(len(lens), lambda: metric.pairwise_id_scores(flat, lens), diagonal)


# ----------------------------------------------------------------------- chrF


@without_gc
def sentence_chrf_batch(
    hypotheses: Sequence[str] | np.ndarray,
    references: Sequence[str | None] | Sequence[Sequence[str | None]] | np.ndarray,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    workers: int = 1,
    *,
    reference_layout: str | None = None,
) -> np.ndarray:
    """Sentence chrF of every segment in one call: float64 array of shape (n,), 0-100.

    ``out[i] == sacrebleu.sentence_chrf(hyp_i, refs_i, char_order, word_order, beta,
    remove_whitespace=not whitespace, eps_smoothing).score`` (with ``lowercase``:
    ``CHRF(..., lowercase=True).sentence_score``): the same float, not just a close one (tested
    against sacreBLEU's loop).  With several references the best one counts, as in sacreBLEU
    (Popović 2015 for chrF, 2017 for chrF++; sacreBLEU's effective-order averaging, or
    chrF++.py's epsilon smoothing with ``eps_smoothing``).

    Args:
        hypotheses: n strings (a list, tuple or numpy array of strings).
        references: one stream (n strings) or a list of K streams (``references[k][i]``;
            ``None`` = no k-th reference for segment i); with
            ``reference_layout="per_hypothesis"``, n lists of references instead
            (``references[i][k]``, NLTK's layout).
        char_order, word_order, beta, lowercase, whitespace, eps_smoothing: ``rapidbleu.CHRF``'s
            options (``word_order=2``: chrF++).
        workers: threads of the compiled core (1 serial, -1 all cores); same results.
        reference_layout: ``"streams"`` or ``None`` (default: sacreBLEU's layout, above) or
            ``"per_hypothesis"``.

    Raises:
        TypeError: a hypothesis or reference that is not a string, a dict or set instead of a
            sequence, a bad option type.
        ValueError: mismatched stream lengths (named), a segment without any reference, an
            option out of range (orders 0-64 and not both 0, ``beta`` a number >= 0, ``workers``).
    """
    metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, workers=workers)
    return _sentence_batch(metric, hypotheses, references, reference_layout)


@without_gc
def pairwise_chrf(
    candidates: Sequence[str] | np.ndarray,
    *,
    diagonal: float | None = None,
    workers: int = 1,
    **options: Unpack[CHRFOptions],
) -> np.ndarray:
    """Pairwise sentence-chrF matrix (the usual MBR utility matrix): float64 array (n, n), 0-100.

    ``out[i, j]`` = sentence chrF of candidate i (hypothesis) against candidate j (its single
    reference), ``sacrebleu.sentence_chrf(c_i, [c_j], ...).score``; not symmetric (recall and
    precision swap, and ``beta`` weighs them differently).  MBR picks ``argmax_i
    out[i].mean()`` (or a weighted sum).

    Diagonal: by default computed like any other pair (a candidate against itself: 100.0, 0.0
    for an empty one, sacreBLEU's values); pass ``diagonal=x`` to overwrite it (e.g. ``0.0`` or
    ``np.nan`` to leave the self-pair out of an MBR mean).

    Memory (compiled core): the ``(n, n)`` float64 output (8 n^2 bytes: 200 MB for 5,000
    candidates) plus, per thread, one block: a row of the matrix's statistics (``n`` rows of
    ``3 * (char_order + word_order)`` int64) and the candidates' unit ids of the order being
    counted (4 bytes per character; ``chrf.h``).  Each row of pairs is scored as soon as its
    statistics are counted, so the ``(n, n, 3 * (char_order + word_order))`` table never exists.

    Args:
        candidates: n strings (a list, tuple or numpy array of strings).
        diagonal: a value for every ``out[i, i]``, or None to keep the computed ones.
        workers: threads over row chunks (1 serial, -1 all cores); same results.
        options: ``rapidbleu.CHRF``'s options by name (``rapidbleu.chrf.CHRFOptions``:
            ``char_order``, ``word_order``, ``beta``, ``lowercase``, ``whitespace``,
            ``eps_smoothing``; each missing one has ``CHRF``'s default).

    Raises:
        ValueError: no candidates, an option out of range (as :func:`sentence_chrf_batch`).
        TypeError: a candidate that is not a string, a dict or set, a bad option type, an
            unknown keyword.
    """
    check_keywords(options, CHRFOptions, "pairwise_chrf")
    return _pairwise(CHRF(**options, workers=workers), candidates, diagonal)


# ----------------------------------------------------------------------- TER


@without_gc
def sentence_ter_batch(
    hypotheses: Sequence[str] | np.ndarray,
    references: Sequence[str | None] | Sequence[Sequence[str | None]] | np.ndarray,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    workers: int = 1,
    *,
    reference_layout: str | None = None,
) -> np.ndarray:
    """Sentence TER of every segment in one call: float64 array of shape (n,), 0-100 (lower is
    better; above 100 when the edits outnumber the reference words).

    ``out[i] == sacrebleu.sentence_ter(hyp_i, refs_i, normalized, no_punct, asian_support,
    case_sensitive).score``: the same float (tested against sacreBLEU's loop).  The fewest
    edits (insertions, deletions, substitutions, shifts of word blocks) over the segment's
    references, divided by the mean reference length (Snover et al. 2006; tercom's algorithm
    as sacreBLEU runs it, ``rapidbleu._core.ter.ter_py``).

    Args:
        hypotheses: n strings (a list, tuple or numpy array of strings).
        references: one stream (n strings) or a list of K streams (``references[k][i]``;
            ``None`` = no k-th reference for segment i); with
            ``reference_layout="per_hypothesis"``, n lists of references instead
            (``references[i][k]``, NLTK's layout).
        normalized, no_punct, asian_support, case_sensitive: ``rapidbleu.TER``'s options.
        workers: threads of the compiled core (1 serial, -1 all cores); same results.
        reference_layout: ``"streams"`` or ``None`` (default: sacreBLEU's layout, above) or
            ``"per_hypothesis"``.

    Raises:
        TypeError: a hypothesis or reference that is not a string, a dict or set instead of a
            sequence, an option that is not True/False (0/1).
        ValueError: mismatched stream lengths (named), a segment without any reference, a
            segment longer than ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words, a bad ``workers``.
    """
    metric = TER(normalized, no_punct, asian_support, case_sensitive, workers=workers)
    return _sentence_batch(metric, hypotheses, references, reference_layout)


@without_gc
def pairwise_ter(
    candidates: Sequence[str] | np.ndarray,
    *,
    diagonal: float | None = None,
    workers: int = 1,
    **options: Unpack[TEROptions],
) -> np.ndarray:
    """Pairwise sentence-TER matrix (an MBR cost matrix): float64 array (n, n), 0-100, lower is
    better.

    ``out[i, j]`` = sentence TER of candidate i (hypothesis) against candidate j (its single
    reference), ``sacrebleu.sentence_ter(c_i, [c_j], ...).score``; not symmetric (the
    reference's length divides).  MBR picks ``argmin_i out[i].mean()``.

    Each candidate is tokenized and its words interned once (as a hypothesis and as a
    reference, ``TER.pairwise_scores``); the n^2 edit-rate computations then run in the compiled
    kernel, ``workers`` threads, on word ids: memory is the output plus the candidates' words.

    Args:
        candidates: n strings (a list, tuple or numpy array of strings).
        diagonal: a value for every ``out[i, i]``, or None to keep the computed ones (0.0 for
            a candidate against itself).
        workers: threads of the compiled core (1 serial, -1 all cores); same results.
        options: ``rapidbleu.TER``'s options by name (``rapidbleu.ter.TEROptions``:
            ``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``; each off
            unless given).

    Raises:
        ValueError: no candidates, a candidate longer than ``rapidbleu._core.ter.ter_py.MAX_WORDS``
            words, a bad ``workers``.
        TypeError: a candidate that is not a string, a dict or set, a bad option type, an
            unknown keyword.
    """
    check_keywords(options, TEROptions, "pairwise_ter")
    return _pairwise(TER(**options, workers=workers), candidates, diagonal)
