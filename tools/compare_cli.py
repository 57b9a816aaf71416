"""Compare two command lines' outputs on every WMT23 system of a data directory, byte for byte.

Runs both programs (e.g. the ``rapidbleu`` of two checkouts, or ``rapidbleu`` and ``sacrebleu``)
with the same arguments over a matrix of option sets -- one system, several systems, ``-sl``,
``--confidence``, paired tests, every output format -- and reports every difference in stdout,
stderr or exit code, after replacing the tool's version in signatures (``version:...``).

Usage::

    python tools/compare_cli.py --a ../old/.venv/bin/rapidbleu --b .venv/bin/rapidbleu
    python tools/compare_cli.py --a .venv/bin/sacrebleu --b .venv/bin/rapidbleu -m bleu chrf --stdout-only

Each metric of ``-m`` adds its own options to the matrix (BLEU: tokenizers, smoothing; chrF:
every ``--chrf-*`` option, chrF++; TER: every ``--ter-*`` option); ``-m`` is passed to both
programs as given (sacreBLEU prints paired tests in that order, everything else sorted).  With
``--stdout-only`` standard error is not compared (sacreBLEU's log lines say ``sacreBLEU:``,
rapidbleu's ``rapidbleu:``).  ``--head N`` compares on the first N lines of every file (copies
in a temporary folder): sacreBLEU's TER takes minutes per full system.

The data directory is ``$RAPIDBLEU_WMT23_DIR`` or ``--data``, with files named
``generaltest2023.<pair>.ref.<name>.<lang>`` and ``generaltest2023.<pair>.hyp.<system>.<lang>``
in ``references/`` and ``system-outputs/`` or in the folder itself (``tests/data/wmt23``).
Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

_VERSION = re.compile(r"(version:|v:|\"version\": \")[^|\"\s]+")
_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def _pairs(data: Path) -> dict[str, tuple[list[Path], list[Path]]]:
    refs: dict[str, list[Path]] = defaultdict(list)
    hyps: dict[str, list[Path]] = defaultdict(list)
    for p in sorted([*data.glob("references/*.ref.*"), *data.glob("*.ref.*")]):
        refs[p.name.split(".")[1]].append(p)
    for p in sorted([*data.glob("system-outputs/*.hyp.*"), *data.glob("*.hyp.*")]):
        hyps[p.name.split(".")[1]].append(p)
    return {pair: (refs[pair], hyps[pair]) for pair in sorted(refs) if hyps.get(pair)}


def _head(pairs: dict[str, tuple[list[Path], list[Path]]], n: int, folder: Path) -> None:
    """Copy the first ``n`` lines of every file of ``pairs`` into ``folder`` (same names)."""
    for refs, hyps in pairs.values():
        for path in [*refs, *hyps]:
            with path.open("rb") as fh:
                lines = [line for _, line in zip(range(n), fh, strict=False)]
            (folder / path.name).write_bytes(b"".join(lines))


def _run(cmd: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    return res.returncode, _VERSION.sub(r"\1X", res.stdout), _VERSION.sub(r"\1X", res.stderr)


def _cases(pairs: dict[str, tuple[list[Path], list[Path]]], metrics: list[str], quick: bool) -> list[list[str]]:
    cases = []
    for pair, (refs, hyps) in pairs.items():
        trg = pair.split("-")[1]
        base = [*map(str, refs), "-m", *metrics, "-l", pair]
        for fmt in ("json", "text"):
            cases.append([*base, "-i", str(hyps[0]), "-f", fmt, "-w", "4"])
        cases.append([*base, "-i", *map(str, hyps), "-f", "text"])
        if "chrf" in metrics:  # chrF++ with every on/off option, on several systems
            cases.append(
                [*base, "-i", *map(str, hyps), "-cw", "2", "--chrf-whitespace", "--chrf-lowercase", "-f", "text"]
            )
        if quick:
            continue
        cases.append([*base, "-i", *map(str, hyps), "-f", "json"])
        cases.append([*base, "-i", *map(str, hyps), "-f", "latex"])
        if len(metrics) == 1:
            cases.append([*base, "-i", str(hyps[-1]), "-sl"])
        cases.append([*base, "-i", str(hyps[1]), "--confidence", "-cin", "200", "-f", "text"])
        cases.append([*base, "-i", *map(str, hyps), "--paired-bs", "-pbsn", "200", "-f", "text"])
        cases.append([*base, "-i", *map(str, hyps), "--paired-ar", "-parn", "300", "-f", "json"])
        if "bleu" in metrics:
            cases.append([*base, "-i", str(hyps[0]), "-lc", "-tok", "intl" if trg not in _TOKENIZERS else "char"])
            cases.append([*base, "-i", str(hyps[0]), "-s", "floor", "-sv", "0.2", "-f", "text"])
        if "chrf" in metrics:
            cases.append([*base, "-i", str(hyps[0]), "-cc", "4", "-cw", "1", "--chrf-beta", "3", "-f", "text"])
            cases.append([*base, "-i", str(hyps[-1]), "--chrf-eps-smoothing", "-cw", "2", "-w", "3"])
            cases.append([*base, "-i", str(hyps[1]), "-cw", "2", "--confidence", "-cin", "150"])
            cases.append([*base, "-i", *map(str, hyps), "-cw", "2", "--paired-bs", "-pbsn", "100", "-f", "latex"])
            cases.append([*base, "-i", *map(str, hyps), "--chrf-eps-smoothing", "--paired-ar", "-parn", "200"])
            if len(metrics) == 1:
                cases.append([*base, "-i", str(hyps[0]), "-cw", "2", "--chrf-whitespace", "-sl", "-b"])
        if "ter" in metrics:  # every --ter-* option, alone and together, and TER's statistics in tests
            cases.append([*base, "-i", str(hyps[0]), "--ter-normalized", "-f", "text", "-w", "4"])
            cases.append([*base, "-i", str(hyps[-1]), "--ter-case-sensitive", "--ter-no-punct"])
            cases.append([*base, "-i", *map(str, hyps), "--ter-asian-support", "--ter-normalized", "-f", "text"])
            cases.append([*base, "-i", *map(str, hyps), "--ter-asian-support", "--ter-no-punct", "-f", "latex"])
            cases.append([*base, "-i", str(hyps[0]), "--ter-normalized", "--confidence", "-cin", "150", "-f", "text"])
            cases.append(
                [*base, "-i", *map(str, hyps), "--ter-normalized", "--paired-bs", "-pbsn", "100", "-f", "text"]
            )
            cases.append([*base, "-i", *map(str, hyps), "--ter-case-sensitive", "--paired-ar", "-parn", "200"])
            if len(metrics) == 1:
                cases.append([*base, "-i", str(hyps[1]), "--ter-normalized", "--ter-no-punct", "-sl", "-w", "3"])
            if len(refs) > 1:  # three references: the last system's output as the third
                three = [*map(str, refs), str(hyps[-1]), "-m", *metrics, "-l", pair]
                cases.append([*three, "-i", *map(str, hyps[:-1]), "--ter-normalized", "-f", "text", "-w", "3"])
                cases.append([*three, "-i", *map(str, hyps[:-1]), "--paired-bs", "-pbsn", "100", "-f", "text"])
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="first command (e.g. a path to rapidbleu or sacrebleu)")
    ap.add_argument("--b", required=True, help="second command")
    ap.add_argument("--data", default=os.environ.get("RAPIDBLEU_WMT23_DIR", "../shared/data/wmt23"))
    ap.add_argument("-m", "--metrics", nargs="+", default=["bleu"])
    ap.add_argument("--quick", action="store_true", help="fewer option sets")
    ap.add_argument("--pairs", nargs="*", help="only these language pairs")
    ap.add_argument("--head", type=int, metavar="N", help="only the first N lines of every file")
    ap.add_argument("--stdout-only", action="store_true", help="compare exit codes and stdout, not stderr")
    ap.add_argument(
        "--match",
        action="append",
        metavar="ARG",
        help="only the command lines with this argument (repeatable; --match=-sl for an option)",
    )
    args = ap.parse_args(argv)
    pairs = _pairs(Path(args.data))
    if args.pairs:
        pairs = {p: v for p, v in pairs.items() if p in args.pairs}
    if not pairs:
        print(f"no WMT23 files under {args.data}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        if args.head is not None:
            _head(pairs, args.head, Path(tmp))
            pairs = _pairs(Path(tmp))
        return _compare(args, pairs)


def _compare(args: argparse.Namespace, pairs: dict[str, tuple[list[Path], list[Path]]]) -> int:
    env = {**os.environ, "SACREBLEU_SEED": os.environ.get("SACREBLEU_SEED", "12345")}
    env.pop("SACREBLEU_FORMAT", None)
    differ = 0
    cases = _cases(pairs, args.metrics, args.quick)
    if args.match:
        cases = [case for case in cases if set(case) & set(args.match)]
    for case in cases:
        kept = 2 if args.stdout_only else 3  # exit code, stdout[, stderr]
        a = _run([*args.a.split(), *case], env)[:kept]
        b = _run([*args.b.split(), *case], env)[:kept]
        if a != b:
            differ += 1
            print("DIFFERS:", " ".join(case))
            for name, x, y in zip(("exit code", "stdout", "stderr")[: len(a)], a, b, strict=True):
                if x != y:
                    print(f"  {name}:\n    a: {str(x)[:400]!r}\n    b: {str(y)[:400]!r}")
    print(f"{len(cases) - differ} of {len(cases)} command lines identical ({len(pairs)} language pairs)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
