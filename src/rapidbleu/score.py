"""Result and signature objects with sacreBLEU 2.x's text, JSON and attribute layout."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

from ._base.version import __version__

#: The version written into signatures: says which tool produced the score.
SIGNATURE_VERSION = f"rapidbleu-{__version__}"

_S = TypeVar("_S", bound="Score")


class Score:
    """A metric value with sacreBLEU's ``format()``: ``NAME|signature = 12.34 <verbose>``.

    Attributes:
        name: metric name (``"BLEU"``).
        score: the value, 0-100.
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        # Bootstrap confidence interval (set by estimate_ci); -1 means "not computed".
        self._mean = -1.0
        self._ci = -1.0

    #: What ``format`` prints after the score (the statistics of a BLEU score).
    _verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """The score as sacreBLEU prints it.

        Args:
            width: decimals of the score (and of the CI).
            score_only: only the number (text mode).
            signature: the formatted signature string, or "" for none.
            is_json: a JSON object (indent 1, non-ASCII kept) instead of one text line.
        """
        d: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        sc = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean_str = f"{self._mean:.{width}f}"
            ci_str = f"{self._ci:.{width}f}"
            conf = f"μ = {mean_str} ± {ci_str}"
            sc += f" ({conf})"
            if is_json:
                d["confidence_mean"] = float(mean_str)
                d["confidence_var"] = float(ci_str)
                d["confidence"] = conf
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {sc}"
        if self._verbose:
            line += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for item in signature.split("|"):
                key, value = item.split(":", 1)
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return line

    def with_ci(self: _S, mean: float, half_width: float) -> _S:
        """This score with a bootstrap mean and 95% CI half-width (both in points), which
        ``format`` prints as ``(μ = mean ± half_width)``; returns ``self``."""
        self._mean = mean
        self._ci = half_width
        return self

    def estimate_ci(self, scores: list[Score]) -> None:
        """Store the mean and the 95% half-width of bootstrap ``scores`` (sacreBLEU's rule:
        sorted scores, bounds at index n // 40 and n - n // 40 - 1)."""
        import statistics  # (here: it imports random, which starting the command line does not need)

        raw = sorted(s.score for s in scores)
        lo = len(raw) // 40
        self._ci = 0.5 * (raw[len(raw) - lo - 1] - raw[lo])
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """Corpus or sentence BLEU with its statistics.

    Attributes:
        score: BLEU, 0-100 (float).
        counts: clipped n-gram matches per order 1..N (add-k smoothing included, as sacreBLEU).
        totals: hypothesis n-gram totals per order 1..N.
        precisions: modified n-gram precisions per order, in percent.
        bp: brevity penalty.
        sys_len: hypothesis length c (tokens); ref_len: effective reference length r.
        ratio: ``sys_len / ref_len`` (0 when ``ref_len`` is 0).
    """

    def __init__(
        self,
        score: float,
        counts: Sequence[float] | np.ndarray,
        totals: Sequence[float] | np.ndarray,
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.ratio = sys_len / ref_len if ref_len else 0

    # The texts are made when first read (a loop of sentence scores reads only ``score``): their
    # formatting costs as much as the rest of a one-segment score.
    @cached_property
    def prec_str(self) -> str:
        """The precisions as ``"p1/p2/.../pN"``, one decimal each."""
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @cached_property
    def _verbose(self) -> str:  # type: ignore[override]  # (a class attribute of Score)
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} "
            f"ref_len = {self.ref_len:d})"
        )


class Signature:
    """Reproducibility signature: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:...``.

    ``format(short=True)`` uses sacreBLEU's abbreviations (``#:1|c:mixed|e:no|...``).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        if "num_refs" not in args:
            raise ValueError("the number of references is unknown: score a corpus first")
        num_refs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": SIGNATURE_VERSION,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def format(self, short: bool = False) -> str:
        keys = [k for k in self.info if k != "version"] + ["version"]
        parts = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(parts)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class CHRFScore(Score):
    """A chrF or chrF++ score.

    Attributes:
        score: chrF, 0-100 (float).
        name: ``chrF{beta}`` followed by one ``+`` per word order (``chrF2++`` for chrF++).
        beta, char_order, word_order: the options it was computed with.
    """

    def __init__(self, score: float, char_order: int, word_order: int, beta: int | float):
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRFSignature(Signature):
    """The chrF signature: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:...``
    (short: ``#:1|c:mixed|e:yes|nc:6|nw:0|s:no|v:...``).  ``eff`` is ``yes`` for the default
    effective-order averaging, ``no`` with ``eps_smoothing``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "no" if args["eps_smoothing"] else "yes",
                "nc": args["char_order"],
                "nw": args["word_order"],
                "space": "yes" if args["whitespace"] else "no",
            }
        )


class TERScore(Score):
    """Corpus or sentence TER with its statistics (sacreBLEU's ``TERScore``).

    Attributes:
        score: TER, 0-100 and more (float; the type of the statistics it was computed from).
        num_edits: the summed number of edits, as an ``int``.
        ref_length: the summed average reference length (as given: a float for a corpus).
    """

    def __init__(self, score: float, num_edits: float, ref_length: float):
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TERSignature(Signature):
    """The TER signature: adds case (``lc`` unless case-sensitive), the tokenizer (``tercom``),
    normalization, punctuation (``yes`` unless removed) and Asian support:
    ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:...``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update(
            {
                "case": "mixed" if args["case_sensitive"] else "lc",
                "tok": args["tokenizer_signature"],
                "norm": args["normalized"],
                "punct": not args["no_punct"],
                "asian": args["asian_support"],
            }
        )
