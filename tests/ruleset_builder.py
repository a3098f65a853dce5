"""A tiny ruleset written from a dict, for unit tests: `load(tmp_path, spec)`.

`spec` is merged over a minimal valid ruleset (an id, 1–3 players by default, a flow
that does nothing); each call writes a new folder because `load_ruleset`
caches by path.
"""
import itertools

import yaml

from interpreter import load_ruleset

_serial = itertools.count()


def load(tmp_path, spec, max_players=3):
    folder = tmp_path / f"rs{next(_serial)}"
    folder.mkdir()
    data = {"id": "unit", "players": {"min": 1, "max": max_players}, "flow": [{"do": "pass"}]}
    data.update(spec)
    (folder / "ruleset.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_ruleset(folder)
