"""Scenario files: rule tests that designers write as data, run by ``davit test``.

A scenario names a ruleset (and variant), players, a seed, pinned chance
outcomes and starting-state overrides, then steps: scripted decisions that
must be legal (``act``), ones that must be refused (``refuse``), DSL
expectations (``expect``), agent play until a condition holds (``run``) and
state changes (``set``). See ``docs/scenarios.md``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import FirstAgent, RandomAgent
from ..errors import DavitError, Location, ScenarioError, did_you_mean, raise_all
from ..load.files import (
    RULESET_FILE,
    bundled_ids,
    bundled_rulesets_dir,
    display_path,
    is_inside,
    own_file,
    resolve_ruleset,
    variants_of,
)
from ..load.schema_check import schema_errors
from ..load.yaml_reader import LocMap, load_yaml_file, plain
from ..play.decisions import UNKNOWN
from ..play.game import Game
from ..rules.loading import load_ruleset
from .expect_report import explain_failure, show_value
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
        if path.exists() and not path.is_dir():
            found.append(path)   # named by the user: it may lie anywhere (reading it refuses a FIFO or a device)
        elif path.is_dir():
            found.extend(_in_scenario_folders(path))
        else:
            bundled = bundled_rulesets_dir() / str(raw)
            if bundled.is_dir():
                found.extend(_in_scenario_folders(bundled))
            else:
                raise ScenarioError(f"no such file, folder or bundled ruleset: {raw}")
    return found


def _in_scenario_folders(folder: Path) -> list[Path]:
    """The ``scenarios/*.yaml`` files under ``folder``; one that is a link out of its ruleset's folder (the
    scenarios folder's parent) is refused."""
    found = [p for p in sorted(folder.rglob("*.yaml")) if p.parent.name == "scenarios"]
    for p in found:
        own_scenario(p)
    return found


def own_scenario(path: Path) -> Path:
    """A scenario found in a ``scenarios/`` folder, if it (a link resolved) lies inside that folder's parent."""
    try:
        return own_file(path, path.parent.parent, "scenario")
    except DavitError as exc:
        raise ScenarioError(exc.message, exc.location) from None


def select_scenarios(files, variants=None, keyword=None) -> list[Path]:
    """The files whose scenario plays one of ``variants`` ('none': the plain ruleset) and whose id or
    file name contains ``keyword``."""
    if not variants and not keyword:
        return list(files)
    wanted = {v for item in variants or [] for v in str(item).split(",")}
    out = []
    for path in files:
        try:
            data = load_yaml_file(path)
        except DavitError:
            data = {}
        data = data if isinstance(data, dict) else {}
        if wanted:
            played = str(data["variant"]) if data.get("variant") else "none"
            if played not in wanted and not (set(played.split("+")) & wanted):
                continue
        if keyword and keyword not in path.name and keyword not in str(data.get("scenario", "")):
            continue
        out.append(path)
    return out


def _default_ruleset(path: Path) -> Path:
    for folder in [path.parent, *path.parents]:
        if os.path.lexists(folder / RULESET_FILE):
            return folder
    raise ScenarioError("scenario names no `ruleset` and no ruleset.yaml is above it",
                        Location(display_path(path)))


def _homes(path: Path) -> list[Path]:
    """The folders a scenario may name files in: its own, and that of the ruleset above it (if any)."""
    homes = [path.resolve().parent]
    for folder in [path.parent, *path.parents]:
        if os.path.lexists(folder / RULESET_FILE):
            homes.append(folder.resolve())
            break
    return homes


def _named_ruleset(path: Path, ref: str, where: Location):
    """A scenario's ``ruleset:``: a bundled id, or a path inside the scenario's folder or its ruleset's folder
    (a bundled ruleset's folder, named by its path, is as good as its id). Nothing else on disk is read."""
    local = path.parent / ref
    if local.exists() and any(is_inside(local, home) for home in _homes(path)):
        return local
    bundled = bundled_rulesets_dir()
    if ref in bundled_ids():
        return bundled / ref   # the id, never a folder of that name in the working folder
    if local.exists() and is_inside(local, bundled) and local.resolve() != bundled.resolve():
        return local
    if local.exists():
        raise ScenarioError(f"the ruleset '{ref}' of this scenario must be a bundled ruleset id or lie inside the "
                            "scenario's folder or its ruleset's folder", where)
    raise ScenarioError(f"no ruleset '{ref}' (not a path beside the scenario; bundled rulesets: "
                        f"{', '.join(bundled_ids()) or 'none'})", where)


def _named_variants(path: Path, ruleset_ref, data: LocMap):
    """A scenario's ``variant:`` as load_ruleset takes it: ids of the ruleset's variants, or files inside
    the scenario's folder or its ruleset's folder (confined as its ``ruleset:`` is)."""
    from ..rules.loading import variant_names
    variant = data.get("variant")
    if variant is None:
        return None
    ruleset_file, _ = resolve_ruleset(str(ruleset_ref))
    known = variants_of(ruleset_file)
    out = []
    try:
        names = variant_names(variant)
    except DavitError as exc:
        raise ScenarioError(exc.message, data.loc_of("variant")) from None
    for name in names:
        if name in known:
            out.append(name)
            continue
        local = path.parent / name
        if local.is_file() and any(is_inside(local, home) for home in _homes(path)):
            out.append(str(local))
        elif local.exists() or Path(name).exists():
            raise ScenarioError(f"the variant '{name}' of this scenario must be a variant of its ruleset or a file "
                                "inside the scenario's folder or its ruleset's folder", data.loc_of("variant"))
        else:   # said here, at the scenario's line (load_ruleset's own error names no place)
            raise ScenarioError(f"ruleset '{ruleset_file.parent.name}' has no variant '{name}' "
                                f"(variants: {', '.join(known) or 'none'})", data.loc_of("variant"))
    return out


class _Runner:
    def __init__(self, path: Path, data: LocMap):
        self.path = path
        self.data = data
        ref = data.get("ruleset")
        if ref is None:
            ruleset_ref = _default_ruleset(path)
        else:
            ruleset_ref = _named_ruleset(path, str(ref), data.loc_of("ruleset"))
        self.ruleset = load_ruleset(ruleset_ref, _named_variants(path, ruleset_ref, data))
        players = data.get("players")
        rs = self.ruleset
        if type(players) is not int or not rs.min_players <= players <= rs.max_players:
            # 9 failed only in play with no place named; 2.0 was taken as 2 (the schema's integer allows it)
            raise ScenarioError(f"players: {rs.id} is for {rs.min_players}–{rs.max_players} players, not "
                                f"{plain(players)!r}", data.loc_of("players") if "players" in data else data.loc)
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
        problems = list(self.env.errors)
        if not steps and d.get("expect") is None:
            problems.append(ScenarioError("the scenario has no steps and no expect: it tests nothing", d.loc,
                                          "add an `expect:` or steps", code="empty-scenario"))
        for i, step in enumerate(steps):
            if isinstance(step, dict) and "refuse" in step:
                where = step.loc_of("refuse")  # type: ignore[attr-defined]  # a mapping of the tree: a LocMap
                problems.extend(self._check_refusal(step["refuse"], where, i + 1))
            elif isinstance(step, dict) and isinstance(step.get("act"), dict):
                try:
                    self._seat(int(self.data.get("players", 0)), step["act"], i + 1)
                except ScenarioError as exc:
                    exc.code = "no-such-seat"
                    problems.append(exc)
                try:
                    self._pass_takes_nothing(step["act"], i + 1)
                except ScenarioError as exc:
                    exc.code = "pass-args"
                    problems.append(exc)
        return problems

    def _check_refusal(self, spec, loc, number) -> list:
        """The static part of a refuse step's checks (``davit validate``), as errors and warnings."""
        try:
            self._refusable(int(self.data.get("players", 0)), spec, loc, number)
            self._real_values(int(self.data.get("players", 0)), spec, number)
        except ScenarioError as exc:
            exc.code = "refuse-nothing"
            return [exc]
        if not spec.get("reason"):
            return [ScenarioError(f"step {number}: this refusal gives no `reason`, so it passes whatever the "
                                  "game refuses it for", loc, "add `reason:` with words of the expected refusal",
                                  code="refuse-without-reason", severity="warning")]
        return []

    def _compile_conditions(self, conds):
        for text in conds if isinstance(conds, list) else [conds]:
            if not isinstance(text, str):
                continue
            self.compiler.expression(text, "expectation")  # the type check says if it is not true/false

    def fail(self, message, loc, hint=None):
        raise ScenarioError(message, loc, hint)

    def compile_block(self, text, what):
        return self.snippets.block(text, what)

    def compile_expr(self, text, what):
        return self.snippets.expression(text, what)

    def run_block(self, game, code):
        self.snippets.run(game, code)

    def action(self, game, spec, loc, number=0):
        if not isinstance(spec, dict) or "player" not in spec or "action" not in spec:
            self.fail("an act/refuse step needs `player` and `action`", loc)
        args = []
        given = spec.get("args") or {}
        for name, value in given.items():
            where = given.loc_of(name) if isinstance(given, LocMap) else loc
            args.append([name, self.value(game, plain(value), where, number)])
        return game.action_from_json({"player": spec["player"], "action": spec["action"], "args": {}}), args

    def value(self, game, value, loc=None, number=0):
        table = game.table
        if isinstance(value, str):
            if value in table.things:
                return table.things[value]
            if value in table.zones:
                return table.zones[value]
        if isinstance(value, dict) and "player" in value:
            seat = value["player"]
            if type(seat) is not int or not 0 <= seat < len(table.players):
                self.fail(f"step {number}: {{player: {show_value(game, seat)}}} names no player: "
                          f"there is no such seat in a {len(table.players)}-player game "
                          f"(seats are 0 to {len(table.players) - 1})", loc)
            return table.players[seat]
        if isinstance(value, list):
            return [self.value(game, v, loc, number) for v in value]
        return value

    def run(self) -> list:
        """Play the scenario; returns the failed expectations (other failures raise at once)."""
        d = self.data
        self.failures: list = []
        pins = plain(d.get("pins") or {})
        game = Game(self.ruleset, int(d["players"]), int(d.get("seed", 0)), pins=pins)
        if d.get("setup"):
            self.run_block(game, self.compile_block(d["setup"], "scenario setup"))
            game.resettle()
        steps: Any = d.get("steps") or []   # a LocList when given
        for i, step in enumerate(steps):
            loc = steps.loc_of(i)
            self.step(game, step, loc, i + 1)
        final = d.get("expect")
        if final is not None:
            self.expect(game, final, d.loc_of("expect"), None)
        self._unused_pins(game)
        return self.failures

    def _unused_pins(self, game):
        pins = self.data.get("pins") or {}
        for name, left in game.state.pins.items():
            if left:
                given = len(pins.get(name) or [])
                used = given - len(left)
                self.failures.append(ScenarioError(
                    f"pin '{name}' was {'never used' if not used else f'used {used} of {given} times'}: "
                    "a pin that is not drawn tests nothing", pins.key_loc(name) if isinstance(pins, LocMap) else None,
                    _draw_names_hint(game), code="unused-pin"))

    def step(self, game, step, loc, number):
        from ..play.decisions import Action
        if "act" in step or "refuse" in step:
            key = "act" if "act" in step else "refuse"
            spec = step[key]
            self._seat(len(game.table.players), spec, number)   # first: 0.0 was an internal error in action()
            self._pass_takes_nothing(spec, number)
            base, args = self.action(game, spec, step.loc_of(key), number)
            action = Action(base.player, base.name, tuple((k, v) for k, v in args))
            if key == "refuse":
                self._refusable(len(game.table.players), spec, step.loc_of(key), number)
            result = game.apply(action)
            if key == "act" and not result:
                legal = "; ".join(str(a) for a in game.legal_actions(base.player)[:8]) or "none"
                why = _unknown_words(result.unknown) + "; " if result.kind == UNKNOWN else ""
                self.fail(f"step {number}: {base.name} by {game.player_name(base.player)} was refused: "
                          f"{result.reason} ({why}legal now: {legal})", loc)
            if key == "refuse":
                if result:
                    self.fail(f"step {number}: {base.name} by {game.player_name(base.player)} was accepted "
                              "but should have been refused", loc)
                if result.kind == UNKNOWN:
                    self._names_nothing(spec, result.unknown, loc, number)
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
            if not cond(game, {}):
                self.fail(f"step {number}: the game ended (after {made} decisions) before `{step['run']}` held; "
                          "the steps after it would test a finished game", step.loc_of("run"))
            return
        self.fail(f"step {number}: unknown step (use act, refuse, expect, run or set)", loc)

    def _real_values(self, players: int, spec, number):
        """Without playing: an argument that is no thing or zone id but close to one (a misspelt id) would be
        refused for naming nothing. (Playing finds the rest: only the game knows what is offered.)"""
        args = spec.get("args")
        try:
            table = self.ruleset.table(players)
        except Exception:   # a player count the ruleset refuses is reported where the game is made
            return
        if not isinstance(args, LocMap):
            return
        names = [*table.things, *table.zones]
        for arg, value in args.items():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item not in table.things and item not in table.zones:
                    close = did_you_mean(item, names)
                    if close:
                        self.fail(f"step {number}: '{item}' names no thing, zone or space ({close}), so the "
                                  "refusal tests nothing", args.loc_of(arg))

    def _names_nothing(self, spec, unknown, loc, number):
        """A refusal the game gave only because the step names something that does not exist."""
        args = spec.get("args") or {}
        where = spec.loc_of("action") if unknown.what == "action" else spec.loc_of("player") \
            if unknown.what == "seat" else loc
        if isinstance(args, LocMap):
            for arg, value in args.items():
                if unknown.what == "choice" and arg == unknown.name:
                    where = args.key_loc(arg)
                elif any(str(v) == unknown.name for v in (value if isinstance(value, list) else [value])):
                    where = args.loc_of(arg)
        self.fail(f"step {number}: refused only because {_unknown_words(unknown)} — the step tests nothing", where)

    def _seat(self, players: int, spec, number):
        """The seat an act or refuse step names must be one of the game's: a step by no seat tests nothing."""
        seat = spec.get("player")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            self.fail(f"step {number}: there is no seat {seat!r} in a {players}-player game "
                      f"(seats are 0 to {players - 1})", spec.loc_of("player"))

    def _pass_takes_nothing(self, spec, number):
        """`pass` has no choices: its args were dropped, so `act: {action: pass, args: {x: 1}}` passed (and the
        same refusal was accepted), the step testing less than it says."""
        args = spec.get("args")
        if spec.get("action") == "pass" and args:
            self.fail(f"step {number}: pass takes no args", spec.loc_of("args"), "leave `args` out")

    def _refusable(self, players: int, spec, loc, number):
        """A refusal must be refused for a rule's reason, not because the step names nothing real."""
        self._seat(players, spec, number)
        self._pass_takes_nothing(spec, number)
        name = str(spec.get("action"))
        known = {"pass", "choose", *self.ruleset.actions}
        if name not in known:
            self.fail(f"step {number}: the ruleset has no action '{name}', so the refusal tests nothing",
                      spec.loc_of("action"), did_you_mean(name, known))
        if name in self.ruleset.actions:
            params = [p for p, _ in self.ruleset.actions[name].params]
            args = spec.get("args") or {}
            for arg in args:
                if arg not in params:
                    self.fail(f"step {number}: action '{name}' has no choice '{arg}' "
                              f"(its choices: {', '.join(params) or 'none'})",
                              args.key_loc(arg) if isinstance(args, LocMap) else loc, did_you_mean(arg, params))
        if name == "choose" and set(spec.get("args") or {}) - {"option"}:
            self.fail(f"step {number}: a choose decision takes only `option`", loc)

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
            if not isinstance(ok, bool):
                self.fail(f"expectation '{text}' gave {show_value(game, ok)}, not true or false: "
                          "write a condition (e.g. `x == 3`)", where)
            if not ok:
                parts = explain_failure(text, lambda t: show_value(game, self.compile_expr(t, "part")(game, {})))
                scores = ", ".join(f"{game.player_name(s)} {v}" for s, v in game.scores.items())
                extra = f" — {message}" if message else ""
                self.failures.append(ScenarioError(
                    f"expectation failed: {text}{extra} ({parts + '; ' if parts else ''}scores: {scores}; phase: "
                    f"{' > '.join(game.state.phase) or 'none'})", where))


def _unknown_words(unknown) -> str:
    """'davvit' names no space (did you mean 'davit'?)"""
    close = did_you_mean(unknown.name, unknown.known)
    what = {"seat": "seat of this game", "choice": "choice of the action", "option": "offered option"}.get(
        unknown.what, unknown.what)
    return f"'{unknown.name}' names no {what}" + (f" ({close})" if close else "")


def _draw_names_hint(game) -> str | None:
    names = sorted({str(e.get("name")) for e in game.log if e.get("e") in ("shuffle", "random") and e.get("name")})
    return f"draws in this game: {', '.join(names)}" if names else "this game made no named draw"


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
        if not data.get("steps") and data.get("expect") is None:
            raise ScenarioError("the scenario has no steps and no expect: it tests nothing", data.loc)
        runner = _Runner(path, data)
        failures = runner.run()
        if failures:
            return ScenarioResult(shown, str(data.get("scenario")), False, [str(e) for e in failures])
        return ScenarioResult(shown, str(data.get("scenario")), True)
    except DavitError as exc:
        sid = str(data.get("scenario")) if isinstance(locals().get("data"), dict) else path.stem
        errors = getattr(exc, "errors", [exc])
        return ScenarioResult(shown, sid, False, [str(e) for e in errors])
