"""The script of a table's page: polls the seat's JSON, draws the board and the cards, turns clicks into moves.

A click on a space, a piece or a card narrows the seat's actions to those that
name it (the JSON lists each action's ``targets``): one left is played, several
are offered beside the board. The action list stays as the accessible fallback.
"""

SCRIPT = r"""
const base = location.pathname.replace(/\/$/, "");
const NS = "http://www.w3.org/2000/svg";
let since = 0, step = -1, busy = false, gameNo = null, layout = null, layoutOf = null, zoom = 0, last = null;
let chosen = [];
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text; if (cls) e.className = cls; return e; };
const svg = (tag, attrs) => { const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v); return e; };
const cap = (t) => t ? t.charAt(0).toUpperCase() + t.slice(1) : t;
function vars(v) { return (Array.isArray(v) ? v : Object.entries(v)).map(([k, x]) => `${k} ${x}`).join(", "); }

async function getLayout(s) {
  if (!document.body.dataset.board) return null;
  if (layoutOf !== s.game) {
    const r = await fetch(`/layout.json?game=${s.game}`, {cache: "no-store"});
    layout = r.ok ? await r.json() : null; layoutOf = s.game;
  }
  return layout;
}

// -- clicking the table ---------------------------------------------------------------
function candidates(keys) { return (last ? last.table.actions : []).filter((a) => keys.every((k) => a.targets.includes(k))); }
function targetsOf(actions) { const t = new Set(); for (const a of actions) for (const k of a.targets) t.add(k); return t; }

function pick(key) {
  if (busy || !last || !last.actions.length) return;
  let keys = chosen.includes(key) ? chosen : chosen.concat([key]);
  let found = candidates(keys);
  if (!found.length) { keys = [key]; found = candidates(keys); }
  if (!found.length) return;
  if (found.length === 1) { chosen = []; act(found[0].index); return; }
  chosen = keys; showChoices(found); mark();
}

function showChoices(found) {
  const box = $("choices"); box.replaceChildren();
  if (!found) return;
  for (const a of found) {
    const b = el("button", a.label, "choice"); b.dataset.index = a.index; b.onclick = () => { chosen = []; act(a.index); };
    box.append(b);
  }
  const c = el("button", "cancel", "tool"); c.onclick = () => { chosen = []; showChoices(null); mark(); }; box.append(c);
}

function mark() {   // what can be clicked now, and what is chosen
  const open = targetsOf(chosen.length ? candidates(chosen) : (last ? last.table.actions : []));
  for (const e of document.querySelectorAll("[data-key]")) {
    const k = e.dataset.key, on = open.has(k) && !chosen.includes(k);
    e.classList.toggle("target", on); e.classList.toggle("chosen", chosen.includes(k));
    if (on) { e.setAttribute("role", "button"); e.setAttribute("tabindex", "0"); }
    else { e.removeAttribute("role"); e.removeAttribute("tabindex"); }
  }
}

function clickable(e, key) {
  e.dataset.key = key;
  e.addEventListener("click", (ev) => { if (e.classList.contains("target")) { ev.stopPropagation(); pick(key); } });
  e.addEventListener("keydown", (ev) => { if ((ev.key === "Enter" || ev.key === " ") && e.classList.contains("target")) { ev.preventDefault(); pick(key); } });
  return e;
}

function thingTitle(t) { return t.back ? `a face-down ${t.back.replace(/_/g, " ")}` + (t.attrs.length ? ` (${vars(t.attrs)})` : "")
                                       : t.name + (t.attrs.length ? ` (${vars(t.attrs)})` : ""); }

// -- the board --------------------------------------------------------------------------
function drawBoard(lay, s) {
  const wrap = $("boardwrap"); if (!wrap) return;
  if (!lay) { wrap.replaceChildren(el("p", "This game has no board: its places are below.", "muted")); return; }
  const recent = new Set(s.recent.flatMap((r) => r.zones));
  const root = svg("svg", {viewBox: `0 0 ${lay.width} ${lay.height}`, role: "img", "aria-label": "the board",
                           "font-family": "system-ui,sans-serif", "font-size": "11"});
  const fit = Math.max(120, wrap.clientWidth - 2);
  const scale = zoom === 0 ? Math.min(1.6, fit / lay.width) : Math.pow(1.35, zoom) * fit / lay.width;
  root.setAttribute("width", Math.round(lay.width * (zoom === 0 && lay.width * 0.55 > fit ? Math.max(fit / lay.width, 0.55) : scale)));
  const box = {}; for (const b of lay.spaces) box[b.id] = b;
  for (const e of lay.edges) {
    const a = box[e.a], b = box[e.b]; if (!a || !b) continue;
    root.append(svg("line", {x1: a.x + a.w / 2, y1: a.y + a.h / 2, x2: b.x + b.w / 2, y2: b.y + b.h / 2,
                             stroke: e.colour, "stroke-width": 2, "stroke-dasharray": e.dash, opacity: 0.55}));
  }
  for (const b of lay.spaces) for (const t of b.attached) if (box[t]) {
    const a = box[t]; root.append(svg("line", {x1: a.x + a.w / 2, y1: a.y + a.h / 2, x2: b.x + b.w / 2, y2: b.y + b.h / 2,
                                               stroke: "#777", "stroke-dasharray": "5,4"}));
  }
  for (const b of lay.spaces) {
    const things = s.table.spaces[b.id] || [];
    const g = clickable(svg("g", {class: "space" + (b.container ? " container" : "") + (recent.has(b.id) ? " recent" : ""), "data-zone": b.id}), b.id);
    const title = svg("title"); title.textContent = b.tip + (b.capacity !== null ? ` — ${things.length} of ${b.capacity}` : ""); g.append(title);
    g.append(svg("rect", {x: b.x, y: b.y, width: b.w, height: b.h, rx: b.container ? 3 : 8, fill: b.fill}));
    b.name.forEach((line, i) => {
      const name = svg("text", {x: b.x + b.w / 2, y: b.y + 13 + 12 * i, "text-anchor": "middle", fill: b.ink, "font-weight": "600"});
      name.textContent = line; g.append(name);
    });
    if (b.capacity !== null) {
      const c = svg("text", {x: b.x + b.w - 4, y: b.y + b.h - 4, "text-anchor": "end", fill: b.ink, "font-size": "9"});
      c.textContent = `${things.length}/${b.capacity}`; g.append(c);
    }
    // every thing is drawn: more than fit in a row stand closer, overlapping
    const gap = things.length > 1 ? Math.min(17, (b.w - 24) / (things.length - 1)) : 0;
    things.forEach((t, i) => g.append(piece(t, b.x + 12 + i * gap, b.y + b.h - 11, s)));
    root.append(g);
  }
  wrap.replaceChildren(root);
}

function piece(t, x, y, s) {
  const colour = t.back ? "#78909c" : t.colour || "#fafafa";
  const g = svg("g", {class: "piece", "data-owner": t.owner ?? "", "data-kind": t.kind || ""});
  if (t.key) clickable(g, t.key);
  const title = svg("title"); title.textContent = thingTitle(t); g.append(title);
  g.append(svg("circle", {cx: x, cy: y, r: 7.5, fill: colour, stroke: "#222", "stroke-width": 1.2}));
  const letter = svg("text", {x: x, y: y + 3.5, "text-anchor": "middle", "font-size": "9", "font-weight": "700",
                              fill: t.back ? "#fff" : t.ink});
  letter.textContent = t.back ? "?" : t.letter;
  g.append(letter);
  return g;
}

// -- cards and zones ----------------------------------------------------------------------
function card(t, s) {
  if (t.back) {
    const c = el("div", null, "card back"); c.append(el("span", t.back.replace(/_/g, " ")));
    for (const [k, v] of t.attrs) c.append(el("span", `${k} ${v}`.trim(), "attr"));
    c.title = thingTitle(t); return c;
  }
  const c = clickable(el("div", null, "card"), t.key);
  if (t.colour) c.style.setProperty("--band", t.colour);
  c.append(el("b", t.name));
  for (const [k, v] of t.attrs) c.append(el("div", v === "" ? k : `${k}: ${v}`, "attr"));
  c.title = thingTitle(t);
  return c;
}

function things(list, s, count) {
  if (!list.length && count) { const c = el("span", null, "counter"); c.append(el("b", String(count)), " in it"); return c; }
  const same = list.every((t) => t.back && JSON.stringify(t) === JSON.stringify(list[0]));
  if (same && list.length > 2) return pile(list.length, list[0], s);   // a face-down pile: one back and the count
  const row = el("div", null, "row"), limit = 14;
  for (const t of list.slice(0, limit)) row.append(card(t, s));
  if (list.length > limit) row.append(el("span", `+${list.length - limit} more`, "muted"));
  return row;
}

function pile(n, top, s) {
  const p = el("div", null, "pile"); p.title = `${n} face down`;
  p.append(card(top, s)); p.append(card(top, s));
  p.append(el("span", String(n), "n")); return p;
}

function drawZones(s) {
  const hand = $("hand"), zones = $("zones"); hand.replaceChildren(); zones.replaceChildren();
  const recent = new Set(s.recent.flatMap((r) => r.zones));
  let empty = 0;
  for (const z of s.table.zones) {
    const d = clickable(el(z.mine ? "li" : "div", null, "zone" + (recent.has(z.id) ? " recent" : "")), z.id);
    d.dataset.zone = z.id;
    const h = el("h3", z.name + (z.owner !== null && !z.mine && !z.name.includes(s.players[z.owner].name) ? ` (${s.players[z.owner].name})` : ""));
    h.append(el("span", z.capacity !== null ? `${z.count}/${z.capacity}` : String(z.count), "count"));
    d.append(h);
    if (z.count) d.append(things(z.things, s, z.count_only ? z.count : 0));
    else if (z.capacity === null && !z.mine) { empty++; continue; }
    else d.append(el("span", "empty", "muted"));
    (z.mine ? hand : zones).append(d);
  }
  if (empty) zones.append(el("div", `${empty} empty places not shown`, "muted"));
  if (!hand.children.length) hand.append(el("li", "nothing of your own", "muted"));
}

function drawPlayers(s) {
  const players = $("players"); players.replaceChildren();
  s.players.forEach((p, i) => {
    const tr = el("tr"); tr.className = (p.you ? "you" : "") + (s.waiting_for.includes(p.name) && !s.over ? " deciding" : "");
    const who = el("td"); const dot = el("span", null, "dot"); dot.style.background = s.colours[i];
    who.append(dot, p.name + (p.you ? " (you)" : p.bot ? " (bot)" : "") + (p.out ? " — out" : ""));
    tr.append(who, el("td", p.score === null ? "" : String(p.score)), el("td", vars(p.vars), "muted"));
    players.append(tr);
  });
}

function result(s) {
  if (s.team) return `Game over. The team scored ${s.players.length ? s.players[0].score : 0}.` +
                     (s.team_won === null ? "" : s.team_won ? " The team wins." : " The team loses.");
  return `Game over. ${s.draw ? "A draw" : "Winner: " + (s.winners.join(", ") || "nobody")}. Scores: ` +
         s.players.map((p) => `${p.name} ${p.score}`).join(", ") + ".";
}

async function render(s) {
  if (s.game !== undefined && gameNo !== null && s.game !== gameNo) {
    // a new game at the same table (a rematch, or davit serve --watch): the log starts again
    gameNo = s.game; since = 0; step = -1; $("log").replaceChildren(); poll(); return;
  }
  gameNo = s.game;
  const notice = $("notice"); notice.hidden = !s.notice; notice.textContent = s.notice || "";
  for (const line of s.log) $("log").append(el("li", line, step >= 0 && !document.body.dataset.replay ? "fresh" : ""));
  if (s.log.length) $("log").scrollTop = $("log").scrollHeight;
  since = s.log_size;
  if (s.step === step && !s.over) return;
  step = s.step; last = s; chosen = []; showChoices(null);
  document.body.dataset.step = s.step;
  const you = $("you"); you.replaceChildren();
  if (s.seat === null) you.append("Replay: what everyone at the table could see");
  else { const d = el("span", null, "dot"); d.style.background = s.colours[s.seat]; you.append(d, `You are ${s.you}`); }
  $("phase").textContent = s.phase.length ? `Phase: ${s.phase.join(" / ")}` : "";
  $("public").textContent = vars(s.vars);
  drawPlayers(s); drawZones(s); drawBoard(await getLayout(s), s);
  const actions = $("actions"); actions.replaceChildren();
  $("over").hidden = !s.over; $("rematch").hidden = !s.over || s.seat === null || !!document.body.dataset.replay;
  $("undo").hidden = s.over || !s.can_undo;
  $("undo").textContent = s.undo_needs_yes ? "Ask to undo my last move" : "Undo my last move";
  const ask = s.undo_asked;
  $("asked").hidden = !ask;
  $("asked").textContent = !ask ? "" : ask.mine ? "You asked to take back your last move; waiting for the others to agree" +
    (ask.agreed.length ? ` (${ask.agreed.join(", ")} agreed)` : "") + "." : `${ask.by} asks to take back their last move.`;
  $("agree").hidden = $("decline").hidden = !(ask && ask.may_answer);
  if (s.over) {
    document.body.dataset.state = "over";
    $("over").textContent = result(s); $("headline").textContent = "";
    $("turnhead").textContent = "Game over";
    const ranked = s.players.slice().sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    $("question").textContent = s.team ? result(s).replace("Game over. ", "") :
      ranked.map((p) => `${s.winners.includes(p.name) ? "★ " : ""}${p.name}: ${p.score ?? "—"}`).join(" · ");
  } else if (s.actions.length) {
    document.body.dataset.state = "yours";
    const q = cap(s.question) || "Your move";
    $("headline").textContent = `Your turn: ${q}`; $("turnhead").textContent = "Your turn";
    const where = document.body.dataset.board ? "the board or a card" : "a card or a place";
    $("question").textContent = q + (s.table.actions.some((a) => a.targets.length) ? ` (click ${where}, or choose below)` : ":");
    for (const a of s.actions) {
      const b = el("button", a.label, "action"); b.dataset.index = a.index; b.onclick = () => act(a.index); actions.append(b);
    }
  } else {
    document.body.dataset.state = "waiting";
    const who = s.waiting_for.join(", ") || "the table";
    $("headline").textContent = `Waiting for ${who}…`; $("turnhead").textContent = "Waiting";
    $("question").textContent = `Waiting for ${who}…`;
  }
  mark();
  showTarget();
}

function showTarget() {   // a board larger than its frame scrolls to the first place a move is about
  const wrap = $("boardwrap"), first = wrap && wrap.querySelector(".space.target");
  if (!first) return;
  const r = first.getBoundingClientRect(), w = wrap.getBoundingClientRect();
  if (r.left < w.left || r.right > w.right) wrap.scrollLeft += r.left - w.left - (w.width - r.width) / 2;
  if (r.top < w.top || r.bottom > w.bottom) wrap.scrollTop += r.top - w.top - (w.height - r.height) / 2;
}

async function post(what, body) {
  if (busy) return; busy = true;
  for (const b of document.querySelectorAll("button.action, button.choice, #banner button")) b.disabled = true;
  document.body.dataset.state = "sending";
  for (const li of document.querySelectorAll("#log li.fresh")) li.classList.remove("fresh");
  try {
    const r = await fetch(`${base}/${what}`, {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify(body)});
    if (!r.ok) { $("error").textContent = (await r.json()).error; }
    step = -1;
  } catch (e) { $("error").textContent = "The table does not answer (is davit serve still running?)"; }
  finally {
    for (const b of document.querySelectorAll("button.action, button.choice, #banner button")) b.disabled = false;
    busy = false; await poll();
  }
}
const act = (index) => post("act", {index, step});
$("undo").onclick = () => post("undo", {step});
$("rematch").onclick = () => post("rematch", {step});
$("agree").onclick = () => post("agree", {step});
$("decline").onclick = () => post("decline", {step});
for (const b of document.querySelectorAll("[data-zoom]")) b.onclick = () => {
  const z = Number(b.dataset.zoom); zoom = z === 0 ? 0 : zoom + z; if (last) getLayout(last).then((l) => { drawBoard(l, last); mark(); });
};
let resized = null;
window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(() => { if (last) getLayout(last).then((l) => { drawBoard(l, last); mark(); }); }, 150); });

let polling = false;
async function poll() {
  if (polling) return; polling = true;
  try {
    const r = await fetch(`${base}/state?since=${since}`, {cache: "no-store"});
    const s = await r.json();
    if (!r.ok) { $("error").textContent = s.error || r.statusText; return; }
    if (!busy) $("error").textContent = "";
    await render(s);
  } catch (e) { $("error").textContent = "The table does not answer (is davit serve still running?)"; }
  finally { polling = false; }
}

async function showStep(n) {
  const r = await fetch(`${base}/state?step=${n}`, {cache: "no-store"});
  const s = await r.json();
  if (!r.ok) { $("error").textContent = s.error || r.statusText; return; }
  $("log").replaceChildren(); step = -1;
  $("slider").max = s.last; $("slider").value = s.step;
  $("stepno").textContent = `decision ${s.step} of ${s.last}`;
  await render(s);
  document.body.dataset.state = s.over ? "over" : "replay";
  if (!s.over) $("headline").textContent = `Replay: decision ${s.step} of ${s.last}`;
}

if (document.body.dataset.replay) {
  $("slider").oninput = () => showStep($("slider").value);
  showStep(0);
} else {
  poll(); setInterval(() => { if (!busy) poll(); }, 1000);
}
"""
