// The host remote: PIN first, then the host buttons that make sense in this
// game right now (named by the box, in its language), pause and end, each
// player's name and score (with corrections), and, for games with phones,
// each seat with a "new code" button.
"use strict";

(async function () {
  // a PIN sent before the page's texts came (a slow phone, a busy box) submitted the form natively:
  // the page reloaded and the PIN was gone. It is held, and sent once the page is ready.
  const login = document.getElementById("login");
  let sentEarly = false;
  const holdEarly = (ev) => { ev.preventDefault(); sentEarly = true; };
  login.addEventListener("submit", holdEarly);
  await Box.loadTexts();
  const $ = (id) => document.getElementById(id);
  $("title").textContent = Box.text("host_title");
  $("pin-label").textContent = Box.text("pin");
  $("enter").textContent = Box.text("enter");
  $("scores-title").textContent = Box.text("score");
  $("teams-title").textContent = Box.text("teams");
  $("seats-title").textContent = Box.text("seats");
  $("packs-title").textContent = Box.text("packs_title");
  $("pack-send").textContent = Box.text("pack_send");
  $("next-start").addEventListener("click", () => send({ type: "start" }));
  let pin = sessionStorage.getItem("pin") || "", seq = 0, authed = false, pinAsked = false, state = null, joined = [], asks = [], endArmed = false, rotateArmed = false, armedTimer = null, over = false;
  let packShown = false;  // the status and the lines say what the last upload came to
  let menu = false;  // a menu runs the evening (the welcome says): its pack row offers an uploaded pack
  const editing = new Map(); // seat -> text typed but not saved (kept across updates)
  const editingTeams = new Map(); // team -> its name typed but not saved

  function send(obj) {
    // not logged in on this socket yet (reconnecting): the tap is not sent, and the page says why
    if (!authed) { Box.status($("status"), Box.text("reconnecting"), "bad"); return; }
    seq += 1; obj.seq = seq; link.send(obj);
  }

  function renderSeats() {
    if (!state || !state.uses_seats) { $("seats-box").className = "hidden"; return; }
    $("seats-box").className = "";
    const seats = $("seats");
    Box.clear(seats);
    state.players.forEach((p, i) => {
      const b = Box.el("button", { text: Box.text("reissue"), "data-seat": String(i) });
      b.addEventListener("click", () => send({ type: "reissue", seat: i }));
      seats.appendChild(Box.el("div", { cls: "seat" }, [
        Box.el("span", { text: p.name }),
        Box.el("span", { cls: joined[i] ? "joined" : "", text: Box.text(joined[i] ? "joined" : "not_joined") }),
        b]));
      // each phone asking for a seat another phone holds, by the code its screen shows: the host gives it to one
      for (const ask of asks.filter((a) => a.seat === i)) {
        const give = Box.el("button", { cls: "approve", "data-seat": String(i), "data-code": ask.code, text: Box.text("approve") });
        give.addEventListener("click", () => send({ type: "approve", seat: i, code: ask.code }));
        const keep = Box.el("button", { cls: "deny", "data-seat": String(i), "data-code": ask.code, text: Box.text("deny") });
        keep.addEventListener("click", () => send({ type: "deny", seat: i, code: ask.code }));
        seats.appendChild(Box.el("div", { cls: "takeover", "data-code": ask.code }, [
          Box.el("span", { text: Box.text("takeover").replace("{name}", p.name).replace("{code}", ask.code) }), give, keep]));
      }
    });
  }

  // addresses that sent wrong PINs and wait: said on the page (a guesser is never silent)
  function renderLockouts(lockouts) {
    const node = $("lockouts"), addresses = Object.keys(lockouts);
    node.textContent = addresses.length ? Box.text("lockouts").replace("{addresses}", addresses.join(", ")) : "";
    node.className = addresses.length ? "alert" : "hidden";
  }

  function button(action, label, cls) {
    const e = Box.el("button", { cls: cls || action, "data-action": action, text: label });
    e.addEventListener("click", () => send({ type: "host", action }));
    return e;
  }

  function renderBoxButtons(m) {
    const row = $("box-buttons");
    Box.clear(row);
    // the PIN is off the big screen once a host is in; a co-host needs it shown again
    const show = Box.el("button", { cls: "show-pin", "data-action": "show_pin", text: Box.text("show_pin") });
    show.addEventListener("click", () => { send({ type: "show_pin" }); pinAsked = true; });
    if (!m.live) { row.appendChild(show); return; }
    if (!m.finished) row.appendChild(m.paused ? button("continue", Box.text("continue"), "continue")
                                               : button("pause", Box.text("pause"), "pause"));
    const end = Box.el("button", { cls: "end" + (endArmed ? " armed" : ""), "data-action": "end",
                                   text: endArmed ? Box.text("end_confirm") : Box.text("end") });
    end.addEventListener("click", () => {  // two taps: a game is not ended by a slip of the thumb
      if (endArmed) { endArmed = false; send({ type: "host", action: "end" }); } else arm(() => { endArmed = true; });
      renderBoxButtons(state);
    });
    row.appendChild(end);
    row.appendChild(show);
    row.appendChild(rotateButton());
  }

  // A two-tap button's first tap: armed for 4 s (as the phones' confirms), then it falls back by itself.
  function arm(set) {
    endArmed = false; rotateArmed = false; set();
    clearTimeout(armedTimer);
    armedTimer = setTimeout(() => { endArmed = false; rotateArmed = false; if (state) renderBoxButtons(state); }, 4000);
  }

  function rotateButton() {
    const b = Box.el("button", { cls: "rotate-pin" + (rotateArmed ? " armed" : ""), "data-action": "rotate_pin",
                                 text: rotateArmed ? Box.text("rotate_confirm") : Box.text("rotate_pin") });
    b.addEventListener("click", () => {
      if (rotateArmed) { rotateArmed = false; send({ type: "rotate_pin" }); } else arm(() => { rotateArmed = true; });
      renderBoxButtons(state);
    });
    return b;
  }

  // Keep the host's phone awake while the remote is open (where the browser allows it).
  let wake = null;
  async function keepAwake() {
    try { if ("wakeLock" in navigator && document.visibilityState === "visible" && !wake) {
      wake = await navigator.wakeLock.request("screen");
      wake.addEventListener("release", () => { wake = null; });
    } } catch (e) { wake = null; }
  }
  document.addEventListener("visibilitychange", keepAwake);

  function renderPlayers(m) {
    const scores = $("scores");
    const rows = scores.querySelectorAll(".player");
    // between games (none live) a row keeps the closed game's final score, not its last word ("pressed"):
    // the word was of a moment of that game, the score is how it ended
    const label = (p) => (m.live && p.label) || "";
    const score = (p) => p.score === null || p.score === undefined ? "" : String(p.score);
    const typing = document.activeElement && document.activeElement.classList.contains("name");
    if (typing && rows.length === m.players.length && !!scores.querySelector(".adjust") === !!m.adjust) {
      // a name is being typed: change the scores in place, never the field under the thumb
      m.players.forEach((p, i) => {
        rows[i].querySelector(".label").textContent = label(p);
        rows[i].querySelector(".score").textContent = score(p);
      });
      return;
    }
    Box.clear(scores);
    for (const p of m.players) {
      const [name, save] = nameEditor(editing, p.seat, p.name,
        { cls: "name", "data-seat": String(p.seat), maxlength: "16", "aria-label": Box.text("names") },
        { "data-rename": String(p.seat) }, (typed) => ({ type: "name", seat: p.seat, name: typed }));
      const parts = [name, save, Box.el("span", { cls: "label", text: label(p) }),
        Box.el("strong", { cls: "score", text: score(p) })];
      if (m.adjust) {
        for (const [points, text] of [[-1, "−1"], [1, "+1"]]) {
          const b = Box.el("button", { cls: "adjust", "data-adjust": String(points), text });
          b.addEventListener("click", () => send({ type: "score", seat: p.seat, points }));
          parts.push(b);
        }
      }
      scores.appendChild(Box.el("div", { cls: "seat player", "data-seat": String(p.seat) }, parts));
    }
  }

  // A name field and its Save button: what is typed survives the page's updates
  // (kept in ``typing`` under ``key``) until saved as the message ``message(name)``.
  function nameEditor(typing, key, current, fieldAttrs, saveAttrs, message) {
    const name = Box.el("input", fieldAttrs);
    name.value = typing.has(key) ? typing.get(key) : current;
    name.addEventListener("input", () => typing.set(key, name.value));
    const save = Box.el("button", Object.assign({ cls: "save", text: Box.text("rename") }, saveAttrs));
    save.addEventListener("click", () => {
      send(message(name.value.trim()));
      typing.delete(key);
    });
    return [name, save];
  }

  // The teams the host may rename (a team quiz): each in its colour, its name to edit, its players under it.
  function renderTeams(m) {
    const box = $("teams-box"), list = $("teams"), teams = m.teams || [];
    if (!teams.length) { box.className = "hidden"; Box.clear(list); return; }
    box.className = "";
    const typing = document.activeElement && document.activeElement.classList.contains("team-name");
    const rows = list.querySelectorAll(".team");
    if (typing && rows.length === teams.length) {
      // a name is being typed: change the players in place, never the field under the thumb
      teams.forEach((t, i) => { rows[i].querySelector(".members").textContent = t.members.join(", ") || "-"; });
      return;
    }
    Box.clear(list);
    for (const t of teams) {
      const [name, save] = nameEditor(editingTeams, t.team, t.name,
        { cls: "team-name", "data-team": String(t.team), maxlength: String(t.most), "aria-label": Box.text("teams") },
        { "data-team-rename": String(t.team) }, (typed) => ({ type: "team_name", team: t.team, name: typed }));
      const swatch = Box.el("span", { cls: "swatch" });
      swatch.style.setProperty("background", "rgb(" + t.colour.join(",") + ")");
      list.appendChild(Box.el("div", { cls: "seat team", "data-team": String(t.team) }, [
        swatch, name, save, Box.el("span", { cls: "members", text: t.members.join(", ") || "-" })]));
    }
  }

  function renderNext(m) {
    // the menu's next game and its options: each applies when that game starts
    // (none: ``null``; a next game without its option rows is taken as none, never a page that stops drawing)
    const box = $("next-box"), list = $("next");
    if (!m.next || !Array.isArray(m.next.options)) { box.className = "hidden"; return; }
    box.className = "";
    if (document.activeElement && document.activeElement.tagName === "SELECT" && list.contains(document.activeElement)
        && list.children.length === m.next.options.length) return;  // never close a list under the thumb
    $("next-title").textContent = Box.text("next_game").replace("{game}", m.next.game);
    $("next-note").textContent = Box.text("next_note");
    // the menu's evening: the next game started from here (the menu starts it as its Start row does)
    $("next-start").textContent = Box.text("next_start");
    $("next-start").className = m.next.startable ? "" : "hidden";
    Box.clear(list);
    for (const o of m.next.options) {
      const select = Box.el("select", { "data-option": o.key, "aria-label": o.label });
      o.choices.forEach(([value, name], i) => {
        const opt = Box.el("option", { value: String(i), text: name });
        if (JSON.stringify(value) === JSON.stringify(o.value)) opt.selected = true;
        select.appendChild(opt);
      });
      select.addEventListener("change", () => send({ type: "option", key: o.key, value: o.choices[Number(select.value)][0] }));
      list.appendChild(Box.el("label", { cls: "seat option" }, [Box.el("span", { text: o.label }), select]));
    }
  }

  function renderEvening(m) {
    // the evening's games from the menu, newest first: each with its state, who won or where it stopped
    const games = (m.next && Array.isArray(m.next.evening) && m.next.evening) || [], box = $("evening-box"), list = $("evening");
    box.className = games.length ? "" : "hidden";
    $("evening-title").textContent = Box.text("evening");
    Box.clear(list);
    for (const g of games)
      list.appendChild(Box.el("div", { cls: "evening-game " + (g.finished ? "finished" : "stopped") }, [
        Box.el("strong", { text: g.label }), ...g.facts.map((line) => Box.el("p", { cls: "hint", text: line }))]));
  }

  function renderCue(m) {
    // the question with its answer from the start, and the next one to read ahead (host only)
    // none at the game's end (the result instead) nor between the menu's games (the closed game's last card)
    const cue = $("cue"), q = m.live && !m.finished && m.cue && m.cue.question;
    Box.clear(cue);
    if (!q || !q.text) { cue.className = "cue hidden"; return; }
    cue.className = "cue";
    const head = Box.text("cue_question").replace("{number}", String(q.number)) + (q.category ? " · " + q.category : "");
    cue.appendChild(Box.el("h2", { text: head }));
    const rounds = m.cue.rounds || [];
    if (rounds.length > 1) {  // a quiz of rounds: the one now, and the plan (preset, questions) of every one
      const now = m.cue.round || {};
      const plan = rounds.map(function (r) {
        return String(r.number) + ". " + (r.title || "") + " (" + (r.questions == null ? "" : r.questions + " · ") + (r.rules_name || r.rules) + ")";
      }).join(" · ");
      cue.appendChild(Box.el("p", { cls: "hint cue-round", text: Box.text("cue_round").replace("{n}", String(now.number))
        .replace("{m}", String(now.of)) + ": " + plan }));
    }
    cue.appendChild(Box.el("p", { cls: "cue-text", text: q.text }));
    cue.appendChild(Box.el("p", { cls: "cue-answer" }, [Box.el("span", { text: Box.text("cue_answer") + ": " }),
                                                         Box.el("strong", { text: q.answer || "" })]));
    if (q.alternatives && q.alternatives.length)
      cue.appendChild(Box.el("p", { cls: "hint", text: Box.text("cue_also") + ": " + q.alternatives.join(", ") }));
    const n = m.cue.next;
    if (n && n.text) cue.appendChild(Box.el("p", { cls: "hint cue-next",
      text: Box.text("cue_next").replace("{number}", String(n.number)) + ": " + n.text + " (" + (n.answer || "") + ")" }));
  }

  // The question's first bell, big: who, by how much ahead of the second, the reaction time. Only while
  // a question is played: at the game's end the result says who won, between games no question is asked.
  function renderFirst(m) {
    const node = $("first"), f = !m.live || m.finished || (m.tie || []).length ? null : m.first_press;  // a tie says who tied instead
    Box.clear(node);
    node.className = f ? "first" : "first hidden";
    if (!f) return;
    node.appendChild(Box.el("div", { cls: "label", text: Box.text("first") }));
    node.appendChild(Box.el("div", { cls: "name", text: f.name }));
    const by = f.lead_us === null ? Box.text("first_alone") : Box.text("first_by").replace("{time}", Box.seconds(f.lead_us));
    node.appendChild(Box.el("div", { cls: "margin", text: by }));
    if (f.reaction_us !== null) {
      node.appendChild(Box.el("div", { cls: "reaction", text: Box.text("reaction").replace("{time}", Box.seconds(f.reaction_us)) }));
    }
  }

  // The game's end, big in place of the first bell: who won, named as the final results on the big
  // screen name them (a team quiz's team, not its players); nobody when nobody scored.
  function renderResult(m) {
    const node = $("result"), shown = m.live && m.finished;
    Box.clear(node);
    node.className = shown ? "first result" : "first result hidden";
    if (!shown) return;
    const names = m.won_by || [];
    node.appendChild(Box.el("div", { cls: "label", text: Box.text("over") }));
    node.appendChild(Box.el("div", { cls: "name", text: names.length ? Box.text("result_won").replace("{winner}", names.join(", "))
                                                                      : Box.text("result_none") }));
  }

  // A tie for the turn: each tied player a big button (the host gives the turn), and the screen's
  // key that draws one fairly instead.
  function renderTie(m) {
    const node = $("tie"), tied = m.tie || [];
    Box.clear(node);
    node.className = tied.length ? "tie" : "tie hidden";
    if (!tied.length) return;
    node.appendChild(Box.el("h2", { text: Box.text("tie_title") }));
    const row = Box.el("div", { cls: "buttons" });
    for (const p of tied) {
      const b = Box.el("button", { cls: "tie-pick", "data-seat": String(p.seat), text: p.name });
      b.addEventListener("click", () => send({ type: "pick", seat: p.seat }));
      row.appendChild(b);
    }
    node.appendChild(row);
    if ((m.pick_keys || []).length)
      node.appendChild(Box.el("p", { cls: "hint", text: Box.text("tie_note").replace("{key}", m.pick_keys.join(" / ")) }));
  }

  // No game live: one is about to start (who its roll call still waits for), or the menu is up.
  function waiting(m) {
    const missing = m.roll_call ? m.roll_call.missing : [];
    if (missing.length) return Box.text("roll_call").replace("{missing}", missing.join(", "));
    return m.starting ? Box.text("starting") : Box.text("between");
  }

  function render(m) {
    // a game starts: what the last upload said (a refused pack's lines) is of the evening before it
    if ((m.live || m.starting) && !(state && (state.live || state.starting))) packSaid();
    state = m;
    renderFirst(m);
    renderResult(m);
    renderTie(m);
    renderCue(m);
    // between games (none running nor starting) the header is the page's own: the closed game and its phase
    // are over, its scores below say how it ended
    const playing = m.live || m.starting;
    $("title").textContent = (playing && m.title) || Box.text("host_title");
    $("phase").textContent = m.paused ? Box.text("paused") : m.live ? (m.phase_label || "") : "";
    const note = $("note");
    // a journal that cannot be written is said first (translated by the box): the host can free space
    const said = m.journal ? m.journal : !m.live ? waiting(m) : m.paused ? Box.text("paused_note") : "";
    note.textContent = said;
    note.className = said ? "note" : "note hidden";
    const buttons = $("buttons");
    Box.clear(buttons);
    for (const b of m.buttons) buttons.appendChild(button(b.name, b.label, b.kind));
    renderBoxButtons(m);
    renderPlayers(m);
    renderTeams(m);
    renderNext(m);
    renderEvening(m);
    renderSeats();
  }

  function showLogin() {
    // a PIN the box no longer takes (it restarted with a new one): ask for the new one, keep no old buttons
    pin = ""; sessionStorage.removeItem("pin");
    $("remote").className = "hidden"; $("login").className = ""; $("pin").value = "";
  }

  const link = Box.socket("/ws/host", {
    open(ws) { authed = false; if (pin) ws.send(JSON.stringify({ type: "hello", pin })); },
    message(m) {
      if (m.type === "welcome") {
        authed = true; seq = m.seq; sessionStorage.setItem("pin", pin);
        menu = !!m.menu;  // without a menu (``play``) the packs part says what an upload does there
        $("packs-note").textContent = Box.text(menu ? "packs_note" : "packs_note_play");
        $("login").className = "hidden"; $("remote").className = "";
        Box.status($("status"), "");
        keepAwake();
      } else if (m.type === "host") render(m);
      else if (m.type === "ended") {
        over = true; $("phase").textContent = Box.text("over"); Box.status($("status"), "");
        $("login").className = "hidden"; $("remote").className = "hidden";
        const node = $("ended"); node.className = ""; Box.ended(node, m);
      }
      else if (m.type === "notice" && m.what === "second_host") {
        const n = $("alert");
        n.textContent = Box.text("second_host").replace("{address}", m.address);
        n.className = "alert";
      }
      else if (m.type === "pin") {  // this page changed the PIN: it keeps it, and shows it here only
        pin = m.pin; sessionStorage.setItem("pin", pin);
        const n = $("alert");
        n.textContent = Box.text("new_pin").replace("{pin}", m.pin);
        n.className = "alert good";
      }
      else if (m.type === "seats") { joined = m.joined; asks = m.asks || []; renderSeats(); renderLockouts(m.lockouts || {}); }
      else if (m.type === "ok") {
        Box.status($("status"), Box.text(pinAsked ? "pin_shown" : "sent"), "good");
        pinAsked = false;
      }
      else if (m.type === "refused") {
        Box.status($("status"), m.why, "bad");
        if (!authed) showLogin();  // any refusal before the box took a PIN on this socket
      }
    },
    close(ev) {
      if (over) return false;  // the game is over and said so
      if (ev.code === 4001) { showLogin(); Box.status($("status"), Box.text("pin_changed"), "bad"); return true; }
      if (pin) Box.status($("status"), Box.text("reconnecting"), "bad");  // no PIN yet: the login form says what to do
      return true;
    },
  });

  $("pack-send").addEventListener("click", async () => {
    // the file as it is, the PIN in a header (the box checks it with the packs checker, one line per problem back)
    const file = $("pack-file").files[0], lines = $("pack-lines");
    Box.clear(lines);
    if (!file) { Box.status($("status"), Box.text("pack_choose"), "bad"); return; }
    let answer;
    try {
      const r = await fetch("/host/pack?name=" + encodeURIComponent(file.name),
                            { method: "POST", headers: { "X-Host-Pin": pin }, body: file });
      answer = await r.json();
    } catch (e) { Box.status($("status"), Box.text("reconnecting"), "bad"); return; }
    for (const line of answer.lines || []) lines.appendChild(Box.el("li", { text: line }));
    const saved = menu ? "pack_saved" : "pack_saved_play";
    Box.status($("status"), Box.text(answer.saved ? saved : "pack_refused"), answer.saved ? "good" : "bad");
    if (!answer.saved) {  // a refusal stays until the host dismisses it, a pack is saved or a game starts
      // a ✕ (drawn by the stylesheet: the status's text stays the box's one line), named for a screen reader
      const dismiss = Box.el("button", { cls: "dismiss", type: "button", "aria-label": Box.text("dismiss"),
                                         title: Box.text("dismiss") });
      dismiss.addEventListener("click", () => packSaid());
      $("status").prepend(dismiss);  // first: it floats at the top right of the word
    }
    packShown = true;
  });

  // What the last upload said (the status and the checker's lines), gone.
  function packSaid() {
    if (!packShown) return;
    packShown = false;
    Box.status($("status"), "");
    Box.clear($("pack-lines"));
  }

  login.addEventListener("submit", (ev) => {
    ev.preventDefault();
    pin = $("pin").value.trim();
    link.send({ type: "hello", pin });
  });
  login.removeEventListener("submit", holdEarly);
  if (sentEarly) login.requestSubmit();
})();
