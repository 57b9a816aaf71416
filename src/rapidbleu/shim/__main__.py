"""``python -m rapidbleu.shim (-m MODULE | SCRIPT) [ARGS ...]``: run a harness under the alias.

A module of its own inside the ``rapidbleu.shim`` package (which ``import rapidbleu`` imports),
so that ``runpy`` executes a module nobody has imported yet: no "found in sys.modules"
``RuntimeWarning``, and one copy of the alias's finder per process.
"""

import sys
from collections.abc import Sequence
from pathlib import Path

from rapidbleu.shim import install_as_sacrebleu

_USAGE = "usage: python -m rapidbleu.shim (-m MODULE | SCRIPT) [ARGS ...]"


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m rapidbleu.shim -m MODULE ARGS...`` / ``python -m rapidbleu.shim SCRIPT
    ARGS...``: install the alias (for this process and every process started from it: see
    ``install_as_sacrebleu``), then run the module or script as ``__main__`` with ``sys.argv``
    and ``sys.path[0]`` as ``python -m MODULE`` / ``python SCRIPT`` would set them.

    Raises:
        SystemExit: status 2 with a usage line when no module or script is given.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or (args[0] == "-m" and len(args) < 2):
        print(_USAGE, file=sys.stderr)
        raise SystemExit(2)
    import runpy

    install_as_sacrebleu()
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(args)
        # python SCRIPT puts the script's folder (symbolic links resolved) first on the path,
        # where python -m put the current directory; run_path does so only for folders and zip
        # files.  (-P, Python >= 3.11: neither.)
        if sys.path and Path(args[0]).is_file() and not getattr(sys.flags, "safe_path", False):
            sys.path[0] = str(Path(args[0]).resolve().parent)
        runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    main()
