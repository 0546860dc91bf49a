"""``buzzerbox league serve``: the hub's broker connection and its pages, on
the companion's stack (aiohttp).

- ``/``: the hall screen, for a 1080p TV read across the hall: every room live
  and the standings, pushed (``/events``, server-sent events: one frame built
  per change, sent to every viewer); public: only the boxes' public views;
- ``/board.json``: the same as JSON;
- ``/standings.csv`` and ``/match/<id>.qbj``: the exports; ``/schedule``: each
  room's order of play, a printed page per room; ``/players``: each player's statistics;
- ``/organiser``: which match is where, late rooms, results to correct with a
  reason (HTTP Basic authentication with the organiser's password file; a form
  token against cross-site posts).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import datetime
import hashlib
import hmac
import html
import json
import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from aiohttp import web

from controller.apps.common import UsageError
from controller.league import messages
from controller.league.hub import STALE_AFTER_MS, Hub, clip
from controller.league.link import Connection
from controller.league.messages import MessageError
from controller.league.standings import to_csv, to_qbj
from controller.league.tournament import Tournament, read_secret
from controller.system import signals
from controller.web.server import WebError
from controller.web.serving import LoopThread
from games.i18n import _, current_language, format_number

log = logging.getLogger("buzzerbox.league")
#: an organiser's posted form
Form = Mapping[str, object]
STATIC = Path(__file__).with_name("static")
MAX_FORM = 16 * 1024


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def local_minutes() -> int:
    now = datetime.datetime.now()
    return now.hour * 60 + now.minute


#: the hall screen's push: at most this many frames a second, and one at least this often (the clocks, the ages)
PUSH_EVERY_S = 0.5
HEARTBEAT_S = 5.0
#: frames a slow viewer may have waiting: older ones are dropped (each frame is the whole board)
VIEWER_QUEUE = 2
#: a fail-safe for stopping the pages on a machine under load, never a measure
STOP_WAIT_S = 60.0
#: a hall screen whose stream is stuck (a TV that stopped reading) is cut this long after the hub stops
STOP_GRACE_S = 2.0
#: a fail-safe on a starting hub's wait for the broker's answer to its claim (``claim_answered``): never
#: a measure, the wait ends with the answer, or as soon as the broker cannot be reached (it serves anyway).
#: It was the whole wait, 5 s: a broker answering later on a stalled machine let a second hub say it serves
#: beside the first (then it was refused)
CLAIM_WAIT_S = 60.0
#: a fail-safe on a stopping hub's wait for its claim's removal to reach the broker (it ends once it has):
#: cut short, the claim stays, and the next hub on another ledger is refused
CLEAR_WAIT_S = STOP_WAIT_S


def labels() -> dict[str, str]:
    """The scoreboard page's words, in the hub's language."""
    return {"standings": _("Standings"), "rank": _("#"), "team": _("Team"), "played": _("Played"),
            "won": _("Won"), "drawn": _("Drawn"), "lost": _("Lost"), "points": _("Points"), "scored": _("Score"),
            "difference": _("Difference"), "offline": _("offline"), "no_match": _("no match now"),
            "question": _("Question {number}"), "first": _("First: {name}"), "by": _("by {ms} ms"),
            "ago": _("updated {n} s ago"), "ago_min": _("updated {n} min ago"), "never": _("not heard yet"),
            "broker_lost": _("The hub has lost the broker ({n} s ago): the rooms are shown as they were then"),
            "hub_lost": _("This screen has lost the hub: reconnecting"), "stale": _("no news"),
            "page": _("page {n} of {of}"), "playoff": _("Playoff"), "quarters": _("Quarter-finals"),
            "semis": _("Semi-finals"), "final": _("Final"), "seed": _("seed {n}"),
            "winner_of": _("winner of {match}"), "decider": _("a draw: decider needed")}


class HubService(LoopThread):
    """The hub with its broker connection and its web server, each on its own thread."""

    def __init__(self, t: Tournament, ledger: Path | None, port: int, bind: str = "0.0.0.0",
                 reconnect_s: tuple[float, float] = (1, 8)) -> None:
        super().__init__()
        self.t = t
        base = t.path.parent if t.path else Path.cwd()
        self.hub = Hub(t, ledger or base / f"{t.id}.hub.jsonl", now_ms)
        #: this hub's claim on the broker: the same for the same ledger on the same machine (a restarted
        #: hub knows its own claim), another for any other hub
        self.claim_id = hashlib.sha256(f"{socket.gethostname()}\0{self.hub.ledger.path.resolve()}".encode()).hexdigest()[:16]
        self.claim_topic = messages.hub_topic(t.id)
        self.conn = Connection(t.broker, t.hub_user, read_secret(t.hub_password_file, t.hub_user),
                               f"buzzerbox-{t.id}-hub-{secrets.token_hex(4)}",
                               subscriptions=[self.claim_topic, *messages.hub_subscriptions(t.id)],
                               will=(self.claim_topic, b""), reconnect_s=reconnect_s)
        self.conn.on_message = self._message
        self.conn.on_subscribed.append(self._claim)
        #: the pairings last published to the boxes (None: publish them on the next chance)
        self._bracket_sent: bytes | None = None
        self.conn.on_subscribed.append(self._publish_bracket)
        self.conn.on_disconnected.append(self._bracket_unsent)
        self.hub.listeners.append(self._publish_bracket)
        #: set when another hub already serves this tournament on this broker (``refused`` says which)
        self.refused = threading.Event()
        self.refused_by = ""
        #: set once the broker answered this hub's claim: its own came back, or another's was there first
        self.claim_known = threading.Event()
        self._claims_seen = 0
        self.conn.on_connected.append(lambda: self.hub.broker(True))
        self.conn.on_disconnected.append(lambda: self.hub.broker(False))
        self._viewers: set[asyncio.Queue[bytes]] = set()
        self._wake: asyncio.Event | None = None
        self._pusher: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.TimerHandle | None = None
        #: set on the pages' loop as they stop: the push ends on it whatever a cancel does
        self._closing = False
        self._stopped = False
        self.port, self.bind = port, bind
        self.organiser_password = read_secret(t.organiser_password_file, t.organiser_user)
        self.form_token = secrets.token_urlsafe(16)
        self._said: dict[str, str] = {}
        self._encoded: tuple[int, str] = (-1, "")
        self._runner: web.AppRunner | None = None

    def start(self) -> HubService:
        error = self._start_loop("league-hub-web")
        if error is not None:
            self.hub.close()
            raise WebError(_("cannot serve the league pages on port {port}: {why}; choose another with --port").format(
                port=self.port, why=error)) from None
        self.conn.start()
        return self

    def _claim(self) -> None:
        """Subscribed (the broker's retained claim, if any, comes first): this hub says it serves."""
        if self.refused.is_set():
            return  # another hub serves: this one only leaves
        self.conn.publish(self.claim_topic, messages.encode({"hub": self.claim_id, "ledger": self.hub.ledger.path.name}))

    def _bracket_unsent(self) -> None:
        self._bracket_sent = None

    def _publish_bracket(self) -> None:
        """The playoff's pairings to the boxes (retained), whenever they change: a box plays its playoff
        match once it knows who plays it."""
        if self.t.playoff is None or self.refused.is_set() or not self.conn.subscribed.is_set():
            return
        bracket = self.hub.bracket()
        payload = messages.bracket_payload(
            {x.id: x.teams for x in bracket if x.teams is not None}, [x.id for x in bracket if x.winner])
        if payload != self._bracket_sent:
            self._bracket_sent = payload
            self.conn.publish(messages.bracket_topic(self.t.id), payload)

    def _message(self, topic: str, payload: bytes) -> str | None:
        if topic != self.claim_topic:
            return self.hub.take(topic, payload)
        self._claims_seen += 1
        try:
            other = str(json.loads(payload)["hub"]) if payload else self.claim_id
        except (ValueError, KeyError, TypeError):
            other = self.claim_id  # not a claim: nobody's
        if other == self.claim_id:
            self.claim_known.set()
            return None
        if self._claims_seen == 1 and not self.refused.is_set():  # a live claim before ours: that hub serves
            self.refused_by = other
            self.refused.set()
            self.claim_known.set()
            return None
        self._claim()  # a newcomer wrote over our claim: ours again (it stops)
        return None

    def claim_answered(self) -> None:
        """Until the broker answered this hub's claim (``claim_known``), or the broker cannot be reached
        (``failed``: it serves anyway, and leaves if another's claim comes once it connects); bounded by
        CLAIM_WAIT_S only for a broker that takes the connection and never answers."""
        give_up = time.monotonic() + CLAIM_WAIT_S
        while not self.claim_known.wait(0.05) and not self.conn.failed.is_set() and time.monotonic() < give_up:
            pass  # two events to wait on: the answer, or the failure to connect

    def stop(self) -> None:
        """The broker connection, then the pages, then the ledger; from any state (a start cut short by
        a signal too), each step bounded: SIGTERM at any moment ends in this and the process exits."""
        if self._stopped:
            return
        self._stopped = True
        clear = not self.refused.is_set() and self.conn.connected.is_set()
        if clear:  # a clean stop: the claim goes (a vanished hub's will does it)
            self.conn.publish(self.claim_topic, b"")
        self.conn.stop(CLEAR_WAIT_S if clear else 0)
        for listener in (getattr(self, "_listener", None), self._publish_bracket):
            if listener in self.hub.listeners:
                self.hub.listeners.remove(listener)
        if self._thread is not None:
            self._ready.wait(STOP_WAIT_S)  # a start a signal cut short: its loop is up, or failed, by then
        loop, self.loop = self.loop, None
        if loop is not None and self._thread is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._cleanup(), loop).result(STOP_WAIT_S)
            except concurrent.futures.TimeoutError:
                log.warning("league hub: the pages did not stop within %s s; leaving them", STOP_WAIT_S)
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(STOP_WAIT_S)
        self.hub.close()

    async def _cleanup(self) -> None:
        self._closing = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for queue in self._viewers:  # every open hall screen's stream ends (b"": the end)
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(b"")
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
        if self._runner is not None:
            await self._runner.cleanup()

    async def _open(self) -> None:
        app = web.Application(client_max_size=MAX_FORM)
        app.router.add_get("/", self._scoreboard)
        app.router.add_get("/board.json", self._board)
        app.router.add_get("/events", self._events)
        app.router.add_get("/hall.js", self._hall_script)
        app.router.add_get("/stats.json", self._stats)
        app.router.add_get("/standings.csv", self._csv)
        app.router.add_get("/schedule", self._schedule)
        app.router.add_get("/players", self._players)
        app.router.add_get("/match/{match}.qbj", self._qbj)
        app.router.add_get("/organiser", self._organiser)
        app.router.add_post("/organiser/correct", self._correct)
        app.router.add_post("/organiser/decide", self._decide)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=STOP_GRACE_S)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bind, self.port)
        await site.start()
        if self.port == 0:
            self.port = int(self._runner.addresses[0][1])
        loop = asyncio.get_running_loop()
        wake = self._wake = asyncio.Event()

        def changed() -> None:  # called on the broker's thread: the push runs on this loop
            loop.call_soon_threadsafe(wake.set)

        def heartbeat() -> None:  # a frame at least every HEARTBEAT_S: the clocks and the ages move
            wake.set()
            self._heartbeat = loop.call_later(HEARTBEAT_S, heartbeat)

        self.hub.listeners.append(changed)
        self._listener = changed
        self._heartbeat = loop.call_later(HEARTBEAT_S, heartbeat)
        self._pusher = loop.create_task(self._push())

    # -- the hall screen's push ----------------------------------------------------------------
    def frame(self) -> bytes:
        """One server-sent event: the whole board (JSON encoded once per change) with the hub's time."""
        board = self.hub.board()
        version = board["version"]
        if self._encoded[0] != version:
            self._encoded = (version, json.dumps({k: v for k, v in board.items() if k != "now_ms"},
                                                 ensure_ascii=False, separators=(",", ":")))
        return ('data: {"now_ms":' + str(board["now_ms"]) + ',"board":' + self._encoded[1] + "}\n\n").encode("utf-8")

    async def _push(self) -> None:
        """Every change (at most PUSH_EVERY_S apart), and a heartbeat: one frame built, sent to every viewer.

        No ``asyncio.wait_for`` here: before Python 3.12 it swallows a cancel that comes in the loop's
        turn the awaited event is set, and a change told as the hub stopped (its broker connection
        closing) kept this task, so the pages and the hub, from ever stopping."""
        assert self._wake is not None
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            if self._closing:
                return
            if self._viewers:
                data = self.frame()
                for queue in self._viewers:
                    if queue.full():
                        queue.get_nowait()  # a slow viewer gets the newest, not a backlog
                    queue.put_nowait(data)
            await asyncio.sleep(PUSH_EVERY_S)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={**self._headers("text/event-stream; charset=utf-8"),
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        queue: asyncio.Queue[bytes] = asyncio.Queue(VIEWER_QUEUE)
        queue.put_nowait(self.frame())
        self._viewers.add(queue)
        try:
            while data := await queue.get():
                await response.write(data)
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            self._viewers.discard(queue)
        return response

    async def _hall_script(self, request: web.Request) -> web.Response:
        return web.Response(body=(STATIC / "hall.js").read_bytes(), headers=self._headers("text/javascript"))

    # -- public ------------------------------------------------------------------------------
    @staticmethod
    def _headers(kind: str) -> dict[str, str]:
        return {"Content-Type": kind, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; "
                                           "frame-ancestors 'none'"}

    async def _scoreboard(self, request: web.Request) -> web.Response:
        """The hall screen: a 1080p TV read across a hall (docs/league.md), pushed to, never polling."""
        title = html.escape(self.t.title)
        words = json.dumps(labels(), ensure_ascii=False).replace("</", "<\\/")
        standings = html.escape(_("Standings"))
        body = (f"<!doctype html><html lang='{html.escape(current_language())}'><head><meta charset='utf-8'>"
                f"<title>{title}</title><meta name='viewport' content='width=device-width, initial-scale=1'>"
                f"<style>{HALL_STYLE}</style></head><body>"
                f"<header><h1 id='title'>{title}</h1><div id='updated'></div><div id='clock'></div></header>"
                "<div id='banner' hidden></div><main><section id='rooms'></section>"
                "<section id='table'><div id='bracket' hidden></div>"
                f"<h2>{standings} <span id='page'></span></h2>"
                "<table id='standings'></table></section></main>"
                f"<script id='labels' type='application/json'>{words}</script>"
                "<script src='/hall.js'></script></body></html>")
        return web.Response(text=body, headers=self._headers("text/html; charset=utf-8"))

    async def _schedule(self, request: web.Request) -> web.Response:
        """Each room's order of play on a page of its own when printed (the signed changes applied)."""
        e, t, hub = html.escape, self.t, self.hub
        words = state_words()
        head = [_("Slot"), _("Start"), _("Match"), _("Teams"), _("State"), _("Scores")]
        sections = []
        with hub.lock:
            matches = hub.schedule()
            for room in t.rooms:
                rows = []
                for m in (m for m in matches if m.room == room.id):
                    start = ""
                    if t.day_start_min is not None and m.start_min is not None:
                        at = t.day_start_min + m.start_min
                        start = f"{at // 60 % 24:02d}:{at % 60:02d}"
                    r = hub.results.get(m.id)
                    c = hub.corrections.get(m.id)
                    scores = " : ".join(str(x) for x in (c.scores if c else r.scores if r else ()))
                    state = hub.match_state(m)
                    teams = _(" v ").join(t.team(x).name for x in m.teams)
                    rows.append(f"<tr><td>{m.slot}</td><td>{start}</td><td>{e(m.id)}</td><td>{e(teams)}</td>"
                                f"<td>{e(words.get(state, state))}</td><td>{e(scores)}</td></tr>")
                sections.append(f"<section><h2>{e(t.title)}: {e(room.name)}</h2><table><tr>"
                                + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>" + "".join(rows)
                                + "</table></section>")
        body = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(t.title)}</title>"
                f"<style>{PRINT_STYLE}</style></head><body>{''.join(sections)}</body></html>")
        return web.Response(text=body, headers=self._headers("text/html; charset=utf-8"))

    async def _players(self, request: web.Request) -> web.Response:
        """Per-player statistics: points, right answers, powers, negs, reactions, close wins."""
        e, t = html.escape, self.t
        head = [_("Player"), _("Team"), _("Matches"), _("Points"), _("Right"), _("Powers"), _("Negs"), _("Presses"),
                _("Fastest (ms)"), _("Median (ms)"), _("Won by under 10 ms")]

        def ms(us: int | None) -> str:
            return "" if us is None else format_number(us / 1000, 1)  # the column says "(ms)": the number alone

        rows = [f"<tr><td>{e(clip(p.name))}</td><td>{e(clip(t.team(p.team).name))}</td><td>{p.matches}</td>"
                f"<td>{p.points}</td><td>{p.correct}</td><td>{p.powers}</td><td>{p.negs}</td><td>{p.presses}</td>"
                f"<td>{ms(p.fastest_us)}</td><td>{ms(p.median_us)}</td><td>{p.close_wins}</td></tr>"
                for p in self.hub.players()]
        title = _("{title}: players").format(title=t.title)
        body = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{STYLE}</style>"
                f"</head><body><h1>{e(title)}</h1><table><tr>{''.join(f'<th>{e(h)}</th>' for h in head)}</tr>"
                f"{''.join(rows)}</table></body></html>")
        return web.Response(text=body, headers=self._headers("text/html; charset=utf-8"))

    async def _board(self, request: web.Request) -> web.Response:
        data = {**self.hub.board(), "labels": labels()}
        return web.Response(text=json.dumps(data, ensure_ascii=False), headers=self._headers("application/json"))

    async def _stats(self, request: web.Request) -> web.Response:
        return web.Response(text=json.dumps(self.hub.stats()), headers=self._headers("application/json"))

    async def _csv(self, request: web.Request) -> web.Response:
        headers = {**self._headers("text/csv; charset=utf-8"),
                   "Content-Disposition": f"attachment; filename={self.t.id}-standings.csv"}
        return web.Response(text=to_csv(self.hub.standings()), headers=headers)

    async def _qbj(self, request: web.Request) -> web.Response:
        match_id = request.match_info["match"]
        with self.hub.lock:
            result = self.hub.results.get(match_id)
            correction = self.hub.corrections.get(match_id)
        if result is None or result.game != "quiz":
            raise web.HTTPNotFound(text=_("no quiz result for match {match} yet").format(match=match_id[:40]))
        headers = {**self._headers("application/vnd.quizbowl.qbj+json"),
                   "Content-Disposition": f"attachment; filename={self.t.id}-{match_id}.qbj"}
        return web.Response(text=json.dumps(to_qbj(self.t, result, correction), ensure_ascii=False, indent=1),
                            headers=headers)

    # -- the organiser -----------------------------------------------------------------------
    def _authorised(self, request: web.Request) -> bool:
        if self.organiser_password is None:
            return False  # no password file: the page stays shut (docs/league.md)
        header = request.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        try:
            user, _sep, password = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(user.encode(), self.t.organiser_user.encode()) & hmac.compare_digest(
            password.encode(), self.organiser_password.encode())

    def _challenge(self) -> web.Response:
        return web.Response(status=401, text=_("the organiser's page needs the organiser's user and password"),
                            headers={"WWW-Authenticate": 'Basic realm="buzzerbox league", charset="UTF-8"'})

    async def _organiser(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._challenge()
        # only what this hub said after a post is shown: a link cannot put words on the organiser's page
        said = self._said.get(request.query.get("said", ""), "")
        return web.Response(text=self.organiser_html(said), headers=self._headers("text/html; charset=utf-8"))

    def _say(self, text: str) -> web.HTTPSeeOther:
        key = secrets.token_urlsafe(8)
        self._said[key] = text[:200]
        while len(self._said) > 32:
            self._said.pop(next(iter(self._said)))
        return web.HTTPSeeOther(f"/organiser?said={key}")

    async def _posted(self, request: web.Request, act: Callable[[Form], str]) -> web.Response:
        """An organiser's form: refused without the organiser's user and password or with a stale
        page's token; else ``act`` on it, and the organiser's page again with what it said."""
        if not self._authorised(request):
            return self._challenge()
        form = await request.post()
        if not hmac.compare_digest(str(form.get("token", "")), self.form_token):
            return web.Response(status=403, text=_("the form is stale: open the organiser's page again"))
        raise self._say(act(form))

    async def _decide(self, request: web.Request) -> web.Response:
        return await self._posted(request, self._decided)

    def _decided(self, form: Form) -> str:
        try:
            seq = int(str(form.get("seq", "")))
            self.hub.decide(str(form.get("match", ""))[:40], seq, str(form.get("sum", ""))[:64],
                            str(form.get("reason", "")), self.t.organiser_user)
            return _("decided: the chosen version counts")
        except ValueError as exc:
            return str(exc) if isinstance(exc, MessageError) else _("the form is stale: open the organiser's page again")

    async def _correct(self, request: web.Request) -> web.Response:
        return await self._posted(request, self._corrected)

    def _corrected(self, form: Form) -> str:
        try:
            forfeit = str(form.get("forfeit", "")).strip()[:40] or None
            scores = () if forfeit else tuple(int(s) for s in str(form.get("scores", "")).replace(",", " ").split())
            self.hub.correct(str(form.get("match", ""))[:40], scores, str(form.get("reason", "")), self.t.organiser_user,
                             forfeit)
            return _("corrected")
        except ValueError as exc:  # MessageError, or a score that is not a number
            return str(exc) if isinstance(exc, MessageError) else _("scores are whole numbers, one per team")

    def organiser_html(self, said: str = "") -> str:
        e = html.escape
        hub, t = self.hub, self.t
        late = set(hub.late_rooms(local_minutes()))
        words = state_words()
        rows = []
        with hub.lock:
            for m in hub.schedule():
                state = hub.match_state(m)
                r = hub.results.get(m.id)
                c = hub.corrections.get(m.id)
                scores = " : ".join(str(s) for s in (c.scores if c else r.scores if r else ()))
                note = (e(_("forfeited by {team}: {reason}").format(team=t.team(c.forfeit).name, reason=c.reason))
                        if c and c.forfeit else e(_("corrected: {reason}").format(reason=c.reason)) if c else "")
                qbj = (f"<a href='/match/{e(m.id)}.qbj'>QBJ</a>" if r is not None and r.game == "quiz" else "")
                teams = _(" v ").join(t.team(x).name for x in m.teams)
                rows.append(f"<tr><td>{e(m.id)}</td><td>{m.slot}</td><td>{e(t.room(m.room).name)}</td>"
                            f"<td>{e(teams)}</td><td>{e(words.get(state, state))}</td>"
                            f"<td>{e(scores)}</td><td>{note}</td><td>{qbj}</td></tr>")
            rooms = []
            for room in t.rooms:
                st = hub.rooms[room.id].status
                where = (_("online, match {match}").format(match=st.match) if st and st.online and st.match
                         else _("online") if st and st.online else _("offline"))
                flag = " <b>" + e(_("LATE")) + "</b>" if room.id in late else ""
                heard = hub.rooms[room.id].heard_ms
                age = (_("last heard {n} s ago").format(n=max(0, (hub.clock() - heard) // 1000)) if heard
                       else _("not heard yet"))
                stale = not heard or hub.clock() - heard > STALE_AFTER_MS
                rooms.append(f"<li{' class=off' if stale else ''}>{e(room.name)}: {e(where)}; {e(age)}{flag}</li>")
            broker = "" if hub.broker_up else "<p class='lost'>" + e(_(
                "The hub has lost the broker ({n} s ago): what the rooms send now waits for it").format(
                    n=max(0, (hub.clock() - hub.broker_since_ms) // 1000))) + "</p>"
            conflicts = [self._conflict_html(key) for key in hub.open_conflicts()]
            bracket = self._bracket_html()
        head = [_("Match"), _("Slot"), _("Room"), _("Teams"), _("State"), _("Scores"), _("Note"), ""]
        w = {key: e(text) for key, text in {
            "organiser": _("organiser"), "rooms": _("Rooms"), "matches": _("Matches"), "correct_a": _("Correct a result"),
            "match": _("Match"), "scores": _("Scores, one per team"), "reason": _("Reason"), "correct": _("Correct"),
            "csv": _("Standings as CSV"), "conflicts": _("Conflicts: two results for one match"),
            "schedule": _("Printable schedule, a page per room"), "players": _("Players' statistics"),
            "forfeit_a": _("A forfeit: the team that gave the match up loses, the others win, no score counts"),
            "team_id": _("Team (its id)"), "forfeit": _("Forfeit")}.items()}
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(t.title)}</title><style>{STYLE}</style></head>"
                f"<body><h1>{e(t.title)}: {w['organiser']}</h1>"
                + broker + (f"<p class='said'>{e(said)}</p>" if said else "")
                + (f"<h2 class='conflict'>{w['conflicts']}</h2>{''.join(conflicts)}" if conflicts else "")
                + bracket + f"<h2>{w['rooms']}</h2><ul>{''.join(rooms)}</ul>"
                f"<h2>{w['matches']}</h2><table><tr>{''.join(f'<th>{e(h)}</th>' for h in head)}</tr>{''.join(rows)}</table>"
                f"<h2>{w['correct_a']}</h2><form method='post' action='/organiser/correct'>"
                f"<input type='hidden' name='token' value='{e(self.form_token)}'>"
                f"<label>{w['match']} <input name='match' required></label> "
                f"<label>{w['scores']} <input name='scores' required></label> "
                f"<label>{w['reason']} <input name='reason' required></label> "
                f"<button>{w['correct']}</button></form>"
                f"<h2>{w['forfeit_a']}</h2><form method='post' action='/organiser/correct'>"
                f"<input type='hidden' name='token' value='{e(self.form_token)}'>"
                f"<label>{w['match']} <input name='match' required></label> "
                f"<label>{w['team_id']} <input name='forfeit' required></label> "
                f"<label>{w['reason']} <input name='reason' required></label> "
                f"<button>{w['forfeit']}</button></form>"
                f"<p><a href='/standings.csv'>{w['csv']}</a> · <a href='/schedule'>{w['schedule']}</a> · "
                f"<a href='/players'>{w['players']}</a></p>"
                "</body></html>")

    def _bracket_html(self) -> str:
        """The playoff as it stands: each match's teams (or where they come from), scores, winner."""
        bracket = self.hub.bracket()
        if not bracket:
            return ""
        e, t = html.escape, self.t
        rounds = {1: _("Final"), 2: _("Semi-finals"), 3: _("Quarter-finals")}
        last = bracket[-1].round
        items = []
        for tie in bracket:
            if tie.teams:
                who = _(" v ").join(t.team(x).name for x in tie.teams)
            else:
                who = _(" v ").join(_("seed {n}").format(n=f[1:]) if f.startswith("#") else
                                    _("winner of {match}").format(match=f) for f in tie.fed_by)
            scores = " : ".join(str(s) for s in tie.scores) if tie.scores else ""
            state = {"waiting": _("not drawn yet"), "ready": _("to play"),
                     "decider": _("a draw: decider needed (the room plays it again, or correct it with the "
                                  "tiebreak's outcome)"),
                     "done": _("won by {team}").format(team=t.team(tie.winner).name) if tie.winner else ""}[tie.state]
            name = rounds[last - tie.round + 1] + ("" if tie.id == "final" else f" {tie.id}")
            items.append(f"<li class='{e(tie.state)}'>{e(name)}: {e(who)} "
                         f"{e(scores)} · {e(state)}</li>")
        head = _("Playoff: the top {n} of the table, in room {room}").format(n=t.playoff.size if t.playoff else 0,
                                                                              room=t.playoff.room if t.playoff else "")
        return f"<h2>{e(head)}</h2><ul class='bracket'>{''.join(items)}</ul>"

    def _conflict_html(self, key: tuple[str, int]) -> str:
        """Both (or all) versions of a (match, seq) side by side, each with a form that makes it count."""
        e = html.escape
        match_id, seq = key
        m = self.t.match(match_id)
        teams = _(" v ").join(self.t.team(x).name for x in m.teams) if m else ""
        cells = []
        reason, count = e(_("Reason")), e(_("Count this version"))
        for k, v in enumerate(self.hub.versions(key), start=1):
            scores = " : ".join(str(s) for s in v.scores)
            what = _("version {k}: room {room}, scores {scores}, journal {sum} ({lines} lines), {state}").format(
                k=k, room=v.room, scores=scores, sum=v.journal_sum, lines=v.journal_lines,
                state=_("finished") if v.finished else _("unfinished"))
            cells.append(
                f"<li>{e(what)} <form method='post' action='/organiser/decide'>"
                f"<input type='hidden' name='token' value='{e(self.form_token)}'>"
                f"<input type='hidden' name='match' value='{e(match_id)}'><input type='hidden' name='seq' value='{seq}'>"
                f"<input type='hidden' name='sum' value='{e(v.journal_sum)}'>"
                f"<label>{reason} <input name='reason' required></label> "
                f"<button>{count}</button></form></li>")
        title = _("match {match} ({teams}), journal {seq}: it counts no version until you decide").format(
            match=match_id, teams=teams, seq=seq)
        return f"<div class='conflict'><p>{e(title)}</p><ul>{''.join(cells)}</ul></div>"


HALL_STYLE = (
    "html,body{margin:0;height:100%;overflow:hidden}"
    "body{font-family:'DejaVu Sans',sans-serif;background:#0b0f19;color:#f4f4f4;font-size:3.2vh;"
    "display:flex;flex-direction:column}"
    "header{display:flex;align-items:baseline;gap:2vw;padding:1.5vh 2vw;background:#151b2c}"
    "h1{font-size:5.5vh;margin:0;flex:1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    "#clock{font-size:6vh;font-weight:bold;font-variant-numeric:tabular-nums}"
    "#updated{font-size:2.6vh;color:#aab}"
    "#banner{background:#b3261e;color:#fff;font-size:3vh;padding:.8vh 2vw;font-weight:bold}"
    "main{flex:1;display:flex;gap:2vw;padding:2vh 2vw;min-height:0}"
    "#rooms{flex:62;display:grid;grid-template-columns:repeat(auto-fit,minmax(28vw,1fr));gap:2vh 1.5vw;"
    "align-content:start;min-width:0;overflow:hidden;font-size:2.9vh}"
    "#rooms.many{grid-template-columns:repeat(auto-fit,minmax(19vw,1fr));font-size:2.4vh}"
    ".room{background:#182038;border-radius:1.2vh;padding:1.2vh 1.2vw;min-width:0;overflow:hidden;"
    "border-left:1vh solid #4caf50}"
    ".room.off{border-left-color:#777}.room.stale{opacity:.45;filter:grayscale(1)}"
    ".room h3{font-size:1.3em;margin:0}"
    ".clip{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}"
    ".room .age{font-size:.7em;color:#aab}"
    ".room .teams{font-size:1.15em;font-weight:bold;margin:.3em 0}"
    ".room .q{color:#ffd54f}.room .first{color:#80deea;font-weight:bold}.room .by{color:#80deea}"
    ".room table{width:100%;border-collapse:collapse;table-layout:fixed}"
    ".room td{padding:.1em 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    ".room td:last-child{text-align:right;width:5em;font-weight:bold;font-variant-numeric:tabular-nums}"
    ".room table.teams{font-size:1.3em;margin-top:.2em}.room td{line-height:1.15}"
    "#table{flex:38;min-width:0;overflow:hidden}"
    "h2{font-size:4.2vh;margin:0 0 1vh}#page{font-size:.6em;color:#aab;font-weight:normal}"
    "#standings{width:100%;border-collapse:collapse;table-layout:fixed;font-size:3.6vh}"
    "#standings th{font-size:2vh;color:#aab;text-align:right;padding:.2em .3em;"
    "white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    "#standings td{padding:.25em .3em;text-align:right;border-bottom:1px solid #2a3350;"
    "font-variant-numeric:tabular-nums;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
    "#standings td:nth-child(2),#standings th:nth-child(2){text-align:left;width:auto}"
    "#standings th:first-child{width:7vh}#standings th:nth-child(n+3){width:12vh}"
    "#standings tr:nth-child(-n+4) td{color:#ffd54f}"
    "#bracket{margin-bottom:2vh}#bracket .rounds{display:flex;gap:1vw}.round{flex:1;min-width:0}"
    ".round h4{margin:0 0 .5vh;font-size:2.2vh;color:#aab}"
    ".tie{background:#182038;border-radius:.8vh;padding:.4vh .6vw;margin-bottom:.8vh;font-size:2.6vh}"
    ".tie .s{display:inline-block;min-width:1.8em;font-weight:bold;font-variant-numeric:tabular-nums}"
    ".tie .won{color:#ffd54f;font-weight:bold}.tie.decider{border-left:.6vh solid #ff7043}"
    ".tie .decider{color:#ff7043;font-size:.8em}")
#: the printable schedule: black on white, one room per printed page
PRINT_STYLE = ("body{font-family:sans-serif;color:#000;background:#fff;margin:1.5em}h2{margin:.2em 0 .6em}"
               "table{border-collapse:collapse;width:100%;font-size:14pt}td,th{border:1px solid #888;"
               "padding:.3em .5em;text-align:left}section{break-after:page;page-break-after:always;margin-bottom:2em}"
               "section:last-child{break-after:auto;page-break-after:auto}@media print{body{margin:0}}")
STYLE = ("body{font-family:sans-serif;background:#111;color:#eee;margin:1em}table{border-collapse:collapse}"
         "td,th{padding:.2em .6em;border-bottom:1px solid #444;text-align:left}.room{display:inline-block;"
         "vertical-align:top;margin:0 1em 1em 0;padding:.5em;border:1px solid #555;min-width:14em}"
         ".off{opacity:.5}.said{color:#fc6}a{color:#9cf}.conflict{color:#f96}form{display:inline}"
         ".lost{background:#b3261e;color:#fff;padding:.4em .6em;font-weight:bold}"
         ".bracket .decider{color:#f96}.bracket .done{color:#9c9}")


def serve_forever(t: Tournament, ledger: Path | None, port: int, bind: str, stop: threading.Event) -> None:
    """Serve until ``stop`` or a stopping signal (raised here as KeyboardInterrupt, see controller.system.signals):
    whenever it comes, starting, waiting for the claim or serving, the service stops in full."""
    service = HubService(t, ledger, port, bind)
    try:
        service.start()
        service.claim_answered()  # a second hub says so before it serves
        if not service.refused.is_set():
            print(_("league hub: scoreboard http://{bind}:{port}/ , organiser http://{bind}:{port}/organiser ; "
                    "ledger {ledger}").format(bind=bind, port=service.port, ledger=service.hub.ledger.path),
                  file=sys.stderr)
        while not service.refused.is_set() and not stop.wait(1.0):
            pass
    finally:
        with signals.held():  # a signal during the stop is raised after it: the stop is never cut short
            service.stop()
    if service.refused.is_set():  # another hub's claim: it serves this tournament (its standings are the day's)
        raise UsageError(_("another hub already serves tournament {t} on the broker {host}:{port} (hub {hub}); "
                           "stop it first, or use its pages").format(t=t.id, host=t.broker.host, port=t.broker.port,
                                                                      hub=service.refused_by))


def state_words() -> dict[str, str]:
    return {"planned": _("planned"), "live": _("live"), "done": _("done"), "unfinished": _("unfinished"),
            "corrected": _("corrected"), "conflict": _("conflict"), "decider": _("a draw: decider needed")}
