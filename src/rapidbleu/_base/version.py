"""Single source of the package version (read by setuptools and by ``rapidbleu.__version__``)."""

__version__ = "0.1.0"
