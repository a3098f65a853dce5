"""The ``davit`` command line: every subcommand and option, each with its help text.

Only argparse is imported here, so ``davit --help`` starts at once.
"""
from __future__ import annotations

import argparse

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


def _at_most(limit: int, what: str):
    """:func:`_positive`, and at most ``limit``: a run asked for more would not end within a day, or hold
    more results than memory can."""
    def bounded(text):
        value = _positive(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"expected at most {limit:,} {what}, got {value:,} "
                                             "(split a longer run into several, each with its own --seed)")
        return value
    return bounded


MAX_GAMES = 1_000_000
MAX_TRIALS = 10_000


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


RULESET_HELP = "a bundled ruleset id (see `davit list`) or the path of a ruleset folder or file"
VARIANT_HELP = ("a variant id (a file in the ruleset's variants/) or a variant file; repeat it, or join ids "
                "with '+', to combine variants the ruleset declares combinable (applied in order)")
SEED_HELP = "the random seed: the same seed plays the same game (default: 0)"
PLAYERS_HELP = "the number of players (default: 4, or the nearest the ruleset allows)"
AGENTS_HELP = ("comma-separated bots per seat: random, first, greedy (omniscient), mcts, ismcts or human; "
               "search bots take a budget, ismcts:200 or ismcts:1.5s (the last one repeats)")


def _agent_names(text):
    """An --agents value: agent names joined by ','. An empty name ('', 'random,,first', 'random,') is refused
    here, before any game, as make_agents refuses it (agents.seats.agent_names)."""
    from ..agents.seats import agent_names
    try:
        agent_names(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _not_empty(what: str):
    """An argument type refusing an empty value (or one of spaces), which was taken for the option not given:
    a folder to make (it named '.'), a file to read or write (the game or run went on without the file the
    command asked for), a value that must say something (a bot, an address, a filter)."""
    def given(text):
        if not text.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, got an empty one")
        return text
    return given


_folder_name = _not_empty("the path of a new folder")
_file_name = _not_empty("a file name")
_text = _not_empty("a value")


def _variant_name(text):
    """A --variant value: an id, ids joined by '+', or a file. An empty id ('', 'a+', '+') is refused
    here: dropped quietly, it played the plain ruleset (or fewer variants) than the command asked for."""
    import os
    parts = [text] if os.path.isfile(text) else text.split("+")
    if not all(part.strip() for part in parts):
        raise argparse.ArgumentTypeError(f"expected a variant id (or ids joined by '+'), got {text!r}")
    return text


def _variant(p):
    p.add_argument("--variant", action="append", metavar="VARIANT", type=_variant_name, help=VARIANT_HELP)


def build_parser(version: str) -> argparse.ArgumentParser:
    parser = _Parser(prog="davit", description="Play, check and simulate tabletop games written as YAML rules.")
    parser.add_argument("--version", action="version", version=f"davit {version}",
                        help="print davit's version and exit")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="bundled rulesets, their variants and which variants combine")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = sub.add_parser("copy", help="copy a ruleset into a new folder to make your own game from it")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("dest", metavar="FOLDER", type=_folder_name,
                   help="the new folder (it must not exist); the copy's id is made from its name")

    p = sub.add_parser("validate", help="check ruleset, variant and scenario files")
    p.add_argument("paths", nargs="+", metavar="PATH", type=_file_name,
                   help="ruleset folders or files, variant or scenario files, folders holding rulesets, "
                        "or bundled ruleset ids")
    p.add_argument("--format", choices=["text", "json"], default="text",
                   help="text: one `file:line:col: error[code]: message` line per problem (default); "
                        "json: a list of objects for editors and CI")
    p.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    p.add_argument("--provenance", action="store_true", help="list values marked as reconstructed")
    p.add_argument("--no-cache", action="store_true",
                   help="validate everything again, using no disk cache of rulesets (not the findings of "
                        "unchanged ruleset folders, nor the marks of files found free of schema errors)")

    p = sub.add_parser("play", help="play one game (bots, or a human at the terminal)")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--players", type=_positive, help=PLAYERS_HELP)
    p.add_argument("--seed", type=_int, default=None,
                   help="the random seed: the same seed plays the same game (default: a random one, printed)")
    p.add_argument("--agents", type=_agent_names, default=None,
                   help=AGENTS_HELP + " (default: random; when resuming, the saved game's agents)")
    _variant(p)
    p.add_argument("--log", metavar="FILE", type=_file_name, help="write the event log as JSON lines")
    p.add_argument("--log-seat", metavar="SEAT",
                   help="write to --log only what this seat may read (a seat number from 0, as in the log's "
                        "events, or 'spectator'), redacted as its view is; default: the whole log")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--resume", metavar="FILE", type=_file_name,
                   help="continue a game saved with `save FILE` or by Ctrl-C")

    p = sub.add_parser("serve", help="play one game in the browser: a local web table, one private link per seat")
    p.add_argument("ruleset", metavar="RULESET", nargs="?",
                   help=RULESET_HELP + "; without it, the last unfinished game of --db goes on")
    p.add_argument("--players", type=_positive,
                   help="default: one per name in --agents, else 4 or the nearest the ruleset allows")
    p.add_argument("--seed", type=_int, default=None, help=SEED_HELP)   # None: not given (0)
    p.add_argument("--agents", type=_agent_names, default=None,
                   help="comma-separated: human (a browser seat), random, first, greedy (the last one repeats); "
                        "default human,random")
    _variant(p)
    p.add_argument("--port", type=_int, default=0, help="port on 127.0.0.1 (default: any free port)")
    p.add_argument("--no-browser", action="store_true", help="only print the seat links")
    p.add_argument("--watch", action="store_true",
                   help="begin a new game at the same table whenever the ruleset's files change")
    p.add_argument("--replay", metavar="FILE", type=_file_name,
                   help="show a saved game (from `davit play`) step by step instead")
    p.add_argument("--db", metavar="FILE", type=_file_name, default=None,   # None: not given (davit-tables.db)
                   help="the SQLite file that keeps the table, each decision as it is made; an unfinished table "
                        "of the same ruleset, variant and agents in it goes on, with the same links "
                        "(default: davit-tables.db in the current folder)")
    p.add_argument("--new", action="store_true",
                   help="begin a new game even when --db holds an unfinished one of this ruleset")

    p = sub.add_parser("simulate", help="play many games and report statistics per seat, with 95%% intervals")
    _analysis_options(p)
    _variant(p)
    p.add_argument("--skill-depth", metavar="BOT", type=_text,
                   help="also play BOT (a search bot with its budget, as ismcts:50) against the same bot with "
                        "twice the budget, the strong one in each seat in turn: does skill pay? (--games more "
                        "games; in --json under dynamics.skill_depth)")

    p = sub.add_parser("compare", help="play variants on the same seeds and bots and test what differs")
    _analysis_options(p)
    p.add_argument("--variant", action="append", required=True, metavar="VARIANT", type=_variant_name,
                   help="a variant to compare (repeat for more; a+b is one combined variant); "
                        "the base game comes first unless --no-base")
    p.add_argument("--no-base", action="store_true", help="leave out the base game: the first --variant is the base")
    p.add_argument("--allow-same", action="store_true",
                   help="run even when two of the games compared have the same rules (an A/A run, to see what "
                        "chance alone does); a variant may then be given twice")

    p = sub.add_parser("sweep", help="play the ruleset at several values of its numbers, on the same seeds")
    _sweep_options(p)
    _variant(p)

    p = sub.add_parser("tune", help="find the values of the ruleset's numbers that bring a figure to its target")
    _sweep_options(p, tune=True)
    _variant(p)

    p = sub.add_parser("draw", help="draw the board graph (DOT on stdout, or -o FILE.svg/.dot/.png)")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    _variant(p)
    p.add_argument("-o", "--output", metavar="FILE", type=_file_name,
                   help="write to FILE; its ending chooses the format: .svg, .dot or .png (default: DOT on "
                        "standard output)")

    p = sub.add_parser("explain", help="the rules as Markdown for people")
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    _variant(p)

    p = sub.add_parser("diff", help="what differs between two rulesets, or a ruleset and its variant")
    p.add_argument("a", metavar="A", type=_text, help="a ruleset id or path (or a variant file)")
    p.add_argument("b", metavar="B", nargs="?", type=_text, help="another ruleset or variant file (default: A itself)")
    _variant(p)
    p.add_argument("--notes", action="store_true", help="also show changed descriptions and sources")

    p = sub.add_parser("test", help="run scenario files (rule tests)")
    p.add_argument("paths", nargs="+", metavar="PATH", type=_file_name,
                   help="scenario files, folders (every */scenarios/*.yaml below) or bundled ruleset ids")
    p.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    p.add_argument("--variant", action="append", metavar="VARIANT", type=_variant_name,
                   help="run only scenarios that play this variant (repeat for several; 'none' selects "
                        "scenarios of the plain ruleset)")
    p.add_argument("-k", dest="keyword", metavar="TEXT", type=_text,
                   help="run only scenarios whose id or file name contains TEXT")
    return parser


DEFAULT_GAMES = 100
DEFAULT_CAP = 20000      # the game cap of --until-ci when --games is not given


def _width(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.02, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a width between 0 and 1 (a share, as 0.02), got {value}")
    return value


SET_HELP = ("PATH=VALUES: a dotted address into the ruleset (zones.boat.capacity, constants.limits.4, "
            "limits.max_decisions) and its values, a range 3..6 or a list 3,5,8; repeat for a grid")


def _sweep_options(p, tune: bool = False) -> None:
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--set", dest="sets", action="append", required=True, metavar="PATH=VALUES",
                   help=SET_HELP + (": the values to search (a range as whole numbers, a list as choices)"
                                    if tune else ""))
    if tune:
        p.add_argument("--objective", required=True, metavar="NAME[=TARGET]",
                       help="balance (every seat wins as often), length=DECISIONS, or a metric or dynamics "
                            "measure with its target, as capsized=2")
        p.add_argument("--trials", type=_at_most(MAX_TRIALS, "trials"), default=20,
                       help="points to try in all (default 20)")
        p.add_argument("--storage", metavar="FILE.db", type=_file_name,
                       help="the Optuna study's SQLite file: the same command resumes a stopped run "
                            "(default: beside --out, as v.optuna.db)")
    p.add_argument("--games", type=_at_most(MAX_GAMES, "games"), default=DEFAULT_GAMES,
                   help=f"games at every point (default {DEFAULT_GAMES})")
    p.add_argument("--players", type=_positive, help=PLAYERS_HELP)
    p.add_argument("--seed", type=_int, default=0,
                   help="the first game's seed; every point plays the same seeds (default: 0)")
    p.add_argument("--workers", type=_positive, default=1,
                   help="processes here (or CPUs of a new local Ray); the results do not depend on it (default: 1)")
    p.add_argument("--agents", type=_agent_names, default="random",
                   help="comma-separated bots, as for simulate (default: random)")
    p.add_argument("--max-length", type=_positive, metavar="DECISIONS",
                   help="cut a game off after this many decisions (it then has no winner)")
    p.add_argument("--report", metavar="FILE.html", type=_file_name,
                   help="a self-contained HTML page: " + ("the loss of each trial and against each value" if tune
                                                          else "each figure with its interval against the values"))
    if tune:
        p.add_argument("--out", metavar="FILE.yaml", type=_file_name, required=True,
                       help="write the best values as a variant file, ready for play --variant and compare")
    else:
        p.add_argument("--out", metavar="FILE", type=_file_name,
                       help="one row per game and point: FILE.jsonl, FILE.csv or FILE.parquet")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where games run: local processes (default), or a Ray cluster")
    p.add_argument("--address", type=_text,
                   help="the Ray cluster to use with --backend ray (default: start one here)")
    p.add_argument("--json", action="store_true",
                   help="print the trials and the best point as JSON" if tune else
                   'print {"points": [{"set": {PATH: value}, ...the simulate figures}]}')


def _analysis_options(p) -> None:
    """The options simulate and compare share."""
    p.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    p.add_argument("--games", type=_at_most(MAX_GAMES, "games"), help=f"games to play (default {DEFAULT_GAMES}; "
                                                   f"with --until-ci the most to play, default {DEFAULT_CAP})")
    p.add_argument("--players", type=_positive, help=PLAYERS_HELP)
    p.add_argument("--seed", type=_int, default=0,
                   help="the first game's seed; game i uses a seed derived from it (default: 0)")
    p.add_argument("--workers", type=_positive, default=1,
                   help="processes here (or CPUs of a new local Ray); the results do not depend on it (default: 1)")
    p.add_argument("--agents", type=_agent_names, default="random",
                   help="comma-separated bots: random, first, greedy (omniscient), mcts, ismcts, ismcts:200 or "
                        "ismcts:1.5s (the last one repeats; default: random)")
    p.add_argument("--until-ci", type=_width, metavar="WIDTH",
                   help="play until every win-rate interval is at most WIDTH wide (high minus low), "
                        "or the game cap is reached")
    p.add_argument("--max-length", type=_positive, metavar="DECISIONS",
                   help="cut a game off after this many decisions (it then has no winner)")
    p.add_argument("--coverage", action="store_true", help="count how often each action and trigger happened")
    p.add_argument("--out", metavar="FILE", type=_file_name,
                   help="one row per game: FILE.jsonl, FILE.csv or FILE.parquet")
    p.add_argument("--decisions", metavar="FILE", type=_file_name,
                   help="one row per decision (seat, options, every seat's score before it): FILE.jsonl, FILE.csv "
                        "or FILE.parquet")
    p.add_argument("--report", metavar="FILE.html", type=_file_name, help="a self-contained HTML page with charts")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where games run: local processes (default), or a Ray cluster")
    p.add_argument("--address", type=_text,
                   help="the Ray cluster to use with --backend ray (default: start one here)")
    p.add_argument("--json", action="store_true", help="print one JSON object, every interval included")
