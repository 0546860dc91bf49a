// Shared by the three pages: the box's texts, a WebSocket that comes back
// after a phone sleeps, and DOM helpers that only ever set text (never HTML).
"use strict";

const Box = {
  t: {},
  async loadTexts() {
    try {
      const r = await fetch("/messages.json", { cache: "no-store" });
      Box.t = await r.json();  // the tab's title is the page's own, set by the box in its language
    } catch (e) { Box.t = {}; }
  },
  text(key, fallback) { return Box.t[key] || fallback || key; },
  el(tag, props, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "text") e.textContent = v; else if (k === "cls") e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children || []) e.appendChild(c);
    return e;
  },
  clear(node) { while (node.firstChild) node.removeChild(node.firstChild); },
  seconds(us) {
    const s = (us / 1e6).toFixed(3);
    return s.replace(".", Box.t.decimal || ".") + " s";
  },
  // A socket that reconnects (backing off to 5 s) and again when the page
  // becomes visible: a phone that slept takes its seat back by itself.
  // A link that drops, goes offline or is silent past SILENT_MS (the box says
  // "alive" every few seconds even when nothing happens: controller/web/server.py
  // KEEPALIVE_S) is said on the page at once ("connection lost: reconnecting")
  // and opened anew; the word goes once a socket is open again.
  SILENT_MS: 25000,
  socket(path, handlers) {
    let ws = null, delay = 250, stopped = false, timer = null, heard = Date.now();
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    function open() {
      if (stopped) return;
      clearTimeout(timer);
      ws = new WebSocket(url);
      heard = Date.now();
      ws.onopen = () => { delay = 250; heard = Date.now(); Box.linkLost(false); handlers.open && handlers.open(ws); };
      ws.onmessage = (ev) => {
        heard = Date.now();
        let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
        if (m && m.type === "alive") return;  // the box's keepalive: heard, nothing to show
        handlers.message(m, ws);
      };
      ws.onclose = (ev) => {
        if (handlers.close && handlers.close(ev) === false) { stopped = true; Box.linkLost(false); return; }
        if (ev.code < 4000) Box.linkLost(true);  // 4000 and up: the box closed it on purpose, and the page says why
        timer = setTimeout(open, delay); delay = Math.min(5000, delay * 2);
      };
    }
    // a link that cannot be trusted (offline, silent): said now, the old socket let go, a new one opened
    function drop(wait) {
      if (stopped) return;
      Box.linkLost(true);
      if (ws) {
        const old = ws; ws = null;
        old.onopen = old.onmessage = old.onclose = null;
        try { old.close(); } catch (e) { /* closing a dead socket: nothing to do */ }
      }
      clearTimeout(timer); timer = setTimeout(open, wait);
    }
    setInterval(() => { if (ws && ws.readyState === 1 && Date.now() - heard > Box.SILENT_MS) drop(delay); }, 1000);
    window.addEventListener("offline", () => drop(5000));
    window.addEventListener("online", () => { delay = 250; drop(0); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && (!ws || ws.readyState > 1)) { delay = 250; open(); }
    });
    open();
    return { send(obj) { if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; } return false; },
             get ws() { return ws; } };
  },
  // The word that the link to the box is lost, at the top of the page (made on first need).
  linkLost(lost) {
    let node = document.getElementById("link-lost");
    if (!node && !lost) return;
    if (!node) {
      node = Box.el("div", { id: "link-lost", cls: "link-lost", role: "alert" });
      document.body.insertBefore(node, document.body.firstChild);
    }
    node.textContent = Box.text("reconnecting");
    node.className = lost ? "link-lost" : "link-lost hidden";
  },
  // The server stopped with the game: "game over, thanks" and the final scores, in place of the page.
  ended(node, m) {
    Box.clear(node);
    node.appendChild(Box.el("h2", { cls: "thanks", text: Box.text("thanks") }));
    if (m.players && m.players.length) {
      node.appendChild(Box.el("h3", { text: Box.text("final_scores") }));
      const rows = [...m.players].sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity));
      for (const p of rows) {
        node.appendChild(Box.el("div", { cls: "fact final" }, [Box.el("span", { cls: "key", text: p.name || "" }),
          Box.el("span", { cls: "value", text: p.score === null || p.score === undefined ? "" : String(p.score) })]));
      }
    }
  },
  status(node, text, kind) { node.textContent = text || ""; node.className = "status" + (kind ? " " + kind : ""); },
  // A private view, whatever the game: lists of plain values as cards, the rest as "key: value".
  renderView(node, view) {
    Box.clear(node);
    for (const [key, value] of Object.entries(view || {})) {
      if (key === "player" || key === "moves" || key === "legal_moves") continue;
      const row = Box.el("div", { cls: "field" }, [Box.el("span", { cls: "key", text: key.replace(/_/g, " ") })]);
      if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
        const chips = Box.el("div", { cls: "chips" });
        for (const v of value) chips.appendChild(Box.el("span", { cls: "chip", text: String(v) }));
        row.appendChild(chips);
      } else if (value !== null && typeof value === "object") {
        row.appendChild(Box.el("span", { text: JSON.stringify(value) }));
      } else {
        row.appendChild(Box.el("span", { text: String(value) }));
      }
      node.appendChild(row);
    }
  },
};
