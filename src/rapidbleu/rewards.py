"""Sentence BLEU as a reinforcement-learning reward, in the calling conventions of TRL, verl and
OpenRLHF, computed for the whole batch in one call of rapidbleu's batch functions.

One object, :class:`BLEUReward`, holds the scoring options and answers each framework's call:

* **TRL** (``GRPOTrainer(reward_funcs=BLEUReward(...))``, also RLOO): ``reward(prompts=...,
  completions=..., completion_ids=..., **columns)`` -> ``list[float]``.  Completions are strings
  or conversational (a list of message dicts; the last message's ``content`` is scored;
  ``bytes`` anywhere text goes, references too, are decoded as UTF-8); the
  references are the dataset column named by ``reference_key`` (default ``"reference"``), which
  TRL passes as a keyword argument; each value a string or a list of strings.  With
  ``use_ids=True`` the ``completion_ids`` are scored against a column of reference token ids.
  The object's ``__name__`` (``"bleu"``, or ``name=``) is the name TRL logs.
* **verl** (``custom_reward_function``): :func:`compute_score` ``(data_source, solution_str,
  ground_truth, extra_info=None, **reward_kwargs) -> float`` for verl's naive/DAPO reward
  managers, :func:`compute_score_batch` ``(data_sources, solution_strs, ground_truths,
  extra_infos=None, **reward_kwargs) -> list[float]`` for its batch manager; verl's
  ``reward_kwargs`` are the options of :class:`BLEUReward` (e.g. ``style: nltk``,
  ``max_ngram_order: 2``, ``smoothing_function: method4``).  The methods of the same names on a
  :class:`BLEUReward` take fixed options instead.
* **OpenRLHF** (``--reward.remote_url reward.py``, a file whose ``reward_func`` is loaded):
  :func:`reward_func` / :meth:`BLEUReward.reward_func` ``(queries, prompts, labels)`` -> ``{"rewards":
  tensor, "scores": tensor, "extra_logs": {"bleu": tensor}}``.  OpenRLHF's ``queries`` are the
  decoded prompt + response with special tokens kept: the response is the query after its
  prompt, with the strings in ``special_tokens`` (e.g. ``tokenizer.all_special_tokens``) removed.

Scores, 0-1:

* ``style="sacrebleu"`` (default): ``sacrebleu.sentence_bleu(hyp, refs, smooth_method,
  smooth_value, tokenize, lowercase).score / 100`` (effective order, ``exp`` smoothing);
* ``style="nltk"``: ``nltk.translate.bleu_score.sentence_bleu(refs, hyp, weights,
  smoothing_function)`` on whitespace tokens (or on a sacreBLEU tokenizer's tokens with
  ``tokenize=``); e.g. BLEU-2 with Chen and Cherry's method 4, as RL papers report it:
  ``BLEUReward(style="nltk", weights=(0.5, 0.5), smoothing_function="method4")``.

Any metric of the protocol answers the same calls on text: ``SentenceReward(metric)``
(``rapidbleu.CHRF(word_order=2)``, ``rapidbleu.TER()``, a metric of one's own) turns the
metric's sentence scores into rewards by one of the metric's ``reward_transforms()`` (scores in
percent: ``score / 100``; an error rate: ``-score / 100`` and two more, see :class:`TERReward`).
:class:`CHRFReward` (sentence chrF / chrF++ / 100, 0-1) and :class:`TERReward` (from sentence
TER, sign-aware: lower TER is a higher reward, see its ``transform``) are that with their
metric's options by name; verl's module-level hooks take ``metric: chrf`` / ``metric: ter`` (any
registered metric, with its constructor's options) among their options (for OpenRLHF, expose
``CHRFReward(...).reward_func`` as ``reward_func``).

Without references: :class:`ConsensusReward` (any metric, chrF by default) rewards each completion
by its minimum-Bayes-risk expected utility against the other completions of its prompt
(``rapidbleu.mbr.expected_utility`` of each group), in TRL's and OpenRLHF's calls.

On ids (``use_ids=True``, TRL) the same scores are computed on token ids, cleaned as
``rapidbleu.ids`` documents (``pad_token_id``, ``eos_token_id``, ``bos_token_id``,
``special_ids``).  Every score of a batch comes from one call of
``rapidbleu.batch.sentence_bleu_batch`` / ``rapidbleu.nltk.sentence_bleu_batch`` (the compiled
core, ``workers`` threads), float for float the single-sentence functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ._base.errors import not_utf8_error
from ._core import engines as _engines
from ._core.inputs import streams_of_rows
from ._core.metric import Metric, RewardTransform, cacheable_options, check_metric
from ._core.nltk.nltk_scores import rows_named
from ._core.nltk.nltk_style import weights_of_order
from ._core.validate import check_flag, check_keywords, resolve_workers
from .chrf import CHRF, CHRFOptions
from .ids import IdKeywords, cleaning_of
from .mbr import expected_utility
from .registry import METRICS
from .ter import TER, TEROptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "REWARDS",
    "TER_TRANSFORMS",
    "BLEUReward",
    "CHRFReward",
    "ConsensusReward",
    "SentenceReward",
    "TERReward",
    "compute_score",
    "compute_score_batch",
    "reward_func",
    "reward_of",
]

#: A completion as TRL passes it: a string, or a conversation (a list of message dicts).
Completion = str | Sequence[Mapping[str, Any]]
#: The references of one example: a string or several.
References = str | Sequence[str]


def _decoded(text: Any, where: str) -> Any:
    """``text`` given as ``bytes`` (or ``bytearray``) decoded as UTF-8; anything else as it is
    (the metric refuses what is not a string).

    Raises:
        ValueError: bytes that are not UTF-8, naming ``where``.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise not_utf8_error(where, e) from None
    return text


def _decoded_references(references: Sequence[Any]) -> list[Any]:
    """Per-example references (a text or a list of texts) with bytes decoded as UTF-8
    (:func:`_decoded`, naming ``references[i]`` or ``references[i][k]``)."""
    return [
        [_decoded(x, f"references[{i}][{k}]") for k, x in enumerate(r)]
        if isinstance(r, (list, tuple))
        else _decoded(r, f"references[{i}]")
        for i, r in enumerate(references)
    ]


def _message_text(message: Mapping[str, Any], where: str) -> str:
    content = _decoded(message.get("content"), where)
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # multimodal content parts: [{"type": "text", "text": ...}]
        texts = [p.get("text", "") for p in content if isinstance(p, Mapping) and p.get("type") == "text"]
        return "".join(_decoded(t, where) for t in texts)
    raise TypeError(f"{where}: a message without text content")


def completion_text(completion: Completion | bytes | Mapping[str, Any], where: str = "completion") -> str:
    """The text to score of one completion: a string as it is; bytes decoded as UTF-8; a
    conversation (TRL's ``[{"role": "assistant", "content": ...}]``) -> the last message's
    content (text parts joined; bytes decoded as UTF-8); a single message dict -> its content.

    Raises:
        TypeError: anything else, or a message without text content.
        ValueError: bytes that are not UTF-8 (naming ``where``).
    """
    if isinstance(completion, (str, bytes, bytearray)):
        return str(_decoded(completion, where))
    if isinstance(completion, Mapping):
        return _message_text(completion, where)
    # (checked at run time whatever the annotation says: callers are not type-checked)
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], Mapping):  # type: ignore[redundant-expr]
        return _message_text(completion[-1], where)
    raise TypeError(f"{where} is a {type(completion).__name__}; expected a string or a list of messages")


def _several(value: Any, ids: bool) -> bool:
    """Whether one example's reference value holds several references: text -> a list or tuple
    (of strings); ids -> a list or tuple whose first item is itself a sequence (of ids)."""
    if not isinstance(value, (list, tuple)):
        return False
    return not ids or (len(value) > 0 and not isinstance(value[0], int) and hasattr(value[0], "__len__"))


def _streams(references: Sequence[Any], n: int, what: str, ids: bool = False) -> list[list[Any]]:
    """Per-example references (one value or a list of them each) as reference streams
    (``streams[k][i]``, ``None`` where example i has fewer than k + 1)."""
    if len(references) != n:
        raise ValueError(f"{what}: {len(references)} references for {n} completions")
    rows = [list(r) if _several(r, ids) else [r] for r in references]
    return streams_of_rows(rows, at_least=1)


class SentenceReward:
    """The reward-function conventions of TRL, verl and OpenRLHF around one batch computation:
    one float per completion, higher is better.

    ``SentenceReward(metric)`` rewards any metric of the protocol (a ``rapidbleu.BLEU``,
    ``rapidbleu.CHRF``, ``rapidbleu.TER`` object, a metric of one's own): a batch of completion
    strings is scored by the metric's sentence configuration (``metric.sentence_metric()``:
    sacreBLEU's sentence BLEU has effective order) in one ``sentence_scores`` call, and the
    float64 scores become rewards by ``transform``.  :class:`BLEUReward`, :class:`CHRFReward`
    and :class:`TERReward` are this with their metric's options by name; a subclass may instead
    implement :meth:`scores` (and :meth:`id_scores` when it scores token ids).

    Args:
        metric: a metric object (``rapidbleu._core.metric.Metric``), or None for a subclass
            that implements :meth:`scores`.
        transform: how scores become rewards: the name of one of the metric's
            ``reward_transforms()`` (default: its first; ``"scaled"``, ``score / 100``, for
            scores in percent; ``"negative"``, ``-score / 100``, for an error rate) or a
            callable on the float64 scores ``(n,)``.
        reference_key: TRL: the dataset column with the references.
        use_ids: TRL: score ``completion_ids`` against reference ids in ``reference_key``.
        special_tokens: OpenRLHF: strings removed from the decoded response.
        name: the name TRL logs (``__name__``); default the metric's ``metric_id``.

    Raises:
        TypeError: ``metric`` neither a metric object nor None; no ``name`` without a metric.
        ValueError: an unknown ``transform`` name.
    """

    def __init__(
        self,
        metric: Metric | None = None,
        *,
        transform: str | RewardTransform | None = None,
        reference_key: str = "reference",
        use_ids: bool = False,
        special_tokens: Sequence[str] = (),
        name: str | None = None,
    ) -> None:
        if metric is not None:
            check_metric(metric, none_ok=True)
        if name is None:
            if metric is None:
                raise TypeError(f"{type(self).__name__} needs a name= (the name TRL logs)")
            name = metric.metric_id
        self.metric = metric
        self.transform = transform
        self._transform: RewardTransform | None = None
        if metric is not None:
            transforms = metric.reward_transforms()
            if transform is None:
                self.transform = transform = next(iter(transforms))
            if isinstance(transform, str):
                if transform not in transforms:
                    raise ValueError(f"transform must be one of {', '.join(transforms)}, got {transform!r}")
                self._transform = transforms[transform]
            else:
                self._transform = transform
            self._sentence_metric = metric.sentence_metric()
        self.reference_key = reference_key
        self.use_ids = bool(use_ids)
        self.special_tokens = tuple(special_tokens)
        self.__name__ = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.__name__!r})"

    def scores(self, completions: Sequence[str], references: Sequence[References]) -> list[float]:
        """Rewards (higher is better) of n completion strings against their references (per
        completion a string or a list of strings; ``bytes`` are decoded as UTF-8): the
        metric's sentence scores in one call of its kernels, then ``transform``.

        Raises:
            ValueError: lengths that differ, a completion without references, bytes that are
                not UTF-8 (``completions[i]``, ``references[i][k]``), and what the metric
                refuses (an error about one completion names it, ``completions[i]``).
            TypeError: a completion or reference that is not a string.
            NotImplementedError: no metric, and a subclass that does not define ``scores``.
        """
        if self.metric is None:
            raise NotImplementedError(f"{type(self).__name__} must define scores() or be given a metric")
        hyps = [_decoded(h, f"completions[{i}]") for i, h in enumerate(completions)]
        streams = _streams(_decoded_references(list(references)), len(hyps), "references")
        if not hyps:
            return []
        with rows_named(lambda i: f"completions[{i}]"):
            scores = self._sentence_metric.sentence_scores(hyps, streams)
        return self._rewards(scores)

    def score(self, completion: str, references: References) -> float:
        """The reward of one completion against its references (a string or a list of
        strings): ``scores([completion], [references])[0]``, the same float and the same
        errors, without the batch's arrays: the metric's one-segment kernel
        (``Metric.sentence_row`` and ``score_of_row``), and the transform applied to the
        number when it is one of the metric's own (a callable of yours gets a 1-element array).
        verl's per-response ``compute_score`` calls this.

        Raises:
            As :meth:`scores`.
        """
        if type(references) is str:
            refs = [references]
        elif type(references) in (list, tuple) and references and all(type(r) is str for r in references):
            refs = list(references)
        else:  # (bytes to decode, None, errors: the batch's rules and messages)
            return self.scores([completion], [references])[0]
        if type(completion) is not str or self.metric is None or type(self).scores is not SentenceReward.scores:
            return self.scores([completion], [references])[0]
        metric = self._sentence_metric
        try:
            row = metric.sentence_row(completion, refs)
        except (TypeError, ValueError):
            return self.scores([completion], [references])[0]  # the batch's error, naming the completion
        value = metric.value_of_row(row)
        if isinstance(self.transform, str):
            assert self._transform is not None  # (set whenever a metric is)
            return float(self._transform(value))  # type: ignore[arg-type]  # (the metric's own take a float too)
        return self._rewards(np.array([value], dtype=np.float64))[0]

    def _rewards(self, scores: np.ndarray) -> list[float]:
        """``transform`` of float64 sentence scores, as Python floats."""
        assert self._transform is not None  # (set whenever a metric is)
        return [float(x) for x in self._transform(np.asarray(scores, dtype=np.float64))]

    def id_scores(self, completion_ids: Sequence[Sequence[int]], reference_ids: Sequence[Any]) -> list[float]:  # noqa: ARG002 -- the hook's signature; this default refuses ids
        """Rewards (0-1) of n token-id completions against reference ids."""
        raise TypeError(f"{type(self).__name__} does not score token ids (use_ids=True)")

    # -- TRL ----------------------------------------------------------------------------------
    def __call__(
        self,
        prompts: Sequence[Any] | None = None,  # noqa: ARG002 -- TRL's call
        completions: Sequence[Completion] | None = None,
        completion_ids: Sequence[Sequence[int]] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """TRL's reward-function call: ``(prompts=..., completions=..., completion_ids=...,
        **dataset_columns)`` -> one float per completion (GRPO and RLOO call it so).  TRL's other keyword arguments
        (``trainer_state``, ``log_extra``, ``log_metric``, other columns) are ignored.

        Raises:
            KeyError: the ``reference_key`` column is not among the keyword arguments (the
                message lists those given).
        """
        if self.reference_key not in kwargs:
            columns = sorted(k for k in kwargs if k not in ("trainer_state", "log_extra", "log_metric", "environments"))
            raise KeyError(
                f"{type(self).__name__}: no dataset column {self.reference_key!r} among the reward function's keyword "
                f"arguments (columns: {columns}); name the references' column with reference_key="
            )
        references = kwargs[self.reference_key]
        if self.use_ids:
            if completion_ids is None:
                raise TypeError(f"{type(self).__name__}(use_ids=True) needs completion_ids")
            return self.id_scores(completion_ids, references)
        if completions is None:
            raise TypeError(f"{type(self).__name__} needs completions")
        texts = [completion_text(c, f"completions[{i}]") for i, c in enumerate(completions)]
        return self.scores(texts, references)

    # -- verl ---------------------------------------------------------------------------------
    def compute_score(
        self,
        data_source: Any,  # noqa: ARG002 -- verl's call
        solution_str: str,
        ground_truth: References,
        extra_info: Any = None,  # noqa: ARG002 -- verl's call
        **kwargs: Any,
    ) -> float:
        """verl's reward-function call for one response: the reward of ``solution_str`` against
        ``ground_truth`` (a string or a list of strings); ``data_source``, ``extra_info`` and
        verl's other keyword arguments are ignored."""
        return self.score(solution_str, ground_truth)

    def compute_score_batch(
        self,
        data_sources: Sequence[Any],  # noqa: ARG002 -- verl's call
        solution_strs: Sequence[str],
        ground_truths: Sequence[References],
        extra_infos: Sequence[Any] | None = None,  # noqa: ARG002 -- verl's call
        **kwargs: Any,
    ) -> list[float]:
        """verl's batch reward-function call (``BatchRewardManager``): one float per response."""
        return self.scores(solution_strs, ground_truths)

    # -- OpenRLHF -----------------------------------------------------------------------------
    def responses(self, queries: Sequence[str], prompts: Sequence[str]) -> list[str]:
        """OpenRLHF's responses: each query (prompt + response, decoded with special tokens)
        after its prompt, without the strings in ``special_tokens``.

        Raises:
            ValueError: a query that does not start with its prompt (named by position).
        """
        if len(queries) != len(prompts):
            raise ValueError(f"{len(queries)} queries but {len(prompts)} prompts")
        out = []
        for i, (q, p) in enumerate(zip(queries, prompts, strict=True)):
            if not q.startswith(p):
                raise ValueError(f"queries[{i}] does not start with prompts[{i}]: cannot tell the response apart")
            r = q[len(p) :]
            for tok in self.special_tokens:
                r = r.replace(tok, "")
            out.append(r)
        return out

    def reward_func(
        self, queries: Sequence[str], prompts: Sequence[str], labels: Sequence[References]
    ) -> dict[str, Any]:
        """OpenRLHF's ``reward_func(queries, prompts, labels)``: ``{"rewards": float32 tensor (n,),
        "scores": the same, "extra_logs": {name: its mean}}`` (torch tensors, as OpenRLHF's
        trainer takes them; ``name`` the reward's ``__name__``)."""
        import torch

        rewards = torch.tensor(self.scores(self.responses(queries, prompts), labels), dtype=torch.float32)
        return {"rewards": rewards, "scores": rewards, "extra_logs": {self.__name__: rewards.mean()}}


class BLEUReward(SentenceReward):
    """Per-sentence BLEU rewards (0-1) for a batch, in TRL's, verl's and OpenRLHF's conventions
    (module docstring).

    Args:
        style: ``"sacrebleu"`` (sentence BLEU / 100) or ``"nltk"`` (NLTK's ``sentence_bleu``).
        reference_key, use_ids, special_tokens, name: as :class:`SentenceReward` (``name``
            default ``"bleu"``).
        tokenize, lowercase, smooth_method, smooth_value, max_ngram_order, weights,
        smoothing_function, auto_reweigh: scoring options, as ``rapidbleu.spark`` /
            ``rapidbleu.dask`` take them (sacreBLEU style: tokenizer default ``13a``; NLTK style:
            whitespace tokens unless ``tokenize`` names a tokenizer; ``smoothing_function``
            ``"method0"``..``"method7"`` or a ``SmoothingFunction`` method; NLTK style with
            ``max_ngram_order=k`` and no ``weights`` means uniform weights over k orders).
        workers: threads of the compiled core for ids (1 = the calling thread; -1 = every
            core); text is scored in the calling thread.
        cleaning: id cleaning for ``use_ids``, ``rapidbleu.ids.IdKeywords`` (``pad_token_id``,
            ``eos_token_id``, ``bos_token_id``, ``special_ids``, ...).

    Raises:
        ValueError, TypeError: unknown style, tokenizer or smoothing, options of the other
            style, a custom smoothing callable (it needs tokens; use ``rapidbleu.nltk`` there).
    """

    def __init__(
        self,
        style: str = "sacrebleu",
        *,
        reference_key: str = "reference",
        use_ids: bool = False,
        special_tokens: Sequence[str] = (),
        name: str = "bleu",
        tokenize: str | None = None,
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        weights: Sequence[float] | None = None,
        smoothing_function: str | Callable[..., Any] | None = None,
        auto_reweigh: bool = False,
        workers: int = 1,
        **cleaning: Unpack[IdKeywords],
    ) -> None:
        nltk = style == "nltk"
        if nltk:
            if smooth_method != "exp" or smooth_value is not None:
                raise TypeError(
                    "smooth_method/smooth_value are sacreBLEU-style options; NLTK style smooths with smoothing_function"
                )
            if max_ngram_order != 4:
                # NLTK style counts orders by its weights: max_ngram_order=2 means BLEU-2
                weights = weights_of_order(weights, max_ngram_order)
        bleu_options: dict[str, Any] = (
            {}
            if nltk
            else {"smooth_method": smooth_method, "smooth_value": smooth_value, "max_ngram_order": max_ngram_order}
        )
        given: dict[str, Any] = {
            "weights": weights,
            "smoothing_function": smoothing_function,
            "auto_reweigh": auto_reweigh or None,
        }
        opts = _engines.ScoreOptions(
            style=style,
            tokenize=tokenize,
            lowercase=lowercase,
            **{k: v for k, v in given.items() if v is not None},
            **bleu_options,
        )
        # the same settings for token ids (rapidbleu.batch.sentence_bleu_batch's arguments)
        self._id_options: dict[str, Any] = (
            {
                "weights": weights if weights is not None else (0.25,) * 4,
                "smoothing_function": opts.options.get("smoothing_function"),
                "auto_reweigh": auto_reweigh,
            }
            if nltk
            else {**bleu_options, "effective_order": True}
        )
        resolve_workers(workers)
        cleaning_of(cleaning, "BLEUReward.__init__")  # checks them now
        super().__init__(
            opts.metric(), reference_key=reference_key, use_ids=use_ids, special_tokens=special_tokens, name=name
        )
        self.style = style
        self.workers = workers
        self._cleaning = cleaning

    def __repr__(self) -> str:
        return f"BLEUReward(style={self.style!r}, name={self.__name__!r})"

    def id_scores(self, completion_ids: Sequence[Sequence[int]], reference_ids: Sequence[Any]) -> list[float]:
        """Rewards of n token-id completions against reference ids (per completion one id
        sequence or a list of them), cleaned as ``rapidbleu.ids`` documents.

        Raises:
            ValueError, TypeError: as ``rapidbleu.batch.sentence_bleu_batch``.
        """
        from .batch import sentence_bleu_batch

        hyps = list(completion_ids)
        if not hyps:
            return []
        streams = _streams(list(reference_ids), len(hyps), "reference ids", ids=True)
        out = sentence_bleu_batch(hyps, streams, workers=self.workers, **self._id_options, **self._cleaning)
        return self._rewards(out)


class CHRFReward(SentenceReward):
    """Per-sentence chrF / chrF++ rewards (0-1: ``sacrebleu.sentence_chrf(hyp, refs, ...).score /
    100``) for a batch, in TRL's, verl's and OpenRLHF's conventions (module docstring); text
    only.

    Args:
        reference_key, special_tokens, name: as :class:`SentenceReward` (``name`` default
            ``"chrf"``).
        options: ``rapidbleu.CHRF``'s options by name (``rapidbleu.chrf.CHRFOptions``:
            ``char_order``, ``word_order``, ``beta``, ``lowercase``, ``whitespace``,
            ``eps_smoothing``; ``word_order=2`` is chrF++).

    Raises:
        TypeError, ValueError: options ``rapidbleu.CHRF`` refuses, an unknown keyword.
    """

    def __init__(
        self,
        *,
        reference_key: str = "reference",
        special_tokens: Sequence[str] = (),
        name: str = "chrf",
        **options: Unpack[CHRFOptions],
    ) -> None:
        check_keywords(options, CHRFOptions, "CHRFReward.__init__")
        super().__init__(CHRF(**options), reference_key=reference_key, special_tokens=special_tokens, name=name)


#: :class:`TERReward`'s ways of turning a TER (percent, >= 0, lower is better) into a reward
#: (``rapidbleu.TER.reward_transforms()``: every error rate's).
TER_TRANSFORMS: Mapping[str, RewardTransform] = TER.reward_transforms()


class TERReward(SentenceReward):
    """Per-sentence TER as a reward for a batch, in TRL's, verl's and OpenRLHF's conventions
    (module docstring); text only.

    TER (``sacrebleu.sentence_ter(hyp, refs, ...).score``) is an error rate in percent: 0 for
    a perfect completion, unbounded above (a completion much longer than its reference exceeds
    100).  The reward is higher for a better completion, by ``transform``:

    * ``"negative"`` (default): ``-TER / 100`` (0 at best, no lower bound; the ordering of
      completions is TER's, reversed);
    * ``"complement"``: ``1 - TER / 100`` (1 at best; below 0 when TER exceeds 100);
    * ``"clipped"``: ``max(0, 1 - TER / 100)`` (0-1, like BLEU and chrF rewards; every TER
      of 100 or more scores 0).

    Group-normalized advantages (GRPO, RLOO) are the same for ``"negative"`` and
    ``"complement"``; ``"clipped"`` loses the ordering above TER 100.

    Args:
        reference_key, special_tokens, name: as :class:`SentenceReward` (``name`` default
            ``"ter"``).
        transform: ``"negative"``, ``"complement"`` or ``"clipped"`` (:data:`TER_TRANSFORMS`).
        options: ``rapidbleu.TER``'s options by name (``rapidbleu.ter.TEROptions``:
            ``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``).

    Raises:
        ValueError: an unknown ``transform``; TypeError: options ``rapidbleu.TER`` refuses, an
            unknown keyword.
    """

    def __init__(
        self,
        *,
        reference_key: str = "reference",
        special_tokens: Sequence[str] = (),
        name: str = "ter",
        transform: str = "negative",
        **options: Unpack[TEROptions],
    ) -> None:
        check_keywords(options, TEROptions, "TERReward.__init__")
        metric = TER(**options)
        super().__init__(
            metric, transform=transform, reference_key=reference_key, special_tokens=special_tokens, name=name
        )

    def __repr__(self) -> str:
        return f"TERReward(transform={self.transform!r}, name={self.__name__!r})"


# -------------------------------------------------------------------------- module-level hooks
#: ``metric`` option of the module-level hooks -> reward class.
REWARDS: dict[str, type[SentenceReward]] = {"bleu": BLEUReward, "chrf": CHRFReward, "ter": TERReward}
#: verl's own keyword arguments that are not scoring options.
_VERL_EXTRAS = ("reward_router_address", "reward_model_tokenizer")


#: :class:`SentenceReward`'s own options, which the hooks do not hand to a metric's constructor.
class ConsensusReward(SentenceReward):
    """Reference-free rewards for the group of completions sampled for one prompt (GRPO's
    ``num_generations``, RLOO's samples): each completion's minimum-Bayes-risk expected utility
    against the *other* completions of its prompt, ``mean_{j != i} u(c_i, c_j)``, with ``u`` the
    metric's sentence score (``rapidbleu.mbr.expected_utility`` of the group: the pairwise
    kernels), then ``transform`` (a completion that agrees with its siblings scores high).
    Completions belong to the same group when their prompts are equal (TRL repeats each prompt
    once per completion; OpenRLHF passes the prompt of each query).

    Args:
        metric: a metric object (default ``rapidbleu.CHRF()``; BLEU, TER or one's own).
        transform, special_tokens, name: as :class:`SentenceReward` (``name`` default
            ``"<metric_id>_consensus"``).
        include_self: average over the whole group, the completion against itself included
            (``expected_utility``'s plain row mean) instead of over the others.

    Raises:
        TypeError: ``metric`` not a metric object, ``include_self`` not True/False; (when
            called) the verl conventions, which do not say which responses share a prompt.
        ValueError: (when called) a prompt with a single completion and ``include_self``
            False: it has no other completion to agree with (sample at least two per prompt).
    """

    def __init__(
        self,
        metric: Metric | None = None,
        *,
        transform: str | RewardTransform | None = None,
        special_tokens: Sequence[str] = (),
        include_self: bool = False,
        name: str | None = None,
    ) -> None:
        if metric is None:
            metric = CHRF()
        check_metric(metric)
        super().__init__(
            metric, transform=transform, special_tokens=special_tokens, name=name or f"{metric.metric_id}_consensus"
        )
        self.include_self = bool(check_flag(include_self, "include_self"))

    def group_scores(self, completions: Sequence[str], prompts: Sequence[Any]) -> list[float]:
        """Rewards of n completion strings (``bytes`` decoded as UTF-8), grouped by their
        prompts (``prompts[i]`` the prompt of ``completions[i]``, any values comparable for
        equality: strings, conversations).

        Raises:
            ValueError: lengths that differ, a prompt with one completion (without
                ``include_self``), bytes that are not UTF-8.
            TypeError: a bare string, a completion that is not a string, a prompt that cannot
                be compared.
        """
        for what, value in (("completions", completions), ("prompts", prompts)):
            if isinstance(value, (str, bytes)):
                raise TypeError(f"{what} is a single {type(value).__name__}: give one per completion (a list)")
        texts = [_decoded(t, f"completions[{i}]") for i, t in enumerate(completions)]
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"completions[{i}] is a {type(text).__name__}, expected a string")
        keys = [_prompt_key(p) for p in prompts]
        if len(keys) != len(texts):
            raise ValueError(f"{len(texts)} completions but {len(keys)} prompts")
        groups: dict[Any, list[int]] = {}
        for i, key in enumerate(keys):
            groups.setdefault(key, []).append(i)
        scores = np.zeros(len(texts), dtype=np.float64)
        for members in groups.values():
            if len(members) == 1 and not self.include_self:
                raise ValueError(
                    f"completions[{members[0]}] is the only completion of its prompt: a consensus reward needs at "
                    "least two per prompt (TRL's num_generations >= 2), or include_self=True"
                )
        for members in groups.values():
            result = expected_utility([texts[i] for i in members], metric=self._sentence_metric)
            utilities = result.utilities
            assert utilities is not None  # (keep_matrix: the default)
            if self.include_self:
                scores[members] = result.expected
            else:  # each row's mean over the others (the diagonal left out, not subtracted)
                k = len(members)
                others = utilities[~np.eye(k, dtype=bool)].reshape(k, k - 1)
                scores[members] = others.sum(axis=1) / (k - 1)
        return self._rewards(scores)

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Completion] | None = None,
        completion_ids: Sequence[Sequence[int]] | None = None,  # noqa: ARG002 -- TRL's call
        **kwargs: Any,
    ) -> list[float]:
        """TRL's reward-function call: ``(prompts=..., completions=..., **columns)`` -> one float
        per completion, the completions grouped by their prompts (no reference column read)."""
        if prompts is None or completions is None:
            raise TypeError(f"{type(self).__name__} needs prompts and completions (TRL passes both)")
        texts = [completion_text(c, f"completions[{i}]") for i, c in enumerate(completions)]
        return self.group_scores(texts, prompts)

    def reward_func(
        self,
        queries: Sequence[str],
        prompts: Sequence[str],
        labels: Sequence[References] | None = None,  # noqa: ARG002 -- OpenRLHF's call
    ) -> dict[str, Any]:
        """OpenRLHF's ``reward_func(queries, prompts, labels)`` (labels unused): the responses
        grouped by their prompts, as :meth:`SentenceReward.reward_func` returns them."""
        import torch

        scores = self.group_scores(self.responses(queries, prompts), prompts)
        rewards = torch.tensor(scores, dtype=torch.float32)
        return {"rewards": rewards, "scores": rewards, "extra_logs": {self.__name__: rewards.mean()}}

    def scores(self, completions: Sequence[str], references: Sequence[References]) -> list[float]:  # noqa: ARG002 -- the base class's hook
        """Refused: consensus rewards need the group of each completion, not references."""
        raise TypeError(
            f"{type(self).__name__} scores completions against the others of their prompt: call it with "
            "prompts (TRL, OpenRLHF) or use group_scores(completions, prompts); verl's calls do not say the groups"
        )


def _prompt_key(prompt: Any) -> Any:
    """A hashable stand-in for a prompt (a conversation: its messages' items)."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Mapping):
        return ("mapping", tuple(sorted(((repr(k), _prompt_key(v)) for k, v in prompt.items()), key=repr)))
    if isinstance(prompt, (list, tuple)):
        return tuple(_prompt_key(p) for p in prompt)
    try:
        hash(prompt)
    except TypeError as error:
        raise TypeError(
            f"a prompt is a {type(prompt).__name__}, which cannot be compared to group completions"
        ) from error
    return prompt


_REWARD_OPTIONS = ("transform", "reference_key", "special_tokens", "name")


def reward_of(metric: str = "bleu", **options: Any) -> SentenceReward:
    """The reward of a registered metric by its ``metric_id``: its class in :data:`REWARDS`
    with ``options``, else ``SentenceReward(METRICS[metric](**metric_options), **reward_options)``
    (``transform``, ``reference_key``, ``special_tokens``, ``name`` are the reward's; the rest
    go to the metric's constructor).  What the module-level hooks build from verl's options.

    Raises:
        ValueError: a metric that is not registered (NLTK style is ``BLEUReward``'s
            ``style="nltk"``), and what the reward or the metric refuses.
        TypeError: an unknown option.
    """
    if metric in REWARDS:
        return REWARDS[metric](**options)
    if metric not in METRICS or metric == "nltk":
        known = [*REWARDS, *(m for m in METRICS if m not in REWARDS and m != "nltk")]
        raise ValueError(f"metric must be one of {', '.join(known)}, got {metric!r}")
    reward = {k: options.pop(k) for k in _REWARD_OPTIONS if k in options}
    return SentenceReward(METRICS[metric](**options), **reward)


@lru_cache(maxsize=16)
def _cached(options: tuple[tuple[str, type, Any], ...]) -> SentenceReward:
    return reward_of(**{k: v for k, _, v in options})


@lru_cache(maxsize=1)
def _default_reward() -> SentenceReward:
    """The reward of verl's hooks without options (sentence BLEU, 0-1), built once."""
    return _reward({})


def _reward(options: dict[str, Any]) -> SentenceReward:
    opts: dict[str, Any] = {
        k: tuple(v) if isinstance(v, list) else v for k, v in options.items() if k not in _VERL_EXTRAS
    }
    if not all(cacheable_options(v if type(v) is tuple else (v,)) for v in opts.values()):
        return reward_of(**opts)  # (values equal to others of another type: no cache, as shared_metric)
    # keyed by name, type and value: 1, 1.0 and True are three option sets
    return _cached(tuple((k, type(v), v) for k, v in sorted(opts.items())))


def compute_score(
    data_source: Any,  # noqa: ARG001 -- verl's call
    solution_str: str,
    ground_truth: References,
    extra_info: Any = None,  # noqa: ARG001 -- verl's call
    **reward_kwargs: Any,
) -> float:
    """verl's ``custom_reward_function``: sentence BLEU (0-1) of ``solution_str`` against
    ``ground_truth``; ``reward_kwargs`` (from verl's config) are :class:`BLEUReward` options, or
    with ``metric: chrf`` / ``metric: ter`` those of :class:`CHRFReward` / :class:`TERReward`,
    or with any other registered metric its reward's (:func:`reward_of`).

    Raises:
        TypeError: an unknown option; ValueError: an unknown metric, and as
            :meth:`BLEUReward.scores`.
    """
    return (_reward(reward_kwargs) if reward_kwargs else _default_reward()).score(solution_str, ground_truth)


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[References],
    extra_infos: Sequence[Any] | None = None,
    **reward_kwargs: Any,
) -> list[float]:
    """verl's batch ``custom_reward_function`` (``reward_manager=batch``): one float per response;
    ``reward_kwargs`` as :func:`compute_score`."""
    return _reward(reward_kwargs).compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos)


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[References]) -> dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)`` with sacreBLEU's sentence BLEU
    (0-1); for other options or special tokens to strip, expose
    ``BLEUReward(...).reward_func`` as ``reward_func`` in the file OpenRLHF loads."""
    return _reward({}).reward_func(queries, prompts, labels)
