"""The ``davit`` command: list, validate, play, simulate, compare, test.

Every user mistake ends in one readable line (or ``file:line:col`` lines) and
a non-zero exit; a Python traceback is shown only with ``DAVIT_DEBUG=1``.
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from pathlib import Path

from ..errors import DavitError, PrintableStream, printable
from .analyse import cmd_compare, cmd_simulate, cmd_sweep, cmd_tune
from .parser import EXIT_FAIL, EXIT_OK, EXIT_USAGE, build_parser
from .players import variant_of
from .serve import cmd_serve
from .terminal import cmd_play


def run() -> int:
    """The process entry of the ``davit`` script and ``python -m interpreter``: :func:`main`, then
    the heap handed to the cycle collector's permanent generation. Python's shutdown otherwise walks
    every object still alive, again and again; after ``davit validate rulesets`` (every ruleset and
    variant built) that alone took a second of CPU, to free memory the system takes back at exit."""
    code = main()
    gc.freeze()
    return code


def main(argv=None) -> int:
    from .. import __version__
    parser = build_parser(__version__)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage errors and --help: a code, not an exception, for callers of main()
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    # whatever a command prints may hold a ruleset's names and texts: never raw control characters
    # (standard error is left as it is for the progress bar, and its lines are escaped where they are made)
    stdout, sys.stdout = sys.stdout, PrintableStream(sys.stdout)
    try:
        from ..load.files import rulesets_note
        from ..machine import fast_paths
        fast_paths.on()   # a misspelt DAVIT_FAST_PATHS is one line here, not an error at every file
        note = rulesets_note()
        if note:
            print(printable(note), file=sys.stderr)
        return COMMANDS[args.command](args)
    except DavitError as exc:
        text = str(exc)
        if exc.location is None and not text.startswith("davit:"):
            text = f"davit: {text}"
        print(printable(text), file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print("\ndavit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_FAIL
    except OSError as exc:   # a file davit was asked to read or write (copy, --log): one line, never "internal error"
        where = f" '{exc.filename}'" if exc.filename else ""
        print(printable(f"davit: cannot use{where}: {exc.strerror or exc}"), file=sys.stderr)
        return EXIT_FAIL
    except Exception as exc:  # never a traceback for users; DAVIT_DEBUG shows it
        if os.environ.get("DAVIT_DEBUG"):
            raise
        print(printable(f"davit: internal error: {type(exc).__name__}: {exc} (set DAVIT_DEBUG=1 for details)"),
              file=sys.stderr)
        return EXIT_USAGE
    finally:
        sys.stdout = stdout


def cmd_list(args) -> int:
    from ..load.files import RULESET_FILE, bundled_ids, bundled_rulesets_dir
    from ..load.metadata import ruleset_summary
    rows = [ruleset_summary(bundled_rulesets_dir() / rid / RULESET_FILE) for rid in bundled_ids()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    for row in rows:
        low, high = row["players"]
        print(f"{row['id']:<22} {row['name']} ({low}–{high} players)")
        for v in row["variants"]:
            vl, vh = v["players"]
            print(f"{'':<22}   variant {v['id']} ({vl}–{vh} players)")
        for group in row["combinable"]:
            print(f"{'':<22}   combinable: {' + '.join(group)} (any two or more together)")
    return EXIT_OK


def ruleset_id_from(name: str) -> str:
    """A valid ruleset id (lowercase letters, digits, dashes) made from any folder name."""
    import re
    import unicodedata
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    if not text or not text[0].isalpha():
        text = f"game-{text}" if text else "my-game"
    return text


def cmd_copy(args) -> int:
    import shutil

    from ..load.files import resolve_ruleset, schemas_dir
    from ..load.yaml_reader import load_yaml_file
    source, _ = resolve_ruleset(args.ruleset)
    folder = source.parent
    dest = Path(args.dest)
    if dest.exists():
        raise DavitError(f"davit: '{dest}' already exists; choose a new folder")
    if not dest.parent.is_dir() and str(dest.parent):
        raise DavitError(f"davit: folder '{dest.parent}' does not exist")
    if dest.resolve().is_relative_to(folder.resolve()):
        # the copy went on copying itself until 'internal error: RecursionError', leaving a deep tree of
        # partial copies inside the ruleset's own folder
        raise DavitError(f"davit: cannot copy {args.ruleset} into '{dest}', a folder inside its own: choose a "
                         "folder elsewhere")
    _check_copyable(folder)
    shutil.copytree(folder, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "__init__.py"))
    # The copy carries its own schemas, so the `$schema` lines resolve wherever the folder is moved
    # and whichever way davit was installed: `schemas/x` beside ruleset.yaml, `../schemas/x` below it.
    shutil.copytree(schemas_dir(), dest / "schemas", ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    for path in dest.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if first.startswith("# yaml-language-server: $schema="):
            kind = first.rsplit("/", 1)[-1]
            depth = len(path.relative_to(dest).parts) - 1
            prefix = "/".join([".."] * depth + ["schemas"])
            path.write_text(f"# yaml-language-server: $schema={prefix}/{kind}\n{rest}", encoding="utf-8")
    data = load_yaml_file(dest / "ruleset.yaml")
    new_id = ruleset_id_from(dest.resolve().name)
    text = (dest / "ruleset.yaml").read_text(encoding="utf-8")
    line = data.key_loc("id").line
    lines = text.splitlines(keepends=True)
    lines[line - 1] = f"id: {new_id}\n"
    (dest / "ruleset.yaml").write_text("".join(lines), encoding="utf-8")
    shown = f'"{dest}"' if " " in str(dest) else str(dest)
    print(f"copied {data.get('id')} to {dest} (id: {new_id}); try: davit validate {shown}")
    return EXIT_OK


def _check_copyable(folder: Path) -> None:
    """Refuse to copy a folder holding what is not a file (a FIFO, a device: copying it never ends) or a link
    that leads out of it (copying it would copy a file from elsewhere)."""
    from ..load.files import display_path, is_inside
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() and not is_inside(path, folder):
            raise DavitError(f"davit: cannot copy: {display_path(path)} is a link out of the ruleset folder")
        if path.exists() and not (path.is_file() or path.is_dir()):
            raise DavitError(f"davit: cannot copy: {display_path(path)} is not a regular file")


def cmd_validate(args) -> int:
    from ..authoring.validate import validate_paths
    from ..load import cache_folder
    # --no-cache: everything afresh, no disk cache of any stage
    with cache_folder.turned_off() if args.no_cache else contextlib.nullcontext():
        findings = validate_paths(args.paths, provenance=args.provenance, cache=not args.no_cache)
    errors = [f for f in findings if f.severity == "error"]
    if args.format == "json":
        print(json.dumps([f.to_json() for f in findings], indent=2))
    else:
        from ..load.yaml_messages import source_excerpt
        for f in findings:
            print(f.text())
            if f.code == "syntax" or f.message.startswith("YAML syntax error"):
                for line in source_excerpt(f.file, f.line, f.column):  # the line, and a caret under the spot
                    print(line)
        if not findings:
            print("ok: no problems found")
    failed = bool(errors) or (args.strict and bool(findings))
    return EXIT_FAIL if failed else EXIT_OK


def cmd_test(args) -> int:
    from ..authoring.scenario import find_scenarios, run_scenario, select_scenarios
    files = select_scenarios(find_scenarios(args.paths), args.variant, args.keyword)
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
    text = draw_main(load_ruleset(args.ruleset, variant_of(args)), args.output)
    if text is not None:
        print(text, end="" if text.endswith("\n") else "\n")
    return EXIT_OK


def cmd_explain(args) -> int:
    from ..authoring.explain import explain
    from ..rules.loading import load_ruleset
    print(explain(load_ruleset(args.ruleset, variant_of(args))))
    return EXIT_OK


def cmd_diff(args) -> int:
    from ..authoring.diff import diff, format_diff
    from ..rules.loading import load_ruleset
    if args.b is None and not args.variant:
        raise DavitError("davit: diff needs a second ruleset B or --variant V")
    a = load_ruleset(args.a)
    b = load_ruleset(args.b if args.b is not None else args.a, variant_of(args))
    print(format_diff(diff(a, b, include_notes=args.notes), a, b))
    return EXIT_OK


COMMANDS = {"list": cmd_list, "copy": cmd_copy, "draw": cmd_draw, "explain": cmd_explain, "diff": cmd_diff,
            "validate": cmd_validate, "play": cmd_play, "simulate": cmd_simulate,
            "compare": cmd_compare, "sweep": cmd_sweep, "tune": cmd_tune, "test": cmd_test, "serve": cmd_serve}

if __name__ == "__main__":
    sys.exit(main())
