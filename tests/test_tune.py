"""``davit tune``: an Optuna study over a ruleset's numbers, resumable, its winner a variant file."""
import json

import pytest
from cli_runner import run as _run

from interpreter.analysis.tune import loss, parse_objective
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
