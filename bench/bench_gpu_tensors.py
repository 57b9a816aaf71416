"""Sentence BLEU of id batches that live on a GPU, as an RL / minimum-risk training step has
them: ``sentence_bleu_batch`` on CUDA tensors (the copy to the host included) with 1..k
threads, against a loop of NLTK ``sentence_bleu`` (issue 15; TensorBLEU, a GPU
implementation, reports 13x on a T4 and 40x on an A100 over the same NLTK loop).

    python bench/bench_gpu_tensors.py [--repeat 15] [--workers 1,2,4,8,16]

Needs torch with a CUDA device.  Batches as ``bench_small_batches.py`` makes them (random ids
of a 32,000 vocabulary; the reference replaces 30% of them); NLTK-style scores (``method1``),
checked equal to NLTK's on the rows NLTK was timed on.  The NLTK loop is CPU time on up to 64
rows, scaled; rapidbleu rows are wall time (medians of ``--repeat`` calls), each call starting
from the CUDA tensors, so the device-to-host copy is in every figure.
"""

import argparse
import os
import platform

import torch
from bench_small_batches import M1, batch, med  # the same batches, scores and timer (checks the backend)
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from rapidbleu.batch import sentence_bleu_batch


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--workers", default="1,2,4,8,16")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device")
    workers = [int(w) for w in args.workers.split(",") if int(w) <= (os.cpu_count() or 1)]
    print(
        f"{torch.cuda.get_device_name(0)}; {os.cpu_count()} CPUs ({platform.processor() or platform.machine()}); "
        f"torch {torch.__version__}\n"
    )
    print(
        "| batch (rows x ids) | NLTK loop ms (CPU) | "
        + " | ".join(f"{w} thread{'s' * (w > 1)} ms" for w in workers)
        + " | best speed-up | equal |"
    )
    print("| --- | ---: | " + " | ".join("---:" for _ in workers) + " | ---: | --- |")
    for n, T in ((32, 256), (256, 256), (512, 1024), (4096, 256)):
        h, r = batch(n, T)
        hl, rl = h.tolist(), r.tolist()
        k = min(n, 64)
        nl = med(lambda: [nltk_sentence_bleu([rl[i]], hl[i], smoothing_function=M1) for i in range(k)], 3, True) * n / k
        want = [nltk_sentence_bleu([rl[i]], hl[i], smoothing_function=M1) for i in range(k)]
        H, R = torch.from_numpy(h).cuda(), torch.from_numpy(r).cuda()
        torch.cuda.synchronize()
        equal = list(sentence_bleu_batch(H, R, smoothing_function=M1)[:k]) == want
        ts = [
            med(lambda: sentence_bleu_batch(H, R, smoothing_function=M1, workers=w), args.repeat, False)
            for w in workers
        ]
        print(
            f"| {n} x {T} | {1e3 * nl:.1f} | "
            + " | ".join(f"{1e3 * t:.3f}" for t in ts)
            + f" | {nl / min(ts):.0f}x | {equal} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
