"""NLTK's reading of its scoring arguments, each rule once: ``weights`` (one tuple or a list of
them, the orders they need, the uniform default of BLEU-N) and ``smoothing_function`` (a
``SmoothingFunction`` method, ours or NLTK's, a method's name, or a custom callable).

Every NLTK-style entry point -- ``rapidbleu.nltk`` (the drop-in), the NLTK-style metric
(``rapidbleu.nltk_bleu``), ``rapidbleu.batch``, ``rapidbleu.rewards``, ``rapidbleu.stats`` and
the engines -- reads these arguments here, so a rule has one wording (the messages are in
``rapidbleu._base.errors``).  The other jobs of NLTK's style are beside this module:
``nltk_inputs`` (NLTK's input layout and its checks), ``nltk_smoothing`` (``SmoothingFunction``,
``modified_precision``) and ``nltk_scores`` (sentence scores from statistics).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence, Set
from typing import Any

from ..._base.errors import (
    fifth_order_error,
    smoothing_name_error,
    weight_list_order_error,
    weights_count_error,
    weights_limit_error,
    weights_order_error,
)
from ..bleu.bleu_row import MAX_NGRAM_ORDER
from ..validate import MAX_ORDER_LIMIT, check_order
from .nltk_smoothing import METHODS, SmoothingFunction

#: The smoothing methods that read each sentence's 5-gram precision, whatever the weights.
FIFTH_ORDER_METHODS = (5, 7)


# --------------------------------------------------------------------------------- weights
def parse_weights(weights: Any) -> tuple[list[Sequence[float]], bool]:
    """NLTK's reading of ``weights``: ``(list of weight tuples, several scores wanted)``.

    ``weights`` counts as a list of tuples when ``weights[0][0]`` exists, else as one tuple.

    Raises:
        TypeError: a string, a mapping or a set (NLTK indexes the weights: no per-order
            numbers there).
    """
    check_weights_type(weights)
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    weights = list(weights)
    return weights, len(weights) != 1


def check_weights_type(weights: Any) -> None:
    """Weights are a sequence (of numbers, or of tuples): not a string, a mapping or a set.

    Raises:
        TypeError: naming what was given."""
    if isinstance(weights, (str, bytes, Mapping, Set)):
        raise TypeError(
            f"weights must be a tuple of per-order weights (or a list of such tuples), got a {type(weights).__name__}"
        )


def check_weights_limit(n_weights: int) -> None:
    """NLTK scores any number of orders; the compiled statistics stop at ``MAX_ORDER_LIMIT``.

    Raises:
        ValueError: more weights than that, said in terms of the argument given
            (``check_order`` would name ``max_ngram_order``).
    """
    if n_weights > MAX_ORDER_LIMIT:
        raise weights_limit_error(n_weights, MAX_ORDER_LIMIT)


def max_order(weight_list: Sequence[Sequence[float]]) -> int:
    """The longest weight tuple's length (0 allowed: NLTK scores 0), within the order limit.

    Raises:
        ValueError: more than ``MAX_ORDER_LIMIT`` weights (:func:`check_weights_limit`).
    """
    order = max(len(w) for w in weight_list)
    check_weights_limit(order)
    return check_order(order) if order else 0


def stats_order(order: int, method: int | None) -> int:
    """Orders of statistics that NLTK-style scoring of ``order`` orders needs: smoothing
    methods 5 and 7 also read each sentence's 5-gram precision, whatever the weights."""
    return max(order, 5) if method in FIFTH_ORDER_METHODS else order


def check_weights_cover(order: int, n_orders: int) -> None:
    """Weights of ``order`` orders can score statistics of ``n_orders`` orders.

    Raises:
        ValueError: they need more orders than the statistics hold.
    """
    if order > n_orders:
        raise weights_count_error(order, n_orders)


def check_fifth_order(method: int | None, n_orders: int, order: int) -> None:
    """Smoothing ``method`` can score statistics of ``n_orders`` orders with weights of
    ``order`` orders (no weights: nothing is read).

    Raises:
        ValueError: methods 5 and 7 on statistics of fewer than 5 orders.
    """
    if order and method in FIFTH_ORDER_METHODS and n_orders < 5:
        raise fifth_order_error(method, n_orders)


def uniform_weights(order: int) -> tuple[float, ...]:
    """BLEU-N's weights, ``(1/N,) * N`` (NLTK's default is BLEU-4's)."""
    return (1.0 / order,) * order


def weights_for_order(weights: Any, order: int) -> Any:
    """One weight tuple for BLEU-``order``, where the order is given (the batch and reward entry
    points): uniform when ``weights`` is None, else ``weights`` as given, which must have
    ``order`` entries.

    Raises:
        ValueError: another number of weights.
    """
    if weights is None:
        return uniform_weights(order)
    if len(weights) != order:
        raise weights_order_error(len(weights), order)
    return weights


def weights_of_order(weights: Any, max_ngram_order: Any) -> Any:
    """NLTK style's ``max_ngram_order=N`` where options come by name (the engines'
    ``ScoreOptions``, the rewards): BLEU-N, as NLTK scores it with ``weights=(1/N,) * N``.
    Uniform weights over N orders when ``weights`` is None, else ``weights`` as given, which
    must be one tuple of N weights.

    Raises:
        ValueError: N not in 1..``MAX_ORDER_LIMIT`` (TypeError: not an int), a list of weight
            tuples, or not N weights.
    """
    order = check_order(max_ngram_order)
    if weights is None:
        return uniform_weights(order)
    if parse_weights(weights)[1]:
        raise weight_list_order_error(order)
    return weights_for_order(weights, order)


def weights_of(weights: Any, order: int | None) -> tuple[float, ...]:
    """One weight tuple as floats (the batch entry points): uniform over ``order`` (default 4)
    when ``weights`` is None; else at least one, at most ``MAX_ORDER_LIMIT``, and ``order`` of
    them when ``order`` is given.

    Raises:
        ValueError: no weights, too many, or not ``order`` of them.
    """
    if weights is None:
        return uniform_weights(order if order is not None else MAX_NGRAM_ORDER)
    check_weights_type(weights)
    w = tuple(float(x) for x in weights)
    if not w:
        raise weights_count_error(0, 0)
    check_weights_limit(len(w))
    if order is not None:
        weights_for_order(w, order)
    return w


# ---------------------------------------------------------------------- smoothing_function
def method_number(name: object) -> int:
    """The number of the method named ``name`` (``"method0"``..``"method7"``).

    Raises:
        ValueError: another name.
    """
    if name not in METHODS:
        raise smoothing_name_error(name, METHODS)
    return METHODS.index(str(name))


def resolve_smoothing(fn: Any) -> tuple[int | None, Any]:
    """``(method number, SmoothingFunction-like instance)`` for the known methods, else
    ``(None, fn)``; NLTK's own ``SmoothingFunction`` methods are recognised too."""
    if not fn:
        return 0, None
    owner = getattr(fn, "__self__", None)
    func = getattr(fn, "__func__", None)
    if owner is None or func is None:
        return None, fn
    classes: list[type] = [SmoothingFunction]
    nltk_bleu = sys.modules.get("nltk.translate.bleu_score")
    if nltk_bleu is not None and hasattr(nltk_bleu, "SmoothingFunction"):
        classes.append(nltk_bleu.SmoothingFunction)
    for cls in classes:
        if isinstance(owner, cls):
            for number, name in enumerate(METHODS):
                if func is getattr(cls, name, None):
                    return number, owner
    return None, fn


def stats_smoothing(smoothing_function: Any) -> tuple[int, Any]:
    """``resolve_smoothing`` for scoring from statistics: a built-in method or ``TypeError``."""
    method, smoother = resolve_smoothing(smoothing_function)
    if method is None:
        raise TypeError(
            f"smoothing_function {getattr(smoothing_function, '__qualname__', smoothing_function)!r} "
            "is not a SmoothingFunction method 0-7: a custom callable receives the references and "
            "the hypothesis, which statistics do not hold; use rapidbleu.nltk.sentence_bleu_batch "
            "(with the tokens) instead"
        )
    return method, smoother
