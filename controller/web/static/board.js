// The scoreboard: read-only, no login; ?transparent=1 for streaming software.
"use strict";

(async function () {
  if (new URLSearchParams(location.search).get("transparent") === "1") document.body.classList.add("transparent");
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("board_title");
  let over = false;
  Box.socket("/ws/board", {
    open(ws) { ws.send(JSON.stringify({ type: "hello" })); },  // says what it is, or the box closes it
    close() { return !over; },  // the game is over and said so: the last scores stay up
    message(m) {
      if (m.type === "ended") { over = true; $("phase").textContent = Box.text("thanks"); return; }
      if (m.type !== "state") return;
      // between the menu's games (none live), as the host page: the closed game's final scores stay,
      // none of its words (its phase, question, first bell, margins, winners); one about to start says so
      const between = m.live === false;
      $("title").textContent = m.title;
      $("phase").textContent = between ? Box.text(m.starting ? "starting" : "board_between")
        : m.paused ? Box.text("paused") : (m.phase_label || String(m.phase || ""));
      $("question").textContent = m.question && !between ? "#" + m.question : "";
      $("clip").textContent = m.clip && !between ? Box.text("clip_" + m.clip) : "";  // "playing" or "paused"
      const body = $("players");
      Box.clear(body);
      // on a TV the rows go down one column, or two past eight players, and share the height (app.css)
      const columns = m.players.length > 8 ? 2 : 1;
      body.style.setProperty("--columns", String(columns));
      body.style.setProperty("--rows", String(Math.max(1, Math.ceil(m.players.length / columns))));
      // at the game's end the winners are marked (the HDMI strip's "WON"), not the last question's first bell
      const winners = m.finished && !between ? (m.winners || []) : [];
      for (const p of m.players) {
        const name = Box.el("td", { cls: "name", text: p.name });
        const margin = between ? undefined : m.margins_us[String(p.seat)];
        const won = winners.includes(p.seat), first = !m.finished && !between && m.first === p.seat;
        if (won) name.appendChild(Box.el("span", { cls: "margin", text: Box.text("won") }));
        else if (first) name.appendChild(Box.el("span", { cls: "margin", text: Box.text("first") }));
        else if (margin !== undefined && !m.finished) name.appendChild(Box.el("span", { cls: "margin", text: "+" + Box.seconds(margin) }));
        const row = Box.el("tr", { cls: won ? "first won" : (first ? "first" : ""), "data-seat": String(p.seat) },
          [name, Box.el("td", { cls: "score", text: p.score === null ? "" : String(p.score) })]);
        body.appendChild(row);
      }
    },
  });
})();
