// The player page: this seat's own page. A game with a phone panel
// (GameSpec.phone_panel) describes it as plain widgets, drawn here the same
// way for every game; any other game gets its private view field by field
// and its moves as buttons. Every tap sends one move the box offered.
"use strict";

(async function () {
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("player_title");
  // The seat's secret: from a seat's own address (then dropped from the address bar, so it is never
  // shown or shared by accident), else this tab's from before (a reload); none: the seat picker.
  // The browser also keeps every seat it was given (HELD): the picker offers those back, so a phone
  // whose tab was closed rejoins with a tap, and a phone passed round keeps one seat per tab.
  const KEPT = "buzzerbox-seat", HELD = "buzzerbox-seats";
  const held = () => { try { return JSON.parse(localStorage.getItem(HELD) || "{}"); } catch (e) { return {}; } };
  function keep(s, t) {
    sessionStorage.setItem(KEPT, JSON.stringify({ seat: s, token: t }));
    const all = held(); if (t) all[s] = t; else delete all[s];
    localStorage.setItem(HELD, JSON.stringify(all));
    if (!t) sessionStorage.removeItem(KEPT);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  let seat = parseInt(hash.get("seat"), 10), token = hash.get("token");
  if (seat >= 0 && token) {
    keep(seat, token);
    history.replaceState(null, "", location.pathname);
  } else {
    try { ({ seat, token } = JSON.parse(sessionStorage.getItem(KEPT) || "{}")); } catch (e) { seat = NaN; token = null; }
  }
  let lastDrawn = "";  // the last seat message drawn, its version left out
  let seq = 0, refusedForGood = false, last = null, picking = false, over = false, askCode = null;
  let chosenCard = null;  // the hand card whose choices are open (a card with several moves)
  let lastPick = null;  // the seat list the picker drew last (drawn again, its buttons live, after an answer)
  const typed = new Map();  // what the player has typed into a text field, kept while the page is drawn again
  let sentText = null;  // the text field whose text was sent last: forgotten once the box took it
  let typingIn = null;  // the text field the player is typing in (focused again after a redraw)
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
    // a choice the seat made and can no longer change (an all-play answer locked in), as the box keeps it:
    // every phone and tab of the seat shows it, after a reload too
    locked(w) {
      return Box.el("div", { cls: "w-locked", role: "status" }, [
        Box.el("div", { cls: "what", text: w.title }), Box.el("div", { cls: "choice", text: w.choice })]);
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
    // a short text to type (a team's name): kept while the page is drawn again
    text(w, panel) {
      const box = Box.el("div", { cls: "w-text" });
      if (w.title) box.appendChild(Box.el("h3", { text: w.title }));
      const key = w.title + "#" + JSON.stringify(w.move);
      const input = Box.el("input", { cls: "typed", maxlength: String(w.max_length), "aria-label": w.title });
      input.value = typed.has(key) ? typed.get(key) : w.value;
      input.addEventListener("input", () => typed.set(key, input.value));
      const b = button(w.button, "", "style-primary", () => {
        const value = input.value.trim();
        if (!value) return;
        typed.set(key, value);  // kept until the box takes it: a refused name stays there to be corrected
        sentText = key;
        send({ kind: w.move.kind, args: { ...w.move.args, [w.arg]: value } }, panel);
      });
      box.appendChild(Box.el("div", { cls: "text-row" }, [input, b]));
      if (typingIn === key) setTimeout(() => input.focus(), 0);
      input.addEventListener("focus", () => { typingIn = key; });
      input.addEventListener("blur", () => { if (typingIn === key) typingIn = null; });
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
          // a word on a key ("max") is set smaller: a seventh of a small phone's width holds two digits
          const cls = "choice" + (c.chosen ? " chosen" : "") + (c.label.length > 2 ? " long" : "");
          const b = button(c.label, "", cls, c.move ? () => send(c.move, panel) : null);
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
    $("clip").textContent = m.clip ? Box.text("clip_" + m.clip) : "";  // the question's clip: "playing" or "paused"
    if (m.panel) renderPanel(m.panel); else renderGeneric(m);
    if (m.rejected) Box.status($("status"), Box.text("refused") + ": " + m.rejected, "bad");
  }

  // Nothing of a hand stays on a phone that lost its seat.
  function forget() {
    last = null;
    Box.clear($("moves")); Box.clear($("private"));
    $("moves-title").textContent = ""; $("who").textContent = ""; $("clip").textContent = "";
    $("hold").classList.add("hidden");
  }

  // The seat picker: each seat, free ones taken at a tap, held ones asked of the host.
  function renderPicker(m) {
    lastPick = m;
    forget();
    $("title").textContent = Box.text("pick_title");
    const node = $("private");
    node.appendChild(Box.el("p", { cls: "pick-note", text: Box.text("pick_note") }));
    if (!m.seats.length) { node.appendChild(Box.el("p", { cls: "empty", text: Box.text("no_private") })); return; }
    const grid = Box.el("div", { cls: "pick" });
    const mine = held();
    for (const s of m.seats) {
      const label = s.name, kept = mine[s.seat];
      const detail = kept ? Box.text("pick_yours") : s.free ? Box.text("pick_free") : Box.text("pick_held");
      const b = button(label, detail, kept ? "seat-yours" : s.free ? "seat-free" : "seat-held", () => {
        if (kept) { seat = s.seat; token = kept; picking = false; keep(seat, token); link.send({ type: "hello", seat, token }); }
        else link.send({ type: "take", seat: s.seat });
        for (const other of grid.querySelectorAll("button")) other.disabled = true;
      });
      b.setAttribute("data-seat", String(s.seat));
      grid.appendChild(b);
    }
    node.appendChild(grid);
    showCode();
  }

  // The code of this phone's ask, large: the host gives the seat to the phone showing the code on the host page.
  function showCode() {
    const old = $("ask-code"); if (old) old.remove();
    if (askCode) $("private").prepend(Box.el("p", { id: "ask-code", cls: "ask-code", text: askCode }));
  }

  const link = Box.socket("/ws/seat", {
    open(ws) {
      if (seat >= 0 && token) ws.send(JSON.stringify({ type: "hello", seat, token }));
      else ws.send(JSON.stringify({ type: "seats" }));
    },
    message(m, ws) {
      if (m.type === "welcome") { seq = m.seq; Box.status($("status"), Box.text("seat") + " " + (seat + 1), "good"); }
      else if (m.type === "pick") {
        if (seat >= 0 && token) return;
        if (!picking) Box.status($("status"), "");  // "connecting" done; a later list keeps what the status says
        picking = true;
        renderPicker(m);
      }
      else if (m.type === "granted") {
        askCode = null;
        seat = m.seat; token = m.token; picking = false;
        keep(seat, token);
        ws.send(JSON.stringify({ type: "hello", seat, token }));
      }
      else if (m.type === "asked") {  // the same code is beside this ask on the host page: the host gives the seat by it
        askCode = m.code;
        Box.status($("status"), Box.text("pick_asked").replace("{code}", m.code), "");
        // the seats live again while the host decides: another tap moves the ask (or takes a free seat)
        if (last === null && picking && lastPick) renderPicker(lastPick);
      }
      else if (m.type === "denied") {
        Box.status($("status"), m.why || Box.text("pick_denied"), "bad");
        askCode = null; showCode();
        ws.send(JSON.stringify({ type: "seats" }));
      }
      else if (m.type === "seat") {
        // a snapshot that changes nothing of this seat (only its version) is not drawn again: the page
        // was rebuilt on every snapshot, and a tap could land on a button just replaced (a busy phone)
        const { version: _version, ...said } = m, drawn = JSON.stringify(said);
        if (last === null || drawn !== lastDrawn) { lastDrawn = drawn; render(m); }
      }
      else if (m.type === "ended") {
        over = true; forget(); $("title").textContent = Box.text("over");
        Box.status($("status"), ""); Box.ended($("private"), m);
      }
      else if (m.type === "ok") {
        Box.status($("status"), Box.text("sent"), "good");
        if (sentText !== null) typed.delete(sentText);
        sentText = null;
      }
      else if (m.type === "refused") {
        sentText = null;
        // the page as it was, its buttons live again: the player may correct and send again
        if (last !== null) render(last);
        else if (picking && lastPick) renderPicker(lastPick);
        Box.status($("status"), Box.text("refused") + ": " + m.why, "bad");
      }
    },
    close(ev) {
      if (over) return false;  // the game is over and said so: nothing to reconnect to
      if (ev.code === 4001) {  // the seat went to another phone (the host approved) or got a new code: pick again
        forget();
        if (seat >= 0) keep(seat, null);
        seat = NaN; token = null; picking = true;
        Box.status($("status"), Box.text("lost_seat"), "bad");
        return true;  // back to the picker
      }
      if (ev.code === 4004) return true;  // an idle picker: opened again at once, nothing to say
      if (ev.code === 4008) return true;  // the box is full: the page says so (its refusal) and tries again
      if (ev.code === 4002) {  // the same seat opened elsewhere: do not fight over it, let the player choose
        forget();
        Box.status($("status"), Box.text("replaced"), "bad");
        $("status").addEventListener("click", () => location.reload(), { once: true });
        return false;
      }
      if (!refusedForGood) Box.status($("status"), Box.text("reconnecting"), "bad");
      return true;
    },
  });
})();
