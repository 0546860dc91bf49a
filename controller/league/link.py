"""The broker connection (paho-mqtt, MQTT 5), for a box and for the hub.

paho runs its own network thread and reconnects by itself; nothing here
ever blocks the game: a box publishes into paho's queue and goes on, and a
broker that is gone only means the live view waits and the results are
sent again (from the journals) on the next connect.

``BoxLink`` is what a box in a tournament runs: its status (with an
"offline" will the broker sends if the box vanishes), its live view (the
latest only, one in flight at a time: a box that was cut off sends its
present, not a backlog of old frames), every result of its room's journals
on each connect (QoS 1, retained), and the organiser's signed schedule
changes it is sent.
"""

from __future__ import annotations

import logging
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.box.runtime import Box
from controller.league import messages, signing
from controller.league.outbox import RoomFolder
from controller.league.tournament import Broker, Tournament
from games.i18n import N_, _

if TYPE_CHECKING:  # the pages' publisher: imported when a box watches its game
    from controller.box.views import Publisher

log = logging.getLogger("buzzerbox.league")
#: a stop that waits longer than this for the broker says so (its wait is bounded by its own fail-safe)
DRAIN_QUIET_S = 2.0


class Words(str):
    """A catalogue message given as a value of another: worded when that one is."""


#: the broker's refusals a person can act on, in their words (others: the broker's own, in English);
#: Mosquitto answers a wrong password with "not authorized" (135), not "bad user name or password" (134)
REFUSALS = {134: Words(N_("wrong user or password")), 135: Words(N_("wrong user or password")),
            133: Words(N_("the broker refused this box's client id"))}


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Connection:
    """One MQTT client: credentials, TLS with the broker's own CA, reconnects, a will."""

    def __init__(self, broker: Broker, user: str, password: str | None, client_id: str, *,
                 will: tuple[str, bytes] | None = None, subscriptions: Sequence[str] = (),
                 reconnect_s: tuple[float, float] = (1, 8)) -> None:
        self.broker = broker
        self.subscriptions = list(subscriptions)
        self.connected = threading.Event()
        #: the broker confirmed every subscription of this connection (a message sent after it reaches us)
        self.subscribed = threading.Event()
        self._pending_subscriptions: set[int] = set()
        self.refused: str | None = None  # the broker said no (bad password): said once, not retried in silence
        self.on_connected: list[Callable[[], None]] = []
        self.on_disconnected: list[Callable[[], None]] = []
        #: called once every subscription is confirmed (the retained messages follow)
        self.on_subscribed: list[Callable[[], None]] = []
        self.on_message: Callable[[str, bytes], object] = lambda topic, payload: None
        #: (mid, the broker took it): a QoS 1 message's acknowledgement
        self.on_published: Callable[[int, bool], None] = lambda mid, ok: None
        self.stopping = False
        self.denied = 0  # publishes the broker refused (the ACL): counted, and logged
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if user:
            client.username_pw_set(user, password)
        if broker.tls_ca is not None:
            client.tls_set(ca_certs=str(broker.tls_ca))
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        client.reconnect_delay_set(min_delay=int(reconnect_s[0]) or 1, max_delay=int(reconnect_s[1]))
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        client.on_publish = self._published
        client.on_subscribe = self._subscribed
        client.on_connect_fail = self._connect_failed
        self.client = client
        #: why the last attempt to connect failed, as its message and its values (None: it did not fail):
        #: worded when asked, in the language of the moment (the menu's language may change meanwhile)
        self._problem: tuple[str, dict[str, object]] | None = None
        #: set whenever an attempt to connect failed (``last_problem`` says why)
        self.failed = threading.Event()

    @property
    def last_problem(self) -> str | None:
        """Why the last attempt to connect failed, in the person's words (None: it did not fail)."""
        problem = self._problem
        if problem is None:
            return None
        return _(problem[0]).format(**{k: _(v) if isinstance(v, Words) else v for k, v in problem[1].items()})

    def _failed(self, why: tuple[str, dict[str, object]], line: str) -> None:
        """An attempt failed: logged once per problem (not on every retry), kept for the screen."""
        if why != self._problem:
            self._problem = why
            log.warning(line, self.last_problem)
        self.failed.set()

    def problem(self) -> str:
        """Why this connection is not up, for the box's screen and log."""
        return self.last_problem or _("the broker {host}:{port} did not answer").format(
            host=self.broker.host, port=self.broker.port)

    def _connect_failed(self, client: mqtt.Client, userdata: Any) -> None:
        exc = sys.exc_info()[1]  # paho calls this while it handles the connect's OSError
        where = f"{self.broker.host}:{self.broker.port}"
        if isinstance(exc, ssl.SSLCertVerificationError):
            why: tuple[str, dict[str, object]] = (
                N_("TLS: the broker at {where} has a certificate the CA {ca} did not sign ({detail}); "
                   "copy the hall's ca.crt beside the tournament file"),
                {"where": where, "ca": self.broker.tls_ca, "detail": exc.verify_message})
        elif isinstance(exc, ssl.SSLError):
            why = (N_("TLS with the broker at {where} failed ({detail}); is its port the TLS one?"),
                   {"where": where, "detail": exc.reason or exc})
        elif isinstance(exc, ConnectionRefusedError):
            why = (N_("nothing answers at {where}: is the broker running, on that port?"), {"where": where})
        elif isinstance(exc, socket.gaierror):
            why = (N_("the broker's name {host} is not known on this network"), {"host": self.broker.host})
        else:
            why = (N_("no route to the broker at {where} ({detail}): is this box on the hall's network?"),
                   {"where": where, "detail": getattr(exc, "strerror", None) or exc or _("timed out")})
        self._failed(why, _("league: cannot connect: %s"))

    def start(self) -> None:
        """Connect in the background: a broker that is not there yet is tried again and again."""
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.broker.keepalive_s)
        self.client.loop_start()

    def stop(self, drain_s: float = 2.0) -> None:
        """Wait up to ``drain_s`` for what is in flight, then disconnect (the will is not sent)."""
        self.stopping = True
        start = time.monotonic()
        deadline, said = start + drain_s, False
        while self.connected.is_set() and self.client._out_messages and time.monotonic() < deadline:
            if not said and time.monotonic() - start > DRAIN_QUIET_S:  # a wait nobody sees looks like a hang
                log.warning("league: stopping: waiting up to %.0f s more for the broker to confirm %d message(s)",
                            deadline - time.monotonic(), len(self.client._out_messages))
                said = True
            time.sleep(0.02)  # a bounded drain at exit, not a synchronisation
        self.client.disconnect()
        self.client.loop_stop()
        # paho closes its network loop's wake-up socket pair only when the client is collected:
        # closed here, as the connection stops (a menu starts and stops many)
        self.client._reset_sockets()

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> int:
        return self.client.publish(topic, payload, qos=1, retain=retain).mid

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                   properties: Properties | None) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            self._failed((N_("the broker refused the connection: {reason} ({host}:{port}; check the user and "
                             "password file)"), {"host": self.broker.host, "port": self.broker.port,
                                                 "reason": REFUSALS.get(reason.value, str(reason))}),
                         "league: %s")
            return
        self.refused = None
        self._problem = None
        self.subscribed.clear()
        if self.subscriptions:
            _result, mid = client.subscribe([(topic, 1) for topic in self.subscriptions])
            self._pending_subscriptions = {mid} if mid is not None else set()
        else:
            self.subscribed.set()
        self.connected.set()
        for hook in list(self.on_connected):
            try:
                hook()
            except Exception:  # noqa: BLE001 (a hook that fails must not stop the network thread)
                log.exception("league: after connecting")

    def _subscribed(self, client: mqtt.Client, userdata: Any, mid: int, reasons: list[ReasonCode],
                    properties: Properties | None) -> None:
        self._pending_subscriptions.discard(mid)
        if any(r.is_failure for r in reasons):
            log.warning("league: the broker refused a subscription (%s): does the ACL let this account read?",
                        ", ".join(str(r) for r in reasons))
        if not self._pending_subscriptions:
            self.subscribed.set()
            for hook in list(self.on_subscribed):
                hook()

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                      properties: Properties | None) -> None:
        if self.connected.is_set() and not self.stopping:
            log.warning(_("league: lost the broker (%s); the games go on, and what they missed is sent on reconnect"),
                        reason)
        self.connected.clear()
        self.subscribed.clear()
        for hook in list(self.on_disconnected):
            hook()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.on_message(message.topic, bytes(message.payload))
        except Exception:  # noqa: BLE001 (one bad message must not stop the network thread)
            log.exception("league: a message on %s", message.topic)

    def _published(self, client: mqtt.Client, userdata: Any, mid: int, reason: ReasonCode,
                   properties: Properties | None) -> None:
        if reason.is_failure:
            self.denied += 1
            log.warning("league: the broker refused a message (%s): does the ACL give this account its room?", reason)
        self.on_published(mid, not reason.is_failure)


#: how often a box says it is online though nothing changed (the hub greys a room not heard for 2.5 times this)
STATUS_EVERY_S = 30.0


class BoxLink:
    """A box in a tournament: status, live view, results, schedule changes."""

    def __init__(self, tournament: Tournament, folder: RoomFolder, password: str | None, *,
                 reconnect_s: tuple[float, float] = (1, 8), clock: Callable[[], int] = wall_ms,
                 room_voice: bool = True) -> None:
        self.t = tournament
        #: the room's one voice: its status (and will), the organiser's schedule and draw taken into its
        #: folder. False: a link beside the room's (the league's peer of a menu's match): the live board
        #: and the results only, under a client id of its own
        self.room_voice = room_voice
        self.folder = folder
        self.room = folder.room
        self.clock = clock
        self.match: str | None = None
        room = tournament.room(self.room)
        self.status_topic = messages.room_topic(tournament.id, self.room, "status")
        self.live_topic = messages.room_topic(tournament.id, self.room, "live")
        self.conn = Connection(tournament.broker, room.user, password,
                               f"buzzerbox-{tournament.id}-{self.room}" + ("" if room_voice else "-peer"),
                               will=(self.status_topic, messages.status_payload(self.room, False, None, 0))
                               if room_voice else None,
                               subscriptions=[messages.schedule_topic(tournament.id),
                                              messages.bracket_topic(tournament.id)] if room_voice else [],
                               reconnect_s=reconnect_s)
        self.conn.on_connected.append(self._on_connect)
        self.conn.on_message = self._on_message
        self.conn.on_published = self._on_published
        self._lock = threading.Lock()
        self._pending_live: bytes | None = None
        self._stopped = threading.Event()
        self._beat: threading.Thread | None = None
        self._live_in_flight: int | None = None
        self.published_results: set[tuple[str, int]] = set()
        self._result_mids: dict[int, messages.Result] = {}
        self._acked: dict[int, bool] = {}  # acknowledgements that came before their mid was noted
        #: notified whenever the broker acknowledged a result
        self.delivered = threading.Condition()
        self.refused_changes = 0
        self.changes_seen = 0
        #: notified after each schedule message was handled (taken or refused)
        self.schedule_handled = threading.Condition()

    def start(self) -> BoxLink:
        self.conn.start()
        if not self.room_voice:
            return self
        self._beat = threading.Thread(target=self._heartbeat, name=f"league-{self.room}-status", daemon=True)
        self._beat.start()
        return self

    def _heartbeat(self) -> None:
        """The status again every STATUS_EVERY_S: the hub tells a quiet room from one it no longer hears."""
        while not self._stopped.wait(STATUS_EVERY_S):
            if self.conn.connected.is_set():
                self.conn.publish(self.status_topic, messages.status_payload(self.room, True, self.match, self.clock()))

    def stop(self) -> None:
        """A clean exit says "offline" itself (the broker's will is only for a box that vanishes)."""
        self._stopped.set()
        if self._beat is not None:
            self._beat.join()
        if self.conn.connected.is_set() and self.room_voice:
            self.conn.publish(self.status_topic, messages.status_payload(self.room, False, None, self.clock()))
        self.conn.stop()

    # -- what the box says ----------------------------------------------------------------
    def playing(self, match: str | None) -> None:
        """The box starts (or ends) a match: the organiser page says where each match is."""
        self.match = match
        if self.conn.connected.is_set() and self.room_voice:
            self.conn.publish(self.status_topic, messages.status_payload(self.room, True, match, self.clock()))

    def trouble(self) -> str | None:
        """The line the box's screen says while the broker cannot be reached, and why (the TLS, the
        password, the route); None while connected or before a first attempt failed. Asked per frame."""
        why = self.conn.last_problem
        if why is None or self.conn.connected.is_set():
            return None
        return _("Tournament offline: {why}").format(why=why)

    def watch(self, box: Box) -> None:
        """Publish ``box``'s public scoreboard view as it changes (a game decided in this process)."""
        from controller.box.views import watching

        self.follow(watching(box))

    def follow(self, publisher: Publisher) -> None:
        """Publish the public scoreboard view of ``publisher``'s pages as it
        changes: the companion's board stream (nothing secret). In the split
        design the publisher is fed the deciding process's snapshots."""
        publisher.listeners.append(lambda snap: self.live(snap.board))
        self.live(publisher.latest.board)

    def live(self, board_json: str) -> None:
        """The latest view replaces any not yet sent; one is in flight at a time."""
        payload = messages.live_payload(self.room, self.match, self.clock(), board_json)
        with self._lock:
            self._pending_live = payload
        self._pump()

    def _pump(self) -> None:
        with self._lock:
            if self._pending_live is None or self._live_in_flight is not None or not self.conn.connected.is_set():
                return
            payload, self._pending_live = self._pending_live, None
            self._live_in_flight = -1  # taken: set to the real mid below
        mid = self.conn.publish(self.live_topic, payload)
        with self._lock:
            if self._live_in_flight == -1:
                self._live_in_flight = mid

    def _on_published(self, mid: int, ok: bool) -> None:
        with self._lock:
            if self._live_in_flight in (mid, -1):
                self._live_in_flight = None
            result = self._result_mids.pop(mid, None)
            if result is None:  # a live view's, or a result's whose mid is not noted yet: kept a short while
                self._acked[mid] = ok
                while len(self._acked) > 256:  # mids count up: an old one is not met again for 65,000 messages
                    self._acked.pop(next(iter(self._acked)))
        if result is not None:
            self._result_acked(result, ok)
        self._pump()

    def _result_acked(self, result: messages.Result, ok: bool) -> None:
        if ok:
            self.folder.delivered(result)
        with self.delivered:
            self.delivered.notify_all()

    def deliver(self, wait_s: float) -> list[messages.Result]:
        """Connect and wait (up to ``wait_s``) until the broker has every ended journal's result;
        what it still lacks is returned (empty: all delivered)."""
        if self.conn.connected.wait(wait_s):
            with self.delivered:
                self.delivered.wait_for(lambda: not self.folder.undelivered(), wait_s)
        return self.folder.undelivered()

    def publish_results(self) -> int:
        """Every ended journal's result, again: QoS 1, retained; the hub counts each (match, seq) once."""
        if not self.conn.connected.is_set():
            return 0
        sent = 0
        for result in self.folder.results(self.clock()):
            payload = messages.encode(result.to_json())
            mid = self.conn.publish(messages.result_topic(self.t.id, self.room, result.match), payload)
            with self._lock:
                early = self._acked.pop(mid, None)
                if early is None:
                    self._result_mids[mid] = result
            if early is not None:
                self._result_acked(result, early)
            self.published_results.add(result.key)
            sent += 1
        return sent

    def _on_connect(self) -> None:
        with self._lock:
            self._live_in_flight = None  # what was in flight on the old connection is not waited for
        if self.room_voice:
            self.conn.publish(self.status_topic, messages.status_payload(self.room, True, self.match, self.clock()))
        self.publish_results()
        self._pump()

    # -- what the organiser says -------------------------------------------------------------
    def _on_message(self, topic: str, payload: bytes) -> None:
        if topic not in (messages.schedule_topic(self.t.id), messages.bracket_topic(self.t.id)) or not payload:
            return
        with self.schedule_handled:
            try:
                if topic == messages.bracket_topic(self.t.id):
                    self._bracket(payload)
                else:
                    self._schedule(payload)
            finally:
                self.changes_seen += 1
                self.schedule_handled.notify_all()

    def _bracket(self, payload: bytes) -> None:
        """The hub's playoff draw (only the hub's account may write it): kept for this room's next match."""
        if self.t.playoff is None:
            return
        try:
            bracket = messages.parse_bracket(payload, self.t.playoff.ids(), [team.id for team in self.t.teams])
        except messages.MessageError as exc:
            self.refused_changes += 1
            log.warning(_("league: refused a playoff draw: %s"), exc)
            return
        self.folder.take_bracket(bracket)

    def _schedule(self, payload: bytes) -> None:
        try:
            change = messages.parse_schedule(payload, self.t.id)
        except messages.MessageError as exc:
            self.refused_changes += 1
            log.warning(_("league: refused a schedule change: %s"), exc)
            return
        if not signing.verify(self.t.organiser_key, change.body, change.signature):
            self.refused_changes += 1
            log.warning(_("league: refused a schedule change not signed by the organiser's key"))
            return
        if change.revision <= self.folder.revision:
            return  # an old one (the retained message again after a reconnect)
        known = {m.id for m in self.t.matches}
        if any(m.match not in known or m.room not in {r.id for r in self.t.rooms} for m in change.moves):
            self.refused_changes += 1
            log.warning(_("league: refused a schedule change naming a match or room the tournament file does not have"))
            return
        self.folder.apply(change.revision, change.moves)
        log.info("league: schedule revision %d taken", change.revision)
