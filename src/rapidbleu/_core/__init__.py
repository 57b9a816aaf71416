"""rapidbleu's private core: the metric protocol's middle layer and every kernel, each in its
compiled form and its pure-Python twin.  Nothing here is public; the public modules one level up
(``rapidbleu.BLEU``, ``rapidbleu.nltk``, ``rapidbleu.metrics``, ...) import from here, never the
other way round except where ARCHITECTURE.md says so.

Naming:

* a kernel is named by its metric, then its job: ``<metric>[_<job>]_py.py`` is the pure-Python
  twin (the oracle, which owns the documentation), ``<metric>[_<job>]_cy.pyx`` the compiled one
  with its stub ``.pyi`` beside it, its C in ``<metric>*.h`` (``bleu_stats_*``, ``bleu_sets_*``,
  ``bleu_scores_*``, ``bleu_ngram*.h``, ``chrf_*``, ``ter_*``, ``ids_*``; ``bleu_row`` is BLEU's
  statistics row layout; ``aggregate_*`` with ``aggregate.h``, reference aggregation for chrF
  and BLEU alike, is named by its job); ``backend.TWINS`` names each pair by the same key;
* what several kernels share has no metric prefix: the hash tables (``table.h``/``.pxd``), the
  str readers (``text.h``/``.pxd``, ``pytext.h``), the tokenizers' C (``tok.h``, ``strtok.h``,
  ``uni.h``), ``compiler.h``, ``pyint.h``, ``pyapi.pxd``;
* the middle layer, one job per module: ``metric`` (the protocol), ``inputs``, ``validate``,
  ``backend`` (the one rule that chooses a twin), ``threads``, ``bootstrap``, ``engines`` (Spark,
  Dask, Ray), ``nltk_style``, ``sacre_methods``, ``compare_render``.

The ground below this package (errors, version, log, lazy imports, the downloader) is
``rapidbleu._base``, which imports nothing of the package.

This file imports nothing: importing one core module costs only that module.
"""
