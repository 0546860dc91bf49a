// The player page: this seat's private view and the moves it may make now.
"use strict";

(async function () {
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("player_title");
  $("moves-title").textContent = Box.text("your_moves");
  const hash = new URLSearchParams(location.hash.slice(1));
  const seat = parseInt(hash.get("seat"), 10), token = hash.get("token");
  if (!(seat >= 0) || !token) { Box.status($("status"), Box.text("no_seat"), "bad"); return; }
  let seq = 0, refusedForGood = false;
  Box.status($("status"), Box.text("connecting"));

  function render(m) {
    $("who").textContent = m.name;
    Box.renderView($("private"), m.private);
    const moves = $("moves");
    Box.clear(moves);
    for (const move of m.moves) {
      const label = [move.kind, ...Object.values(move.args)].join(" ");
      const b = Box.el("button", { "data-kind": move.kind, text: label });
      if (move.preview) b.appendChild(Box.el("small", { text: Object.entries(move.preview).map(([k, v]) => k + ": " + v).join(", ") }));
      b.addEventListener("click", () => {
        seq += 1;
        if (link.send({ type: "move", kind: move.kind, args: move.args, seq })) {
          for (const other of moves.querySelectorAll("button")) other.disabled = true;
        }
      });
      moves.appendChild(b);
    }
    if (!m.moves.length) moves.appendChild(Box.el("p", { text: m.finished ? Box.text("over") : Box.text("no_moves") }));
    if (m.rejected) Box.status($("status"), Box.text("refused") + ": " + m.rejected, "bad");
  }

  const link = Box.socket("/ws/seat", {
    open(ws) { ws.send(JSON.stringify({ type: "hello", seat, token })); },
    message(m) {
      if (m.type === "welcome") { seq = m.seq; Box.status($("status"), Box.text("seat") + " " + (seat + 1), "good"); }
      else if (m.type === "seat") render(m);
      else if (m.type === "ok") Box.status($("status"), Box.text("sent"), "good");
      else if (m.type === "refused") Box.status($("status"), Box.text("refused") + ": " + m.why, "bad");
    },
    close(ev) {
      if (ev.code === 4001) { refusedForGood = true; Box.status($("status"), Box.text("bad_token"), "bad"); Box.clear($("moves")); return false; }
      if (ev.code === 4002) {  // the same seat opened elsewhere: do not fight over it, let the player choose
        Box.status($("status"), Box.text("replaced"), "bad");
        $("status").addEventListener("click", () => location.reload(), { once: true });
        return false;
      }
      if (!refusedForGood) Box.status($("status"), Box.text("reconnecting"), "bad");
      return true;
    },
  });
})();
