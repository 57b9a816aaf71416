"""rapidbleu's ground layer: what every other module may stand on, importing nothing else of the
package (``tests/test_packaging.py`` reads the layers and fails on an import that runs back up).

* ``errors``: every exception and warning type, and the messages shared by several modules;
* ``version``: ``__version__``;
* ``log``: the ``rapidbleu`` logger (obeys the ``sacrebleu`` logger's level);
* ``lazy``: numpy imported on first use, ``is_ndarray`` without importing it;
* ``nogc``: a decorator that pauses the cyclic garbage collector around allocation-heavy calls;
* ``fetch``: the one downloader and cache (``$SACREBLEU``): locked, streamed to a temporary file,
  checked and renamed into place, archives extracted only inside the cache; the test sets and
  the SentencePiece models both use it;

This file imports nothing: importing one ground module costs only that module.
"""
