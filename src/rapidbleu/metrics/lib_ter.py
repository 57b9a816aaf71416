"""sacreBLEU's ``sacrebleu.metrics.lib_ter`` import path: the public functions of TER's edit
distance that code imports from it (``translation_edit_rate``, ``BeamEditDistance``,
``trace_to_alignment``), with sacreBLEU's arguments and results.

``translation_edit_rate`` runs the active TER kernel (``rapidbleu._core.backend.ter``: compiled or
``rapidbleu._core.ter.ter_py``); the rules are stated in ``rapidbleu._core.ter.ter_py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .._core import backend as _backend
from .._core.ter.ter_py import beam_edit_distance

#: The letters of a trace (sacreBLEU's): match, substitution, insertion, deletion.
_OP_NOP, _OP_SUB, _OP_INS, _OP_DEL = " ", "s", "i", "d"


def translation_edit_rate(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> tuple[int, int]:
    """``(number of edits, reference length)`` that turn the hypothesis tokens into the
    reference tokens: greedy shifts plus the beamed edit distance (sacreBLEU's TER for one
    pair; ``(len(words_hyp), 0)`` for an empty reference).

    Raises:
        ValueError: more than ``rapidbleu._core.ter.ter_py.MAX_WORDS`` tokens in either.
        TypeError: unhashable tokens (compiled backend).
    """
    result: tuple[int, int] = _backend.ter.translation_edit_rate(words_hyp, words_ref)
    return result


class BeamEditDistance:
    """The beamed edit distance against one reference: ``BeamEditDistance(ref)(hyp)`` returns
    ``(distance, trace)``, the trace one letter per move from the start (``" "`` match,
    ``"s"`` substitution, ``"i"`` a reference word without hypothesis word, ``"d"`` a
    hypothesis word without reference word), as sacreBLEU's class returns them.

    Args:
        words_ref: the reference tokens.
    """

    def __init__(self, words_ref: Sequence[Hashable]) -> None:
        self._words_ref = list(words_ref)

    def __call__(self, words_hyp: Sequence[Hashable]) -> tuple[int, str]:
        return beam_edit_distance(list(words_hyp), self._words_ref)


def trace_to_alignment(trace: str) -> tuple[dict[int, int], list[int], list[int]]:
    """The alignment of a trace read as rewriting one sequence into the other (sacreBLEU's
    reading: ``"i"`` consumes a word of the second sequence only, ``"d"`` of the first only).

    Returns:
        ``(align, ref_err, hyp_err)``: ``align`` maps each position of the first sequence
        (consumed by ``" "``, ``"s"`` or ``"d"``) to the last position of the second consumed
        so far (-1 before any); ``ref_err``/``hyp_err`` are 0/1 per position of the first /
        second sequence (1: substituted, inserted or deleted).

    Raises:
        ValueError: a letter other than ``" "``, ``"s"``, ``"i"``, ``"d"`` (an ``Exception``,
            as sacreBLEU's).
    """
    pos_hyp = pos_ref = -1
    align: dict[int, int] = {}
    hyp_err: list[int] = []
    ref_err: list[int] = []
    for k, op in enumerate(trace):
        if op in (_OP_NOP, _OP_SUB):
            err = int(op == _OP_SUB)
            pos_hyp += 1
            pos_ref += 1
            align[pos_ref] = pos_hyp
            hyp_err.append(err)
            ref_err.append(err)
        elif op == _OP_INS:
            pos_hyp += 1
            hyp_err.append(1)
        elif op == _OP_DEL:
            pos_ref += 1
            align[pos_ref] = pos_hyp
            ref_err.append(1)
        else:
            raise ValueError(f"unknown operation {op!r} at position {k} of the trace")
    return align, ref_err, hyp_err


__all__ = ["BeamEditDistance", "trace_to_alignment", "translation_edit_rate"]
