// The host remote: PIN first, then every host button the game has, the
// scores, and (for games with phones) each seat with a "new code" button.
"use strict";

(async function () {
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("host_title");
  $("pin-label").textContent = Box.text("pin");
  $("enter").textContent = Box.text("enter");
  $("scores-title").textContent = Box.text("score");
  $("seats-title").textContent = Box.text("seats");
  let pin = sessionStorage.getItem("pin") || "", seq = 0, state = null, joined = [];

  function renderSeats() {
    if (!state || !state.uses_seats) { $("seats-box").className = "hidden"; return; }
    $("seats-box").className = "";
    const seats = $("seats");
    Box.clear(seats);
    state.players.forEach((p, i) => {
      const b = Box.el("button", { text: Box.text("reissue"), "data-seat": String(i) });
      b.addEventListener("click", () => { seq += 1; link.send({ type: "reissue", seat: i, seq }); });
      seats.appendChild(Box.el("div", { cls: "seat" }, [
        Box.el("span", { text: p.name }),
        Box.el("span", { cls: joined[i] ? "joined" : "", text: Box.text(joined[i] ? "joined" : "not_joined") }),
        b]));
    });
  }

  function render(m) {
    state = m;
    $("phase").textContent = m.finished ? Box.text("over") : Box.text("phase_" + m.phase, String(m.phase || ""));
    const buttons = $("buttons");
    Box.clear(buttons);
    for (const b of m.buttons) {
      const e = Box.el("button", { cls: b.name, "data-action": b.name, text: Box.text(b.name) });
      e.disabled = !b.legal || m.finished;
      e.addEventListener("click", () => { seq += 1; link.send({ type: "host", action: b.name, seq }); });
      buttons.appendChild(e);
    }
    const scores = $("scores");
    Box.clear(scores);
    for (const p of m.players) {
      scores.appendChild(Box.el("div", { cls: "seat" }, [Box.el("span", { text: p.name }),
        Box.el("strong", { text: p.score === null ? "" : String(p.score) })]));
    }
    renderSeats();
  }

  const link = Box.socket("/ws/host", {
    open(ws) { if (pin) ws.send(JSON.stringify({ type: "hello", pin })); },
    message(m) {
      if (m.type === "welcome") {
        seq = m.seq; sessionStorage.setItem("pin", pin);
        $("login").className = "hidden"; $("remote").className = "";
        Box.status($("status"), "");
      } else if (m.type === "host") render(m);
      else if (m.type === "seats") { joined = m.joined; renderSeats(); }
      else if (m.type === "ok") Box.status($("status"), Box.text("sent"), "good");
      else if (m.type === "refused") {
        Box.status($("status"), m.why, "bad");
        if ($("remote").className === "hidden") { pin = ""; sessionStorage.removeItem("pin"); }
      }
    },
    close() { Box.status($("status"), Box.text("reconnecting"), "bad"); return true; },
  });

  $("login").addEventListener("submit", (ev) => {
    ev.preventDefault();
    pin = $("pin").value.trim();
    link.send({ type: "hello", pin });
  });
})();
