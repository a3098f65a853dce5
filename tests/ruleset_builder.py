"""A tiny ruleset written from a dict, for unit tests: `load(tmp_path, spec)`; or from YAML text,
`load_text(tmp_path, text)`.

`spec` is merged over a minimal valid ruleset (an id, 1–3 players by default, a flow
that does nothing); each call writes a new folder because `load_ruleset`
caches by path.
"""
import itertools

import yaml

from interpreter import load_ruleset

_serial = itertools.count()


def load(tmp_path, spec, max_players=3):
    data = {"id": "unit", "players": {"min": 1, "max": max_players}, "flow": [{"do": "pass"}]}
    data.update(spec)
    return load_text(tmp_path, yaml.safe_dump(data, sort_keys=False))


def write_text(tmp_path, text):
    """A new folder under ``tmp_path`` holding ``text`` as its ruleset.yaml (a ruleset written as YAML)."""
    folder = tmp_path / f"rs{next(_serial)}"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    return folder


def load_text(tmp_path, text):
    """The ruleset ``text`` (YAML, as written), loaded from a new folder."""
    return load_ruleset(write_text(tmp_path, text))
