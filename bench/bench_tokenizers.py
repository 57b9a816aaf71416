"""Tokenizer throughput, rapidbleu vs sacreBLEU, on the WMT23 text.

    python bench/bench_tokenizers.py [--repeat 5] [--data DIR] [--only zh,intl]

Input: every line of every WMT23 file (sources, references, system outputs; duplicates kept,
so repeated segments count as they would in a real run), right-stripped as BLEU hands them to
a tokenizer.  Each tokenizer is timed on the whole text ``--repeat`` times with its
``lru_cache`` bypassed on both sides (a cache hit measures a dict lookup, not the tokenizer);
the table reports the median, in MB/s of UTF-8 input.  MeCab tokenizers are included when
their extras are installed; SentencePiece tokenizers when ``sentencepiece`` is installed,
with a small model trained on the fly (so their numbers say little about the real FLORES
models, whose vocabularies are much larger).  Output: a markdown table on stdout.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import check_backend, read_lines, wmt23_dir, wmt23_files

check_backend()

from rapidbleu.tokenizers import get_tokenizer  # noqa: E402


def _data_dir(arg):
    return Path(arg) if arg else wmt23_dir("generaltest2023.*")


def _lines(folder):
    out = []
    for path in wmt23_files("generaltest2023.*", folder):
        out += read_lines(path)
    return out


def _uncached_ours(tok):
    cached = getattr(tok, "_cached", None)
    return getattr(cached, "__wrapped__", cached) if cached is not None else tok


def _uncached_theirs(tok):
    call = type(tok).__call__
    call = getattr(call, "__wrapped__", call)
    # zh and 13a delegate to a cached post-tokenizer; bypass that cache too
    post = getattr(tok, "_post_tokenizer", None)
    if post is not None:
        post_call = type(post).__call__
        post_call = getattr(post_call, "__wrapped__", post_call)
        tok._post_tokenizer = lambda line, _p=post, _c=post_call: _c(_p, line)
    # (zh's per-character lru_cache stays: it is part of how sacreBLEU's zh gets its speed)
    return lambda line: call(tok, line)


def _median_times(fns, lines, repeat):
    """Median wall time of each function over ``lines``; runs alternate between the
    functions so that load from other processes hits both sides alike."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, acc in zip(fns, times, strict=False):
            t0 = time.perf_counter()
            for line in lines:
                fn(line)
            acc.append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


def _spm_setup(lines, tmp):
    try:
        import sentencepiece as spm
    except ImportError:
        return False
    corpus = Path(tmp) / "train.txt"
    corpus.write_text("\n".join(lines[::40][:2000]) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(Path(tmp) / "m"),
        vocab_size=4000,
        character_coverage=0.98,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    os.environ["SACREBLEU"] = tmp
    models = Path(tmp) / "models"
    models.mkdir()
    for fname in ("sacrebleu_tokenizer_spm.model", "flores200sacrebleuspm"):
        (models / fname).write_bytes((Path(tmp) / "m.model").read_bytes())
    import sacrebleu.tokenizers.tokenizer_spm as sb_spm

    sb_spm.SACREBLEU_DIR = tmp
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", default=None)
    ap.add_argument("--only", default="", help="comma-separated tokenizer names")
    args = ap.parse_args()

    from sacrebleu.metrics.bleu import _get_tokenizer

    lines = _lines(_data_dir(args.data))
    mb = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    names = ["none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab", "flores101", "flores200"]
    if args.only:
        names = list(args.only.split(","))
    tmp = tempfile.TemporaryDirectory()
    have_spm = any(n.startswith("flores") for n in names) and _spm_setup(lines, tmp.name)

    rows = []
    for name in names:
        if name.startswith("flores") and not have_spm:
            continue
        try:
            ours_tok = get_tokenizer(name)
            theirs_tok = _get_tokenizer(name)()
        except (ImportError, RuntimeError) as exc:
            print(f"skipping {name}: {str(exc).strip().splitlines()[0]}", file=sys.stderr)
            continue
        ours, theirs = _uncached_ours(ours_tok), _uncached_theirs(theirs_tok)
        assert [ours(line) for line in lines[:300]] == [theirs(line) for line in lines[:300]], name
        t_ours, t_theirs = _median_times((ours, theirs), lines, args.repeat)
        path = getattr(ours_tok, "fast_path", None) or "-"
        rows.append((name, path, mb / t_ours, mb / t_theirs, t_theirs / t_ours))

    print(f"{len(lines)} lines, {mb:.2f} MB UTF-8, median of {args.repeat} runs, caches bypassed\n")
    print("| tokenizer | core fast path | rapidbleu MB/s | sacreBLEU MB/s | speed-up |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, path, ours, theirs, ratio in rows:
        print(f"| {name} | {path} | {ours:.1f} | {theirs:.1f} | {ratio:.2f}x |")
    print(
        "\n(these timings call the Python tokenizer objects on both sides; 'core fast path' names "
        "the tokenizer in the compiled core, which BLEU uses instead when it is built.)"
    )


if __name__ == "__main__":
    main()
