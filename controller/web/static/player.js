// The player page: this seat's own page. A game with a phone panel
// (GameSpec.phone_panel) describes it as plain widgets, drawn here the same
// way for every game; any other game gets its private view field by field
// and its moves as buttons. Every tap sends one move the box offered.
"use strict";

(async function () {
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("player_title");
  const hash = new URLSearchParams(location.hash.slice(1));
  const seat = parseInt(hash.get("seat"), 10), token = hash.get("token");
  if (!(seat >= 0) || !token) { Box.status($("status"), Box.text("no_seat"), "bad"); return; }
  let seq = 0, refusedForGood = false, last = null;
  let chosenCard = null;  // the hand card whose choices are open (a card with several moves)
  Box.status($("status"), Box.text("connecting"));

  // A panel's move as sent: held for the station's button when the switch is on.
  function send(move, panel) {
    const held = panel && panel.hold && $("hold-box").checked;
    const out = held ? { kind: panel.hold, args: { move: { kind: move.kind, args: move.args } } } : move;
    seq += 1;
    if (link.send({ type: "move", kind: out.kind, args: out.args, seq })) {
      for (const b of document.querySelectorAll("main button")) b.disabled = true;
      chosenCard = null;
    }
  }

  function button(label, detail, cls, onTap) {
    const b = Box.el("button", { cls: cls || "", text: label });
    if (detail) b.appendChild(Box.el("small", { text: detail }));
    if (onTap) b.addEventListener("click", onTap); else b.disabled = true;
    return b;
  }

  // A panel button; one that cannot be taken back asks for a second tap within 4 s.
  function panelButton(spec, cls, panel) {
    let armed = null;
    const b = button(spec.label, spec.detail, cls, () => {
      if (!spec.confirm || armed) { clearTimeout(armed); send(spec.move, panel); return; }
      b.classList.add("armed");
      b.firstChild.textContent = spec.confirm;
      armed = setTimeout(() => { armed = null; b.classList.remove("armed"); b.firstChild.textContent = spec.label; }, 4000);
    });
    return b;
  }

  // Dark or light ink, whichever reads on this "#rrggbb" background.
  function readableOn(hex) {
    const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#14161c" : "#f4f5f8";
  }

  // Mark -> one of a few card colours: the same kind always looks the same.
  function hue(mark) {
    let h = 0;
    for (const c of mark || "") h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return "mark-" + (h % 8);
  }

  const draw = {
    heading(w) {
      const box = Box.el("div", { cls: "w-heading" }, [Box.el("h2", { text: w.text })]);
      if (w.detail) box.appendChild(Box.el("div", { cls: "detail", text: w.detail }));
      return box;
    },
    note(w) { return Box.el("div", { cls: "w-note tone-" + (w.tone || "plain"), text: w.text }); },
    hand(w, panel) {
      const box = Box.el("div", { cls: "w-hand" }, [Box.el("h3", { text: w.title })]);
      const cards = Box.el("div", { cls: "cards" });
      if (!w.cards.length && w.empty) box.appendChild(Box.el("p", { cls: "empty", text: w.empty }));
      let open = null;
      w.cards.forEach((card, i) => {
        const key = w.title + "#" + i + "#" + card.label;
        const cls = "card " + hue(card.mark) + (card.legal ? " legal" : "") + (chosenCard === key ? " chosen" : "");
        const tap = !card.actions.length ? null : () => {
          if (card.actions.length === 1 && !card.actions[0].confirm) { send(card.actions[0].move, panel); return; }
          chosenCard = chosenCard === key ? null : key;
          render(last);
        };
        // a long name ("yellowhammer") gets a smaller font rather than a break mid-word
        const long = card.label.split(/\s+/).some((word) => word.length > 10);
        const b = button(card.label, card.detail, cls + (long ? " long" : ""), tap);
        b.setAttribute("data-card", String(i));
        if (card.color) {  // the big screen's colour for this kind, so a card looks the same on both
          b.style.setProperty("background", card.color, "important");
          b.style.setProperty("color", readableOn(card.color));
        }
        cards.appendChild(b);
        if (chosenCard === key) open = card;
      });
      box.appendChild(cards);
      if (open) {
        const choices = Box.el("div", { cls: "card-actions" }, [Box.el("div", { cls: "for", text: open.label })]);
        for (const a of open.actions) choices.appendChild(panelButton(a, "style-" + a.style, panel));
        box.appendChild(choices);
      }
      return box;
    },
    buttons(w, panel) {
      const box = Box.el("div", { cls: "w-buttons" });
      if (w.title) box.appendChild(Box.el("h3", { text: w.title }));
      const grid = Box.el("div", { cls: "grid" });
      for (const b of w.buttons) grid.appendChild(panelButton(b, "style-" + b.style, panel));
      box.appendChild(grid);
      return box;
    },
    guesses(w, panel) {
      const box = Box.el("div", { cls: "w-guesses" }, [Box.el("h3", { text: w.title })]);
      w.rows.forEach((row, r) => {
        const line = Box.el("div", { cls: "guess-row", "data-row": String(r) }, [Box.el("div", { cls: "who", text: row.label })]);
        const pad = Box.el("div", { cls: "pad" });
        for (const c of row.choices) {
          const b = button(c.label, "", "choice" + (c.chosen ? " chosen" : ""), c.move ? () => send(c.move, panel) : null);
          pad.appendChild(b);
        }
        line.appendChild(pad);
        box.appendChild(line);
      });
      return box;
    },
    facts(w) {
      const box = Box.el("div", { cls: "w-facts" });
      if (w.title) box.appendChild(Box.el("h3", { text: w.title }));
      for (const [k, v] of w.rows) {
        box.appendChild(Box.el("div", { cls: "fact" }, [Box.el("span", { cls: "key", text: k }), Box.el("span", { cls: "value", text: v })]));
      }
      return box;
    },
  };

  function renderPanel(panel) {
    const node = $("private");
    Box.clear(node);
    $("hold").classList.toggle("hidden", !panel.hold);
    $("hold-label").textContent = panel.hold_label || "";
    for (const w of panel.widgets) {
      const make = draw[w.type];
      if (make) node.appendChild(make(w, panel));
    }
  }

  function renderGeneric(m) {
    $("moves-title").textContent = Box.text("your_moves");
    Box.renderView($("private"), m.private);
    const moves = $("moves");
    for (const move of m.moves) {
      const label = [move.kind, ...Object.values(move.args)].join(" ");
      const b = Box.el("button", { "data-kind": move.kind, text: label });
      if (move.preview) b.appendChild(Box.el("small", { text: Object.entries(move.preview).map(([k, v]) => k + ": " + v).join(", ") }));
      b.addEventListener("click", () => send(move, null));
      moves.appendChild(b);
    }
    if (!m.moves.length) moves.appendChild(Box.el("p", { text: m.finished ? Box.text("over") : Box.text("no_moves") }));
  }

  function render(m) {
    last = m;
    $("who").textContent = m.name;
    // a game's own page is headed by the game (Pictomania's is no hand); the generic one says "Your hand"
    $("title").textContent = m.panel && m.title ? m.title : Box.text("player_title");
    Box.clear($("moves"));
    $("moves-title").textContent = "";
    if (m.panel) renderPanel(m.panel); else renderGeneric(m);
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
      if (ev.code === 4001) { refusedForGood = true; Box.status($("status"), Box.text("bad_token"), "bad"); Box.clear($("moves")); Box.clear($("private")); return false; }
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
