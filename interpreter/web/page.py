"""The one page of a web table: plain HTML, CSS and a little vanilla JavaScript, no build step.

The script (:mod:`.script`) knows only its own URL (``/seat/TOKEN``): it polls
``state``, draws the board from the public ``/layout.json`` and the seat's JSON,
and posts the index of a chosen action to ``act``. Everything shown comes from that JSON.
"""
from __future__ import annotations

import html

from .script import SCRIPT

INDEX_HTML = """<!doctype html><html lang="en"><meta charset="utf-8"><title>davit table</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>davit table</h1><p>Open the private link of your seat: <code>davit serve</code> printed one link per
seat. A seat's page is reachable only through its own link.</p></body></html>"""

STYLE = """
*{box-sizing:border-box} body{font-family:system-ui,sans-serif;margin:0;background:#1f3b2d;color:#222}
header{background:#13251c;color:#f4f1ea;padding:.5em 1em;display:flex;gap:.4em 1.2em;align-items:baseline;flex-wrap:wrap}
header h1{font-size:1.15em;margin:0} #public{color:#cfe3d6;font-size:.9em}
.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;border:1px solid #0006;vertical-align:-.05em;margin-right:.3em}
#banner{padding:.55em 1em;font-weight:600;font-size:1.05em;display:flex;gap:.8em;align-items:center;flex-wrap:wrap}
body[data-state=yours] #banner{background:#ffd54f} body[data-state=waiting] #banner{background:#cfd8dc}
body[data-state=over] #banner{background:#fff3c4} body[data-state=replay] #banner{background:#e1f5fe}
#notice{background:#b71c1c;color:#fff;padding:.5em 1em;white-space:pre-wrap;font-family:monospace;font-size:.85em;margin:0}
main{display:grid;grid-template-columns:minmax(0,1fr) minmax(17em,23em);gap:.8em;padding:.8em}
.col{min-width:0} section{background:#f7f4ec;border-radius:8px;padding:.5em .8em;margin-bottom:.8em;box-shadow:0 1px 3px #0004}
h2{font-size:.95em;margin:.15em 0 .45em;color:#24344d} #question{font-weight:600;margin:.2em 0 .5em}
#actions,#choices{display:flex;flex-direction:column;gap:.3em;max-height:24em;overflow-y:auto}
button{font:inherit;cursor:pointer} button.action,button.choice{text-align:left;padding:.4em .65em;font-size:.92em;
border:1px solid #24344d;background:#eef3fb;border-radius:4px} button.action:hover,button.choice:hover{background:#d8e4f6}
button:disabled{opacity:.5;cursor:wait} #choices:empty{display:none} #choices{margin-bottom:.6em;padding:.4em;
background:#fff8d6;border:2px solid #f0b400;border-radius:6px} .tool{padding:.3em .8em;border-radius:4px;border:1px solid #555;background:#fff}
#over{font-weight:700} #asked{font-weight:400} #rematch{background:#2e7d32;color:#fff;border:0;padding:.45em 1em;border-radius:4px}
#log{max-height:22em;overflow-y:auto;font-size:.85em;line-height:1.35;margin:0;padding-left:0;list-style:none}
#log li{border-bottom:1px solid #e6e1d4;padding:.1em .2em} #log li.fresh{background:#fff3c4}
table{border-collapse:collapse;font-size:.9em;width:100%} td{padding:.2em .4em;border-bottom:1px solid #e6e1d4}
tr.you td{font-weight:700} tr.deciding td:first-child::after{content:" \\2190 deciding";color:#b26a00;font-weight:400}
.muted{color:#777} #error{color:#a00}
#boardwrap{overflow:auto;max-height:80vh;background:#fbfaf6;border-radius:6px} #board svg{display:block}
.zoom{float:right} .zoom button{padding:0 .5em;margin-left:.2em}
svg .space rect{stroke:#333;stroke-width:1.2} svg .space.target rect{stroke:#e65100;stroke-width:3.5;stroke-dasharray:6,3;cursor:pointer}
svg .space.recent rect{stroke:#f57c00;stroke-width:3} svg .space.target:hover rect{fill-opacity:.7}
svg .piece{cursor:default} svg .piece.target{cursor:pointer} svg .piece.target circle{stroke:#e65100;stroke-width:3}
svg .piece.chosen circle,.card.chosen{outline:3px solid #1565c0} svg .space.chosen rect{stroke:#1565c0;stroke-width:4}
.zones{display:flex;flex-wrap:wrap;gap:.6em;align-items:flex-start} .zone{background:#fff;border:1px solid #d9d3c3;border-radius:6px;padding:.35em .5em;min-width:7em;max-width:100%}
.zone.recent{border:2px solid #f57c00} .zone.target{border:2px dashed #e65100;cursor:pointer} .zone h3{font-size:.82em;margin:0 0 .3em;color:#444}
.zone h3 .count{background:#24344d;color:#fff;border-radius:9px;padding:0 .45em;margin-left:.3em;font-weight:400}
.row{display:flex;flex-wrap:wrap;gap:.35em}
.card{min-width:6.6em;max-width:15em;min-height:6em;border-radius:7px;border:1px solid #8d8571;background:#fffdf7;padding:.3em .35em;font-size:.78em;
box-shadow:0 1px 2px #0003;position:relative;border-top:6px solid var(--band,#b0a78f)} .card b{display:block;font-size:1.05em;margin-bottom:.2em}
.card .attr{color:#444;line-height:1.25} .card.target{cursor:pointer;box-shadow:0 0 0 3px #e65100} .card.target:hover{transform:translateY(-3px)}
.card.back .attr{color:#e3ecff} .card.back{background:repeating-linear-gradient(45deg,#3c5a8a,#3c5a8a 5px,#4a6ea8 5px,#4a6ea8 10px);color:#fff;border-color:#233a5e;
display:flex;flex-direction:column;justify-content:center;align-items:center;text-align:center}
.pile{position:relative;width:6.6em;height:6.6em} .pile .card{position:absolute;top:0;left:0} .pile .card+.card{top:3px;left:3px}
.pile .n{position:absolute;right:-.3em;bottom:-.3em;background:#24344d;color:#fff;border-radius:9px;padding:0 .5em;font-size:.8em;z-index:2}
.piece-list{display:flex;flex-wrap:wrap;gap:.3em}.token{display:inline-flex;align-items:center;gap:.25em;background:#fff;border:1px solid #ccc;border-radius:1em;padding:0 .5em .05em .2em;font-size:.82em}
.token.target{border:2px solid #e65100;cursor:pointer}
#hand{padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.6em;align-items:flex-start} #hand .row{gap:.5em} #hand li{list-style:none}
.counter{font-size:.9em;color:#444}.counter b{font-size:1.5em;color:#24344d;margin-right:.15em}
@media (max-width:820px){main{display:flex;flex-direction:column;padding:.4em}.col{display:contents}#turn{order:-2}#board{order:-1}
.card{min-width:5.6em;min-height:5.4em}.pile{width:5.6em;height:6.4em}}
"""

_SLIDER = ('<section id="replaybar"><h2>Replay</h2><input id="slider" type="range" min="0" max="0" value="0" '
           'style="width:100%" aria-label="decision"><div id="stepno" class="muted"></div></section>')


def seat_page(title: str, has_board: bool, replay: bool = False) -> str:
    """The page of one seat (or of a replay); it holds no game data, the script fetches the JSON."""
    board = ('<section id="board"><h2>Board<span class="zoom"><button class="tool" data-zoom="-1" '
             'aria-label="smaller">−</button><button class="tool" data-zoom="0">fit</button><button class="tool" '
             'data-zoom="1" aria-label="larger">+</button></span></h2><div id="boardwrap"></div></section>'
             ) if has_board else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{html.escape(title)} — davit</title><style>{STYLE}</style></head>
<body data-state="loading"{' data-replay="1"' if replay else ""}{' data-board="1"' if has_board else ""}>
<header><h1>{html.escape(title)}</h1><span id="you"></span><span id="phase"></span><span id="public"></span></header>
<pre id="notice" hidden></pre>
<div id="banner"><span id="headline">Loading…</span><span id="over" hidden></span>
<button id="rematch" hidden>Play again</button><button id="undo" class="tool" hidden>Undo my last move</button>
<span id="asked" hidden></span><button id="agree" class="tool" hidden>Agree</button><button id="decline" class="tool" hidden>No</button></div>
<main><div class="col">
{_SLIDER if replay else ""}{board}
<section id="handbox"><h2>Your hand</h2><ul id="hand" class="hand"></ul></section>
<section><h2>On the table</h2><div id="zones" class="zones"></div></section>
</div><div class="col">
<section id="turn"><h2 id="turnhead">{"At this step" if replay else "Your turn"}</h2><div id="question"></div>
<div id="choices" role="group" aria-label="the moves of what you clicked"></div>
<div id="actions" role="group" aria-label="all your moves"></div><div id="error" role="alert"></div></section>
<section><h2>Players</h2><table><tbody id="players"></tbody></table></section>
<section><h2>Log</h2><ul id="log"></ul></section>
</div></main>
<script>{SCRIPT}</script></body></html>"""
