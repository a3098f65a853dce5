"""Paired comparisons a designer can trust: the tests' own numbers, then what they find on real games.

The calibration test plays Der Mythos against the two variants of
``tools/check_compare_calibration.py`` (an A/A variant that only moves the
random stream, and one giving the first seat 4 points at the start), with
300 games a run: the A/A comparison must rarely read DIFFERS (the Holm
correction keeps the chance of any false DIFFERS at 5%) and the head start
must be found every time, in the first seat's win rate itself (not only in
its score, which moves by exactly 4 in every game). The tool makes the full
measurement (20 A/A runs, 6 head-start runs; docs/analysis.md has its
output); the test plays fewer runs with the same code. No timing is asserted.
"""
import json
import sys
from pathlib import Path

import pytest
from cli_runner import run as _run

from interpreter.analysis import stats
from interpreter.analysis.paired import compare_runs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import check_compare_calibration as calibration  # noqa: E402

write_variants, one_run, _differs = calibration.write_variants, calibration.one_run, calibration.differing


# -- the statistics ------------------------------------------------------------------------------------------


def test_mcnemar_exact_counts_only_the_games_that_changed():
    assert stats.mcnemar_exact(0, 0) == 1.0
    assert stats.mcnemar_exact(0, 5) == pytest.approx(2 / 32)          # five changes one way: not yet 5%
    assert stats.mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    assert stats.mcnemar_exact(3, 12) == stats.mcnemar_exact(12, 3) == pytest.approx(0.03515625)
    assert stats.mcnemar_exact(7, 7) == 1.0
    assert stats.mcnemar_exact(0, 2000) < 1e-300                        # exact integers: no overflow
    assert 0.02 < stats.mcnemar_exact(1000, 1100) < 0.04


def test_paired_rate_interval_holds_the_difference_and_narrows_with_agreement():
    low, high = stats.paired_rate_interval(40, 5, 15, 40)              # 100 games, variant +10 points
    assert low < 0.10 < high and -1 <= low and high <= 1
    assert (round(low, 4), round(high, 4)) == (0.0145, 0.1822)
    # the same rates with the games agreeing less: a wider interval
    wide = stats.paired_rate_interval(30, 15, 25, 30)
    assert wide[1] - wide[0] > high - low
    # nothing changed: an interval around 0, within the bounds
    low, high = stats.paired_rate_interval(0, 0, 0, 50)
    assert low <= 0 <= high and low >= -1


def test_paired_t_and_holm():
    mean, ci, p = stats.paired_t([4, 4, 4, 4])
    assert (mean, ci, p) == (4, (4, 4), 0.0)                            # the same shift in every game: certain
    assert stats.paired_t([0, 0, 0]) == (0, (0, 0), 1.0)
    mean, (low, high), p = stats.paired_t([1, 2, 3, 4, 0])
    assert mean == 2 and low < 2 < high and round(p, 4) == 0.0474
    assert stats.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert stats.holm([]) == []


def _record(i, scores, winners, length=10):
    return {"game": i, "seed": 100 + i, "scores": scores, "winners": winners, "draw": False, "length": length,
            "end_reason": "end", "capped": False}


def test_compare_runs_pairs_games_by_seed_and_corrects_once():
    base = [_record(i, [i % 3, 1], [0] if i % 3 > 1 else [1]) for i in range(60)]
    shifted = [_record(i, [i % 3 + 2, 1], [0] if i % 3 + 2 > 1 else [1]) for i in range(60)]
    out = compare_runs(base, shifted, 2)
    rows = {row["figure"]: row for row in out["figures"]}
    assert out["paired"] and out["correction"] == stats.METHODS["correction"]
    assert rows["mean_score[0]"]["difference"] == 2 and rows["mean_score[0]"]["differs"]
    assert rows["win_rate[0]"]["changed"] == [0, 40] and rows["win_rate[0]"]["differs"]
    assert rows["mean_score[1]"]["testable"] is False and not rows["mean_score[1]"]["differs"]
    assert out["family"] == sum(row["testable"] for row in out["figures"])
    assert out["identical_games"] == 0
    assert "first_seat_win_rate" not in rows
    # other seeds: not paired, the two-sample tests
    other = [dict(r, seed=r["seed"] + 1) for r in shifted]
    unpaired = compare_runs(base, other, 2)
    assert not unpaired["paired"]
    assert {row["test"] for row in unpaired["figures"]} <= {stats.METHODS["proportion_test"],
                                                            stats.METHODS["mean_test"]}


def test_a_team_is_one_figure_not_one_per_seat():
    base = [_record(i, [i % 4, i % 4], [0, 1] if i % 2 else []) for i in range(40)]
    other = [_record(i, [i % 4 + 1, i % 4 + 1], [0, 1]) for i in range(40)]
    figures = [row["figure"] for row in compare_runs(base, other, 2, rivals=False)["figures"]]
    assert figures == ["win_rate[0]", "mean_score[0]", "length", "capped_rate"]


# -- what they find in real games -------------------------------------------------------------------------


@pytest.mark.calibration
def test_an_a_a_run_rarely_differs_and_a_four_point_head_start_is_always_found(tmp_path):
    aa, plus = write_variants(tmp_path)
    runs = {seed: one_run(aa, seed) for seed in range(1, 9)}
    assert all(run["identical_games"] < 300 for run in runs.values())   # the A/A games really are dealt otherwise
    false_alarms = [seed for seed, run in runs.items() if _differs(run)]
    assert len(false_alarms) <= 2, false_alarms          # 20 runs measured: 1 of 20 (docs/analysis.md)
    for seed in range(1, 4):
        comparison = one_run(plus, seed)
        rows = {row["figure"]: row for row in comparison["figures"]}
        assert rows["win_rate[0]"]["differs"], rows["win_rate[0]"]
        base_only, variant_only = rows["win_rate[0]"]["changed"]
        assert base_only == 0 and variant_only > 0       # every changed game went the first seat's way
        assert rows["mean_score[0]"]["difference"] == pytest.approx(4)


@pytest.mark.calibration
def test_the_calibration_tool_prints_every_run_and_judges_by_the_bar(capsys):
    assert calibration.main(["--aa-runs", "2", "--plus-runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == ["A/A seed  1", "A/A seed  2", "A/A", "+4 seed  1", "+4"]
    assert lines[-1] == "+4: found in the first seat's win rate in 1 of 1 runs"
    # a bar no run can pass (fewer than zero false alarms is impossible, so -1 fails on any outcome)
    assert calibration.main(["--aa-runs", "1", "--plus-runs", "0", "--max-false-alarms", "-1"]) == 1


@pytest.mark.slow
def test_the_verdict_line_names_the_effect_first(tmp_path, capsys):
    _, plus = write_variants(tmp_path)
    rc = _run(["compare", "der-mythos", "--variant", plus, "--games", "300", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0, out
    verdict = next(line for line in out.splitlines() if line.startswith("base → "))
    assert verdict.split(": ", 1)[1].startswith("red wins ") and "more often" in verdict
    assert verdict.endswith("everything else: no difference found")
    assert "Holm's step-down correction over all the figures of one comparison" in out
    assert "first_seat_win_rate" not in out


# -- honest warnings ------------------------------------------------------------------------------------------


@pytest.mark.slow   # a statistical comparison played out
def test_a_variant_the_bots_never_meet_is_called_so(capsys):
    rc = _run(["compare", "tutorial", "--variant", "bigger-boat", "--players", "2", "--games", "60", "--json"])
    assert rc == 0
    (comparison,) = json.loads(capsys.readouterr().out)["comparisons"]
    assert comparison["identical_games"] == 60 and comparison["family"] == 0
    rc = _run(["compare", "tutorial", "--variant", "bigger-boat", "--players", "2", "--games", "60"])
    out = capsys.readouterr().out
    assert "warning: every one of the 60 games of bigger-boat ended exactly as its base game" in out
    assert "--agents ismcts:200" in out and "--coverage" in out


@pytest.mark.slow   # a statistical comparison played out
def test_weak_bots_that_find_nothing_are_named(tmp_path, capsys):
    aa, _ = write_variants(tmp_path)
    rc = _run(["compare", "der-mythos", "--variant", aa, "--games", "100", "--seed", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "warning: with random bots no figure tells" in out and "stronger bot" in out
