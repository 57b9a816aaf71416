"""TER (Snover et al., AMTA 2006) as sacreBLEU 2.x computes it, in Python: the oracle of ``ter_cy``.

Both twins have the same functions (:func:`ter_stats`, :func:`ter_scores`,
:func:`ter_pairwise_scores`, :func:`translation_edit_rate`, :func:`plain_streams`) with the same
signatures and results; the docstrings here document both (``rapidbleu._core.backend`` copies
them onto the compiled functions).

**The algorithm** (tercom's, with sacreBLEU's choices; every rule below changes results):

* The number of edits of a hypothesis against one reference (word lists) is the number of
  *shifts* applied greedily plus the edit distance (insertions, deletions, substitutions,
  cost 1 each) of the shifted hypothesis.  An empty reference costs one edit per hypothesis
  word.
* The edit distance is computed in a *beam*: row ``i`` of the (hypothesis x reference) matrix
  holds only the columns ``j`` with ``max(0, d - w) <= j < min(n_ref + 1, d + w)``, where
  ``d = floor(i * (n_ref / n_hyp))`` (double-precision arithmetic), ``w = 25``, or
  ``ceil(ratio / 2 + 25)`` when ``25 < ratio / 2``; row 0 and the last row hold every
  column.  Cells outside the beam are unreachable, so the value is the cheapest path through
  the beam (which can exceed the true Levenshtein distance).  Where several moves reach a
  cell at the same cost, the diagonal move (match or substitution) wins, then the one that
  consumes a hypothesis word, then the one that consumes a reference word; the trace read
  back from the last cell gives an alignment: for every reference word the hypothesis
  position it follows (``align``), and which hypothesis and reference words are in error.
* Shift candidates: for every hypothesis position ``h`` (ascending), every reference position
  ``r`` with ``|r - h| <= 50`` (ascending) and every length ``L`` (ascending, at most 10, as
  long as the words agree) of a common block ``hyp[h:h+L] == ref[r:r+L]``, unless the block
  has no hypothesis error, or the reference block has no error, or ``h <= align[r] < h + L``.
  Each candidate block is tried before every position ``align[r + o] + 1`` for
  ``o = -1 .. L - 1`` (``0`` for ``r + o == -1``), skipping a position equal to the one tried
  just before; each try counts as one evaluated candidate.  The block is moved with
  sacreBLEU's three cases (before its start; after its end; otherwise the block swaps with
  the ``t - h`` words that follow it).
* The best candidate maximises ``(gain in edit distance, L, -h, -target)``.  If at least 1000
  candidates have been evaluated for this hypothesis-reference pair (over all rounds: the
  count is never reset) the search stops without applying this round's best; otherwise the
  best is applied when its gain is positive, and a new round starts.
* A segment's statistics are ``[the fewest edits over its references, the average reference
  length]`` (``None`` references skipped); ``TER = 100 * edits / length`` summed over the
  corpus, ``100`` when the summed length is 0 and there are edits, else ``0``.

**How it is computed here** (same results, bounded cost): each round computes the full
beamed matrix of the current hypothesis forward (values and moves, for the trace) and
backward (the cheapest completion from every cell).  A candidate changes only the positions
``a .. b - 1`` between its block and its target, so its edit distance is the minimum over row
``b`` of (the forward values recomputed over rows ``a + 1 .. b`` from the unchanged row
``a``) + (the backward values of row ``b``), which is the cheapest path, since every path
crosses row ``b``.  sacreBLEU instead recomputes the rows after the longest prefix of the
hypothesis found in its cache (at most 10,000 rows); its cache never changes a result, since a
row depends only on the words before it, its index and the two lengths, and every hypothesis
of one pair has the same length (a shift moves words, it does not add or remove any).

**Cost** per hypothesis-reference pair with ``n`` hypothesis and ``m`` reference words, ``W``
the beam's width (``50``, or about ``m / n + 52`` when the reference is more than 50 times
longer): memory ``O(n * W + m)`` (the two matrices: about ``9 * (n * W + 2 * m)`` bytes in
the compiled twin); time per round ``O(n * W + m + 101 * n)`` (the two matrices and the search
for common blocks), at most 1001 rounds, and per evaluated candidate ``O((b - a) * W)``, at
most 1010 candidates.  Segments longer than :data:`MAX_WORDS` words are refused.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

if TYPE_CHECKING:
    import numpy as np
else:
    from ..._base.lazy import numpy as np  # imported on first use (see rapidbleu._base.lazy)

from ..._base.errors import MAX_EXACT_COUNT, no_reference_error, stream_length_error
from ...tokenizers.tokenizer_ter import tercom_words

#: Name of this backend, as reported by ``rapidbleu.backend``.
NAME = "python"


class TEROptions(TypedDict, total=False):
    """TER's options by name, as ``rapidbleu.TER`` takes them (``rapidbleu.ter`` exports this
    type): the keywords of the entry points that build a ``TER`` (``**options:
    Unpack[TEROptions]``, a missing one is off, TER's default), and the one value the kernels
    take (``TER.options``: every key, checked once by the constructor; :func:`option_values`
    reads it).  What each option means: ``rapidbleu.TER``."""

    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool


#: TER's options, in the order of ``TER(...)``'s arguments.
OPTIONS: tuple[str, ...] = tuple(TEROptions.__annotations__)


def option_values(options: TEROptions) -> tuple[bool, bool, bool, bool]:
    """``(normalized, no_punct, asian_support, case_sensitive)`` of ``options`` as bools (off
    for a missing one): how both twins read their options, the tokenizer's four switches."""
    return (
        bool(options.get("normalized", False)),
        bool(options.get("no_punct", False)),
        bool(options.get("asian_support", False)),
        bool(options.get("case_sensitive", False)),
    )


#: Tercom's limits, as sacreBLEU applies them.
MAX_SHIFT_SIZE = 10  # words in a shifted block
MAX_SHIFT_DIST = 50  # largest |reference start - hypothesis start| of a common block
BEAM_WIDTH = 25  # half-width of the beam of the edit distance (at least)
MAX_SHIFT_CANDIDATES = 1000  # evaluated shifts per hypothesis-reference pair, all rounds together

#: The most words a hypothesis or a reference may have (after tokenization): beyond it the
#: segment is refused (``ValueError`` naming it) before any work.  At the limit one pair takes
#: about 120 MB in the compiled twin (a few seconds typically); see the module documentation.
MAX_WORDS = 1 << 18

#: A row of the matrices: one int per column of the beam (``array('q')``: 8 bytes a cell).
Row = Sequence[int]

#: Cost of an unreachable cell (sacreBLEU's ``int(1e16)``); any value >= INF means unreachable.
INF = 10**16

#: The moves of the edit distance, as letters of sacreBLEU's trace: a match (" "), a
#: substitution ("s"), a reference word without hypothesis word ("i"), a hypothesis word
#: without reference word ("d"), no move ("x": an unreachable cell).
OP_NOP, OP_SUB, OP_INS, OP_DEL, OP_UNDEF = 0, 1, 2, 3, 4
TRACE_LETTERS = " sidx"


# --------------------------------------------------------------------------------------------
# The beamed edit distance
# --------------------------------------------------------------------------------------------
def beam(n_hyp: int, n_ref: int) -> tuple[list[int], list[int]]:
    """The columns ``lo[i] <= j < hi[i]`` of each row ``i = 0 .. n_hyp`` of the beamed matrix."""
    lo = [0] * (n_hyp + 1)
    hi = [n_ref + 1] * (n_hyp + 1)
    if n_hyp == 0:
        return lo, hi
    ratio = n_ref / n_hyp
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    for i in range(1, n_hyp + 1):
        diag = math.floor(i * ratio)
        lo[i] = max(0, diag - width)
        if i < n_hyp:
            hi[i] = min(n_ref + 1, diag + width)
    return lo, hi


def _forward(
    hyp: Sequence[Hashable],
    ref: Sequence[Hashable],
    lo: list[int],
    hi: list[int],
    a: int,
    row_a: Row,
    ops: list[bytes] | None = None,
    last_only: bool = False,
) -> list[Row]:
    """Rows ``a + 1 .. a + len(hyp)`` of the forward matrix (cheapest path from the origin),
    from row ``a``'s values; ``hyp`` are the hypothesis words at positions ``a ..``.  With
    ``ops``, each row's moves are appended to it (the first cheapest of diagonal, hypothesis
    word, reference word); with ``last_only`` only the last row is returned."""
    rows: list[Row] = []
    prev, plo, phi = row_a, lo[a], hi[a]
    for k, word in enumerate(hyp):
        i = a + k + 1
        clo, chi = lo[i], hi[i]
        row = [INF] * (chi - clo)
        moves = [OP_UNDEF] * (chi - clo)
        for j in range(clo, chi):
            best, move = INF, OP_UNDEF
            if plo < j <= phi:  # diagonal from (i - 1, j - 1)
                sub = word != ref[j - 1]
                cost = prev[j - 1 - plo] + sub
                if cost < best:
                    best, move = cost, OP_SUB if sub else OP_NOP
            if plo <= j < phi:  # from (i - 1, j): the hypothesis word has no reference word
                cost = prev[j - plo] + 1
                if cost < best:
                    best, move = cost, OP_DEL
            if j > clo:  # from (i, j - 1): the reference word has no hypothesis word
                cost = row[j - 1 - clo] + 1
                if cost < best:
                    best, move = cost, OP_INS
            row[j - clo] = best
            moves[j - clo] = move
        stored = array("q", row)  # 8 bytes a cell instead of a list of int objects
        if not last_only:
            rows.append(stored)
        if ops is not None:
            ops.append(bytes(moves))
        prev, plo, phi = stored, clo, chi
    return rows if not last_only else [prev]


def forward_matrix(
    hyp: Sequence[Hashable], ref: Sequence[Hashable], lo: list[int], hi: list[int]
) -> tuple[list[Row], list[bytes]]:
    """The whole forward matrix of ``hyp`` against ``ref`` in the beam: ``(values, moves)``,
    one row per ``i = 0 .. len(hyp)`` (row ``i`` holds columns ``lo[i] .. hi[i] - 1``)."""
    first = array("q", range(len(ref) + 1))
    ops = [bytes([OP_INS]) * (len(ref) + 1)]
    return [first, *_forward(hyp, ref, lo, hi, 0, first, ops)], ops


def backward_matrix(hyp: Sequence[Hashable], ref: Sequence[Hashable], lo: list[int], hi: list[int]) -> list[Row]:
    """The cheapest completion from every cell of the beam to the last cell, one row per
    ``i = 0 .. len(hyp)`` (the mirror of the forward matrix: ``min_j forward[i][j] +
    backward[i][j]`` is the edit distance for every row ``i``)."""
    n, m = len(hyp), len(ref)
    rows: list[Row] = [array("q")] * (n + 1)
    rows[n] = array("q", range(m - lo[n], m - hi[n], -1))
    for i in range(n - 1, -1, -1):
        word = hyp[i]
        nxt, nlo, nhi = rows[i + 1], lo[i + 1], hi[i + 1]
        clo, chi = lo[i], hi[i]
        row = [INF] * (chi - clo)
        for j in range(chi - 1, clo - 1, -1):
            best = row[j + 1 - clo] + 1 if j + 1 < chi else INF
            if nlo <= j < nhi:
                best = min(best, nxt[j - nlo] + 1)
            if j < m and nlo <= j + 1 < nhi:
                best = min(best, nxt[j + 1 - nlo] + (word != ref[j]))
            row[j - clo] = min(best, INF)
        rows[i] = array("q", row)
    return rows


def trace_moves(ops: list[bytes], lo: list[int], n_hyp: int, n_ref: int) -> list[int]:
    """The moves from the origin to the last cell (read back from the last cell)."""
    out = []
    i, j = n_hyp, n_ref
    while i > 0 or j > 0:
        move = ops[i][j - lo[i]]
        out.append(move)
        if move in (OP_NOP, OP_SUB):
            i -= 1
            j -= 1
        elif move == OP_INS:
            j -= 1
        elif move == OP_DEL:
            i -= 1
        else:  # cannot happen: the beam always connects the corners
            raise AssertionError(f"TER: no move into cell ({i}, {j}) of the beamed edit distance")
    out.reverse()
    return out


def _alignment(moves: list[int], n_hyp: int, n_ref: int) -> tuple[list[int], list[int], list[int]]:
    """``(align, hyp_err, ref_err)`` of a trace: for reference word ``j``, ``align[j]`` is the
    position of the last hypothesis word at or before it in the alignment (-1: none);
    ``hyp_err``/``ref_err`` are 1 for words substituted, inserted or deleted."""
    align = [0] * n_ref
    hyp_err = [0] * n_hyp
    ref_err = [0] * n_ref
    i = j = 0
    for move in moves:
        if move in (OP_NOP, OP_SUB):
            err = int(move == OP_SUB)
            hyp_err[i] = ref_err[j] = err
            align[j] = i
            i += 1
            j += 1
        elif move == OP_INS:
            ref_err[j] = 1
            align[j] = i - 1
            j += 1
        else:
            hyp_err[i] = 1
            i += 1
    return align, hyp_err, ref_err


# --------------------------------------------------------------------------------------------
# Shifts
# --------------------------------------------------------------------------------------------
def shifted(words: list[Any], start: int, length: int, target: int) -> list[Any]:
    """``words`` with the block ``words[start:start + length]`` moved before position
    ``target`` (sacreBLEU's three cases; the third, ``start <= target <= start + length``,
    swaps the block with the ``target - start`` words after it)."""
    end = start + length
    if target < start:
        return words[:target] + words[start:end] + words[target:start] + words[end:]
    if target > end:
        return words[:start] + words[end:target] + words[start:end] + words[target:]
    return words[:start] + words[end : length + target] + words[start:end] + words[length + target :]


def changed_span(n: int, start: int, length: int, target: int) -> tuple[int, int]:
    """The positions ``a .. b - 1`` that :func:`shifted` may change (the rest stay in place)."""
    end = start + length
    if target < start:
        return target, end
    if target > end:
        return start, target
    return start, min(n, length + target)


def _next_error(err: list[int]) -> list[int]:
    """``out[p]``: the first position >= p in error (``len(err)`` if none)."""
    out = [len(err)] * (len(err) + 1)
    for p in range(len(err) - 1, -1, -1):
        out[p] = p if err[p] else out[p + 1]
    return out


def translation_edit_rate(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> tuple[int, int]:
    """The number of edits (shifts + beamed edit distance) that turn a hypothesis into a
    reference, and the reference length: sacreBLEU's ``lib_ter.translation_edit_rate``.

    Args:
        words_hyp: the hypothesis tokens (any hashable values compared with ``==``; TER's are
            ``str``).
        words_ref: the reference tokens.

    Returns:
        ``(num_edits, len(words_ref))``; ``(len(words_hyp), 0)`` for an empty reference.

    Raises:
        ValueError: more than :data:`MAX_WORDS` words in either.
    """
    check_words(len(words_hyp), "the hypothesis")
    check_words(len(words_ref), "the reference")
    n_ref = len(words_ref)
    if n_ref == 0:
        return len(words_hyp), 0
    words = list(words_hyp)
    ref = list(words_ref)
    if words == ref:
        return 0, n_ref
    n = len(words)
    lo, hi = beam(n, n_ref)
    positions: dict[Hashable, list[int]] = {}
    for r, word in enumerate(ref):
        positions.setdefault(word, []).append(r)
    shifts = 0
    checked = 0
    while True:
        fwd, ops = forward_matrix(words, ref, lo, hi)
        dist = fwd[n][n_ref - lo[n]]
        bwd = backward_matrix(words, ref, lo, hi)
        align, hyp_err, ref_err = _alignment(trace_moves(ops, lo, n, n_ref), n, n_ref)
        next_h, next_r = _next_error(hyp_err), _next_error(ref_err)
        best: tuple[int, int, int, int] | None = None
        for h in range(n):
            if next_h[h] >= h + MAX_SHIFT_SIZE:
                continue  # no block starting here holds a hypothesis error
            word_h = words[h]
            found = positions.get(word_h, ())
            k = bisect_left(found, h - MAX_SHIFT_DIST)
            while k < len(found) and found[k] <= h + MAX_SHIFT_DIST:  # ascending r, |r - h| <= 50
                r = found[k]
                k += 1
                common = 1
                while common < MAX_SHIFT_SIZE and h + common < n and r + common < n_ref:
                    if words[h + common] != ref[r + common]:
                        break
                    common += 1
                for length in range(1, common + 1):
                    if next_h[h] >= h + length or next_r[r] >= r + length or h <= align[r] < h + length:
                        continue
                    previous = -1
                    for offset in range(-1, length):
                        target = 0 if r + offset == -1 else align[r + offset] + 1
                        if target == previous:
                            continue
                        previous = target
                        checked += 1
                        if target == h:  # the identity
                            gain = 0
                        else:
                            a, b = changed_span(n, h, length, target)
                            new = shifted(words, h, length, target)
                            row_b = _forward(new[a:b], ref, lo, hi, a, fwd[a], last_only=True)[0]
                            gain = dist - min(x + y for x, y in zip(row_b, bwd[b], strict=True))
                        key = (gain, length, -h, -target)
                        if best is None or key > best:
                            best = key
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return shifts + dist, n_ref
        if best is None or best[0] <= 0:
            return shifts + dist, n_ref
        words = shifted(words, -best[2], best[1], -best[3])
        shifts += 1


def fewest_edits(
    words: Sequence[Hashable],
    refs: Sequence[Sequence[Hashable]],
    edit_rate: Callable[[Sequence[Hashable], Sequence[Hashable]], tuple[int, int]] = translation_edit_rate,
) -> tuple[int, float]:
    """A segment's TER statistics, sacreBLEU's ``_compute_segment_statistics``: the fewest edits
    of the hypothesis ``words`` over its references ``refs`` (at least one, each a word list)
    and the mean of the references' lengths (a Python float).  ``edit_rate``:
    :func:`translation_edit_rate` or its compiled twin (the same numbers)."""
    results = [edit_rate(words, ref_words) for ref_words in refs]
    return min(edits for edits, _ in results), sum(length for _, length in results) / len(refs)


def beam_edit_distance(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> tuple[int, str]:
    """The beamed edit distance of ``words_hyp`` against ``words_ref`` and its trace (one
    letter per move, see :data:`TRACE_LETTERS`), as sacreBLEU's ``BeamEditDistance``."""
    n, m = len(words_hyp), len(words_ref)
    lo, hi = beam(n, m)
    fwd, ops = forward_matrix(words_hyp, words_ref, lo, hi)
    trace = "".join(TRACE_LETTERS[x] for x in trace_moves(ops, lo, n, m))
    return fwd[n][m - lo[n]], trace


# --------------------------------------------------------------------------------------------
# Statistics and scores
# --------------------------------------------------------------------------------------------
def check_words(n_words: int, where: str) -> None:
    """The one limit on a segment's length: ``ValueError`` beyond :data:`MAX_WORDS` words,
    naming ``where`` (e.g. ``"segment 3: the hypothesis"``)."""
    if n_words > MAX_WORDS:
        raise ValueError(
            f"{where} has {n_words} words after tokenization, more than TER's limit of {MAX_WORDS} "
            "(the cost of a segment grows with its length); split it into shorter segments"
        )


#: The most characters a string has after lowercasing, per character before (``str.lower``
#: turns U+0130 into two; tests/test_ter_cost.py checks every code point).
LOWER_GROWTH = 2


def _word_functions(options: TEROptions) -> tuple[Callable[[str], list[str]], Callable[[str], list[str]]]:
    """The words of a hypothesis and of a reference, as sacreBLEU's TER preprocesses them (see
    :func:`segment_words`)."""
    switches = option_values(options)
    normalized, no_punct, _, _ = switches

    def once(sent: str) -> list[str]:
        return tercom_words(sent.rstrip(), *switches)

    def twice(sent: str) -> list[str]:
        return tercom_words(" ".join(once(sent)), *switches)

    # Without normalized and no_punct the tokenizer only lowercases and splits, and lowercasing
    # lowercased text changes nothing (tests/test_ter.py checks every code point): once is twice.
    return once, (twice if normalized or no_punct else once)


def check_segment_rules(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    options: TEROptions,
) -> None:
    """Every segment's rules, checked before any segment is tokenized: the stream lengths, at
    least one reference per segment and :data:`MAX_WORDS` (each error names the first segment
    that breaks a rule, as a pass over the segments in order would meet it).

    Cheap: a string has at most ``LOWER_GROWTH * len(s)`` words after tokenization (lowercasing
    grows a string by at most that factor; tercom's normalizer only deletes characters or
    inserts spaces; every word holds a character), so only a string longer than ``MAX_WORDS //
    LOWER_GROWTH`` characters is tokenized here, to count its words.

    Raises:
        ValueError: as :func:`segment_words`.
    """
    n = len(hypotheses)
    for k, stream in enumerate(ref_streams):
        if len(stream) != n:
            raise stream_length_error(f"reference stream {k}", len(stream), n, n_streams=len(ref_streams))
    short = MAX_WORDS // LOWER_GROWTH
    if (
        ref_streams
        and max(map(len, hypotheses), default=0) <= short
        and all(
            None not in stream and max(map(len, cast("Sequence[str]", stream)), default=0) <= short
            for stream in ref_streams
        )
    ):
        return  # the common case, in C loops: every text short, every segment with references
    once, ref_words_of = _word_functions(options)
    for i, hyp in enumerate(hypotheses):
        if len(hyp) > short:
            check_words(len(once(hyp)), f"segment {i}: the hypothesis")
        seen = False
        for k, stream in enumerate(ref_streams):
            ref = stream[i]
            if ref is not None:
                seen = True
                if len(ref) > short:
                    check_words(len(ref_words_of(ref)), f"segment {i}: the reference of stream {k}")
        if not seen:
            raise no_reference_error(i)


def segment_words(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    options: TEROptions,
) -> Iterator[tuple[list[str], list[list[str]]]]:
    """Each segment preprocessed as sacreBLEU's TER does, one at a time: ``(hypothesis words,
    [words of each reference])`` (``None`` references left out).  Every segment is checked
    first, before any is tokenized (:func:`check_segment_rules`).

    A hypothesis is right-stripped, tokenized and split on whitespace.  A reference is
    tokenized *twice* (sacreBLEU's ``_cache_references`` preprocesses each reference and its
    TER ``_extract_reference_info`` preprocesses the result again), which differs from once
    with ``normalized``: ``"Jim's."`` gives ``jim's .`` once and ``jim 's .`` twice.  Kept, so
    that scores stay sacreBLEU's (the README says so).

    Raises:
        ValueError: a stream of another length than the hypotheses, a segment without any
            reference or with too many words, each named; all at the call, before any work.
    """
    check_segment_rules(hypotheses, ref_streams, options)
    once, ref_words_of = _word_functions(options)

    def segments() -> Iterator[tuple[list[str], list[list[str]]]]:
        # The words yielded are checked again: they are what the kernels size their work by,
        # and a caller's lists may have changed (another thread) since the first check.
        for i, hyp in enumerate(hypotheses):
            words = once(hyp)
            check_words(len(words), f"segment {i}: the hypothesis")
            refs = []
            for k, stream in enumerate(ref_streams):
                ref = stream[i]
                if ref is not None:
                    refs.append(ref_words_of(ref))
                    check_words(len(refs[-1]), f"segment {i}: the reference of stream {k}")
            if not refs:
                raise no_reference_error(i)
            yield words, refs

    return segments()


def plain_streams(hypotheses: Any, ref_streams: Any) -> bool:
    """Whether the input is the plain case that every check of a corpus call passes: a non-empty
    ``list`` of ``str`` hypotheses and a non-empty ``list`` of reference streams, each a
    ``list`` of ``str`` (no ``None``, no subclass) as long as the hypotheses.  Then
    ``check_hypotheses`` and ``check_references`` have nothing to find, and a front door may
    skip them (the compiled twin decides it in one C loop over the items).

    Returns:
        bool: True in that case, else False (the checks then run and name what is wrong).
    """
    if type(hypotheses) is not list or not hypotheses or type(ref_streams) is not list or not ref_streams:
        return False
    n = len(hypotheses)
    if not all(type(s) is list and len(s) == n for s in ref_streams):
        return False
    return set(map(type, hypotheses)) == {str} and all(set(map(type, s)) == {str} for s in ref_streams)


def ter_stats(
    hypotheses: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    options: TEROptions,
    workers: int = 1,
) -> np.ndarray:
    """Per-segment TER statistics of raw strings, as sacreBLEU's ``TER._extract_corpus_statistics``.

    Each segment is right-stripped, tokenized by tercom's normalizer
    (:class:`~rapidbleu.tokenizers.tokenizer_ter.TercomTokenizer` with the four switches;
    references twice, as sacreBLEU does, see :func:`segment_words`) and split on
    whitespace.

    Args:
        hypotheses: n hypothesis strings.
        ref_streams: reference streams (sacreBLEU's layout): K lists of n items, each a ``str``
            or ``None`` (no reference in that stream for that segment).
        options: :class:`TEROptions` (:func:`option_values`): the tokenizer's four switches
            (``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``; a missing
            one is off).
        workers: threads for the compiled twin (``rapidbleu._core.validate.resolve_workers``);
            checked here, computed serially.

    Returns:
        float64 array (n, 2): ``[num_edits, avg_ref_length]`` per segment: the fewest edits
        (shifts + beamed edit distance, see the module documentation) over the segment's
        references, and the mean of their lengths in words (``sum / count``, Python's division).

    Raises:
        ValueError: a stream of another length than the hypotheses, a segment without any
            reference, a hypothesis or reference of more than :data:`MAX_WORDS` words (each
            naming the segment), or a bad ``workers``; all before any edit is computed.
        TypeError: a bad ``workers``.
    """
    # every segment checked before any edit is computed
    segments = list(segment_words(hypotheses, ref_streams, options))
    out = np.empty((len(segments), 2), dtype=np.float64)
    for i, (words, seg) in enumerate(segments):
        out[i] = fewest_edits(words, seg)
    return out


def ter_sentence_row(hypothesis: str, references: Sequence[str | None], options: TEROptions) -> list[float]:
    """The statistics of one segment: ``ter_stats([hypothesis], [[r] for r in references],
    options)[0]`` as a list of two Python floats ``[num_edits, avg_ref_length]``, with its errors,
    for the sentence-level entries a Python loop calls once per segment (the compiled twin builds
    no array and starts no thread; see ``ter_one.pxi`` for its memory).

    Args:
        hypothesis: the hypothesis string.
        references: its references (``str`` or ``None``; ``None`` skipped).
        options: as :func:`ter_stats`.

    Raises:
        TypeError: a hypothesis or reference that is not a ``str`` (``None`` references aside).
        ValueError: no ``str`` reference, a text of more than :data:`MAX_WORDS` words.
    """
    for text in (hypothesis, *references):
        if text is not None and not isinstance(text, str):
            raise TypeError(f"TER: a segment is a {type(text).__name__}, expected str")
    if hypothesis is None:
        raise TypeError("TER: a segment is a NoneType, expected str")
    ((words, refs),) = segment_words([hypothesis], [[r] for r in references], options)
    best, mean_length = fewest_edits(words, refs)
    return [float(best), mean_length]


def ter_of_row(row: Sequence[Any]) -> Any:
    """TER (0-100) of one statistics row ``[num_edits, ref_length]`` (a list, as
    :func:`ter_sentence_row` gives it): :func:`ter_from_stats` of its two values, the scoring of a
    sentence-level call.

    Raises:
        ValueError: a row of another length than 2.
    """
    values = list(row)
    if len(values) != 2:
        raise ValueError(f"a TER row has 2 values [num_edits, ref_length], got {len(values)}")
    return ter_from_stats(values[0], values[1])


def ter_pairwise_scores(
    sentences: Sequence[str],
    options: TEROptions,
    workers: int = 1,
    references: Sequence[str] | None = None,
) -> np.ndarray:
    """The pairwise sentence-TER matrix of n sentences, each tokenized once as a hypothesis and
    once as a reference (:func:`segment_words`' rules) and its words compared for every pair;
    with ``references`` (m strings), the n sentences (hypotheses) against them, each sentence
    tokenized once as what it is.

    Args:
        sentences: n strings.
        options: :class:`TEROptions` (:func:`option_values`): the tokenizer's four switches
            (``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``; a missing
            one is off).
        workers: threads for the compiled twin (checked where it enters: ``TER(workers=...)``);
            computed serially here.
        references: None (the sentences against themselves) or m strings.

    Returns:
        float64 array (n, n), or (n, m) with ``references``: ``out[i, j]`` is sentence i's TER
        (0-100) against sentence (or reference) j as its one reference, :func:`ter_from_stats`
        of :func:`translation_edit_rate`'s ``(edits, length)``: sacreBLEU's
        ``sentence_score(s_i, [r_j]).score``.

    Raises:
        ValueError: a sentence of more than :data:`MAX_WORDS` words (named), before any edit is
            computed.
    """
    sents = list(sentences)
    others = None if references is None else list(references)
    check_cross_rules(sents, others, options)
    once, ref_words_of = _word_functions(options)
    hyps = [once(s) for s in sents]
    if others is None:
        refs = hyps if ref_words_of is once else [ref_words_of(s) for s in sents]
    else:
        refs = [ref_words_of(s) for s in others]
    out = np.empty((len(hyps), len(refs)), dtype=np.float64)
    for i, words in enumerate(hyps):
        for j, ref_words in enumerate(refs):
            out[i, j] = ter_from_stats(*translation_edit_rate(words, ref_words))
    return out


def check_cross_rules(
    sentences: Sequence[str],
    references: Sequence[str] | None,
    options: TEROptions,
) -> None:
    """:func:`ter_pairwise_scores`' sentences (and references) within :data:`MAX_WORDS` words,
    checked before any is tokenized for scoring (as :func:`check_segment_rules`).

    Raises:
        ValueError: the first sentence (``sentence i``), then reference (``reference j``), that
            is too long."""
    if references is None:
        check_segment_rules(sentences, [sentences], options)
        return
    once, ref_words_of = _word_functions(options)
    short = MAX_WORDS // LOWER_GROWTH
    for what, texts, words_of in (("sentence", sentences, once), ("reference", references, ref_words_of)):
        for i, text in enumerate(texts):
            if len(text) > short:
                check_words(len(words_of(text)), f"{what} {i}")


#: The numpy types statistics may be held in, besides Python numbers (``dtype=None``).
SCORE_DTYPES = ("int64", "float64", "float32")


def ter_from_stats(num_edits: Any, ref_length: Any) -> Any:
    """TER (0-100) from summed statistics, sacreBLEU's ``_compute_score_from_stats`` rule, in
    the arithmetic of the values given (Python numbers, or numpy scalars: float32 stays float32):
    ``100 * num_edits / ref_length``; ``100 * 1.0`` when ``ref_length`` is not > 0 and there
    are edits (empty references, non-empty hypothesis); ``100 * 0.0`` otherwise."""
    if ref_length > 0:
        score = num_edits / ref_length
    elif num_edits > 0:
        score = 1.0
    else:
        score = 0.0
    return 100 * score


def check_sums(sums: Any, dtype: Any) -> np.ndarray:
    """``sums`` as a 2-D array of 2 columns in ``dtype`` (None: float64).  For ``dtype=None``
    (Python numbers) a matrix holding integers beyond 2**53 (an object array, or integer
    array) comes back as an object array of Python numbers: sacreBLEU divides the Python int,
    which a float64 would round, so both twins score it with :func:`ter_from_stats` on them.

    Raises:
        ValueError: another shape, or a ``dtype`` other than None, int64, float64, float32.
    """
    arr = np.asarray(sums)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"TER statistics must have shape (m, 2) ([num_edits, ref_length] per row), got {arr.shape}")
    if dtype is not None and np.dtype(dtype).name not in SCORE_DTYPES:
        raise ValueError(f"dtype must be None, numpy.int64, numpy.float64 or numpy.float32, got {dtype!r}")
    if dtype is None and (arr.dtype == object or (arr.dtype.kind in "iu" and arr.size and arr.max() > MAX_EXACT_COUNT)):
        return np.array(arr.tolist(), dtype=object).reshape(arr.shape)
    return arr.astype(np.float64 if dtype is None else dtype, copy=False)


def ter_scores(sums: Any, dtype: Any = None) -> np.ndarray:
    """TER (0-100) of every row of summed statistics, computed as sacreBLEU computes it when the
    values are held in ``dtype``.

    Args:
        sums: (m, 2) ``[num_edits, ref_length]`` rows (column sums of :func:`ter_stats` rows).
        dtype: ``None`` (Python numbers: corpus and sentence scores), ``numpy.int64`` (values
            truncated to integers first), ``numpy.float64``, or ``numpy.float32`` (bootstrap
            resamples: sacreBLEU sums float32 rows, so the division and the ``100 *`` are
            float32 operations; values are rounded to float32 first).

    Returns:
        ``(m,)``: each row's :func:`ter_from_stats`, in the type ``numpy.array`` gives
        sacreBLEU's scores of the rows: float32 where every score of a float32 row is a numpy
        float32, float64 otherwise (a Python float among them: the ``100.0`` or ``0.0`` of a row
        without reference words).

    Raises:
        ValueError: not an (m, 2) array, or another ``dtype``.
    """
    arr = check_sums(sums, dtype)
    out = np.empty(len(arr), dtype=np.float64)
    rows = arr.tolist() if dtype is None else arr
    every_f32 = arr.dtype == np.float32
    for i, row in enumerate(rows):
        score = ter_from_stats(row[0], row[1])
        every_f32 = every_f32 and isinstance(score, np.float32)
        out[i] = score
    return out.astype(np.float32) if every_f32 else out
