"""The board as Graphviz DOT text (``davit draw`` with no file, or a .dot file)."""
from __future__ import annotations

import html

from .scene import Scene, layout, text_colour
from .style import (
    ATTACH_COLOUR,
    CONTAINER_FILL,
    DOT_SAMPLE,
    FONT,
    MAX_LEGEND_FILLS,
    XML_BAD,
)


def _q(text) -> str:
    """A DOT quoted string (label escapes kept literal)."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(lines) -> str:
    return '"' + "\\n".join(str(line).replace("\\", "\\\\").replace('"', '\\"') for line in lines) + '"'


def _h(text) -> str:
    return html.escape(XML_BAD.sub("", str(text)), quote=False)


def _dot_legend(scene) -> str:
    rows = [f'<tr><td colspan="2" align="left"><b>{_h(scene.title)}</b></td></tr>']
    if not scene.space_ids:
        rows.append('<tr><td colspan="2" align="left">no board</td></tr>')
    for kind in scene.kinds:
        style, colour = scene.kind_style[kind]
        rows.append(f'<tr><td align="left"><font color="{colour}">{DOT_SAMPLE[style]}</font></td>'
                    f'<td align="left">{_h(kind)} ({style})</td></tr>')
    if any(e[3] for e in scene.edges):
        rows.append('<tr><td align="left">\u2500\u2500\u25b6</td><td align="left">one way (arrow)</td></tr>')
    if any(not e[3] for e in scene.edges):
        rows.append('<tr><td align="left">\u2500\u2500\u2500</td><td align="left">both ways (no arrow)</td></tr>')
    for text, colour in scene.fill_legend[:MAX_LEGEND_FILLS]:
        rows.append(f'<tr><td bgcolor="{colour}" border="1"> </td><td align="left">{_h(text)}</td></tr>')
    if len(scene.fill_legend) > MAX_LEGEND_FILLS:
        rows.append(f'<tr><td></td><td align="left">\u2026 {len(scene.fill_legend) - MAX_LEGEND_FILLS} more</td></tr>')
    if scene.containers:
        rows.append(f'<tr><td bgcolor="{CONTAINER_FILL}" border="1"> </td>'
                    f'<td align="left">container (capacity)</td></tr>')
    if any(c.attached for c in scene.containers):
        rows.append(f'<tr><td align="left"><font color="{ATTACH_COLOUR}">{DOT_SAMPLE["dashed"]}</font></td>'
                    f'<td align="left">container attached to</td></tr>')
    return '<<table border="0" cellborder="0" cellspacing="2">' + "".join(rows) + "</table>>"


def to_dot(ruleset) -> str:
    """The board as Graphviz DOT text (``dot -Tsvg``/``-Tpng`` renders it; the layout engine is set inside)."""
    scene = Scene(ruleset)
    pinned = scene.pinned
    loose = layout(scene) if pinned else [c for c in scene.containers if not c.attached]
    out = [f"// {XML_BAD.sub('', scene.title)}: board drawn by davit",
           f"digraph {_q(getattr(ruleset, 'id', '') or 'board')} {{"]
    graph_attrs = [f"fontname={_q(FONT)}", "fontsize=11", "labelloc=b", "labeljust=l", f"label={_dot_legend(scene)}"]
    if pinned:
        # the spaces sit where the YAML puts them: neato keeps pinned nodes (pos in points)
        graph_attrs[:0] = ["layout=neato", "inputscale=72", "overlap=true"]
    else:
        graph_attrs[:0] = ["layout=fdp", "overlap=false", "K=1.2"]
    out.append("  graph [" + ", ".join(graph_attrs) + "];")
    out.append(f'  node [shape=box, style="rounded,filled", fontname={_q(FONT)}, fontsize=10, '
               f'margin="0.10,0.05", color="#333333"];')
    out.append(f"  edge [fontname={_q(FONT)}, fontsize=9, penwidth=1.6, arrowsize=0.9];")
    if not scene.space_ids:
        out.append('  "__no_board" [shape=plaintext, style="", label="no board"];')

    def pos(b):
        return f', pos="{b.x:.1f},{-b.y:.1f}!"' if pinned else ""

    if scene.spaces:
        out.append("  // spaces")
    for b in scene.spaces:
        out.append(f"  {_q(b.id)} [label={_label(b.lines)}, fillcolor=\"{b.fill}\", "
                   f"fontcolor=\"{text_colour(b.fill)}\", tooltip={_q(b.tip)}{pos(b)}];")
    if scene.edges:
        out.append("  // edges; legend: " + "; ".join(
            f"{k} = {s} {c}" for k, (s, c) in scene.kind_style.items()) + "; arrow = one way")
    for a, b, kind, one_way in scene.edges:
        style, colour = scene.kind_style[kind]
        how = "arrowhead=normal" if one_way else "dir=none"
        tip = f"{kind} (one way)" if one_way else kind
        out.append(f"  {_q(a)} -> {_q(b)} [{how}, style={style}, color=\"{colour}\", tooltip={_q(tip)}];")
    if scene.containers:
        out.append("  // containers")
    for c in scene.containers:
        if c.attached:
            out.append(f"  {_q(c.id)} [shape=box, style=filled, fillcolor=\"{CONTAINER_FILL}\", "
                       f"label={_label(c.lines)}, tooltip={_q(c.tip)}{pos(c)}];")
            for t in c.attached:
                out.append(f"  {_q(c.id)} -> {_q(t)} [dir=none, style=dashed, color=\"{ATTACH_COLOUR}\", "
                           f"penwidth=1.0, tooltip=\"attached\"];")
    if loose:
        out.append("  subgraph cluster_containers {")
        style = f'style="rounded,dashed", color="{ATTACH_COLOUR}", fontcolor="{ATTACH_COLOUR}"'
        if not pinned:
            out.append(f'    graph [label="containers", labelloc=t, labeljust=l, margin=14, {style}];')
        else:
            # neato keeps pinned nodes but draws a cluster's frame tight around them and no room for its
            # label: the heading is a node of its own and two invisible corner points give the frame a margin
            out.append(f'    graph [label="", {style}];')
            width = max((b.x + b.w / 2 for b in scene.spaces), default=400.0)
            top = max((b.y + b.h / 2 for b in scene.spaces + scene.containers if not b.container or b.attached),
                      default=0.0) + 60
            x, y, row_h = 0.0, top + 24, 0.0
            for c in loose:   # rows under the board
                if x + c.w > width and x > 0:
                    x, y, row_h = 0.0, y + row_h + 16, 0.0
                c.x, c.y = x + c.w / 2, y + c.h / 2
                x += c.w + 16
                row_h = max(row_h, c.h)
            right = max(c.x + c.w / 2 for c in loose)
            out.append(f'    "__containers" [shape=plaintext, style="", fontcolor="{ATTACH_COLOUR}", '
                       f'label="containers", pos="{30:.1f},{-(top + 8):.1f}!"];')
            corners = (("__containers_nw", (-12.0, top - 6)), ("__containers_se", (right + 12, y + row_h + 12)))
            for name, (px, py) in corners:
                out.append(f'    "{name}" [shape=point, style=invis, width=0.01, pos="{px:.1f},{-py:.1f}!"];')
        for c in loose:
            out.append(f"    {_q(c.id)} [shape=box, style=filled, fillcolor=\"{CONTAINER_FILL}\", "
                       f"label={_label(c.lines)}, tooltip={_q(c.tip)}{pos(c)}];")
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"
