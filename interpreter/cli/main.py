"""The ``davit`` command: list, validate, play, simulate, compare, test.

Every user mistake ends in one readable line (or ``file:line:col`` lines) and
a non-zero exit; a Python traceback is shown only with ``DAVIT_DEBUG=1``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..errors import DavitError
from .analyse import add_parsers, cmd_compare, cmd_simulate
from .players import players_for

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(EXIT_USAGE, f"davit: error: {message} (see `{self.prog} --help`)\n")


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="davit", description="Play, check and simulate tabletop games written as YAML rules.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="bundled rulesets and their variants")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("copy", help="copy a ruleset into a new folder to make your own game from it")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("dest", metavar="FOLDER")

    p = sub.add_parser("validate", help="check ruleset, variant and scenario files")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--strict", action="store_true", help="warnings fail too")
    p.add_argument("--provenance", action="store_true", help="list values marked as reconstructed")

    p = sub.add_parser("play", help="play one game (bots, or a human at the terminal)")
    p.add_argument("ruleset", metavar="RULESET", help="a bundled ruleset id or a path")
    p.add_argument("--players", type=_positive)
    p.add_argument("--seed", type=_int, default=0)
    p.add_argument("--agents", default="random", help="comma-separated: random, first, greedy, human "
                                                      "(the last one repeats)")
    p.add_argument("--variant")
    p.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--quiet", action="store_true", help="print only the result")

    add_parsers(sub, _positive, _int)

    p = sub.add_parser("draw", help="draw the board graph (DOT on stdout, or -o FILE.svg/.dot/.png)")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--variant")
    p.add_argument("-o", "--output", metavar="FILE")

    p = sub.add_parser("explain", help="the rules as Markdown for people")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--variant")

    p = sub.add_parser("diff", help="what differs between two rulesets, or a ruleset and its variant")
    p.add_argument("a", metavar="A", help="a ruleset id or path (or a variant file)")
    p.add_argument("b", metavar="B", nargs="?", help="another ruleset or variant file (default: A itself)")
    p.add_argument("--variant", help="compare A with A plus this variant")
    p.add_argument("--notes", action="store_true", help="also show changed descriptions and sources")

    p = sub.add_parser("test", help="run scenario files (rule tests)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors and --help: a code, not an exception, for callers of main()
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except DavitError as exc:
        text = str(exc)
        if exc.location is None and not text.startswith("davit:"):
            text = f"davit: {text}"
        print(text, file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("\ndavit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_FAIL
    except OSError as exc:   # a file davit was asked to read or write (copy, --log): one line, never "internal error"
        where = f" '{exc.filename}'" if exc.filename else ""
        print(f"davit: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    except Exception as exc:  # never a traceback for users; DAVIT_DEBUG shows it
        if os.environ.get("DAVIT_DEBUG"):
            raise
        print(f"davit: internal error: {type(exc).__name__}: {exc} (set DAVIT_DEBUG=1 for details)",
              file=sys.stderr)
        return EXIT_USAGE


def cmd_list(args) -> int:
    from ..load.files import bundled_ids, bundled_rulesets_dir, variants_of
    from ..rules.loading import load_ruleset
    rows = []
    for rid in bundled_ids():
        rs = load_ruleset(rid)
        variants = []
        for vid in variants_of(bundled_rulesets_dir() / rid / "ruleset.yaml"):
            v = load_ruleset(rid, vid)
            variants.append({"id": vid, "players": [v.min_players, v.max_players]})
        rows.append({"id": rid, "name": rs.name, "players": [rs.min_players, rs.max_players], "variants": variants})
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    for row in rows:
        low, high = row["players"]
        print(f"{row['id']:<22} {row['name']} ({low}–{high} players)")
        for v in row["variants"]:
            vl, vh = v["players"]
            print(f"{'':<22}   variant {v['id']} ({vl}–{vh} players)")
    return EXIT_OK


def cmd_copy(args) -> int:
    import shutil

    from ..load.files import resolve_ruleset
    from ..load.yaml_reader import load_yaml_file
    source, _ = resolve_ruleset(args.ruleset)
    folder = source.parent
    dest = Path(args.dest)
    if dest.exists():
        raise DavitError(f"davit: '{dest}' already exists; choose a new folder")
    if not dest.parent.is_dir() and str(dest.parent):
        raise DavitError(f"davit: folder '{dest.parent}' does not exist")
    shutil.copytree(folder, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "__init__.py"))
    schemas = os.path.relpath(_schemas_dir(), dest)
    for path in dest.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if first.startswith("# yaml-language-server: $schema="):
            kind = first.rsplit("/", 1)[-1]
            depth = len(path.relative_to(dest).parts) - 1
            prefix = "/".join([".."] * depth + [schemas]) if depth else schemas
            path.write_text(f"# yaml-language-server: $schema={prefix}/{kind}\n{rest}", encoding="utf-8")
    data = load_yaml_file(dest / "ruleset.yaml")
    new_id = dest.name
    text = (dest / "ruleset.yaml").read_text(encoding="utf-8")
    line = data.key_loc("id").line
    lines = text.splitlines(keepends=True)
    lines[line - 1] = f"id: {new_id}\n"
    (dest / "ruleset.yaml").write_text("".join(lines), encoding="utf-8")
    print(f"copied {data.get('id')} to {dest} (id: {new_id}); try: davit validate {dest}")
    return EXIT_OK


def _schemas_dir():
    from ..load.files import schemas_dir
    return schemas_dir()


def cmd_validate(args) -> int:
    from ..authoring.validate import validate_paths
    findings = validate_paths(args.paths, provenance=args.provenance)
    errors = [f for f in findings if f.severity == "error"]
    if args.format == "json":
        print(json.dumps([f.to_json() for f in findings], indent=2))
    else:
        for f in findings:
            print(f.text())
        if not findings:
            print("ok: no problems found")
    failed = bool(errors) or (args.strict and bool(findings))
    return EXIT_FAIL if failed else EXIT_OK


def cmd_play(args) -> int:
    from ..agents import HumanAgent, make_agents
    from ..observe.narrate import event_text
    from ..play.game import Game
    from ..play.visibility import redact
    from ..rules.loading import load_ruleset
    rs = load_ruleset(args.ruleset, args.variant)
    players = players_for(rs, args.players)
    try:
        agents = make_agents(args.agents, players, args.seed)
    except ValueError as exc:
        raise DavitError(f"davit: {exc}") from None
    if args.log:
        _check_writable(args.log)
    humans = any(isinstance(a, HumanAgent) for a in agents)
    narrate = not (args.json or args.quiet or humans)
    game = Game(rs, players, seed=args.seed)
    shown = 0
    try:
        while not game.is_over:
            if narrate:
                for e in game.log[shown:]:
                    text = event_text(game, redact(e, None))
                    if text:
                        print(text)
                shown = len(game.log)
            seat = game.deciding_players[0]
            actions = game.legal_actions(seat)
            result = game.apply(agents[seat].choose(game, seat, actions))
            if not result:
                raise DavitError(f"davit: an agent chose an illegal action: {result.reason}")
    except (KeyboardInterrupt, EOFError):
        print("\ndavit: game abandoned", file=sys.stderr)
        return 130
    if args.log:
        from ..load.files import write_atomically
        write_atomically(args.log, "".join(json.dumps(e, sort_keys=True) + "\n" for e in game.log).encode())
    if args.json:
        print(json.dumps({"ruleset": rs.id, "variant": rs.variant, "seed": args.seed, "players": players,
                          "agents": [a.name for a in agents], "scores": [game.scores[s] for s in range(players)],
                          "winners": game.winners, "names": list(game.table.player_names)}))
        return EXIT_OK
    if narrate:
        for e in game.log[shown:]:
            text = event_text(game, redact(e, None))
            if text:
                print(text)
    else:
        print(event_text(game, game.log[-1]))
    return EXIT_OK


def _check_writable(path: str) -> None:
    """Refuse an output file that cannot be written, before the game starts (not after it)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise DavitError(f"davit: cannot write the log: '{path}' is a folder")
    if not folder.is_dir():
        raise DavitError(f"davit: cannot write the log: folder '{folder}' does not exist")
    existed = target.exists()
    try:   # the only sure test, whoever runs davit: open it for writing, and leave no empty file behind
        with open(target, "ab"):
            pass
    except OSError as exc:
        raise DavitError(f"davit: cannot write the log '{path}': {exc.strerror or exc}") from None
    if not existed:
        target.unlink()


def cmd_test(args) -> int:
    from ..authoring.scenario import find_scenarios, run_scenario
    files = find_scenarios(args.paths)
    passed = failed = 0
    for path in files:
        result = run_scenario(path)
        if result.ok:
            passed += 1
            if not args.quiet:
                print(f"PASS {result.path} ({result.id})")
        else:
            failed += 1
            print(f"FAIL {result.path} ({result.id})")
            for message in result.messages:
                print(f"  {message}")
    print(f"{passed} passed, {failed} failed")
    if not files:
        print("davit: no scenario files found", file=sys.stderr)
    return EXIT_OK if failed == 0 and files else EXIT_FAIL


def cmd_draw(args) -> int:
    from ..authoring.draw import draw_main
    from ..rules.loading import load_ruleset
    text = draw_main(load_ruleset(args.ruleset, args.variant), args.output)
    if text is not None:
        print(text, end="" if text.endswith("\n") else "\n")
    return EXIT_OK


def cmd_explain(args) -> int:
    from ..authoring.explain import explain
    from ..rules.loading import load_ruleset
    print(explain(load_ruleset(args.ruleset, args.variant)))
    return EXIT_OK


def cmd_diff(args) -> int:
    from ..authoring.diff import diff, format_diff
    from ..rules.loading import load_ruleset
    if args.b is None and args.variant is None:
        raise DavitError("davit: diff needs a second ruleset B or --variant V")
    a = load_ruleset(args.a)
    b = load_ruleset(args.b if args.b is not None else args.a, args.variant)
    print(format_diff(diff(a, b, include_notes=args.notes), a, b))
    return EXIT_OK


COMMANDS = {"list": cmd_list, "copy": cmd_copy, "draw": cmd_draw, "explain": cmd_explain, "diff": cmd_diff, "validate": cmd_validate, "play": cmd_play, "simulate": cmd_simulate,
            "compare": cmd_compare, "test": cmd_test}

if __name__ == "__main__":
    sys.exit(main())
