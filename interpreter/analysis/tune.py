"""``davit tune``: the values of a ruleset's numbers that bring one figure closest to its target (Optuna).

Each trial is a point of :mod:`.sweep` (a variant file in a temporary
folder) played on the same seeds with the same bots, so trials differ only
by their values. Optuna's TPE sampler (seeded) proposes the values; a range
``2..8`` is searched as whole numbers, a list ``3,5,8`` as choices. The
study is kept in an SQLite file (``--storage``, by default beside ``--out``),
so a run stopped by Ctrl-C resumes where it stopped; a study is named by the
question (ruleset, values, objective, games, seed, bots), so another
question never mixes with it.

Objectives, each a loss to bring to 0:

* ``balance``: the largest gap between a seat's win rate and the average
  seat's (every seat winning as often gives 0);
* ``length=TARGET``: the distance of the mean game length from TARGET;
* ``NAME=TARGET``: the distance of a declared metric's mean (or a dynamics
  measure's, such as ``lead_changes``) from TARGET.

The winner is written as a variant file ready for ``play`` and ``compare``.
"""
from __future__ import annotations

import hashlib
import math
import random
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..errors import DavitError
from ..load.files import bundled_ids, write_atomically
from ..load.yaml_reader import plain
from ..machine import rng
from ..rules.loading import load_ruleset
from . import stats
from .dynamics import PER_GAME, measure_mean
from .sweep import base_value, point_text, write_point

CHECK_RESAMPLES = 1000   # the paired bootstrap of the best point against the base values
CHECK_SEED_INDEX = 1 << 40   # the check's master seed: derived from --seed, unlike any trial's games


def parse_objective(text: str) -> tuple[str, float | None]:
    name, sep, target = text.partition("=")
    if name != "balance" and not sep:
        raise DavitError(f"davit: --objective {name} needs a target, as {name}=60 (only balance has its own)")
    try:
        goal = float(target) if sep else None
    except ValueError:
        raise DavitError(f"davit: the target of --objective must be a number, not {target!r}") from None
    if goal is not None and not math.isfinite(goal):
        # nan failed every trial ("no trial finished"); inf made every point equally far, the best one by chance
        raise DavitError(f"davit: the target of --objective must be a finite number, not {goal}")
    return name, goal


def loss(summary: dict, name: str, target: float | None) -> float:
    """How far a point's figures are from the objective (0: on target)."""
    if name == "balance":
        return _largest_gap(summary["win_rate"])
    if name == "length":
        return abs(summary["mean_length"] - target)
    for group in ("metrics", "dynamics"):
        entry = (summary.get(group) or {}).get(name)
        if isinstance(entry, dict):
            return abs(entry["mean"] - target)
    known = ["balance", "length", *(summary.get("metrics") or {}),
             *(k for k, v in (summary.get("dynamics") or {}).items() if isinstance(v, dict))]
    raise DavitError(f"davit: no objective '{name}': choose from {', '.join(known)}")


def _largest_gap(rates: list) -> float:
    """The balance loss: the largest gap between a seat's win rate and the average seat's."""
    fair = sum(rates) / len(rates) if rates else 0.0
    return max(abs(r - fair) for r in rates) if rates else 0.0


def objective_names(ruleset, players: int) -> list[str]:
    """The objectives a run of ``ruleset`` can be tuned for, as :func:`loss` finds them in its summary: the
    balance, the length, each declared metric, and the dynamics measures that are means (those of seats
    playing against each other only where they do)."""
    rivals = ruleset.team_var is None and players > 1
    measures = [m for m, (needs_rivals, _) in PER_GAME.items() if rivals or not needs_rivals]
    return list(dict.fromkeys(["balance", "length", *(m.name for m in ruleset.metrics), *measures, "drawishness"]))


def loss_of_games(name: str, target: float | None, players: int, metrics) -> Callable[[list], float]:
    """``records -> loss``: what :func:`loss` gives from the records' summary (a declared metric before a
    dynamics measure of the same name, as there), reading only what the objective needs: a summary works out
    every figure with its interval, and a bootstrap asks for a thousand."""
    if name == "balance":
        def balance(records) -> float:
            wins = [0] * players
            for r in records:
                for w in r["winners"]:
                    wins[w] += 1
            return _largest_gap([w / len(records) for w in wins] if records else [])
        return balance
    goal = float(target or 0.0)   # (parse_objective: every objective but balance has a target)
    if name == "length":
        return lambda records: abs(stats.mean_sd([r["length"] for r in records])[0] - goal)
    if name not in metrics:
        return lambda records: abs(measure_mean(name, records, players) - goal)
    return lambda records: abs(stats.mean_sd([v for r in records if (v := (r.get("metrics") or {}).get(name))
                                              is not None])[0] - goal)


def paired_check(best: list, base: list, objective, seed: int, resamples: int = CHECK_RESAMPLES) -> dict:
    """The best point's loss against the base values' on the same (fresh) games, and a 95% interval of the
    difference by resampling the games in pairs (a game of each, with the same seed, stays together)."""
    n = len(best)
    draw = random.Random(seed)
    differences = []
    for _ in range(resamples):
        picked = [draw.randrange(n) for _ in range(n)]
        differences.append(objective([best[i] for i in picked]) - objective([base[i] for i in picked]))
    differences.sort()
    best_loss, base_loss = objective(best), objective(base)
    low, high = stats.percentile_interval(differences)
    return {"games": n, "best_loss": best_loss, "base_loss": base_loss, "difference": best_loss - base_loss,
            "difference_ci": [low, high], "better": high < 0}


def _optuna():
    try:
        import optuna
    except ImportError:
        raise DavitError("davit: tune needs Optuna: pip install 'davit[analysis]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _variant_id(out: str) -> str:
    stem = re.sub(r"[^a-z0-9-]+", "-", Path(out).stem.lower()).strip("-")
    return stem if stem and stem[0].isalpha() else f"tuned-{stem}".rstrip("-")


def tune(ref, sets: list[tuple[str, list]], objective: tuple[str, float | None], trials: int, out: str,
         games: int, players: int, seed: int = 0, workers: int = 1, agents: str = "random",
         max_length: int | None = None, backend: str = "local", address: str | None = None,
         storage: str | None = None, base_variant: str | None = None) -> dict:
    """Run (or resume) the study, write the best point to ``out``; the trials and the best point."""
    from .runner import RunSpec
    from .simulate import play
    from .summary import summarize
    optuna = _optuna()
    base = load_ruleset(ref, base_variant)
    data = plain(base.data)
    for path, _ in sets:
        base_value(data, path)
    name, target = objective
    known = objective_names(base, players)
    if name not in known:   # said before any trial: it was found only when the first trial's games were played
        raise DavitError(f"davit: no objective '{name}': choose from {', '.join(known)}")
    question = repr((base.id, base_variant, sets, objective, games, players, seed, agents, max_length))
    storage = storage or str(Path(out).with_suffix(".optuna.db"))
    study = optuna.create_study(study_name="davit-" + hashlib.sha256(question.encode()).hexdigest()[:16],
                                storage=f"sqlite:///{Path(storage).resolve()}", load_if_exists=True,
                                direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    folder = Path(tempfile.mkdtemp(prefix="davit-tune-"))

    def trial_value(trial) -> float:
        changes = {}
        for path, values in sets:
            if all(isinstance(v, int) and not isinstance(v, bool) for v in values) and \
                    values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
                changes[path] = trial.suggest_int(path, values[0], values[-1])
            else:
                changes[path] = trial.suggest_categorical(path, values)
        variant = write_point(folder, trial.number, data, changes)
        if variant and base_variant:
            variant = f"{base_variant}+{variant}"
        variant = variant or base_variant
        rs = load_ruleset(ref, variant)
        run = play([RunSpec(str(ref), variant, players, agents, max_length)], games, seed, workers, None,
                   backend, address)
        if run.interrupted:
            raise KeyboardInterrupt
        summary = summarize(run.games(0), players, rs.team_var is None)
        trial.set_user_attr("base", variant == base_variant)
        if "search_troubles" in summary:   # kept with the trial, so a resumed study still tells of them
            trial.set_user_attr("search_troubles", summary["search_troubles"])
        return loss(summary, name, target)

    try:
        try:
            done = sum(1 for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE)
            if trials > done:
                study.optimize(trial_value, n_trials=trials - done, catch=())
        except KeyboardInterrupt:
            pass   # the finished trials are in the storage: the same command resumes
        finished = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
        if not finished:
            raise DavitError("davit: no trial finished: nothing to write")
        # ties go to a point that changes the game: the base game cannot be written as a variant
        best = min(finished, key=lambda t: (t.value, bool(t.user_attrs.get("base")), t.number))
        result = {"objective": name, "target": target, "storage": storage, "trials": [
            {"number": t.number, "set": dict(t.params), "loss": t.value,
             **({"search_troubles": t.user_attrs["search_troubles"]} if "search_troubles" in t.user_attrs else {})}
            for t in finished],
            "best": {"number": best.number, "set": dict(best.params), "loss": best.value},
            "all_equal": len({t.value for t in finished}) == 1, "check": None}
        if best.user_attrs.get("base"):
            result["out"] = None
            return result
        if not result["all_equal"]:
            # the least loss of many trials is partly luck (each trial's games are a sample): the best point and
            # the base values play again, on games none of the trials played, to see if the gain holds
            spec = RunSpec(str(ref), None, players, agents, max_length)
            point = write_point(folder, best.number, data, dict(best.params))
            both = [replace(spec, variant=f"{base_variant}+{point}" if base_variant else point),
                    replace(spec, variant=base_variant)]
            check_seed = rng.derive(seed, CHECK_SEED_INDEX)
            run = play(both, games, check_seed, workers, None, backend, address)
            if not run.interrupted and run.games(0):   # (a run that lost every game to dead workers: none)
                objective_of = loss_of_games(name, target, players, {m.name for m in base.metrics})
                result["check"] = {"seed": check_seed,
                                   **paired_check(run.games(0), run.games(1), objective_of, seed)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    values = ", ".join(f"{p}={v}" for p, v in best.params.items())
    goal = name if target is None else f"{name}={target:g}"
    text = point_text(data, dict(best.params), _variant_id(out),
                      f"davit tune: {_claim(result, values, goal)} (loss {best.value:.4g} over {games} games "
                      f"a trial, agents {agents}, seed {seed})",
                      extends=str(ref) if str(ref) in bundled_ids() else None)
    write_atomically(out, text.encode())  # type: ignore[union-attr]  # not the base point (above): it changes a value
    result["out"] = out
    return result


def _claim(result: dict, values: str, goal: str) -> str:
    """What the written file may say of its values: a file read later must not claim a best value that no trial
    told apart from the others, nor a gain over the base values that fresh games did not show."""
    if result["all_equal"]:
        return f"every trial gave the same {goal} loss, so {values} is no better than the others"
    check = result["check"]
    if check is None:
        return f"{values} brings {goal} closest of the trials (not checked on fresh games: interrupted)"
    figures = (f"on {check['games']} fresh games, loss {check['best_loss']:.4g} against {check['base_loss']:.4g}, "
               f"difference 95% interval [{check['difference_ci'][0]:+.4g}, {check['difference_ci'][1]:+.4g}]")
    if check["better"]:
        return f"{values} brings {goal} closest of the trials, and closer than the base values ({figures})"
    return (f"{values} gave the least {goal} loss of the trials, but fresh games did not tell it from the base "
            f"values ({figures}): its gain may be luck; more games a trial would tell")
