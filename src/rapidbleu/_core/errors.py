"""The messages of the kernels' errors, each written once: both twins of a kernel (the Python
oracle and the compiled core) raise the exception these functions return, so a message cannot
drift between backends.

Every function returns an exception instance (the caller raises it, so the traceback points at
the check) and takes only what the message names.  The order limits and counts appear in the
message as the caller gives them.

Also here: the message of an unknown metric id (``rapidbleu.registry`` and every part that
takes a metric by name) and the command line's exception types (:class:`CLIError`,
:class:`UsageError`).
"""

from __future__ import annotations

from collections.abc import Iterable

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
    """NLTK weights for no order, or for more orders than the statistics have."""
    return ValueError(f"weights must have 1 to {max_ngram_order} orders, got {n_weights}")


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
    the message then says so and how to transpose them (:data:`SEGMENT_MAJOR`, :data:`TRANSPOSE`)."""
    there = "there is" if n_hyps == 1 else "there are"
    message = f"{what} has {counted(got, unit)} but {there} {counted(n_hyps, 'hypotheses')}"
    if n_streams is not None and n_streams == n_hyps:
        message += f"; the references look like {SEGMENT_MAJOR}, but {TRANSPOSE}"
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
        message += f"; the cached references look like {SEGMENT_MAJOR}, but {TRANSPOSE}"
    return ValueError(message)


def unknown_metric_error(metric_id: object, known: Iterable[str]) -> ValueError:
    """A metric id that is not registered (``rapidbleu.registry``); ``known``: the ids that
    would be accepted where it was given."""
    return ValueError(f"unknown metric {metric_id!r}; known: {', '.join(known)}")


class CLIError(Exception):
    """An error the command line reports on stderr in one line, with an exit code (1 unless
    given)."""

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
