"""NLTK's ``SmoothingFunction`` (Chen and Cherry 2014's methods 0-7, as NLTK 3.9/3.10 implements
them) and ``modified_precision``: the public classes and functions of ``rapidbleu.nltk`` that
compute on one sentence's precisions (the formulas are ``rapidbleu._core.bleu.bleu_scores_py``'s).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import backend as _backend
from ..bleu.bleu_scores_py import (
    Fraction,
    nltk_method0,
    nltk_method1,
    nltk_method2,
    nltk_method3,
    nltk_method4,
    nltk_method5,
    nltk_method6,
)
from .nltk_inputs import Tokens, token_statistics

#: A smoothing function: a ``SmoothingFunction().methodK`` or a callable with NLTK's signature.
SmoothingCallable = Callable[..., Any]

#: The names of the methods, ``method0``..``method7``.
METHODS = tuple(f"method{i}" for i in range(8))


def modified_precision(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> Fraction:
    """Clipped n-gram precision of one hypothesis, as an unreduced :class:`Fraction`.

    Args:
        references: list of reference token sequences (at least one).
        hypothesis: token sequence.
        n: n-gram order, an int >= 1.

    Returns:
        ``Fraction(matches, max(1, total))`` with numerator and denominator as computed (not
        reduced): ``matches`` counts each hypothesis n-gram at most as often as it occurs in
        any single reference (Papineni et al. 2002), ``total = max(0, len(hypothesis) - n + 1)``.
        The ``max(1, .)`` is NLTK's (it keeps a hypothesis shorter than ``n`` from dividing by
        zero); the BLEU definition has 0 n-grams there.

    Raises:
        ValueError: ``n < 1`` or no references.
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"modified_precision: n must be >= 1, got {n}")
    if type(hypothesis) is list and type(references) is list and references:
        try:  # one segment's row, without the batch's array (a loop calls this once per segment)
            one = _backend.bleu_stats.token_row(hypothesis, references, n)
        except (TypeError, ValueError):
            pass  # (the batch call below names the problem)
        else:
            return Fraction(one[1 + n], max(1, one[1 + 2 * n]), _normalize=False)
    row = token_statistics([references], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])), _normalize=False)


class SmoothingFunction:
    """Smoothing techniques for sentence-level BLEU of Chen and Cherry (2014), as in NLTK.

    Each ``methodK(p_n, references, hypothesis, hyp_len=None)`` takes the list of modified
    precisions (:class:`Fraction` per order 1..N) and returns the smoothed list (Fractions or
    floats); methods 3, 4, 6 and 7 also modify ``p_n`` in place, as NLTK's do. Pass a bound
    method as ``smoothing_function``; ``corpus_bleu`` then uses a vectorised equivalent.

    Args:
        epsilon: count given to zero-match orders by method 1 (default 0.1).
        alpha: weight of the prior in method 6 (default 5).
        k: constant of method 4 (default 5).
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: a zero-match order's precision becomes ``sys.float_info.min`` (NLTK),
        with a ``UserWarning``; the score is then a tiny positive number, not BLEU's 0."""
        return nltk_method0(p_n)

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 1 (Chen & Cherry 2014): a zero-match order gets ``epsilon / total``."""
        return nltk_method1(p_n, self.epsilon)

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 2 (Lin & Och 2004, ORANGE): add 1 to numerator and denominator of every
        order above 1."""
        return nltk_method2(p_n)

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Method 3 (NIST geometric sequence, mteval-v13a): the k-th zero-match order gets
        ``1 / (2**k * total)``."""
        return nltk_method3(p_n)

    def method4(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],  # noqa: ARG002 -- NLTK's signature of every method
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 4: like method 3, the k-th zero-match order gets
        ``ln(len) / (2**k * self.k) / total``, ``len`` = ``hyp_len`` or ``len(hypothesis)``;
        nothing changes when ``len <= 1``."""
        return nltk_method4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)

    def method5(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,  # noqa: ARG002 -- NLTK's signature of every method
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 5: each order's precision becomes the mean of its smoothed lower neighbour
        (order 0 counts as ``p_1 + 1``), itself and the next order; after the last order comes
        the 5-gram precision of ``hypothesis`` against ``references`` (whatever N is)."""
        return nltk_method5(p_n, modified_precision(references, hypothesis, 5))

    def method6(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],  # noqa: ARG002 -- NLTK's signature of every method
        hypothesis: Tokens,
        hyp_len: int | None = None,  # noqa: ARG002 -- NLTK's signature of every method
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 6 (Gao & He 2013): orders n >= 3 interpolate ``(m_n + alpha * pi0) /
        (l_n + alpha)`` with the prior ``pi0 = p_{n-1}**2 / p_{n-2}``; ``l_n`` counts the n-grams
        of ``hypothesis``. Raises :class:`SmoothingError` when fewer than 3 orders or the
        trigram precision is 0 (NLTK: ``IndexError`` / ``AssertionError``)."""
        return nltk_method6(p_n, len(hypothesis), self.alpha)

    def method7(
        self,
        p_n: list[Any],
        references: Sequence[Tokens],
        hypothesis: Tokens,
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 7: method 4, then method 5."""
        p_n = nltk_method4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)
        return nltk_method5(p_n, modified_precision(references, hypothesis, 5))
