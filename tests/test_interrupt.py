"""Ctrl-C stops a long call within a fraction of a second, with one thread or several.

The compiled kernels run without the GIL, where no signal handler can run: the thread runner
(``rapidbleu._core.threads.run_chunks``) hands them each chunk in short slices and the token
pipeline checks for signals between blocks, so ``KeyboardInterrupt`` is raised soon after the
signal, and with threads once every thread has stopped.  Each call runs in a child process
sized to take several seconds; SIGINT is sent while its kernel runs, and the child must report
the ``KeyboardInterrupt`` well before the call would have ended (a bound on how soon a
behaviour happens, generous for a loaded machine, not a speed measurement).
"""

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import HAVE_CYTHON, REQUIRE_CYTHON, SAMPLE_DIR

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX"),
    pytest.mark.skipif(not HAVE_CYTHON and not REQUIRE_CYTHON, reason="compiled extension not built"),
]

#: Seconds each interrupted call would take with one thread (the child sizes its input to it).
FULL_SECONDS = 5.0
#: Seconds after the call starts when SIGINT is sent: its input is prepared by then (TER
#: tokenizes in Python first, a tenth of its time).
SIGNAL_AFTER = {"ter": 1.2}
SIGNAL_AFTER_DEFAULT = 0.5
#: At most this many seconds from the signal to the child's report of the KeyboardInterrupt.
BOUND = 1.5

# The child: for each case, size the input so that the call takes about FULL_SECONDS, say
# "start", make the call, and report where and when the KeyboardInterrupt was raised.
_CHILD = r"""
import signal, sys, time, traceback
# Ctrl-C's default handler, whatever the launcher left: a process started in the background by
# a non-interactive shell inherits SIGINT ignored, and Python then installs no handler
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import rapidbleu
import rapidbleu.nltk
from rapidbleu._core import backend
from rapidbleu.batch import pairwise_bleu

def lines(name):
    with open(f"{sys.argv[1]}/{name}", encoding="utf-8") as fh:
        return [line.rstrip() for line in fh]

HYP = lines("generaltest2023.de-en.hyp.ONLINE-W.en")
REF = lines("generaltest2023.de-en.ref.refA.en")
assert len(HYP) == len(REF) >= 100
HYP_T, REF_T = [h.split() for h in HYP], [[r.split()] for r in REF]
rng = np.random.default_rng(0)

def chrf(k, workers):  # corpus chrF++ of k copies of the sample
    return lambda: rapidbleu.CHRF(word_order=2, workers=workers).corpus_score(HYP * k, [REF * k])

def sentence_bleu(k, workers):  # one sentence BLEU per segment
    return lambda: rapidbleu.BLEU(effective_order=True, workers=workers).sentence_scores(HYP * k, [REF * k])

def token_bleu(k, workers):  # NLTK-style corpus BLEU of token lists (the token pipeline)
    return lambda: rapidbleu.nltk.corpus_bleu(REF_T * k, HYP_T * k, workers=workers)

def ter(k, workers):
    return lambda: rapidbleu.TER(workers=workers).corpus_score(HYP * k, [REF * k])

def pairwise(k, workers):  # the MBR matrix of k candidates (quadratic)
    ids = [rng.integers(0, 50, size=20) for _ in range(k)]
    return lambda: pairwise_bleu(ids, workers=workers)

CASES = {"chrf": (chrf, 1), "sentence_bleu": (sentence_bleu, 1), "token_bleu": (token_bleu, 1),
         "ter": (ter, 1), "pairwise": (pairwise, 2)}

def size(make, power, seconds):  # the input size for a call of `seconds` with one thread
    k = 1
    while True:
        call = make(k, 1)
        t = time.perf_counter(); call(); took = time.perf_counter() - t
        if took > 0.1:  # timed again, the faster kept: a slow moment of a shared machine would shrink the input
            t = time.perf_counter(); call(); took = min(took, time.perf_counter() - t)
            return max(k + 1, int(k * (seconds / took) ** (1 / power)))
        k *= 4

sizes = {}
for case in sys.argv[3:]:
    name, workers = case.split(":")
    make, power = CASES[name]
    if name not in sizes:
        sizes[name] = size(make, power, float(sys.argv[2]))
    call = make(sizes[name], int(workers))  # (two threads: up to twice as fast)
    print("start", case, flush=True)
    t0 = time.perf_counter()
    try:
        call()
    except KeyboardInterrupt:
        files = [f.filename.rsplit("/", 1)[-1] for f in traceback.extract_tb(sys.exc_info()[2])]
        runner = [f for f in files if f in ("threads.py", "bleu_stats_tokens.pxi")]
        where = runner[-1] if runner else files[-1]
        print("interrupted", case, round(time.perf_counter() - t0, 3), where, flush=True)
    else:
        print("finished", case, round(time.perf_counter() - t0, 3), flush=True)
"""

#: name:workers (each kernel family once, each runner with one thread and with two).
CASES = ["chrf:1", "chrf:2", "sentence_bleu:1", "token_bleu:1", "token_bleu:2", "ter:1", "pairwise:1", "pairwise:2"]


def test_ctrl_c_stops_every_long_call_soon():
    env = dict(os.environ, RAPIDBLEU_BACKEND="cython", PYTHONUNBUFFERED="1")
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(SAMPLE_DIR), str(FULL_SECONDS), *CASES],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    late, reports = [], []
    try:
        for case in CASES:
            line = child.stdout.readline().split()
            assert line == ["start", case], (line, child.stderr.read() if not line else "")
            time.sleep(SIGNAL_AFTER.get(case.split(":")[0], SIGNAL_AFTER_DEFAULT))
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            report = child.stdout.readline().split()
            after = time.monotonic() - sent
            reports.append((case, round(after, 3), report))
            assert report[:2] == ["interrupted", case], f"{case}: {report} (the call ended before the signal?)"
            # raised in the runner (between slices or blocks, or waiting for the threads), i.e.
            # while the kernel ran
            assert report[3] in ("threads.py", "bleu_stats_tokens.pxi"), report
            if after > BOUND:
                late.append((case, after))
        assert child.wait(timeout=60) == 0, child.stderr.read()
    finally:
        child.kill()
        child.wait()
    assert not late, f"KeyboardInterrupt later than {BOUND} s after the signal: {late} (all: {reports})"
