"""Users' type checkers see rapidbleu's real types: ``mypy --strict`` accepts a script
that calls ``rapidbleu.nltk``, ``rapidbleu.batch``, ``rapidbleu.ids`` and ``rapidbleu.backend``
with the types they return, and reports a script that gets them wrong (with untyped functions
it would see ``Any`` and report nothing, or refuse the untyped calls under ``--strict``).

Static checks, the same for both backends, so they run once.  Skipped when mypy is not
installed (it is in the ``test`` extra) unless ``RAPIDBLEU_REQUIRE_MYPY=1``.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rapidbleu

if os.environ.get("RAPIDBLEU_REQUIRE_MYPY") != "1":
    pytest.importorskip("mypy", reason="mypy not installed (pip install '.[test]')")

USER_SCRIPT = """
from typing import List

import numpy as np
import numpy.typing as npt

import rapidbleu
from rapidbleu.batch import pairwise_bleu, self_bleu, sentence_bleu_batch
from rapidbleu.ids import corpus_bleu_ids, stats_ids
from rapidbleu.nltk import SmoothingFunction, corpus_bleu, sentence_bleu, sentence_bleu_batch as nltk_batch
from rapidbleu.score import BLEUScore

refs: List[List[List[str]]] = [[["the", "cat", "is", "on", "the", "mat"]]]
hyps: List[List[str]] = [["the", "cat", "is", "on", "mat"]]
one: float = corpus_bleu(refs, hyps)
several: List[float] = corpus_bleu(refs, hyps, weights=[(1.0,), (0.5, 0.5)])
sent: float = sentence_bleu(refs[0], hyps[0], smoothing_function=SmoothingFunction().method1)
per_sentence: npt.NDArray[np.float64] = nltk_batch(refs, hyps)
batch: npt.NDArray[np.float64] = sentence_bleu_batch([[2, 0, 5, 6, 7, 2, 1]], [[0, 5, 6, 8, 2, 1]],
                                                     pad_token_id=1, eos_token_id=2, bos_token_id=0)
selfb: npt.NDArray[np.float64] = self_bleu(["a b c", "a b d"])
pair: npt.NDArray[np.float64] = pairwise_bleu(["a b c", "a b d"])
score: BLEUScore = corpus_bleu_ids([[5, 6, 7]], [[5, 6, 8]], pad_id=0)
stats: npt.NDArray[np.int64] = stats_ids([[5, 6, 7]], [[5, 6, 8]])
name: str = rapidbleu.backend
print(one + sent + score.score, several, per_sentence, batch, selfb, pair, stats, name.upper())
"""

#: The integrations (issue 24): the shim, rewards, torchmetrics and Ray entry points.  torch,
#: torchmetrics and ray themselves are not followed (their own sources would take mypy minutes):
#: rapidbleu's annotations are what is checked.
INTEGRATIONS_SCRIPT = """
from ray.data import Dataset

import rapidbleu
import rapidbleu.ray as rbr
from rapidbleu.rewards import (
    REWARDS, TER_TRANSFORMS, BLEUReward, CHRFReward, SentenceReward, TERReward, compute_score, compute_score_batch,
    reward_func,
)
from rapidbleu.shim import is_installed
from rapidbleu.stats import CorpusStats
from rapidbleu.torchmetrics import BLEUScore, CHRFScore, SacreBLEUScore, TranslationEditRate, torchmetrics_chrf

rapidbleu.install_as_sacrebleu()
installed: bool = is_installed()
rapidbleu.uninstall_as_sacrebleu()
error: type[ImportError] = rapidbleu.NotProvidedError
reward = BLEUReward(style="nltk", weights=(0.5, 0.5), smoothing_function="method4", name="bleu2")
rewards: list[float] = reward(prompts=["p"], completions=["a b c"], reference=["a b c"])
by_ids: list[float] = BLEUReward(use_ids=True, eos_token_id=2).id_scores([[5, 6, 2]], [[5, 6]])
one: float = compute_score("d", "a b", "a b", None, style="nltk")
batch: list[float] = compute_score_batch(["d"], ["a b"], [["a b", "a c"]])
logs: dict[str, object] = reward_func(["p a"], ["p "], ["a"])
metric = SacreBLEUScore(n_gram=4, smooth=False, tokenize="13a", lowercase=False)
metric.update(["a b c"], [["a b c"]])
value = metric.compute()
plain = BLEUScore(n_gram=2, weights=[0.5, 0.5])
chrf_rewards: list[float] = CHRFReward(word_order=2, lowercase=True).scores(["a b"], [["a b", "a c"]])
ter_rewards: list[float] = TERReward(transform="clipped", normalized=True)(completions=["a"], reference=["a"])
by_metric: type[SentenceReward] = REWARDS["ter"]
chrf_metric = CHRFScore(n_char_order=6, n_word_order=2, beta=2.0, return_sentence_level_score=True)
chrf_metric.update(["a b c"], [["a b c"]])
chrf_value = chrf_metric.compute()
ter_metric = TranslationEditRate(normalize=True, no_punctuation=False, lowercase=True, asian_support=False)
ter_metric.update("a b c", ["a b d"])
ter_value = ter_metric.compute()
negative = TER_TRANSFORMS["negative"]


def ray_scores(ds: Dataset) -> tuple[CorpusStats, Dataset, Dataset, object]:
    return (
        rbr.corpus_stats(ds, "hyp", ["ref"]),
        rbr.sentence_bleu(ds, "hyp", "ref", column="bleu"),
        rbr.sentence_score(ds, "hyp", "ref", metric="ter", column="t", normalized=True),
        rbr.corpus_score(ds, "hyp", ["ref"], metric="chrf", word_order=2),
    )


print(installed, error, rewards, by_ids, one + batch[0], logs, value, plain, reward.__name__)
print(chrf_rewards[0] + ter_rewards[0], by_metric, chrf_value, ter_value, negative, torchmetrics_chrf)
"""

WRONG_SCRIPT = """
import rapidbleu
from rapidbleu.batch import sentence_bleu_batch
from rapidbleu.nltk import corpus_bleu

score: str = corpus_bleu([[["a"]]], [["a"]])
backend: int = rapidbleu.backend
scores = sentence_bleu_batch([[1]], [[1]], pad_token_id="1")
"""


def _mypy(tmp_path: Path, name: str, source: str, *options: str) -> subprocess.CompletedProcess:
    script = tmp_path / name
    script.write_text(textwrap.dedent(source), encoding="utf-8")
    env = dict(os.environ)
    # The folder holding the imported rapidbleu: mypy finds an installed copy by itself (and
    # refuses site-packages in MYPYPATH); a source checkout on sys.path is named explicitly.
    root = Path(rapidbleu.__file__).resolve().parent.parent
    if root.name not in ("site-packages", "dist-packages"):
        env["MYPYPATH"] = str(root)
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--follow-imports=silent",
        "--no-error-summary",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--python-executable",
        sys.executable,
        *options,
        script.name,
    ]
    return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_user_script_passes_mypy_strict(tmp_path):
    res = _mypy(tmp_path, "user.py", USER_SCRIPT)
    assert res.returncode == 0, res.stdout + res.stderr
    # and it runs
    run = subprocess.run(
        [sys.executable, "user.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr


@pytest.mark.integration
def test_integrations_pass_mypy_strict(tmp_path):
    import importlib.util

    need = [m for m in ("torchmetrics", "ray") if importlib.util.find_spec(m) is None]
    if need and not (
        os.environ.get("RAPIDBLEU_REQUIRE_TORCH") == "1" and os.environ.get("RAPIDBLEU_REQUIRE_RAY") == "1"
    ):
        pytest.skip(f"{', '.join(need)} not installed")
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\n[mypy-torch.*,torchmetrics.*,ray.*,pyarrow.*,numpy.*]\nfollow_imports = skip\n", encoding="utf-8"
    )
    res = _mypy(tmp_path, "integrations.py", INTEGRATIONS_SCRIPT, "--config-file", str(tmp_path / "mypy.ini"))
    assert res.returncode == 0, res.stdout + res.stderr
    wrong = (
        INTEGRATIONS_SCRIPT
        + "\nbad: str = compute_score('d', 'a', 'a')\nworse: int = reward(completions=['a'], reference=['a'])\n"
        + "chrf_bad: str = CHRFReward().scores(['a'], ['a'])\nTranslationEditRate(lowercase='yes')\n"
    )
    res = _mypy(tmp_path, "integrations_wrong.py", wrong, "--config-file", str(tmp_path / "mypy.ini"))
    assert res.returncode == 1
    for line in (len(wrong.splitlines()) - k for k in (3, 2, 1, 0)):  # each wrong line is reported
        assert f"integrations_wrong.py:{line}:" in res.stdout, res.stdout
    assert 'Incompatible types in assignment (expression has type "float", variable has type "str")' in res.stdout
    assert 'Incompatible types in assignment (expression has type "list[float]", variable has type "int")' in res.stdout


def test_type_errors_are_reported(tmp_path):
    res = _mypy(tmp_path, "wrong.py", WRONG_SCRIPT)
    assert res.returncode == 1, res.stdout + res.stderr
    out = res.stdout
    assert (
        'wrong.py:6: error: Incompatible types in assignment (expression has type "float", variable has type "str")'
        in out
    )
    assert (
        'wrong.py:7: error: Incompatible types in assignment (expression has type "str", variable has type "int")'
        in out
    )
    assert 'wrong.py:8: error: Argument "pad_token_id" to "sentence_bleu_batch" has incompatible type "str"' in out
