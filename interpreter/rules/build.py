"""Build the immutable :class:`Ruleset` from merged, schema-checked YAML.

Every section is read here once and every DSL snippet compiled; defaults are
filled in so the engine never meets a missing part. All problems found are
collected and raised together, each at its ``file:line:col``.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ..dsl import ast
from ..dsl.compiler import Compiler, Env, FunctionInfo, Snippet, compute_suspending
from ..dsl.enumerators import enumerator
from ..dsl.expressions import bind_call_sites
from ..dsl.parser import parse
from ..dsl.primitives import BUILTIN_VALUES, PRIMITIVES
from ..dsl.snippet_memo import Recorder, context_fingerprint
from ..dsl.state_free import kept_if_fixed
from ..dsl.trigger_scan import Entry, settle_scan
from ..dsl.typecheck import TypeChecker, Vocabulary, element
from ..errors import DavitError, RulesetError, did_you_mean, raise_all
from ..load.limits import DEFAULT_MAX_DECISIONS, MAX_DECISIONS_CEILING, MAX_PLAYERS, MAX_STEPS_CEILING, MAX_THINGS
from ..load.yaml_reader import SCALAR_CLASSES, LocMap, LocStr, plain
from ..machine import fast_paths
from ..machine.vm import Code
from ..machine.waits import CHOOSE, PASS
from .board import Board
from .checks import check_ruleset
from .display import build_display
from .ending import build_ending, endless_loop_warnings
from .flow import FlowCompiler
from .heuristics import build_heuristics
from .layout import assigned_names, fixed_of, layout
from .metrics import build_metrics
from .model import ActionDef, Ruleset, Trigger, VarSpec, ZoneDef
from .table import instance_ids

if TYPE_CHECKING:
    from ..machine.host import GameHost

IDENT = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")
RESERVED = set(PRIMITIVES) | set(BUILTIN_VALUES) | {"player", "choose", "thing", "zone", "p"}


def _loc(container, key, default):
    if isinstance(container, (dict, list)) and hasattr(container, "loc_of"):
        return container.loc_of(key)
    return default


class Builder:
    def __init__(self, data: LocMap, variant: str | None = None):
        self.data = data
        self.variant = variant
        self.errors: list = []
        self.env = Env()
        self.compiler = Compiler(self.env)
        self.rs = Ruleset()
        self.root_loc = data.loc

    def error(self, message, loc, hint=None, code=None):
        self.errors.append(RulesetError(message, loc, hint, code=code))

    # -- entry --------------------------------------------------------------------

    def build(self) -> Ruleset:
        d, rs = self.data, self.rs
        rs.id = str(d.get("id", ""))
        rs.name = str(d.get("name", rs.id))
        rs.description = str(d.get("description", ""))
        rs.variant = self.variant
        players = d.get("players") or {}
        rs.min_players = int(players.get("min", 1))
        rs.max_players = int(players.get("max", rs.min_players))
        rs.player_names = [str(n) for n in players.get("names", [])]
        limits = d.get("limits") or {}
        # the schema refuses more; min() keeps the ceiling when the schema is not asked (a ruleset made in code)
        rs.max_steps = min(int(limits.get("max_steps", MAX_STEPS_CEILING)), MAX_STEPS_CEILING)
        rs.max_decisions = min(int(limits.get("max_decisions", DEFAULT_MAX_DECISIONS)), MAX_DECISIONS_CEILING)
        rs.draw_at_length_limit = limits.get("at_length_limit", "rank") == "draw"
        rs.data = d
        self._constants()
        self._variables()
        self._zones_and_board()
        self._things()
        self._props()
        _check_copies(rs)
        # the declared properties no rule sets, refused as targets; where each attribute name lives, for reads
        # written out (none when the fast paths are off)
        fixed = self.env.fixed_thing_props, self.env.fixed_zone_props = fixed_of(rs, assigned_names(d))
        self.env.layout = layout(rs, fixed) if fast_paths.on() else None
        self.env.thing_ids = {tid for t in rs.things for tid, _, _ in instance_ids(t, range(rs.max_players))}
        self.env.zone_ids = {f"{z}@{s}" if rs.zones[z].per_player else z for z in rs.zones
                             for s in (range(rs.max_players) if rs.zones[z].per_player else [0])}
        self._declare_functions()
        self.env.action_ids = {str(a.get("id")) for a in (d.get("actions") or []) if isinstance(a, dict)}
        self._flow_globals(d.get("flow") or [])
        self.compiler.checker = TypeChecker(Vocabulary(self.env, rs), self.env.errors)
        # a variant compiled in the context of its base reuses the base's snippets (see snippet_memo)
        self.compiler.memo = Recorder(context_fingerprint(self.env, self.compiler.checker.vocab))
        self._compile_functions()
        self._actions()
        self._card_effects()
        self._zone_admission()
        self._setup()
        self._flow()
        self._triggers()
        self._end_and_scoring()
        build_heuristics(self)
        build_metrics(self)
        rs.display = build_display(d.get("display"), rs, self.error, self.compiler)
        self._provenance(d)
        self.errors.extend(self.env.errors)
        if not self.errors:
            for finding in check_ruleset(rs, self.env, d):
                (self.errors if finding.severity == "error" else rs.warnings).append(finding)
        raise_all(self.errors)
        if self.compiler.memo is not None:
            self.compiler.memo.publish()
        self.compiler.memo = None
        rs.codes = dict(self.env.codes)
        rs.env = self.env  # kept to compile scenario snippets and to check types later
        rs.vocabulary = self.compiler.checker.vocab  # with the function types worked out: scenarios reuse them
        rs.functions = dict(self.env.functions)
        return rs

    # -- data sections --------------------------------------------------------------

    def _constants(self):
        consts: Any = self.data.get("constants") or {}   # YAML values: LocMap/LocList when given
        for name, value in consts.items():
            self._check_name(name, consts.key_loc(name), "constant")
            self.rs.constants[name] = plain(value)
            self.env.constants.add(name)

    def _variables(self):
        rs = self.rs
        variables: Any = self.data.get("variables") or {}
        for name, spec in variables.items():
            self._check_name(name, variables.key_loc(name), "variable")
            rs.globals[name] = plain(spec["initial"]) if isinstance(spec, dict) and "initial" in spec \
                else plain(spec) if not isinstance(spec, dict) else None
            self.env.globals.add(name)
        player = self.data.get("player") or {}
        pvars: Any = player.get("vars") or {}
        for name, spec in pvars.items():
            if not IDENT.match(str(name)):
                self.error(f"player variable name '{name}' must be a plain name (letters, digits, _)",
                           pvars.key_loc(name))
            if isinstance(spec, dict):
                rs.player_vars[name] = VarSpec(name, plain(spec.get("initial", 0)), spec.get("min"), spec.get("max"),
                                               str(spec.get("visibility", "everyone")),
                                               str(spec.get("description", "")))
            else:
                rs.player_vars[name] = VarSpec(name, plain(spec))
        rs.score_counter = str(player.get("score", "score"))
        if rs.score_counter not in rs.player_vars:
            rs.player_vars[rs.score_counter] = VarSpec(rs.score_counter, 0)
        self.env.player_attrs |= set(rs.player_vars)

    def _zone(self, spec, kind, loc) -> ZoneDef:
        zid = str(spec.get("id"))
        cap = spec.get("capacity")
        seats = spec.get("seats")
        if seats is not None and cap is None:
            cap = len(seats)
        return ZoneDef(
            id=zid, name=str(spec.get("name", zid.replace("_", " "))), per_player=bool(spec.get("per_player")),
            visibility=str(spec.get("visibility", "everyone")),
            # things are laid face up in open zones and face down in hidden ones unless the zone says otherwise
            face=str(spec.get("face", "up" if spec.get("visibility", "everyone") == "everyone" else "down")),
            capacity=int(cap) if cap is not None else None, seats=tuple(plain(seats)) if seats else None,
            admit=None, admit_reason=str(spec.get("admit_reason", "")), attrs=plain(spec.get("attrs") or {}),
            kind=kind, description=str(spec.get("description", "")), location=loc)

    def _zones_and_board(self):
        rs = self.rs
        zones = self.data.get("zones") or []
        seen: dict = {}
        rs.zones["box"] = ZoneDef("box", "box", visibility="nobody", face="down")
        for i, spec in enumerate(zones):
            loc = _loc(zones, i, self.root_loc)
            zid = str(spec.get("id"))
            if zid in seen or zid == "box":
                first = f" (first at line {seen[zid].line})" if zid in seen else " (a built-in zone)"
                self.error(f"zone id '{zid}' is used twice{first}", _loc(spec, "id", loc), code="duplicate-id")
                continue
            seen[zid] = _loc(spec, "id", loc)
            rs.zones[zid] = self._zone(spec, "zone", loc)
        board = self.data.get("board") or {}
        spaces = board.get("spaces") or []
        edges = board.get("edges") or []
        for i, spec in enumerate(spaces):
            loc = _loc(spaces, i, self.root_loc)
            zid = str(spec.get("id"))
            if zid in rs.zones:
                first = rs.zones[zid].location
                where = f" (first at line {first.line})" if first else ""
                self.error(f"space id '{zid}' is already used by another zone or space{where}", _loc(spec, "id", loc),
                           code="duplicate-id")
                continue
            zone = self._zone(spec, "space", loc)
            attrs = dict(zone.attrs)
            if "pos" in spec:
                attrs["pos"] = plain(spec["pos"])
            rs.zones[zid] = ZoneDef(**{**zone.__dict__, "attrs": attrs})
        space_ids = {str(s.get("id")) for s in spaces}
        good_edges = []
        for i, edge in enumerate(edges):
            loc = _loc(edges, i, self.root_loc)
            ok = True
            for end in ("from", "to"):
                if str(edge.get(end)) not in space_ids:
                    self.error(f"edge {end} '{edge.get(end)}' is not a space", _loc(edge, end, loc),
                               did_you_mean(str(edge.get(end)), space_ids), code="unknown-reference")
                    ok = False
            if ok:
                good_edges.append({"from": str(edge["from"]), "to": str(edge["to"]),
                                   "kind": str(edge.get("kind", "path")), "one_way": bool(edge.get("one_way"))})
        rs.board = Board([{"id": str(s.get("id")), **plain(s.get("attrs") or {})} for s in spaces], good_edges)
        for zid, zdef in rs.zones.items():
            if not zdef.per_player and IDENT.match(zid) and zid not in RESERVED:
                self.env.zones.add(zid)
            if zdef.per_player:
                self.env.player_attrs.add(zid)

    def _things(self):
        rs = self.rs
        things = self.data.get("things") or []
        seen: dict = {}
        for i, spec in enumerate(things):
            loc = _loc(things, i, self.root_loc)
            tid = str(spec.get("id"))
            if tid in seen:
                self.error(f"thing id '{tid}' is used twice (first at line {seen[tid].line})", _loc(spec, "id", loc),
                           code="duplicate-id")
                continue
            seen[tid] = _loc(spec, "id", loc)
            start = spec.get("start")
            if start is not None and str(start) not in rs.zones:
                self.error(f"start zone '{start}' does not exist", _loc(spec, "start", loc),
                           did_you_mean(str(start), rs.zones), code="unknown-reference")
                continue
            entry = plain(spec)
            entry["_loc"] = loc
            rs.things.append(entry)

    def _props(self):
        props = self.data.get("props") or {}
        self.rs.thing_props = plain(props.get("things") or {})
        self.rs.zone_props = plain(props.get("zones") or {})
        self.rs.zone_props.setdefault("removed", False)
        self.env.thing_props |= set(self.rs.thing_props)
        self.env.zone_props |= set(self.rs.zone_props)

    def _check_name(self, name, loc, what):
        if not IDENT.match(str(name)):
            self.error(f"{what} name '{name}' must be a plain name (letters, digits, _)", loc)
        elif name in RESERVED:
            self.error(f"{what} name '{name}' is a built-in name", loc)

    # -- DSL sections ------------------------------------------------------------------

    def _declare_functions(self):
        funcs: Any = self.data.get("functions") or {}
        for name, spec in funcs.items():
            loc = funcs.key_loc(name)
            self._check_name(name, loc, "function")
            params = tuple(str(p) for p in (spec.get("params") or []))
            body: tuple = ()
            text = spec.get("do")
            if text is None and spec.get("value") is not None:
                text = spec.get("value")
            try:
                if "do" in spec:
                    body = parse(text, "block")
                elif "value" in spec:
                    expr = parse(text, "expr")
                    body = (ast.Return(expr.pos, expr),)
            except DavitError as exc:
                self.errors.append(exc)
            self.env.functions[name] = FunctionInfo(name, params, f"fn:{name}", loc, body=body, source=text,
                                                    value="do" not in spec and "value" in spec)
        compute_suspending(self.env.functions, self.env.globals)

    def _compile_functions(self):
        funcs = self.data.get("functions") or {}
        for name, spec in funcs.items():
            info = self.env.functions[name]
            text = spec.get("do", spec.get("value"))
            if not info.body:
                continue
            snippet = Snippet(text, f"function {name}")
            code = self.compiler.code_from_ast(info.body, snippet, info.code_id, info.params)
            if code is not None:
                code.suspends = info.suspends
            if code is None or not fast_paths.on():
                continue   # called on the VM (function_caller), as a function that waits always is
            if "do" not in spec:
                # a `value:` function is one expression: call it as a closure, without a VM frame
                expr = info.body[0].value
                info.fast = kept_if_fixed(self.compiler._value_function(expr, snippet, info.params), name, self.env)
                info.value_location = snippet.loc(expr)
                bind_call_sites(info)
            elif not info.suspends:
                # never waits, so never resumed: one plain Python function instead of a VM frame per call
                info.fast = self.compiler.direct(info.body, snippet, info.params, self.rs.max_steps,
                                                 info.changes_game)
                bind_call_sites(info)

    def _template(self, text, what, local):
        """Compile a label with {expr} holes into fn(g, L) -> str."""
        text_s = str(text)
        parts: list = []   # texts and fn(g, L)
        pos = 0
        for m in re.finditer(r"\{([^{}]+)\}", text_s):
            parts.append(text_s[pos:m.start()])
            hole = m.group(1)
            if isinstance(text, LocStr) and "\n" not in text_s[:m.start(1)]:
                hole_text: str = LocStr(hole, text.loc, None, text.content_line, text.content_col + m.start(1),
                                   text.indent)
            else:
                hole_text = hole
            fn = self.compiler.expression(hole_text, what, local)
            parts.append(fn if fn is not None else (lambda g, L: "?"))
            pos = m.end()
        parts.append(text_s[pos:])
        from ..machine.values import display

        def render(g: GameHost, L):
            return "".join(p if isinstance(p, str) else display(p(g, L)) for p in parts)
        return render

    def _actions(self):
        actions = self.data.get("actions") or []
        for i, spec in enumerate(actions):
            loc = _loc(actions, i, self.root_loc)
            aid = str(spec.get("id"))
            if aid in self.rs.actions:
                first = self.rs.actions[aid].location
                self.error(f"action id '{aid}' is used twice (first at line {first.line})", _loc(spec, "id", loc),
                           code="duplicate-id")
                continue
            if aid in (PASS, CHOOSE):
                self.error(f"'{aid}' is a built-in action name", loc)
                continue
            local = {"player": "player"}
            params = []
            param_types = []
            independent = set()
            chooses = spec.get("choose") or {}
            for pname, domain in chooses.items():
                fn = self.compiler.expression(domain, f"action {aid} choice {pname}", local)
                params.append((str(pname), fn if fn is not None else (lambda g, L: [])))
                if fn is not None and not _names_read(domain) & {name for name, _ in params[:-1]}:
                    independent.add(len(params) - 1)
                param_types.append(element(self.compiler.infer(domain, "choice", local)))
                local = {**local, str(pname): param_types[-1]}
            cond, reasons = None, []
            if isinstance(spec.get("if"), list):
                # several conditions, each refused with its own reason
                for item in spec["if"]:
                    fn = self.compiler.expression(item["when"], f"action {aid} condition", local)
                    reasons.append((fn or (lambda g, L: True), str(item.get("reason", ""))))
            elif spec.get("if"):
                cond = self.compiler.expression(spec["if"], f"action {aid} condition", local)
            costs: list = []   # (counter, fn(g, L) -> amount)
            for counter, amount in (spec.get("cost") or {}).items():
                if counter not in self.rs.player_vars:
                    self.error(f"cost counter '{counter}' is not a player counter", spec["cost"].key_loc(counter),
                               did_you_mean(str(counter), self.rs.player_vars), code="unknown-reference")
                    continue
                if isinstance(amount, (int, float)):
                    costs.append((str(counter), lambda g, L, a=amount: a))
                else:
                    fn = self.compiler.expression(amount, f"action {aid} cost", {**local, **{
                        str(k): "any" for k in chooses}})
                    costs.append((str(counter), fn or (lambda g, L: 0)))
            code_id = None
            if spec.get("do"):
                code = self.compiler.block(spec["do"], f"action:{aid}", f"action {aid}", (), local)
                code_id = code.id if code else None
            label = spec.get("label")
            label_fn = self._template(label, f"action {aid} label", local) if label and "{" in str(label) else None
            if reasons:
                cond = _all_of([fn for fn, _ in reasons])
            adef = self.rs.actions[aid] = ActionDef(aid, str(label or aid), params, cond, str(spec.get("reason", "")),
                                             costs, code_id, label_fn, loc, str(spec.get("description", "")),
                                             reasons, frozenset(independent), tuple(param_types))
            adef.enumerator = enumerator(self.compiler, spec, adef)

    def _card_effects(self):
        """A thing's `effect` runs when a rule calls resolve(card, player)."""
        for spec in self.data.get("things") or []:
            if spec.get("effect"):
                tid = str(spec.get("id"))
                self.compiler.block(spec["effect"], f"effect:{tid}", f"effect of {tid}", (),
                                    {"card": "thing", "player": "player"})

    def _zone_admission(self):
        rs = self.rs
        sources = list(self.data.get("zones") or []) + list((self.data.get("board") or {}).get("spaces") or [])
        for spec in sources:
            if spec.get("admit"):
                zid = str(spec.get("id"))
                fn = self.compiler.expression(spec["admit"], f"zone {zid} admit", {"thing": "thing", "zone": "zone"})
                if zid in rs.zones and fn is not None:
                    rs.zones[zid] = ZoneDef(**{**rs.zones[zid].__dict__, "admit": fn})

    def _setup(self):
        if self.data.get("setup"):
            code = self.compiler.block(self.data["setup"], "setup", "setup")
            self.rs.setup_code = "setup" if code else None

    def _flow_globals(self, nodes):
        todo = list(nodes) if isinstance(nodes, list) else []
        while todo:
            node = todo.pop()
            if not isinstance(node, dict):
                continue
            for key in ("as", "each_player", "for"):
                if key in node and isinstance(node[key], str) and (key != "each_player" or "as" not in node):
                    name = node[key]
                    if IDENT.match(name) and name not in self.env.globals:
                        self.env.globals.add(name)
                        self.rs.globals.setdefault(name, None)
            for key in ("steps", "then", "else"):
                if isinstance(node.get(key), list):
                    todo.extend(node[key])

    def _flow(self):
        nodes = self.data.get("flow") or []
        flow = FlowCompiler(self.compiler, self.env, self.rs)
        instrs = flow.compile(nodes)
        self.endless = flow.endless
        self.env.codes["flow"] = Code("flow", instrs, (), self.data.loc_of("flow") if "flow" in self.data else None)

    def _triggers(self):
        triggers = self.data.get("triggers") or []
        self.scanned: list[Entry] = []   # what the generated scan of the triggers needs (dsl/trigger_scan.py)
        for i, spec in enumerate(triggers):
            loc = _loc(triggers, i, self.root_loc)
            tid = str(spec.get("id", f"trigger{i + 1}"))
            var, source, item_type = None, None, None
            local: Collection[str] = set()
            if spec.get("for"):
                m = re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", str(spec["for"]), re.S)
                if not m:
                    self.error("`for` must read `name in collection`", _loc(spec, "for", loc))
                    continue
                var = m.group(1)
                src_text = spec["for"]
                offset = m.start(2)
                if isinstance(src_text, LocStr):
                    src_text = LocStr(m.group(2), src_text.loc, None, src_text.content_line,
                                      src_text.content_col + offset, src_text.indent)
                else:
                    src_text = m.group(2)
                source = self.compiler.expression(src_text, f"trigger {tid} for")
                item_type = element(self.compiler.infer(src_text, "trigger for"))
                local = {var: item_type}
            when_text = spec.get("when", "true")
            when = self.compiler.expression(when_text, f"trigger {tid} when", local)
            code = self.compiler.block(spec.get("do", "pass"), f"trigger:{tid}", f"trigger {tid}", (), local)
            if when is not None and code is not None and (source is not None or var is None):
                self.rs.triggers.append(Trigger(tid, when, code.id, var, source, loc))
                self.scanned.append(Entry(self.rs.triggers[-1], when_text, src_text if var else None, item_type))

    def _end_and_scoring(self):
        build_ending(self)
        self.rs.warnings.extend(endless_loop_warnings(self.rs, self.endless, self.data))
        end = (self.data.get("end") or {}).get("when") if self.rs.end_when is not None else None
        self.rs.settle_scan = settle_scan(self.compiler, self.scanned, end)   # the triggers, then the end

    def _provenance(self, data):
        todo = [data]
        while todo:
            node = todo.pop()
            if isinstance(node, dict):
                if "reconstructed" in node:
                    loc = node.loc_of("reconstructed") if isinstance(node, LocMap) else None
                    reason = " ".join(str(node["reconstructed"]).split())  # folded YAML text: one line
                    self.rs.provenance.append((loc, reason, node.get("id")))
                todo.extend([v for v in node.values() if v.__class__ not in SCALAR_CLASSES])
            elif isinstance(node, list):
                todo.extend([v for v in node if v.__class__ not in SCALAR_CLASSES])
        self.rs.provenance.sort(key=lambda p: (p[0].file, p[0].line) if p[0] else ("", 0))


def _all_of(conditions):
    def every(g: GameHost, L):
        return all(c(g, L) for c in conditions)
    return every


def build_ruleset(data: LocMap, variant: str | None = None) -> Ruleset:
    return Builder(data, variant).build()


def _check_copies(rs) -> None:
    """Refuse a ruleset that would make more things than davit holds, before making any."""
    if rs.max_players > MAX_PLAYERS:
        raise RulesetError(f"at most {MAX_PLAYERS} players are supported, not {rs.max_players}")
    total = 0
    for tdef in rs.things:
        copies = max(0, int(tdef.get("count", 1)))
        for values in (tdef.get("each") or {}).values():
            copies *= len(values) if isinstance(values, list) else 1
        if tdef.get("per_player"):
            copies *= rs.max_players
        total += copies
        if total > MAX_THINGS:
            raise RulesetError(f"thing '{tdef['id']}' brings the copies made to {total}, more than the "
                               f"{MAX_THINGS} davit holds (count × each × players)", tdef.get("_loc"))


def _names_read(text) -> set:
    """Every bare name in expression ``text`` (already parsed, so the parse is cached)."""
    return {n.id for n in ast.walk(parse(str(text), "expr")) if isinstance(n, ast.Name)}
