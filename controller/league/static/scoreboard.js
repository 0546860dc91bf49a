// The hall's scoreboard: reads /board.json once a second and draws every room and the standings.
"use strict";
function cell(tag, text) { const el = document.createElement(tag); el.textContent = text; return el; }
function draw(data) {
  const L = data.labels;
  const rooms = document.getElementById("rooms");
  rooms.replaceChildren(...data.rooms.map((room) => {
    const box = document.createElement("div");
    box.className = "room" + (room.online ? "" : " off");
    box.append(cell("h3", room.name + (room.online ? "" : " (" + L.offline + ")")));
    box.append(cell("p", room.teams.length ? room.teams.join(" – ") : L.no_match));
    if (room.question) box.append(cell("p", L.question.replace("{number}", room.question) + (room.phase ? " · " + room.phase : "")));
    const table = document.createElement("table");
    for (const p of room.players) {
      const tr = document.createElement("tr");
      tr.append(cell("td", p.name), cell("td", p.score === null ? "" : p.score));
      table.append(tr);
    }
    box.append(table);
    return box;
  }));
  const head = document.createElement("tr");
  for (const key of ["rank", "team", "played", "won", "drawn", "lost", "points", "scored", "difference"]) head.append(cell("th", L[key]));
  const rows = data.standings.map((r) => {
    const tr = document.createElement("tr");
    for (const v of [r.rank, r.name, r.played, r.won, r.drawn, r.lost, r.points, r.scored, r.difference]) tr.append(cell("td", v));
    return tr;
  });
  document.getElementById("standings").replaceChildren(head, ...rows);
}
async function tick() {
  try { const res = await fetch("/board.json", { cache: "no-store" }); if (res.ok) draw(await res.json()); } catch (e) { /* the hub restarts: try again */ }
  setTimeout(tick, 1000);
}
tick();
