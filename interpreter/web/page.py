"""The one page of a web table: plain HTML and a little vanilla JavaScript, no build step.

The script knows only its own URL (``/seat/TOKEN``): it polls ``state`` and posts
the index of a clicked action to ``act``. Everything shown comes from that JSON.
"""
from __future__ import annotations

import html

INDEX_HTML = """<!doctype html><html lang="en"><meta charset="utf-8"><title>davit table</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>davit table</h1><p>Open the private link of your seat: <code>davit serve</code> printed one link per
seat. A seat's page is reachable only through its own link.</p></body></html>"""

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{background:#24344d;color:#fff;padding:.6em 1em;display:flex;gap:1em;align-items:baseline;flex-wrap:wrap}
header h1{font-size:1.2em;margin:0} main{display:grid;grid-template-columns:minmax(22em,1fr) minmax(18em,26em);
gap:1em;padding:1em} section{background:#fff;border-radius:6px;padding:.6em .9em;margin-bottom:1em;
box-shadow:0 1px 2px #0002} h2{font-size:1em;margin:.2em 0 .5em} #question{font-weight:600;margin:.3em 0 .6em}
#actions{display:flex;flex-direction:column;gap:.35em} button.action{text-align:left;padding:.45em .7em;
font-size:.95em;border:1px solid #24344d;background:#eef3fb;border-radius:4px;cursor:pointer}
button.action:hover{background:#d8e4f6} button.action:disabled{opacity:.5;cursor:wait}
#log{max-height:30em;overflow-y:auto;font-size:.88em;line-height:1.35;margin:0;padding-left:0;list-style:none}
#log li{border-bottom:1px solid #f0f0f0;padding:.1em 0}
table{border-collapse:collapse;font-size:.9em} td,th{padding:.2em .5em;text-align:left;border-bottom:1px solid #eee}
.you{font-weight:700} .zone{margin:.25em 0;font-size:.9em} .zone b{font-weight:600} .card{margin:.15em 0 .15em 1em} .muted{color:#777}
#board img{max-width:100%;height:auto;border:1px solid #ddd} #over{background:#fff3c4;border:2px solid #d6a800}
.hand li{margin:.15em 0} #error{color:#a00}
"""

_SCRIPT = r"""
const base = location.pathname.replace(/\/$/, "");
let since = 0, step = -1, busy = false, gameNo = null;
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };

function vars(v) { return Object.entries(v).map(([k, x]) => `${k} ${x}`).join(", "); }

function render(s) {
  if (s.game !== undefined && gameNo !== null && s.game !== gameNo) {
    // the ruleset was edited (davit serve --watch): a new game at the same table
    gameNo = s.game; since = 0; step = -1; $("log").replaceChildren();
    const img = document.querySelector("#board img"); if (img) img.src = "/board.svg?game=" + s.game;
    poll(); return;
  }
  gameNo = s.game;
  for (const line of s.log) $("log").append(el("li", line));
  if (s.log.length) $("log").scrollTop = $("log").scrollHeight;
  since = s.log_size;
  if (s.step === step && !s.over) return;
  step = s.step;
  document.body.dataset.step = s.step;
  $("you").textContent = s.you === null ? "Replay: what everyone at the table could see" : `You are ${s.you}`;
  $("phase").textContent = s.phase.length ? `Phase: ${s.phase.join(" / ")}` : "";
  $("public").textContent = vars(s.vars);
  const players = $("players"); players.replaceChildren();
  for (const p of s.players) {
    const tr = el("tr"); if (p.you) tr.className = "you";
    tr.append(el("td", p.name + (p.you ? " (you)" : p.bot ? " (bot)" : "") + (p.out ? " — out" : "")),
              el("td", p.score === null ? "" : String(p.score)), el("td", vars(p.vars), "muted"));
    players.append(tr);
  }
  const hand = $("hand"), zones = $("zones"); hand.replaceChildren(); zones.replaceChildren();
  let empty = 0;
  for (const z of s.zones) {
    if (z.mine) {
      const li = el("li"); li.append(el("b", z.name + ": "));
      if (z.things.some((t) => t.includes(" — "))) {   // cards with their text: one to a line
        for (const t of z.things) li.append(el("div", t, "card"));
      } else li.append(z.things.length ? z.things.join(", ") : el("span", "empty", "muted"));
      hand.append(li);
      continue;
    }
    if (!z.count) { empty++; continue; }
    const d = el("div", "", "zone"); d.append(el("b", z.name + (z.owner && !z.name.includes(z.owner) ? ` (${z.owner})` : "") + ": "));
    if (z.things.some((t) => t.includes(" — "))) { for (const t of z.things) d.append(el("div", t, "card")); }
    else d.append(`${z.things.join(", ")}`);
    zones.append(d);
  }
  if (empty) zones.append(el("div", `${empty} empty places not listed`, "muted"));
  if (!hand.children.length) hand.append(el("li", "nothing of your own", "muted"));
  const actions = $("actions"); actions.replaceChildren();
  if (s.over) {
    document.body.dataset.state = "over";
    $("over").hidden = false;
    $("over").textContent = s.team
      ? `Game over. The team scored ${s.players.length ? s.players[0].score : 0}.` +
        (s.team_won === null ? "" : s.team_won ? " The team wins." : " The team loses.")
      : `Game over. ${s.draw ? "A draw" : "Winner: " + (s.winners.join(", ") || "nobody")}. Scores: ` +
        s.players.map((p) => `${p.name} ${p.score}`).join(", ") + ".";
    $("question").textContent = "";
    return;
  }
  if (s.actions.length) {
    document.body.dataset.state = "yours";
    $("question").textContent = (s.question ? s.question.charAt(0).toUpperCase() + s.question.slice(1) : "Your move") + ":";
    for (const a of s.actions) {
      const b = el("button", a.label, "action"); b.dataset.index = a.index;
      b.onclick = () => act(a.index); actions.append(b);
    }
  } else {
    document.body.dataset.state = "waiting";
    $("question").textContent = `Waiting for ${s.waiting_for.join(", ") || "the table"}…`;
  }
}

async function poll() {
  try {
    const r = await fetch(`${base}/state?since=${since}`, {cache: "no-store"});
    const s = await r.json();
    if (!r.ok) { $("error").textContent = s.error || r.statusText; return; }
    $("error").textContent = ""; render(s);
  } catch (e) { $("error").textContent = "The table does not answer (is davit serve still running?)"; }
}

async function act(index) {
  if (busy) return; busy = true;
  for (const b of document.querySelectorAll("button.action")) b.disabled = true;
  document.body.dataset.state = "sending";
  try {
    const r = await fetch(`${base}/act`, {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify({index, step})});
    if (!r.ok) { $("error").textContent = (await r.json()).error; step = -1; }
  } finally { busy = false; await poll(); }
}

async function showStep(n) {
  const r = await fetch(`${base}/state?step=${n}`, {cache: "no-store"});
  const s = await r.json();
  if (!r.ok) { $("error").textContent = s.error || r.statusText; return; }
  $("log").replaceChildren(); step = -1;
  $("slider").max = s.last; $("slider").value = s.step;
  $("stepno").textContent = `decision ${s.step} of ${s.last}`;
  render(s);
  document.body.dataset.state = s.over ? "over" : "replay";
}

if (document.body.dataset.replay) {
  $("slider").oninput = () => showStep($("slider").value);
  showStep(0);
} else {
  poll(); setInterval(() => { if (!busy) poll(); }, 1000);
}
"""


_SLIDER = ('<section><h2>Replay</h2><input id="slider" type="range" min="0" max="0" value="0" style="width:100%">'
           '<div id="stepno" class="muted"></div></section>')


def seat_page(title: str, has_board: bool, replay: bool = False) -> str:
    """The page of one seat (or of a replay); it holds no game data, the script fetches the JSON."""
    board = ('<section id="board"><details open><summary><h2 style="display:inline">Board</h2></summary>'
             '<img src="/board.svg" alt="the board"></details></section>') if has_board else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>{html.escape(title)} — davit</title><style>{_STYLE}</style></head>
<body data-state="loading"{' data-replay="1"' if replay else ""}>
<header><h1>{html.escape(title)}</h1><span id="you"></span><span id="phase"></span></header>
<main><div>
{_SLIDER if replay else ""}<section id="turn"><h2>{"At this step" if replay else "Your turn"}</h2><div id="over" hidden></div><div id="question"></div>
<div id="actions"></div><div id="error"></div></section>
<section><h2>Your hand</h2><ul id="hand" class="hand"></ul></section>
<section><h2>On the table</h2><div id="public" class="muted"></div><div id="zones"></div></section>
{board}
</div><div>
<section><h2>Players and scores</h2><table><tbody id="players"></tbody></table></section>
<section><h2>Log</h2><ul id="log"></ul></section>
</div></main>
<script>{_SCRIPT}</script></body></html>"""
