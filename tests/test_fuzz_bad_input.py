"""Mutated rulesets and DSL snippets end in a located DavitError, never another exception.

Seeded and bounded: each case damages a real file a few hundred ways (a
character dropped, doubled, swapped or replaced) and loads the result.
"""
import random
import shutil
from pathlib import Path

import pytest

from interpreter import Game
from interpreter.agents import make_agents, play_out
from interpreter.dsl.parser import parse
from interpreter.errors import DavitError
from interpreter.rules.loading import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
NOISE = "():[]{},.-=<>!#'\"\n\t |&*%@0123456789abcxyz"


def _mutate(text: str, rnd: random.Random) -> str:
    chars = list(text)
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(chars))
        op = rnd.randrange(4)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, chars[i])
        elif op == 2 and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i] = rnd.choice(NOISE)
    return "".join(chars)


SNIPPETS = [
    "x = 1 + 2 * 3\nfor p in players:\n    if p.score > x:\n        score(p, -1)\n",
    "sum(c.value for c in hand if c.face_up) >= lowest(players, p -> p.score)[0].score",
    "while n < 3:\n    n += 1\n    if n == 2:\n        break\nreturn [a for a in range(n)]",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_mutated_snippets_parse_or_fail_cleanly(snippet):
    rnd = random.Random(7)
    for _ in range(300):
        text = _mutate(snippet, rnd)
        for mode in ("block", "expr"):
            try:
                parse(text, mode)
            except DavitError as exc:
                assert exc.location is not None and exc.location.line >= 1


@pytest.mark.slow
@pytest.mark.parametrize("rid", ["der-mythos", "tutorial"])
def test_mutated_rulesets_load_or_fail_cleanly(rid, tmp_path):
    source = ROOT / "rulesets" / rid
    rnd = random.Random(11)
    files = sorted(p for p in source.glob("*.yaml"))
    for attempt in range(60):
        folder = tmp_path / f"m{attempt}"
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns("scenarios"))
        victim = folder / rnd.choice(files).name
        victim.write_text(_mutate(victim.read_text(), rnd))
        try:
            rs = load_ruleset(folder)
        except DavitError as exc:
            for err in getattr(exc, "errors", [exc]):
                assert err.location is not None, f"{victim.name}: unlocated error {err}"
            continue
        # it still loads: a game of it either plays or stops with a located rules error
        try:
            game = Game(rs, rs.min_players, seed=attempt)
            play_out(game, make_agents("random", rs.min_players, attempt), max_decisions=300)
        except DavitError as exc:
            assert exc.location is not None, f"unlocated: {exc}"
