"""``python -m rapidbleu.dataset --dump | --check``: sacreBLEU's ``python -m sacrebleu.dataset``.

* ``--dump``: the test sets as a Markdown table (name, description with its URLs as links), the
  layout sacreBLEU prints;
* ``--check``: download every URL of the table that has an MD5 sum (once each, into a
  temporary folder, through :func:`rapidbleu._base.fetch.download`) and report each whose sum
  differs or that cannot be downloaded; the exit status is 1 if any.

Without an option: the usage, exit status 1 (as sacreBLEU).
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Sequence

from .._base import fetch
from .._base.errors import DownloadError
from .table import DATASETS

_URL = re.compile(r"(https?://\S+)")


def dump() -> str:
    """The Markdown table of ``--dump``."""
    rows = [f"| {'Dataset':<30} | {'Description':<115} |", "| " + "-" * 30 + " | " + "-" * 115 + " |"]
    for name, dataset in DATASETS.items():
        description = _URL.sub(r"[URL](\1)", str(dataset.description))
        rows.append(f"| {name:<30} | {description:<115} |")
    return "\n".join(rows) + "\n"


def check() -> list[str]:
    """Download each URL that has an MD5 sum and return the failures, one line each."""
    sums: dict[str, str] = {}
    for dataset in DATASETS.values():
        if dataset.md5:
            sums.update(zip(dataset.data or [], dataset.md5, strict=False))
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for i, (url, md5) in enumerate(sums.items()):
            sys.stdout.write(f"Downloading {url}\n")
            try:
                fetch.download(url, f"{folder}/{i}", md5=md5, what="MD5 check")
            except DownloadError as exc:
                failures.append(f"{url}: {exc}")
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``--dump`` or ``--check``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--dump"]:
        sys.stdout.write(dump())
        return 0
    if args[:1] == ["--check"]:
        failures = check()
        for line in failures:
            sys.stdout.write(f"MD5 check failed for {line}\n")
        return 1 if failures else 0
    sys.stdout.write("Usage: python -m rapidbleu.dataset --check | --dump\n")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
