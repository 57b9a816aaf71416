"""sacreBLEU 2.6.0's test sets: the table, the readers, the cache and the functions, exact to the
byte (the same text files, in the same cache, as ``sacrebleu.dataset`` and ``sacrebleu.utils``).

* :data:`DATASETS` (name -> :class:`Dataset`, in sacreBLEU's order, each built on first lookup),
  :data:`SUBSETS`, :data:`COUNTRIES`, :data:`DOMAINS` (:mod:`rapidbleu.dataset.table`, from the
  generated rows of :mod:`rapidbleu.dataset.sets`);
* the readers at sacreBLEU's module names: :class:`WMTXMLDataset` (``wmt_xml``),
  :class:`FakeSGMLDataset` and :class:`WMTAdditionDataset` (``fake_sgml``),
  :class:`IWSLTXMLDataset` (``iwslt_xml``), :class:`TSVDataset` (``tsv``),
  :class:`PlainTextDataset` (``plain_text``), on :class:`Dataset` (``base``: the cache layout
  and the one loop that downloads, parses and writes atomically);
* sacreBLEU's functions (:mod:`rapidbleu.dataset.functions`): :func:`download_test_set`,
  :func:`get_source_file`, :func:`get_reference_files`, :func:`get_files`,
  :func:`get_langpairs_for_testset`, :func:`get_available_testsets`,
  :func:`get_available_testsets_for_langpair`, :func:`get_available_origlangs`,
  :func:`get_available_subsets`, :func:`filter_subset`, :func:`print_test_set`.

Errors: :class:`~rapidbleu._base.errors.TestSetError` for an unknown test set, pair or field
(where sacreBLEU raises ``Exception`` or exits), :class:`~rapidbleu._base.errors.DownloadError`
for a download.  The cache is ``$SACREBLEU`` or ``~/.sacrebleu``, read at each call.
``python -m rapidbleu.dataset --dump`` prints the table (``--check`` verifies every URL's MD5).
"""

from __future__ import annotations

from . import functions
from .base import Dataset
from .fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from .functions import *  # noqa: F403 -- sacreBLEU's functions, listed once in functions.__all__
from .iwslt_xml import IWSLTXMLDataset
from .plain_text import PlainTextDataset
from .table import COUNTRIES, DATASETS, DOMAINS, SUBSETS
from .tsv import TSVDataset
from .wmt_xml import WMTXMLDataset

__all__ = [
    "COUNTRIES",
    "DATASETS",
    "DOMAINS",
    "SUBSETS",
    "Dataset",
    "FakeSGMLDataset",
    "IWSLTXMLDataset",
    "PlainTextDataset",
    "TSVDataset",
    "WMTAdditionDataset",
    "WMTXMLDataset",
]
__all__ += functions.__all__  # sacreBLEU's functions (functions.py lists them once)
