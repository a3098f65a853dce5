"""A ruleset's ``metrics:``: what simulate and compare read after every game, in its three forms."""
import csv
import json

import pytest
from cli_runner import run as _run

from interpreter.analysis.runner import RunSpec, play_chunk
from interpreter.errors import DavitError
from interpreter.load.files import bundled_ids, resolve_ruleset, variants_of
from interpreter.rules.loading import load_ruleset

EVENT_FORMS = """variant: event-forms
extends: der-mythos
metrics:
  capsize_moves:
    count: {e: move, to: capsized}
  funnel_seen:
    first: {e: flip, thing: broken-funnel}
    at: round
  decisions_before_funnel:
    first: {e: flip, thing: broken-funnel}
  plays:
    count: {e: decide, action: play}
"""


def _json(capsys, *argv):
    rc = _run([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


@pytest.mark.slow
def test_simulate_reports_der_mythos_metrics_with_intervals(capsys):
    result = _json(capsys, "simulate", "der-mythos", "--games", "500")
    metrics = result["metrics"]
    assert set(metrics) >= {"capsized", "funnel_round"}
    for m in metrics.values():
        assert m["games"] == 500
        low, high = m["ci"]
        assert low < m["mean"] < high
    assert 1 <= metrics["capsized"]["mean"] <= 8
    assert metrics["funnel_round"]["range"][0] >= 2 and metrics["funnel_round"]["range"][1] <= 9
    assert set(metrics) >= {"overloaded", "passengers_lost"}
    for name, measure in result["dynamics"].items():      # issue 27: every dynamics entry with a mean and interval
        for entry in measure if isinstance(measure, list) else [measure]:
            low, high = entry["ci"]
            assert low <= entry["mean"] <= high, name
    rc = _run(["simulate", "der-mythos", "--games", "20"])
    out = capsys.readouterr().out
    assert rc == 0 and "funnel_round" in out and "20 of 20" in out


def test_der_mythos_counts_agree_game_by_game():
    # a boat capsizes overloaded or with the (one) broken funnel; an overloaded boat of 4 players holds more
    # than 24 passengers
    for r in play_chunk(RunSpec("der-mythos", None, 4), [(i, 300 + i) for i in range(40)]):
        m = r["metrics"]
        assert m["overloaded"] <= m["capsized"] <= m["overloaded"] + 1
        assert m["passengers_lost"] >= 25 * m["overloaded"]
        assert (m["passengers_lost"] == 0) == (m["capsized"] == 0)


TITANIC_GAMES = ["collapsible-d", "der-mythos", "sos-titanic", "titanic", "titanic-board-game", "tutorial"]


def _every_variant():
    for ruleset in bundled_ids():
        yield pytest.param(ruleset, None, id=ruleset)
        for variant in variants_of(resolve_ruleset(ruleset)[0]):   # slow: the fast tier reads each base game
            yield pytest.param(ruleset, variant, id=f"{ruleset}+{variant}", marks=pytest.mark.slow)


@pytest.mark.parametrize("ruleset,variant", list(_every_variant()))
def test_every_bundled_metric_has_a_value_in_every_game_of_every_variant(ruleset, variant):
    # issue 27: every bundled ruleset declares the counts its designer asks for (the Titanic games several), and
    # they read every variant's games
    rs = load_ruleset(ruleset, variant)
    assert len(rs.metrics) >= (2 if ruleset in TITANIC_GAMES else 1), (ruleset, variant)
    players = max(rs.min_players, min(4, rs.max_players))
    for record in play_chunk(RunSpec(ruleset, variant, players), [(0, 21), (1, 22)]):
        values = record["metrics"]
        assert set(values) == {m.name for m in rs.metrics}, (ruleset, variant)
        assert all(isinstance(v, (int, float)) for v in values.values()), (ruleset, variant, values)


def test_event_forms_agree_with_the_final_position(tmp_path):
    variant = tmp_path / "event-forms.yaml"
    variant.write_text(EVENT_FORMS)
    records = play_chunk(RunSpec("der-mythos", str(variant), 4), [(i, 100 + i) for i in range(30)])
    plain = play_chunk(RunSpec("der-mythos", None, 4), [(i, 100 + i) for i in range(30)])
    for r, base in zip(records, plain):
        m = r["metrics"]
        assert m["capsize_moves"] == m["capsized"]              # a move into the zone, or the zone counted at the end
        assert m["funnel_seen"] == m["funnel_round"]            # the round the flip happened in
        assert m["plays"] == r["length"] == 36
        assert 0 < m["decisions_before_funnel"] < 36
        # keeping the log for the event forms changes no game
        assert {k: v for k, v in r.items() if k != "metrics"} == {k: v for k, v in base.items() if k != "metrics"}


def test_a_variant_adds_and_changes_metrics_by_name(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: v\nextends: der-mythos\nmetrics:\n  capsized: {value: \"count(lowered)\"}\n"
                       "  rounds_played: {value: rounds}\n")
    rs = load_ruleset("der-mythos", str(variant))
    declared = [m.name for m in load_ruleset("der-mythos").metrics]
    assert declared[0] == "capsized" and [m.name for m in rs.metrics] == declared + ["rounds_played"]
    (record,) = play_chunk(RunSpec("der-mythos", str(variant), 4), [(0, 5)])
    (base,) = play_chunk(RunSpec("der-mythos", None, 4), [(0, 5)])
    assert record["metrics"]["capsized"] == 8 - base["metrics"]["capsized"]   # every boat is lowered or capsized
    assert record["metrics"]["rounds_played"] == 9


@pytest.mark.parametrize("metric, message", [
    ("{value: \"1\", count: {e: move}}", "metrics.m"),
    ("{count: {e: moved}}", "moved"),
    ("{count: {e: move, to: capsize}}", "no zone 'capsize'"),
    ("{first: {e: flip, thing: broken-funel}}", "no thing 'broken-funel'"),
    ("{count: {e: move}, at: round}", "'at' goes with 'first' only"),
    ("{value: \"count(nowhere)\"}", "nowhere"),
])
def test_mistakes_in_metrics_are_errors_at_their_line(tmp_path, metric, message):
    variant = tmp_path / "bad.yaml"
    variant.write_text(f"variant: bad\nextends: der-mythos\nmetrics:\n  m: {metric}\n")
    with pytest.raises(DavitError) as caught:
        load_ruleset("der-mythos", str(variant))
    assert message in str(caught.value)
    assert "bad.yaml:4" in str(caught.value)


def test_a_metric_of_another_type_says_so(tmp_path):
    variant = tmp_path / "bad.yaml"
    variant.write_text("variant: bad\nextends: der-mythos\nmetrics:\n  m: {value: \"ship\"}\n")
    with pytest.raises(DavitError, match="metric 'm' must give a number or a condition"):
        play_chunk(RunSpec("der-mythos", str(variant), 4), [(0, 1)])


@pytest.mark.slow   # a statistical comparison played out
def test_compare_pairs_metrics_and_out_exports_them(tmp_path, capsys):
    variant = tmp_path / "four.yaml"
    variant.write_text("variant: four\nextends: der-mythos\n"
                       "constants:\n  overload_limits: {2: 8, 3: 12, 4: 16, 5: 20}\n")
    out = tmp_path / "games.csv"
    result = _json(capsys, "compare", "der-mythos", "--variant", str(variant), "--games", "100", "--out", str(out))
    rows = {row["figure"]: row for row in result["comparisons"][0]["figures"]}
    capsized = rows["metric[capsized]"]
    assert capsized["paired"] and capsized["differs"] and capsized["difference"] > 0   # lower limits: more capsize
    assert rows["metric[funnel_round]"]["changed"] == 0                                 # the same ships
    with out.open() as f:
        table = list(csv.DictReader(f))
    assert len(table) == 200 and {"metric_capsized", "metric_funnel_round"} <= set(table[0])


def test_a_variant_that_only_adds_metrics_has_the_same_rules(tmp_path, capsys):
    variant = tmp_path / "more.yaml"
    variant.write_text(EVENT_FORMS)
    rc = _run(["compare", "der-mythos", "--variant", str(variant), "--games", "5"])
    assert rc == 1 and "has the same rules as the base game" in capsys.readouterr().err
    result = _json(capsys, "compare", "der-mythos", "--variant", str(variant), "--games", "40", "--allow-same")
    assert result["comparisons"][0]["identical_games"] == 40


def test_a_metric_read_every_round(capsys, tmp_path):
    result = _json(capsys, "simulate", "der-mythos", "--games", "100")
    by_round = result["metrics"]["capsized"]["by_round"]
    assert list(by_round) == [str(r) for r in range(1, 10)]
    means = [r["mean"] for r in by_round.values()]
    assert means[0] == means[1] == 0 and means == sorted(means)   # no boat before round 2; boats only add up
    assert means[-1] <= result["metrics"]["capsized"]["mean"]      # the last round's boat comes after
    assert all(r["games"] == 100 for r in by_round.values())
    page = tmp_path / "r.html"
    assert _run(["simulate", "der-mythos", "--games", "20", "--report", str(page)]) == 0
    assert "capsized as each round began" in page.read_text()
    capsys.readouterr()
    variant = tmp_path / "bad.yaml"
    variant.write_text("variant: bad\nextends: der-mythos\nmetrics:\n  m: {count: {e: move}, every: round}\n")
    with pytest.raises(DavitError, match="'every' goes with 'value' only"):
        load_ruleset("der-mythos", str(variant))


def test_a_condition_metric_gets_a_share_interval_that_stays_within_0_and_1():
    from interpreter.analysis import stats
    from interpreter.analysis.summary import metrics_summary
    records = [{"metrics": {"lowered": 1.0 if i == 0 else 0.0, "count": float(i % 3)}} for i in range(300)]
    out = metrics_summary(records)
    # one game in 300: Student t would give a lower bound below 0; a share gets Wilson's interval
    assert out["lowered"]["ci"] == list(stats.wilson(1, 300)) and out["lowered"]["ci"][0] > 0
    assert out["count"]["ci"] == list(stats.mean_interval([float(i % 3) for i in range(300)]))
    low, high = metrics_summary([{"metrics": {"lowered": 0.0}}] * 50)["lowered"]["ci"]
    assert low == 0 and 0 < high < 0.1
