"""TER: rapidbleu's edits, reference lengths and floats equal sacreBLEU 2.6.0's.

Grouped by behaviour: the tercom tokenizer; the edit distance and shifts on token lists
(against ``sacrebleu.metrics.lib_ter`` on random and adversarial pairs, and the two twins
against each other); segment statistics and corpus scores on WMT23 (a sample in every run,
every output under every option set with ``RAPIDBLEU_FULL_TER=1``); the API (sacreBLEU's
classes, functions, signatures, semi-private methods, errors); bounded cost on pathological
segments.  Tests that take ``backend`` run once per backend (``conftest.backend``).

sacreBLEU's TER is slow (minutes per WMT23 en-de system): its edit counts are memoized by
``tests/ter_reference.py`` (in memory, or in ``$RAPIDBLEU_TER_CACHE`` between runs); every
other step of its computation runs as it is.
"""

import json
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import ter_reference
from conftest import HAVE_CYTHON, SAMPLE_DIR, differing_in_threads, full_data_dir, read, systems, wmt23_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter as sacre_lib_ter
from sacrebleu.significance import _bootstrap_resample as sacre_bootstrap
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercom

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core.ter import ter_py as _ter_py
from rapidbleu.metrics import lib_ter
from rapidbleu.tokenizers.tokenizer_ter import TercomTokenizer

ROOT = Path(__file__).resolve().parent.parent
OPTION_SETS = ter_reference.OPTION_SETS
FULL = os.environ.get("RAPIDBLEU_FULL_TER") == "1"
#: With ``RAPIDBLEU_FULL_TER=1``: compare every k-th segment of each output (default 1: all).
FULL_EVERY = int(os.environ.get("RAPIDBLEU_FULL_TER_EVERY", "1"))
SIG_VERSION = f"version:rapidbleu-{rapidbleu.__version__}"

#: The twins compared directly (without the backend fixture).
TWINS = [_ter_py]
if HAVE_CYTHON:
    from rapidbleu._core.ter import ter_cy as _ter_cy

    TWINS.append(_ter_cy)

_FIXTURE_OK = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def option_id(options):
    return "+".join(k for k, v in options.items() if v) or "default"


def sig(metric):
    return metric.get_signature().format().replace(SIG_VERSION, f"version:{sacrebleu.__version__}")


def sacre_rounds(words_hyp, words_ref):
    """sacreBLEU's shift rounds of one pair, from its own private ``_shift``: ``[(best gain,
    candidates evaluated so far), ...]`` (to check what an adversarial case exercises)."""
    ed = sacre_lib_ter.BeamEditDistance(words_ref)
    words, checked, rounds = words_hyp, 0, []
    while True:
        delta, new, checked = sacre_lib_ter._shift(words, words_ref, ed, checked)
        rounds.append((delta, checked))
        if checked >= sacre_lib_ter._MAX_SHIFT_CANDIDATES or delta <= 0:
            return rounds
        words = new


# ============================================================================================
# The tercom tokenizer
# ============================================================================================
TRICKY = [
    "",
    "   ",
    "a b c d.",
    "A ; B ) C : D.",
    "a b (c) d.",
    "Jim's car.",
    "Jim's.",
    "the company's, and its 'scare' quotes'",
    "4.2, 3-4 a.b ,x 1,000.5 -7 x- 9-",
    "&amp;lt; &quot;x&quot; &AMP; &amp;amp;gt; &gt;&lt;",
    "line one\n-hyphen\njoined\n",
    "美众院公布对特",
    "りの拳銃を持",
    "ひらがな",
    "カタカナ",
    "ㇰㇱㇲ",
    "（テスト）。「x」、・ｆｕｌｌ，．！？",
    "\u3200\u3300\u2e80\u31c0\uf900\ufe30\u3f22\u3f23",
    "İstanbul ΣΑΣ straße ǅ",
    "tab\there\u00a0nbsp\u3000ideo\u200bzwsp",
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_tokenizer_equals_sacrebleus_on_tricky_strings(options):
    ours, theirs = TercomTokenizer(**options), SacreTercom(**options)
    for text in TRICKY:
        assert ours(text) == theirs(text), (options, text)


def test_tokenizer_equals_sacrebleus_on_wmt23_lines():
    """The first 50 lines of every WMT23 sample file (references and outputs); every line of the
    full selection (sources too) with ``RAPIDBLEU_FULL_TER=1``."""
    lines = []
    for path in sorted(p for p in (full_data_dir() if FULL else SAMPLE_DIR).rglob("generaltest2023.*") if p.is_file()):
        lines += read(path) if FULL else read(path)[:50]
    assert len(lines) > 1000
    for options in OPTION_SETS:
        ours, theirs = TercomTokenizer(**options), SacreTercom(**options)
        bad = [line for line in lines if ours(line) != theirs(line)]
        assert not bad, (options, bad[:3])


def test_tokenizer_class_attributes_and_signature():
    assert TercomTokenizer.ASIAN_PUNCT == SacreTercom.ASIAN_PUNCT
    assert TercomTokenizer.FULL_WIDTH_PUNCT == SacreTercom.FULL_WIDTH_PUNCT
    assert TercomTokenizer().signature() == SacreTercom().signature() == "tercom"
    assert rapidbleu.TER().tokenizer_signature == "tercom"


def test_references_are_tokenized_twice_as_sacrebleu_does(backend):
    """sacreBLEU preprocesses each reference twice; with ``normalized`` that differs from once
    (``'s`` before a period): the statistics must follow it."""
    tok = TercomTokenizer(normalized=True)
    assert tok("Jim's.") != tok(tok("Jim's."))  # the case exercises the difference
    hyps = ["Jim's.", "Jim's car.", "the firm's."]
    refs = [["Jim's.", "Jim's car.", "The firm's."]]
    ours = rapidbleu.TER(normalized=True).corpus_statistics(hyps, refs).tolist()
    theirs = SacreTER(normalized=True)._extract_corpus_statistics(hyps, refs)
    assert ours == theirs
    once = _ter_py.translation_edit_rate(tok(hyps[0]).split(), tok(refs[0][0]).split())
    assert once == (0, 2)  # jim's . against jim 's .
    assert ours[0] == [2.0, 3.0]


def test_lowercasing_is_idempotent_so_default_references_are_tokenized_once():
    """Without ``normalized`` and ``no_punct`` the tercom tokenizer lowercases and splits, and
    the statistics tokenize references once instead of twice: that is the same only because
    every character of ``c.lower()`` is its own lowercase, for every code point (checked on
    the running interpreter's Unicode tables)."""
    changed = [hex(c) for c in range(sys.maxunicode + 1) if any(x.lower() != x for x in chr(c).lower())]
    assert changed == []
    tok = TercomTokenizer()
    for text in TRICKY:
        assert tok(tok(text)) == tok(text)


# ============================================================================================
# Edit distance and shifts on token lists
# ============================================================================================
_word = st.sampled_from("abcde")
_words = st.lists(_word, max_size=40)


@given(_words, _words)
@_FIXTURE_OK
def test_translation_edit_rate_equals_sacrebleus(backend, words_hyp, words_ref):
    expected = sacre_lib_ter.translation_edit_rate(words_hyp, words_ref)
    assert _backend.ter.translation_edit_rate(words_hyp, words_ref) == expected
    assert lib_ter.translation_edit_rate(words_hyp, words_ref) == expected


@given(_words, _words)
@settings(deadline=None)
def test_beam_edit_distance_trace_and_alignment_equal_sacrebleus(words_hyp, words_ref):
    distance, trace = lib_ter.BeamEditDistance(words_ref)(words_hyp)
    assert (distance, trace) == sacre_lib_ter.BeamEditDistance(words_ref)(words_hyp)
    assert lib_ter.trace_to_alignment(trace) == sacre_lib_ter.trace_to_alignment(trace)


def _moved(rnd, words, moves, subs, vocab):
    """``words`` with random block moves and substitutions (a reference a shift can repair)."""
    out = list(words)
    for _ in range(moves):
        if len(out) > 2:
            s = rnd.randrange(len(out))
            block = out[s : s + rnd.randint(1, 12)]
            del out[s : s + len(block)]
            t = rnd.randrange(len(out) + 1)
            out[t:t] = block
    for _ in range(subs):
        if out:
            out[rnd.randrange(len(out))] = rnd.choice(vocab)
    return out


def _cap_case():
    """A pair whose last round reaches the cap of 1000 candidates with a positive gain."""
    h = "c b a c c b c c b c c c b a b a b b b a a c b a b b a b c b c c a b c c c a b c a b c a b a a c c c a a b a a b a a c c c a b a a b a"
    r = "c b a c c a b c b c c b c b c b a a c b a b b a b c b c c a b c c c a b c a b a a c c a b a a c a b a c b a b a b a c c c a b a a b a"
    return h.split(), r.split()


ADVERSARIAL = {
    "both empty": ([], []),
    "empty hypothesis": ([], ["a", "b"]),
    "empty reference": (["a", "b", "c"], []),
    "identical": (["a", "b", "c"], ["a", "b", "c"]),
    "one shift repairs": (["d", "e", "f", "g", "h", "a", "b", "c"], ["a", "b", "c", "d", "e", "f", "g", "h"]),
    "swap with the words after the block": (["x", "a", "b", "y", "c", "d"], ["x", "y", "c", "a", "b", "d"]),
    "150 repeated words vs 120": (["a"] * 150, ["a"] * 120),
    "alternating pairs swapped": (["a", "b"] * 60, ["b", "a"] * 60),
    "repeated word, one other in front": (["a"] * 120, ["b"] + ["a"] * 119),
    "3 words vs 200 (widened beam)": (["w3", "w1", "w7"], [f"w{i % 9}" for i in range(200)]),
    "200 words vs 3": ([f"w{i % 9}" for i in range(200)], ["w3", "w1", "w7"]),
    "56 vs 1 (beam width at the rule's edge)": ([f"w{i % 5}" for i in range(56)], ["w2"]),
    "1 vs 51": (["w2"], [f"w{i % 5}" for i in range(51)]),
    "1 vs 52": (["w2"], [f"w{i % 5}" for i in range(52)]),
    "cap reached, last best discarded": _cap_case(),
}


@pytest.mark.parametrize("case", list(ADVERSARIAL), ids=list(ADVERSARIAL))
def test_adversarial_pairs_equal_sacrebleus(backend, case):
    words_hyp, words_ref = ADVERSARIAL[case]
    expected = ter_reference.memo().translation_edit_rate(words_hyp, words_ref)  # sacreBLEU's, once
    assert _backend.ter.translation_edit_rate(words_hyp, words_ref) == expected


def test_cap_case_reaches_the_cap_with_a_positive_gain():
    """The adversarial pair above exercises the discard rule: in sacreBLEU's own run the last
    round reaches 1000 candidates while its best shift would still gain."""
    rounds = sacre_rounds(*ADVERSARIAL["cap reached, last best discarded"])
    assert rounds[-1][1] >= 1000, rounds
    assert rounds[-1][0] > 0, rounds
    assert len(rounds) > 2, rounds


def test_random_pairs_with_moved_blocks_equal_sacrebleus(backend):
    """Pairs of up to 50 words where shifts matter (blocks moved, words substituted)."""
    rnd = random.Random(20231)
    memo = ter_reference.memo()
    for _ in range(14):
        vocab = [f"w{i}" for i in range(rnd.choice([3, 5, 10, 40]))]
        hyp = [rnd.choice(vocab) for _ in range(rnd.randint(0, 50))]
        ref = _moved(rnd, hyp, rnd.randint(0, 6), rnd.randint(0, 6), vocab)
        assert _backend.ter.translation_edit_rate(hyp, ref) == memo.translation_edit_rate(hyp, ref), (hyp, ref)


def _near(rnd, ref, vocab, moves, edits):
    """A hypothesis near ``ref``: blocks of it moved, then words substituted, deleted, inserted."""
    hyp = _moved(rnd, ref, moves, 0, vocab)
    for _ in range(edits):
        op = rnd.randrange(3)
        if op == 0 and hyp:
            hyp[rnd.randrange(len(hyp))] = rnd.choice(vocab)
        elif op == 1 and hyp:
            del hyp[rnd.randrange(len(hyp))]
        else:
            hyp.insert(rnd.randint(0, len(hyp)), rnd.choice(vocab))
    return hyp


class _Text(str):
    """A ``str`` subclass: not the plain case (the checks accept it, by their own pass)."""


#: Inputs of ``plain_streams``: (hypotheses, reference streams, whether it is the plain case).
PLAIN_CASES = [
    (["a b", "c"], [["a", "c d"]], True),
    (["a b", "c"], [["a", "c d"], ["x", "y"]], True),
    (["a b", "c"], [["a", None]], False),
    (["a b", "c"], [["a"]], False),
    (["a b", "c"], [("a", "c")], False),
    (("a b", "c"), [["a", "c"]], False),
    (["a b", "c"], (["a", "c"],), False),
    ([], [[]], False),
    (["a"], [], False),
    ([_Text("a")], [["a"]], False),
    (["a"], [[_Text("a")]], False),
    ([1], [["a"]], False),
    (["a"], [[b"a"]], False),
    ("ab", [["a", "b"]], False),
]


@pytest.mark.parametrize("twin", TWINS, ids=lambda t: t.NAME)
@pytest.mark.parametrize(("hyps", "refs", "plain"), PLAIN_CASES)
def test_plain_streams_is_the_case_every_check_passes(twin, hyps, refs, plain):
    """Both twins name the same plain case, and in it TER's front door gives what its checks give
    (the statistics, the signature's reference count)."""
    assert twin.plain_streams(hyps, refs) is plain
    if plain:
        fast, slow = rapidbleu.TER(), rapidbleu.TER()
        slow._streams(hyps, [tuple(s) for s in refs])  # (a tuple stream: not plain, the checks run)
        assert fast._streams(hyps, refs) == (list(hyps), [list(s) for s in refs])
        assert fast.num_refs == slow.num_refs == len(refs)


#: Pairs where the beam leaves cells out and the bit-vector matrix of ``ter.h`` must give way
#: to the cell-by-cell one (a path of the whole matrix leaves the beam), or must not.
BEAM_CASES = {
    "5 of 60 from the end (the best path leaves the beam)": (
        [f"w{i}" for i in range(55, 60)],
        [f"w{i}" for i in range(60)],
    ),
    "60 vs the last 5": ([f"w{i}" for i in range(60)], [f"w{i}" for i in range(55, 60)]),
    "40 vs 64, 30 words apart": ([f"w{i}" for i in range(30, 64)] + ["x"] * 6, [f"w{i}" for i in range(64)]),
    "64 words, 2 blocks swapped": (
        [f"w{i}" for i in range(32, 64)] + [f"w{i}" for i in range(32)],
        [f"w{i}" for i in range(64)],
    ),
    "65 words (beyond one machine word)": ([f"w{i % 7}" for i in range(65)], [f"w{i % 5}" for i in range(65)]),
    "128 words, 2 blocks swapped (two machine words)": (
        [f"w{i}" for i in range(64, 128)] + [f"w{i}" for i in range(64)],
        [f"w{i}" for i in range(128)],
    ),
    "129 words (beyond two machine words)": ([f"w{i % 7}" for i in range(129)], [f"w{i % 5}" for i in range(129)]),
    "5 of 120 from the end (the best path leaves the beam)": (
        [f"w{i}" for i in range(115, 120)],
        [f"w{i}" for i in range(120)],
    ),
    "90 vs 120, 30 words apart": ([f"w{i}" for i in range(30, 120)], [f"w{i}" for i in range(120)]),
    "1 word, found only at the start of 60": (["a"], ["a"] + ["x"] * 59),
    "3 words, found only at the start of 33 (the last row's first column)": (["a"] * 3, ["a"] * 3 + ["x"] * 30),
    "2 words at the start of 30": (["a", "b"], ["a", "b"] + ["x"] * 28),
}


@pytest.mark.parametrize("case", list(BEAM_CASES), ids=list(BEAM_CASES))
def test_pairs_where_the_beam_cuts_equal_sacrebleus(backend, case):
    words_hyp, words_ref = BEAM_CASES[case]
    expected = ter_reference.memo().translation_edit_rate(words_hyp, words_ref)
    assert _backend.ter.translation_edit_rate(words_hyp, words_ref) == expected


@pytest.mark.skipif(not HAVE_CYTHON, reason="compiled extension not built")
@given(
    st.integers(0, 2**32 - 1),
    st.one_of(st.integers(0, 70), st.integers(60, 135)),
    st.integers(-30, 30),
    st.sampled_from([1, 2, 3, 5, 10, 64]),
)
@settings(max_examples=600, deadline=None)
def test_bit_vectors_equal_the_cell_by_cell_matrix(seed, n_ref, n_diff, n_vocab):
    """``ter.h`` computes pairs of at most 64 reference words in 64-bit vectors and, where the
    compiler has 128-bit integers, of 65 to 128 words in 128-bit ones, checking the cells at the
    beam's edges (and computing the pair cell by cell where the beam changes a value): edits
    equal the cell-by-cell computation's on near and far pairs, beam cut or not, on both sides
    of each machine word's size."""
    rnd = random.Random(seed)
    vocab = [f"w{i}" for i in range(n_vocab)]
    ref = [rnd.choice(vocab) for _ in range(n_ref)]
    form = rnd.random()
    if form < 0.5 and ref:
        hyp = _near(rnd, ref, vocab, rnd.randint(1, 4), rnd.randint(0, max(1, n_ref // 3)))
    elif form < 0.75 and ref:  # a few words from one end of a long reference, the rest unseen
        k = rnd.randint(1, 6)
        ref = ref[:k] + ["x"] * (n_ref - k) if rnd.random() < 0.5 else ["x"] * (n_ref - k) + ref[-k:]
        hyp = ref[:k] if ref[0] != "x" else ref[-k:]
    else:
        hyp = [rnd.choice(vocab) for _ in range(max(0, n_ref + n_diff))]
    assert _ter_cy.translation_edit_rate(hyp, ref) == _ter_cy._edit_rate_cells(hyp, ref), (hyp, ref)


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
@given(st.integers(0, 2**32 - 1), st.integers(0, 200), st.integers(0, 200), st.sampled_from([2, 4, 8, 50]))
@settings(max_examples=20, deadline=None)
def test_twins_agree_on_long_pairs(seed, n_hyp, n_ref, n_vocab):
    rnd = random.Random(seed)
    vocab = [f"w{i}" for i in range(n_vocab)]
    hyp = [rnd.choice(vocab) for _ in range(n_hyp)]
    ref = _moved(rnd, hyp, rnd.randint(0, 10), rnd.randint(0, 20), vocab)[:n_ref] if rnd.random() < 0.7 else []
    ref = ref or [rnd.choice(vocab) for _ in range(n_ref)]
    assert TWINS[0].translation_edit_rate(hyp, ref) == TWINS[1].translation_edit_rate(hyp, ref)


_text = st.lists(
    st.sampled_from(["a", "b", "c", "A", "x.", "(y)", "z's", "美", "，", "4.2", "-", "&amp;"]), max_size=25
).map(" ".join)


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
@given(
    st.lists(st.tuples(_text, _text, st.one_of(st.none(), _text)), min_size=1, max_size=8),
    st.sampled_from(OPTION_SETS),
    st.sampled_from([1, 2]),
)
@settings(max_examples=80, deadline=None)
def test_twins_agree_on_segment_statistics(segments, options, workers):
    hyps = [h for h, _, _ in segments]
    streams = [[r for _, r, _ in segments], [o for _, _, o in segments]]
    a = TWINS[0].ter_stats(hyps, streams, options, workers)
    b = TWINS[1].ter_stats(hyps, streams, options, workers)
    assert a.dtype == b.dtype == np.float64
    assert a.tolist() == b.tolist()


# ============================================================================================
# Statistics and scores on WMT23 against sacreBLEU
# ============================================================================================
def assert_same_as_sacrebleu(hyps, streams, options, where):
    """Per-segment statistics, the corpus TERScore and its text equal sacreBLEU's."""
    ours = rapidbleu.TER(**options)
    stats = ours.corpus_statistics(hyps, streams)
    theirs = ter_reference.sacre_statistics(hyps, streams, **options)
    bad = [(i, stats[i].tolist(), theirs[i]) for i in range(len(hyps)) if stats[i].tolist() != theirs[i]]
    assert not bad, (where, option_id(options), len(bad), bad[:3])
    score = ours.corpus_score(hyps, streams)
    expected = ter_reference.sacre_score(theirs, **options)
    assert (score.score, score.num_edits, score.ref_length) == (expected.score, expected.num_edits, expected.ref_length)
    sacre = SacreTER(**options)
    sacre._cache_references(streams)  # sets num_refs, as scoring does
    assert sig(ours) == sacre.get_signature().format()
    assert score.format(signature=sig(ours)) == expected.format(signature=sacre.get_signature().format())


def _sample(hyps, refs, k=6, max_words=40):
    """``k`` segments spread over the file, short enough for sacreBLEU in every run."""
    short = [i for i in range(len(hyps)) if len(hyps[i].split()) <= max_words and len(refs[i].split()) <= max_words]
    return short[:: max(1, len(short) // k)][:k]


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_wmt23_sample_equals_sacrebleu(backend, options):
    checked = 0
    for pair, system, hyp_path, ref_paths in systems(wmt23_dir()):
        hyps, refs = read(hyp_path), read(ref_paths[0])
        idx = _sample(hyps, refs)
        assert_same_as_sacrebleu([hyps[i] for i in idx], [[refs[i] for i in idx]], options, (pair, system))
        checked += 1
    assert checked == 21


def _he_en(data):
    """he-en: the strongest system, references A and B, and the weakest system's output."""
    base = [s for s in systems(data) if s[0] == "he-en"]
    hyps = read(next(s[2] for s in base if s[1] == "ONLINE-B"))
    ref_a, ref_b = (read(p) for p in sorted(base[0][3]))
    other = read(next(s[2] for s in base if s[1] == "Samsung_Research_Philippines"))
    return hyps, ref_a, ref_b, other


def _reference_sets(ref_a, ref_b, other):
    """1, 2 and 3 references, and a variable number (None where a stream has none)."""
    var_b = [r if i % 3 else None for i, r in enumerate(ref_b)]
    var_c = [r if i % 4 == 1 else None for i, r in enumerate(other)]
    return {
        "1 ref": [ref_a],
        "2 refs": [ref_a, ref_b],
        "3 refs": [ref_a, ref_b, other],
        "var refs": [ref_a, var_b, var_c],
    }


@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[8], OPTION_SETS[15]], ids=option_id)
def test_wmt23_sample_with_1_2_3_and_variable_references(backend, options):
    hyps, ref_a, ref_b, other = _he_en(wmt23_dir())
    idx = _sample(hyps, ref_a, k=10, max_words=30)
    pick = lambda lines: [lines[i] for i in idx]  # noqa: E731
    for name, streams in _reference_sets(pick(ref_a), pick(ref_b), pick(other)).items():
        assert_same_as_sacrebleu(pick(hyps), streams, options, name)
        if name == "var refs":
            metric = rapidbleu.TER(**options)
            metric.corpus_score(pick(hyps), streams)
            assert metric.num_refs == -1
            assert "nrefs:var" in str(metric.get_signature())


@pytest.mark.skipif(not FULL, reason="every WMT23 output under every option set: set RAPIDBLEU_FULL_TER=1")
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_wmt23_every_output_equals_sacrebleu(backend, options):
    """Every WMT23 output (every ``RAPIDBLEU_FULL_TER_EVERY``-th segment of it), reference A
    and all references, and he-en with 3 and a variable number of references."""
    data = full_data_dir()
    pick = lambda lines: ter_reference.every_kth(lines, FULL_EVERY)  # noqa: E731
    for pair, system, hyp_path, ref_paths in systems(data):
        hyps = pick(read(hyp_path))
        streams = [pick(read(p)) for p in ref_paths]
        assert_same_as_sacrebleu(hyps, streams[:1], options, (pair, system, "refA"))
        if len(streams) > 1:
            assert_same_as_sacrebleu(hyps, streams, options, (pair, system, "all refs"))
    hyps, ref_a, ref_b, other = (pick(lines) for lines in _he_en(data))
    for name, streams in _reference_sets(ref_a, ref_b, other).items():
        if name in ("3 refs", "var refs"):
            assert_same_as_sacrebleu(hyps, streams, options, ("he-en", name))


# ============================================================================================
# The API
# ============================================================================================
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him.", "", "Jim's car."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first.", "", "Jim's car!"],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog.", None, None],
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_corpus_and_sentence_scores_equal_sacrebleus(backend, options):
    ours, theirs = rapidbleu.TER(**options), SacreTER(**options)
    for refs in (REFS, REFS[:1], [REFS[0][:4], REFS[1][:4]]):
        hyps = HYPS[: len(refs[0])]
        a, b = ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs)
        assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
        assert sig(ours) == theirs.get_signature().format()
        assert ours.get_signature().format(short=True).replace(
            f"v:rapidbleu-{rapidbleu.__version__}", f"v:{sacrebleu.__version__}"
        ) == theirs.get_signature().format(short=True)
        for width in (1, 2, 4):
            assert a.format(width=width) == b.format(width=width)
            assert a.format(width=width, signature=sig(ours)) == b.format(width=width, signature=sig(ours))
            assert a.format(width=width, score_only=True) == b.format(width=width, score_only=True)
        assert json.loads(a.format(signature=sig(ours), is_json=True)) == json.loads(
            b.format(signature=sig(ours), is_json=True)
        )
        assert repr(a) == repr(b)
    for i, hyp in enumerate(HYPS):
        refs = [r[i] for r in REFS]
        a, b = ours.sentence_score(hyp, refs), theirs.sentence_score(hyp, refs)
        assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
        assert ours.sentence_scores([hyp], [[r] for r in refs]).tolist() == [b.score]


@pytest.mark.parametrize(
    ("hyps", "refs"),
    [
        (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"]),
        (["dddd eeee ffff"], ["aaaa bbbb cccc"]),
        ([""], ["a"]),
        (["a"], [""]),
        ([""], [""]),
        (["", "", ""], ["", "", ""]),
        (["a b", ""], ["", ""]),
        (["d e f g h a b c"], ["a b c d e f g h"]),
    ],
)
def test_empty_and_small_corpora_equal_sacrebleus(backend, hyps, refs):
    a, b = rapidbleu.corpus_ter(hyps, [refs]), sacrebleu.corpus_ter(hyps, [refs])
    assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
    a, b = rapidbleu.sentence_ter(hyps[0], [refs[0]]), sacrebleu.sentence_ter(hyps[0], [refs[0]])
    assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)


def test_module_paths_and_names():
    import rapidbleu.compat
    import rapidbleu.metrics
    import rapidbleu.metrics.ter
    import rapidbleu.tokenizers.tokenizer_ter

    assert rapidbleu.metrics.TER is rapidbleu.metrics.ter.TER is rapidbleu.TER
    assert rapidbleu.metrics.TERScore is rapidbleu.metrics.ter.TERScore is rapidbleu.TERScore
    assert rapidbleu.metrics.ter.TERSignature is rapidbleu.TERSignature
    assert rapidbleu.metrics.METRICS["TER"] is rapidbleu.TER
    assert rapidbleu.compat.corpus_ter is rapidbleu.corpus_ter
    assert rapidbleu.compat.sentence_ter is rapidbleu.sentence_ter
    assert rapidbleu.tokenizers.tokenizer_ter.TercomTokenizer is TercomTokenizer
    for name in ("translation_edit_rate", "BeamEditDistance", "trace_to_alignment"):
        assert callable(getattr(lib_ter, name))
        assert hasattr(sacre_lib_ter, name)
    for name in ("TER", "corpus_ter", "sentence_ter"):
        assert name in rapidbleu.__all__
        assert name in sacrebleu.__all__


def test_semi_private_methods_equal_sacrebleus(backend):
    for options in (OPTION_SETS[0], OPTION_SETS[8]):
        ours, theirs = rapidbleu.TER(**options), SacreTER(**options)
        stats = ours._extract_corpus_statistics(HYPS, REFS)
        assert stats == theirs._extract_corpus_statistics(HYPS, REFS)
        assert [list(map(type, row)) for row in stats] == [[int, float]] * len(HYPS)
        assert ours._cache_references(REFS) == theirs._cache_references(REFS)
        assert ours.num_refs == theirs.num_refs == -1
        assert ours._extract_reference_info(["A b.", "c"]) == theirs._extract_reference_info(["A b.", "c"])
        assert ours._preprocess_segment("Jim's car.  ") == theirs._preprocess_segment("Jim's car.  ")
        kwargs = theirs._extract_reference_info(["the dog bit a man", "a man bit the dog"])
        for hyp in ("the man bit a dog", "", "dog"):
            assert ours._compute_segment_statistics(hyp, kwargs) == theirs._compute_segment_statistics(hyp, kwargs)
        a, b = ours._aggregate_and_compute(stats), theirs._aggregate_and_compute(stats)
        assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
        for rows in (stats[:1], np.array(stats, dtype="float32"), np.array(stats, dtype="float64")):
            a, b = ours._aggregate_and_compute(rows), theirs._aggregate_and_compute(rows)
            assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
            assert type(a.score) is type(b.score)
        for row in ([3, 0.0], [0, 0.0], [7, 2.5], np.array([3, 8.5], dtype="float32"), np.array([3, 8], "int64")):
            a, b = ours._compute_score_from_stats(row), theirs._compute_score_from_stats(row)
            assert (a.score, a.num_edits, a.ref_length, type(a.score)) == (
                b.score,
                b.num_edits,
                b.ref_length,
                type(b.score),
            )
        ours._check_corpus_score_args(HYPS, REFS)
        ours._check_sentence_score_args(HYPS[0], [REFS[0][0]])


def test_sacrebleus_bootstrap_gives_the_same_with_rapidbleus_ter(backend, monkeypatch):
    """sacreBLEU's own resampling (float32 sums through ``_compute_score_from_stats``) gives
    the same scores with rapidbleu's TER in place of its own."""
    hyps, ref_a, _, _ = _he_en(wmt23_dir())
    idx = _sample(hyps, ref_a, k=40, max_words=25)
    hyps, refs = [hyps[i] for i in idx], [[ref_a[i] for i in idx]]
    stats = rapidbleu.TER()._extract_corpus_statistics(hyps, refs)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    _, ours = sacre_bootstrap(stats, rapidbleu.TER(), 300)
    _, theirs = sacre_bootstrap(stats, SacreTER(), 300)
    assert [s.score for s in ours] == [s.score for s in theirs]


#: Summed statistics: edits, and a sum of average reference lengths (multiples of 1/k).
@pytest.mark.parametrize("options", [OPTION_SETS[0], OPTION_SETS[8]], ids=option_id)
def test_bootstrap_interval_equals_sacrebleus(backend, options, monkeypatch):
    """``corpus_score(..., n_bootstrap)``: the same draws, and sacreBLEU's float32 mean and
    half-width (its TER of a float32 resample is a numpy float32)."""
    hyps, ref_a, ref_b, _ = _he_en(wmt23_dir())
    idx = _sample(hyps, ref_a, k=60, max_words=25)
    hyps, refs = [hyps[i] for i in idx], [[ref_a[i] for i in idx], [ref_b[i] for i in idx]]
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ours, theirs = rapidbleu.TER(**options), SacreTER(**options)
    a, b = ours.corpus_score(hyps, refs, n_bootstrap=200), theirs.corpus_score(hyps, refs, n_bootstrap=200)
    assert (a.score, a._mean, a._ci) == (b.score, float(b._mean), float(b._ci))
    assert a.format(signature=sig(ours)) == b.format(signature=theirs.get_signature().format())
    assert sig(ours) == theirs.get_signature().format()  # with bs:200 and seed:12345


_sums = st.lists(
    st.tuples(
        st.integers(0, 10**7), st.integers(0, 10**7).flatmap(lambda t: st.sampled_from([t, t / 2, t / 3, t / 7]))
    ),
    min_size=1,
    max_size=20,
)


@given(_sums, st.sampled_from([None, np.int64, np.float64, np.float32]))
@_FIXTURE_OK
def test_scores_from_statistics_equal_sacrebleus(backend, rows, dtype):
    sacre = SacreTER()
    sums = np.array(rows, dtype=np.float64)
    got = rapidbleu.TER().scores_from_stats(sums, dtype)
    held = rows if dtype is None else np.array(rows, dtype=np.float64).astype(dtype)
    theirs = [sacre._compute_score_from_stats(row).score for row in held]
    expected = [float(x) for x in theirs]
    # numpy.array's type of sacreBLEU's scores: float32 for float32 rows (its bootstrap
    # summaries) unless a row without reference words scores a Python float, else float64
    if theirs:
        assert got.dtype == np.asarray(theirs).dtype
    assert got.tolist() == expected
    if len(TWINS) == 2:
        assert TWINS[0].ter_scores(sums, dtype).tolist() == TWINS[1].ter_scores(sums, dtype).tolist()


def test_workers_do_not_change_statistics(backend):
    hyps, ref_a, ref_b, _ = _he_en(wmt23_dir())
    hyps, refs = hyps[:80], [ref_a[:80], ref_b[:80]]
    base = rapidbleu.TER().corpus_statistics(hyps, refs)
    for workers in (2, -1):
        assert rapidbleu.TER(workers=workers).corpus_statistics(hyps, refs).tolist() == base.tolist()


def test_cached_references(backend):
    cached = rapidbleu.TER(references=REFS)
    a, b = cached.corpus_score(HYPS, None), rapidbleu.TER().corpus_score(HYPS, REFS)
    assert (a.score, a.num_edits, a.ref_length) == (b.score, b.num_edits, b.ref_length)
    c = SacreTER(references=REFS).corpus_score(HYPS, None)
    assert (a.score, a.num_edits, a.ref_length) == (c.score, c.num_edits, c.ref_length)
    with pytest.raises(ValueError, match="cached references have 5 segments"):
        cached.corpus_score(HYPS[:2], None)
    with pytest.raises(RuntimeError, match="no references"):
        rapidbleu.TER().corpus_score(HYPS, None)


def test_protocol_members(backend):
    ter = rapidbleu.TER(normalized=True)
    assert (ter.metric_id, ter.higher_is_better, ter.stats_dtype) == ("ter", False, "float64")
    assert ter.stats_columns == ("num_edits", "ref_length")
    stats = ter.corpus_statistics(HYPS, REFS)
    assert stats.dtype == np.float64
    assert stats.shape == (len(HYPS), 2)
    assert ter.corpus_totals(HYPS, REFS) == ter.combine(stats)
    assert ter.score_from_stats(ter.combine(stats)).score == ter.corpus_score(HYPS, REFS).score
    config = ter.config()
    assert json.loads(json.dumps(config)) == config
    assert config["normalized"] is True
    assert config["num_refs"] == -1
    again = rapidbleu.TER.from_config(config)
    assert again.config() == config
    assert str(again.get_signature()) == str(ter.get_signature())
    scores = ter.sentence_scores(HYPS, REFS)
    assert scores.tolist() == [ter.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS)]


def test_combine_adds_lengths_left_to_right_as_sacrebleu():
    """The corpus reference length is the left-to-right float sum, as sacreBLEU's
    ``sum_of_lists`` adds it (numpy's ``sum`` adds in blocks and gets another float here)."""
    from sacrebleu.utils import sum_of_lists

    rows = [[2, 1e16]] + [[1, 1.0]] * 10
    expected = sum_of_lists([[int(e), float(r)] for e, r in rows])
    assert rapidbleu.TER().combine(np.array(rows)) == expected == [12, 1e16]
    assert float(np.array(rows)[:, 1].sum()) != expected[1]


def test_bad_options_and_inputs_are_clear_errors(backend):
    for name in ("normalized", "no_punct", "asian_support", "case_sensitive"):
        with pytest.raises(TypeError, match=name):
            rapidbleu.TER(**{name: "yes"})
        with pytest.raises(TypeError, match=name):
            rapidbleu.TER(**{name: 2})
    with pytest.raises(ValueError, match="workers"):
        rapidbleu.TER(workers=0)
    with pytest.raises(TypeError, match="workers"):
        rapidbleu.TER(workers=1.5)
    ter = rapidbleu.TER()
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is None"):
        ter.corpus_score(["a", None], [["a", "b"]])
    with pytest.raises(ValueError, match="reference stream 0"):
        ter.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        ter.corpus_score(["a", "b"], [["a", None]])
    with pytest.raises(TypeError, match="string"):
        ter.sentence_score("a", "a b")
    with pytest.raises(ValueError, match="no reference"):
        ter.sentence_score("a", [None])
    with pytest.raises(ValueError, match=r"ref_length\) is nan"):
        ter.score_from_stats([1.0, float("nan")])
    with pytest.raises(ValueError, match=r"num_edits\) is 1.5; edits are whole counts"):
        ter.score_from_stats([1.5, 3.0])
    with pytest.raises(ValueError, match="negative"):
        ter.check_statistics([[1, 2.0], [2, -1.0]])
    with pytest.raises(ValueError, match="one row"):
        ter.score_from_stats([[1, 2.0], [2, 1.0]])
    with pytest.raises(ValueError, match=r"3 columns but need 2: \[num_edits, ref_length\]"):
        ter.scores_from_stats(np.zeros((3, 3)))


def test_int_flags_keep_sacrebleus_signature_text(backend):
    ours, theirs = rapidbleu.TER(normalized=1, no_punct=0), SacreTER(normalized=1, no_punct=0)
    ours.corpus_score(HYPS, REFS)
    theirs.corpus_score(HYPS, REFS)
    assert sig(ours) == theirs.get_signature().format()


def test_every_option_is_in_the_statistics(backend):
    """Each switch changes the statistics of a segment made for it (so none is ignored)."""
    hyp, ref = "The Cat , sat (美国)", "the cat, sat. 美 国"
    base = rapidbleu.TER().corpus_statistics([hyp], [[ref]]).tolist()
    for name in ("normalized", "no_punct", "case_sensitive"):
        assert rapidbleu.TER(**{name: True}).corpus_statistics([hyp], [[ref]]).tolist() != base, name
    norm = rapidbleu.TER(normalized=True).corpus_statistics([hyp], [[ref]]).tolist()
    assert rapidbleu.TER(normalized=True, asian_support=True).corpus_statistics([hyp], [[ref]]).tolist() != norm
    for options in OPTION_SETS:
        assert rapidbleu.TER(**options).corpus_statistics([hyp], [[ref]]).tolist() == (
            SacreTER(**options)._extract_corpus_statistics([hyp], [[ref]])
        )


# ============================================================================================
# rapidbleu.batch: sentence TER of a batch, the pairwise (MBR) matrix
# ============================================================================================
def _head(name, n):
    return read(SAMPLE_DIR / name)[:n]


PAIRWISE = [*_head("generaltest2023.he-en.hyp.ONLINE-B.en", 10), "", "same", "same", "Same thing."]


def test_sentence_ter_batch_is_sacrebleus_loop(backend):
    from rapidbleu.batch import sentence_ter_batch

    hyps = [*_head("generaltest2023.he-en.hyp.ONLINE-Y.en", 25), "", "  ", "x y"]
    ref_a = [*_head("generaltest2023.he-en.ref.refA.en", 25), "x", "", "y x"]
    ref_b = [None if i % 4 == 1 else r for i, r in enumerate(_head("generaltest2023.he-en.ref.refB.en", 25))]
    ref_b += ["", None, "x y"]
    with ter_reference.memoized():
        for opts in ({}, {"normalized": True, "case_sensitive": True}, {"no_punct": True, "asian_support": True}):
            theirs = SacreTER(**opts)
            one = [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, ref_a, strict=True)]
            assert sentence_ter_batch(hyps, ref_a, **opts).tolist() == one  # one stream
            assert sentence_ter_batch(np.array(hyps), [np.array(ref_a)], **opts, workers=2).tolist() == one
            two = [
                theirs.sentence_score(h, [r for r in (a, b) if r is not None]).score
                for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
            ]
            assert sentence_ter_batch(hyps, [ref_a, ref_b], **opts).tolist() == two
            per_hyp = [[r for r in (a, b) if r is not None] for a, b in zip(ref_a, ref_b, strict=True)]
            got = sentence_ter_batch(hyps, per_hyp, **opts, reference_layout="per_hypothesis")
            assert got.tolist() == two


def test_pairwise_ter_is_sacrebleus_loop(backend):
    from rapidbleu import batch

    with ter_reference.memoized():
        for opts in ({}, {"normalized": True, "no_punct": True}, {"normalized": True, "asian_support": True}):
            theirs = SacreTER(**opts)
            want = np.array([[theirs.sentence_score(h, [r]).score for r in PAIRWISE] for h in PAIRWISE])
            assert batch.pairwise_ter(PAIRWISE, **opts).tolist() == want.tolist()
            got = batch.pairwise_ter(np.array(PAIRWISE), **opts, diagonal=np.nan, workers=2)
            np.fill_diagonal(want, np.nan)
            assert np.array_equal(got, want, equal_nan=True)


def test_cross_ter_is_sacrebleus_loop(backend):
    """``TER.cross_scores``: hypotheses against other references (each tokenized once as what it
    is), float for float sacreBLEU's ``sentence_score``, under options that tokenize a
    reference differently from a hypothesis too."""
    hyps, refs = PAIRWISE[: len(PAIRWISE) // 2], PAIRWISE[len(PAIRWISE) // 2 :][::-1]
    with ter_reference.memoized():
        for opts in ({}, {"normalized": True, "no_punct": True}, {"asian_support": True, "case_sensitive": True}):
            theirs = SacreTER(**opts)
            want = [[theirs.sentence_score(h, [r]).score for r in refs] for h in hyps]
            assert rapidbleu.TER(**opts).cross_scores(hyps, refs).tolist() == want
            assert rapidbleu.TER(**opts, workers=2).cross_scores(hyps, refs[:1]).tolist() == [w[:1] for w in want]
            with pytest.raises(ValueError, match="references is empty"):
                rapidbleu.TER(**opts).cross_scores(hyps, [])


def test_cross_ter_refuses_a_long_reference_by_name(backend):
    from rapidbleu._core.ter.ter_py import MAX_WORDS

    with pytest.raises(ValueError, match="reference 1"):
        rapidbleu.TER().cross_scores(["a b"], ["a", "w " * (MAX_WORDS + 1)])


def test_ter_batch_errors():
    from rapidbleu.batch import pairwise_ter, sentence_ter_batch

    with pytest.raises(ValueError, match="candidates is empty"):
        pairwise_ter([])
    with pytest.raises(TypeError, match=r"candidates\[1\] is a int; TER scores strings"):
        pairwise_ter(["a", 3])
    with pytest.raises(TypeError, match="single string"):
        sentence_ter_batch("a b", ["a b"])
    with pytest.raises(TypeError, match="normalized"):
        sentence_ter_batch(["a"], ["a"], normalized="yes")
    with pytest.raises(TypeError, match="case_sensitive"):
        pairwise_ter(["a"], case_sensitive=2)
    with pytest.raises(ValueError, match="workers"):
        sentence_ter_batch(["a"], ["a"], workers=0)
    with pytest.raises(ValueError, match="reference stream 0 has 1 line but there are 2 hypotheses"):
        sentence_ter_batch(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="ordered sequence"):
        sentence_ter_batch({"a"}, ["a"])


# ============================================================================================
# One segment a call (issue 41): the core's ter_sentence_row and ter_of_row
# ============================================================================================
_one_text = st.one_of(
    _text,
    st.sampled_from(["", " ", "\t\u3000 ", "İSTANBUL Σ ΟΔΟΣ.", "😀 a b", "Jim's car.", "x" * 30, "&lt;a&gt; b"]),
)


def _outcome(call):
    try:
        return ("value", call())
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc))


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
@given(_one_text, st.lists(st.one_of(_one_text, st.none()), max_size=12), st.sampled_from(OPTION_SETS))
@settings(max_examples=300, deadline=None)
def test_sentence_row_twins_agree(hyp, refs, options):
    """One segment's row: the same two Python floats from both twins, the batch kernel's row (up
    to 12 references: beyond the stack arrays too; ``None`` skipped, or no reference at all:
    the same error); its score from both twins, ``score_from_stats``' float."""
    py, cy = TWINS
    want = _outcome(lambda: py.ter_sentence_row(hyp, refs, options))
    got = _outcome(lambda: cy.ter_sentence_row(hyp, refs, options))
    assert got == want
    if want[0] == "error":
        assert want[1] == "NoReferencesError"
        assert all(r is None for r in refs)
        return
    row = got[1]
    assert [type(v) for v in row] == [float, float]
    assert row == cy.ter_stats([hyp], [[r] for r in refs], options).tolist()[0]
    score = cy.ter_of_row(row)
    assert repr(score) == repr(py.ter_of_row(row)) == repr(rapidbleu.TER(**options).score_from_stats(row).score)


def test_ter_of_row_beyond_the_fast_path():
    """Rows the compiled ``ter_of_row`` hands to the twin's formula (ints, ints past 2**53, numpy
    float32, tuples) and rows of the wrong length: the same value, type and error."""
    rows = [[3, 4], [2**60 + 1, 3], [np.float32(1), np.float32(3)], (1.0, 3.0), [2.0, 0.0], [0.0, 0.0], [1.0]]
    for row in rows:
        want = _outcome(lambda row=row: TWINS[0].ter_of_row(row))
        got = _outcome(lambda row=row: TWINS[-1].ter_of_row(row))
        assert repr(got) == repr(want), row
        if want[0] == "value":
            assert type(got[1]) is type(want[1])


@pytest.mark.skipif(len(TWINS) < 2, reason="compiled extension not built")
def test_sentence_row_long_segments_many_references_and_threads():
    """Segments past the shared scratch space's bounds (code points, references) work in a space
    of their own, a pair whose edit distance needs a large work area leaves the shared space
    small again; threads calling at once (the shared space taken by one, the others in their
    own) get every row right; a text past the word limit is refused by name."""

    py, cy = TWINS
    rnd = random.Random(5)
    long_hyp = " ".join(f"w{rnd.randrange(400)}" for _ in range(9_000))
    long_ref = " ".join(f"w{rnd.randrange(400)}" for _ in range(8_000))
    assert len(long_hyp) + len(long_ref) > cy._ONE_SHARED_CPS
    mid_hyp, mid_ref = long_hyp[:20_000], long_ref[:20_000]  # shared, with a large work area
    many = [f"ref {k} a b" for k in range(cy._ONE_SHARED_REFS + 5)]
    for options in (OPTION_SETS[0], OPTION_SETS[-1]):
        for hyp, refs in ((long_hyp, [long_ref]), (mid_hyp, [mid_ref, None]), ("ref 7 a b c", many)):
            assert cy.ter_sentence_row(hyp, refs, options) == py.ter_sentence_row(hyp, refs, options)
    too_long = "a " * (_ter_py.MAX_WORDS + 1)
    for refs in ([too_long], [None, "a", too_long]):
        want = _outcome(lambda refs=refs: py.ter_sentence_row("a", refs, {}))
        assert want[1] == "ValueError"
        assert "stream" in want[2]
        assert _outcome(lambda refs=refs: cy.ter_sentence_row("a", refs, {})) == want
    rows = [(" ".join(HYPS[i % 5].split()[: 1 + i % 4]) + f" {i}", [REFS[0][i % 5]]) for i in range(100)]
    want = [py.ter_sentence_row(h, rs, {"normalized": True}) for h, rs in rows]
    assert not differing_in_threads(
        lambda: [cy.ter_sentence_row(h, rs, {"normalized": True}) for h, rs in rows], want, 10
    )


def test_sentence_row_refuses_non_str():
    for hyp, refs in (("a", ["a", 3]), (None, ["a"]), (b"a", ["a"]), ("a", [b"a"]), ("a", [None, 3.0])):
        results = {
            repr(_outcome(lambda mod=mod, hyp=hyp, refs=refs: mod.ter_sentence_row(hyp, refs, {}))) for mod in TWINS
        }
        assert len(results) == 1
        assert "TypeError" in results.pop()


def _same_ter_result(ours, theirs):
    assert vars(ours).keys() - {"_verbose"} == vars(theirs).keys() - {"_verbose"}
    for key, value in vars(theirs).items():
        assert repr(getattr(ours, key)) == repr(value), key
        assert type(getattr(ours, key)) is type(value), key
    for width in (1, 2, 4):
        assert ours.format(width=width) == theirs.format(width=width)
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_sentence_ter_and_sentence_score_equal_sacrebleus(backend, options):
    """``sentence_ter`` (its metric built once per option set) and a reused
    ``TER().sentence_score``: every attribute (value and type), the texts and the signature equal
    sacreBLEU's, on every call."""
    cases = [(h, [r[i] for r in REFS]) for i, h in enumerate(HYPS)]
    cases += [("", [""]), ("a", [""]), ("", ["a"]), ("İSTANBUL Σ.", ["istanbul σ .", None]), ("x y", ["y x", "x", "z"])]
    ours_m, theirs_m = rapidbleu.TER(**options), SacreTER(**options)
    for _ in range(2):
        for hyp, refs in cases:
            _same_ter_result(rapidbleu.sentence_ter(hyp, refs, **options), sacrebleu.sentence_ter(hyp, refs, **options))
            _same_ter_result(ours_m.sentence_score(hyp, refs), theirs_m.sentence_score(hyp, refs))
            assert ours_m.num_refs == theirs_m.num_refs
            assert sig(ours_m) == theirs_m.get_signature().format()


def test_sentence_ter_refuses_bad_input_on_every_call(backend):
    for _ in range(2):
        with pytest.raises(TypeError, match="normalized"):
            rapidbleu.sentence_ter("a", ["a"], normalized="yes")
        with pytest.raises(TypeError):
            rapidbleu.sentence_ter("a", "a")
        with pytest.raises(ValueError, match="no reference"):
            rapidbleu.sentence_ter("a", [None])
        with pytest.raises(TypeError):
            rapidbleu.sentence_ter("a", ["a", 3])
        with pytest.raises(TypeError):
            rapidbleu.sentence_ter(None, ["a"])
    with pytest.raises(TypeError, match="normalized"):
        rapidbleu.sentence_ter("a", ["a"], normalized=[1])


def test_no_reference_is_sacrebleus_zero_division_too():
    """sacreBLEU's TER divides by zero where every reference of a segment is None: ours says
    which segment, and is a ``ZeroDivisionError`` too (code that catches sacreBLEU's keeps
    working)."""
    with pytest.raises(ZeroDivisionError):
        sacrebleu.sentence_ter("a b", [None])
    with pytest.raises(ZeroDivisionError, match="segment 0 has no reference"):
        rapidbleu.sentence_ter("a b", [None])
