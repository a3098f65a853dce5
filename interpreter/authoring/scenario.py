"""Scenario files: rule tests that designers write as data, run by ``davit test``.

A scenario names a ruleset (and variant), players, a seed, pinned chance
outcomes and starting-state overrides, then steps: scripted decisions that
must be legal (``act``), ones that must be refused (``refuse``), DSL
expectations (``expect``), agent play until a condition holds (``run``) and
state changes (``set``). See ``docs/scenarios.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..agents import FirstAgent, RandomAgent
from ..errors import DavitError, Location, ScenarioError, raise_all
from ..load.files import RULESET_FILE, display_path
from ..load.schema_check import schema_errors
from ..load.yaml_reader import LocMap, load_yaml_file, plain
from ..play.game import Game
from ..rules.loading import load_ruleset
from .snippets import SnippetCompiler

MAX_RUN_DECISIONS = 100_000


class PassAgent(FirstAgent):
    """Ends its turn whenever it may, otherwise takes the first legal action (lets time run on)."""

    def choose(self, game, seat, actions):
        for action in actions:
            if action.name == "pass":
                return action
        return actions[0]


@dataclass
class ScenarioResult:
    path: str
    id: str
    ok: bool
    messages: list = field(default_factory=list)


def find_scenarios(paths) -> list[Path]:
    """Scenario files under the given files or folders (``*/scenarios/*.yaml``)."""
    found = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found.extend(p for p in sorted(path.rglob("*.yaml")) if p.parent.name == "scenarios")
        else:
            from ..load.files import bundled_rulesets_dir
            bundled = bundled_rulesets_dir() / str(raw)
            if bundled.is_dir():
                found.extend(p for p in sorted(bundled.rglob("*.yaml")) if p.parent.name == "scenarios")
            else:
                raise ScenarioError(f"no such file, folder or bundled ruleset: {raw}")
    return found


def _default_ruleset(path: Path) -> Path:
    for folder in [path.parent, *path.parents]:
        if (folder / RULESET_FILE).is_file():
            return folder
    raise ScenarioError("scenario names no `ruleset` and no ruleset.yaml is above it",
                        Location(display_path(path)))


class _Runner:
    def __init__(self, path: Path, data: LocMap):
        self.path = path
        self.data = data
        ref = data.get("ruleset")
        if ref is None:
            ruleset_ref = _default_ruleset(path)
        else:
            local = (path.parent / str(ref))
            ruleset_ref = local if local.exists() else str(ref)
        self.ruleset = load_ruleset(ruleset_ref, data.get("variant"))
        self.snippets = SnippetCompiler(self.ruleset)
        self.env = self.snippets.env
        self.compiler = self.snippets.compiler

    def compile_all(self) -> list:
        """Compile every DSL snippet of the scenario (no game is played); returns the errors."""
        d = self.data
        if d.get("setup"):
            self.compiler.block(d["setup"], "scenario:check-setup", "scenario setup")
        steps = d.get("steps") or []
        for i, step in enumerate(steps):
            if not isinstance(step, dict):
                continue
            if "set" in step:
                self.compiler.block(step["set"], f"scenario:check-{i}", f"step {i + 1} set")
            if "run" in step:
                self.compiler.expression(step["run"], f"step {i + 1} run")
            if "expect" in step:
                self._compile_conditions(step["expect"])
        if d.get("expect") is not None:
            self._compile_conditions(d["expect"])
        return list(self.env.errors)

    def _compile_conditions(self, conds):
        for text in conds if isinstance(conds, list) else [conds]:
            self.compiler.expression(text, "expectation")

    def fail(self, message, loc):
        raise ScenarioError(message, loc)

    def compile_block(self, text, what):
        return self.snippets.block(text, what)

    def compile_expr(self, text, what):
        return self.snippets.expression(text, what)

    def run_block(self, game, code):
        self.snippets.run(game, code)

    def action(self, game, spec, loc):
        if not isinstance(spec, dict) or "player" not in spec or "action" not in spec:
            self.fail("an act/refuse step needs `player` and `action`", loc)
        args = []
        for name, value in (spec.get("args") or {}).items():
            args.append([name, self.value(game, plain(value))])
        return game.action_from_json({"player": spec["player"], "action": spec["action"], "args": {}}), args

    def value(self, game, value):
        table = game.table
        if isinstance(value, str):
            if value in table.things:
                return table.things[value]
            if value in table.zones:
                return table.zones[value]
        if isinstance(value, dict) and "player" in value:
            return table.players[int(value["player"])]
        if isinstance(value, list):
            return [self.value(game, v) for v in value]
        return value

    def run(self) -> None:
        d = self.data
        pins = plain(d.get("pins") or {})
        game = Game(self.ruleset, int(d["players"]), int(d.get("seed", 0)), pins=pins)
        if d.get("setup"):
            self.run_block(game, self.compile_block(d["setup"], "scenario setup"))
            game.resettle()
        steps = d.get("steps") or []
        for i, step in enumerate(steps):
            loc = steps.loc_of(i)
            self.step(game, step, loc, i + 1)
        final = d.get("expect")
        if final is not None:
            self.expect(game, final, d.loc_of("expect"), None)

    def step(self, game, step, loc, number):
        from ..play.decisions import Action
        if "act" in step or "refuse" in step:
            key = "act" if "act" in step else "refuse"
            spec = step[key]
            base, args = self.action(game, spec, step.loc_of(key))
            action = Action(base.player, base.name, tuple((k, v) for k, v in args))
            result = game.apply(action)
            if key == "act" and not result:
                legal = "; ".join(str(a) for a in game.legal_actions(base.player)[:8]) or "none"
                self.fail(f"step {number}: {base.name} by {game.player_name(base.player)} was refused: "
                          f"{result.reason} (legal now: {legal})", loc)
            if key == "refuse":
                if result:
                    self.fail(f"step {number}: {base.name} by {game.player_name(base.player)} was accepted "
                              "but should have been refused", loc)
                want = spec.get("reason")
                if want and str(want).lower() not in result.reason.lower():
                    self.fail(f"step {number}: refused for '{result.reason}', expected a reason containing "
                              f"'{want}'", loc)
            return
        if "expect" in step:
            self.expect(game, step["expect"], step.loc_of("expect"), step.get("message"))
            return
        if "set" in step:
            self.run_block(game, self.compile_block(step["set"], f"step {number} set"))
            game.resettle()
            return
        if "run" in step:
            cond = self.compile_expr(step["run"], f"step {number} run")
            agent_name = str(step.get("agent", "first"))
            agent = {"first": FirstAgent(), "pass": PassAgent()}.get(agent_name) \
                or RandomAgent(int(self.data.get("seed", 0)))
            made = 0
            while not game.is_over and not cond(game, {}):
                seat = game.deciding_players[0]
                game.apply(agent.choose(game, seat, game.legal_actions(seat)))
                made += 1
                if made > MAX_RUN_DECISIONS:
                    self.fail(f"step {number}: the condition never held", loc)
            return
        self.fail(f"step {number}: unknown step (use act, refuse, expect, run or set)", loc)

    def expect(self, game, conds, loc, message):
        items = conds if isinstance(conds, list) else [conds]
        for j, text in enumerate(items):
            where = conds.loc_of(j) if isinstance(conds, list) and hasattr(conds, "loc_of") else loc
            fn = self.compile_expr(text, "expectation")
            try:
                ok = fn(game, {})
            except DavitError as exc:
                self.fail(f"expectation '{text}' could not be evaluated: {exc.message}", where)
            except Exception as exc:  # a wrong expectation, e.g. comparing a card with a number
                self.fail(f"expectation '{text}' could not be evaluated: {type(exc).__name__}: {exc}", where)
            if not ok:
                scores = ", ".join(f"{game.player_name(s)} {v}" for s, v in game.scores.items())
                extra = f" — {message}" if message else ""
                self.fail(f"expectation failed: {text}{extra} (scores: {scores}; phase: "
                          f"{' > '.join(game.state.phase) or 'none'})", where)


def check_scenario(path: Path) -> list:
    """Every problem ``davit validate`` can find in a scenario without running it."""
    shown = display_path(path)
    try:
        data = load_yaml_file(path, shown)
        if not isinstance(data, LocMap):
            raise ScenarioError("a scenario file must be a mapping", Location(shown))
        errors = schema_errors(data, "scenario", data.loc)
        if errors:
            return errors
        runner = _Runner(path, data)
        return runner.compile_all()
    except DavitError as exc:
        return list(getattr(exc, "errors", [exc]))


def run_scenario(path: Path) -> ScenarioResult:
    shown = display_path(path)
    try:
        data = load_yaml_file(path, shown)
        if not isinstance(data, LocMap):
            raise ScenarioError("a scenario file must be a mapping", Location(shown))
        raise_all(schema_errors(data, "scenario", data.loc))
        runner = _Runner(path, data)
        runner.run()
        return ScenarioResult(shown, str(data.get("scenario")), True)
    except DavitError as exc:
        sid = str(data.get("scenario")) if isinstance(locals().get("data"), dict) else path.stem
        errors = getattr(exc, "errors", [exc])
        return ScenarioResult(shown, sid, False, [str(e) for e in errors])
