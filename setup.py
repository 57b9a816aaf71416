"""Build script: metadata lives in pyproject.toml; this file only adds the compiled core."""

from setuptools import setup

setup()
