"""rapidbleu's private core: the metric protocol's middle layer and every kernel, each in its
compiled form and its pure-Python twin.  Nothing here is public; the public modules one level up
(``rapidbleu.BLEU``, ``rapidbleu.nltk``, ``rapidbleu.metrics``, ...) import from here, never the
other way round except where ARCHITECTURE.md says so.

Layout and naming:

* the middle layer, one job per module, here: ``metric`` (the protocol), ``inputs``,
  ``validate``, ``backend`` (the one rule that chooses a twin), ``threads``, ``bootstrap``,
  ``engines`` (Spark, Dask, Ray), ``sacre_methods``;
* the kernels, in one sub-package per metric (what they compute): ``bleu/``, ``nltk/``,
  ``chrf/``, ``ter/``, ``ids/`` (token-id streams) and ``aggregate/`` (reference aggregation for
  MBR, chrF and BLEU alike, named by its job).  In each, a kernel is named by its metric, then its
  job: ``<metric>[_<job>]_py.py`` is the pure-Python twin (the oracle, which owns the
  documentation), ``<metric>[_<job>]_cy.pyx`` the compiled one with its stub ``.pyi`` beside it
  (which imports the twin's functions, so that each signature is written once),
  its C in ``<metric>*.h`` (``bleu/``: ``bleu_stats_*`` with its ``.pxi`` files, ``bleu_sets_*``,
  ``bleu_scores_*`` with the ``.pxd`` the sets kernel cimports, ``bleu_ngram*.h``, and
  ``bleu_row``, BLEU's statistics row layout; ``nltk/``: ``nltk_style``, ``nltk_inputs``,
  ``nltk_smoothing``, ``nltk_scores``, ``nltk_batch``, NLTK's reading of BLEU); a compiled module
  is ``rapidbleu._core.<metric>.<module>`` and ``backend.TWINS`` names each pair by the same key;
* what several kernels share has no metric prefix and sits in ``c/`` (headers and ``.pxd``
  declarations only, no module): the hash tables (``table.h``/``.pxd``), the str readers
  (``text.h``/``.pxd``, ``pytext.h``), the tokenizers' C (``tok.h``, ``strtok.h``, ``uni.h``),
  ``compiler.h``, ``pyint.h``, ``pyapi.pxd``.  Headers are included by name (setup.py puts every
  folder on the include path); ``.pxd`` files are cimported package-relative
  (``from ..c.table cimport ...``).

No folder holds more than 30 source files (``tests/test_packaging.py``): a new metric is a new
folder.  The ground below this package (errors, version, log, lazy imports, the downloader) is
``rapidbleu._base``, which imports nothing of the package.

This file imports nothing, nor do the sub-packages' ``__init__`` files: importing one core module
costs only that module.
"""
