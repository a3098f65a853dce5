"""``davit simulate`` and ``davit compare``: many games, figures with intervals, data and pictures out."""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import DavitError
from .players import players_for

DEFAULT_GAMES = 100
DEFAULT_CAP = 20000      # the game cap of --until-ci when --games is not given
EXIT_INTERRUPTED = 130


def _width(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.02, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a width between 0 and 1 (a share, as 0.02), got {value}")
    return value


def add_parsers(sub, positive, whole) -> None:
    """The two commands and their shared options."""
    p = sub.add_parser("simulate", help="play many games and report statistics per seat")
    _shared(p, positive, whole)
    p.add_argument("--variant")

    p = sub.add_parser("compare", help="play variants on the same seeds and bots and test what differs")
    _shared(p, positive, whole)
    p.add_argument("--variant", action="append", required=True, metavar="VARIANT",
                   help="a variant to compare (repeat for more); the base game comes first unless --no-base")
    p.add_argument("--no-base", action="store_true", help="leave out the base game: the first --variant is the base")


def _shared(p, positive, whole) -> None:
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--games", type=positive, help=f"games to play (default {DEFAULT_GAMES}; "
                                                  f"with --until-ci the most to play, default {DEFAULT_CAP})")
    p.add_argument("--players", type=positive)
    p.add_argument("--seed", type=whole, default=0)
    p.add_argument("--workers", type=positive, default=1, help="processes here (or CPUs of a new local Ray)")
    p.add_argument("--agents", default="random", help="comma-separated bots: random, first, greedy "
                                                      "(the last one repeats)")
    p.add_argument("--until-ci", type=_width, metavar="WIDTH",
                   help="play until every win-rate interval is at most WIDTH wide (high minus low), "
                        "or the game cap is reached")
    p.add_argument("--max-length", type=positive, metavar="DECISIONS",
                   help="cut a game off after this many decisions (it then has no winner)")
    p.add_argument("--coverage", action="store_true", help="count how often each action and trigger happened")
    p.add_argument("--out", metavar="FILE", help="one row per game: FILE.jsonl, FILE.csv or FILE.parquet")
    p.add_argument("--report", metavar="FILE.html", help="a self-contained HTML page with charts")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where games run: local processes, or a Ray cluster")
    p.add_argument("--address", help="the Ray cluster to use with --backend ray (default: start one here)")
    p.add_argument("--json", action="store_true", help="print one JSON object, every interval included")


def _prepare(args, variants):
    """Load and check everything before the first game: a mistake costs no time."""
    from ..agents import make_agents
    from ..rules.loading import load_ruleset
    rulesets = [load_ruleset(args.ruleset, v) for v in variants]
    players = players_for(rulesets[0], args.players)
    for rs in rulesets[1:]:
        players_for(rs, players)
    try:
        bots = [a.name for a in make_agents(args.agents, players, 0)]
    except ValueError as exc:
        raise DavitError(f"davit: {exc}") from None
    if "human" in bots:
        raise DavitError(f"davit: {args.command} plays bots only; choose from random, first, greedy")
    if args.address and args.backend != "ray":
        raise DavitError("davit: --address is for --backend ray")
    if args.out:
        from ..analysis.export import format_of
        format_of(args.out)
    if args.report:
        from ..analysis.report import check_report_path
        check_report_path(args.report)
    games = args.games or (DEFAULT_CAP if args.until_ci else DEFAULT_GAMES)
    return rulesets, players, bots, games


def _run_options(args, games, players):
    return {"games": games, "players": players, "seed": args.seed, "workers": args.workers, "agents": args.agents,
            "progress": sys.stderr.isatty() and not args.json, "coverage": args.coverage,
            "until_ci": args.until_ci, "max_length": args.max_length, "backend": args.backend,
            "address": args.address, "keep_records": bool(args.out or args.report)}


def cmd_simulate(args) -> int:
    from ..analysis.simulate import simulate
    from .analysis_text import simulate_lines
    (rs,), players, bots, games = _prepare(args, [args.variant])
    result = simulate(args.ruleset, variant=args.variant, **_run_options(args, games, players))
    records = result.pop("records", None)
    names = list(rs.table(players).player_names)
    result = {"ruleset": rs.id, "variant": rs.variant, "seed": args.seed, "agents": args.agents, "bots": bots,
              "names": names, "max_length": args.max_length, **result}
    lines = simulate_lines(rs, result, names)
    _write_outputs(args, rs, [(args.variant, result, records)], names, bots, lines)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return EXIT_INTERRUPTED if result["interrupted"] else 0


def cmd_compare(args) -> int:
    from ..analysis.simulate import compare
    from .analysis_text import compare_lines
    variants = ([] if args.no_base else [None]) + list(dict.fromkeys(args.variant))
    if len(variants) < 2:
        raise DavitError("davit: compare needs two or more games: add a --variant or drop --no-base")
    rulesets, players, bots, games = _prepare(args, variants)
    result = compare(args.ruleset, variants, **_run_options(args, games, players))
    names = list(rulesets[0].table(players).player_names)
    runs = [(entry["variant"], entry, entry.pop("records", None)) for entry in result["variants"]]
    result = {"ruleset": rulesets[0].id, "seed": args.seed, "agents": args.agents, "bots": bots, "names": names,
              "max_length": args.max_length, **result}
    lines = compare_lines(rulesets[0], result, names)
    _write_outputs(args, rulesets[0], runs, names, bots, lines)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return EXIT_INTERRUPTED if result["interrupted"] else 0


def _write_outputs(args, rs, runs, names, bots, lines) -> None:
    if args.out:
        from ..analysis.export import rows, write_rows
        table = [row for variant, _, records in runs for row in rows(rs.id, variant, names, bots, records)]
        write_rows(args.out, table)
    if args.report:
        from ..analysis.report import write_report
        if len(runs) == 1:
            title = rs.name + (f" ({runs[0][0]})" if runs[0][0] else "")
        else:
            title = f"{rs.name}: " + " vs ".join(variant or "base" for variant, _, _ in runs)
        write_report(args.report, title, "\n".join(lines),
                     [{"variant": variant, **summary, "records": records} for variant, summary, records in runs],
                     names)
