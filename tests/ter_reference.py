"""sacreBLEU 2.6.0's TER, the reference the TER tests compare against, with its slow part memoized.

sacreBLEU's TER spends nearly all its time in ``sacrebleu.metrics.lib_ter.translation_edit_rate``
(minutes for one WMT23 en-de system).  :func:`memoized` wraps that one function, where
``sacrebleu.metrics.ter`` calls it, so that each (hypothesis words, reference words) pair is
computed by sacreBLEU once and then read back from a memo: an SQLite file when
``$RAPIDBLEU_TER_CACHE`` names a folder (kept between runs), else a dict for this process.
Everything else (tokenizer, segment statistics, aggregation, score) is sacreBLEU's own code on
every call, so the statistics and floats compared are sacreBLEU's.

Running this file fills the memo for every WMT23 output and option set:
``RAPIDBLEU_TER_CACHE=DIR python tests/ter_reference.py [DATA_DIR]`` (hours, once).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import sacrebleu.metrics.ter as sacre_ter

#: TER's switches, in the order of ``TER(normalized, no_punct, asian_support, case_sensitive)``.
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
#: Every option set.
OPTION_SETS = [dict(zip(OPTION_NAMES, values, strict=True)) for values in itertools.product((False, True), repeat=4)]

_original = sacre_ter.translation_edit_rate


class EditMemo:
    """(hypothesis words, reference words) -> sacreBLEU's number of edits."""

    def __init__(self, folder: str | None = None) -> None:
        self._mem: dict[str, int] = {}
        self._db = None
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(Path(folder) / "ter-sacrebleu-2.6.0.sqlite"), timeout=60)
            self._db.execute("CREATE TABLE IF NOT EXISTS edits (key TEXT PRIMARY KEY, edits INTEGER)")
        self.computed = 0

    @staticmethod
    def key(words_hyp: Sequence[str], words_ref: Sequence[str]) -> str:
        return hashlib.blake2b(repr((tuple(words_hyp), tuple(words_ref))).encode("utf-8"), digest_size=20).hexdigest()

    def get(self, key: str) -> int | None:
        if key in self._mem:
            return self._mem[key]
        if self._db is not None:
            row = self._db.execute("SELECT edits FROM edits WHERE key = ?", (key,)).fetchone()
            if row is not None:
                self._mem[key] = row[0]
                return int(row[0])
        return None

    def put(self, key: str, edits: int) -> None:
        self._mem[key] = edits
        self.computed += 1
        if self._db is not None:
            self._db.execute("INSERT OR REPLACE INTO edits VALUES (?, ?)", (key, edits))
            self._db.commit()

    def translation_edit_rate(self, words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
        """sacreBLEU's function, memoized (its result is ``(edits, len(words_ref))``)."""
        key = self.key(words_hyp, words_ref)
        edits = self.get(key)
        if edits is None:
            edits, length = _original(words_hyp, words_ref)
            self.put(key, edits)
            return edits, length
        return edits, len(words_ref)


@functools.cache
def memo() -> EditMemo:
    """The process's memo (``$RAPIDBLEU_TER_CACHE`` or in memory), made on first use."""
    return EditMemo(os.environ.get("RAPIDBLEU_TER_CACHE") or None)


@contextlib.contextmanager
def memoized() -> Iterator[EditMemo]:
    """sacreBLEU's TER with its edit counts memoized, for the duration of the block."""
    m = memo()
    sacre_ter.translation_edit_rate = m.translation_edit_rate
    try:
        yield m
    finally:
        sacre_ter.translation_edit_rate = _original


def sacre_statistics(hypotheses: list[str], references: list[list[str | None]], **options: bool) -> list[list]:
    """sacreBLEU's per-segment TER statistics (``TER._extract_corpus_statistics``)."""
    with memoized():
        return sacre_ter.TER(**options)._extract_corpus_statistics(hypotheses, references)


def sacre_score(stats: list[list], **options: bool):
    """sacreBLEU's ``TERScore`` of per-segment statistics (``_aggregate_and_compute``)."""
    return sacre_ter.TER(**options)._aggregate_and_compute(stats)


def every_kth(lines: list[str], every: int) -> list[str]:
    """Segments 0, k, 2k, ... (the subset the opt-in WMT23 test compares with
    ``RAPIDBLEU_FULL_TER_EVERY=k``)."""
    return lines[::every]


def _fill(data: Path, pairs: set[str] | None, option_sets: list[dict[str, bool]], every: int = 1) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import read, systems

    for options in option_sets:
        for pair, system, hyp, refs in systems(data):
            if pairs and pair not in pairs:
                continue
            hyps = every_kth(read(hyp), every)
            streams = [every_kth(read(r), every) for r in refs]
            if pair == "he-en" and system == "ONLINE-B":  # the test's third reference: another output
                other = next(h for p, s, h, _ in systems(data) if p == pair and s == "Samsung_Research_Philippines")
                streams = [*streams, every_kth(read(other), every)]
            before = memo().computed
            sacre_statistics(hyps, streams, **options)
            print(pair, system, options, "computed", memo().computed - before, flush=True)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Fill the memo of sacreBLEU's TER edit counts for WMT23.")
    ap.add_argument("data", nargs="?", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt23"))
    ap.add_argument("--pairs", default="", help="comma-separated language pairs (default: all)")
    ap.add_argument("--options", default="all", choices=["all", "default", "others"], help="option sets")
    ap.add_argument("--every", type=int, default=1, help="only every k-th segment")
    args = ap.parse_args()
    chosen = {"all": OPTION_SETS, "default": OPTION_SETS[:1], "others": OPTION_SETS[1:]}[args.options]
    _fill(Path(args.data), set(filter(None, args.pairs.split(","))), chosen, args.every)
