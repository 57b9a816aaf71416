"""The C ``intl`` tokenizer against sacreBLEU's with whatever ``regex`` is installed.

Not collected by pytest (no ``test_`` prefix): ``.ci/run`` runs it in an environment with
another ``regex`` release than the test extra's, since the class table is built at run time
from the installed module and must follow it.  Cheap (a few seconds):

    python tests/check_intl_regex.py [WMT23_DIR]

Checks, with the compiled core required: the table against ``regex.match`` for every code
point; every line of the WMT23 sample files plus edge strings through ``bleu_stats_cy._tokenize``
against sacreBLEU's ``intl`` tokenizer; one corpus BLEU against sacreBLEU's.
"""

import logging
import os
import sys
from pathlib import Path

import regex
import sacrebleu
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

import rapidbleu
from rapidbleu._core.bleu import bleu_stats_cy as cy

HERE = Path(__file__).resolve().parent


def main(folder):
    print(f"regex {regex.__version__}, sacrebleu {sacrebleu.__version__}, rapidbleu {rapidbleu.__version__}")
    assert rapidbleu.backend == "cython", rapidbleu.backend
    table = cy._intl_classes()
    pats = [(1, regex.compile(r"\p{P}")), (2, regex.compile(r"\p{S}")), (3, regex.compile(r"\p{N}"))]
    diff = [hex(c) for c in range(0x110000) if table[c] != next((code for code, p in pats if p.match(chr(c))), 0)]
    assert not diff, f"{len(diff)} code points differ: {diff[:20]}"

    theirs = TokenizerV14International()
    lines = ["", "a", "3.5", "1,000.", "...", "a...b", "€10", "½,", "Ⅻ.", "x\u00ad\u2e3ay", "𝟙,𝟚", "\U0001f600!"]
    files = sorted(str(p) for p in Path(folder).glob("generaltest2023.*"))
    assert files, f"no WMT23 files in {folder}"
    for path in files:
        with open(path, encoding="utf-8", newline="\n") as fh:
            lines.extend(line.rstrip() for line in fh)
    bad = [line for line in lines if cy._tokenize(line, "intl") != theirs(line.rstrip())]
    assert not bad, f"{len(bad)} lines differ, first: {bad[0]!r}"

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    with open(files[-1], encoding="utf-8") as fh:
        hyps = [line.rstrip() for line in fh]
    refs = [hyps[::-1]]
    ours = rapidbleu.BLEU(tokenize="intl").corpus_score(hyps, refs)
    ref = sacrebleu.BLEU(tokenize="intl").corpus_score(hyps, refs)
    assert (ours.score, ours.counts, ours.totals) == (ref.score, ref.counts, ref.totals)
    print(f"ok: {len(table)} code points, {len(lines)} lines, BLEU {ours.score}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CHECK_WMT23_DIR", HERE / "data" / "wmt23"))
