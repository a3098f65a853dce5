"""``davit validate``: every problem in a set of ruleset files, all at once.

A finding is one error or warning with its location and a short code; the
text form is ``file:line:col: error[code]: message``.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import DavitError, printable
from ..load.files import RULESET_FILE, bundled_rulesets_dir, display_path, variants_of
from . import findings_cache


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    column: int
    severity: str
    code: str
    message: str
    hint: str | None = None

    def text(self) -> str:
        hint = f" ({self.hint})" if self.hint else ""
        # for the terminal: a name in the message (or a file's name) never carries a raw control character
        return printable(f"{self.file}:{self.line}:{self.column}: {self.severity}[{self.code}]: {self.message}{hint}")

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "severity": self.severity,
                "code": self.code, "message": self.message, "hint": self.hint}


def _code(error: DavitError) -> str:
    return getattr(error, "code", "error")


def findings_of(error: DavitError, fallback: str) -> list[Finding]:
    out = []
    for e in getattr(error, "errors", [error]):
        loc = e.location
        out.append(Finding(loc.file if loc else fallback, loc.line if loc else 1, loc.column if loc else 1,
                           getattr(e, "severity", "error"), _code(e), e.message, e.hint))
    return out


def _ruleset_folders(path: Path) -> list[Path]:
    if (path / RULESET_FILE).is_file():
        return [path]
    return sorted(p.parent for p in path.rglob(RULESET_FILE))


@contextmanager
def _cycle_collector_paused():
    """Validating builds every ruleset and variant and keeps them for their scenarios: hundreds of
    thousands of long-lived objects and almost no cyclic garbage. Python's cycle collector walked the
    growing heap again and again (about a fifth of a cold ``davit validate rulesets``); reference
    counting still frees everything that is dropped, and the collector runs again afterwards.

    Turned back on plainly, its first young collection would walk every object made meanwhile (0.4 s of
    CPU after ``davit validate rulesets``): they are handed to the oldest generation instead, where a full
    collection still reaches them (frozen, then unfrozen at once, unless someone else keeps objects frozen)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()      # every tracked object to the permanent generation, without a walk ...
            gc.enable()
            gc.unfreeze()    # ... and from there to the oldest one: collectable, but not walked now
        else:
            gc.enable()


def validate_paths(paths, provenance: bool = False, cache: bool = True) -> list[Finding]:
    """Every finding in ``paths``; a ruleset folder's findings are reused while none of its files changed."""
    with _cycle_collector_paused():
        return _validate_paths(paths, provenance, cache)


def _validate_paths(paths, provenance: bool, cache: bool) -> list[Finding]:
    store = findings_cache.cache_dir() if cache else None

    def ruleset(ruleset_file: Path) -> list[Finding]:
        if store is None:
            return _validate_ruleset(ruleset_file, provenance)
        entry = findings_cache.key(ruleset_file, {"provenance": provenance})
        rows = findings_cache.load(store, entry)
        if rows is not None:
            try:
                return [Finding(**row) for row in rows]
            except TypeError:
                pass   # an entry of another shape: validate again
        found = _validate_ruleset(ruleset_file, provenance)
        findings_cache.store(store, entry, [f.to_json() for f in found])
        return found

    findings: list[Finding] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists() and (bundled_rulesets_dir() / str(raw) / RULESET_FILE).is_file():
            path = bundled_rulesets_dir() / str(raw)   # a bundled ruleset id
        if not path.exists():
            findings.append(Finding(str(raw), 1, 1, "error", "load", "no such file, folder or bundled ruleset id"))
            continue
        if not path.is_dir():   # a file (reading it refuses a device or a FIFO)
            findings.extend(_validate_file(path, provenance))
            continue
        folders = _ruleset_folders(path)
        if not folders:
            findings.append(Finding(display_path(path), 1, 1, "error", "load", f"no {RULESET_FILE} found here"))
        for folder in folders:
            findings.extend(ruleset(folder / RULESET_FILE))
    unique = sorted(set(findings), key=lambda f: (f.file, f.line, f.column, f.message))
    return unique


def _validate_ruleset(ruleset_file: Path, provenance: bool) -> list[Finding]:
    from ..rules.loading import combination_problems, load_ruleset  # the heavy part: only when not cached
    out: list[Finding] = []
    shown = display_path(ruleset_file)
    try:
        rs = load_ruleset(ruleset_file)
        out.extend(f for w in rs.warnings for f in findings_of(w, shown))
        if provenance:
            for loc, reason, what in rs.provenance:
                out.append(Finding(loc.file, loc.line, loc.column, "warning", "reconstructed",
                                   f"reconstructed{f' ({what})' if what else ''}: {reason}"))
    except DavitError as exc:
        out.extend(findings_of(exc, shown))
    try:
        out.extend(f for e in combination_problems(ruleset_file) for f in findings_of(e, shown))
    except DavitError as exc:
        out.extend(findings_of(exc, shown))
    for variant, vfile in variants_of(ruleset_file).items():
        try:
            vrs = load_ruleset(ruleset_file, variant)
        except DavitError as exc:
            out.extend(findings_of(exc, display_path(vfile)))
            continue
        out.extend(_own_warnings(vrs, vfile))
        if provenance:
            own = display_path(vfile)
            for loc, reason, what in vrs.provenance:
                if loc and loc.file == own:
                    out.append(Finding(loc.file, loc.line, loc.column, "warning", "reconstructed",
                                       f"reconstructed{f' ({what})' if what else ''}: {reason}"))
    scenarios = ruleset_file.parent / "scenarios"
    if scenarios.is_dir():
        for sfile in sorted(scenarios.glob("*.yaml")):
            out.extend(_validate_scenario(sfile, found_in_folder=True))
    return out


def _own_warnings(variant_ruleset, variant_file: Path) -> list[Finding]:
    """A variant's warnings that point into its own file (such as a constant it adds and nothing uses): the
    ruleset's own warnings are listed with the ruleset, once. `--strict` fails on them like on any other."""
    own = display_path(variant_file)
    return [f for w in variant_ruleset.warnings for f in findings_of(w, own) if f.file == own]


def _validate_scenario(path: Path, found_in_folder: bool = False) -> list[Finding]:
    from .scenario import check_scenario, own_scenario
    shown = display_path(path)
    if found_in_folder:
        try:
            own_scenario(path)
        except DavitError as exc:
            return findings_of(exc, shown)
    return [f for e in check_scenario(path) for f in findings_of(e, shown)]


def _validate_file(path: Path, provenance: bool) -> list[Finding]:
    from ..load.yaml_reader import LocMap, load_yaml_file
    from ..rules.loading import load_ruleset
    shown = display_path(path)
    try:
        data = load_yaml_file(path, shown)
    except DavitError as exc:
        return findings_of(exc, shown)
    if isinstance(data, LocMap) and "scenario" in data:
        return _validate_scenario(path)
    if isinstance(data, LocMap) and "variant" in data:
        try:
            return _own_warnings(load_ruleset(path), path)
        except DavitError as exc:
            return findings_of(exc, shown)
    if path.name == RULESET_FILE or (isinstance(data, LocMap) and "id" in data and "flow" in data):
        return _validate_ruleset(path, provenance)
    # an included part: check the ruleset that includes it
    main = path.parent / RULESET_FILE
    if main.is_file():
        return _validate_ruleset(main, provenance)
    return [Finding(shown, 1, 1, "error", "load", "not a ruleset, variant, scenario or included part file")]
