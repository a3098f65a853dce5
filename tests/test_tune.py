"""``davit tune``: an Optuna study over a ruleset's numbers, resumable, its winner a variant file."""
import json
import random

import pytest
import yaml
from cli_runner import run as _run

from interpreter.analysis.dynamics import PER_GAME
from interpreter.analysis.runner import RunSpec
from interpreter.analysis.simulate import play
from interpreter.analysis.summary import summarize
from interpreter.analysis.tune import _claim, loss, loss_of_games, objective_names, paired_check, parse_objective
from interpreter.errors import DavitError
from interpreter.rules.loading import load_ruleset

pytest.importorskip("optuna", reason="tune needs Optuna (pip install '.[analysis]')")


def _tune(capsys, tmp_path, *extra):
    rc = _run(["tune", *extra, "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return json.loads(out.out)


def test_objectives():
    assert parse_objective("balance") == ("balance", None)
    assert parse_objective("length=60") == ("length", 60.0)
    with pytest.raises(DavitError, match="needs a target"):
        parse_objective("length")
    summary = {"win_rate": [0.3, 0.2, 0.25, 0.25], "mean_length": 50, "metrics": {"capsized": {"mean": 2.5}},
               "dynamics": {"lead_changes": {"mean": 1.5}}}
    assert loss(summary, "balance", None) == pytest.approx(0.05)
    assert loss(summary, "length", 60) == 10
    assert loss(summary, "capsized", 3) == 0.5 and loss(summary, "lead_changes", 2) == 0.5
    with pytest.raises(DavitError, match="choose from balance, length, capsized"):
        loss(summary, "capsize", 3)


@pytest.mark.slow
def test_tune_writes_a_variant_that_plays(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _tune(capsys, tmp_path, "tutorial", "--set", "zones.lifeboat.capacity=2..8", "--objective", "balance",
                   "--trials", "8", "--out", "v.yaml", "--players", "2")
    assert len(result["trials"]) == 8 and result["out"] == "v.yaml"
    assert result["all_equal"]        # random crews never fill a boat: every capacity plays alike
    written = load_ruleset("tutorial", "v.yaml")
    assert written.variant == "v"
    assert "every trial gave the same balance loss" in (tmp_path / "v.yaml").read_text()   # no false "best"
    assert _run(["play", "tutorial", "--variant", "v.yaml", "--players", "2", "--quiet"]) == 0
    assert (tmp_path / "v.optuna.db").exists()


@pytest.mark.slow
def test_an_interrupted_study_resumes(tmp_path, capsys):
    argv = ["der-mythos", "--set", "constants.overload_limits.4=14..30", "--objective", "capsized=3", "--games",
            "60", "--out", str(tmp_path / "dm.yaml")]
    first = _tune(capsys, tmp_path, *argv, "--trials", "3")
    more = _tune(capsys, tmp_path, *argv, "--trials", "5", "--report", str(tmp_path / "tune.html"))
    page = (tmp_path / "tune.html").read_text()
    assert page.count("<svg") == 2 and "Best loss at each value of constants.overload_limits.4" in page
    assert more["trials"][:3] == first["trials"] and len(more["trials"]) == 5
    best = more["best"]
    assert best["loss"] == min(t["loss"] for t in more["trials"])
    limits = load_ruleset("der-mythos", str(tmp_path / "dm.yaml")).data["constants"]["overload_limits"]
    assert limits[4] == best["set"]["constants.overload_limits.4"] and limits[2] == 12


def test_tune_refuses_an_out_that_is_no_variant_file(capsys):
    rc = _run(["tune", "tutorial", "--set", "zones.lifeboat.capacity=2..8", "--objective", "balance",
               "--out", "v.csv"])
    assert rc == 1 and "name --out FILE.yaml" in capsys.readouterr().err


# -- the check of the best point on fresh games ----------------------------------------------------

def test_the_loss_of_games_is_the_loss_of_their_summary():
    # the check's bootstrap reads the loss straight from the games: it must be the loss the trials minimised
    records = play([RunSpec("der-mythos", None, 4)], 40, 3).games(0)
    summary = summarize(records, 4, True)
    metrics = {m.name for m in load_ruleset("der-mythos").metrics}
    assert metrics and all(name in summary["metrics"] for name in metrics)
    objectives = [("balance", None), ("length", 30.0), *((m, 2.0) for m in sorted(metrics)),
                  *((d, 1.5) for d in [*PER_GAME, "drawishness"])]
    for name, target in objectives:
        assert loss_of_games(name, target, 4, metrics)(records) == pytest.approx(loss(summary, name, target)), name


def test_the_check_tells_a_gain_from_luck():
    objective = loss_of_games("length", 30.0, 2, set())
    base = [{"length": 40 + i % 5} for i in range(60)]
    nearer = [{"length": 30 + i % 5} for i in range(60)]
    check = paired_check(nearer, base, objective, seed=0)
    assert check["better"] and check["difference"] == pytest.approx(-10.0) and check["difference_ci"][1] < 0
    assert (check["best_loss"], check["base_loss"], check["games"]) == (pytest.approx(2.0), pytest.approx(12.0), 60)
    # the same games: no difference at all
    same = paired_check(base, base, objective, seed=0)
    assert not same["better"] and same["difference_ci"] == [0, 0]
    # lengths that differ game by game but not on the whole: the interval takes in 0
    draw = random.Random(5)
    noisy = [{"length": 42 + draw.choice((-3, 3))} for _ in range(60)]   # the base's mean, 42, give or take
    assert not paired_check(noisy, base, objective, seed=0)["better"]


def test_tune_checks_its_best_point_on_fresh_games(tmp_path, capsys):
    out = tmp_path / "dm.yaml"
    result = _tune(capsys, tmp_path, "der-mythos", "--set", "constants.overload_limits.4=14..30", "--objective",
                   "capsized=3", "--games", "60", "--trials", "4", "--out", str(out))
    check = result["check"]
    assert check["games"] == 60 and check["seed"] != 0
    lo, hi = check["difference_ci"]
    assert lo <= check["difference"] <= hi and check["better"] == (hi < 0)
    description = " ".join(yaml.safe_load(out.read_text())["description"].split())
    assert "fresh games" in description
    assert ("closer than the base values" in description) == check["better"]


def test_a_best_point_the_fresh_games_do_not_confirm_is_said_to_be_maybe_luck():
    result = {"all_equal": False, "check": {"games": 6, "best_loss": 0.3, "base_loss": 0.5, "difference": -0.2,
                                            "difference_ci": [-0.5, 0.1], "better": False}}
    assert "may be luck" in _claim(result, "x=3", "capsized=3")
    result["check"] = None
    assert "not checked on fresh games" in _claim(result, "x=3", "capsized=3")


@pytest.mark.parametrize("rid, players", [("der-mythos", 4), ("sos-titanic", 3)])
def test_the_objectives_named_up_front_are_those_a_summary_answers(rid, players):
    rs = load_ruleset(rid)
    rivals = rs.team_var is None
    summary = summarize(play([RunSpec(rid, None, players)], 6, 1).games(0), players, rivals)
    answered = {"balance", "length", *summary.get("metrics", {}),
                *(k for k, v in summary["dynamics"].items() if isinstance(v, dict))}
    assert set(objective_names(rs, players)) == answered
    for name in objective_names(rs, players):
        loss(summary, name, 1.0)   # each one answered (an unknown one raises)


def test_an_unknown_objective_is_refused_before_any_trial(tmp_path, capsys):
    rc = _run(["tune", "der-mythos", "--set", "constants.overload_limits.4=14..30", "--objective", "capsised=3",
               "--out", str(tmp_path / "v.yaml")])
    err = capsys.readouterr().err
    assert rc == 1 and "no objective 'capsised': choose from balance, length, " in err and "capsized" in err
    assert not (tmp_path / "v.optuna.db").exists()   # no study was begun
