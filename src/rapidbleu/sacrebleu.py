"""sacreBLEU's command-line module path, ``sacrebleu.sacrebleu``: ``main`` and ``parse_args``.

sacreBLEU's ``sacrebleu`` command runs ``sacrebleu.sacrebleu.main``; under
``rapidbleu.install_as_sacrebleu()`` (which a harness's subprocess inherits through
``RAPIDBLEU_AS_SACREBLEU``) that module is this one, so the command, like ``python -m
sacrebleu``, runs rapidbleu's command line: sacreBLEU's options, output text and exit codes
(only the signature's ``version:`` differs).  What it does not provide (test sets, ``-t``) ends
with a one-line message saying so.
"""

from .cli import main, parse_args

__all__ = ["main", "parse_args"]
