"""davit: a declarative rules-data interpreter for tabletop games.

Rules live in schema-checked YAML with a small DSL for the logic; this
package loads, checks and compiles them and plays games::

    from interpreter import load_ruleset, Game
    game = Game(load_ruleset("my-game"), players=4, seed=1)   # a bundled id or a folder
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    print(game.scores, game.winners)
"""
from .errors import DavitError, DslError, Findings, GameError, LoadError, RulesetError, SchemaError
from .play.decisions import Action, Applied, Refused
from .play.game import Game
from .rules.loading import load_ruleset

__all__ = ["Action", "Applied", "Refused", "DavitError", "DslError", "Findings", "GameError", "LoadError",
           "RulesetError", "SchemaError", "Game", "load_ruleset"]
__version__ = "0.1.0"
