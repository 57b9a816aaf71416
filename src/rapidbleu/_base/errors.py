"""Every exception type, warning and error message of rapidbleu, each written once.

* **Types.**  Where sacreBLEU or NLTK raises another exception type for the same mistake, the
  error is an instance of both (a small subclass below: ``NoReferencesError`` is a
  ``ValueError``, a ``KeyError`` as NLTK raises and a ``TypeError`` as sacreBLEU raises), so
  ``except`` clauses written for them still catch it while the message stays ours.  The public
  modules re-export the public ones under their usual names (``rapidbleu.nltk``'s,
  ``rapidbleu.stats.ConfigMismatchError``, ``rapidbleu.BackendFallbackWarning``,
  ``rapidbleu.SegmentMajorReferencesWarning``, ``rapidbleu.textio.InputError``, ...).
  :data:`USER_ERRORS` is what the command line reports as one line.
* **Warnings** point at the user's line: :func:`warn_outside` (the first frame outside the
  package, however deep inside it the warning starts).
* **Messages.**  Every function below returns an exception instance (the caller raises it, so
  the traceback points at the check) and takes only what the message names: both twins of a
  kernel (the Python oracle and the compiled core) raise what these return, and every entry
  point that refuses the same mistake raises the same words.

The checks themselves are in ``rapidbleu._core.validate`` (arguments) and
``rapidbleu._core.inputs`` (inputs); this module imports nothing of the package.  Also here:
the message of an unknown metric id (``rapidbleu.registry`` and every part that takes a metric
by name).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

# ============================================================================================
# Exception types
# ============================================================================================


class NoneHypothesisError(ValueError, TypeError):
    """A hypothesis is ``None`` (sacreBLEU: a ``TypeError`` from deep inside the tokenizer)."""


class UnknownSmoothingError(ValueError, AssertionError):
    """``smooth_method`` is not one of sacreBLEU's four (sacreBLEU: ``AssertionError``)."""


class UnknownTokenizerError(ValueError, KeyError):
    """``tokenize`` names no known tokenizer (sacreBLEU: ``KeyError``)."""

    # KeyError.__str__ would print the message quoted, as a dictionary key.
    __str__ = BaseException.__str__


class EmptyInputError(ValueError, IndexError):
    """No hypotheses, or no references (sacreBLEU: an ``IndexError`` from indexing them)."""


class BadSmoothValueError(ValueError, TypeError):
    """``smooth_value`` that is not a finite number >= 0 (sacreBLEU: a ``TypeError`` for a
    non-number from its arithmetic, or a nan/inf score)."""


class TooLargeError(ValueError, OverflowError):
    """An option too large for sacreBLEU's arithmetic (a chrF ``beta`` whose square overflows;
    sacreBLEU: an ``OverflowError`` when it scores)."""


class NoReferencesError(ValueError, KeyError, TypeError, ZeroDivisionError):
    """A segment without any reference: a ``ValueError``; a ``KeyError`` as NLTK raises for an
    empty list of references (from deep inside its n-gram counting), a ``TypeError`` as
    sacreBLEU's BLEU raises when every reference of a segment is ``None``, and a
    ``ZeroDivisionError`` as its TER raises there."""

    # KeyError.__str__ would print the message quoted, as a dictionary key.
    __str__ = BaseException.__str__


class LengthMismatchError(ValueError, AssertionError):
    """Different numbers of hypotheses and reference lists (NLTK: a bare ``assert``)."""


class EmptyCorpusError(ValueError, ZeroDivisionError):
    """``corpus_bleu`` of no hypotheses (NLTK: ``ZeroDivisionError`` from ``Fraction(0, 0)``)."""


class SmoothingError(ValueError, AssertionError, IndexError):
    """Smoothing method 6 cannot be applied (NLTK: ``AssertionError`` or ``IndexError``)."""

    #: Set by the batch functions of ``rapidbleu.nltk``: the row the error is about, and the
    #: message without the row (for callers that name the row another way).
    row: int | None = None
    reason: str | None = None


class ConfigMismatchError(ValueError):
    """Statistics computed with different settings were merged (a ``ValueError``)."""


class BackendChoiceError(ValueError):
    """``RAPIDBLEU_BACKEND`` (or a backend choice) is not ``auto``, ``cython`` or ``python``."""


class BackendUnavailableError(ImportError):
    """``RAPIDBLEU_BACKEND=cython`` but the compiled extension cannot be imported."""


class NotProvidedError(ModuleNotFoundError):
    """A sacreBLEU module or name that rapidbleu does not provide.

    A ``ModuleNotFoundError`` (hence an ``ImportError``).  No sacreBLEU 2.6.0 name raises it
    today (the test sets, the last names missing, are ``rapidbleu.dataset``); the type stays
    public so that code catching it keeps working.
    """


class InputError(Exception):
    """An input could not be read as text, or its lines do not fit the others; the message names
    the file (and line).  ``code``: the exit status the command line ends with (1 unless given)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


class DownloadError(RuntimeError):
    """A file that rapidbleu fetches (a test set, a SentencePiece model) is neither in the cache
    nor downloadable: offline, refused (an HTTP error), interrupted, stalled past the timeout, its
    MD5 sum wrong, or an archive that would write outside the cache.  The message names the URL,
    the cache path and what to do; nothing partial is left where a later run would take it as
    complete (``rapidbleu._base.fetch``)."""


class ModelDownloadError(DownloadError):
    """A SentencePiece model was not found locally and could not be downloaded."""


class TestSetError(ValueError, KeyError):
    """An unknown test set, language pair, field, origlang or subset (``-t``, ``-l``, ``--echo``,
    ``rapidbleu.dataset``): the message names what was asked for and what exists.  A
    ``KeyError`` too, as a lookup in ``DATASETS`` raises."""

    __test__ = False  # not a pytest test class

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BackendFallbackWarning(RuntimeWarning):
    """The compiled core is not available and the pure-Python backend runs (``auto`` mode): the
    one warning of a pure-Python install, once per process."""


class SegmentMajorReferencesWarning(UserWarning):
    """References given one list per segment (``[[ref] for ref in golds]``) where reference
    streams are expected, in a layout that cannot be streams: rapidbleu scores them as one list
    per segment (the corpus the caller meant; sacreBLEU would score only part of it, without a
    word).  Shown once per process (``rapidbleu._core.inputs.segment_major_streams`` decides the
    layout and holds the flag); its message is :func:`segment_major_warning`'s."""


class CLIError(Exception):
    """An error of the command line to report on stderr with an exit code (1 unless given)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


#: Exit status of a usage error: argparse's (sacreBLEU's for an unknown metric, a bad choice or
#: a value of the wrong type).
USAGE_CODE = 2


class UsageError(CLIError):
    """A command line that cannot mean anything: an option value out of range or options that
    do not go together.  Reported as argparse reports its own usage errors (the usage line,
    then ``rapidbleu: error: ...``) with exit status 2, as sacreBLEU's usage errors."""

    def __init__(self, message: str) -> None:
        super().__init__(message, USAGE_CODE)


#: What the command line reports as one line (``rapidbleu: error: ...``, the error's ``code``
#: or 1) instead of a traceback: rapidbleu's own types for bad input, options and settings
#: (:class:`CLIError` and :class:`UsageError`, which the command line's checks raise for every
#: value it refuses; :class:`InputError`, a file that cannot be read; a bad backend choice or a
#: missing compiled core; an option too large to score) and the built-in types its code raises
#: for a missing optional extra (``ImportError``, with the ``pip install`` line), a test set or
#: SentencePiece model that is neither in the cache nor downloadable (:class:`DownloadError`,
#: :class:`ModelDownloadError` under it; ``FileNotFoundError``), and an unknown test set, pair or
#: field (:class:`TestSetError`).  Anything else is a bug and keeps its traceback.
USER_ERRORS: tuple[type[Exception], ...] = (
    CLIError,
    InputError,
    DownloadError,
    TestSetError,
    BackendChoiceError,
    BackendUnavailableError,
    TooLargeError,
    ImportError,
    FileNotFoundError,
)


# ============================================================================================
# Warnings
# ============================================================================================

#: The package's folder, as frames name their files (plain strings, as ``co_filename`` holds
#: them: pathlib's ``resolve()`` would follow links).
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # noqa: PTH100, PTH120


def warn_outside(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` pointing at the first frame outside the rapidbleu
    package: the user's line, wherever inside the package (and however deep) the warning starts,
    so no caller counts frames (``skip_file_prefixes`` from Python 3.12, a walk up the frames
    before)."""
    if sys.version_info >= (3, 12):
        warnings.warn(message, category, skip_file_prefixes=(_PACKAGE_DIR,))
        return
    frame: FrameType | None = sys._getframe(1)  # 1: this function; 2: its caller
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):  # noqa: PTH100
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


def warn_all_empty(what: str, n: int, cleaning: str) -> None:
    """Cleaning left every one of ``n`` hypotheses empty: one ``RuntimeWarning`` (every score
    is 0, which as a reward or a metric is almost always a misconfigured special id)."""
    warn_outside(
        f"rapidbleu: cleaning the token ids ({cleaning}) left all {n} {what} empty, so every score is 0; "
        "check the special ids against the model's generation config (an all-zero BLEU is almost always a bug)",
        RuntimeWarning,
    )


# ============================================================================================
# Messages
# ============================================================================================


def missing_extra_error(door: str, needs: str, extra: str) -> ImportError:
    """An optional dependency of ``rapidbleu.<door>`` that is not installed."""
    return ImportError(f"rapidbleu.{door} needs {needs}: pip install 'rapidbleu[{extra}]'")


def missing_columns_error(missing: list[str], container: str, columns: list[str]) -> ValueError:
    """Columns named for the hypotheses or references that the ``container`` (a DataFrame, a
    Dataset) does not have."""
    return ValueError(f"no column {', '.join(map(repr, missing))} in the {container} (columns: {columns})")


def not_utf8_error(what: str, error: UnicodeDecodeError) -> ValueError:
    """Text given as bytes that do not decode as UTF-8 (the rewards decode bytes so), naming
    the item and the first bad byte."""
    return ValueError(f"{what} is bytes that are not UTF-8 ({error.reason} at byte {error.start}); give text (str)")


def kind_of(x: object) -> str:
    """How a message names the type of a value given: its class's name."""
    return type(x).__name__


def no_reference_error(i: int) -> NoReferencesError:
    """The one message (and type) for a segment left without any reference."""
    return NoReferencesError(f"segment {i} has no reference (each hypothesis needs at least one)")


def id_element_error(what: str, j: int, token: object) -> TypeError:
    """The one message for an id sequence holding something other than an integer: it names
    the item (``None``, a float, ...) and its position."""
    if token is None:
        return TypeError(f"{what}[{j}] is None; token ids must be integers")
    return TypeError(f"{what}[{j}] is a {kind_of(token)} ({token!r}); token ids must be integers")


#: The largest count a statistics row may hold: every integer up to 2**53 is a float64 exactly,
#: so the twins' arithmetic (Python ints and Fractions against C doubles) gives the same float
#: for any row within it, ``count + 1`` included (NLTK's smoothing method 2); beyond, a brevity
#: penalty's ``r / c`` could round differently.
MAX_EXACT_COUNT = 2**53 - 1


#: The largest value numpy int64 holds (sacreBLEU's approximate-randomization trials hold counts
#: in int64).
INT64_MAX = 2**63 - 1


def quote_stat(value: object) -> str:
    """A statistic as an error quotes it: the value the caller gave (``repr``); an integer of
    more than 30 digits by its length and approximate value, or beyond float64 by its bits."""
    if isinstance(value, int) and value.bit_length() > 99:
        try:
            approx = f"{float(value):.6g}"
        except OverflowError:
            return f"an integer of {value.bit_length()} bits"
        digits = len(str(abs(value)))
        if digits > 30:
            return f"an integer of {digits} digits (about {approx})"
    return repr(value)


def held_error(
    what: str, row: int, column: int, name: str, value: object, dtype: str, held: str | None = None
) -> ValueError:
    """A statistic that the numpy type it must be held in (``dtype``; ``held`` says what that
    type is to the caller, by default the scores' arithmetic) cannot hold."""
    held = held or "the type they are scored in"
    return ValueError(
        f"{what}: row {row}, column {column} ({name}) is {quote_stat(value)}, which numpy {dtype} ({held}) cannot hold"
    )


def resample_range_error(what: str, row: int, column: int, name: str, value: object, n: int) -> ValueError:
    """Statistics whose resamples could sum beyond exact float64 integers."""
    return ValueError(
        f"{what}: row {row}, column {column} ({name}) is {quote_stat(value)}; with {n} segments a bootstrap "
        f"resample or randomization trial could sum to {n} times that, beyond 2**53 - 1, where the float64 "
        "and int64 sums of resamples and trials (and BLEU's scores of them) stop being exact"
    )


def _where(what: str | None) -> str:
    return f"{what}: " if what else ""


def stats_shape_error(shape: tuple[int, ...], max_ngram_order: int) -> ValueError:
    """A statistics matrix that is not (n, 2 + 2N)."""
    width = 2 + 2 * max_ngram_order
    return ValueError(
        f"stats must have shape (n, {width}) for max_ngram_order={max_ngram_order} "
        f"([hyp_len, ref_len, matches_1..N, totals_1..N] per row), got {shape}"
    )


def stats_dtype_error(dtype: object) -> ValueError:
    """An arithmetic other than Python ints, numpy int64 or numpy float32."""
    return ValueError(f"dtype must be None, numpy.int64 or numpy.float32, got {dtype!r}")


def stats_range_error(row: int, column: int, value: object) -> ValueError:
    """A statistic that is negative, not finite or beyond :data:`MAX_EXACT_COUNT`."""
    return ValueError(
        f"stats: row {row}, column {column} is {quote_stat(value)}; statistics must be counts from 0 to 2**53 - 1 "
        "(beyond, a float64 cannot hold every count exactly)"
    )


def addk_overflow_error(smooth_value: object) -> OverflowError:
    """add-k on int64 statistics (sacreBLEU's approximate randomization) beyond exact counts."""
    return OverflowError(
        f"add-k smooth_value={smooth_value!r} takes an n-gram count held in numpy int64 past 2**53 - 1 "
        "(sacreBLEU's approximate randomization adds it to int64 counts; past 2**63 - 1 numpy fails)"
    )


def float_method_error(method: object, methods: tuple[int, ...]) -> ValueError:
    """An NLTK smoothing method that the float scorer does not compute."""
    return ValueError(f"nltk_scores computes smoothing methods {methods}, got {method!r}")


def weights_count_error(n_weights: int, max_ngram_order: int) -> ValueError:
    """NLTK weights for no order, or for more orders than the statistics hold (the one wording,
    from the scoring kernels and every entry point that scores statistics)."""
    if n_weights == 0:
        return ValueError("weights must have at least one order")
    return ValueError(f"weights have {n_weights} n-gram orders but the statistics hold only {max_ngram_order}")


def weights_limit_error(n_weights: int, limit: int) -> ValueError:
    """NLTK weights for more orders than rapidbleu counts (``limit``: ``MAX_ORDER_LIMIT``; NLTK
    scores any number)."""
    return ValueError(f"weights has {n_weights} entries (n-gram orders); rapidbleu supports at most {limit}")


def weights_order_error(n_weights: int, max_ngram_order: int) -> ValueError:
    """NLTK weights given with a ``max_ngram_order`` they do not have (where the order is BLEU-N,
    N weights)."""
    return ValueError(f"weights has {n_weights} orders but max_ngram_order={max_ngram_order}")


def weight_list_order_error(max_ngram_order: int) -> ValueError:
    """NLTK's list of weight tuples (several scores) given with a ``max_ngram_order`` (one
    BLEU-N)."""
    return ValueError(
        f"max_ngram_order={max_ngram_order} with a list of weight tuples: give one tuple of "
        f"{max_ngram_order} weights, or the weights alone"
    )


def fifth_order_error(method: int, max_ngram_order: int) -> ValueError:
    """NLTK's smoothing methods 5 and 7 on statistics of fewer than 5 orders: they read each
    sentence's 5-gram precision, whatever the weights."""
    return ValueError(
        f"smoothing method {method} reads the 5-gram precision of each sentence (NLTK: "
        f"modified_precision(references, hypothesis, 5)), but stats hold only {max_ngram_order} orders; "
        "compute the statistics with at least 5 orders"
    )


def smoothing_name_error(name: object, names: tuple[str, ...]) -> ValueError:
    """An NLTK smoothing method given by a name that is not ``method0``..``method7``."""
    return ValueError(f"smoothing_function must be one of {', '.join(names)}, got {name!r}")


def last_segment_error(method: int | None) -> ValueError:
    """NLTK's smoothing methods 5-7 on an aggregated row without its last segment's numbers."""
    return ValueError(
        f"smoothing method{method} reads the last segment of the corpus, which statistics "
        "rebuilt from a vector do not hold; merge CorpusStats objects instead"
    )


def scoring_options_error() -> TypeError:
    """Scoring settings (NLTK's ``weights``, ``smoothing_function``, ``auto_reweigh``) given to
    statistics whose metric is scored with the settings it was computed with."""
    return TypeError(
        "sacreBLEU-style statistics are scored with the settings they were computed with; "
        "weights/smoothing_function/auto_reweigh are for NLTK-style statistics"
    )


def reweigh_weights_error(weights: tuple[float, ...]) -> ValueError:
    """NLTK's ``auto_reweigh`` asked for with weights other than its default."""
    return ValueError(
        f"reweigh=True is NLTK's auto_reweigh, which applies to the default weights (0.25, 0.25, 0.25, 0.25) "
        f"only, got {weights}"
    )


def lengths_overrun_error(n_ids: int, what: str | None = None) -> ValueError:
    """Lengths of which one alone is more than the flat buffer holds (``what``: the stream)."""
    return ValueError(f"{_where(what)}the lengths add up to more than the {n_ids} ids in the buffer")


def lengths_sum_error(total: int, n_ids: int, what: str | None = None) -> ValueError:
    """Lengths that do not add up to the flat buffer's size (``what``: the stream)."""
    return ValueError(f"{_where(what)}the lengths sum to {total} but the buffer holds {n_ids} ids")


def no_reference_stream_error() -> ValueError:
    """A flat statistics call without any reference stream."""
    return ValueError("no reference stream")


def hypothesis_length_error(i: int, length: int) -> ValueError:
    """A hypothesis marked absent (length -1) in a flat stream: every segment has one."""
    return ValueError(f"hypothesis {i} has length {length}")


#: What a list of references held segment by segment looks like to a function that takes
#: reference streams (lighteval passes ``[[ref] for ref in golds]``; sacreBLEU then scores only
#: as many segments as the shortest stream has, without a word), and how to turn it around.
SEGMENT_MAJOR = "one list per segment (segment-major, e.g. [[ref] for ref in golds])"
TRANSPOSE = (
    "references must be one list per reference stream (references[k][i]: the k-th reference of "
    "hypothesis i): transpose them with list(zip(*references)), or with "
    "[list(s) for s in itertools.zip_longest(*references)] when segments have different numbers "
    "of references (a missing one becomes None)"
)


def segment_major_warning(n_hyps: int) -> str:
    """The message of :class:`SegmentMajorReferencesWarning`: ``n_hyps`` hypotheses were given
    with as many reference lists, not all of ``n_hyps`` lines (so not reference streams)."""
    return (
        f"rapidbleu: the references look like {SEGMENT_MAJOR}: {counted(n_hyps, 'lists')} for "
        f"{counted(n_hyps, 'hypotheses')}, not all of {counted(n_hyps, 'lines')}, so they cannot be reference "
        "streams; rapidbleu scores them as one list per segment (a segment with fewer references has "
        "None in the later streams). sacreBLEU would read them as reference streams and silently "
        "score only as many hypotheses as the shortest inner list has lines (the first one, for one "
        f"reference a segment). For sacreBLEU's layout, {TRANSPOSE}. This warning is shown once per process."
    )


def counted(n: int, unit: str) -> str:
    """``n`` and ``unit`` (plural), singular for one: ``1 line``, ``1 hypothesis``."""
    if n != 1:
        return f"{n} {unit}"
    return f"1 {'hypothesis' if unit == 'hypotheses' else unit.removesuffix('s')}"


def stream_length_error(
    what: str, got: int, n_hyps: int, unit: str = "lines", n_streams: int | None = None
) -> ValueError:
    """A stream whose length differs from the hypotheses' (``what``: e.g. ``"reference stream
    1"``; ``unit``: what it holds, plural).  ``n_streams``: how many reference streams were
    given; as many as there are hypotheses suggests references held segment by segment, and
    the message then says they may be, and how to transpose them if so (:data:`SEGMENT_MAJOR`,
    :data:`TRANSPOSE`): streams of the wrong length read the same, so it is a question."""
    there = "there is" if n_hyps == 1 else "there are"
    message = f"{what} has {counted(got, unit)} but {there} {counted(n_hyps, 'hypotheses')}"
    if n_streams is not None and n_streams == n_hyps:
        message += f"; as many reference streams as hypotheses: they may be {SEGMENT_MAJOR}; if so, {TRANSPOSE}"
    return ValueError(message)


def streams_differ_error(k: int, got: int, expected: int) -> ValueError:
    """Reference streams of different lengths given without hypotheses (a metric's
    ``references=`` cache): stream ``k`` has ``got`` lines, stream 0 ``expected``."""
    return ValueError(
        f"reference stream {k} has {counted(got, 'lines')} but reference stream 0 has {expected}; "
        f"if they are {SEGMENT_MAJOR}: {TRANSPOSE}"
    )


def cached_references_error(n_hyps: int, n_segments: int, n_streams: int) -> ValueError:
    """A corpus call on cached references (``references=`` given to the metric) with another
    number of hypotheses than the references have segments."""
    message = f"{counted(n_hyps, 'hypotheses')} but the cached references have {counted(n_segments, 'segments')}"
    if n_streams == n_hyps:
        message += (
            f"; as many cached reference streams as hypotheses: they may be {SEGMENT_MAJOR}; if so, {TRANSPOSE}; "
            f"if they are streams, give {counted(n_segments, 'hypotheses')}"
        )
    return ValueError(message)


def not_a_metric_error(got: object, none_ok: bool = False) -> TypeError:
    """A value given as ``metric`` that is not a metric of the protocol (``rapidbleu.BLEU()``,
    ``CHRF()``, ``TER()``, a registered metric); ``none_ok``: None was accepted there too."""
    accepted = "a rapidbleu metric object (rapidbleu.BLEU(), rapidbleu.CHRF(), rapidbleu.TER(), ...)"
    return TypeError(f"metric must be {accepted}{' or None' if none_ok else ''}, got {type(got).__name__}")


def unknown_metric_error(metric_id: object, known: Iterable[str]) -> ValueError:
    """A metric id that is not registered (``rapidbleu.registry``); ``known``: the ids that
    would be accepted where it was given."""
    return ValueError(f"unknown metric {metric_id!r}; known: {', '.join(known)}")
