"""Rule coverage: how often each action was offered and taken, and each trigger fired.

Everything is read from the public API and the event log, never from the
compiled rules: *offered* counts the decisions at which an action was among
the legal actions an agent was given; *taken* counts the log's ``decide``
events; a trigger counts its ``trigger`` events (``{"e": "trigger", "id": …}``),
which the game records each time a trigger fires.
"""
from __future__ import annotations

from collections import Counter

from ..machine.waits import CHOOSE, PASS

TRIGGER_EVENT = "trigger"


def game_coverage(log, offered: Counter) -> dict:
    """One game's counts: actions offered (decisions), taken, triggers fired."""
    taken: Counter = Counter()
    fired: Counter = Counter()
    for event in log:
        kind = event.get("e")
        if kind == "decide":
            taken[event["action"]["action"]] += 1
        elif kind == TRIGGER_EVENT:
            fired[str(event.get("id"))] += 1
    return {"offered": dict(offered), "taken": dict(taken), "triggers": dict(fired)}


def coverage_summary(ruleset, records) -> dict:
    """The run's coverage: one row per action and per trigger, and what never happened."""
    offered: Counter = Counter()
    taken: Counter = Counter()
    games_taken: Counter = Counter()
    fired: Counter = Counter()
    games_fired: Counter = Counter()
    for record in records:
        cov = record["coverage"]
        offered.update(cov["offered"])
        taken.update(cov["taken"])
        games_taken.update(cov["taken"].keys())
        fired.update(cov["triggers"])
        games_fired.update(cov["triggers"].keys())
    names = list(ruleset.actions)
    # ending a turn and answering a choice are decisions too, but not actions of the ruleset:
    # they are listed only when they happened, after the ruleset's own actions
    extra = [n for n in (PASS, CHOOSE) if offered[n] or taken[n]]
    extra += sorted(n for n in set(offered) | set(taken) if n not in names and n not in extra)
    actions = [{"id": n, "kind": "action" if n in ruleset.actions else "decision", "offered": offered[n],
                "taken": taken[n], "games": games_taken[n]} for n in names + extra]
    triggers = [{"id": t.id, "fired": fired[t.id], "games": games_fired[t.id]} for t in ruleset.triggers]
    return {
        "games": len(records),
        "actions": actions,
        "triggers": triggers,
        "never_offered": [n for n in names if not offered[n]],
        "never_taken": [n for n in names if not taken[n]],
        "never_fired": [t.id for t in ruleset.triggers if not fired[t.id]],
    }


def coverage_lines(cov: dict) -> list[str]:
    """The coverage as text for people."""
    n = cov["games"]
    lines = [f"rule coverage over {n} games (offered: decisions at which the action was legal; "
             "taken: times chosen; games: games in which it was taken)",
             f"{'action':<28}{'offered':>10}{'taken':>10}{'games':>8}"]
    for row in cov["actions"]:
        label = row["id"] + ("" if row["kind"] == "action" else " *")
        lines.append(f"{label:<28}{row['offered']:>10}{row['taken']:>10}{row['games']:>8}")
    if any(row["kind"] != "action" for row in cov["actions"]):
        lines.append(f"  * not an action of the ruleset: '{PASS}' ends a turn, "
                     f"'{CHOOSE}' answers a choice inside a rule")
    if cov["triggers"]:
        lines.append(f"{'trigger':<28}{'fired':>10}{'games':>18}")
        lines += [f"{t['id']:<28}{t['fired']:>10}{t['games']:>18}" for t in cov["triggers"]]
    else:
        lines.append("triggers: the ruleset has none")
    lines.append("never offered: " + (", ".join(cov["never_offered"]) or "none"))
    lines.append("never taken: " + (", ".join(cov["never_taken"]) or "none"))
    lines.append("never fired: " + (", ".join(cov["never_fired"]) or "none"))
    return lines
