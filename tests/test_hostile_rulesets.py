"""A ruleset from a stranger cannot hang davit, fill its memory or make a game go on forever.

Each case asks for too much and must end in a located error at load, a
located error in play, or the game's end by length — quickly, never with a
traceback or a MemoryError.
"""
import pytest
from ruleset_builder import load

from interpreter import Game, load_ruleset
from interpreter.agents import make_agents, play_out
from interpreter.errors import DavitError, GameError, LoadError
from interpreter.load.limits import DEFAULT_MAX_DECISIONS, LENGTH_DRAW_REASON, LENGTH_LIMIT_REASON, MAX_WORK
from interpreter.load.yaml_reader import parse_yaml
from interpreter.machine.budget import WorkBudgetError


def _located(exc):
    assert exc.location is not None and exc.location.line, f"no location: {exc}"
    return str(exc)


# --- at load --------------------------------------------------------------------------

@pytest.mark.parametrize("count", [100_000_000, 1_000_000])
def test_a_huge_count_of_things_is_refused_at_load(tmp_path, count):
    with pytest.raises(DavitError) as info:
        load(tmp_path, {"zones": [{"id": "pile"}], "things": [{"id": "coin", "count": count, "start": "pile"}]})
    assert "copies" in _located(info.value)


def test_a_huge_player_count_is_refused_at_load(tmp_path):
    with pytest.raises(DavitError) as info:
        load(tmp_path, {"players": {"min": 1, "max": 50_000_000}, "zones": [{"id": "pile"}],
                        "things": [{"id": "coin", "per_player": True}]})
    assert "players.max" in _located(info.value)


def test_max_steps_cannot_be_raised(tmp_path):
    with pytest.raises(DavitError) as info:
        load(tmp_path, {"limits": {"max_steps": 10 ** 12}})
    assert "limits.max_steps" in _located(info.value)


@pytest.mark.slow
def test_a_huge_yaml_list_is_refused_while_parsing():
    text = "x: [" + ", ".join(["1"] * 430_000) + "]\n"    # about 1.3 MB, under the 2 MB cap
    with pytest.raises(LoadError) as info:
        parse_yaml(text, "big.yaml")
    assert "more than" in _located(info.value)


def test_a_five_thousand_digit_number_is_a_located_error():
    with pytest.raises(LoadError) as info:
        parse_yaml("x: 1\ny: " + "7" * 5000 + "\n", "digits.yaml")
    assert info.value.location.line == 2
    assert "too long" in _located(info.value)


@pytest.mark.parametrize("written", [".nan", ".NaN", ".inf", "-.inf", "1.0e+400"])
def test_a_number_that_is_not_finite_is_a_located_error_where_it_is_written(written):
    # `scale: .nan` passed the schema's `more than 0` (nan > 0 and nan <= 0 are both false) and validate said
    # ok; a constant of .inf or 1.0e+400 was found only when a rule kept it, at the rule's line
    with pytest.raises(LoadError) as info:
        parse_yaml(f"heuristics:\n  scale: {written}\n", "scale.yaml")
    assert (info.value.location.line, info.value.location.column) == (2, 10)
    assert "is not a finite number" in _located(info.value)


@pytest.mark.parametrize("rounds,repeat,said", [
    (None, "rounds", "constant 'rounds' is null"), (2.5, "rounds", "constant 'rounds' is 2.5"),
    (-3, "rounds", "constant 'rounds' is -3"), (10 ** 9, "rounds", "constant 'rounds' is 1000000000"),
    ({"by_players": {1: 2, 2: -1}}, "rounds", "constant 'rounds' is -1"),
    (2, 10 ** 9, "the repeat count is 1000000000")])
def test_a_repeat_count_that_is_not_a_whole_number_in_range_is_refused_at_load(tmp_path, rounds, repeat, said):
    # range() of it was made in play: null and 2.5 stopped with Python's TypeError (or played 2 rounds),
    # 10**9 ran out of memory, and -3 played no round at all without a word
    with pytest.raises(DavitError) as info:
        load(tmp_path, {"constants": {"rounds": rounds}, "flow": [{"repeat": repeat, "steps": [{"do": "pass"}]}]})
    assert said + ", but a repeat count must be a whole number from 0 to 100,000" in _located(info.value)


@pytest.mark.parametrize("repeat,said", [("rounds - 10", "-6"), ("rounds / 8", "0.5"),
                                         ("rounds * 1000000000", "4000000000")])
def test_a_repeat_count_worked_out_in_play_is_a_whole_number_in_range(tmp_path, repeat, said):
    # rounds - 10 played no round, rounds / 8 none (int(0.5)), rounds * 10**9 ran out of memory
    rs = load(tmp_path, {"constants": {"rounds": 4}, "variables": {"played": 0},
                         "flow": [{"repeat": repeat, "steps": [{"do": "played = played + 1"}]}]})
    with pytest.raises(GameError) as info:
        Game(rs, 1, seed=0)
    where = info.value.location
    assert f"the repeat count is {said}, but a repeat count must be a whole number from 0 to 100,000" in str(info.value)
    assert where is not None and where.file.endswith("ruleset.yaml") and where.line > 1


def test_a_repeat_count_that_works_out_whole_is_taken(tmp_path):
    rs = load(tmp_path, {"constants": {"rounds": 4}, "variables": {"played": 0},
                         "flow": [{"repeat": "rounds / 2", "steps": [{"do": "played = played + 1"}]},
                                  {"repeat": "rounds - 4", "steps": [{"do": "played = played + 10"}]}]})
    game = Game(rs, 1, seed=0)
    assert game.is_over and game.state.vars["played"] == 2


@pytest.mark.parametrize("section,spec", [("constants", {"while": 3}), ("variables", {"pass": 0}),
                                          ("functions", {"for": {"value": "1"}})])
def test_a_name_spelt_like_a_word_of_the_language_is_refused_at_load(tmp_path, section, spec):
    # no rule can read or set it: it was only warning[unused], and the ruleset loaded
    with pytest.raises(DavitError) as info:
        load(tmp_path, {section: spec})
    assert "is named like a word of the rules language" in _located(info.value)


def test_the_words_refused_as_names_are_the_grammars_keywords():
    # the refused words are read from the grammar; each is one no rule can use as a name
    from interpreter.dsl.parser import keywords, parse
    words = keywords()
    assert {"for", "while", "pass", "none", "true", "return"} <= words and "score" not in words
    parse("score = 1", "block")
    for word in words:
        with pytest.raises(DavitError):
            parse(f"{word} = 1", "block")


def test_a_thing_name_cannot_ask_for_a_huge_string(tmp_path):
    rs = load(tmp_path, {"zones": [{"id": "pile"}],
                         "things": [{"id": "coin", "name": "coin {value:>999999999}", "each": {"value": [1]},
                                     "start": "pile"}]})
    assert Game(rs, 1).table.things["coin-1"].name == "coin {value:>999999999}"


# --- in play --------------------------------------------------------------------------

def _play_error(tmp_path, setup, variables=None):
    rs = load(tmp_path, {"variables": variables or {"x": 0}, "setup": setup})
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    return _located(info.value)


def test_a_huge_range_is_a_located_error(tmp_path):
    assert "range() of 1000000000 numbers" in _play_error(tmp_path, "x = count(range(1000000000))")


# Each case makes a value too large where it is made, in a global or only in a local or an argument:
# the game stops at the `+` or `*` that would make it, before memory fills.
GROWING = {
    "squaring a global": ("x = 2\nfor i in range(45):\n  x = x * x", "more than 100 digits cannot be"),
    "squaring a local": ("y = 2\nfor i in range(45):\n  y = y * y", "more than 100 digits cannot be"),
    "doubling a number by minus": ("y = 3\nfor i in range(1000):\n  y = y - (0 - y)", "more than 100 digits"),
    "doubling a local text": ("y = 'ab'\nfor i in range(45):\n  y = y + y", "characters cannot be made"),
    "doubling a local list": ("y = [1]\nfor i in range(45):\n  y += y", "items cannot be made"),
    "multiplying a list": ("y = [1, 2] * 1000000000", "a list of 2000000000 items cannot be made"),
    # same() hides the type from the static check, as a value read from the game would
    "multiplying a text": ("y = same('ab') * 1000000000", "a text of 2000000000 characters cannot be made"),
    "doubling a text in an argument": ("y = grow('ab', 45)", "characters cannot be made"),
    # a fraction that overflowed became inf (and inf - inf nan): a score of NaN was printed as JSON no
    # reader takes, and ranked first and last at once
    "a fraction past the largest": ("y = 0.5\nfor i in range(40):\n  y = y * 1000000000.0", "infinite or not a number"),
    # a quotient by less than 1 overflows too; kept in a variable, the game played on with inf
    "a quotient past the largest": ("y = 1.0\nfor i in range(40):\n  y = y / same(0.000000001)", "infinite or not"),
    "a whole quotient past the largest": ("y = 1.0\nfor i in range(40):\n  y //= same(0.000000001)", "infinite or not"),
}
GROWING_FUNCTIONS = {"grow": {"params": ["s", "n"], "value": "s if n == 0 else grow(s + s, n - 1)"},
                     "same": {"params": ["v"], "value": "v"}}


@pytest.mark.parametrize("case", GROWING)
def test_a_value_that_grows_too_large_stops_where_it_is_made(tmp_path, case):
    setup, said = GROWING[case]
    rs = load(tmp_path, {"variables": {"x": 0}, "functions": GROWING_FUNCTIONS, "setup": setup})
    with pytest.raises(GameError) as info:
        Game(rs, 1)
    assert said in _located(info.value)


# Each case touches far more items than one decision may (limits.MAX_WORK) in few instructions,
# so the step budget would not stop it in time: the work budget does.
WORK = {
    "a comprehension inside a comprehension": "y = [[j for j in range(100000)] for i in range(100000)]",
    "a list built again in a loop": "for i in range(100000):\n  y = count(range(100000))",
    "sorting in a loop": "for i in range(100000):\n  y = sorted(range(100000), i -> 0 - i)",
    "a text built by adding": "y = ''\nfor i in range(100000):\n  y = y + 'a'",
    "a search through a list in a loop": "y = range(100000)\nfor i in range(100000):\n  x = 1 if -1 in y else 0",
    "a function that calls itself twice": None,
    # do: functions too, however they are run (sized so that without the budget they end, unstopped, in seconds)
    "a do: function that calls itself twice": "x = twice_do(22)",
    "a do: function's loop called in a loop": "for i in range(30):\n  x = looping(100000)",
}
TWICE = {"twice": {"params": ["n"], "value": "1 if n == 0 else twice(n - 1) + twice(n - 1)"},
         "twice_do": {"params": ["n"], "do": "if n == 0:\n  return 1\nreturn twice_do(n - 1) + twice_do(n - 1)"},
         "looping": {"params": ["n"], "do": "k = 0\nwhile k < n:\n  k = k + 1\nreturn k"}}


@pytest.mark.parametrize("case", WORK)
def test_too_much_work_in_one_decision_is_a_located_stop(tmp_path, case):
    setup = WORK[case]
    if setup is None:
        rs = load(tmp_path, {"variables": {"x": 0}, "functions": TWICE, "setup": "x = twice(60)"})
        with pytest.raises(WorkBudgetError) as info:
            Game(rs, 1)
    else:
        rs = load(tmp_path, {"variables": {"x": 0}, "functions": TWICE, "setup": setup})
        with pytest.raises(WorkBudgetError) as info:
            Game(rs, 1)
    assert "items for one decision" in _located(info.value)
    assert info.value.location.file.endswith("ruleset.yaml")


def test_the_work_budget_starts_again_at_each_decision(tmp_path):
    # each decision makes and counts a list of 100,000 numbers 5 times: 1,000,000 items, under the budget;
    # twenty decisions together touch far more, and that is allowed
    assert 5 * 200_000 < MAX_WORK < 20 * 5 * 200_000
    rs = load(tmp_path, {"variables": {"x": 0}, "limits": {"max_decisions": 20},
                         "actions": [{"id": "work", "do": "for i in range(5):\n  x = x + count(range(100000))"}],
                         "flow": [{"while": "true", "steps": [{"turn": {"player": "player(0)", "actions": ["work"],
                                                                         "pass": False}}]}]})
    game = Game(rs, 1)
    play_out(game, make_agents("random", 1, 0))
    assert game.is_over and game.state.vars["x"] == 20 * 5 * 100_000


def test_a_walk_of_a_billion_steps_is_a_located_stop(tmp_path):
    ring = {"spaces": [{"id": s} for s in "abc"],
            "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "a"}]}
    rs = load(tmp_path, {"variables": {"x": 0}, "board": ring,
                         "setup": "x = count(walk_ends(space('a'), 1000000000, none, none, none, no_reverse=false))"})
    with pytest.raises(WorkBudgetError) as info:
        Game(rs, 1)
    assert "items for one decision" in _located(info.value)


# --- every game is finite ---------------------------------------------------------------

LOOP = {
    "player": {"vars": {"score": 0}},
    "zones": [{"id": "left"}, {"id": "right"}],
    "things": [{"id": "coin", "start": "left"}],
    "actions": [{"id": "shift", "do": "move(thing('coin'), right if thing('coin').zone == left else left)"}],
    "flow": [{"while": "true", "steps": [{"turn": {"player": "player(0)", "actions": ["shift"], "pass": False}}]}],
}


def test_a_game_that_could_go_on_forever_ends_by_length(tmp_path):
    rs = load(tmp_path, dict(LOOP, limits={"max_decisions": 40}))
    game = Game(rs, 2)
    made = play_out(game, make_agents("random", 2, 0))
    assert game.is_over and made == 40
    end = game.log[-1]
    assert end["e"] == "end" and end["reason"] == LENGTH_LIMIT_REASON
    assert end["winners"] == [0, 1]     # ranked as at any other end: both scored 0


def test_a_ruleset_may_declare_the_length_bound_a_draw(tmp_path, capsys):
    from cli_runner import run
    spec = dict(LOOP, limits={"max_decisions": 12, "at_length_limit": "draw"})
    spec["player"] = {"vars": {"score": 0}}
    spec["actions"] = [{"id": "shift", "do": LOOP["actions"][0]["do"] + "\nscore(player, 1)"}]
    rs = load(tmp_path, spec)
    assert rs.draw_at_length_limit
    game = Game(rs, 2)
    play_out(game, make_agents("random", 2, 0))
    end = game.log[-1]
    assert game.is_over and game.decisions == 12
    assert end["reason"] == LENGTH_DRAW_REASON and end["winners"] == [] and game.winners == []
    assert game.scores[0] == 12        # seat 0 scored every point, and still nobody won: it is a draw
    # simulate says how the games ended
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert run(["simulate", str(folder), "--games", "4", "--players", "2"]) == 0
    said = capsys.readouterr().out
    assert f"how games ended: {LENGTH_DRAW_REASON} 100%" in said


def test_the_length_bound_has_a_default(tmp_path):
    rs = load(tmp_path, LOOP)
    assert rs.max_decisions == DEFAULT_MAX_DECISIONS and not rs.draw_at_length_limit


def test_the_length_survives_a_save(tmp_path):
    rs = load(tmp_path, dict(LOOP, limits={"max_decisions": 5}))
    game = Game(rs, 1)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    again = Game.from_json(rs, game.to_json())
    assert again.decisions == 3
    again.apply(again.legal_actions()[0])
    again.apply(again.legal_actions()[0])
    assert again.is_over and again.log[-1]["reason"] == LENGTH_LIMIT_REASON


class _Mover:
    """Moves passengers between lines whenever it may (a move never has to make progress)."""
    name = "mover"

    def choose(self, game, seat, actions):
        moves = [a for a in actions if a.name == "move"]
        return (moves or actions)[0]


def test_sos_titanic_back_and_forth_ends_by_length():
    rs = load_ruleset("sos-titanic").changed(max_decisions=300)   # the default bound: the same path, longer
    game = Game(rs, rs.min_players, seed=1)
    play_out(game, [_Mover()] * rs.min_players)
    assert game.is_over and game.decisions == 300
    assert game.log[-1]["reason"] == LENGTH_LIMIT_REASON


# --- a variant reads only its own ruleset's folder or a bundled ruleset ----------------------

def _variant(folder, extends):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sneaky.yaml"
    path.write_text(f"variant: sneaky\nextends: {extends}\nconstants:\n  rounds: 7\n", encoding="utf-8")
    return path


def test_extends_cannot_read_a_file_outside_the_ruleset(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: the-password-is-swordfish\n", encoding="utf-8")
    variant = _variant(tmp_path / "mine" / "variants", str(secret))
    with pytest.raises(DavitError) as info:
        load_ruleset(variant)
    message = _located(info.value)
    assert "inside the variant's ruleset folder" in message
    assert "swordfish" not in message


def test_extends_may_name_a_bundled_ruleset(tmp_path):
    rs = load_ruleset(_variant(tmp_path / "mine", "tutorial"))
    assert rs.id == "tutorial" and rs.variant == "sneaky"


def test_a_variant_from_elsewhere_extends_only_by_id_or_inside_its_folder(tmp_path):
    """A variant file may lie anywhere, but its `extends:` reads nothing outside its own folder."""
    (tmp_path / "tutorial").mkdir()
    (tmp_path / "tutorial" / "ruleset.yaml").write_text("id: the-password-is-swordfish\n", encoding="utf-8")
    outside = _variant(tmp_path / "elsewhere", "../tutorial")
    with pytest.raises(DavitError) as info:
        load_ruleset("tutorial", variant=str(outside))
    message = str(info.value)
    assert "must be a bundled ruleset or lie inside the variant's ruleset folder" in message
    assert "swordfish" not in message
    assert load_ruleset("tutorial", variant=str(_variant(tmp_path / "mine", "tutorial"))).variant == "sneaky"


def test_an_empty_flow_is_refused_where_it_is_written(tmp_path, capsys):
    """`flow: []` in a variant was reported at the base ruleset's first use of a flow variable
    ('display: no variable round'), far from the line that emptied the flow; an empty `steps:` did nothing."""
    from cli_runner import run
    assert run(["copy", "tutorial", str(tmp_path / "t")]) == 0
    (tmp_path / "t" / "variants" / "no-flow.yaml").write_text("variant: no-flow\ndescription: x\nflow: []\n")
    (tmp_path / "t" / "variants" / "no-steps.yaml").write_text(
        "variant: no-steps\ndescription: x\nflow:\n  - repeat: 2\n    as: round\n    steps: []\n")
    capsys.readouterr()
    assert run(["validate", str(tmp_path / "t")]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert "no-flow.yaml:3:7: error[schema]: `flow` needs at least 1 item" in said, said
    assert "no-steps.yaml:6:12: error[schema]: `flow[0].steps` needs at least 1 item" in said, said
    assert "no variable 'round'" not in said, said


# --- the command line: one line, exit 1, before the game -------------------------------------

@pytest.mark.parametrize("target,said", [("{tmp}", "is a folder"), ("/proc/davit-log.jsonl", "cannot write the log"),
                                         ("{tmp}/missing/log.jsonl", "does not exist"),
                                         # failed after the game, naming only the temporary file
                                         ("{tmp}/log.jsonl/", "ends in '/', as a folder's name does")])
def test_a_log_that_cannot_be_written_is_refused_before_the_game(tmp_path, capsys, target, said):
    from cli_runner import run
    assert run(["play", "tutorial", "--quiet", "--log", target.format(tmp=tmp_path)]) == 1
    err = capsys.readouterr().err
    assert said in err and "internal error" not in err and len(err.strip().splitlines()) == 1
    assert "Game over" not in capsys.readouterr().out


@pytest.mark.parametrize("option,target,said", [
    ("--out", "/proc/davit-games.csv", "cannot write --out '/proc/davit-games.csv'"),
    ("--out", "{tmp}/missing/games.csv", "does not exist"),
    ("--report", "{tmp}", "cannot write --report: '{tmp}' is a folder"),
    ("--out", "{tmp}/games.csv/", "cannot write --out: '{tmp}/games.csv/' ends in '/'"),
])
def test_simulate_refuses_an_output_it_cannot_write_before_playing(tmp_path, capsys, option, target, said):
    from cli_runner import run
    target = target.format(tmp=tmp_path)
    assert run(["simulate", "tutorial", "--games", "5", option, target]) == 1
    out = capsys.readouterr()
    assert said.format(tmp=tmp_path) in out.err and len(out.err.strip().splitlines()) == 1
    assert "internal error" not in out.err and out.out == ""     # no game was played, no result printed


def test_copy_into_a_place_that_cannot_be_written_is_one_line(capsys):
    from cli_runner import run
    assert run(["copy", "tutorial", "/proc/davit-copy"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("davit: cannot use '/proc/davit-copy'") and "internal error" not in err


def test_a_huge_number_in_a_ruleset_is_a_located_one_line_error(tmp_path, capsys):
    from cli_runner import run
    folder = tmp_path / "digits"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: digits\nplayers: {min: 1}\nconstants:\n  n: " + "9" * 5000 +
                                         "\nflow: [{do: pass}]\n", encoding="utf-8")
    assert run(["validate", str(folder)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "ruleset.yaml:4:6:" in text and "too long" in text and "internal error" not in text


def test_the_docs_state_the_work_budget_the_code_has():
    from pathlib import Path
    docs = Path(__file__).resolve().parent.parent / "docs"
    for page in ("dsl.md", "architecture.md"):
        assert f"{MAX_WORK:,}" in (docs / page).read_text(encoding="utf-8"), page


@pytest.mark.slow
def test_too_much_work_in_simulate_with_workers_is_one_located_line(tmp_path, capsys):
    from cli_runner import run
    load(tmp_path, {"variables": {"x": 0}, "setup": WORK["a comprehension inside a comprehension"]})
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert run(["simulate", str(folder), "--games", "4", "--workers", "2"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "ruleset.yaml:" in err and "items for one decision" in err, err
