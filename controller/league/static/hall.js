// The hall screen: the hub pushes the whole board (server-sent events); this draws it, and keeps the
// clock and every "updated N s ago" going between pushes by the hub's own time.
"use strict";
const L = JSON.parse(document.getElementById("labels").textContent);
let board = null;
let offset = 0; // hub clock minus this screen's
let lastFrame = 0; // this screen's clock at the last frame
let page = 0;
const PAGE_S = 8;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
function say(key, values) {
  let text = L[key];
  for (const [k, v] of Object.entries(values || {})) text = text.replace("{" + k + "}", v);
  return text;
}
function hubNow() { return Date.now() + offset; }
function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? say("ago", { n: s }) : say("ago_min", { n: Math.floor(s / 60) });
}

function card(room) {
  const box = el("div", null, "room" + (room.online ? "" : " off"));
  box.dataset.heard = room.heard_ms || "";
  box.append(el("h3", room.name + (room.online ? "" : " (" + L.offline + ")"), "clip"));
  box.append(el("div", "", "age"));
  box.append(el("div", room.teams.length ? room.teams.join(" – ") : L.no_match, "teams clip"));
  if (room.question) box.append(el("div", say("question", { number: room.question }) + (room.phase ? " · " + room.phase : ""), "q clip"));
  if (room.first) {
    box.append(el("div", say("first", { name: room.first.name }), "first clip"));
    if (room.first.lead_us !== null) box.append(el("div", say("by", { ms: (room.first.lead_us / 1000).toFixed(1) }), "by"));
  }
  // the teams' totals when the room's stations add up to its teams, else each station's score
  const rows = room.scores ? room.teams.map((name, k) => [name, room.scores[k]])
    : room.players.map((p) => [p.name, p.score]).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0)).slice(0, 4);
  const table = el("table", null, room.scores ? "teams" : "stations");
  for (const [name, score] of rows) {
    const tr = el("tr");
    tr.append(el("td", name), el("td", score === null || score === undefined ? "" : score));
    table.append(tr);
  }
  box.append(table);
  return box;
}

function drawRooms() {
  const rooms = document.getElementById("rooms");
  rooms.className = board.rooms.length > 4 ? "many" : "";
  rooms.replaceChildren(...board.rooms.map(card));
}

function drawStandings() {
  const table = document.getElementById("standings");
  const head = el("tr");
  for (const key of ["rank", "team", "played", "points", "difference"]) head.append(el("th", L[key]));
  const rows = board.standings.map((r) => {
    const tr = el("tr");
    for (const v of [r.rank, r.name, r.played, r.points, (r.difference > 0 ? "+" : "") + r.difference]) tr.append(el("td", v));
    return tr;
  });
  table.replaceChildren(head);
  if (!rows.length) return;
  // as many rows as fit the screen; more rows turn pages every PAGE_S seconds
  table.append(rows[0]);
  const space = document.getElementById("table").getBoundingClientRect().bottom - head.getBoundingClientRect().bottom;
  const fit = Math.max(1, Math.floor(space / rows[0].offsetHeight));
  const pages = Math.ceil(rows.length / fit);
  page = page % pages;
  table.replaceChildren(head, ...rows.slice(page * fit, (page + 1) * fit));
  document.getElementById("page").textContent = pages > 1 ? say("page", { n: page + 1, of: pages }) : "";
}

// the playoff, once drawn: a column per round, each match's teams (or where they come from) and scores
function drawBracket() {
  const box = document.getElementById("bracket");
  const ties = board.bracket || [];
  box.hidden = !ties.some((t) => t.teams);
  if (box.hidden) { box.replaceChildren(); return; }
  const rounds = [];
  for (const t of ties) (rounds[t.round - 1] ||= []).push(t);
  const names = ["final", "semis", "quarters"];
  const cols = rounds.map((round, k) => {
    const col = el("div", null, "round");
    col.append(el("h4", L[names[rounds.length - 1 - k]], "clip"));
    for (const t of round) {
      const who = t.names || t.fed_by.map((f) => (f.startsWith("#") ? say("seed", { n: f.slice(1) }) : say("winner_of", { match: f })));
      const tie = el("div", null, "tie " + t.state);
      for (let k = 0; k < 2; k++) {
        const line = el("div", null, "clip" + (t.winner && t.teams && t.teams[k] === t.winner ? " won" : ""));
        line.append(el("span", t.scores ? t.scores[k] : "", "s"), el("span", who[k]));
        tie.append(line);
      }
      if (t.state === "decider") tie.append(el("div", L.decider, "decider"));
      col.append(tie);
    }
    return col;
  });
  box.replaceChildren(el("h2", L.playoff), el("div", null, "rounds"));
  box.lastChild.replaceChildren(...cols);
}

function tick() {
  const now = hubNow();
  document.getElementById("clock").textContent = new Date(now).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  if (!board) return;
  for (const box of document.querySelectorAll(".room")) {
    const heard = Number(box.dataset.heard);
    const age = heard ? now - heard : null;
    box.querySelector(".age").textContent = age === null ? L.never : ago(age);
    box.classList.toggle("stale", age === null || age > board.stale_after_ms);
  }
  const banner = document.getElementById("banner");
  const lost = Date.now() - lastFrame > 15000;
  banner.hidden = board.broker.up && !lost;
  banner.textContent = lost ? L.hub_lost : say("broker_lost", { n: Math.round((now - board.broker.since_ms) / 1000) });
  document.getElementById("updated").textContent = ago(Date.now() - lastFrame);
}

let frames = 0;
function take(frame) {
  offset = frame.now_ms - Date.now();
  lastFrame = Date.now();
  board = frame.board;
  drawRooms();
  drawBracket();
  drawStandings();
  tick();
  frames += 1;
  document.body.dataset.frames = String(frames);
  document.body.dataset.version = String(board.version);
}

const source = new EventSource("/events");
source.onmessage = (e) => take(JSON.parse(e.data));
setInterval(tick, 1000);
setInterval(() => { page += 1; if (board) drawStandings(); }, PAGE_S * 1000);
tick();
