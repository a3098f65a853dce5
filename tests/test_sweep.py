"""``davit sweep``: several values of a ruleset's numbers, each point a variant, every point on the same seeds."""
import json

import pytest
from cli_runner import run as _run

from interpreter.analysis.sweep import base_value, overlay_for, parse_values, points
from interpreter.errors import DavitError
from interpreter.load.yaml_reader import plain
from interpreter.rules.loading import load_ruleset

TIMING = {"seconds", "games_per_second"}


def _json(capsys, *argv):
    rc = _run([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def test_values_ranges_and_lists():
    assert parse_values("3..6") == [3, 4, 5, 6]
    assert parse_values("3,5,8") == [3, 5, 8]
    assert parse_values("0.5, 1") == [0.5, 1]
    assert parse_values("true,false,draw") == [True, False, "draw"]
    for bad in ("6..3", "a..b"):
        with pytest.raises(DavitError):
            parse_values(bad)
    assert points([("a", [1, 2]), ("b", ["x", "y"])]) == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"},
                                                          {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]


def test_a_huge_range_or_grid_is_refused_before_it_is_made(capsys):
    # a billion values (or a grid of 10^12 points) were made in full before the count was looked at: a
    # MemoryError, reported as an internal error, where a clear refusal belongs
    with pytest.raises(DavitError, match="holds 1,000,000,000 values, more than 10,000"):
        parse_values("1..1000000000")
    assert len(parse_values("1..10000")) == 10_000
    with pytest.raises(DavitError, match="1,000,000,000,000 points are more than 200"):
        points([("a", range(10**6)), ("b", range(10**6))])
    rc = _run(["sweep", "tutorial", "--set", "constants.rounds=1..1000000000", "--games", "1"])
    assert rc == 1 and "give a narrower range" in capsys.readouterr().err


def test_a_point_is_the_smallest_variant_that_sets_it():
    data = plain(load_ruleset("der-mythos").data)
    assert base_value(data, "constants.overload_limits.4") == 24
    assert overlay_for(data, {"constants.overload_limits.4": 20}) == {
        "constants": {"overload_limits": {2: 12, 3: 18, 4: 20, 5: 30}}}     # a constant is replaced whole
    tutorial = plain(load_ruleset("tutorial").data)
    assert overlay_for(tutorial, {"zones.lifeboat.capacity": 5}) == {"zones": [{"id": "lifeboat", "capacity": 5}]}
    assert overlay_for(data, {"limits.max_steps": 30000}) == {"limits": {"max_steps": 30000}}
    with pytest.raises(DavitError, match="did you mean 'lifeboat'"):
        base_value(tutorial, "zones.lifebot.capacity")


@pytest.mark.slow
def test_sweep_gives_every_point_with_intervals(capsys):
    result = _json(capsys, "sweep", "tutorial", "--set", "zones.lifeboat.capacity=3..6", "--games", "300",
                   "--players", "2")
    assert [p["set"] for p in result["points"]] == [{"zones.lifeboat.capacity": c} for c in (3, 4, 5, 6)]
    for point in result["points"]:
        assert point["games"] == 300
        for rate, (low, high) in zip(point["win_rate"], point["win_rate_ci"]):
            assert low <= rate <= high
        assert "rescued" in point["metrics"] and "dynamics" in point


@pytest.mark.slow
def test_every_point_plays_the_same_seeds(capsys):
    argv = ["sweep", "der-mythos", "--set", "constants.overload_limits.4=16,24,30", "--games", "120"]
    result = _json(capsys, *argv)
    capsized = [p["metrics"]["capsized"]["mean"] for p in result["points"]]
    assert capsized == sorted(capsized, reverse=True) and capsized[0] > capsized[-1]   # a higher limit: fewer
    assert len({p["metrics"]["funnel_round"]["mean"] for p in result["points"]}) == 1   # the same ships
    two = _json(capsys, *argv, "--workers", "2")
    def drop(r):
        return {k: v for k, v in r.items() if k not in TIMING}
    assert drop(two) == drop(result)
    rc = _run(argv[:-2] + ["--games", "20"])
    out = capsys.readouterr().out
    assert rc == 0 and "constants.overload_limits.4" in out and "capsized" in out


def test_a_wrong_path_stops_before_any_game(capsys):
    rc = _run(["sweep", "tutorial", "--set", "zones.lifeboat.capacityy=3..6"])
    assert rc == 1
    assert "zones.lifeboat has no 'capacityy'" in capsys.readouterr().err
    rc = _run(["sweep", "tutorial", "--set", "zones.lifeboat.capacity"])
    assert rc == 1 and "PATH=VALUES" in capsys.readouterr().err


def test_sweep_warns_when_no_point_differs(capsys):
    rc = _run(["sweep", "tutorial", "--set", "zones.lifeboat.capacity=3,5", "--games", "30", "--players", "2"])
    assert rc == 0 and "warning: every point gave the very same figures" in capsys.readouterr().out


@pytest.mark.slow   # plays a sweep and draws its figures
def test_sweep_report_draws_each_figure_against_the_values(tmp_path, capsys):
    page = tmp_path / "sweep.html"
    rc = _run(["sweep", "der-mythos", "--set", "constants.overload_limits.4=16,20,24", "--games", "40",
               "--report", str(page)])
    assert rc == 0, capsys.readouterr().err
    html = page.read_text()
    assert "sweep of constants.overload_limits.4" in html
    metrics = load_ruleset("der-mythos").metrics
    assert html.count("<svg") == 2 + len(metrics)     # win rates, length, and each metric of Der Mythos
    assert ">16<" in html and ">24<" in html and "capsized" in html
