"""The tree shows the pipeline, and the layering holds: a lower stage never imports a higher one.

Every import under ``interpreter/`` (also the ones inside functions) is read
with ``ast``. The stages, lowest first, are listed in STAGES; a module may
import its own stage and any stage below it. The package's top
(``interpreter/__init__.py``, ``__main__.py``) is the public facade and may
import anything. Module-level import cycles are refused too.
"""
import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "interpreter"

# lowest first; docs/architecture.md explains each
STAGES = ["errors", "load", "machine", "dsl", "rules", "play", "observe", "agents", "analysis", "rl", "authoring",
          "web", "cli"]
MAX_LINES = 550


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict:
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "bundled" not in p.parts}
    assert len(found) > 100, f"only {len(found)} modules found under {PACKAGE}"
    return found


@functools.cache
def import_nodes(path: Path, top_level_only: bool) -> tuple:
    """The import statements of the module at ``path`` (its top level only, or all): read and parsed once
    for the tests that ask."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    nodes = tree.body if top_level_only else ast.walk(tree)
    return tuple(n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom)))


def imports_of(name: str, path: Path, known: set, top_level_only=False) -> set:
    """The interpreter modules that ``name`` imports (resolving relative imports)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = import_nodes(path, top_level_only)
    found = set()
    for node in nodes:
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from . import x` names a module when x is one
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target.startswith("interpreter") and target != name:
                found.add(target)
    return found


def stage_of(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) < 2:
        return None          # the public facade
    return STAGES.index(parts[1]) if parts[1] in STAGES else None


def test_every_module_is_in_a_stage():
    loose = [n for n in modules() if n.count(".") >= 1 and stage_of(n) is None and n != "interpreter.__main__"]
    assert not loose, f"modules outside the stages {STAGES}: {loose}"


def test_a_lower_stage_never_imports_a_higher_one():
    mods = modules()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        mine = stage_of(name)
        if mine is None:
            continue
        for target in sorted(imports_of(name, path, known)):
            theirs = stage_of(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{name} ({STAGES[mine]}) imports {target} ({STAGES[theirs]})")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    mods = modules()
    known = set(mods)
    graph = {name: imports_of(name, path, known, top_level_only=False) - {name} for name, path in mods.items()}
    # a package's __init__ re-exporting its modules is no cycle: leave the facades out
    packages = {n for n, p in mods.items() if p.name == "__init__.py"}
    graph = {n: {t for t in ts if t not in packages} for n, ts in graph.items() if n not in packages}
    cycles = []
    state = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if "bundled" not in p.parts),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_size_limit(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines; split it along its seams"


def test_the_checker_sees_a_violation(tmp_path):
    """The import reader resolves relative imports, so a wrong import cannot slip past it."""
    fake = tmp_path / "interpreter" / "machine" / "bad.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..play import game\nfrom ..errors import DavitError\n")
    known = {"interpreter.play.game", "interpreter.play", "interpreter.errors", "interpreter.machine.bad"}
    found = imports_of("interpreter.machine.bad", fake, known)
    assert found == {"interpreter.play.game", "interpreter.errors"}
    assert stage_of("interpreter.play.game") > stage_of("interpreter.machine.bad")


@pytest.mark.slow
def test_import_interpreter_needs_no_learning_library():
    """The rl extra is optional: importing davit (and its CLI) must not import pettingzoo, gymnasium, numpy or
    pyspiel."""
    import subprocess
    import sys
    code = ("import sys, interpreter, interpreter.cli; "
            "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'numpy', 'pyspiel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
