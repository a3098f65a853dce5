"""docs/flow.md stays true: every recipe loads without a warning and plays to its end, the page covers every
kind of flow step, and the tic-tac-toe block is the fixture the tests walk."""
import itertools
import re
import shutil
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.agents import RandomAgent, play_out
from interpreter.rules.flow import FLOW_KINDS, UNTIL_END

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "flow.md"


def _blocks(marker):
    text = PAGE.read_text()
    return re.findall(rf"<!-- {marker}: (\S+) -->\s*```yaml\n(.*?)```", text, re.S)


def test_the_page_has_the_recipes():
    names = [path.split("/")[0] for path, _ in _blocks("file")]
    assert names == ["one-action", "move-n", "roll-and-choose", "sealed-bids"]
    assert len(_blocks("same as")) == 1


def test_every_flow_step_kind_and_idiom_is_described():
    text = PAGE.read_text()
    for kind in FLOW_KINDS:
        assert f"`{kind}" in text, kind
    for key in (f"repeat: {UNTIL_END}", "max_actions", "`free`", "end.outcome", "scoring.tie", "scoring.payoffs",
                "draw=true", "Game.ranking", "Game.payoffs"):
        assert key in text, key


@pytest.mark.parametrize("path, body", _blocks("file"), ids=[path.split("/")[0] for path, _ in _blocks("file")])
def test_each_recipe_loads_without_warnings_and_plays_to_its_end(tmp_path, path, body):
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    target = tmp_path / path
    target.parent.mkdir(parents=True)
    target.write_text(body)
    first = body.split("\n", 1)[0]
    schema = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first).group(1)
    assert (target.parent / schema).is_file()
    rs = load_ruleset(target.parent)
    assert rs.warnings == []
    ends = set()
    for seed in range(30):
        for players in range(rs.min_players, rs.max_players + 1):
            game = Game(rs, players, seed=seed)
            play_out(game, [RandomAgent(seed * 10 + s) for s in range(players)])
            assert game.is_over and game.end_reason is None
            assert len(game.payoffs) == players and len(game.ranking) == players
            ends.add("draw" if game.is_draw else "win")
            if "max_actions: 1" in body and "simultaneous" not in body:
                # one action per turn: no seat decides twice in a row (two or more players)
                seats = [e["player"] for e in game.log if e["e"] == "decide"]
                assert all(a != b for a, b in itertools.pairwise(seats))
    if "tie: draw" in body:
        assert ends == {"draw", "win"}   # the draws the recipe promises do happen


def test_the_tic_tac_toe_block_is_the_fixture():
    (path, body), = _blocks("same as")
    assert body == (ROOT / path).read_text()
