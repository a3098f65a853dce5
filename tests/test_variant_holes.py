"""Variant files that set a thing in a way that changes nothing: each is an error at the variant's own line."""
from cli_runner import run as _run


def _validate(tmp_path, capsys, body: str) -> tuple[int, str]:
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: v\nextends: tutorial\n" + body)
    rc = _run(["validate", str(variant)])
    return rc, capsys.readouterr().out


def test_an_id_given_twice_in_a_variant_is_an_error_at_the_second(tmp_path, capsys):
    # the second entry's fields replaced the first's without a word: capacity 4 was dropped, validate said ok
    rc, out = _validate(tmp_path, capsys, "zones:\n  - {id: lifeboat, capacity: 4}\n  - {id: lifeboat, capacity: 5}\n")
    assert rc == 1 and "v.yaml:5:5: error[duplicate-id]: zone 'lifeboat' is given twice in this variant " \
                       "(first at line 4)" in out, out


def test_a_space_given_twice_in_a_variant_is_an_error(tmp_path, capsys):
    rc, out = _validate(tmp_path, capsys, "board:\n  spaces:\n    - {id: davit, name: a}\n    - {id: davit, name: b}\n")
    assert rc == 1 and "v.yaml:6:7: error[duplicate-id]: space 'davit' is given twice" in out, out


def test_a_removal_and_a_new_entry_of_the_same_id_replace_it_whole(tmp_path, capsys):
    rc, out = _validate(tmp_path, capsys, "zones:\n  - {id: sea, remove: true}\n  - {id: sea, description: deep}\n")
    assert rc == 0, out


def test_a_variable_added_in_a_section_the_base_lacks_is_named_nothing_when_unread(tmp_path, capsys):
    # the tutorial has no `variables:`; the variant's whole section was merged in as one value, so its
    # unread variable was only a warning (exit 0) and the game played as if it were not there
    rc, out = _validate(tmp_path, capsys, "variables:\n  newv: {initial: 0}\n")
    assert rc == 1 and "v.yaml:4:3: error[names-nothing]: variable 'newv' is not in the base ruleset, and nothing " \
                       "reads it" in out, out


def test_a_variable_added_in_a_section_the_base_lacks_and_read_is_fine(tmp_path, capsys):
    rc, out = _validate(tmp_path, capsys, "variables:\n  newv: {initial: 0}\nsetup: |\n  newv = 3\n"
                                          "  for p in players:\n    move(pawn_of(p), space(start_spaces[p.seat]))\n")
    assert rc == 0, out


def test_names_past_the_last_seat_are_an_error(tmp_path, capsys):
    # pink and black were never used by a 4-player game, and validate said ok
    rc, out = _validate(tmp_path, capsys, "players:\n  names: [red, yellow, green, blue, pink, black]\n")
    assert rc == 1 and "v.yaml:4:10: error[count]: players.names lists 6 names, but the game is for at most 4 " \
                       "players: pink, black would never be used" in out, out


def test_a_variant_for_fewer_players_may_leave_the_base_names_as_they_are(tmp_path, capsys):
    rc, out = _validate(tmp_path, capsys, "players:\n  max: 3\n")
    assert rc == 0, out


def test_a_row_for_a_player_count_the_game_cannot_have_is_an_error(tmp_path, capsys):
    # the row for 9 players of a 2–4 player game was kept and never read; validate said ok
    rc, out = _validate(tmp_path, capsys, "constants:\n  rounds: {by_players: {2: 3, 9: 4}}\n")
    assert rc == 1 and "v.yaml:4:31: error[names-nothing]: constant 'rounds' has a row for 9 players, but the " \
                       "game is for 2–4 players: it is never read" in out, out


def test_an_otherwise_after_a_row_for_every_count_is_an_error(tmp_path, capsys):
    rc, out = _validate(tmp_path, capsys, "constants:\n  rounds: {by_players: {2: 3, 3: 4, 4: 5}, otherwise: 6}\n")
    assert rc == 1 and "v.yaml:4:44: error[names-nothing]: constant 'rounds' has a row for every player count, " \
                       "so its `otherwise` is never read" in out, out


def test_a_variant_for_fewer_players_may_leave_the_base_rows(tmp_path, capsys):
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: v\nextends: titanic\nplayers:\n  max: 3\n")   # start_cubes has rows 2..5
    assert _run(["validate", str(variant)]) == 0, capsys.readouterr().out
