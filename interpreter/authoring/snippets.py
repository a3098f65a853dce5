"""DSL snippets from outside a ruleset's files: scenarios, tests and tools.

A :class:`SnippetCompiler` compiles against a ruleset's names without
touching the ruleset (its own copy of the compiler environment), and runs
statements in a game by lending the game the compiled code.
"""
from __future__ import annotations

import copy
import itertools

from ..dsl.compiler import Compiler
from ..dsl.typecheck import TypeChecker, Vocabulary
from ..errors import raise_all
from ..machine.execute import call_sync

_serial = itertools.count()


class SnippetCompiler:
    def __init__(self, ruleset):
        env = copy.copy(ruleset.env)
        env.codes = {}
        env.errors = []
        self.env = env
        self.compiler = Compiler(env)
        # the same static types as the ruleset's own snippets: an expectation must be true/false. The
        # builder's vocabulary is reused (each of a ruleset's scenarios used to work out every
        # function's type afresh); it holds nothing a snippet compiled here can change
        vocabulary = getattr(ruleset, "vocabulary", None) or Vocabulary(env, ruleset)
        self.compiler.checker = TypeChecker(vocabulary, env.errors)

    def expression(self, text, what: str = "snippet", pure: bool = True):
        """``fn(game, locals)`` for an expression; raises every error found."""
        fn = self.compiler.expression(text, what, pure=pure)
        raise_all(self.env.errors)
        return fn

    def block(self, text, what: str = "snippet"):
        """Compiled statements (a :class:`vm.Code`); raises every error found."""
        code = self.compiler.block(text, f"snippet:{next(_serial)}", what)
        raise_all(self.env.errors)
        return code

    def evaluate(self, game, text, pure: bool = True):
        return self.expression(text, pure=pure)(game, {})

    def run(self, game, text_or_code, what: str = "snippet"):
        """Run statements in ``game`` (effects allowed) and return what they ``return``."""
        code = self.block(text_or_code, what) if isinstance(text_or_code, str) else text_or_code
        game.codes = {**game.codes, code.id: code}
        result = call_sync(game, code, [])
        game._legal_cache = None
        return result
