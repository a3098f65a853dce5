"""`davit draw`: the board as DOT text, as an SVG written by us, and as files."""
import dataclasses
import os
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from interpreter.authoring.draw import NAMED_COLOURS, draw_main, to_dot, to_svg, write_drawing
from interpreter.authoring.draw import files as draw_files
from interpreter.errors import DavitError
from interpreter.rules.board import Board
from interpreter.rules.loading import load_ruleset
from interpreter.rules.model import Ruleset, ZoneDef

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def tutorial():
    return load_ruleset("tutorial")


def dot_line(dot, start):
    lines = [line.strip() for line in dot.splitlines() if line.strip().startswith(start)]
    assert len(lines) == 1, f"expected one line starting with {start!r}, got {lines}"
    return lines[0]


def svg_tree(rs):
    text = to_svg(rs)
    return ET.fromstring(text.encode("utf-8"))   # raises on anything that is not well-formed XML


def group(root, cls, ident):
    found = [g for g in root.iter(SVG + "g") if g.get("class") == cls and g.get("data-id") == ident]
    assert len(found) == 1, f"no single {cls} {ident!r} in the SVG"
    return found[0]


def edge(root, a, b):
    found = [e for e in root.iter(SVG + "line") if e.get("class") == "edge"
             and e.get("data-from") == a and e.get("data-to") == b]
    assert len(found) == 1, f"no single edge {a} -> {b} in the SVG"
    return found[0]


def with_zone(rs, zid, **changes):
    """A shallow copy of the ruleset with one zone changed (the cached original stays as it is)."""
    zones = dict(rs.zones)
    zones[zid] = dataclasses.replace(rs.zones[zid], **changes)
    return rs.changed(zones=zones)


def made_up(spaces, edges, containers=(), pos=None, name="made up"):
    """A ruleset built by hand: spaces [(id, attrs)], edges [dict], containers [ZoneDef]."""
    rs = Ruleset()
    rs.id, rs.name = "made-up", name
    rs.board = Board([{"id": sid, **attrs} for sid, attrs in spaces], edges)
    for sid, attrs in spaces:
        zattrs = dict(attrs)
        if pos:
            zattrs["pos"] = pos[sid]
        rs.zones[sid] = ZoneDef(sid, sid.replace("_", " "), attrs=zattrs, kind="space")
    for zone in containers:
        rs.zones[zone.id] = zone
    return rs


# -- tutorial: spaces, colours, edges -----------------------------------------------


def test_dot_has_spaces_with_their_colour_name_and_position(tutorial):
    dot = to_dot(tutorial)
    assert dot.startswith("//") and "digraph" in dot and dot.rstrip().endswith("}")
    line = dot_line(dot, '"davit" [')
    assert f'fillcolor="{NAMED_COLOURS["blue"]}"' in line
    assert "deck: boat" in line
    assert re.search(r'pos="-?[\d.]+,-?[\d.]+!"', line), "pinned position from the YAML"
    assert f'fillcolor="{NAMED_COLOURS["grey"]}"' in dot_line(dot, '"hold_fore" [')
    assert "layout=neato" in dot
    # y grows upwards in the YAML: the boat deck (y=2) is above the lowest deck (y=0)
    y = {sid: float(re.search(r'pos="[-\d.]+,([-\d.]+)!"', dot_line(dot, f'"{sid}" [')).group(1))
         for sid in ("davit", "engine_room")}
    assert y["davit"] > y["engine_room"]


def test_dot_one_way_edges_are_arrows_and_two_way_edges_are_drawn_once(tutorial):
    dot = to_dot(tutorial)
    ladder = dot_line(dot, '"hold_fore" -> "cabins_fore"')
    assert "dir=none" not in ladder and "arrowhead=normal" in ladder
    corridor = dot_line(dot, '"hold_fore" -> "boiler_room"')
    assert "dir=none" in corridor
    assert '"boiler_room" -> "hold_fore"' not in dot
    assert '"cabins_fore" -> "hold_fore"' not in dot
    edges = [line for line in dot.splitlines() if " -> " in line and "attached" not in line]
    assert len(edges) == 14   # 12 two-way edges once each + 2 one-way ladders


def test_edge_kinds_have_distinct_styles_and_a_legend(tutorial):
    dot = to_dot(tutorial)
    looks = {}
    for a, b, kind in (("hold_fore", "boiler_room", "corridor"), ("boiler_room", "mess", "stairs"),
                       ("hold_fore", "cabins_fore", "ladder")):
        line = dot_line(dot, f'"{a}" -> "{b}"')
        looks[kind] = (re.search(r"style=(\w+)", line).group(1), re.search(r'color="(#\w+)"', line).group(1))
    assert len(set(looks.values())) == 3
    legend = dot_line(dot, "graph [layout")
    for kind in looks:
        assert kind in legend
    assert "one way" in legend
    root = svg_tree(tutorial)
    dashes = {edge(root, a, b).get("stroke-dasharray") for a, b in
              (("hold_fore", "boiler_room"), ("boiler_room", "mess"), ("hold_fore", "cabins_fore"))}
    assert len(dashes) == 3
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "legend" in texts and "corridor" in texts and "ladder" in texts and "stairs" in texts


@pytest.mark.slow
def test_svg_is_xml_with_coloured_labelled_spaces(tutorial):
    root = svg_tree(tutorial)
    assert root.tag == SVG + "svg"
    davit = group(root, "space", "davit")
    assert davit.find(SVG + "rect").get("fill") == NAMED_COLOURS["blue"]
    words = " ".join(s.text for s in davit.iter(SVG + "tspan"))
    assert "davit" in words and "deck: boat" in words
    assert group(root, "space", "hold_fore").find(SVG + "rect").get("fill") == NAMED_COLOURS["grey"]
    spaces = [g for g in root.iter(SVG + "g") if g.get("class") == "space"]
    assert len(spaces) == 12


def test_svg_one_way_edges_have_arrowheads_and_two_way_edges_none(tutorial):
    root = svg_tree(tutorial)
    ladder = edge(root, "cabins_aft", "stern_deck")
    marker = ladder.get("marker-end")
    assert marker and marker.startswith("url(#")
    ids = {m.get("id") for m in root.iter(SVG + "marker")}
    assert marker[5:-1] in ids
    assert edge(root, "mess", "galley").get("marker-end") is None
    two_way = [e for e in root.iter(SVG + "line") if e.get("class") == "edge" and e.get("data-one-way") == "false"]
    assert len(two_way) == 12


def test_svg_puts_spaces_where_the_yaml_says(tutorial):
    root = svg_tree(tutorial)

    def centre(sid):
        rect = group(root, "space", sid).find(SVG + "rect")
        return (float(rect.get("x")) + float(rect.get("width")) / 2,
                float(rect.get("y")) + float(rect.get("height")) / 2)

    assert centre("hold_fore")[0] < centre("boiler_room")[0] < centre("engine_room")[0]
    assert centre("bridge")[1] < centre("cabins_fore")[1] < centre("hold_fore")[1]   # screen y grows down
    assert centre("bridge")[0] == pytest.approx(centre("hold_fore")[0])


# -- containers ----------------------------------------------------------------------


def test_a_container_without_attachment_is_in_the_containers_cluster(tutorial):
    tutorial = with_zone(tutorial, "lifeboat", attrs={})
    dot = to_dot(tutorial)
    cluster = dot[dot.index("subgraph cluster_containers"):]
    assert '"lifeboat" [' in cluster and "capacity 3" in cluster
    assert "containers" in cluster
    assert '"sea"' not in dot, "a zone without capacity is not a container"
    root = svg_tree(tutorial)
    boat = group(root, "container", "lifeboat")
    assert "capacity 3" in " ".join(s.text for s in boat.iter(SVG + "tspan"))


@pytest.mark.slow
@pytest.mark.parametrize("attrs", [{"access": "davit"}, {"attached_to": "davit"}, {"beside": ["davit", "stern_deck"]}])
def test_an_attached_container_is_drawn_beside_its_spaces(tutorial, attrs):
    rs = with_zone(tutorial, "lifeboat", attrs=attrs)
    dot = to_dot(rs)
    assert "cluster_containers" not in dot
    line = dot_line(dot, '"lifeboat" -> "davit"')
    assert "style=dashed" in line and "dir=none" in line
    root = svg_tree(rs)
    boat = group(root, "container", "lifeboat").find(SVG + "rect")
    davit = group(root, "space", "davit").find(SVG + "rect")
    bx, by = float(boat.get("x")), float(boat.get("y"))
    dx, dy = float(davit.get("x")), float(davit.get("y"))
    assert abs(bx - dx) < 300 and abs(by - dy) < 200, "the container is drawn near the space it hangs at"
    attach = [e for e in root.iter(SVG + "line") if e.get("class") == "attach"]
    targets = next(iter(attrs.values()))
    assert len(attach) == (len(targets) if isinstance(targets, list) else 1)


def test_seats_and_unknown_attachments_are_labelled(tutorial):
    rs = with_zone(tutorial, "lifeboat", seats=(3, 2, 1), attrs={"access": "nowhere"})
    dot = to_dot(rs)
    cluster = dot[dot.index("subgraph cluster_containers"):]
    assert "seats: 3, 2, 1" in cluster and "at nowhere" in cluster


# -- boards without coordinates or colours ----------------------------------------


def grid(n=4, colour=False):
    spaces = [(f"c{r}_{c}", {"row": r, "kind": "odd" if (r + c) % 2 else "even",
                             **({"colour": "red" if r == 0 else "#123456"} if colour else {})})
              for r in range(n) for c in range(n)]
    edges = [{"from": f"c{r}_{c}", "to": f"c{r}_{c + 1}", "kind": "road"} for r in range(n) for c in range(n - 1)]
    edges += [{"from": f"c{r}_{c}", "to": f"c{r + 1}_{c}", "kind": "river", "one_way": True}
              for r in range(n - 1) for c in range(n)]
    return spaces, edges


def test_without_positions_a_layout_is_computed_and_boxes_do_not_overlap():
    spaces, edges = grid(5)
    rs = made_up(spaces, edges)
    dot = to_dot(rs)
    assert "pos=" not in dot and "layout=neato" not in dot
    root = svg_tree(rs)
    boxes = []
    for g in root.iter(SVG + "g"):
        if g.get("class") == "space":
            r = g.find(SVG + "rect")
            boxes.append(tuple(float(r.get(k)) for k in ("x", "y", "width", "height")))
    assert len(boxes) == 25
    for i, (x1, y1, w1, h1) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_without_a_colour_attribute_spaces_are_coloured_by_the_first_attribute():
    spaces, edges = grid(3)
    root = svg_tree(made_up(spaces, edges))
    fill = {sid: group(root, "space", sid).find(SVG + "rect").get("fill") for sid, _ in spaces}
    assert fill["c0_0"] == fill["c0_2"] != fill["c1_0"] != fill["c2_0"] != fill["c0_0"]
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "row: 0" in texts and "row: 2" in texts


def test_colour_attribute_takes_names_and_hex():
    spaces, edges = grid(2, colour=True)
    dot = to_dot(made_up(spaces, edges))
    assert f'fillcolor="{NAMED_COLOURS["red"]}"' in dot_line(dot, '"c0_0" [')
    line = dot_line(dot, '"c1_0" [')
    assert 'fillcolor="#123456"' in line and 'fontcolor="#ffffff"' in line, "light text on a dark fill"


def test_partial_positions_fall_back_to_a_computed_layout():
    spaces, edges = grid(2)
    pos = {sid: [i, 0] for i, (sid, _) in enumerate(spaces)}
    rs = made_up(spaces, edges, pos=pos)
    assert "layout=neato" in to_dot(rs)
    rs.zones["c0_0"] = dataclasses.replace(rs.zones["c0_0"], attrs={"row": 0})
    assert "layout=neato" not in to_dot(rs)
    svg_tree(rs)


def test_text_is_escaped_in_dot_and_svg():
    spaces = [("a", {"note": 'x < y & "z"'}), ("b", {"note": "back\\slash"})]
    rs = made_up(spaces, [{"from": "a", "to": "b", "kind": "<odd> & kind"}],
                 containers=[ZoneDef("pen", 'pen "<1>"', capacity=1, attrs={"beside": "a"})],
                 name='Tricky <name> & "quotes"\x01')
    root = svg_tree(rs)
    assert "Tricky <name>" in root.find(SVG + "title").text
    dot = to_dot(rs)
    assert 'note: x < y & \\"z\\"' in dot_line(dot, '"a" [')
    assert "&lt;odd&gt; &amp; kind" in dot_line(dot, "graph [layout")
    assert "back\\\\slash" in dot_line(dot, '"b" [')


def test_per_player_zones_and_plain_zones_are_not_containers():
    spaces, edges = grid(2)
    rs = made_up(spaces, edges, containers=[ZoneDef("hand", "hand", per_player=True, capacity=5),
                                            ZoneDef("pile", "pile")])
    dot = to_dot(rs)
    assert '"hand"' not in dot and '"pile"' not in dot and "cluster_containers" not in dot


# -- no board ------------------------------------------------------------------------


def test_a_ruleset_without_a_board_still_draws():
    rs = load_ruleset("der-mythos")
    dot = to_dot(rs)
    assert "no board" in dot and "digraph" in dot and " -> " not in dot
    root = svg_tree(rs)
    assert "no board" in " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert draw_main(rs, None) == dot


# -- files ---------------------------------------------------------------------------


def test_write_drawing_dot_and_svg(tutorial, tmp_path):
    write_drawing(tutorial, str(tmp_path / "ship.dot"))
    assert (tmp_path / "ship.dot").read_text(encoding="utf-8") == to_dot(tutorial)
    write_drawing(tutorial, tmp_path / "ship.svg")
    ET.fromstring((tmp_path / "ship.svg").read_bytes())
    assert draw_main(tutorial, str(tmp_path / "again.svg")) is None
    assert (tmp_path / "again.svg").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.svg", "ship.dot", "ship.svg"], "no temp files left"


def test_write_drawing_replaces_a_file_and_keeps_it_whole_on_error(tutorial, tmp_path, monkeypatch):
    target = tmp_path / "ship.svg"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_drawing(tutorial, str(target))
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert os.stat(target).st_mode & 0o777 == 0o640

    def broken(rs):
        raise RuntimeError("boom")

    monkeypatch.setattr(draw_files, "to_svg", broken)
    with pytest.raises(RuntimeError):
        write_drawing(tutorial, str(target))
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir()] == ["ship.svg"]


def test_write_drawing_refuses_unknown_extensions_and_missing_folders(tutorial, tmp_path):
    with pytest.raises(DavitError) as err:
        write_drawing(tutorial, str(tmp_path / "ship.bmp"))
    assert ".svg" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(DavitError) as err:
        write_drawing(tutorial, str(tmp_path / "no" / "such" / "ship.svg"))
    assert "does not exist" in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "ship.bmp").exists()


def test_png_without_graphviz_says_what_to_do(tutorial, tmp_path, monkeypatch):
    monkeypatch.setattr(draw_files.shutil, "which", lambda name: None)
    with pytest.raises(DavitError) as err:
        write_drawing(tutorial, str(tmp_path / "ship.png"))
    assert "PNG needs Graphviz" in str(err.value)
    assert not (tmp_path / "ship.png").exists()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_png_with_graphviz(tutorial, tmp_path):
    write_drawing(tutorial, str(tmp_path / "ship.png"))
    assert (tmp_path / "ship.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
