"""sacreBLEU names that rapidbleu deliberately does not provide, and the error that says so.

rapidbleu scores text it is given; it does not download, cache or list sacreBLEU's test sets.
Code that reaches for them (``sacrebleu.DATASETS``, ``sacrebleu.download_test_set``,
``sacrebleu.utils.get_reference_files``, the ``sacrebleu.dataset`` package, ...) gets a
:class:`NotProvidedError` that names the feature and what to do instead, rather than a bare
``AttributeError``, with or without ``rapidbleu.install_as_sacrebleu()``.

Names here are sacreBLEU's (``"sacrebleu.utils"``); each rapidbleu module that stands for a
sacreBLEU module asks :func:`not_provided` with its sacreBLEU name from its ``__getattr__``.
"""

from .errors import NotProvidedError

__all__ = ["NOT_PROVIDED", "NOT_PROVIDED_MODULES", "NotProvidedError", "not_provided"]


#: Where sacreBLEU itself runs: install_as_sacrebleu() sets RAPIDBLEU_AS_SACREBLEU, which every
#: process started from it inherits.
_WITHOUT_ALIAS = "in a process without the alias (no rapidbleu.install_as_sacrebleu(), RAPIDBLEU_AS_SACREBLEU not set)"
_TEST_SETS = (
    "rapidbleu does not provide sacreBLEU's test sets (their downloads, cache and listings): "
    f"fetch the files with sacreBLEU itself {_WITHOUT_ALIAS}, "
    "e.g. `env -u RAPIDBLEU_AS_SACREBLEU sacrebleu -t wmt23 -l de-en --echo ref > ref.txt`, then score them as "
    "files or lists of strings"
)


#: sacreBLEU module -> its names that rapidbleu does not provide (all about test sets).
NOT_PROVIDED: dict[str, frozenset[str]] = {
    "sacrebleu": frozenset(
        {
            "DATASETS",
            "download_test_set",
            "get_available_testsets",
            "get_langpairs_for_testset",
            "get_reference_files",
            "get_source_file",
            "dataset",
        }
    ),
    "sacrebleu.utils": frozenset(
        {
            "DATASETS",
            "SUBSETS",
            "download_file",
            "download_test_set",
            "extract_tarball",
            "filter_subset",
            "get_available_origlangs",
            "get_available_subsets",
            "get_available_testsets",
            "get_available_testsets_for_langpair",
            "get_files",
            "get_langpairs_for_testset",
            "get_md5sum",
            "get_reference_files",
            "get_source_file",
            "print_subset_results",
            "print_test_set",
        }
    ),
}

#: sacreBLEU modules (and their submodules) that rapidbleu does not provide.
NOT_PROVIDED_MODULES: frozenset[str] = frozenset({"sacrebleu.dataset"})


def not_provided(module: str, name: str | None = None) -> NotProvidedError | None:
    """The error for sacreBLEU's ``module.name`` (or for the module itself when ``name`` is
    None) if rapidbleu deliberately lacks it, else None (an ordinary missing name)."""
    qualified = module if name is None else f"{module}.{name}"
    top = ".".join(qualified.split(".")[:2])
    if (name is not None and name in NOT_PROVIDED.get(module, ())) or top in NOT_PROVIDED_MODULES:
        return NotProvidedError(f"{qualified}: {_TEST_SETS}", name=qualified if name is None else module)
    return None
