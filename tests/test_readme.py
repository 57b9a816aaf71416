"""Every ```python block of the documentation (README.md and every page in docs/) runs as
written, and the values its comments state are the values the code gives.

A block runs top-level statement by statement in a fresh namespace (a block defines what it
uses), as a script (``__name__ == "__main__"``; the statements under such a guard run one by
one too), compiled under its page's name and line numbers (a traceback points at the page).  A
statement on one line with a trailing ``# comment`` is checked when the comment states a
value: it starts with the same word as the value's text (or, before a ``...``, with its
beginning), or with a literal of the same kind (a number where the value is a number, a quoted
string where it is a string).  The value's text is the printed output for a ``print(...)``
call, else ``str()`` or ``repr()`` of the expression.  The comment must then start with that
text, or, when it contains ``...``, the text must start with what precedes the ``...``.  Other
comments are prose and are not checked.

Tests are named by page and block: ``test_doc_block[docs/chrf.md#2]`` is the second ```python
block of ``docs/chrf.md``.  The pages' relative links and anchors must resolve, and every page
of docs/ must be in its index (``docs/README.md``).
"""

import ast
import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import INTEGRATIONS, ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"
#: The pages whose examples run: the README, then docs/ in name order.
PAGES = [README, *sorted(DOCS.glob("*.md"))]
#: Pages whose links are checked besides those (they link into the pages, or the pages to them).
LINKED_PAGES = [*PAGES, ROOT / "CONTRIBUTING.md"]


@dataclass(frozen=True)
class Block:
    """One ```python block: its page, its number there (from 1), the page line of its first
    line of code, and its code."""

    page: Path
    number: int
    line: int
    source: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}#{self.number}"

    def code(self) -> str:
        """The code, after as many empty lines as precede it on the page (line numbers are the
        page's)."""
        return "\n" * (self.line - 1) + self.source


def _blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    return [Block(page, n, text.count("\n", 0, m.start(1)) + 1, m.group(1)) for n, m in enumerate(found, 1)]


def _comment(lines, node):
    """The trailing comment of a one-line statement, else None (``end_col_offset`` counts UTF-8
    bytes, so the line is cut as bytes)."""
    if node.lineno != node.end_lineno:
        return None
    rest = lines[node.lineno - 1].encode("utf-8")[node.end_col_offset :].decode("utf-8")
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


BLOCKS = [block for page in PAGES for block in _blocks(page)]

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
    "rapidbleu.compare": ("RAPIDBLEU_REQUIRE_CHROMIUM", "matplotlib"),
}
#: The extra of pyproject.toml that installs each optional module (a skip names it).
EXTRA = {
    "pyspark": "spark",
    "dask": "dask",
    "distributed": "dask",
    "torchmetrics": "torchmetrics",
    "torch": "torchmetrics",
    "ray": "ray",
    "matplotlib": "report",
    "jinja2": "report",
}
#: Blocks whose code needs torch without importing it (OpenRLHF's reward_func returns tensors).
NEEDS_TORCH = re.compile(r"\.reward_func\b")
#: The switches of the integration packages (tests/conftest.py): blocks that need one of them are
#: integration tests.
INTEGRATION_SWITCHES = set(INTEGRATIONS.values())


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


def _missing(where: str, module: str) -> str:
    """The skip reason for ``module`` missing: the module, and the extra that installs it."""
    extra = EXTRA[module]
    return f"{where} needs {module} (not installed; the {extra!r} extra: pip install 'rapidbleu[{extra}]')"


def _skip_without_extras(block: Block) -> None:
    import importlib.util
    import os

    for env, needed in _needs(block.source):
        if os.environ.get(env) != "1" and importlib.util.find_spec(needed) is None:
            pytest.skip(_missing(block.name, needed))


def _block_params(blocks: list[Block]):
    """Each block, named by page and number, marked ``integration`` where it needs an
    integration package."""
    return [
        pytest.param(
            block,
            id=block.name,
            marks=[pytest.mark.integration]
            if any(env in INTEGRATION_SWITCHES for env, _ in _needs(block.source))
            else [],
        )
        for block in blocks
    ]


def test_readme_is_short_and_has_an_example_per_metric():
    """The README is read in five minutes: under 300 lines, one example per metric."""
    assert len(README.read_text(encoding="utf-8").splitlines()) < 300
    sources = [b.source for b in BLOCKS if b.page == README]
    for metric in ("BLEU(", "CHRF(", "TER("):
        assert any(metric in s for s in sources), metric


@pytest.mark.parametrize("block", _block_params(BLOCKS))
def test_doc_block(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # blocks write files (report.html): not into the checkout
    _skip_without_extras(block)
    lines = block.code().splitlines()
    tree = ast.parse(block.code())
    filename = str(block.page)
    namespace = {"__name__": "__main__"}  # as a script runs it (a block may guard its main part)
    checked = 0
    for node in _statements(tree):
        comment = _comment(lines, node)
        is_expr = isinstance(node, ast.Expr)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if is_expr:
                value = eval(compile(ast.Expression(node.value), filename, "eval"), namespace)
            else:
                exec(compile(ast.Module([node], []), filename, "exec"), namespace)
        if comment is None or not is_expr:
            continue
        is_print = isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "print"
        candidates = [out.getvalue().rstrip("\n")] if is_print else [str(value), repr(value)]
        stated = [t for t in candidates if _states(comment, t)]
        if not stated:
            continue  # prose
        checked += 1
        assert any(_matches(comment, t) for t in stated), (
            f"{block.page.relative_to(ROOT)}:{node.lineno}: the comment says {comment!r}, the code gives {stated[0]!r}"
        )
    print(f"{block.name}: {checked} stated values checked")


#: Blocks that start worker processes: a process started by spawn or forkserver imports the main
#: module again, so such a block must also run as a script (its main part under a guard).
STARTS_PROCESSES = re.compile(r"LocalCluster\(|multiprocessing|ProcessPoolExecutor")


@pytest.mark.parametrize("block", _block_params([b for b in BLOCKS if STARTS_PROCESSES.search(b.source)]))
def test_doc_block_that_starts_processes_runs_as_a_script(block, tmp_path):
    import os
    import subprocess
    import sys

    _skip_without_extras(block)
    script = tmp_path / f"{block.page.stem}_block_{block.number}.py"
    script.write_text(block.code(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    run = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]


def _without_code(text: str) -> str:
    """``text`` without fenced blocks and inline code spans (their brackets are not links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``: lower case, punctuation but ``-`` and
    ``_`` dropped, spaces as ``-``; a repeated one gets ``-1``, ``-2``, ..."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#* *$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _links(page: Path) -> list[str]:
    """The relative link targets of ``page`` (``[text](target)``, images too)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", _without_code(page.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_doc_links_resolve(page):
    """Each relative link names a file that exists and, after ``#``, one of its headings."""
    links = _links(page)
    broken = []
    for target in links:
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no heading #{anchor} in {dest.relative_to(ROOT)})")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_every_docs_page_is_in_the_index():
    linked = {(INDEX.parent / t.partition("#")[0]).resolve() for t in _links(INDEX)}
    missing = [p.name for p in PAGES if p.parent == DOCS and p != INDEX and p.resolve() not in linked]
    assert not missing, f"{INDEX.relative_to(ROOT)} does not link {missing}"


def test_readme_commands_are_the_ones_ci_runs_as_written():
    """``.ci/run`` runs the documented commands as written in a clean copy
    (``tools/readme_commands.py`` reads them): the README's first two ```bash blocks, install and
    score, install and test (a fresh ``.venv`` each), then CONTRIBUTING.md's integrations
    command into that ``.venv``; no command installs an integration package before the tests
    run."""
    import importlib.util

    path = ROOT / "tools" / "readme_commands.py"
    if not path.is_file():
        pytest.skip("tools/readme_commands.py is not beside this copy of the tests (run from the checkout)")
    spec = importlib.util.spec_from_file_location("readme_commands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    score, test, integrations = module.commands(ROOT)
    assert score.startswith("python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/rapidbleu ")
    assert test.startswith("python3 -m venv .venv && .venv/bin/pip install -q '.[test,")
    assert test.endswith(" && .venv/bin/python -m pytest -q")
    assert integrations.startswith(".venv/bin/pip install ")
    for name in ("torch", "torchmetrics", "ray", "trl", "lm-eval", "sockeye", "joeynmt"):
        assert name not in score, name
        assert name not in test, name
        assert name in integrations, name


# ```bash blocks: each command line runs in a directory where the placeholder file names of the
# pages (REF, HYP, BASE, SYS1, ...) are WMT23 samples, with ``rapidbleu`` and ``python`` this
# interpreter's, as written (``bash -euo pipefail``).  A trailing ``# comment`` that starts with
# the output's first word states the output (what precedes each ``...`` appears in order, the
# first part at the start).  Not run: the README's set-up commands (``.ci/run`` runs them as
# written, in fresh virtual environments), ``pip install`` (the extras it names must exist),
# the benchmark scripts (long: the script and the options named must exist), and a line with a
# ``...`` placeholder argument (a model to download).

SAMPLES = ROOT / "tests" / "data" / "wmt23"
#: Placeholder name -> sample file (de-en: one reference, three systems).
PLACEHOLDERS = {
    "REF": "generaltest2023.de-en.ref.refA.en",
    "REF1": "generaltest2023.de-en.ref.refA.en",
    "REF2": "generaltest2023.de-en.ref.refA.en",
    "HYP": "generaltest2023.de-en.hyp.ONLINE-W.en",
    "BASE": "generaltest2023.de-en.hyp.AIRC.en",
    "BASELINE": "generaltest2023.de-en.hyp.AIRC.en",
    "SYS1": "generaltest2023.de-en.hyp.GTCOM_Peter.en",
    "SYS2": "generaltest2023.de-en.hyp.ONLINE-W.en",
    "SYS3": "generaltest2023.de-en.hyp.AIRC.en",
    "SRC": "generaltest2023.de-en.ref.refA.en",  # no source ships: the report only shows it
}
#: The harness script of the shim's example: it checks that it runs under the alias.
TRAIN_PY = """\
import sys

import rapidbleu
import sacrebleu

assert sacrebleu.BLEU is rapidbleu.BLEU, sacrebleu.__file__
assert sys.argv[1:] == ["--config", "my.yaml"], sys.argv
print("train.py ran on rapidbleu")
"""


@dataclass(frozen=True)
class Command:
    """One line of a ```bash block: its page, block number, page line, command and comment."""

    page: Path
    block: int
    line: int
    command: str
    comment: str | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


def _commands(page: Path) -> list[Command]:
    text = page.read_text(encoding="utf-8")
    out = []
    for n, m in enumerate(re.finditer(r"^```bash\n(.*?)^```", text, flags=re.S | re.M), 1):
        first = text.count("\n", 0, m.start(1)) + 1
        for i, line in enumerate(m.group(1).splitlines()):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            command, comment = re.match(r"(.*?)(?:\s+#\s?(.*))?$", line).groups()
            out.append(Command(page, n, first + i, command.strip(), comment.strip() if comment else None))
    return out


COMMANDS = [c for page in PAGES for c in _commands(page)]


def _placeholders(directory: Path) -> None:
    import gzip
    import shutil

    for name, sample in PLACEHOLDERS.items():
        shutil.copyfile(SAMPLES / sample, directory / name)
    ref = (directory / "REF").read_text(encoding="utf-8").splitlines()
    (directory / "REFS.tsv").write_text("".join(f"{r}\t{r}\n" for r in ref), encoding="utf-8")
    for name, source in (("REF.gz", "REF"), ("ref.gz", "REF"), ("hyp.gz", "HYP")):
        (directory / name).write_bytes(gzip.compress((directory / source).read_bytes()))
    (directory / "my.yaml").write_text("{}\n", encoding="utf-8")
    (directory / "train.py").write_text(TRAIN_PY, encoding="utf-8")


def _check_without_running(command: Command) -> bool:
    """Check a line that is not run (see above); False for a line that runs."""
    words = command.command.split()
    if words[:2] == ["pip", "install"]:
        pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        for spec in words[2:]:
            for extra in re.findall(r"\[([^\]]+)\]", spec)[0].split(",") if "[" in spec else []:
                assert re.search(rf"^{re.escape(extra)} = \[", pyproject, flags=re.M), (
                    f"{command.name}: no extra {extra!r}"
                )
        return True
    if words[0] == "python" and len(words) > 1 and words[1].startswith("bench/"):
        script = ROOT / words[1]
        assert script.is_file(), f"{command.name}: no {words[1]}"
        source = script.read_text(encoding="utf-8")
        for option in re.findall(r"--[\w-]+", command.command):
            assert option in source, f"{command.name}: {words[1]} has no option {option}"
        return True
    return any(word.endswith("=...") for word in words)


def _states_output(comment: str, output: str) -> bool:
    """Whether ``comment`` states the output: its first word is the output's, or, before a
    ``...`` in it, the beginning of the output's first word (else it is prose)."""
    if not output:
        return False
    first, value = comment.split(maxsplit=1)[0], output.split(maxsplit=1)[0]
    if "..." in first:
        first = first.split("...", maxsplit=1)[0]
        return bool(first) and value.startswith(first)
    return first == value


@pytest.mark.parametrize("command", [pytest.param(c, id=c.name) for c in COMMANDS])
def test_doc_command(command, tmp_path):
    import importlib.util
    import os
    import shlex
    import subprocess
    import sys

    if command.page == README and command.block <= 2:  # tools/readme_commands.py: the first two
        pytest.skip(f"{command.name}: a set-up command .ci/run runs as written")
    if _check_without_running(command):
        return
    if "--report" in command.command and ".html" in command.command:
        for module in ("matplotlib", "jinja2"):
            if os.environ.get("RAPIDBLEU_REQUIRE_CHROMIUM") != "1" and importlib.util.find_spec(module) is None:
                pytest.skip(_missing(command.name, module))
    _placeholders(tmp_path)
    (tmp_path / "tests").symlink_to(ROOT / "tests")  # the README's paths, as from the checkout
    python = shlex.quote(sys.executable)
    script = f'rapidbleu() {{ {python} -m rapidbleu "$@"; }}\npython() {{ {python} "$@"; }}\n{command.command}\n'
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert run.returncode == 0, f"{command.name}: {command.command}\n{run.stderr[-3000:]}"
    output = run.stdout.strip()
    if command.comment and _states_output(command.comment, output):
        at = 0
        for i, part in enumerate(p.strip() for p in command.comment.split("...")):
            found = output.find(part, at)
            said = f"{command.name}: the comment says {command.comment!r}, the command prints {output[:300]!r}"
            assert found >= 0, said
            assert i > 0 or found == 0, said
            at = found + len(part)
