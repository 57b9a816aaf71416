"""rapidbleu.rewards, called the way TRL, verl and OpenRLHF call reward functions (their call
sites, read from trl 1.16 ``GRPOTrainer._calculate_rewards``, verl 0.9 ``NaiveRewardManager`` /
``BatchRewardManager`` / ``load_extern_object`` / ``_call_with_kwargs``, OpenRLHF 0.11
``SingleTurnAgentExecutor``), with values equal to sacreBLEU's and NLTK's sentence BLEU and
sacreBLEU's sentence chrF and TER; and one real GRPO step of TRL with a tiny random model built
from a config (nothing downloaded).

The GRPO step runs where TRL is installed, and must run with RAPIDBLEU_REQUIRE_TRL=1 (.ci/run)."""

import asyncio
import functools
import importlib.util
import math
import os
import sys

import pytest
import sacrebleu
from conftest import SAMPLE_DIR, integration, read
from nltk.translate import bleu_score as nltk_bleu

import rapidbleu
from rapidbleu.rewards import (
    BLEUReward,
    CHRFReward,
    ConsensusReward,
    SentenceReward,
    TERReward,
    compute_score,
    compute_score_batch,
    reward_func,
)

HYP = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.ONLINE-W.en")[:40]
REF = read(SAMPLE_DIR / "generaltest2023.de-en.ref.refA.en")[:40]
REF2 = read(SAMPLE_DIR / "generaltest2023.de-en.hyp.AIRC.en")[:40]
# per example: one reference (a string) or several (a list), as a dataset column holds them
REFS = [r if i % 2 else [r, s] for i, (r, s) in enumerate(zip(REF, REF2, strict=True))]


def _as_list(r):
    return [r] if isinstance(r, str) else r


M4 = nltk_bleu.SmoothingFunction().method4
# sacreBLEU's TER (pure Python) takes seconds on some of these paragraphs: TER on the short ones
SHORT = [i for i, h in enumerate(HYP) if max(len(x.split()) for x in [h, *_as_list(REFS[i])]) < 30]
HYP_S, REFS_S = [HYP[i] for i in SHORT], [REFS[i] for i in SHORT]


def _sacre(hyps, refs, **kw):
    return [sacrebleu.sentence_bleu(h, _as_list(r), **kw).score / 100 for h, r in zip(hyps, refs, strict=True)]


def _sacre_chrf(hyps, refs, **kw):
    chrf = sacrebleu.CHRF(**kw)
    return [chrf.sentence_score(h, _as_list(r)).score / 100 for h, r in zip(hyps, refs, strict=True)]


def _sacre_ter(hyps, refs, **kw):
    """sacreBLEU's sentence TER in percent."""
    ter = sacrebleu.TER(**kw)
    return [ter.sentence_score(h, _as_list(r)).score for h, r in zip(hyps, refs, strict=True)]


def _nltk(hyps, refs, weights, fn):
    return [
        nltk_bleu.sentence_bleu([x.split() for x in _as_list(r)], h.split(), weights=weights, smoothing_function=fn)
        for h, r in zip(hyps, refs, strict=True)
    ]


def _trl_call(reward, prompts, completions, completion_ids, inputs):
    """What GRPOTrainer._calculate_rewards does: every column but prompt/completion goes in as a
    keyword argument, with trainer_state, log_extra and log_metric."""
    keys = [k for k in inputs[0] if k not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {k: [ex[k] for ex in inputs] for k in keys}
    reward_kwargs.update(trainer_state=object(), log_extra=lambda *a: None, log_metric=lambda *a: None)
    return reward(prompts=prompts, completions=completions, completion_ids=completion_ids, **reward_kwargs)


def test_trl_strings_and_conversations(backend):
    inputs = [{"prompt": f"p{i}", "reference": r, "source": "x"} for i, r in enumerate(REFS)]
    prompts = [ex["prompt"] for ex in inputs]
    ids = [[1, 2, 3]] * len(HYP)
    got = _trl_call(BLEUReward(), prompts, HYP, ids, inputs)
    assert got == _sacre(HYP, REFS)
    assert all(type(x) is float for x in got)
    conversational = [[{"role": "assistant", "content": h}] for h in HYP]
    chat_prompts = [[{"role": "user", "content": p}] for p in prompts]
    nltk2 = BLEUReward(style="nltk", weights=(0.5, 0.5), smoothing_function="method4", name="bleu2")
    assert _trl_call(nltk2, chat_prompts, conversational, ids, inputs) == _nltk(HYP, REFS, (0.5, 0.5), M4)
    assert nltk2.__name__ == "bleu2"
    assert BLEUReward().__name__ == "bleu"
    # options: tokenizer, lowercase, smoothing; another column name
    inputs2 = [{"prompt": p, "answers": r} for p, r in zip(prompts, REFS, strict=True)]
    r = BLEUReward(reference_key="answers", tokenize="intl", lowercase=True, smooth_method="floor")
    assert _trl_call(r, prompts, HYP, ids, inputs2) == _sacre(
        HYP, REFS, tokenize="intl", lowercase=True, smooth_method="floor"
    )
    with pytest.raises(KeyError, match=r"no dataset column 'reference' .*\['answers'\]"):
        _trl_call(BLEUReward(), prompts, HYP, ids, inputs2)


def test_trl_completion_ids():
    """Ids: the same floats as the strings of the ids with tokenize='none'; eos and padding
    cleaned as rapidbleu.ids documents."""
    completion_ids = [[5, 6, 7, 8, 2], [9, 10, 11, 2], [12, 13, 2]]
    reference_ids = [[5, 6, 7, 8], [[9, 10, 12], [9, 10, 11, 14]], [15, 16]]
    inputs = [{"prompt": "p", "reference_ids": r} for r in reference_ids]
    reward = BLEUReward(use_ids=True, reference_key="reference_ids", eos_token_id=2, pad_token_id=0)
    got = _trl_call(reward, ["p"] * 3, ["x"] * 3, completion_ids, inputs)
    texts = ["5 6 7 8", "9 10 11", "12 13"]
    refs = ["5 6 7 8", ["9 10 12", "9 10 11 14"], "15 16"]
    assert got == _sacre(texts, refs, tokenize="none")
    nltk = BLEUReward(
        "nltk", use_ids=True, reference_key="reference_ids", eos_token_id=2, weights=(0.5, 0.5), smoothing_function=M4
    )
    assert _trl_call(nltk, ["p"] * 3, ["x"] * 3, completion_ids, inputs) == _nltk(texts, refs, (0.5, 0.5), M4)


def test_verl_calls(tmp_path):
    """verl loads ``compute_score`` with ``load_extern_object`` (``pkg://rapidbleu.rewards`` or a
    file) and wraps it in ``partial(_call_with_kwargs, fn, reward_kwargs)``; the naive manager
    calls it per response with keywords, the batch manager with lists."""

    def call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):  # verl.trainer.ppo.reward
        return raw_fn(*args, **{**kwargs, **extra_kwargs})

    user_file = tmp_path / "bleu_reward.py"
    user_file.write_text("from rapidbleu.rewards import compute_score, compute_score_batch\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"custom_module_{hash(str(user_file))}", user_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    extra = [{"num_turns": None, "rollout_reward_scores": {}} for _ in HYP]
    naive = functools.partial(call_with_kwargs, module.compute_score, {})
    got = [
        naive(data_source="wmt23", solution_str=h, ground_truth=r, extra_info=e)
        for h, r, e in zip(HYP, REFS, extra, strict=True)
    ]
    assert got == _sacre(HYP, REFS)
    kwargs = {"style": "nltk", "weights": [0.5, 0.5], "smoothing_function": "method4"}  # verl config values
    nltk_fn = functools.partial(call_with_kwargs, compute_score, kwargs)
    got = [
        nltk_fn(data_source="wmt23", solution_str=h, ground_truth=r, extra_info=None)
        for h, r in zip(HYP, REFS, strict=False)
    ]
    assert got == _nltk(HYP, REFS, (0.5, 0.5), M4)
    # experimental reward loop: two more keywords
    extras = {"reward_router_address": None, "reward_model_tokenizer": None}
    assert compute_score("d", HYP[0], REFS[0], {}, **extras) == _sacre(HYP[:1], REFS[:1])[0]
    batch = functools.partial(call_with_kwargs, module.compute_score_batch, kwargs)
    got = batch(data_sources=["wmt23"] * len(HYP), solution_strs=HYP, ground_truths=REFS, extra_infos=extra)
    assert got == _nltk(HYP, REFS, (0.5, 0.5), M4)
    reward = BLEUReward(style="nltk", max_ngram_order=2)
    assert reward.compute_score("d", HYP[0], REFS[0]) == _nltk(HYP[:1], REFS[:1], (0.5, 0.5), None)[0]
    with pytest.raises(TypeError):
        compute_score("d", HYP[0], REFS[0], None, no_such_option=1)


def _outcome(call):
    try:
        return ("value", call())
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


@pytest.mark.parametrize(
    "reward",
    [
        BLEUReward(),
        BLEUReward(smooth_method="floor", lowercase=True),
        BLEUReward(style="nltk", weights=(0.5, 0.5), smoothing_function=M4),
        CHRFReward(word_order=2),
        TERReward(),
        TERReward(transform="clipped"),
        SentenceReward(rapidbleu.BLEU(), transform=lambda s: s / 50.0),
    ],
    ids=["bleu", "bleu-floor", "nltk", "chrf++", "ter", "ter-clipped", "own-transform"],
)
def test_one_completion_equals_the_batch(reward):
    """verl calls ``compute_score`` once per response: the one-completion path (the metric's
    one-segment kernel) gives the batch's float, value for value, and the batch's error, the
    completion named, for input it refuses (bytes decoded alike)."""
    cases = [(h, r) for h, r in zip(HYP_S, REFS_S, strict=True)]
    cases += [("", "a b"), ("a b", ["", "a b"]), ("x", ("a", "x")), (b"na\xc3\xafve ok", "na\u00efve ok")]
    cases += [("a", []), ("a", [None]), ("a", ["b", 3]), (None, "a"), (b"\xff", "a"), ("a", [b"a b"]), (3, "a")]
    for hyp, refs in cases:
        want = _outcome(lambda hyp=hyp, refs=refs: reward.scores([hyp], [refs])[0])
        got = _outcome(lambda hyp=hyp, refs=refs: reward.compute_score("d", hyp, refs))
        assert got == want, (hyp, refs)
        assert got[0] == "error" or type(got[1]) is float


def test_verl_options_of_another_type_are_another_option_set():
    """verl's options are kept per option set by name, type and value: an option refused as a
    ``bool`` is refused after an equal ``int`` was taken, and ``beta=np.float32(0.5)`` scores in
    float32 as sacreBLEU does, after ``beta=0.5``."""
    np = pytest.importorskip("numpy")
    h, g = HYP_S[0], REFS_S[0]
    for good, bad in ((1, True), (4, 4.0)):
        compute_score("d", h, g, None, max_ngram_order=good)
        with pytest.raises(TypeError, match="max_ngram_order must be an int"):
            compute_score("d", h, g, None, max_ngram_order=bad)
    compute_score("d", h, g, None, metric="chrf", beta=0.5)
    got = compute_score("d", h, g, None, metric="chrf", beta=np.float32(0.5))
    assert got == CHRFReward(beta=np.float32(0.5)).compute_score("d", h, g)
    want = _sacre_chrf([h], [g], beta=np.float32(0.5))[0]
    assert got == want


def test_nltk_style_metric_scores_one_sentence():
    """``NLTKBLEU().sentence_score`` (the protocol's one-segment call) is NLTK's ``sentence_bleu``
    on whitespace tokens (it failed on the aggregated row's width)."""
    from rapidbleu.nltk_bleu import NLTKBLEU

    for h, r in zip(HYP_S, REFS_S, strict=True):
        refs = _as_list(r)
        want = nltk_bleu.sentence_bleu([x.split() for x in refs], h.split())
        assert NLTKBLEU().sentence_score(h, refs) == pytest.approx(want, rel=0, abs=0)


@pytest.mark.integration
def test_openrlhf_reward_func(tmp_path):
    """OpenRLHF loads ``reward_func`` from the file given as --reward.remote_url and calls it in a
    thread with one-element lists of the decoded query (prompt + response, special tokens kept),
    the prompt and the label; the rewards become ``torch.tensor([reward])``."""
    torch = integration("torch")
    path = tmp_path / "reward_func.py"
    path.write_text(
        "from rapidbleu.rewards import BLEUReward\n"
        "reward_func = BLEUReward(special_tokens=['<|im_end|>', '<|endoftext|>']).reward_func\n",
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_file_location("reward_func", str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = module.reward_func

    prompts = [f"<|im_start|>user\nTranslate {i}<|im_end|>\n<|im_start|>assistant\n" for i in range(len(HYP))]
    queries = [p + h + "<|im_end|>" for p, h in zip(prompts, HYP, strict=True)]

    async def fetch(q, p, lab):  # SingleTurnAgentExecutor._fetch_rewards_via_func, batch_size 1
        return await asyncio.gather(
            *[asyncio.to_thread(fn, q[i : i + 1], p[i : i + 1], lab[i : i + 1]) for i in range(len(q))]
        )

    infos = asyncio.run(fetch(queries, prompts, REFS))
    want = _sacre(HYP, REFS)
    for info, w in zip(infos, want, strict=True):
        reward = torch.tensor([info["rewards"]])  # samples_generator: info["reward"]
        assert reward.shape == (1,)
        assert reward.item() == pytest.approx(w, rel=1e-6)
        assert info["scores"] is info["rewards"]
        assert set(info["extra_logs"]) == {"bleu"}
    assert reward_func(queries[:2], prompts[:2], REFS[:2])["rewards"].tolist() == pytest.approx(
        _sacre([q[len(p) :] for q, p in zip(queries[:2], prompts[:2], strict=False)], REFS[:2]), rel=1e-6
    )
    with pytest.raises(ValueError, match=r"queries\[0\] does not start with prompts\[0\]"):
        fn(["other text"], ["prompt"], ["ref"])


def test_errors():
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        BLEUReward(style="bleurt")
    with pytest.raises(TypeError, match=r"weights: NLTK-style BLEU options \(style='nltk'\); BLEU takes none"):
        BLEUReward(weights=(0.5, 0.5))
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        BLEUReward(smooth_method="nope")
    with pytest.raises(TypeError, match="sacreBLEU-style options"):
        BLEUReward(style="nltk", smooth_method="floor")
    with pytest.raises(ValueError, match="weights has 2 orders but max_ngram_order=3"):
        BLEUReward(style="nltk", weights=(0.5, 0.5), max_ngram_order=3)
    with pytest.raises(ValueError, match="3 references for 2 completions"):
        BLEUReward().scores(["a", "b"], ["a", "b", "c"])
    with pytest.raises(TypeError, match=r"completions\[1\] is a int"):
        BLEUReward()(completions=["a", 3], reference=["a", "b"])
    assert BLEUReward().scores([], []) == []


@pytest.mark.parametrize(
    "reward",
    [
        BLEUReward(),
        BLEUReward(style="nltk", weights=(0.5, 0.5), smoothing_function="method4"),
        CHRFReward(word_order=2),
    ],
    ids=["sacrebleu", "nltk", "chrf"],
)
def test_bytes_are_decoded_as_utf8_never_scored_as_something_else(reward):
    """A completion or reference given as bytes scores as its UTF-8 text in every convention
    (it scored as "" as a message's content, and NLTK style read it as a list of byte values)."""
    hyps, refs = ["Die Katze saß.", "the cat sat on the mat"], ["Die Katze saß da.", ["the cat", "a cat sat on a mat"]]
    want = reward.scores(hyps, refs)
    as_bytes = [h.encode() for h in hyps]
    refs_bytes = [refs[0].encode(), [r.encode() for r in refs[1]]]
    assert reward.scores(as_bytes, refs_bytes) == want
    assert reward(completions=as_bytes, reference=refs) == want
    assert reward(completions=[[{"role": "assistant", "content": h}] for h in as_bytes], reference=refs) == want
    parts = [[{"role": "assistant", "content": [{"type": "text", "text": h}]}] for h in as_bytes]
    assert reward(completions=parts, reference=refs) == want
    assert [reward.compute_score("src", h, r) for h, r in zip(as_bytes, refs, strict=True)] == want
    assert reward.compute_score_batch(["src"] * 2, as_bytes, refs) == want
    bad = [as_bytes[0], b"the cat \xff"]
    for call in (
        lambda: reward.scores(bad, refs),
        lambda: reward(completions=bad, reference=refs),
        lambda: reward(completions=[[{"role": "assistant", "content": h}] for h in bad], reference=refs),
    ):
        with pytest.raises(ValueError, match=r"completions\[1\] is bytes that are not UTF-8"):
            call()
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] is bytes that are not UTF-8"):
        reward.scores(hyps, [refs[0], [b"\xc3", "x"]])


def test_consensus_reward_decodes_bytes():
    reward = ConsensusReward()
    texts = ["the cat sat", "the cat sat down", "a dog"]
    want = reward.group_scores(texts, ["p"] * 3)
    assert reward(prompts=["p"] * 3, completions=[t.encode() for t in texts]) == want
    with pytest.raises(ValueError, match=r"completions\[2\] is bytes that are not UTF-8"):
        reward.group_scores([*texts[:2], b"\xff"], ["p"] * 3)


def test_ter_reward_of_a_perfect_completion_is_zero_not_negative_zero(backend):
    """TER 0 gives the reward 0.0 in every transform, never -0.0 (which prints as "-0.0" in
    logs and sorts before 0.0 under total orderings)."""
    for transform, want in (("negative", 0.0), ("complement", 1.0), ("clipped", 1.0)):
        rewards = TERReward(transform=transform).scores(["the cat sat", "a b"], [["the cat sat"], ["a b"]])
        assert rewards == [want, want]
        assert all(math.copysign(1.0, r) == 1.0 for r in rewards), transform
    assert math.copysign(1.0, compute_score("d", "the cat", "the cat", None, metric="ter")) == 1.0
    assert TERReward().scores(["the cat"], [["a cat"]]) == [-0.5]


def test_chrf_and_ter_rewards_in_each_convention(backend):
    """chrF (0-1) and TER (sign-aware transforms) through TRL's call, verl's hooks (``metric``
    among the options) and OpenRLHF's reward_func: sacreBLEU's sentence scores."""
    inputs = [{"prompt": f"p{i}", "reference": r} for i, r in enumerate(REFS)]
    prompts = [ex["prompt"] for ex in inputs]
    chrf = _sacre_chrf(HYP, REFS)
    assert _trl_call(CHRFReward(), prompts, HYP, None, inputs) == chrf
    chrfpp = CHRFReward(word_order=2, lowercase=True, name="chrf++")
    assert chrfpp.__name__ == "chrf++"
    assert _trl_call(chrfpp, prompts, HYP, None, inputs) == _sacre_chrf(HYP, REFS, word_order=2, lowercase=True)
    ter = _sacre_ter(HYP_S, REFS_S)
    assert len(ter) > 10
    assert max(ter) > 0
    inputs = [inputs[i] for i in SHORT]
    assert _trl_call(TERReward(), [ex["prompt"] for ex in inputs], HYP_S, None, inputs) == [-t / 100 for t in ter]
    assert TERReward(transform="complement").scores(HYP_S, REFS_S) == [1 - t / 100 for t in ter]
    assert TERReward(transform="clipped").scores(["a b c d e f", "x"], ["a b", "x"]) == [0.0, 1.0]  # TER 200 -> 0
    assert TERReward(normalized=True, case_sensitive=True).scores(HYP_S, REFS_S) == [
        -t / 100 for t in _sacre_ter(HYP_S, REFS_S, normalized=True, case_sensitive=True)
    ]
    # verl: options from its config, metric among them
    assert compute_score("wmt23", HYP[0], REFS[0], None, metric="chrf") == chrf[0]
    assert compute_score_batch(["d"] * len(HYP_S), HYP_S, REFS_S, None, metric="ter", transform="complement") == [
        1 - t / 100 for t in ter
    ]
    with pytest.raises(ValueError, match="transform must be one of negative, complement, clipped"):
        TERReward(transform="inverse")
    with pytest.raises(ValueError, match="metric must be one of bleu, chrf, ter"):
        compute_score("d", "a", "a", None, metric="meteor")
    with pytest.raises(TypeError, match="does not score token ids"):
        CHRFReward().id_scores([[1]], [[1]])
    with pytest.raises(ValueError, match="beta"):
        CHRFReward(beta=-1)


@pytest.mark.integration
def test_ter_reward_func_in_openrlhfs_convention(backend):
    """OpenRLHF's reward_func of a TER reward: the rewards as a torch tensor (torch is imported
    by the call), sacreBLEU's sentence TER negated."""
    integration("torch")
    ter = _sacre_ter(HYP_S[:3], REFS_S[:3])
    out = TERReward().reward_func([f"q{h}" for h in HYP_S[:3]], ["q"] * 3, REFS_S[:3])
    assert out["rewards"].tolist() == pytest.approx([-t / 100 for t in ter], rel=1e-6)
    assert set(out["extra_logs"]) == {"ter"}


REQUIRE_TRL = os.environ.get("RAPIDBLEU_REQUIRE_TRL") == "1"


@pytest.mark.integration
@pytest.mark.skipif(
    not REQUIRE_TRL and importlib.util.find_spec("trl") is None, reason="TRL not installed (pip install trl)"
)
def test_trl_grpo_step_with_a_tiny_random_model(tmp_path):
    """One GRPOTrainer step: a 1-layer Llama built from a config and a word-level tokenizer built
    here; four reward functions (BLEUReward sacreBLEU style and NLTK BLEU-2 method4, CHRFReward
    chrF++, TERReward) receive TRL's real call and their values are the ones TRL logs."""
    import torch
    from datasets import Dataset
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import AutoModelForCausalLM, LlamaConfig, PreTrainedTokenizerFast
    from trl import GRPOConfig, GRPOTrainer

    words = [
        "translate",
        ":",
        "the",
        "cat",
        "sat",
        "on",
        "mat",
        "a",
        "dog",
        "barked",
        "at",
        "postman",
        "it",
        "rained",
        "all",
        "day",
        ".",
    ]
    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2, **{w: i + 3 for i, w in enumerate(dict.fromkeys(words))}}
    backend_tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend_tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok = PreTrainedTokenizerFast(tokenizer_object=backend_tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=2, max_position_embeddings=64, pad_token_id=0, eos_token_id=1, bos_token_id=1,
    )  # fmt: skip
    model = AutoModelForCausalLM.from_config(config)
    data = Dataset.from_dict(
        {
            "prompt": ["translate : the cat sat", "translate : a dog barked", "translate : it rained", "translate : mat"],
            "reference": [["the cat sat on the mat"], ["a dog barked at the postman"], ["it rained all day"],
                          ["the mat", "a mat"]],
        }
    )  # fmt: skip
    calls = []

    def recorded(base):
        class Recorded(base):
            def __call__(self, **kwargs):
                out = super().__call__(**kwargs)
                calls.append((self.__name__, kwargs, out))
                return out

        return Recorded

    rewards = [
        recorded(BLEUReward)(),
        recorded(BLEUReward)(style="nltk", weights=(0.5, 0.5), smoothing_function="method4", name="bleu2"),
        recorded(CHRFReward)(word_order=2),
        recorded(TERReward)(),
        recorded(ConsensusReward)(),
    ]
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=2, max_completion_length=6,
        max_steps=1, logging_steps=1, report_to="none", use_cpu=True, save_strategy="no", disable_tqdm=True,
    )  # fmt: skip
    trainer = GRPOTrainer(model=model, reward_funcs=rewards, args=args, train_dataset=data, processing_class=tok)
    trainer.train()

    assert [c[0] for c in calls] == ["bleu", "bleu2", "chrf", "ter", "chrf_consensus"]
    log = trainer.state.log_history[0]
    for name, kwargs, out in calls:
        assert {"prompts", "completions", "completion_ids", "reference", "trainer_state"} <= set(kwargs)
        hyps, refs = kwargs["completions"], kwargs["reference"]
        assert all(isinstance(h, str) for h in hyps)
        assert len(out) == len(hyps) == 4
        if name == "bleu":
            assert out == _sacre(hyps, refs)
        elif name == "bleu2":
            assert out == _nltk(hyps, refs, (0.5, 0.5), M4)
        elif name == "chrf":
            assert out == _sacre_chrf(hyps, refs, word_order=2)
        elif name == "chrf_consensus":  # (each prompt's num_generations=2 completions: one another)
            want = _consensus_want(hyps, kwargs["prompts"], _chrf_score)
            assert out == want
        else:
            assert out == [-t / 100 for t in _sacre_ter(hyps, refs)]
        assert log[f"rewards/{name}/mean"] == pytest.approx(sum(out) / len(out), rel=1e-5)
    assert "torch" in sys.modules


# -- consensus (MBR) rewards: completions of one prompt against one another ------------------
def _chrf_score(hypothesis, reference):
    return sacrebleu.CHRF().sentence_score(hypothesis, [reference]).score


def _consensus_want(texts, groups, score, include_self=False, transform=lambda u: u / 100):
    """The definition: the transform of each completion's mean utility over the others of its
    prompt (over the whole group with ``include_self``)."""
    want = []
    for i, (t, g) in enumerate(zip(texts, groups, strict=True)):
        others = [texts[j] for j in range(len(texts)) if groups[j] == g and (include_self or j != i)]
        want.append(transform(sum(score(t, o) for o in others) / len(others)))
    return want


def test_consensus_reward_groups_completions_by_prompt():
    texts = [HYP[0], REF[0], REF2[0], HYP[1], REF[1]]
    prompts = ["p0", "p0", "p1", "p0", "p1"]  # (TRL repeats each prompt; a group need not be contiguous)
    want = _consensus_want(texts, prompts, _chrf_score)
    reward = ConsensusReward()
    assert reward.__name__ == "chrf_consensus"
    assert reward(prompts=prompts, completions=texts, trainer_state=None) == want  # (the mean of the others)
    with pytest.raises(ValueError, match=r"completions\[5\] is the only completion of its prompt"):
        reward(prompts=[*prompts, "p2"], completions=[*texts, HYP[2]])
    alone = ConsensusReward(include_self=True)(prompts=["p2"], completions=[HYP[2]])
    assert alone == [_chrf_score(HYP[2], HYP[2]) / 100]
    conversational = [[{"role": "user", "content": p}] for p in prompts]
    completions = [[{"role": "assistant", "content": t}] for t in texts]
    assert reward(prompts=conversational, completions=completions) == reward(prompts=prompts, completions=texts)
    whole = ConsensusReward(include_self=True).group_scores(texts, prompts)
    assert whole == pytest.approx(_consensus_want(texts, prompts, _chrf_score, True), rel=1e-12)


def test_consensus_reward_of_ter_and_bleu():
    import rapidbleu

    texts, prompts = [HYP[3], REF[3], REF2[3], HYP[4], REF[4]], ["a", "a", "a", "b", "b"]
    ter, bleu = sacrebleu.TER(), sacrebleu.BLEU(effective_order=True)
    got = ConsensusReward(rapidbleu.TER()).group_scores(texts, prompts)
    ter_score = lambda h, r: ter.sentence_score(h, [r]).score  # noqa: E731
    assert got == _consensus_want(texts, prompts, ter_score, transform=lambda u: -u / 100)
    got = ConsensusReward(rapidbleu.BLEU()).group_scores(texts, prompts)
    assert got == _consensus_want(texts, prompts, lambda h, r: bleu.sentence_score(h, [r]).score)


def test_consensus_reward_errors():
    reward = ConsensusReward()
    with pytest.raises(TypeError, match="against the others of their prompt"):
        reward.compute_score("d", "a b", "a b")
    with pytest.raises(ValueError, match="3 completions but 2 prompts"):
        reward.group_scores(["a", "b", "c"], ["p", "p"])
    with pytest.raises(TypeError, match=r"completions\[1\] is a int"):
        reward.group_scores(["a", 1], ["p", "p"])
    with pytest.raises(TypeError, match="needs prompts and completions"):
        reward(completions=["a"])
    with pytest.raises(TypeError, match="metric must be a rapidbleu metric"):
        ConsensusReward("chrf")
    with pytest.raises(TypeError, match="prompts is a single str"):
        reward(prompts="abc", completions=["x y", "x y", "x z"])
    with pytest.raises(TypeError, match="include_self"):
        ConsensusReward(include_self="no")


@pytest.mark.integration
def test_consensus_reward_openrlhf():
    integration("torch")
    reward = ConsensusReward()
    prompts = ["q1 ", "q1 ", "q2 ", "q2 "]
    responses = [HYP[5], REF[5], HYP[6], REF[6]]
    got = reward.reward_func([p + r for p, r in zip(prompts, responses, strict=True)], prompts, None)
    assert got["rewards"].tolist() == pytest.approx(reward.group_scores(responses, prompts), rel=1e-6)
