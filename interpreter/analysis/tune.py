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
import re
import shutil
import tempfile
from pathlib import Path

from ..errors import DavitError
from ..load.files import bundled_ids, write_atomically
from ..load.yaml_reader import plain
from ..rules.loading import load_ruleset
from .sweep import base_value, point_text, write_point


def parse_objective(text: str) -> tuple[str, float | None]:
    name, sep, target = text.partition("=")
    if name != "balance" and not sep:
        raise DavitError(f"davit: --objective {name} needs a target, as {name}=60 (only balance has its own)")
    try:
        return name, float(target) if sep else None
    except ValueError:
        raise DavitError(f"davit: the target of --objective must be a number, not {target!r}") from None


def loss(summary: dict, name: str, target: float | None) -> float:
    """How far a point's figures are from the objective (0: on target)."""
    if name == "balance":
        rates = summary["win_rate"]
        fair = sum(rates) / len(rates) if rates else 0.0
        return max(abs(r - fair) for r in rates) if rates else 0.0
    if name == "length":
        return abs(summary["mean_length"] - target)
    for group in ("metrics", "dynamics"):
        entry = (summary.get(group) or {}).get(name)
        if isinstance(entry, dict):
            return abs(entry["mean"] - target)
    known = ["balance", "length", *(summary.get("metrics") or {}),
             *(k for k, v in (summary.get("dynamics") or {}).items() if isinstance(v, dict))]
    raise DavitError(f"davit: no objective '{name}': choose from {', '.join(known)}")


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
        done = sum(1 for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE)
        if trials > done:
            study.optimize(trial_value, n_trials=trials - done, catch=())
    except KeyboardInterrupt:
        pass   # the finished trials are in the storage: the same command resumes
    finally:
        shutil.rmtree(folder, ignore_errors=True)
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
        "all_equal": len({t.value for t in finished}) == 1}
    if best.user_attrs.get("base"):
        result["out"] = None
        return result
    values = ", ".join(f"{p}={v}" for p, v in best.params.items())
    goal = name if target is None else f"{name}={target:g}"
    # a file read later must not claim a best value that no trial told apart from the others
    claim = f"every trial gave the same {goal} loss, so {values} is no better than the others" \
        if result["all_equal"] else f"{values} brings {goal} closest"
    text = point_text(data, dict(best.params), _variant_id(out),
                      f"davit tune: {claim} (loss {best.value:.4g} over {games} games "
                      f"a trial, agents {agents}, seed {seed})",
                      extends=str(ref) if str(ref) in bundled_ids() else None)
    write_atomically(out, text.encode())  # type: ignore[union-attr]  # not the base point (above): it changes a value
    result["out"] = out
    return result
