"""``python -m rapidbleu.cli``: the command line (as ``python -m rapidbleu``)."""

from . import main

if __name__ == "__main__":
    main()
