"""The Pi's side of the board's lockout: it arms the board for a game's race
for the first lamp, then confirms or overrides the lamps the board lit.

The board lights the first lamp within µs of the press (firmware/PROTOCOL.md,
"Lockout"); the Pi still decides what the press wins (its own ranking, the
game's rules, late evidence, the host's judgement). When the game's decision
is made, ``LockoutReferee`` ends the contest on the board with the Pi's own
lamps (``End``): where they differ from the board's, the Pi's win, and the
difference is a ``Disagreement`` with both stamps, for the journal.

``LockoutReferee`` is sans-I/O (contests, lamps and time in; commands and
disagreements out). ``BoardLockout`` is the small hook that runs it: it reads
the game's contest (``GameSpec.lamp_contest``) each time the box decides
something, sends the commands through ``BoardSource`` and journals the
disagreements; a board without lockout (protocol v2) is simply not armed and
the Pi's lamps work as before.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.box.sources.board.session import MAX_CONTEST, Arm, LampLit

log = logging.getLogger(__name__)

#: the board lets go of a contest's lamps this long after lighting the first,
#: should the host's decision never come (the host also ends it on every heartbeat)
LOCKOUT_TIMEOUT_US = 10_000_000
DECIDED_KEPT = 16  # decided contests whose late lamp reports are still compared


@dataclass(frozen=True)
class End:
    """End a contest on the board; ``on``: the lamp channels the Pi lights for it."""

    contest: int
    on: tuple[int, ...] = ()


@dataclass(frozen=True)
class Disagreement:
    """The board's lamps and the Pi's decision differ: the Pi's stand.
    ``board``: what the board lit (box µs); ``pi``: (station, its press's stamp
    in game µs or None) for every station the Pi decided for."""

    contest: int
    key: str
    t_us: int  # when the Pi decided (or heard of the lamp after deciding), game µs
    board: tuple[LampLit, ...]
    pi: tuple[tuple[int, int | None], ...]
    late: bool  # the board lit it after the Pi had decided (before the end reached it)

    def record(self, offset_us: int) -> dict[str, Any]:
        """The journal line: both stamps on the game's timeline."""
        return {
            "type": "lamp", "t_us": self.t_us, "contest": self.contest, "key": self.key, "late": self.late,
            "board": [_lamp_record(b, offset_us) for b in self.board],
            "pi": [{"station": s, "press_us": t} for s, t in self.pi],
        }


def _lamp_record(b: LampLit, offset_us: int) -> dict[str, Any]:
    return {"station": b.station, "input": b.input, "press_us": b.t_us + offset_us,
            "lamp_us": b.lamp_us + offset_us, "latency_us": b.latency_us, "tie": b.tie,
            "source_event": b.source_event}


@dataclass(frozen=True)
class BoxContest:
    """A lamp of a contest the board ran by itself while no host was there
    (lockout box mode, firmware/buzzer/standalone.py), read when a host came
    back: journaled as the board's own, never taken for the game's."""

    t_us: int  # when the host read it, game µs
    lit: LampLit

    def record(self, offset_us: int) -> dict[str, Any]:
        return {"type": "lockout_box", "t_us": self.t_us, "contest": self.lit.contest,
                "board": [_lamp_record(self.lit, offset_us)]}


@dataclass
class _Contest:
    key: str
    cid: int
    stations: set[int]
    lamps: list[LampLit] = field(default_factory=list)
    winners: tuple[int, ...] | None = None


Output = Arm | End | Disagreement | BoxContest


class LockoutReferee:
    """One game's contests against one board.

    ``wiring``: station -> (board input channel, lamp channel) of the input the
    game's contest is pressed on. ``glitch_us``/``precision_us``: the board's
    glitch filter and the stamp precision its ties are judged at."""

    def __init__(self, wiring: Mapping[int, tuple[int, int]], *, glitch_us: int, precision_us: int,
                 timeout_us: int = LOCKOUT_TIMEOUT_US, first_id: int = 1) -> None:
        self.wiring = dict(wiring)
        self.glitch_us = glitch_us
        self.precision_us = precision_us
        self.timeout_us = timeout_us
        self._next_id = first_id
        self.current: _Contest | None = None
        self.decided: OrderedDict[int, _Contest] = OrderedDict()
        self.agreed = 0
        self.disagreed = 0

    def _new_id(self) -> int:
        cid = self._next_id
        self._next_id = cid % MAX_CONTEST + 1
        return cid

    def _arm(self, c: _Contest, tie_us: int, start_us: int | None) -> Arm:
        pairs = tuple(self.wiring[s] for s in sorted(c.stations))
        return Arm(c.cid, pairs, self.glitch_us, max(tie_us, self.precision_us), self.timeout_us, start_us=start_us)

    def follow(self, contest: Any, now_us: int, lights_on: Iterable[int],
               press_at: Callable[[int], int | None], box_us: Callable[[int], int]) -> list[Output]:
        """The game's contest now (a ``games.base.LampContest`` or None).
        ``lights_on``: the stations whose lamp the Pi has on now; ``press_at``:
        a station's press in this contest (game µs); ``box_us``: game µs -> box
        µs (the driver maps the contest's start to the board's clock when it sends the arm)."""
        out: list[Output] = []
        cur = self.current
        if cur is not None and (contest is None or contest.key != cur.key):
            out += self._decide(cur, (), now_us, lights_on, press_at)  # gone undecided: nobody won it
            cur = None
        if contest is None:
            return out
        if contest.winners is not None:
            if cur is not None and cur.winners is None:
                out += self._decide(cur, tuple(contest.winners), now_us, lights_on, press_at)
            return out
        stations = {s for s in contest.stations if s in self.wiring}
        if cur is None:
            if not stations:
                return out
            self.current = cur = _Contest(contest.key, self._new_id(), stations)
            out.append(self._arm(cur, contest.tie_window_us, box_us(contest.start_us)))
        elif not stations <= cur.stations:  # a station may compete again (its early lockout ran out)
            cur.stations |= stations
            out.append(self._arm(cur, contest.tie_window_us, None))
        return out

    def _decide(self, c: _Contest, winners: tuple[int, ...], now_us: int, lights_on: Iterable[int],
                press_at: Callable[[int], int | None]) -> list[Output]:
        c.winners = winners
        self.current = None
        self.decided[c.cid] = c
        while len(self.decided) > DECIDED_KEPT:
            self.decided.popitem(last=False)
        on = tuple(sorted(self.wiring[s][1] for s in set(lights_on) if s in self.wiring))
        out: list[Output] = [End(c.cid, on)]
        if {lamp.station for lamp in c.lamps} == set(winners):
            self.agreed += 1
        else:
            out.append(self._disagree(c, now_us, press_at, late=False))
        return out

    def _disagree(self, c: _Contest, now_us: int, press_at: Callable[[int], int | None], late: bool) -> Disagreement:
        self.disagreed += 1
        assert c.winners is not None
        d = Disagreement(c.cid, c.key, now_us, tuple(c.lamps), tuple((s, press_at(s)) for s in c.winners), late)
        log.warning("board lockout contest %d: the board lit %s, the box decided %s%s: the box's lamps stand",
                    c.cid, sorted(lamp.station for lamp in c.lamps) or "none", list(c.winners) or "nobody",
                    " (lit after the decision)" if late else "")
        return d

    def lamp(self, lit: LampLit, now_us: int, press_at: Callable[[int], int | None]) -> list[Output]:
        """The board lit a lamp; after the decision it is a late disagreement
        (the end is on its way to the board and turns it off)."""
        if lit.own:
            return [BoxContest(now_us, lit)]
        cur = self.current
        if cur is not None and cur.cid == lit.contest:
            cur.lamps.append(lit)
            return []
        done = self.decided.get(lit.contest)
        if done is None:
            log.info("board lit a lamp for contest %d, which this box did not arm (a restarted host?): "
                     "ignored, the contest is ended", lit.contest)
            return [End(lit.contest)]
        done.lamps.append(lit)
        assert done.winners is not None
        if lit.station in done.winners and {lamp.station for lamp in done.lamps} == set(done.winners):
            self.agreed += 1
            return []
        return [self._disagree(done, now_us, press_at, late=True)]

    def close(self) -> list[Output]:
        """The game is over: the board must not hold a contest of it."""
        cur, self.current = self.current, None
        return [] if cur is None else [End(cur.cid)]


class BoardLockout:
    """The hook between one running box and the board: called each time the
    box's engine decides something (``box.on_events``), and by the driver's
    reader for each lamp the board lit (queued here, taken on the box's thread,
    so the journal is written by one thread only)."""

    def __init__(self, box: Any, source: Any, inputs: tuple[str, ...] = ("bell",)) -> None:
        self.box = box
        self.source = source
        self.rule = box.spec.lamp_contest
        wiring: dict[int, tuple[int, int]] = {}
        channels = {where: ch for ch, where in source.channel_map.items()}
        for (station, name), lamp in source.light_map.items():
            if name in inputs and (station, name) in channels and station not in wiring:
                wiring[station] = (channels[(station, name)], lamp)
        self.wiring = wiring
        self.referee: LockoutReferee | None = None
        #: contest ids start anywhere: a restarted host never reuses the id of the contest a
        #: board still holds from the host before (it ends that one on its first hello)
        self.first_id = random.SystemRandom().randrange(1, MAX_CONTEST + 1)
        self._lamps: list[LampLit] = []
        self._lock = threading.Lock()
        box.on_events.append(self.on_events)
        source.on_lamp = self.on_lamp

    def on_lamp(self, lit: LampLit) -> None:
        with self._lock:
            self._lamps.append(lit)

    def _referee(self) -> LockoutReferee | None:
        if self.referee is None and self.source.lockout and self.wiring:
            info = self.source.session.info
            self.referee = LockoutReferee(self.wiring, glitch_us=info.glitch_us,
                                          precision_us=info.direct_precision_us, first_id=self.first_id)
        return self.referee

    def _press_at(self, station: int, since_us: int) -> int | None:
        for press in self.box.press_log:
            if press.station == station and press.t_us + self.box.time_offset_us >= since_us:
                return int(press.t_us + self.box.time_offset_us)
        return None

    def on_events(self, events: list[Any]) -> None:
        """On the box's thread, with ``box.lock`` held: follow the game's contest."""
        ref = self._referee()
        if ref is None or self.rule is None:
            return
        with self._lock:
            lamps, self._lamps = self._lamps, []
        if not events and not lamps:
            return  # a contest opens, closes or is decided only with an event of the game
        box = self.box
        contest = self.rule(box.engine.public_view())
        since = contest.start_us if contest is not None else 0

        def press_at(station: int) -> int | None:
            return self._press_at(station, since)

        out: list[Output] = []
        for lit in lamps:
            out += ref.lamp(lit, box.now_us, press_at)
        cur = ref.current
        lights_on: list[int] = []
        if cur is not None and (contest is None or contest.key != cur.key or contest.winners is not None):
            status_light = box.spec.status_light  # the box's lamps, for the end of the contest
            lights_on = [s for s, row in enumerate(box.strip()) if status_light(str(row.get("status"))) == "on"]
        out += ref.follow(contest, box.now_us, lights_on, press_at, self._box_us)
        self._send(out)

    def _box_us(self, game_us: int) -> int:
        return int(game_us - self.box.time_offset_us)

    def _send(self, outputs: list[Output]) -> None:
        for o in outputs:
            if isinstance(o, Arm):
                self.source.arm_lockout(o)
            elif isinstance(o, End):
                self.source.end_lockout(o.contest, o.on)
            else:
                self.box._write(o.record(self.box.time_offset_us))

    def close(self) -> None:
        """Detach from the box (the game ends; a menu keeps the board for the next)."""
        if self.on_events in self.box.on_events:
            self.box.on_events.remove(self.on_events)
        if self.source.on_lamp == self.on_lamp:
            self.source.on_lamp = None
        if self.referee is not None:
            self._send(self.referee.close())
