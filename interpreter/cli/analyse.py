"""``davit simulate`` and ``davit compare``: many games, figures with intervals, data and pictures out."""
from __future__ import annotations

import json
import sys

from ..errors import DavitError
from .parser import DEFAULT_CAP, DEFAULT_GAMES
from .paths import check_writable
from .players import players_for

EXIT_INTERRUPTED = 130


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
        raise DavitError(f"davit: {args.command} plays bots only; choose from random, first, greedy, mcts or ismcts")
    if args.address and args.backend != "ray":
        raise DavitError("davit: --address is for --backend ray")
    for option, path in (("--out", args.out), ("--decisions", getattr(args, "decisions", None))):
        if path:
            from ..analysis.export import format_of
            format_of(path)
            check_writable(path, option)
    if args.report:
        from ..analysis.report import check_report_path
        check_report_path(args.report)
        check_writable(args.report, "--report")
    games = args.games or (DEFAULT_CAP if args.until_ci else DEFAULT_GAMES)
    return rulesets, players, bots, games


def _run_options(args, games, players):
    return {"games": games, "players": players, "seed": args.seed, "workers": args.workers, "agents": args.agents,
            "progress": sys.stderr.isatty() and not args.json, "coverage": args.coverage,
            "until_ci": args.until_ci, "max_length": args.max_length, "backend": args.backend,
            "address": args.address, "keep_records": bool(args.out or args.report or args.decisions),
            "trace": bool(args.decisions)}


def _check_skill_depth(bot: str, players: int) -> None:
    """Both bots of --skill-depth made now, before the main run: a budget out of range (ismcts:0, or one whose
    double is past the most) stopped with an internal error after every game of the main run was played."""
    from ..agents.seats import agent_factory
    from ..analysis.skill import doubled
    for name in (bot.strip(), doubled(bot)):
        try:
            agent_factory(name)
        except ValueError as exc:
            raise DavitError(f"davit: --skill-depth: {exc}") from None
    if players < 2:
        raise DavitError("davit: --skill-depth needs two or more players")


def cmd_simulate(args) -> int:
    from ..analysis.simulate import simulate
    from .analysis_text import simulate_lines
    variant = "+".join(args.variant) if args.variant else None
    (rs,), players, bots, games = _prepare(args, [variant])
    if args.skill_depth:
        _check_skill_depth(args.skill_depth, players)
    result = simulate(args.ruleset, variant=variant, **_run_options(args, games, players))
    if args.skill_depth:
        from ..analysis.skill import skill_depth
        result.setdefault("dynamics", {})["skill_depth"] = skill_depth(
            args.ruleset, args.skill_depth, games, players, seed=args.seed, workers=args.workers, variant=variant,
            max_length=args.max_length, backend=args.backend, address=args.address)
    records = result.pop("records", None)
    names = list(rs.table(players).player_names)
    result = {"ruleset": rs.id, "variant": rs.variant, "seed": args.seed, "agents": args.agents, "bots": bots,
              "names": names, "max_length": args.max_length, **result}
    lines = simulate_lines(rs, result, names)
    _write_outputs(args, rs, [(variant, result, records)], names, bots, lines)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return EXIT_INTERRUPTED if result["interrupted"] else 0


def _refuse_same_rules(rulesets) -> None:
    """Two of the compared games with the same rules would only measure noise: say so, do not run."""
    from ..load.overlay import rules_of
    seen: dict = {}
    for rs in rulesets:
        rules = {k: v for k, v in rules_of(rs.data).items() if k != "metrics"}   # metrics only read the games
        key = json.dumps(rules, sort_keys=True, default=str)
        if key in seen:
            raise DavitError(f"davit: {rs.variant or 'the base game'} has the same rules as "
                             f"{seen[key] or 'the base game'}: the comparison would measure only chance "
                             f"(add --allow-same for such an A/A run)")
        seen[key] = rs.variant


def cmd_compare(args) -> int:
    from ..analysis.simulate import compare
    from .analysis_text import compare_lines
    given = list(args.variant) if args.allow_same else list(dict.fromkeys(args.variant))
    variants = ([] if args.no_base else [None]) + given
    if len(variants) < 2:
        raise DavitError("davit: compare needs two or more games: add a --variant or drop --no-base")
    rulesets, players, bots, games = _prepare(args, variants)
    if not args.allow_same:
        _refuse_same_rules(rulesets)
    result = compare(args.ruleset, variants, **_run_options(args, games, players))
    names = list(rulesets[0].table(players).player_names)
    runs = [(entry["variant"], entry, entry.pop("records", None)) for entry in result["variants"]]
    result = {"ruleset": rulesets[0].id, "seed": args.seed, "agents": args.agents, "bots": bots, "names": names,
              "max_length": args.max_length, **result}
    lines = compare_lines(rulesets[0], result, names)
    from .analysis_text import verdict_line
    rivals = players > 1 and rulesets[0].team_var is None
    said = [f"{c['base'] or 'base'} → {c['variant']}: {verdict_line(c, names, rivals)}" for c in result["comparisons"]]
    _write_outputs(args, rulesets[0], runs, names, bots, lines, result["comparisons"], said)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return EXIT_INTERRUPTED if result["interrupted"] else 0


def _write_outputs(args, rs, runs, names, bots, lines, comparisons=(), verdicts=()) -> None:
    if args.decisions:
        from ..analysis.export import decision_rows, write_rows
        write_rows(args.decisions, [row for variant, _, records in runs
                                    for row in decision_rows(rs.id, variant, names, records)])
        for _, _, records in runs:
            for record in records:
                record.pop("trace", None)
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
                     names, comparisons, verdicts)


def _storage_of(path: str | None) -> str | None:
    """--storage: a new file, or an SQLite one (another file stopped tune with SQLAlchemy's internal error)."""
    if path is None:
        return None
    from pathlib import Path
    target = Path(path)
    if target.is_dir():
        raise DavitError(f"davit: cannot use --storage: '{path}' is a folder")
    try:
        with target.open("rb") as f:
            head = f.read(16)
    except FileNotFoundError:
        check_writable(path, "--storage")
        return path
    except OSError as exc:
        raise DavitError(f"davit: cannot read --storage '{path}': {exc.strerror or exc}") from None
    if head and head != b"SQLite format 3\x00":
        raise DavitError(f"davit: --storage '{path}' is not an SQLite file (an Optuna study's): name a new file")
    return path


def cmd_sweep(args) -> int:
    from ..analysis.sweep import parse_sets, sweep
    from .analysis_text import sweep_lines
    args.until_ci = None
    args.coverage = False
    variant = "+".join(args.variant) if args.variant else None
    (rs,), players, bots, games = _prepare(args, [variant])
    sets = parse_sets(args.sets)
    result = sweep(args.ruleset, sets, games, players, seed=args.seed, workers=args.workers, agents=args.agents,
                   progress=sys.stderr.isatty() and not args.json, max_length=args.max_length,
                   backend=args.backend, address=args.address, keep_records=bool(args.out), base_variant=variant)
    names = list(rs.table(players).player_names)
    runs = []
    for point in result["points"]:
        label = ",".join(f"{path}={value}" for path, value in point["set"].items())
        runs.append((label, point, point.pop("records", None)))
    result = {"ruleset": rs.id, "variant": rs.variant, "seed": args.seed, "agents": args.agents, "bots": bots,
              "names": names, **result}
    lines = sweep_lines(rs, result, names)
    if args.out:
        from ..analysis.export import rows, write_rows
        write_rows(args.out, [row for label, _, records in runs for row in rows(rs.id, label, names, bots, records)])
    if args.report:
        from ..analysis.report import write_points_report
        paths = [path for path, _ in sets]
        labels = [", ".join(str(v) for v in point["set"].values()) for point in result["points"]]
        write_points_report(args.report, f"{rs.name}: sweep of {', '.join(paths)}", "\n".join(lines), labels,
                            result["points"], names)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return EXIT_INTERRUPTED if result["interrupted"] else 0


def cmd_tune(args) -> int:
    from ..analysis.sweep import parse_sets
    from ..analysis.tune import parse_objective, tune
    from .analysis_text import tune_lines
    if not args.out.lower().endswith((".yaml", ".yml")):
        raise DavitError(f"davit: tune writes a variant file: name --out FILE.yaml, not {args.out!r}")
    check_writable(args.out, "--out")
    objective = parse_objective(args.objective)
    sets, storage = parse_sets(args.sets), _storage_of(args.storage)
    out, args.out = args.out, None
    args.until_ci = None
    variant = "+".join(args.variant) if args.variant else None
    (rs,), players, _, games = _prepare(args, [variant])
    result = tune(args.ruleset, sets, objective, args.trials, out, games,
                  players, seed=args.seed, workers=args.workers, agents=args.agents, max_length=args.max_length,
                  backend=args.backend, address=args.address, storage=storage, base_variant=variant)
    result = {"ruleset": rs.id, "variant": rs.variant, "seed": args.seed, "agents": args.agents, "games": games,
              "players": players, **result}
    lines = tune_lines(rs, result)
    if args.report:
        from ..analysis.report import write_tune_report
        write_tune_report(args.report, f"{rs.name}: tuning {args.objective}", "\n".join(lines), result)
    print(json.dumps(result) if args.json else "\n".join(lines))
    return 0
