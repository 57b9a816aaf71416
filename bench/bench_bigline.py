"""Peak memory on one very long segment: bytes of peak RSS per character, 13a and char.

    python bench/bench_bigline.py [--mb 50] [--refs 1] [--before PYTHON]

One segment whose hypothesis and reference are each ``--mb`` MB of ASCII text made of the
words of a WMT23 English file, either repeated in order or drawn at random (``--text``); the
reference is the hypothesis with every 7th word dropped (``--refs K``: K references, reference j
dropping the words at positions k with (k + j) % 7 == 0).  Each
measurement runs in a fresh subprocess: it builds the two strings, notes its RSS, scores
``BLEU(tokenize=...).corpus_score([hyp], [[ref]])`` and reports how far the peak RSS rose
above that, divided by the characters of the longer line, plus the wall time.  On Linux the
peak is reset just before the call (``/proc/self/clear_refs``) and read from ``VmHWM``:
``ru_maxrss`` alone would start from the peak of building the strings, whose freed
temporaries (about 2 bytes per character) the call can reuse unseen.  Elsewhere it falls back
to the growth of ``ru_maxrss`` (an underestimate).  ``--before`` runs the same children with another environment's interpreter.
"""

import argparse
import json
import subprocess
import sys

from _common import check_backend, wmt23_files

CHILD = r"""
import json, resource, sys, time
mb, tok, path, text, nrefs = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
words = open(path, encoding="utf-8").read().split()
n = mb * 1_000_000
parts, size, i = [], 0, 0
if text == "shuffled":
    import random
    rng = random.Random(1)
while size < n:
    w = words[i % len(words)] if text == "repeated" else rng.choice(words)
    parts.append(w)
    size += len(w) + 1
    i += 1
hyp = " ".join(parts)[:n]
refs = [" ".join(w for k, w in enumerate(parts) if (k + j) % 7)[:n] for j in range(nrefs)]
del parts, words
import rapidbleu
rapidbleu.BLEU(tokenize=tok).corpus_score(["warm up"], [["warm up"]])

def status(key):  # bytes, from /proc/self/status (Linux)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key))

try:  # reset the peak to the current RSS, so the peak after is the call's own
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    before, method = status("VmRSS:"), "VmHWM"
except (OSError, StopIteration):
    before, method = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "ru_maxrss"
t = time.perf_counter()
score = rapidbleu.BLEU(tokenize=tok).corpus_score([hyp], [[r] for r in refs]).score
wall = time.perf_counter() - t
peak = status("VmHWM:") if method == "VmHWM" else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"chars": max(len(hyp), *map(len, refs)), "growth": peak - before, "peak": peak, "wall": wall,
                  "score": score, "backend": rapidbleu.backend, "method": method}))
"""


def run(python, mb, tok, text_path, text, nrefs):
    p = subprocess.run(
        [python, "-c", CHILD, str(mb), tok, text_path, text, str(nrefs)], capture_output=True, text=True, check=False
    )
    if p.returncode:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--refs", type=int, default=1, help="references, each as long as the hypothesis")
    ap.add_argument("--before", default=None, help="interpreter of another environment to compare")
    ap.add_argument("--tokenizers", default="13a,char")
    ap.add_argument(
        "--text",
        default="repeated,shuffled",
        help="repeated: the WMT23 file's words in order, over and over (few distinct n-grams); "
        "shuffled: its words drawn at random (most 3- and 4-grams distinct)",
    )
    args = ap.parse_args()
    check_backend()
    text = str(wmt23_files("generaltest2023.de-en.ref.refA.en")[0])
    envs = [("after" if args.before else "this", sys.executable)] + ([("before", args.before)] if args.before else [])
    refs = "reference" if args.refs == 1 else f"{args.refs} references"
    print(f"one segment: hypothesis and {refs} of {args.mb} MB each (ASCII)\n")
    print("| text | tokenizer | rapidbleu | peak RSS growth MB | bytes per character | wall s | BLEU |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    methods = set()
    for kind in args.text.split(","):
        for tok in args.tokenizers.split(","):
            for tag, exe in envs:
                r = run(exe, args.mb, tok, text, kind, args.refs)
                if "error" in r:
                    print(f"| {kind} | {tok} | {tag} | failed: {r['error']} | | | |")
                    continue
                methods.add(r["method"])
                print(
                    f"| {kind} | {tok} | {tag} ({r['backend']}) | {r['growth'] / 1e6:.0f} "
                    f"| {r['growth'] / r['chars']:.1f} | {r['wall']:.2f} | {r['score']:.4f} |",
                    flush=True,
                )
    print(f"\npeak RSS from: {', '.join(sorted(methods))} (see the module docstring)")


if __name__ == "__main__":
    main()
