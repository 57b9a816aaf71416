"""Ids as models emit them: the cleaning rule of ``rapidbleu.ids`` with Hugging Face's
names for the special ids, tensors on any device, string arrays, and input that must fail.

Scores are compared with sacreBLEU 2.6.0 (``tokenize='none'`` on the cleaned ids written as
space-separated strings) with ``==``.  Every test runs once per backend.
"""

import warnings

import numpy as np
import pytest
import sacrebleu
from conftest import clean_ids_plain, integration
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rapidbleu import BLEU
from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch
from rapidbleu.ids import clean_ids, corpus_bleu_ids, stats_ids, to_id_lists

pytestmark = pytest.mark.usefixtures("backend")

# generate() output of an encoder-decoder model (BART/mBART: every row starts with the
# decoder-start token, here the eos id 2, then the bos 0; right padding with 1)
PAD, EOS, BOS = 1, 2, 0
HYP = [[2, 0, 250, 251, 252, 253, 2, 1], [2, 0, 300, 301, 302, 2, 1, 1]]
REF = [[0, 250, 251, 252, 253, 2, 1, 1], [0, 300, 301, 302, 303, 2, 1, 1]]
# what the rule leaves: with pad and eos only, the bos 0 is content; with bos_token_id=0 it goes
HYP_CLEAN = ["0 250 251 252 253", "0 300 301 302"]
REF_CLEAN = ["0 250 251 252 253", "0 300 301 302 303"]


def s(ids):
    return " ".join(map(str, ids))


def test_generate_rows_score_like_their_cleaned_strings():
    for kwargs in (
        {"pad_id": PAD, "eos_id": EOS},
        {"pad_token_id": PAD, "eos_token_id": EOS},
        {"pad_token_id": PAD, "eos_id": EOS},
        {"pad_token_id": PAD, "eos_token_id": [EOS]},
    ):
        got = sentence_bleu_batch(HYP, REF, **kwargs)
        want = [
            sacrebleu.sentence_bleu(h, [r], tokenize="none").score for h, r in zip(HYP_CLEAN, REF_CLEAN, strict=False)
        ]
        assert got.tolist() == want
        assert want[0] > 0
        assert want[1] > 0
        score = corpus_bleu_ids(HYP, REF, **kwargs)
        want_corpus = sacrebleu.corpus_bleu(HYP_CLEAN, [REF_CLEAN], tokenize="none")
        assert (score.score, score.sys_len, score.ref_len) == (want_corpus.score, 9, 10)
        assert str(score) == str(want_corpus)
        # padded 2-D arrays: the same
        assert sentence_bleu_batch(np.array(HYP), np.array(REF), **kwargs).tolist() == want
    # the bos named as well (or as decoder_start_token_id, or in special_ids): it goes too
    no_bos_h = [h.replace("0 ", "", 1) for h in HYP_CLEAN]
    no_bos_r = [r.replace("0 ", "", 1) for r in REF_CLEAN]
    want = [sacrebleu.sentence_bleu(h, [r], tokenize="none").score for h, r in zip(no_bos_h, no_bos_r, strict=False)]
    for extra in (
        {"bos_token_id": BOS},
        {"decoder_start_token_id": BOS},
        {"special_ids": {BOS}},
        {"special_ids": [BOS, 99]},
    ):
        assert sentence_bleu_batch(HYP, REF, pad_token_id=PAD, eos_token_id=EOS, **extra).tolist() == want
    assert (
        corpus_bleu_ids(HYP, REF, pad_token_id=PAD, eos_token_id=EOS, bos_token_id=BOS).score
        == sacrebleu.corpus_bleu(no_bos_h, [no_bos_r], tokenize="none").score
    )


def test_left_padding_with_pad_equal_to_eos_gpt2():
    e = 50256
    hyp = np.array([[e, e, 10, 11, 12, 13, e, e], [e, 20, 21, 22, e, 99, 98, e], [10, 11, 12, 14, 15, e, e, e]])
    ref = [[10, 11, 12, 13, e], [20, 21, 22, 23], [10, 11, 12, 13, 14, 15]]
    got = sentence_bleu_batch(hyp, ref, pad_token_id=e, eos_token_id=e)
    hyp_clean = ["10 11 12 13", "20 21 22", "10 11 12 14 15"]  # 99 98 come after the eos: dropped
    ref_clean = ["10 11 12 13", "20 21 22 23", "10 11 12 13 14 15"]
    assert got.tolist() == [
        sacrebleu.sentence_bleu(h, [r], tokenize="none").score for h, r in zip(hyp_clean, ref_clean, strict=False)
    ]
    assert [a.tolist() for a in to_id_lists(hyp, pad_token_id=e, eos_token_id=e)] == [
        [10, 11, 12, 13],
        [20, 21, 22],
        [10, 11, 12, 14, 15],
    ]


def test_several_eos_ids_and_special_ids():
    # Llama-3-style configs list several eos ids; a language code dropped as a special id
    hyp = [[7, 5, 6, 8, 5], [7, 5, 9, 6]]
    assert [a.tolist() for a in to_id_lists(hyp, eos_token_id=[8, 9], special_ids=[7])] == [[5, 6], [5]]
    assert clean_ids([8, 7, 5, 6, 9, 5], eos_token_id=[8, 9], special_ids={7}).tolist() == [5, 6]
    assert clean_ids(np.array([3, 4, 3]), 3).tolist() == [4]  # pad_id positional, as before


def test_a_name_and_its_alias_are_not_both_accepted():
    with pytest.raises(TypeError, match="give pad_token_id or its alias pad_id, not both"):
        stats_ids(HYP, REF, pad_token_id=1, pad_id=1)
    with pytest.raises(TypeError, match="give eos_token_id or its alias eos_id, not both"):
        sentence_bleu_batch(HYP, REF, eos_token_id=2, eos_id=2)
    with pytest.raises(TypeError, match="bos_token_id must be an int or None, got float"):
        stats_ids(HYP, REF, bos_token_id=0.0)
    with pytest.raises(TypeError, match=r"special_ids\[1\] must be an int or None, got str"):
        stats_ids(HYP, REF, special_ids=[1, "2"])
    with pytest.raises(TypeError, match="special_ids must be an int or a collection of ints, got str"):
        stats_ids(HYP, REF, special_ids="12")


def _runtime_warnings(record):
    return [w for w in record if issubclass(w.category, RuntimeWarning)]


def test_all_hypotheses_emptied_warns_once():
    hyp = [[2, 2, 2], [2, 1, 1]]  # cleaning with pad 1 and eos 2 leaves nothing
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = sentence_bleu_batch(hyp, REF, pad_token_id=1, eos_token_id=2)
    assert got.tolist() == [0.0, 0.0]
    (w,) = _runtime_warnings(record)
    assert "left all 2 hypotheses empty" in str(w.message)
    assert "pad_token_id=1, eos_token_id=2" in str(w.message)
    assert w.filename == __file__  # it points at the caller
    for call in (
        lambda: corpus_bleu_ids(hyp, REF, pad_id=1, eos_id=2),
        lambda: stats_ids(np.array(hyp), REF, pad_id=1, eos_id=2),
        lambda: self_bleu(hyp, pad_id=1, eos_id=2),
        lambda: pairwise_bleu(hyp, pad_id=1, eos_id=2),
    ):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            call()
        assert len(_runtime_warnings(record)) == 1
    # no warning when some hypothesis keeps an id, or when nothing is cleaned
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        sentence_bleu_batch([[2, 2, 2], [2, 5, 1]], REF, pad_token_id=1, eos_token_id=2)
        sentence_bleu_batch([[], []], REF)
        sentence_bleu_batch([[], []], REF, pad_token_id=1)  # empty before cleaning: not cleaning's doing


# ------------------------------------------------------------------- tensors on any device


class FakeCudaTensor:
    """Quacks like a torch tensor on a GPU: ``__array__`` refuses, ``.detach().cpu()`` works."""

    device = "cuda:0"

    def __init__(self, data):
        self._a = np.asarray(data)
        self.moved = False

    def __array__(self, dtype=None, copy=None):
        raise TypeError("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() first")

    def detach(self):
        return self

    def cpu(self):
        return np.array(self._a)


def test_device_tensors_are_moved_to_host_without_torch():
    want = sentence_bleu_batch(HYP, REF, pad_token_id=PAD, eos_token_id=EOS)
    assert (
        sentence_bleu_batch(FakeCudaTensor(HYP), FakeCudaTensor(REF), pad_token_id=PAD, eos_token_id=EOS).tolist()
        == want.tolist()
    )
    rows = [FakeCudaTensor(h) for h in HYP]
    assert (
        sentence_bleu_batch(rows, [FakeCudaTensor(r) for r in REF], pad_token_id=PAD, eos_token_id=EOS).tolist()
        == want.tolist()
    )
    assert (
        corpus_bleu_ids(FakeCudaTensor(HYP), [FakeCudaTensor(REF)], pad_id=PAD, eos_id=EOS).score
        == corpus_bleu_ids(HYP, REF, pad_id=PAD, eos_id=EOS).score
    )


@pytest.mark.integration
def test_torch_cpu_tensors():
    torch = integration("torch")
    want = sentence_bleu_batch(HYP, REF, pad_token_id=PAD, eos_token_id=EOS).tolist()
    H, R = torch.tensor(HYP), torch.tensor(REF, dtype=torch.int32)
    assert sentence_bleu_batch(H, R, pad_token_id=PAD, eos_token_id=EOS).tolist() == want
    assert sentence_bleu_batch(list(H), list(R), pad_token_id=PAD, eos_token_id=EOS).tolist() == want
    out = torch.tensor(HYP, dtype=torch.float32, requires_grad=True)
    with pytest.raises(TypeError, match="dtype float32"):
        sentence_bleu_batch(out, R, pad_token_id=PAD)
    with pytest.raises(TypeError, match="dtype bool"):
        sentence_bleu_batch(H > 0, R)
    assert self_bleu(H, pad_token_id=PAD, eos_token_id=EOS).shape == (2,)


@pytest.mark.integration
def test_torch_cuda_tensors():
    torch = integration("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    want = sentence_bleu_batch(HYP, REF, pad_token_id=PAD, eos_token_id=EOS).tolist()
    H, R = torch.tensor(HYP, device="cuda"), torch.tensor(REF, device="cuda")
    assert sentence_bleu_batch(H, R, pad_token_id=PAD, eos_token_id=EOS).tolist() == want
    assert (
        corpus_bleu_ids(list(H), R, pad_token_id=PAD, eos_token_id=EOS).score
        == corpus_bleu_ids(HYP, REF, pad_token_id=PAD, eos_token_id=EOS).score
    )


# ------------------------------------------------------------------- text as numpy arrays


def test_numpy_string_arrays_as_hypotheses_and_references():
    hyps = ["The cat sat on mat.", "A dog barked."]
    r1 = ["The cat sat on the mat.", "The dog barked."]
    r2 = ["A cat sat on the mat.", "A dog barked loudly."]
    want = [sacrebleu.sentence_bleu(h, [a, b]).score for h, a, b in zip(hyps, r1, r2, strict=False)]
    for H in (hyps, np.array(hyps), np.array(hyps, dtype=object)):
        for R in ([r1, r2], [np.array(r1), np.array(r2)], np.array([r1, r2]), (np.array(r1, dtype=object), r2)):
            assert sentence_bleu_batch(H, R).tolist() == want
    one = [sacrebleu.sentence_bleu(h, [a]).score for h, a in zip(hyps, r1, strict=False)]
    assert sentence_bleu_batch(np.array(hyps), np.array(r1)).tolist() == one  # one stream of strings
    nltk_style = sentence_bleu_batch(np.array(hyps), np.array(r1), weights=(0.5, 0.5))
    assert nltk_style.tolist() == sentence_bleu_batch(hyps, r1, weights=(0.5, 0.5)).tolist()
    assert self_bleu(np.array(hyps + r1)).tolist() == self_bleu(hyps + r1).tolist()


# ------------------------------------------------------------------- nonsense fails first


@pytest.mark.parametrize(
    "call",
    [
        lambda x: stats_ids(x, [[1]]),
        lambda x: corpus_bleu_ids([[1]], x),
        lambda x: sentence_bleu_batch(x, [["a"]]),
        lambda x: sentence_bleu_batch(["a"], x),
        self_bleu,
        pairwise_bleu,
    ],
    ids=["stats_ids-hyps", "corpus_bleu_ids-refs", "batch-hyps", "batch-refs", "self_bleu", "pairwise"],
)
@pytest.mark.parametrize("bad", [{0: [1]}, {(1,), (2,)}, {"a", "b"}], ids=["dict", "set", "set-of-str"])
def test_dict_or_set_is_a_type_error(call, bad):
    with pytest.raises(TypeError, match=r"must be an ordered sequence .* got a (dict|set)"):
        call(bad)


@pytest.mark.parametrize(
    ("hyps", "refs", "match"),
    [
        ([[1, 2.0]], [[1]], r"hypotheses\[0\]\[1\] is a float \(2.0\)"),
        ([[1, None]], [[1]], r"hypotheses\[0\]\[1\] is None"),
        ([[1]], [[1.0]], r"references\[0\]\[0\] is a float \(1.0\)"),
        ([[1]], [[None]], r"references\[0\]\[0\] is None"),
        ([[1], [2]], [[3], [2, None]], r"references\[1\]\[1\] is None"),
        ([[1]], [[[1.5]]], r"references\[0\]\[0\]\[0\] is a float \(1.5\)"),  # a list of streams
        ([[1]], [[{1}]], r"references\[0\]\[0\] must be an ordered sequence .* got a set"),
    ],
)
def test_float_or_none_ids_are_named_with_their_position(hyps, refs, match):
    with pytest.raises(TypeError, match=match):
        stats_ids(hyps, refs)
    with pytest.raises(TypeError, match=match):
        sentence_bleu_batch(hyps, refs)


# ------------------------------------------------------------------- the rule, end to end


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.lists(st.integers(0, 5), max_size=9), st.lists(st.integers(0, 5), min_size=1, max_size=9)),
        min_size=1,
        max_size=8,
    ),
    st.none() | st.integers(0, 3),
    st.lists(st.integers(0, 3), max_size=2),
    st.lists(st.integers(0, 3), max_size=2),
)
def test_cleaning_end_to_end_equals_the_plain_rule(pairs, pad, eos, drop):
    hyps, refs = [list(h) for h, _ in pairs], [list(r) for _, r in pairs]
    clean_h = [clean_ids_plain(h, pad, eos, drop) for h in hyps]
    clean_r = [clean_ids_plain(r, pad, eos, drop) for r in refs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = stats_ids(hyps, [refs], pad_token_id=pad, eos_token_id=eos, special_ids=drop)
    want = BLEU(tokenize="none").corpus_statistics([s(h) for h in clean_h], [[s(r) for r in clean_r]])
    assert np.array_equal(got, want)
