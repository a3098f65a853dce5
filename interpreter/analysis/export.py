"""One row per game for pandas or polars: JSON lines, CSV (one header line) or Parquet.

Every format has the same flat columns, so ``pd.read_json(f, lines=True)``,
``pd.read_csv(f)`` and ``pd.read_parquet(f)`` give the same frame:

``game, seed, ruleset, variant, players, length, end_reason, capped, winners``
and for each seat ``i``: ``seat{i}_name, seat{i}_bot, seat{i}_score, seat{i}_rank, seat{i}_won``;
then ``metric_{name}`` for each metric the ruleset declares (empty where a
game had no value for it), and the game's dynamics: ``branching``,
``decision_moves``, ``lead_changes``, ``decisiveness``, ``drama``.

``variant`` is empty for the base game (an empty text, not a missing value,
so that grouping by variant keeps the base game). ``winners`` lists the
winning seats as ``"0;2"``. ``rank`` is 1 plus the number of seats that did
better, where winning beats not winning and then the higher score is better:
the ruleset's tie-breakers show only through who won.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..errors import DavitError
from ..load.files import write_atomically

FORMATS = {".jsonl": "jsonl", ".csv": "csv", ".parquet": "parquet"}


def format_of(path: str) -> str:
    """The format a file name asks for, or a one-line error; the folder must exist."""
    target = Path(path)
    fmt = FORMATS.get(target.suffix.lower())
    if fmt is None:
        raise DavitError(f"davit: cannot tell the format of '{path}': name it .jsonl, .csv or .parquet")
    if str(target.parent) and not target.parent.is_dir():
        raise DavitError(f"davit: cannot write '{path}': folder '{target.parent}' does not exist")
    if fmt == "parquet":
        _pyarrow()
    return fmt


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise DavitError("davit: writing Parquet needs pyarrow: pip install 'davit[analysis]'") from None
    return pyarrow


def ranks(scores, winners) -> list[int]:
    keys = [(s in winners, score) for s, score in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def rows(ruleset_id: str, variant: str | None, names, bots, records) -> list[dict]:
    out = []
    for r in records:
        row = {"game": r["game"], "seed": r["seed"], "ruleset": ruleset_id, "variant": variant or "",
               "players": len(names), "length": r["length"], "end_reason": r["end_reason"], "capped": r["capped"],
               "winners": ";".join(str(w) for w in r["winners"])}
        place = ranks(r["scores"], r["winners"])
        for s, name in enumerate(names):
            row[f"seat{s}_name"] = name
            row[f"seat{s}_bot"] = bots[s]
            row[f"seat{s}_score"] = r["scores"][s]
            row[f"seat{s}_rank"] = place[s]
            row[f"seat{s}_won"] = s in r["winners"]
        for name, value in (r.get("metrics") or {}).items():
            row[f"metric_{name}"] = value
        for name, value in (r.get("dynamics") or {}).items():
            row[name] = value
        out.append(row)
    return out


def decision_rows(ruleset_id: str, variant: str | None, names, records) -> list[dict]:
    """One row per decision (``--decisions``): the game, the decision's number from 0, the deciding seat, how
    many options it had, and every seat's score just before it (the trace of :mod:`.dynamics`)."""
    out = []
    for r in records:
        for i, (seat, options, scores) in enumerate(r.get("trace") or []):
            row = {"game": r["game"], "seed": r["seed"], "ruleset": ruleset_id, "variant": variant or "",
                   "decision": i, "seat": seat, "options": options}
            for s in range(len(names)):
                row[f"seat{s}_score"] = scores[s] if s < len(scores) else None
            out.append(row)
    return out


def write_rows(path: str, table: list[dict]) -> None:
    fmt = format_of(path)
    columns = list(dict.fromkeys(key for row in table for key in row)) or ["game"]   # variants' metrics may differ
    table = [{key: row.get(key) for key in columns} for row in table]
    if fmt == "jsonl":
        data = "".join(json.dumps(row) + "\n" for row in table).encode()
    elif fmt == "csv":
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(table)
        data = text.getvalue().encode()
    else:
        pa = _pyarrow()
        buffer = io.BytesIO()
        pa.parquet.write_table(pa.Table.from_pylist(table), buffer)
        data = buffer.getvalue()
    write_atomically(path, data)
