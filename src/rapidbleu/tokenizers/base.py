"""The interface every tokenizer implements."""


class BaseTokenizer:
    """A callable that maps one segment (``str``) to its tokenized form (``str``).

    Tokens are separated by single spaces in the output; BLEU splits the result with
    ``str.split()``. ``signature()`` is the name written into the BLEU signature
    (``tok:13a``).  ``fast_path`` names the tokenizer in the compiled core when the core
    can run it without Python (``None`` when only the Python ``__call__`` exists).
    """

    #: Name of the tokenizer in the compiled core, or None.
    fast_path: str | None = None

    def signature(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define signature()")

    def __call__(self, line: str) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define __call__()")
