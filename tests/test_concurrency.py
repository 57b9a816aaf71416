"""Callers with other threads: inputs changed by another thread during a call, and how many
threads a call starts.

Every compiled kernel that runs without the GIL takes whatever bounds a read or a write
(lengths, offsets, sizes, an id used as an index) from memory the call owns, copied after the
checks, or checks it where it reads it: a thread that changes the caller's arrays or lists
meanwhile can change the result for the data it changed, never make a kernel read or write out
of bounds.  Each kernel runs in a child process (a crash fails its test instead of killing the
session) while a thread keeps changing its inputs; ``RAPIDBLEU_RACE_SECONDS`` (default 1) sets
how long.
"""

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
from conftest import HAVE_CYTHON, REQUIRE_CYTHON

import rapidbleu
from rapidbleu._core import backend as _backend
from rapidbleu._core import threads as _threads
from rapidbleu._core.validate import resolve_workers

needs_cy = pytest.mark.skipif(not HAVE_CYTHON and not REQUIRE_CYTHON, reason="compiled extension not built")

# The child: `mutate` runs in a loop on a second thread while `call` runs again and again on the
# main one.  A check that sees a changed value raises (ValueError ...): that is the kernel
# refusing bad input, not a failure.
_HARNESS = """
import os, sys, threading, time
import numpy as np
from rapidbleu._core import backend
sys.setswitchinterval(1e-5)
SECONDS = float(os.environ.get("RAPIDBLEU_RACE_SECONDS", "1"))
CHECKS = (ValueError, IndexError, TypeError, OverflowError, RuntimeError)

def race(call, mutate):
    stop, changes = threading.Event(), [0]
    def loop():
        while not stop.is_set():
            mutate()
            changes[0] += 1
    t = threading.Thread(target=loop)
    t.start()
    calls, end = 0, time.monotonic() + SECONDS
    try:
        while time.monotonic() < end or calls < 3:
            try:
                call()
            except CHECKS:
                pass
            calls += 1
    finally:
        stop.set()
        t.join()
    assert calls and changes[0], (calls, changes[0])
"""


def run_child(body: str) -> None:
    code = _HARNESS + textwrap.dedent(body) + "\nprint('ok')\n"
    env = dict(os.environ, RAPIDBLEU_BACKEND="cython")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env, check=False)
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    assert r.stdout.strip().endswith("ok"), (r.returncode, r.stderr[-3000:])


@needs_cy
def test_id_cleaning_with_lengths_changed_during_the_call():
    """The reproducer of the heap overflow: ``IdCleaning.apply`` checked the lengths, then the
    kernel read the caller's array again without the GIL."""
    run_child("""
        import rapidbleu.ids as I
        c, n = I.id_cleaning(pad_token_id=3), 2_000_000
        flat, lens = np.arange(n, dtype=np.int64) % 7, np.ones(n, dtype=np.int64)
        def mutate():
            lens[n // 2] = 10**7
            lens[n // 2] = 1
        race(lambda: c.apply(flat, lens), mutate)
    """)


@needs_cy
def test_flat_stats_with_lengths_and_ids_changed_during_the_call():
    """Lengths of every stream, and ids (which the direct-mapped vocabulary uses as indices)."""
    run_child("""
        rng = np.random.default_rng(0)
        n = 20_000
        lens = rng.integers(1, 40, n)
        flat = rng.integers(0, 500, int(lens.sum()))
        rlens = rng.integers(1, 40, n)
        rflat = rng.integers(0, 500, int(rlens.sum()))
        # each value changed and put back: between the changes the input is valid again
        keep = [(a, i, int(a[i])) for a in (lens, rlens) for i in (n // 2, n - 1)]
        ids = [(f, len(f) // 3, int(f[len(f) // 3])) for f in (flat, rflat)]
        def mutate():
            for a, i, v in keep:
                a[i] = 10**9
                a[i] = v
            for f, i, v in ids:  # an id far outside the vocabulary's range, then back
                f[i] = 10**12
                f[i] = v
        race(lambda: backend.bleu_stats.flat_stats(flat, lens, [(rflat, rlens)], 4, workers=2), mutate)
    """)


@needs_cy
def test_sets_kernels_with_lengths_and_ids_changed_during_the_call():
    run_child("""
        rng = np.random.default_rng(1)
        n = 600
        lens = rng.integers(1, 30, n)
        flat = rng.integers(0, 300, int(lens.sum()))
        i, v, j, u = n // 2, int(lens[n // 2]), len(flat) // 2, int(flat[len(flat) // 2])
        def mutate():
            lens[i] = 10**9
            lens[i] = v
            flat[j] = 10**12
            flat[j] = u
        sets = backend.bleu_sets
        race(lambda: sets.self_stats(flat, lens, 4, 2), mutate)
        race(lambda: sets.pairwise_stats(flat[: int(lens[:200].sum())], lens[:200], 4, 2), mutate)
        race(lambda: sets.pairwise_scores(flat, lens, 4, "exp", None, True, 2), mutate)
    """)


@needs_cy
def test_token_and_string_stats_with_lists_changed_during_the_call():
    run_child("""
        n = 20_000
        hyps = [[i % 50, i % 7, 3, 4, i % 11] for i in range(n)]
        refs = [[[i % 50, 2, 3, 4]] for i in range(n)]
        shyps = ["tok%d a b c %d" % (i % 50, i % 9) for i in range(n)]
        srefs = [["tok%d a b d" % (i % 50) for i in range(n)]]
        long_tok = "a long token of many bytes " * 3
        def mutate():
            hyps[n // 2] = [long_tok, "x"] * 50
            hyps[n // 2].clear()
            refs[n // 3][0] = list(range(300))
            refs[n // 3].clear()
            refs[n // 3].append([1])
            shyps[n // 2] = long_tok * 10
            srefs[0][n // 2] = None
            srefs[0][n // 2] = "x"
        race(lambda: backend.bleu_stats.token_stats(hyps, refs, 4, workers=2), mutate)
        race(lambda: backend.bleu_stats.string_stats(shyps, srefs, 4, "13a", False, 2), mutate)
    """)


@needs_cy
def test_scorers_with_statistics_changed_during_the_call():
    run_child("""
        rng = np.random.default_rng(2)
        n = 200_000
        c = rng.integers(1, 60, n)
        tot = np.maximum(0, c[:, None] - np.arange(4)[None, :])
        stats = np.column_stack([c, c + 2, tot // 2, tot]).astype(np.int64)
        f32 = stats.astype(np.float32)
        def mutate():
            for a, big in ((stats, 2**62), (f32, 1e30)):
                for i, j in ((n // 2, 0), (n // 3, 3)):
                    v = a[i, j]
                    a[i, j] = big
                    a[i, j] = -big
                    a[i, j] = v
        sc = backend.bleu_scores
        race(lambda: sc.sacre_scores(stats, 4, "add-k", 1e10, True, np.int64, 2), mutate)
        race(lambda: sc.sacre_scores(f32, 4, "floor", None, True, np.float32, 2), mutate)
        race(lambda: sc.nltk_scores(stats, 4, (0.25,) * 4, 4, 0.1, 5, True, 2), mutate)
    """)


@needs_cy
def test_chrf_kernels_with_inputs_changed_during_the_call():
    """chrF's statistics, scores and pairwise matrices on ``workers=2`` while another thread
    swaps strings (long ones, ``None`` references), grows and shrinks a reference stream, and
    writes huge and negative counts into the statistics being scored."""
    run_child("""
        import rapidbleu
        n = 6000
        hyps = ["tok%d a b c %d" % (i % 50, i % 9) for i in range(n)]
        refs = [["tok%d a b d" % (i % 50) for i in range(n)], ["x y %d" % i for i in range(n)]]
        sents = hyps[:300]
        long_tok = "\u00fcn\u00efc\u00f6d\u00e9 \U0001f600" * 40
        ch = backend.chrf
        stats = ch.chrf_stats(hyps, refs, {"char_order": 6, "word_order": 2}, 2)
        f32 = stats.astype(np.float32)
        def mutate():
            hyps[n // 2] = long_tok
            hyps[n // 2] = "short"
            refs[1][n // 3] = None
            refs[1][n // 3] = long_tok * 3
            refs[0].append("one more")
            refs[0].pop()
            sents[150] = long_tok
            sents[150] = ""
            for a, big in ((stats, 2**62), (f32, 1e30)):
                for i, j in ((n // 2, 0), (n // 3, 4)):
                    v = a[i, j]
                    a[i, j] = big
                    a[i, j] = -big
                    a[i, j] = v
        race(lambda: ch.chrf_stats(hyps, refs, {"char_order": 6, "word_order": 2, "whitespace": True}, 2), mutate)
        race(lambda: ch.chrf_scores(stats, {"char_order": 6, "word_order": 2}, None, 2), mutate)
        race(lambda: ch.chrf_scores(stats, {"char_order": 6, "word_order": 2, "beta": 3, "eps_smoothing": True}, np.int64, 2), mutate)
        race(lambda: ch.chrf_scores(f32, {"char_order": 6, "word_order": 2}, np.float32, 2), mutate)
        race(lambda: ch.chrf_pairwise_stats(sents, {"char_order": 6, "word_order": 2, "lowercase": True}, 2), mutate)
        race(lambda: ch.chrf_pairwise_scores(sents, {"eps_smoothing": True}, 2), mutate)
        race(lambda: rapidbleu.CHRF(word_order=2, workers=2).corpus_score(hyps, refs), mutate)
        race(lambda: rapidbleu.CHRF(workers=2).scores_from_stats(stats), mutate)
    """)


@needs_cy
def test_ter_kernels_with_inputs_changed_during_the_call():
    """TER's statistics (tokenized in Python, the edits without the GIL on ids the call owns),
    scores and edit rates on ``workers=2`` while another thread swaps segments (longer ones,
    ``None`` references that leave a segment without any), changes word lists and writes
    huge and negative values into the statistics being scored."""
    run_child("""
        import rapidbleu
        from rapidbleu.batch import pairwise_ter
        n = 3000
        hyps = [" ".join("w%d" % ((i * 7 + j) % 13) for j in range(i % 30)) for i in range(n)]
        refs = [[" ".join("w%d" % ((i * 5 + j) % 11) for j in range(i % 25)) for i in range(n)]]
        sents = hyps[:40]
        long = "a b. c's " * 200
        tk = backend.ter
        stats = tk.ter_stats(hyps, refs, {}, 2)
        f32 = stats.astype(np.float32)
        words_h = [w for h in hyps[:60] for w in h.split()]
        words_r = [w for r in refs[0][:60] for w in r.split()]
        def mutate():
            hyps[n // 2] = long
            hyps[n // 2] = "x"
            refs[0][n // 3] = None
            refs[0][n // 3] = long
            sents[20] = long
            sents[20] = "w1 w2"
            words_h.append("zz")
            words_h.pop()
            words_r[len(words_r) // 2], words_r[0] = words_r[0], words_r[len(words_r) // 2]
            for a, big in ((stats, 1e300), (f32, 1e30)):
                for i, j in ((n // 2, 0), (n // 3, 1)):
                    v = a[i, j]
                    a[i, j] = big
                    a[i, j] = -big
                    a[i, j] = v
        race(lambda: tk.ter_stats(hyps, refs, {"normalized": True, "no_punct": True, "asian_support": True}, 2), mutate)
        race(lambda: tk.ter_scores(stats, None), mutate)
        race(lambda: tk.ter_scores(f32, np.float32), mutate)
        race(lambda: tk.translation_edit_rate(words_h, words_r), mutate)
        race(lambda: rapidbleu.TER(normalized=True, workers=2).corpus_score(hyps, refs), mutate)
        race(lambda: rapidbleu.TER(workers=2).scores_from_stats(stats), mutate)
        race(lambda: pairwise_ter(sents, workers=2), mutate)
    """)


# ------------------------------------------------------------------------ threads per call


def peak_threads(call) -> int:
    """The most threads alive at once while ``call()`` runs beyond those alive before it,
    sampled by another thread (not counted) as often as the interpreter lets it."""
    base = threading.active_count()
    peak, stop = [base + 1], threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], threading.active_count())

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    t = threading.Thread(target=sample)
    t.start()
    try:
        call()
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old)
    return peak[0] - base - 1


def test_one_segment_starts_no_thread(backend):
    """``workers=2000`` for one segment started 2,003 threads."""
    from rapidbleu import nltk

    assert peak_threads(lambda: nltk.corpus_bleu([[["a", "b", "c", "d"]]], [["a", "b", "c", "d"]], workers=2000)) == 0
    assert peak_threads(lambda: rapidbleu.BLEU(workers=2000).corpus_score(["a b"], [["a b"]])) == 0


@needs_cy
def test_threads_never_exceed_the_chunks_of_work_or_the_cap():
    """Both runners (``run_chunks`` and the token pipeline's crew): at most one thread per chunk
    of ``MIN_CHUNK`` rows and at most ``MAX_THREADS``, whatever ``workers`` asks."""
    stats, sets, scoring = (_backend.select("cython", k) for k in ("bleu_stats", "bleu_sets", "bleu_scores"))
    rng = np.random.default_rng(3)
    chunks = 3  # 3 chunks of rows: at most 3 threads (and the cap)
    n = chunks * _threads.MIN_CHUNK
    toks = [list(rng.integers(0, 50, 30)) for _ in range(n)]
    lens = np.full(n, 30)
    flat = np.concatenate([np.asarray(t) for t in toks])
    strs = [" ".join(map(str, t)) for t in toks]
    calls = {
        "token_stats": lambda w: stats.token_stats(toks, [[t] for t in toks], 4, w),
        "string_stats": lambda w: stats.string_stats(strs, [strs], 4, "13a", False, w),
        "flat_stats": lambda w: stats.flat_stats(flat, lens, [(flat, lens)], 4, w),
        "self_stats": lambda w: sets.self_stats(flat, lens, 4, w),
    }
    want = min(chunks, _threads.MAX_THREADS)
    for name, call in calls.items():
        for workers in (2000, -1):
            assert 0 <= peak_threads(lambda: call(workers)) <= want, name
    rows = np.tile([[30, 30, 20, 10, 5, 1, 30, 29, 28, 27]], (1 << 16, 1))  # 4 scoring chunks
    for workers in (2000, -1):
        assert peak_threads(lambda: scoring.sacre_scores(rows, 4, "exp", None, True, None, workers)) <= min(
            4, _threads.MAX_THREADS
        )
    if _threads.MAX_THREADS >= 2:  # where threads run at all, the measurement sees them
        big = np.tile(flat, 200)
        big_lens = np.full(200 * n, 30)
        assert (
            max(peak_threads(lambda: stats.flat_stats(big, big_lens, [(big, big_lens)], 4, 2)) for _ in range(3)) == 2
        )


def test_run_chunks_first_slice():
    """``first``: a small call (``first >= n``) runs in one piece, in the calling thread; a
    larger one starts its slices at ``first`` rows; either way every row once, in order."""
    for n, first, workers in [(5, 8, 1), (5, 5, 1), (100, 8, 1), (100, 1, 1), (300, 8, 2), (0, 8, 1)]:
        calls: list[tuple[int, int]] = []
        _threads.run_chunks(lambda a, b, calls=calls: calls.append((a, b)), n, workers, 64, first)
        covered = sorted(calls)
        assert [r for a, b in covered for r in range(a, b)] == list(range(n))
        if first >= n > 0:
            assert calls == [(0, n)]
        elif n and workers == 1:
            assert calls[0] == (0, first)


def test_thread_count_rule():
    assert _threads.thread_count(2000, 1) == 1
    assert _threads.thread_count(2000, 0) == 1
    assert _threads.thread_count(2000, 10**6) == _threads.MAX_THREADS
    assert _threads.thread_count(1, 10**6) == 1
    assert _threads.thread_count(2, 10**6) == min(2, _threads.MAX_THREADS)
    assert _threads.thread_count(-1, 10**6) == min(os.cpu_count() or 1, _threads.MAX_THREADS)
    # workers is checked where it enters (resolve_workers), once; the thread rule trusts it
    with pytest.raises(ValueError):  # noqa: PT011 -- checks the type only
        resolve_workers(0)
