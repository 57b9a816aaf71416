"""Benchmark: BLEU on token ids inside training/decoding loops (issue 7).

One command, one run, the same inputs for every tool:

    python bench/bench_ids.py            # full: 200,000 segments
    python bench/bench_ids.py --quick    # 20,000 segments, smaller samples

Inputs: the WMT23 English hypotheses/references (de-en, he-en, zh-en; from
``$RAPIDBLEU_WMT23_DIR``, ``../shared/data/wmt23`` or ``tests/data/wmt23``), tokenized with 13a
and mapped to integer ids with one vocabulary, repeated to the target number of segments.

Rows (medians of ``--repeat`` runs; slow baselines are timed once on an evenly spaced sample
of the segments and scaled linearly to the full size, which the table says):

1. per-sentence BLEU of every (hyp, ref) pair: rapidbleu ``sentence_bleu_batch`` on ids
   (sacreBLEU-style and NLTK-style method1) vs an NLTK ``sentence_bleu`` loop (method1), a
   sacreBLEU ``sentence_bleu`` loop on the ids written as strings (``tokenize='none'``), and
   fast-bleu (``fast_bleu.BLEU`` has one fixed reference set per object, so one object per
   segment);
2. self-BLEU of 10,000 sentences: rapidbleu ``self_bleu`` vs fast-bleu ``SelfBLEU`` (both
   NLTK method1, uniform 4-gram weights) and NLTK (Texygen's loop; timed on a few hypotheses);
3. a 256 x 256 pairwise matrix: rapidbleu ``pairwise_bleu`` vs a sacreBLEU pair loop.

fast-bleu uses OpenMP: ``OMP_NUM_THREADS`` is set to ``--threads`` before it is imported, so
both tools get the same number of threads.
"""

import argparse
import gc
import os
import platform


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="20k segments, smaller samples (a smoke run)")
    p.add_argument("--threads", type=int, default=2, help="threads for rapidbleu and fast-bleu (default 2)")
    p.add_argument("--repeat", type=int, default=None, help="timed runs per row (median reported)")
    p.add_argument("--segments", type=int, default=None, help="segments for the per-sentence row")
    return p.parse_args()


ARGS = parse_args()
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)

from _common import ROOT, check_backend, median_time, read_lines, wmt23_dir, wmt23_files  # noqa: E402

check_backend()

import numpy as np  # noqa: E402

import rapidbleu  # noqa: E402
from rapidbleu._core import backend as _backend  # noqa: E402
from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch  # noqa: E402
from rapidbleu.tokenizers import get_tokenizer  # noqa: E402

try:
    import fast_bleu
except Exception as exc:
    fast_bleu = None
    FAST_BLEU_WHY = str(exc)


def load_pairs():
    d = wmt23_dir("generaltest2023.*.hyp.*.en")
    hyps, refs = [], []
    for pair in ("de-en", "he-en", "zh-en"):
        ref_files = wmt23_files(f"generaltest2023.{pair}.ref.refA.en", d)
        if not ref_files:
            continue
        ref = read_lines(ref_files[0])
        for hyp_file in wmt23_files(f"generaltest2023.{pair}.hyp.*.en", d):
            hyp = read_lines(hyp_file)
            n = min(len(hyp), len(ref))
            hyps += hyp[:n]
            refs += ref[:n]
    keep = [i for i in range(len(hyps)) if hyps[i].strip() or refs[i].strip()]
    return [hyps[i] for i in keep], [refs[i] for i in keep], d


def to_ids(lines, vocab, tok):
    return [[vocab.setdefault(t, len(vocab)) for t in tok(x.rstrip()).split()] for x in lines]


def timed(fn, repeat):
    wall, _cpu, out = median_time(fn, repeat)
    return wall, out


def main():
    quick = ARGS.quick
    T = ARGS.threads
    repeat = ARGS.repeat or (3 if quick else 5)
    n_seg = ARGS.segments or (20_000 if quick else 200_000)
    n_self = 2_000 if quick else 10_000
    sample = 1_000 if quick else 10_000  # segments timed for the slow per-sentence loops

    hyps_txt, refs_txt, d = load_pairs()
    tok = get_tokenizer("13a")
    vocab = {}
    H0, R0 = to_ids(hyps_txt, vocab, tok), to_ids(refs_txt, vocab, tok)
    reps = -(-n_seg // len(H0))
    H = (H0 * reps)[:n_seg]
    R = (R0 * reps)[:n_seg]
    # the slow loops run on an evenly spaced sample (every k-th segment), which has the length
    # distribution of the whole batch (a prefix would hold only the long de-en paragraphs)
    idx = list(range(0, n_seg, max(1, n_seg // sample)))[:sample]
    sample = len(idx)
    Hs = {i: " ".join(map(str, H[i])) for i in idx}
    Rs = {i: " ".join(map(str, R[i])) for i in idx}
    # The inputs (millions of token lists) stay alive for the whole run; freezing them keeps the
    # cyclic GC from re-scanning them during every timed call, which would charge the tools
    # that allocate most (the Python loops) for the size of this benchmark's own heap.
    gc.collect()
    gc.freeze()

    print(f"# rapidbleu ids benchmark ({'quick' if quick else 'full'})\n")
    print(
        f"- data: {os.path.relpath(d, ROOT)} ({len(H0)} distinct en pairs, 13a, {len(vocab)} ids), repeated to {n_seg} segments"
    )
    print(
        f"- rapidbleu {rapidbleu.__version__}: stats core `{rapidbleu.backend}`, set kernels `{_backend.bleu_sets.NAME}`; "
        f"threads = {T}; Python {platform.python_version()}, {os.cpu_count()} CPUs; medians of {repeat} runs"
    )
    print(f"- fast-bleu: {'installed' if fast_bleu else 'not available: ' + FAST_BLEU_WHY}")
    print()

    rows = []

    def row(task, tool, secs, n_done, n_total, note="", sampled="evenly spaced"):
        scaled = secs * n_total / n_done
        rows.append((task, tool, scaled, f"{n_done} {sampled}", n_done == n_total, n_total, note))

    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction
    from nltk.translate.bleu_score import sentence_bleu as nltk_sb

    sm1 = SmoothingFunction().method1
    w4 = (0.25,) * 4

    # 1. per-sentence BLEU
    task = f"sentence BLEU x{n_seg}"
    slow_repeat = 3  # the baselines set every ratio: a median of 3, not one noisy run
    t_nltk, nltk_vals = timed(lambda: [nltk_sb([R[i]], H[i], w4, smoothing_function=sm1) for i in idx], slow_repeat)
    row(task, "NLTK sentence_bleu loop (method1)", t_nltk, sample, n_seg)
    t_sac, sac_vals = timed(
        lambda: [sacrebleu.sentence_bleu(Hs[i], [Rs[i]], tokenize="none").score for i in idx], slow_repeat
    )
    row(task, "sacreBLEU sentence_bleu loop (id strings)", t_sac, sample, n_seg)
    if fast_bleu is not None:
        fb_n = min(sample, 500)
        t_fb, _fb_vals = timed(lambda: [fast_bleu.BLEU([R[i]], {4: w4}).get_score([H[i]])[4][0] for i in idx[:fb_n]], 1)
        row(task, f"fast-bleu BLEU, one object per segment ({T} OMP threads)", t_fb, fb_n, n_seg)
    for w in sorted({1, T}):
        t, ours = timed(lambda: sentence_bleu_batch(H, R, workers=w), repeat)
        assert ours[idx].tolist() == sac_vals, "sacreBLEU-style values differ from sacreBLEU"
        row(task, f"rapidbleu sentence_bleu_batch, sacreBLEU-style, lists of ints ({w} thr)", t, n_seg, n_seg)
    # the form a decoding loop hands over: right-padded (n, T) int arrays (CPU tensors)
    PAD = -1
    Hp = np.full((n_seg, max(map(len, H)) + 1), PAD, dtype=np.int64)
    Rp = np.full((n_seg, max(map(len, R)) + 1), PAD, dtype=np.int64)
    for i in range(n_seg):
        Hp[i, : len(H[i])] = H[i]
        Rp[i, : len(R[i])] = R[i]
    for w in sorted({1, T}):
        t, ours = timed(lambda: sentence_bleu_batch(Hp, Rp, pad_id=PAD, workers=w), repeat)
        assert ours[idx].tolist() == sac_vals, "sacreBLEU-style values differ from sacreBLEU"
        row(task, f"rapidbleu sentence_bleu_batch, sacreBLEU-style, padded (n, T) array ({w} thr)", t, n_seg, n_seg)
    for w in sorted({1, T}):
        t, ours = timed(lambda: sentence_bleu_batch(H, R, weights=w4, smoothing_function=sm1, workers=w), repeat)
        assert ours[idx].tolist() == nltk_vals, "NLTK-style values differ from NLTK"
        row(task, f"rapidbleu sentence_bleu_batch, NLTK-style method1, lists of ints ({w} thr)", t, n_seg, n_seg)

    # 2. self-BLEU
    uniq, seen = [], set()
    for h in H0 + R0:
        key = tuple(h)
        if h and key not in seen:
            seen.add(key)
            uniq.append(h)
    S = uniq[:n_self]
    task = f"self-BLEU of {len(S)} sentences"
    if fast_bleu is not None:
        t_fb, fb_self = timed(lambda: fast_bleu.SelfBLEU(S, {4: w4}).get_score()[4], 1)
        row(task, f"fast-bleu SelfBLEU ({T} OMP threads)", t_fb, len(S), len(S))
    k = 3 if quick else 5
    t_n, _ = timed(lambda: [nltk_sb(S[:i] + S[i + 1 :], S[i], w4, smoothing_function=sm1) for i in range(k)], 1)
    row(task, "NLTK loop (Texygen's definition)", t_n, k, len(S), sampled="first sentences")
    for w in sorted({1, T}):
        t, ours = timed(lambda: self_bleu(S, workers=w), repeat)
        note = ""
        if fast_bleu is not None:
            note = f"max |diff| vs fast-bleu {np.max(np.abs(np.array(fb_self) - ours)):.1e}"
        row(task, f"rapidbleu self_bleu, NLTK method1 ({w} thr)", t, len(S), len(S), note)

    # 3. pairwise 256 x 256
    C = uniq[:256]
    Cs = [" ".join(map(str, c)) for c in C]
    task = "pairwise 256 x 256"
    k = 8 if quick else 32
    t_s, loop_vals = timed(
        lambda: [
            [sacrebleu.sentence_bleu(Cs[i], [Cs[j]], tokenize="none").score for j in range(256)] for i in range(k)
        ],
        1,
    )
    row(task, "sacreBLEU sentence_bleu pair loop", t_s, k * 256, 256 * 256, sampled="pairs (first rows)")
    for w in sorted({1, T}):
        t, ours = timed(lambda: pairwise_bleu(C, workers=w), repeat)
        assert ours[:k].tolist() == loop_vals, "pairwise values differ from sacreBLEU"
        row(task, f"rapidbleu pairwise_bleu ({w} thr)", t, 256 * 256, 256 * 256)

    # table
    print("| task | tool | seconds (median) | measured on | speed-up vs first row |")
    print("|---|---|---:|---|---:|")
    firsts = {}
    for task, tool, secs, done, whole, n_total, note in rows:
        firsts.setdefault(task, secs)
        how = "all" if whole else f"{done}, scaled to {n_total}"
        ratio = firsts[task] / secs
        print(f"| {task} | {tool} | {secs:.4f} | {how} | {ratio:,.1f}x |" + (f" {note}" if note else ""))
    if fast_bleu is not None:
        fb_self_t = next(r[2] for r in rows if r[1].startswith("fast-bleu SelfBLEU"))
        ours_t = next(r[2] for r in rows if r[1].startswith(f"rapidbleu self_bleu, NLTK method1 ({T} thr)"))
        print(f"\nself-BLEU: rapidbleu ({T} thr) is {fb_self_t / ours_t:,.1f}x fast-bleu SelfBLEU ({T} threads).")
    print("\nValues checked in this run: rapidbleu == sacreBLEU / NLTK, float for float, on every timed sample.")


if __name__ == "__main__":
    main()
