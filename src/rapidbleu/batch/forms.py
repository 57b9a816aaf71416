"""The forms a batch comes in, read once for every entry point of :mod:`rapidbleu.batch`.

A sentence is a string (tokenized by the caller's rule: sacreBLEU's tokenizer, or
``str.split()``), a sequence of string tokens (used as is), or token ids in any form that
``rapidbleu.ids`` accepts (lists of ints, 1-D integer arrays, a padded 2-D array, objects with
``__array__``, torch tensors also on a GPU), cleaned as documented there (``pad_token_id``,
``eos_token_id``, ``decoder_start_token_id``, ``bos_token_id``, ``special_ids``, as Hugging Face
names them; ``pad_id``/``eos_id`` are aliases).  Lists of strings may also be numpy arrays of
strings (``dtype=str`` or object arrays of ``str``), for hypotheses and references alike.  A
dict or a set where a sequence is expected is a ``TypeError`` (its order would pair the wrong
sentences).  References come as streams (``references[k][i]``, sacreBLEU's layout) or, with
``reference_layout="per_hypothesis"``, as one list per hypothesis (``references[i][k]``,
NLTK's): :func:`reference_streams` turns the second into the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .._base.errors import stream_length_error
from .._core.inputs import join_flat, preprocess, streams_of_rows, token_ids
from .._core.validate import as_list, check_ordered
from ..ids import IdCleaning, IdStreams, id_stream, is_arraylike

#: How ``sentence_bleu_batch`` reads a list of lists of references.
REFERENCE_LAYOUTS = ("streams", "per_hypothesis")

#: Sentences as strings: a list, tuple or numpy array of them.
Strings = Sequence[str] | np.ndarray
#: References as strings: one stream, K streams (``None``: no k-th reference) or, per
#: hypothesis, n lists (``reference_layout="per_hypothesis"``).
StringReferences = Sequence[str | None] | Sequence[Sequence[str | None]] | np.ndarray


def first_item(x: Iterable[Any]) -> Any:
    for e in x:
        if e is not None:
            return e
    return None


def text_form(x: Any) -> str | None:
    """How a list of sentences is written, from the first item that tells: ``"str"`` (strings),
    ``"tokens"`` (lists of string tokens) or ``None`` (ids, or no item tells: all empty or None).
    Empty token lists are skipped, so ``[[], ["a"]]`` is token lists."""
    # (exact lists and ints first: a stream of id lists comes here once per row, see
    # streams_text_form, and the general tests below cost a microsecond a row)
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


def streams_text_form(references: Any) -> str | None:
    """``text_form`` of one reference stream, or of the first stream of a list of streams
    that tells (``"streams-of-tokens"`` / ``"streams-of-str"`` for those)."""
    form = text_form(references)
    if form is not None or is_arraylike(references) or not isinstance(references, Sequence):
        return form
    for stream in references:
        inner = text_form(stream) if stream is not None else None
        if inner is not None:
            return "streams-of-" + inner
    return None


def text_arrays(x: Any) -> Any:
    """numpy arrays of strings (``dtype=str``, or object arrays whose first item is a ``str``)
    as lists, also as the items of a list or tuple (reference streams); anything else as it is."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind == "U" or (x.dtype.kind == "O" and x.size and isinstance(first_item(x.flat), str)):
            return x.tolist()
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(e, np.ndarray) and e.dtype.kind in "UO" for e in x):
        return [text_arrays(e) for e in x]
    return x


def sentences_flat(
    sentences: Any, what: str, tokenize: str | None, lowercase: bool, cleaning: IdCleaning
) -> tuple[np.ndarray, np.ndarray]:
    """Sentences of any accepted form as one flat id stream ``(flat, lens)``: strings are
    tokenized and mapped to ids, string-token lists mapped to ids, id forms cleaned
    (``rapidbleu.ids``)."""
    if isinstance(sentences, (str, bytes)):
        raise TypeError(f"{what} must be a list of sentences, got a single string; wrap it in a list")
    check_ordered(sentences, what)
    sentences = text_arrays(sentences)
    if not is_arraylike(sentences) and not isinstance(sentences, Sequence):
        sentences = list(sentences)
    if text_form(sentences) is None:
        return id_stream(sentences, what, cleaning, warn_empty=True)
    return join_flat(text_ids(sentences, what, tokenize, lowercase))


def _as_is(line: str) -> str:
    """No tokenizer: the text's whitespace-separated words are its tokens (``str.split()``)."""
    return line


def text_ids(
    sentences: Sequence[Any], what: str, tokenize: str | None, lowercase: bool, vocab: dict[str, int] | None = None
) -> list[np.ndarray]:
    """Strings -> tokenizer (``None``: none, NLTK's ``str.split()``) -> ids, or string-token
    lists -> ids, through one vocabulary."""
    from ..tokenizers import get_tokenizer

    tok = (_as_is if tokenize is None else get_tokenizer(tokenize)) if text_form(sentences) == "str" else None
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


def strings(sentences: Any, what: str, metric: str) -> list[str]:
    """A list of strings from a list, tuple or numpy array of strings (``metric`` names the
    metric in the error).

    Raises:
        TypeError: a single string, a mapping or set, an item that is not a ``str`` (named).
    """
    out = as_list(text_arrays(sentences), what, "a list of strings")
    for i, s in enumerate(out):
        if not isinstance(s, str):
            raise TypeError(f"{what}[{i}] is a {type(s).__name__}; {metric} scores strings")
    return out


def _is_sentence(x: Any, form: str | None) -> bool:
    """Whether ``x`` is one sentence in the hypotheses' form (``text_form``): a string, a list
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


def reference_streams(hypotheses: Any, references: Any, layout: str | None) -> tuple[Any, Any]:
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
        if n >= 2 and _lists_of_sentences(references, n, text_form(hypotheses), size=n):
            raise ValueError(
                f"references could be read two ways: {n} lists of {n} references each, for {n} "
                "hypotheses. Give reference_layout='streams' (references[k][i]: the k-th "
                "reference of hypothesis i, sacreBLEU's layout) or 'per_hypothesis' "
                "(references[i]: the references of hypothesis i, NLTK's layout)"
            )
        return hypotheses, references
    if len(references) != n:
        raise stream_length_error("references (one list per hypothesis)", len(references), n, "lists")
    if not _lists_of_sentences(references, n, text_form(hypotheses)):
        raise ValueError(
            "reference_layout='per_hypothesis' needs one list of references per hypothesis, each "
            "reference a sentence in the hypotheses' form"
        )
    if text_form(hypotheses) is None and streams_text_form(references) is None:
        # ids: an empty reference as an empty array, which cannot be read as an empty stream
        empty = np.zeros(0, dtype=np.int64)
        references = [[empty if not is_arraylike(r) and not len(r) else r for r in refs] for refs in references]
    return hypotheses, streams_of_rows(references)


def id_data(hypotheses: Any, references: Any, tokenize: str | None, lowercase: bool, cleaning: IdCleaning) -> IdStreams:
    """Hypotheses/references of any accepted form as an ``IdStreams`` (text mapped through one
    shared vocabulary)."""
    form = text_form(hypotheses)
    rform = streams_text_form(references)
    if form is None and rform in ("tokens", "streams-of-tokens"):
        form = "tokens"  # every hypothesis is empty: the references tell
    if form is None:
        return IdStreams(hypotheses, references, cleaning=cleaning)
    vocab: dict[str, int] = {}
    hyps = text_ids(hypotheses, "hypotheses", tokenize, lowercase, vocab)
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
        ids = text_ids([s[i] for i in idx], f"references[{k}]", tokenize, lowercase, vocab)
        row: list[list[int] | None] = [None] * len(s)
        for i, a in zip(idx, ids, strict=False):
            row[i] = a.tolist()
        conv.append(row)
    return IdStreams([h.tolist() for h in hyps], conv)
