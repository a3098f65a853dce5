"""docs/architecture.md names the engine's modules as they are: each one it names exists, and it names each one.

A module is named as a path in backquotes, from `interpreter/` (`play/game.py`)
or from the top of the repository (`interpreter/load/limits.py`,
`tests/test_layering.py`); a pattern (`dsl/prims_*.py`) must match a module
but names none. A package's `__init__.py` counts as named when its folder is
(`agents/`).
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "interpreter"
DOC = ROOT / "docs" / "architecture.md"
NAMED = re.compile(r"`((?:[\w.*-]+/)*[\w*-]+\.(?:py|lark))`")
FOLDER = re.compile(r"`((?:[\w-]+/)+)`")
TOP_LEVEL = ("interpreter/", "tests/", "tools/")


def _modules() -> set[str]:
    """Every module and grammar of the engine, as a path from `interpreter/`."""
    found = {str(p.relative_to(PACKAGE)) for suffix in ("*.py", "*.lark") for p in PACKAGE.rglob(suffix)}
    return {m for m in found if "__pycache__" not in m}


def _path(token: str) -> Path:
    return ROOT / token if token.startswith(TOP_LEVEL) else PACKAGE / token


def _named_in_doc() -> list[str]:
    return NAMED.findall(DOC.read_text(encoding="utf-8"))


def test_the_page_names_modules():
    named = _named_in_doc()
    assert len(named) > 100, f"the pattern found only {len(named)} module names in {DOC.name}"
    assert len(_modules()) > 100


def test_every_module_the_page_names_exists():
    missing = [token for token in _named_in_doc() if not list(_path(token).parent.glob(_path(token).name))]
    assert not missing, f"{DOC.name} names modules that do not exist: {sorted(set(missing))}"


def test_the_page_names_every_module():
    text = DOC.read_text(encoding="utf-8")
    named = {str(_path(t).relative_to(PACKAGE)) for t in _named_in_doc()
             if "*" not in t and _path(t).is_relative_to(PACKAGE)}
    folders = {f.removeprefix("interpreter/") for f in FOLDER.findall(text)}
    unnamed = []
    for module in sorted(_modules()):
        folder, _, name = module.rpartition("/")
        if name == "__init__.py" and folder and f"{folder}/" in folders:
            continue
        if module not in named:
            unnamed.append(module)
    assert not unnamed, f"{DOC.name} does not say what these modules are for: {unnamed}"
