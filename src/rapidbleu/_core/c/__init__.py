"""The C that several compiled kernels share, no metric prefix: the hash tables (``table.h``/
``.pxd``), the str readers (``text.h``/``.pxd``, ``pytext.h``), the tokenizers' C (``tok.h``,
``strtok.h``, ``uni.h``), ``compiler.h``, ``pyint.h`` and ``pyapi.pxd``.  Headers and
declarations only, no module: found through setup.py's include_dirs and cimported as
``..c.<name>``.  Imports nothing."""
