"""IWSLT's test sets (``.xml`` files read line by line): sacreBLEU 2.6.0's ``IWSLTXMLDataset``,
which reads them exactly as WMT's ``.sgm`` files (:mod:`rapidbleu.dataset.fake_sgml`)."""

from __future__ import annotations

from .fake_sgml import FakeSGMLDataset

__all__ = ["IWSLTXMLDataset"]


class IWSLTXMLDataset(FakeSGMLDataset):
    """IWSLT 2017's TED test sets: the ``<seg`` lines of the source and reference files, and
    ``docid``/``genre``/``origlang`` from the ``<doc`` lines, as :class:`FakeSGMLDataset`."""
