"""The docs stay true: every DSL primitive is documented, every linked page exists."""
import re
from pathlib import Path

from interpreter.dsl.primitives import BUILTIN_VALUES, PRIMITIVES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_primitive_is_in_the_dsl_reference():
    text = (DOCS / "dsl.md").read_text()
    missing = [name for name in PRIMITIVES if f"`{name}(" not in text]
    assert not missing, f"docs/dsl.md does not describe: {missing}"
    assert "`resolve(" in text and "`choose(" in text
    assert not [name for name in BUILTIN_VALUES if f"`{name}" not in text]


def test_links_between_pages_resolve():
    links = [(page, target) for page in DOCS.rglob("*.md")
             for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", page.read_text())]
    assert len(links) > 20, "the link pattern found (almost) no links between the pages"
    for page, target in links:
        assert (page.parent / target).is_file(), f"{page.name} links to missing {target}"


def test_every_bundled_ruleset_has_a_page():
    from interpreter.load.files import bundled_ids
    assert len(bundled_ids()) >= 5
    for rid in bundled_ids():
        assert (DOCS / "rulesets" / f"{rid}.md").is_file(), f"docs/rulesets/{rid}.md is missing"


def _yaml_files():
    root = Path(__file__).resolve().parent.parent / "rulesets"
    return sorted(root.rglob("*.yaml"))


def test_every_ruleset_file_names_its_schema():
    """Editors complete and check a file through its first line; the path must lead to the right schema."""
    assert len(_yaml_files()) > 20
    for path in _yaml_files():
        first = path.read_text().split("\n", 1)[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert m, f"{path}: first line is {first!r}"
        schema = (path.parent / m.group(1)).resolve()
        assert schema.is_file(), f"{path}: {m.group(1)} does not exist"
        kind = {"scenarios": "scenario", "variants": "variant"}.get(path.parent.name)
        if kind is None:
            kind = "ruleset" if path.name == "ruleset.yaml" else "part"
        assert schema.name == f"{kind}.schema.json", f"{path} should name {kind}.schema.json"
