"""TER's cost is bounded: pathological segments finish within stated time and memory, or are
refused before any work with an error naming the segment.

The rule (README, "TER"): memory and time of a hypothesis-reference pair grow linearly with the
hypothesis length (times the beam width) and the reference length; at most 1001 rounds of
shifts and 1010 evaluated candidates; more than ``rapidbleu._core.ter.ter_py.MAX_WORDS`` words are
refused.  These tests run each twin (or each backend) on a 100,000-word segment in a child
process with a capped address space, on thousands of repeated words, and at the limit.
"""

import os
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import HAVE_CYTHON

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core.ter import ter_py as _ter_py
from rapidbleu.metrics import lib_ter

#: The twins compared directly (without the backend fixture).
TWINS = [_ter_py]
if HAVE_CYTHON:
    from rapidbleu._core.ter import ter_cy as _ter_cy

    TWINS.append(_ter_cy)


def _run_child(code, backend, limit_mb, timeout):
    """Run ``code`` in a child process with the address space capped at ``limit_mb``."""
    prelude = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({limit_mb} << 20, {limit_mb} << 20))
        """
    )
    env = dict(os.environ, RAPIDBLEU_BACKEND=backend)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, time.perf_counter() - t0


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit: Linux")
def test_100000_word_segment_finishes_in_bounded_time_and_memory():
    """A 100,000-word hypothesis against a reference with substitutions and moved blocks:
    each backend finishes in a child process whose address space is capped at 1.5 GB, within
    minutes (seconds compiled), and both give the same edits.  (sacreBLEU itself cannot: its
    edit-distance cache keeps up to 10,000 full rows of 100,001 cells.)"""
    code = """
        import random, rapidbleu
        rnd = random.Random(7)
        vocab = [f"w{i}" for i in range(3000)]
        hyp = [rnd.choice(vocab) for _ in range(100_000)]
        ref = list(hyp)
        for _ in range(2000):
            ref[rnd.randrange(len(ref))] = rnd.choice(vocab)
        for _ in range(200):
            s = rnd.randrange(len(ref)); block = ref[s:s + 5]; del ref[s:s + 5]
            t = max(0, min(len(ref), s + rnd.randint(-20, 20))); ref[t:t] = block
        stats = rapidbleu.TER().corpus_statistics([" ".join(hyp)], [[" ".join(ref)]])
        print(rapidbleu.backend, int(stats[0, 0]), stats[0, 1])
    """
    results = {}
    for backend in ["python"] + (["cython"] if HAVE_CYTHON else []):
        out, seconds = _run_child(code, backend, 1500, 900)
        name, edits, length = out.split()
        assert name == backend
        assert float(length) == 100_000.0
        assert 0 < int(edits) <= 2000 + 200 * 2 * 5  # at most the edit distance without shifts
        assert seconds < (60 if backend == "cython" else 600), (backend, seconds)
        results[backend] = int(edits)
    assert len(set(results.values())) == 1, results


def test_thousands_of_repeated_words():
    """Long runs of one word (every block matches everywhere): bounded time, the edits a
    beam can reach (length differences, one substitution, the first and last word moved),
    and the twins agree on the halves swapped."""
    n = 3000
    cases = [
        ((["a"] * n, ["a"] * (n * 4 // 5)), (n // 5, n * 4 // 5)),
        ((["a"] * n, ["b"] + ["a"] * (n - 1)), (1, n)),
        ((["a", "b"] * (n // 2), ["b", "a"] * (n // 2)), (2, n)),
        ((["a"] * (n // 2) + ["b"] * (n // 2), ["b"] * (n // 2) + ["a"] * (n // 2)), None),
    ]
    for (hyp, ref), expected in cases:
        got = []
        for twin in TWINS:
            t0 = time.perf_counter()
            got.append(twin.translation_edit_rate(hyp, ref))
            assert time.perf_counter() - t0 < (10 if twin.NAME == "cython" else 300), twin.NAME
        assert len(set(got)) == 1, got
        if expected is not None:
            assert got[0] == expected


def test_segment_over_the_word_limit_is_refused_naming_it(backend):
    too_long = " ".join(["w"] * (_ter_py.MAX_WORDS + 1))
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"segment 1: the hypothesis has 262145 words"):
        rapidbleu.TER().corpus_statistics(["a", too_long], [["a", "a"]])
    with pytest.raises(ValueError, match=r"segment 0: the reference of stream 1 has 262145 words"):
        rapidbleu.TER().corpus_statistics(["a"], [["a"], [too_long]])
    with pytest.raises(ValueError, match="the hypothesis has 262145 words"):
        lib_ter.translation_edit_rate(too_long.split(), ["a"])
    assert time.perf_counter() - t0 < 30  # refused before any edit distance
    ok = " ".join(["w"] * _ter_py.MAX_WORDS)
    assert _backend.ter.translation_edit_rate(ok.split()[:1000], ["w"]) == (999, 1)


def test_over_long_segment_is_refused_before_any_tokenization(backend, monkeypatch):
    """ "Refused before any work": the whole input is checked first, and only strings long
    enough to exceed the limit (over ``MAX_WORDS // LOWER_GROWTH`` characters) are tokenized
    for it, so the error comes without tokenizing the segments before the long one (they were
    all tokenized first).  A spy on the tokenizer records what it is given."""
    seen = []
    real = _ter_py.tercom_words

    def spy(sent, *options):
        seen.append(len(sent))
        return real(sent, *options)

    monkeypatch.setattr(_ter_py, "tercom_words", spy)
    too_long = "w " * (_ter_py.MAX_WORDS + 1)
    hyps, refs = ["a b c"] * 50 + [too_long], [["a b"] * 51]
    for options in ({}, {"normalized": True}, {"no_punct": True, "asian_support": True}):
        seen.clear()
        with pytest.raises(ValueError, match=r"segment 50: the hypothesis has 262145 words"):
            rapidbleu.TER(**options).corpus_score(hyps, refs)
        assert seen == [len(too_long.rstrip())]
        seen.clear()
        with pytest.raises(ValueError, match=r"segment 50: the reference of stream 1 has 262145 words"):
            rapidbleu.TER(**options).corpus_statistics([*hyps[:50], "a"], [refs[0], ["x"] * 50 + [too_long]])
        assert max(seen) == len(too_long.rstrip())
        assert len(seen) <= 2  # (a reference: tokenized twice)
    from rapidbleu.batch import pairwise_ter

    seen.clear()
    with pytest.raises(ValueError, match=r"segment 3: the hypothesis has 262145 words"):
        pairwise_ter(["a b", "b c", "c d", too_long])
    assert seen == [len(too_long.rstrip())]


def test_the_length_checks_bound_on_words_per_character():
    """What makes the check cheap: after tercom's tokenization (references twice) a string has at
    most ``LOWER_GROWTH`` words per character -- lowercasing grows no character beyond that
    (every code point checked), the normalizer only deletes characters or inserts spaces."""
    import random

    assert max(len(chr(c).lower()) for c in range(0x110000)) == _ter_py.LOWER_GROWTH
    pieces = [
        "İ",
        "a",
        "B",
        " ",
        ".",
        ",",
        "'s ",
        "&quot;",
        "&amp;",
        "-",
        "\n-",
        "\n",
        "一",
        "ア",
        "、",
        "（",
        "9",
        "$",
    ]
    rng = random.Random(7)
    for _ in range(300):
        sent = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
        for flags in range(16):
            options = [bool(flags & (1 << b)) for b in range(4)]
            once = _ter_py.tercom_words(sent.rstrip(), *options)
            twice = _ter_py.tercom_words(" ".join(once), *options)
            assert max(len(once), len(twice)) <= _ter_py.LOWER_GROWTH * len(sent), (sent, options)
