"""draw, explain and diff run on every bundled ruleset and variant (whatever games are bundled)."""
import xml.etree.ElementTree as ET

import pytest

from interpreter import load_ruleset
from interpreter.authoring.diff import diff, format_diff
from interpreter.authoring.draw import to_dot, to_svg
from interpreter.authoring.explain import explain
from interpreter.cli import main
from interpreter.load.files import bundled_ids, bundled_rulesets_dir, variants_of


def _all():
    for rid in bundled_ids():
        yield pytest.param(rid, None, id=rid)
        for variant in variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml"):
            yield pytest.param(rid, variant, id=f"{rid}+{variant}", marks=pytest.mark.slow)   # fast tier: base games


@pytest.mark.parametrize("rid,variant", list(_all()))
def test_draw_explain_diff(rid, variant, capsys):
    rs = load_ruleset(rid, variant)
    dot = to_dot(rs)
    assert "digraph" in dot and dot.rstrip().endswith("}")
    ET.fromstring(to_svg(rs))
    for space in list(rs.board.graph.nodes)[:3]:
        assert f'"{space}"' in dot
    text = explain(rs)
    assert rs.name in text
    for aid, adef in list(rs.actions.items())[:3]:
        assert f"`{aid}`" in text or adef.label in text
    if variant is not None:
        base = load_ruleset(rid)
        changes = diff(base, rs)
        assert changes, f"variant {variant} should differ from {rid} in some rule"
        assert "no rule differences" not in format_diff(changes, base, rs)
    assert diff(rs, rs) == []
    assert main(["explain", rid] + (["--variant", variant] if variant else [])) == 0
    assert main(["draw", rid] + (["--variant", variant] if variant else [])) == 0
    capsys.readouterr()
