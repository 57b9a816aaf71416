#!/usr/bin/env python3
"""Print the three commands ``.ci/run`` runs as the documentation writes them, one per line.

The first two are the first two ```bash blocks of README.md, one command line each: score a
WMT23 system (a fresh ``.venv`` and ``pip install .``) and run the tests (a fresh ``.venv`` with
the test extras).  The third is the first ```bash block of CONTRIBUTING.md's section
"## Integration tests", one command line: install the integration packages (into that
``.venv``).  ``.ci/run`` runs them as written, in a clean copy of the repository, so the
documentation cannot drift from what CI runs; ``tests/test_readme.py`` checks that they have
this shape.

Usage: python tools/readme_commands.py [README.md | ROOT]   (the repository's README.md or the
repository itself; default this file's repository)
"""

import re
import sys
from pathlib import Path

#: What each command is, in order (the names .ci/run prints).
NAMES = ("score a WMT23 system", "run the tests", "install the integrations")
#: The section of CONTRIBUTING.md whose first ```bash block installs the integrations.
INTEGRATIONS_SECTION = "## Integration tests"


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)


def _one_line(path: Path, name: str, block: str) -> str:
    lines = [line for line in block.splitlines() if line.strip()]
    if len(lines) != 1:
        raise ValueError(f"{path}: the block to {name} has {len(lines)} lines, expected one command line")
    return lines[0]


def commands(root: Path) -> list[str]:
    """The three commands under ``root``: README.md's first two ```bash blocks, then the first
    ```bash block of CONTRIBUTING.md's "## Integration tests" section, each a single command line.

    Raises:
        ValueError: fewer than two ```bash blocks in README.md, no such section or no ```bash
            block in it, or a block that is not a single line.
    """
    readme, contributing = root / "README.md", root / "CONTRIBUTING.md"
    blocks = _bash_blocks(readme.read_text(encoding="utf-8"))
    if len(blocks) < 2:
        raise ValueError(f"{readme}: {len(blocks)} ```bash blocks, expected at least 2")
    out = [_one_line(readme, name, block) for name, block in zip(NAMES[:2], blocks, strict=False)]
    text = contributing.read_text(encoding="utf-8")
    section = re.search(rf"^{re.escape(INTEGRATIONS_SECTION)}\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M)
    if section is None:
        raise ValueError(f"{contributing}: no section {INTEGRATIONS_SECTION!r}")
    blocks = _bash_blocks(section.group(1))
    if not blocks:
        raise ValueError(f"{contributing}: no ```bash block in the section {INTEGRATIONS_SECTION!r}")
    out.append(_one_line(contributing, NAMES[2], blocks[0]))
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    if root.is_file():  # README.md: CONTRIBUTING.md is beside it
        root = root.parent
    print("\n".join(commands(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
