"""Stub of the compiled ``ids_cy``: the functions of its twin ``ids_py``, typed there."""

from typing import Final, Literal

from .ids_py import clean_flat as clean_flat
from .ids_py import pack_int_lists as pack_int_lists

NAME: Final[Literal["cython"]]
