"""Every ```python block of README.md runs as written, and the values its comments state are the
values the code gives.

A block runs top-level statement by statement in a fresh namespace (a block defines what it
uses), as a script (``__name__ == "__main__"``; the statements under such a guard run one by
one too).  A statement on one line with a trailing ``# comment`` is checked when the comment states
a value: it starts with the same word as the value's text (or, before a ``...``, with its
beginning), or with a literal of the same kind (a number where the value is a number, a quoted
string where it is a string).  The value's text is the printed output for a ``print(...)``
call, else ``str()`` or ``repr()`` of the expression.  The comment must then start with that
text, or, when it contains ``...``, the text must start with what precedes the ``...``.  Other
comments are prose and are not checked.
"""

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _blocks():
    text = README.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def _comment(lines, node):
    if node.lineno != node.end_lineno:
        return None
    line = lines[node.lineno - 1]
    code_end = node.end_col_offset
    rest = line[code_end:]
    m = re.match(r"\s*#\s?(.*)$", rest)
    return m.group(1).strip() if m else None


def _literal_kind(word: str) -> str | None:
    """The kind of Python literal ``word`` is (``number``, ``str``, ``constant``), else None."""
    try:
        value = ast.literal_eval(word)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or value is None:
        return "constant"
    if isinstance(value, int | float | complex):
        return "number"
    return "str" if isinstance(value, str) else None


def _states(comment: str, text: str) -> bool:
    """Whether ``comment`` states the value ``text``: both start with the same word, or with a
    literal of the same kind (a number for a number: ``# 48.8`` beside a score of 51.2 is a
    wrong statement, not prose)."""
    if not comment or not text:
        return False
    first, value = comment.split(maxsplit=1)[0], text.split(maxsplit=1)[0]
    if first == value:
        return True
    if "..." in first:  # "0.7...", "nrefs:1|...": what precedes the dots
        first = first.split("...", maxsplit=1)[0]
        if first and value.startswith(first):
            return True
    kind = _literal_kind(value)
    return kind is not None and _literal_kind(first.rstrip(",;")) == kind


def _statements(tree: ast.Module) -> list[ast.stmt]:
    """The block's top-level statements, those under an ``if __name__ == "__main__":`` guard
    one by one in its place (checked like the others)."""
    out: list[ast.stmt] = []
    for node in tree.body:
        guard = isinstance(node, ast.If) and not node.orelse and ast.unparse(node.test) == "__name__ == '__main__'"
        out.extend(node.body if guard else [node])
    return out


def _matches(comment: str, text: str) -> bool:
    if "..." in comment:
        return text.startswith(comment.split("...", maxsplit=1)[0].rstrip(" "))
    return comment.startswith(text)


BLOCKS = _blocks()

#: Blocks that use an optional extra run only where it is installed (or required: .ci/run sets
#: RAPIDBLEU_REQUIRE_SPARK / _DASK / _TORCH / _RAY / _CHROMIUM, so there they must run).  Imported module ->
#: (the environment switch, the module that must be installed).
OPTIONAL = {
    "pyspark": ("RAPIDBLEU_REQUIRE_SPARK", "pyspark"),
    "dask": ("RAPIDBLEU_REQUIRE_DASK", "dask"),
    "distributed": ("RAPIDBLEU_REQUIRE_DASK", "distributed"),
    "rapidbleu.torchmetrics": ("RAPIDBLEU_REQUIRE_TORCH", "torchmetrics"),
    "ray": ("RAPIDBLEU_REQUIRE_RAY", "ray"),
    "rapidbleu.ray": ("RAPIDBLEU_REQUIRE_RAY", "ray"),
    "rapidbleu.compare": ("RAPIDBLEU_REQUIRE_CHROMIUM", "matplotlib"),  # the report extra
}
#: Blocks whose code needs torch without importing it (OpenRLHF's reward_func returns tensors).
NEEDS_TORCH = re.compile(r"\.reward_func\b")
#: The switches of the integration packages (tests/conftest.py): blocks that need one of them are
#: integration tests.
INTEGRATION_SWITCHES = {"RAPIDBLEU_REQUIRE_TORCH", "RAPIDBLEU_REQUIRE_RAY"}


def _needs(source: str) -> list[tuple[str, str]]:
    """(switch, module) of each optional package the block needs."""
    needs = [
        (env, needed)
        for module, (env, needed) in OPTIONAL.items()
        if re.search(rf"^\s*(import|from) {re.escape(module)}\b", source, flags=re.M)
    ]
    if NEEDS_TORCH.search(source):
        needs.append(("RAPIDBLEU_REQUIRE_TORCH", "torch"))
    return needs


def _skip_without_extras(source: str) -> None:
    import importlib.util
    import os

    for env, needed in _needs(source):
        if os.environ.get(env) != "1" and importlib.util.find_spec(needed) is None:
            pytest.skip(f"README block needs {needed} (not installed)")


def _block_params():
    """Each block's index, marked ``integration`` where it needs an integration package."""
    return [
        pytest.param(i, marks=pytest.mark.integration)
        if any(env in INTEGRATION_SWITCHES for env, _ in _needs(source))
        else i
        for i, source in enumerate(BLOCKS)
    ]


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", _block_params())
def test_readme_block(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # blocks write files (report.html): not into the checkout
    source = BLOCKS[index]
    _skip_without_extras(source)
    lines = source.splitlines()
    tree = ast.parse(source)
    namespace = {"__name__": "__main__"}  # as a script runs it (a block may guard its main part)
    checked = 0
    for node in _statements(tree):
        comment = _comment(lines, node)
        is_expr = isinstance(node, ast.Expr)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if is_expr:
                value = eval(compile(ast.Expression(node.value), README.name, "eval"), namespace)
            else:
                exec(compile(ast.Module([node], []), README.name, "exec"), namespace)
        if comment is None or not is_expr:
            continue
        is_print = isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "print"
        candidates = [out.getvalue().rstrip("\n")] if is_print else [str(value), repr(value)]
        stated = [t for t in candidates if _states(comment, t)]
        if not stated:
            continue  # prose
        checked += 1
        assert any(_matches(comment, t) for t in stated), (
            f"README block {index}, line {node.lineno}: the comment says {comment!r}, the code gives {stated[0]!r}"
        )
    print(f"block {index}: {checked} stated values checked")


#: Blocks that start worker processes: a process started by spawn or forkserver imports the main
#: module again, so such a block must also run as a script (its main part under a guard).
STARTS_PROCESSES = re.compile(r"LocalCluster\(|multiprocessing|ProcessPoolExecutor")


@pytest.mark.parametrize("index", [i for i, source in enumerate(BLOCKS) if STARTS_PROCESSES.search(source)])
def test_readme_block_that_starts_processes_runs_as_a_script(index, tmp_path):
    import os
    import subprocess
    import sys

    source = BLOCKS[index]
    _skip_without_extras(source)
    script = tmp_path / f"readme_block_{index}.py"
    script.write_text(source, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    run = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]


def test_readme_commands_are_the_ones_ci_runs_as_written():
    """``.ci/run`` runs the README's first three ```bash blocks as written in a clean copy
    (``tools/readme_commands.py`` reads them): install and score, install and test (a fresh
    ``.venv`` each), then the integrations into that ``.venv``; no command installs an
    integration package before the tests run."""
    import importlib.util

    path = README.parent / "tools" / "readme_commands.py"
    if not path.is_file():
        pytest.skip("tools/readme_commands.py is not beside this copy of the tests (run from the checkout)")
    spec = importlib.util.spec_from_file_location("readme_commands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    score, test, integrations = module.commands(README)
    assert score.startswith("python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/rapidbleu ")
    assert test.startswith("python3 -m venv .venv && .venv/bin/pip install -q '.[test,")
    assert test.endswith(" && .venv/bin/python -m pytest -q")
    assert integrations.startswith(".venv/bin/pip install ")
    for name in ("torch", "torchmetrics", "ray", "trl", "lm-eval", "sockeye", "joeynmt"):
        assert name not in score, name
        assert name not in test, name
        assert name in integrations, name
