"""The protocol state of one board connection, sans-I/O (firmware/PROTOCOL.md).

Lines and box time in; presses, notices and commands out. Every field of
every line is range-checked before it is used: a damaged or hostile line is
one log line and dropped, never an exception out of ``receive`` (a fuzz test
holds it to that). Speaks protocol v3 (the board's lockout) and, for boards
not yet updated, v2 and v1 (no lockout: the Pi's lamps only).

Lockout (v3): ``arm``/``end`` queue the board's ``L arm``/``L end`` commands
and remember what the host wants; every hello and heartbeat says which
contest the board holds (``lk=``), so a lost command is sent again (an arm
only while nothing of that contest has been heard of yet), and a contest the
host no longer wants (a restarted host, an ``L end`` lost) is ended. A lamp
the board lit arrives as a ``LampLit``, in sequence with the presses.

Time: a clock reply maps stamps only of the boot that answered (``b=``; from
firmware before 3.1, which does not say, once a later line names that boot),
and a mapping worse than ``max_clock_error_us`` is not synced. An event stamped
beyond what the board can have seen (later than now plus the mapping error) is
refused and counted (``future_presses``); so are events of a boot that rebooted
while they waited for a mapping that good (``untimed_presses``). Acks name the
boot they are for (firmware 3.3 ignores another boot's: an ack for the boot
before a reboot would free the new boot's first presses), and so do an arm's start
stamps (firmware 3.4 starts such a contest from the arm). Heartbeats and clock replies say up
to which board time everything was sent: once all of it arrived, the session
reports a ``Watermark``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from controller.box.press import (
    FUTURE_PRESS,
    UNTIMED_PRESS,
    InputNotice,
    NoticeKind,
    Press,
    Watermark,
)
from controller.box.sources.board.clock import ClockMap, TickExtender, board_us
from firmware.buzzer.proto import MAX_LINE, fields, unframe

log = logging.getLogger(__name__)

BOARD_STATION = -1  # the station number of whole-board notices (the runtime's HOST_STATION)
BOARD_INPUT = "board"
SPOKEN_VERSIONS = (1, 2, 3)
LOCKOUT_VERSION = 3  # the first protocol with the board's lockout (``L arm``/``L end``, ``F`` lines)
MAX_CONTEST = 65535
BOARD_CHANNELS = 96  # input channels 0..95 (firmware/buzzer/app.py CHANNELS)
LIGHT_CHANNELS = 64
MAX_SEQ = (1 << 31) - 1
MAX_COUNT = (1 << 31) - 1
MAX_HELD = 4096  # events waiting for the clock sync; beyond, the board keeps them for a replay
#: the worst mapping error (µs) this driver states for a board's stamps: a mapping worse than
#: this is not synced (presses wait; the game stays paused). USB round trips are ~1 ms, so
#: a fit this bad has mixed up clocks (another boot's reply) or the box's clock jumped
MAX_CLOCK_ERROR_US = 20_000
#: bursts in a row leaving the mapping worse than stated before it is thrown away and made afresh
BAD_BURSTS = 3
#: the notices a press stamped in the box's future, and one of a boot that rebooted before its clock was
#: mapped as well as stated, are journaled as (never played): ``FUTURE_PRESS``, ``UNTIMED_PRESS`` (press.py)
#: a watermark request unanswered this long is lost (a USB round trip is ~1 ms) ...
MARK_ANSWER_US = 100_000
#: ... and a board that never answered this many is taken for one that does not answer them
MARKS_UNANSWERED = 3
#: µs a board's main-loop pass may take beyond what its heartbeat's ``lp=`` said (before v3: all of it)
LOOP_MARGIN_US = 5_000
_BOOT = re.compile(r"[0-9a-f]{8}")
_TEXT = re.compile(r"[\x21-\x7e]{1,32}")

@dataclass(frozen=True)
class LampLit:
    """The board lit a lamp of a contest by itself (protocol v3 ``F``): the
    press's first edge and the lamp's latch, both on the box timeline
    (``latency_us``: the glitch filter's confirmation to the latch, on the
    board's clock)."""

    contest: int
    station: int
    input: str
    t_us: int  # the press's first edge (its board stamp, mapped)
    lamp_us: int  # when the lamp came on
    latency_us: int
    tie: bool  # lit as tied with the first lamp, not as the first
    source_event: str = ""
    own: bool = False  # the board's own contest (lockout box mode: no host was there), not the host's


@dataclass(frozen=True)
class Arm:
    """What the host asks the board to hold: one contest (``L arm``)."""

    contest: int
    pairs: tuple[tuple[int, int], ...]  # (board input channel, lamp channel) of every competitor
    glitch_us: int
    tie_us: int
    timeout_us: int
    start_ticks: int | None = None  # presses with an earlier first edge never count (None: from the arm)
    #: the contest's start in box µs: ``BoardSession.arm`` maps it to ``start_ticks`` when it
    #: sends the arm, on the clock of the boot it sends it to (mapped earlier, by another
    #: thread, it could be the boot's before a reboot the driver has just read)
    start_us: int | None = None
    #: the boot whose clock ``start_ticks`` is on: firmware 3.4 ignores a stamp of another
    #: boot (the board rebooted before the driver heard of it) and starts from the arm
    boot: str | None = None

    def body(self) -> str:
        pairs = ",".join(f"{ch}:{lamp}" for ch, lamp in self.pairs)
        start = "" if self.start_ticks is None else f" s={self.start_ticks}"
        if start and self.boot is not None:
            start += f" b={self.boot}"
        return f"L arm {self.contest} c={pairs} g={self.glitch_us} w={self.tie_us} to={self.timeout_us}{start}"


Output = Press | InputNotice | LampLit | Watermark
ChannelMap = Mapping[int, tuple[int, str]]


def num(f: Mapping[str, str], key: str, lo: int, hi: int, default: int | None = None) -> int:
    """Field ``key`` as an int in lo..hi; ValueError naming the field otherwise.
    Digits are checked before ``int()``: a 300-digit number costs nothing."""
    v = f.get(key)
    if v is None:
        if default is None:
            raise ValueError(f"field {key}= missing")
        return default
    if not (0 < len(v) <= 19 and v.isascii() and v.isdigit()):
        raise ValueError(f"field {key}={v[:20]!r} is not a number")
    n = int(v)
    if not lo <= n <= hi:
        raise ValueError(f"field {key}={n} out of range {lo}..{hi}")
    return n


def parse_ranges(text: str, limit: int = BOARD_CHANNELS) -> set[int]:
    """'0-2,5' -> {0, 1, 2, 5} ('-' is the empty list); every channel below ``limit``."""
    out: set[int] = set()
    if text in ("", "-"):
        return out
    for part in text.split(",")[:limit]:
        lo_s, _, hi_s = part.partition("-")
        lo = num({"c": lo_s}, "c", 0, limit - 1)
        hi = num({"c": hi_s or lo_s}, "c", lo, limit - 1)
        out.update(range(lo, hi + 1))
    return out


@dataclass
class BoardInfo:
    """What the board said about itself (hello, heartbeats, level queries)."""

    version: int = 0
    firmware: str = ""
    boot_id: str = ""
    inputs: set[int] = field(default_factory=set)
    lights: set[int] = field(default_factory=set)
    capacity: int = 0
    capture: str = ""
    direct_precision_us: int = 1
    held: set[int] = field(default_factory=set)  # channels at the active level (last hello or Q)
    held_at_us: int | None = None
    dropped_events: int = 0
    dropped_edges: int = 0
    dropped_control: int = 0
    faults: int = 0
    glitches: int = 0
    scan_us: int = 0
    glitch_us: int = 1000  # the board's glitch filter (hello db=): its presses and its lamps confirm after it
    bounce_us: int = 10_000  # the board's bounce window (hello db=): a press may be pending that long
    contest: int = 0  # the contest the board holds (hello/heartbeat lk=; 0: none)
    link_aways: int = 0  # times the board darkened every lamp for want of a host (la=)
    lamp_worst_us: int = 0  # longest confirmation -> lamp latch the board measured (lx=)
    loop_worst_us: int = 0  # the board's longest main-loop pass in the last heartbeat interval (lp=)

    @property
    def lockout(self) -> bool:
        """The board can light a contest's first lamp itself (v3 with lamps)."""
        return self.version >= LOCKOUT_VERSION and bool(self.lights)


class BoardSession:
    """The protocol state of one board connection, without I/O.

    ``receive(line, now)`` returns what the sink must get; commands for the
    board pile up in ``outbox`` (bodies, framed by the caller)."""

    def __init__(self, channel_map: ChannelMap, *, sync_burst: int = 4,
                 sync_interval_us: int = 1_000_000, silence_us: int = 1_000_000,
                 clock_slack_us: int = 100, max_clock_error_us: int = MAX_CLOCK_ERROR_US,
                 name: str = BOARD_INPUT) -> None:
        self.channel_map = dict(channel_map)
        self.name = name  # the source's name: its watermarks carry it
        self.max_clock_error_us = max_clock_error_us
        self._next_req = 1  # never reused in a session: a reply to a request of before a reboot matches none
        self.sync_burst = sync_burst
        self.sync_interval_us = sync_interval_us
        self.silence_us = silence_us
        self.clock_slack_us = clock_slack_us
        self.info = BoardInfo()
        self.outbox: list[str] = []
        self.expected = 1  # the next event sequence number
        self.replay_pending = False
        self._replay_seq = 0
        self._replay_asked_us: int | None = None
        self.connected = False  # what the sink was last told
        self.known_boot: str | None = None
        self._reset_clock()
        self._silent = False
        self._last_rx_us: int | None = None
        self._unknown_channels: set[int] = set()
        self.delivered = 0
        self.dropped_lines = 0
        self.future_presses = 0  # events refused: stamped later than the board can have seen
        self.untimed_presses = 0  # events refused: their boot rebooted before its clock was mapped as stated
        self._future_burst = 0  # of them since one was last delivered (one log line per burst)
        self._watermark_us: int | None = None  # the last watermark reported
        self._mark_request_us: int | None = None  # a clock request due then: the watermark passes a press
        #: whether the board answers watermark requests (``ask_watermark``; None: not known yet)
        self.watermark_answers: bool | None = None
        self._mark_asks: dict[int, int] = {}  # watermark request id -> box µs it was asked
        self._answered = False  # a watermark reply came since the last watermark reported
        #: per (station, input): µs added to the stamp's precision (the front
        #: end's worst-case spread between stations) and µs taken off the stamp
        #: (the station's drop-jig offset), as the wiring profile says
        self.stamp_adjust: dict[tuple[int, str], tuple[int, int]] = {}
        #: the contest the host wants the board to hold (None: none), whether a lamp
        #: or a press of it has been heard of (then a lost arm is not sent again:
        #: it would make a later press the first), and what the board was last told
        self.wanted: Arm | None = None
        self._wanted_heard = False
        self._ends: dict[int, str] = {}  # the end sent for each recent contest: sent again if it was lost
        #: the board darkened its lamps (no host for a while): the host's lights
        #: must be sent again (``BoardSource`` does, and clears this)
        self.relight = False

    def _reset_clock(self) -> None:
        self.ticks = TickExtender()
        self.clock = self._new_clock_map()
        self._requests: dict[int, int] = {}
        self._unconfirmed: list[tuple[int, int, int, int | None]] = []  # replies not known to be this boot's
        #: (board µs before which every press was an event, the last seq sent or queued by then)
        self._marks: list[tuple[int, int]] = []
        self._clock_warned = False
        self._bad_bursts = 0  # bursts in a row that left the mapping worse than stated
        self._reply_marks = False  # its clock replies say what it had sent (firmware 3.1)
        self._burst_left = 0
        self._next_sync_us: int | None = None
        self._held: list[tuple[str, dict[str, str], int]] = []  # events waiting for the clock
        self.hello_seen = False
        self._hello_asked_us: int | None = None

    def _new_clock_map(self) -> ClockMap:
        return ClockMap(slack_us=self.clock_slack_us, prior_span_us=self.sync_interval_us * 9 // 10)

    # ---- connection events ---------------------------------------------------
    def opened(self, now_us: int) -> None:
        """A fresh port: ask who is there; nothing counts until the hello."""
        self.hello_seen = False
        self._last_rx_us = now_us
        self._silent = False
        self._ask_hello(now_us)

    def _ask_hello(self, now_us: int) -> None:
        self._hello_asked_us = now_us
        self.outbox.append("?")

    def closed(self, now_us: int) -> list[Output]:
        self.hello_seen = False
        return self._set_connected(False, now_us)

    def resync(self, now_us: int) -> None:
        """After an unexpected error: forget the half-read state and ask for the
        hello again (the board replays what was not acked)."""
        self.hello_seen = False
        self.replay_pending = False
        self._ask_hello(now_us)

    def query_levels(self) -> None:
        """Ask the board which inputs are at their active level now (answer in ``info.held``)."""
        self.outbox.append("Q")

    # ---- lockout ---------------------------------------------------------------
    def arm(self, request: Arm) -> None:
        """Hold this contest on the board (a repeated id: the competitors updated)."""
        if not 0 < request.contest <= MAX_CONTEST:
            raise ValueError(f"contest id {request.contest} out of range 1..{MAX_CONTEST}")
        if self.wanted is None or self.wanted.contest != request.contest:
            self._wanted_heard = False
        if request.start_us is not None:
            request = replace(request, start_ticks=self.board_ticks(request.start_us), start_us=None,
                              boot=self.known_boot)
        self.wanted = request
        if self.hello_seen and self.info.lockout:
            self.outbox.append(request.body())

    def board_ticks(self, box_us: int) -> int | None:
        """The known boot's ticks at box time ``box_us`` (None until its clock is synced, or
        while a line of another boot says it rebooted and its hello has not come)."""
        if not self.hello_seen or not self.clock.ready:
            return None
        return self.clock.to_board(box_us) & ((1 << 30) - 1)

    def end(self, contest: int, on: tuple[int, ...] = ()) -> None:
        """The host's decision: the board drops the contest; ``on``: the lamps the
        host lights for it, switched on in the same command (no flicker)."""
        if self.wanted is not None and self.wanted.contest == contest:
            self.wanted = None
        body = f"L end {contest} on={','.join(str(lamp) for lamp in on) or '-'}"
        self._ends[contest] = body
        while len(self._ends) > 16:
            del self._ends[next(iter(self._ends))]
        if self.hello_seen and self.info.lockout:
            self.outbox.append(body)

    def _reconcile(self, held: int) -> None:
        """The board holds contest ``held`` (0: none): put right what a lost
        command, a reboot or a restarted host left different from ``wanted``."""
        self.info.contest = held
        if not self.info.lockout:
            return
        wanted = self.wanted
        if held and (wanted is None or wanted.contest != held):
            log.info("board holds lockout contest %d the host does not (its end lost, or another "
                     "host's): ending it", held)
            self.outbox.append(self._ends.get(held, f"L end {held} on=-"))
        if wanted is not None and held != wanted.contest and not self._wanted_heard:
            log.info("board does not hold lockout contest %d (its arm was lost?): arming again", wanted.contest)
            self.outbox.append(wanted.body())

    def _set_connected(self, up: bool, now_us: int) -> list[Output]:
        if up == self.connected:
            return []
        self.connected = up
        return [InputNotice(BOARD_STATION, BOARD_INPUT, NoticeKind.CONNECTED if up else NoticeKind.DISCONNECTED, now_us)]

    def tick(self, now_us: int, heard_to_us: int | None = None) -> list[Output]:
        """Time passes: periodic clock requests, silence detection, and a
        hello asked for again if the first question or answer was lost.

        ``heard_to_us``: when the read before this tick began. Silence is judged
        there, not at ``now_us``: a driver thread that ran late after that read
        (which found nothing, or a line's first byte) has the board's lines still
        unread, and they are not missing; a line it did read moved the last-heard
        time past it."""
        out: list[Output] = []
        quiet_to = now_us if heard_to_us is None else min(now_us, heard_to_us)
        asked_hello = self._hello_asked_us
        if not self.hello_seen and asked_hello is not None and quiet_to - asked_hello >= self.silence_us:
            log.warning("no hello from the board after %.1f s: asking again", (quiet_to - asked_hello) / 1e6)
            self._ask_hello(now_us)
        if (self.hello_seen and self._last_rx_us is not None and not self._silent
                and quiet_to - self._last_rx_us >= self.silence_us):
            self._silent = True
            log.warning("board silent for %.1f s (no heartbeat): game paused until it talks again",
                        (quiet_to - self._last_rx_us) / 1e6)
            out += self._set_connected(False, now_us)
        asked = self._replay_asked_us
        if (self.replay_pending and self.hello_seen and not self._silent and asked is not None
                and quiet_to - asked >= self.silence_us):
            log.warning("no answer to the replay request: asking again")
            self._ask_replay(self._replay_seq, now_us)
        if self.hello_seen and self._next_sync_us is not None and now_us >= self._next_sync_us:
            if self.clock.ready or self._burst_left:
                self._request_clock(now_us)
                self._next_sync_us = now_us + self.sync_interval_us
            else:  # the mapping was thrown away (worse than stated): a new burst
                self._start_sync(now_us)
        due = self._mark_request_us
        if due is not None and now_us >= due:
            self._mark_request_us = None
            if self.connected:  # its reply moves the watermark past the press just delivered
                self._request_clock(now_us)
        return out

    def ask_watermark(self, now_us: int) -> bool:
        """A decision waits on the board: ask it how far it has sent every press
        (``W``, firmware 3.2; the answer becomes a ``Watermark``). False when it
        cannot answer (older firmware refused the request): the box waits the
        stated report delay instead. Not sent while disconnected (the game is paused)."""
        if self.watermark_answers is False:
            return False
        stale = sum(1 for at in self._mark_asks.values() if now_us - at >= MARK_ANSWER_US)
        if stale >= MARKS_UNANSWERED and self.watermark_answers is None:  # it never answered one
            log.warning("board firmware %s does not answer watermark requests: decisions wait its stated "
                        "report delay", self.info.firmware)
            self.watermark_answers = False
            self._mark_asks.clear()
            return False
        if self.hello_seen and self.connected:
            self._ask("W", self._mark_asks, now_us)
        return True

    @property
    def asks_in_flight(self) -> int:
        """Watermark requests sent and not answered yet."""
        return len(self._mark_asks)

    def _request_clock(self, now_us: int) -> None:
        self._ask("T", self._requests, now_us)

    def _ask(self, command: str, asked: dict[int, int], now_us: int) -> None:
        """Send ``command`` with the session's next request id, noted in ``asked`` with when it went
        (clock ``T`` and watermark ``W`` requests alike: their ids never repeat in a session)."""
        rid = self._next_req
        self._next_req += 1
        asked[rid] = now_us
        if len(asked) > 32:  # replies that never came
            del asked[min(asked)]
        self.outbox.append(f"{command} {rid}")

    # ---- lines in ------------------------------------------------------------
    def _drop(self, why: str, line: bytes) -> list[Output]:
        self.dropped_lines += 1
        if self.hello_seen:
            log.warning("board line dropped: %s: %r", why, line[:80])
        else:
            log.debug("board line before hello dropped: %s: %r", why, line[:80])
        return []

    def receive(self, line: bytes, now_us: int) -> list[Output]:
        """One line from the board: checked (its length, its frame), taken by its kind
        (``_take``), a malformed one dropped and counted; then any watermark it moved."""
        if len(line) > MAX_LINE + 1:
            return self._drop(f"{len(line)} bytes, longer than the protocol's {MAX_LINE}", line)
        try:
            body = unframe(line)
        except ValueError as exc:
            return self._drop(str(exc), line)
        parts = body.split()
        if not parts:
            return self._drop("empty body", line)
        self._heard(now_us)
        kind, args = parts[0], parts[1:]
        try:
            out = self._take(kind, args, body, now_us)
        except (KeyError, ValueError, IndexError) as exc:
            self.dropped_lines += 1
            log.warning("board line dropped: malformed %s line (%s): %s", kind[:8], exc, body[:120])
            out = []
        return out + self._watermark()

    def _heard(self, now_us: int) -> None:
        """A whole line came: a board silent until now is talking again (what it may have sent
        meanwhile asked again, its clock synced again)."""
        if self._silent:
            self._silent = False
            log.warning("board talking again after %.1f s of silence",
                        (now_us - (self._last_rx_us or now_us)) / 1e6)
            if self.hello_seen:
                self._ask_replay(self.expected - 1, now_us)
                self._start_sync(now_us)
        self._last_rx_us = now_us

    def _take(self, kind: str, args: list[str], body: str, now_us: int) -> list[Output]:
        """A line by its kind (nothing but a hello before the hello); raises on a malformed one."""
        if kind == "H":
            return self._hello(fields(args), now_us)
        if not self.hello_seen:
            log.debug("board line before hello ignored (asked again after it): %s", body)
        elif kind in ("P", "N", "F"):
            return self._event(kind, args, now_us)
        elif kind == "B":
            return self._heartbeat(fields(args), now_us)
        elif kind == "C":
            return self._clock_reply(fields(args), now_us)
        elif kind == "W":
            return self._watermark_reply(fields(args), now_us)
        elif kind == "K":
            self._replay_started(fields(args))
        elif kind == "G":
            return self._glitch(fields(args))
        elif kind == "Q":
            self._levels(fields(args), now_us)
        elif kind == "X":
            self._refused(body[2:])
        elif kind == "E":
            log.error("board firmware error (its loop restarted): %s", body[2:])
        else:
            log.warning("board line of unknown type %r dropped (newer firmware?): %s", kind[:8], body[:80])
        return []

    def _hello(self, f: dict[str, str], now_us: int) -> list[Output]:
        version = num(f, "v", 0, 999)
        if version not in SPOKEN_VERSIONS:
            log.error("board speaks protocol v%d, this driver v%s: update the firmware "
                      "(`buzzerbox firmware install`) or the box software", version,
                      "/".join(map(str, SPOKEN_VERSIONS)))
            return []
        boot = f["boot"]
        if not _BOOT.fullmatch(boot):
            raise ValueError(f"boot id {boot[:20]!r} is not 8 hex digits")
        wraps, ticks = num(f, "w", 0, MAX_COUNT), num(f, "t", 0, (1 << 30) - 1)
        last_seq = num(f, "s", 0, MAX_SEQ)
        acked = num(f, "a", 0, last_seq, default=last_seq)  # v1: what it sent counts as done
        inputs = parse_ranges(f.get("in", "-")) | parse_ranges(f.get("sr", "-"))
        lights = parse_ranges(f.get("lights", "-"), LIGHT_CHANNELS)
        held = parse_ranges(f.get("held", "-"))
        capacity = num(f, "cap", 0, 1 << 20, default=0)
        firmware = f.get("fw", "?")
        capture = f.get("cap_kind", "irq")
        for name, text in (("fw", firmware), ("cap_kind", capture)):
            if not _TEXT.fullmatch(text):
                raise ValueError(f"field {name}={text[:20]!r} is not a short word")
        pd = num(f, "pd", 1, 1_000_000, default=1)
        glitch, bounce = self.info.glitch_us, self.info.bounce_us
        if "db" in f:
            db = f["db"].split("/")
            if len(db) != 3:
                raise ValueError(f"field db={f['db'][:20]!r} is not bounce/glitch/stuck")
            glitch = num({"g": db[1]}, "g", 1, 1_000_000)
            bounce = num({"b": db[0]}, "b", 1, 10_000_000)
        held_contest = num(f, "lk", 0, MAX_CONTEST, default=0)
        link_aways = num(f, "la", 0, MAX_COUNT, default=0)
        out: list[Output] = []
        info = self.info
        if self.known_boot is not None and boot != self.known_boot:
            log.warning("board rebooted (boot id %s -> %s): its clock restarted, re-syncing; "
                        "presses it had not sent yet are lost", self.known_boot, boot)
            out += self._old_boot_held(now_us)
            out += self._set_connected(False, now_us)
            info.dropped_events = info.dropped_edges = info.glitches = 0
            info.dropped_control = info.faults = 0
            self._reset_clock()
            self.expected = 1
            self._ask_replay(0, now_us)
            if self.wanted is not None:  # its start was on the old boot's clock: from the new arm on
                self.wanted = replace(self.wanted, start_ticks=None, boot=None)
        elif self.known_boot is None:
            # a fresh driver: what the board says a host acked is an earlier session's;
            # everything after it (sent to a host that died, or before this hello) comes again
            self.expected = acked + 1
            self._ask_replay(acked, now_us)
        else:
            out += self._confirm(now_us)  # its replies before this hello were this boot's
            self._ask_replay(self.expected - 1, now_us)  # same board back: resend what we lack
        if version < LOCKOUT_VERSION:
            self.watermark_answers = False
        elif boot != self.known_boot:  # another boot (updated firmware?): asked again
            self.watermark_answers = None
        self.known_boot = boot
        self.hello_seen = True
        info.version, info.firmware, info.boot_id = version, firmware, boot
        info.inputs, info.lights, info.capacity = inputs, lights, capacity
        info.capture, info.direct_precision_us = capture, pd
        info.held, info.held_at_us = held, now_us
        info.glitch_us, info.bounce_us, info.link_aways = glitch, bounce, link_aways
        missing = sorted(ch for ch in self.channel_map if ch not in info.inputs)
        if missing:
            log.warning("channel map uses board channels %s that this board does not read "
                        "(it reads %s): check wiring/board-pinmap.toml", missing, f.get("in", "-")[:40])
        self.ticks.reference(wraps, ticks)
        self._start_sync(now_us)
        self._reconcile(held_contest)
        log.info("board %s firmware %s (protocol v%d, %s capture) says hello", boot, firmware, version, capture)
        return out

    def _old_boot_held(self, now_us: int) -> list[Output]:
        """The board rebooted with events of the old boot held for its clock: only that
        clock maps them, and it can never be asked again. Played if its mapping is as good
        as the driver states (they waited for a burst to finish); else refused, counted,
        logged and sent as ``untimed`` notices: mapped by a fit worth ±1 s (replies read
        late on a busy box), a press played 1 s from when it was made."""
        held, self._held = self._held, []
        if not held:
            return []
        clock = self.clock
        if clock.ready and clock.error_us() <= self.max_clock_error_us:
            out: list[Output] = []
            for kind, f, seq in held:
                out += self._deliver(kind, f, seq, now_us)
            return out
        self.untimed_presses += len(held)
        log.error("board rebooted with %d event(s) of its old boot waiting for its clock, mapped %s: "
                  "refused, never played", len(held),
                  f"±{clock.error_us() / 1e3:.1f} ms, beyond the {self.max_clock_error_us / 1e3:.1f} ms this "
                  "driver states" if clock.ready else "not at all")
        wheres = (self._where(num(f, "c", 0, BOARD_CHANNELS - 1)) for _, f, _ in held)
        return [InputNotice(where[0], where[1], UNTIMED_PRESS, now_us) for where in wheres if where is not None]

    def _ask_replay(self, seq: int, now_us: int | None = None) -> None:
        self.replay_pending = True
        self._replay_seq = seq
        self._replay_asked_us = now_us if now_us is not None else self._last_rx_us
        self.outbox.append(f"R {seq}")

    def _start_sync(self, now_us: int) -> None:
        self._burst_left = self.sync_burst
        for _ in range(self.sync_burst):
            self._request_clock(now_us)
        self._next_sync_us = now_us + self.sync_interval_us

    def _clock_reply(self, f: dict[str, str], now_us: int) -> list[Output]:
        rid = num(f, "r", 0, MAX_COUNT)
        t_board = board_us(num(f, "w", 0, MAX_COUNT), num(f, "t", 0, (1 << 30) - 1))
        sent_to = num(f, "s", 0, MAX_SEQ) + num(f, "q", 0, MAX_SEQ) if "s" in f else None
        boot = f.get("b")
        if boot is not None and boot != self.known_boot:
            return self._other_boot("clock reply", boot, now_us)
        sent = self._requests.pop(rid, None)
        if sent is None:
            log.debug("clock reply %d to no pending request (from before a reconnect)", rid)
            return []
        if now_us < sent:
            raise ValueError("clock reply before its request")
        sample = (t_board, sent, now_us, sent_to)
        self._reply_marks = sent_to is not None
        if boot is None and self.info.version >= 2:
            # firmware before 3.1 does not say which boot answered: the reply counts once a later
            # line names the boot we know (the wire keeps order; a board never returns to a boot)
            self._unconfirmed.append(sample)
            del self._unconfirmed[:-32]
            return []
        return self._add_samples([sample], now_us)

    def _refused(self, why: str) -> None:
        if why.startswith("unknown command 'W'"):  # firmware before 3.2
            if self.watermark_answers is not False:
                log.warning("board firmware %s does not answer watermark requests (before 3.2): decisions wait "
                            "its stated report delay; `buzzerbox firmware install` updates it", self.info.firmware)
            self.watermark_answers = False
            self._mark_asks.clear()
            return
        log.warning("board refused a command: %s", why)

    def _watermark_reply(self, f: dict[str, str], now_us: int) -> list[Output]:
        """How far the board had sent every press when it answered (``d`` before its
        ``t``), bound to the boot that answered: a mark once every event it counts arrived."""
        rid = num(f, "r", 0, MAX_COUNT)
        boot = f.get("b", "")
        if boot != self.known_boot:
            return self._other_boot("watermark reply", boot, now_us)
        wraps, ticks = num(f, "w", 0, MAX_COUNT), num(f, "t", 0, (1 << 30) - 1)
        back = num(f, "d", 0, MAX_COUNT)
        sent_to = num(f, "s", 0, MAX_SEQ) + num(f, "q", 0, MAX_SEQ)
        if self._mark_asks.pop(rid, None) is None:
            log.debug("watermark reply %d to no pending request (from before a reconnect)", rid)
            return []
        self.watermark_answers = True
        self.ticks.reference(wraps, ticks)
        self._marks.append((board_us(wraps, ticks) - back, sent_to))
        del self._marks[:-64]
        self._answered = True  # said even if it did not move (a press still bouncing there): the asker hears
        return []

    def _confirm(self, now_us: int) -> list[Output]:
        """A line naming the known boot came: the clock replies before it were this boot's
        (never called for a line that names no boot: it cannot say whose they were)."""
        samples, self._unconfirmed = self._unconfirmed, []
        return self._add_samples(samples, now_us) if samples else []

    def _add_samples(self, samples: list[tuple[int, int, int, int | None]], now_us: int) -> list[Output]:
        """Clock replies of the known boot: (board µs, sent, received, the last seq the board had by then)."""
        for t_board, sent, recv, sent_to in samples:
            self.ticks.ref = t_board
            self.clock.add(t_board, sent, recv)
            if sent_to is not None:
                self._marks.append((t_board - self._pending_us(), sent_to))
            if self._burst_left:
                self._burst_left -= 1
        del self._marks[:-64]
        if self._burst_left:  # judged once the burst is in: one slow reply is not the mapping
            return []
        error = self.clock.error_us()
        if error <= self.max_clock_error_us:
            self._clock_warned = False
            self._bad_bursts = 0
            return self._maybe_ready(now_us)
        # long unsynced (an unplug: the drift allowance grew) or round trips far beyond USB's:
        # more bursts may pin it; still beyond after them, the samples disagree (mixed-up clocks,
        # a jump of the box's clock): stamps mapped by them are worth nothing, start afresh
        self._bad_bursts += 1
        afresh = self._bad_bursts >= BAD_BURSTS
        (log.debug if self._clock_warned else log.warning)(
            "board clock mapping error %.1f ms is beyond the %.1f ms this driver states: not synced, "
            "presses wait; %s", error / 1e3, self.max_clock_error_us / 1e3,
            "mapping the board's clock again" if afresh else "asking the board's clock again")
        if afresh:
            self.clock = self._new_clock_map()
            self._requests.clear()
            self._marks.clear()
            self._bad_bursts = 0
        self._clock_warned = True
        self._start_sync(now_us)  # paced by its replies: never more than one burst on its way
        return self._set_connected(False, now_us)

    def _other_boot(self, what: str, boot: str, now_us: int) -> list[Output]:
        """A line of a boot that said no hello yet: the board rebooted and its hello was lost."""
        log.warning("%s from boot %r, expected %s: the board rebooted; asking hello",
                    what, boot[:20], self.known_boot)
        self.hello_seen = False
        self._unconfirmed.clear()  # they may be the new boot's
        self._ask_hello(now_us)
        return self._set_connected(False, now_us)

    def _maybe_ready(self, now_us: int) -> list[Output]:
        if self.connected or self._burst_left or not self.clock.ready or self._silent:
            return []
        log.info("board connected and clock synced (round trip %d µs, mapping error %d µs): game can go on",
                 self.clock.best_rtt_us() or 0, self.clock.error_us())
        # the presses held for the clock first, then "connected": a box that takes
        # the notice resumes the game and decides up to its horizon at once, so a
        # press made while unplugged must already be in its inbox by then (else,
        # delivered a moment later, it is older than what was decided: late evidence)
        out: list[Output] = []
        held, self._held = self._held, []
        for kind, f, seq in held:
            out += self._deliver(kind, f, seq, now_us)
        return out + self._set_connected(True, now_us)

    def _replay_started(self, f: dict[str, str]) -> None:
        start, lost = num(f, "from", 1, MAX_SEQ), num(f, "lost", 0, MAX_SEQ)
        if start - lost > self._replay_seq + 1:
            # the board answers ``R s`` from s + 1, or from its oldest event with the ones
            # before it counted lost: this answers an earlier request (one the host sent
            # the boot before a reboot, not knowing of it), not the replay asked now
            log.debug("replay answer from=%d lost=%d is not the answer to R %d: ignored", start, lost,
                      self._replay_seq)
            return
        if start > self.expected:
            missing = start - self.expected
            # a full buffer drops a press before it gets a seq (counted in the heartbeat's d=):
            # what the board no longer holds was freed once sent, by an ack or (v1) by sending it
            if not lost:
                log.error("board skipped %d event(s) (seq %d..%d) without counting them lost: "
                          "firmware that does not keep to the protocol?", missing, self.expected, start - 1)
            elif self.info.version < 2:
                log.error("board no longer holds %d event(s) (seq %d..%d): sent and freed (protocol v1 "
                          "firmware keeps no event before a host's first ack); update the board's firmware",
                          missing, self.expected, start - 1)
            else:
                log.error("board no longer holds %d event(s) (seq %d..%d): a host acknowledged them "
                          "(another process reading this board?) and the board freed them",
                          missing, self.expected, start - 1)
            self.expected = start
        self.replay_pending = False

    def _heartbeat(self, f: dict[str, str], now_us: int) -> list[Output]:
        boot = f.get("b", self.known_boot)
        if boot != self.known_boot:
            return self._other_boot("heartbeat", boot or "", now_us)
        wraps, ticks = num(f, "w", 0, MAX_COUNT), num(f, "t", 0, (1 << 30) - 1)
        last_sent = num(f, "s", 0, MAX_SEQ)
        unsent = num(f, "q", 0, MAX_SEQ, default=0)
        counters = {k: num(f, k, 0, MAX_COUNT, default=0) for k in ("d", "e", "g", "x", "o", "f")}
        pd = num(f, "pd", 1, 1_000_000, default=self.info.direct_precision_us)
        held_contest = num(f, "lk", 0, MAX_CONTEST, default=0)
        link_aways = num(f, "la", 0, MAX_COUNT, default=self.info.link_aways)
        lamp_worst = num(f, "lx", 0, MAX_COUNT, default=0)
        loop_worst = num(f, "lp", 0, MAX_COUNT, default=0)
        # only a heartbeat that names its boot says the replies before it were this boot's: one
        # without ``b=`` may be a rebooted board's (its hello lost), whose replies map nothing here
        out = self._confirm(now_us) if "b" in f else []
        self.ticks.reference(wraps, ticks)
        info = self.info
        if link_aways > info.link_aways:
            log.warning("board darkened every lamp: it heard no host for a while; sending the lights again")
            self.relight = True
        info.link_aways, info.lamp_worst_us, info.loop_worst_us = link_aways, lamp_worst, loop_worst
        if "b" in f:  # board time through which every event was sent or queued
            self._marks.append((board_us(wraps, ticks) - self._pending_us(), last_sent + unsent))
            del self._marks[:-64]
        if not self.replay_pending:
            self._reconcile(held_contest)
        if counters["d"] > info.dropped_events:
            log.warning("board dropped %d press event(s) (its buffer of %d was full: the host "
                        "was not reading); the earliest were kept", counters["d"] - info.dropped_events,
                        info.capacity)
        if counters["e"] > info.dropped_edges:
            log.warning("board dropped %d raw edge(s): its capture ring overflowed (bounce storm or a "
                        "floating input?)", counters["e"] - info.dropped_edges)
        if counters["o"] > info.dropped_control:
            log.warning("board dropped %d control line(s) (replies, notices): its outbox was full",
                        counters["o"] - info.dropped_control)
        if counters["f"] > info.faults:
            log.error("board firmware hit %d error(s) in its main loop and restarted it",
                      counters["f"] - info.faults)
        info.dropped_events, info.dropped_edges, info.glitches = counters["d"], counters["e"], counters["g"]
        info.dropped_control, info.faults, info.scan_us = counters["o"], counters["f"], counters["x"]
        info.direct_precision_us = pd
        if not self.replay_pending and last_sent >= self.expected:
            log.warning("sequence gap: %d event(s) sent by the board never arrived (seq %d..%d); "
                        "asking the board to resend", last_sent - self.expected + 1, self.expected,
                        last_sent)
            self._ask_replay(self.expected - 1, now_us)
        if self.connected:
            # named: an ack read by a board that rebooted since this heartbeat (its new
            # boot's first events sent, not yet here) would free them (firmware 3.3 ignores it)
            self.outbox.append(f"A {self.expected - 1} b={self.known_boot}")
        return out + self._maybe_ready(now_us)

    def _levels(self, f: dict[str, str], now_us: int) -> None:
        self.ticks.reference(num(f, "w", 0, MAX_COUNT), num(f, "t", 0, (1 << 30) - 1))
        self.info.held = parse_ranges(f.get("held", "-"))
        self.info.held_at_us = now_us

    def _event(self, kind: str, args: list[str], now_us: int) -> list[Output]:
        seq = num({"s": args[0]}, "s", 1, MAX_SEQ)
        f = fields(args[1:])
        boot = f.get("b")
        if boot is not None and boot != self.known_boot:
            return self._other_boot("event", boot, now_us)
        self._event_time(f)  # checked now: a malformed event must not advance the sequence
        num(f, "c", 0, BOARD_CHANNELS - 1)
        if kind == "P":
            num(f, "n", 0, 65535, default=1)
            num(f, "p", 0, 1 << 30, default=1)
        elif kind == "F":
            if f.get("k") not in ("first", "tie"):
                raise ValueError(f"lamp kind {f.get('k', '')[:20]!r} is not first or tie")
            num(f, "id", 1, MAX_CONTEST)
            num(f, "lit", 0, 1 << 30)
            num(f, "lat", 0, 1 << 30)
        elif f.get("k") not in ("stuck", "unstuck"):
            raise ValueError(f"notice kind {f.get('k', '')[:20]!r} is not stuck or unstuck")
        out = self._confirm(now_us) if boot is not None else []
        if self.replay_pending:
            log.debug("event %d dropped while waiting for the replay to start", seq)
            return out
        if seq < self.expected:
            log.debug("event %d again (already delivered): ignored", seq)
            return out
        if seq > self.expected:
            log.warning("sequence gap: %d event(s) missing (expected seq %d, got %d); asking the "
                        "board to resend", seq - self.expected, self.expected, seq)
            self._ask_replay(self.expected - 1, now_us)
            return out
        if not self.connected:
            if len(self._held) >= MAX_HELD:
                return out  # not taken: the board keeps it and replays it
            self.expected = seq + 1
            self._held.append((kind, f, seq))
            return out
        self.expected = seq + 1
        return out + self._deliver(kind, f, seq, now_us)

    def _event_time(self, f: dict[str, str]) -> int:
        """64-bit board µs of an event: its own w= (v2), or extended from the latest reference (v1)."""
        ticks = num(f, "t", 0, (1 << 30) - 1)
        if "w" in f:
            return board_us(num(f, "w", 0, MAX_COUNT), ticks)
        return self.ticks.extend(ticks)

    def _where(self, ch: int) -> tuple[int, str] | None:
        where = self.channel_map.get(ch)
        if where is None and ch not in self._unknown_channels:
            self._unknown_channels.add(ch)
            log.warning("board channel %d is not in the channel map (wiring profile): ignored", ch)
        return where

    def _deliver(self, kind: str, f: dict[str, str], seq: int, now_us: int) -> list[Output]:
        ch = num(f, "c", 0, BOARD_CHANNELS - 1)
        t_board = self._event_time(f)
        t_box = self.clock.to_box(t_board)
        where = self._where(ch)
        if where is None:
            return []
        station, name = where
        error = self.clock.error_us(t_board)
        if t_box > now_us + error:
            return self._future(kind, where, t_box - now_us, error, now_us)
        if self._future_burst > 1:
            log.warning("%d more board events stamped in the box's future were refused", self._future_burst - 1)
        self._future_burst = 0
        if kind == "P" and self.connected and self._mark_request_us is None and self._reply_marks:
            self._mark_request_us = now_us + self._pending_us()
        extra_us, offset_us = self.stamp_adjust.get(where, (0, 0))
        t_box -= offset_us
        self.delivered += 1
        if kind == "F":
            contest = num(f, "id", 1, MAX_CONTEST)
            if self.wanted is not None and self.wanted.contest == contest:
                self._wanted_heard = True
            return [LampLit(contest, station, name, t_box, t_box + num(f, "lit", 0, 1 << 30),
                            num(f, "lat", 0, 1 << 30), f["k"] == "tie",
                            source_event=f"{f.get('b') or self.known_boot}#{seq}", own=f.get("own") == "1")]
        if kind == "P":
            wanted = self.wanted
            if wanted is not None and any(ch == c for c, _ in wanted.pairs):
                self._wanted_heard = True
            # what the stamp is worth against another clock: the board's own capture
            # precision or the mapping error, whichever is coarser, plus the front end's
            # spread; against a press of this very board (its clock): the capture alone
            own = max(1, num(f, "p", 0, 1 << 30, default=1)) + extra_us
            precision = max(own, error + extra_us)
            return [Press(station, name, t_box, precision, num(f, "n", 0, 65535, default=1),
                          clock=self.clock_id(f), clock_precision_us=own,
                          source_event=f"{f.get('b') or self.known_boot}#{seq}")]
        return [InputNotice(station, name, f["k"], t_box)]

    def _future(self, kind: str, where: tuple[int, str], ahead_us: int, error_us: int,
                now_us: int) -> list[Output]:
        """An event stamped later than the board can have seen: the line arrived before now,
        and the board stamped it before it sent it. Refused (a wrong clock mapping would
        otherwise make a press nobody made win later), counted, logged once per burst."""
        self.future_presses += 1
        self._future_burst += 1
        if self._future_burst == 1:
            log.warning("board %s of station %d input %r stamped %.3f s in the box's future (the clock mapping "
                        "is worth %d µs): refused, never played", {"P": "press", "F": "lamp"}.get(kind, "notice"),
                        where[0], where[1], ahead_us / 1e6, error_us)
        return [InputNotice(where[0], where[1], FUTURE_PRESS, now_us)]

    def _pending_us(self) -> int:
        """How long before a board time a press may still be unsent there: pending in its
        debouncer (the bounce window, twice the glitch filter), or its edge not yet taken
        by the loop (its longest pass, and a margin)."""
        info = self.info
        return info.bounce_us + 2 * info.glitch_us + info.loop_worst_us + LOOP_MARGIN_US

    def _watermark(self) -> list[Output]:
        """Every event the board had sent or queued at a heartbeat's (or clock reply's) time
        arrived: every press stamped up to that time less ``_pending_us`` (a watermark
        reply's: its own ``d``) is delivered, on
        the box timeline through the mapping less its error (a later fit may move by that).
        Nothing while disconnected, or while a missing event is being replayed."""
        if not self._marks or not self.connected or self.replay_pending or self._silent:
            return []
        reached = None
        while self._marks and self._marks[0][1] < self.expected:
            at = self._marks.pop(0)[0]
            reached = at if reached is None else max(reached, at)
        if reached is None:
            return []
        at = reached
        mark = self.clock.to_box(at) - self.clock.error_us(at)
        answered, self._answered = self._answered, False
        if self._watermark_us is not None and mark <= self._watermark_us:
            if not answered:
                return []
            mark = self._watermark_us
        self._watermark_us = mark
        return [Watermark(self.name, mark)]

    def clock_id(self, f: Mapping[str, str]) -> str:
        """The clock an event's box stamp comes from: this board boot's timer (a reboot
        restarts it) through the mapping fit in force (``ClockMap.fit_id``). Presses of
        one such clock are compared without the error of mapping between clocks."""
        return f"board:{f.get('b') or self.known_boot}/{self.clock.fit_id}"

    def _glitch(self, f: dict[str, str]) -> list[Output]:
        if not self.clock.ready:
            return []
        where = self._where(num(f, "c", 0, BOARD_CHANNELS - 1))
        if where is None:
            return []
        return [InputNotice(where[0], where[1], NoticeKind.GLITCH, self.clock.to_box(self._event_time(f)))]
