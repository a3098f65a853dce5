"""davit: a declarative rules-data interpreter for tabletop games.

Rules live in schema-checked YAML with a small DSL for the logic; this
package loads, checks and compiles them and plays games::

    from interpreter import load_ruleset, Game
    game = Game(load_ruleset("my-game"), players=4, seed=1)   # a bundled id or a folder
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    print(game.scores, game.winners)

The public names are imported on first use (a module ``__getattr__``): the
``davit`` command starts without networkx, jsonschema or lark unless the
subcommand needs them.
"""
from __future__ import annotations

import importlib

# public name -> module that defines it
_LAZY = {
    "DavitError": ".errors", "DslError": ".errors", "Findings": ".errors", "GameError": ".errors",
    "LoadError": ".errors", "RulesetError": ".errors", "SchemaError": ".errors",
    "Action": ".play.decisions", "Applied": ".play.decisions", "Refused": ".play.decisions",
    "Game": ".play.game",
    "load_ruleset": ".rules.loading",
}

__all__ = ["Action", "Applied", "Refused", "DavitError", "DslError", "Findings", "GameError", "LoadError",
           "RulesetError", "SchemaError", "Game", "load_ruleset"]
__version__ = "0.1.0"


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
