#!/usr/bin/env python3
"""Print the README's three commands at its top, one per line, as ``.ci/run`` runs them.

They are the first three ```bash blocks of README.md, one command line each: score a WMT23
system (a fresh ``.venv`` and ``pip install .``), run the tests (a fresh ``.venv`` with the test
extras), install the integrations (into that ``.venv``).  ``.ci/run`` runs them as written, in
a clean copy of the repository, so the README cannot drift from what CI runs;
``tests/test_readme.py`` checks that they have this shape.

Usage: python tools/readme_commands.py [README.md]
"""

import re
import sys
from pathlib import Path

#: What each command is, in order (the names .ci/run prints).
NAMES = ("score a WMT23 system", "run the tests", "install the integrations")


def commands(readme: Path) -> list[str]:
    """The first three ```bash blocks of ``readme``, each a single command line.

    Raises:
        ValueError: fewer than three ```bash blocks, or one that is not a single line.
    """
    blocks = re.findall(r"^```bash\n(.*?)^```", readme.read_text(encoding="utf-8"), flags=re.S | re.M)
    if len(blocks) < len(NAMES):
        raise ValueError(f"{readme}: {len(blocks)} ```bash blocks, expected at least {len(NAMES)}")
    out = []
    for name, block in zip(NAMES, blocks, strict=False):
        lines = [line for line in block.splitlines() if line.strip()]
        if len(lines) != 1:
            raise ValueError(f"{readme}: the block to {name} has {len(lines)} lines, expected one command line")
        out.append(lines[0])
    return out


def main(argv: list[str]) -> int:
    readme = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "README.md"
    print("\n".join(commands(readme)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
