"""The box: one running game, owned by one loop.

Sources call ``edge``/``press``/``notice`` from their own threads; those only
enqueue. The loop that owns the box calls ``step(now_us)``, which debounces,
maps presses to actions through the game's button map, feeds the engine,
journals every input and returns the events for the screen, lights and sound.
Replay and resume drive the very same methods from the journal.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controller.debounce import DebounceConfig, Debouncer
from controller.journal import Journal, JournalWriter
from controller.press import Edge, InputNotice, Press
from games.base import HOST_SHOWN, Action, GameEvent, GameSettings, RuleError
from games.registry import GameSpec
from games.registry import get as get_game

log = logging.getLogger("buzzerbox")

HOST_STATION = -1
PRESS_FLASH_US = 400_000  # how long the strip shows "pressed" after a press


@dataclass
class StationState:
    """What the always-visible station strip shows, beside the engine's status."""

    last_press_us: int | None = None
    stuck: set[str] = field(default_factory=set)
    connected: bool = True
    presses: int = 0


class Box:
    def __init__(
        self,
        spec: GameSpec,
        settings: GameSettings,
        station_kinds: Sequence[str] | None = None,
        *,
        debounce: DebounceConfig | None = None,
        journal: JournalWriter | None = None,
        latency_guard_us: int = 0,
        station_names: Sequence[str] | None = None,
    ) -> None:
        self.spec = spec
        self.settings = settings
        self.engine = spec.new_engine(settings)
        self.station_kinds = list(station_kinds or ["full"] * settings.players)
        self.station_names = list(station_names or [f"Player {i + 1}" for i in range(settings.players)])
        self.debouncer = Debouncer(debounce)
        self.journal = journal
        self.latency_guard_us = latency_guard_us
        self.inbox: queue.SimpleQueue[tuple[str, Any, int]] = queue.SimpleQueue()
        self.stations = [StationState() for _ in range(settings.players)]
        self.now_us = 0
        self.paused = False
        #: added to every source stamp: a game resumed after a reboot carries on
        #: the journal's timeline although the kernel's clock restarted at 0
        self.time_offset_us = 0
        self.press_log: list[Press] = []  # every accepted press, for disputes and the strip
        self.event_log: list[GameEvent] = []
        self.on_events: list[Callable[[list[GameEvent]], None]] = []

    # -- header for the journal ---------------------------------------------------
    def header(self, **extra: Any) -> dict[str, Any]:
        return {
            "game": self.spec.name,
            "settings": self.settings.to_json(),
            "stations": self.station_kinds,
            "station_names": self.station_names,
            **extra,
        }

    # -- InputSink: called from source threads; only enqueue ------------------------
    def edge(self, edge: Edge, precision_us: int) -> None:
        self.inbox.put(("edge", edge, precision_us))

    def press(self, press: Press) -> None:
        self.inbox.put(("press", press, 0))

    def notice(self, notice: InputNotice) -> None:
        self.inbox.put(("notice", notice, 0))

    # -- the loop's side ------------------------------------------------------------
    def step(self, now_us: int) -> list[GameEvent]:
        """Take everything the sources delivered, let time pass to ``now_us``."""
        events: list[GameEvent] = []
        outputs: list[Press | InputNotice] = []
        while True:
            try:
                kind, item, precision = self.inbox.get_nowait()
            except queue.Empty:
                break
            if self.time_offset_us:
                item = replace(item, t_us=item.t_us + self.time_offset_us)
            if kind == "edge":
                outputs += self.debouncer.edge(item.station, item.input, item.level, item.t_us, precision)
            else:
                outputs.append(item)
        # edges may reach us a little after they happened: judge "stable since"
        # only up to a moment every source has surely reported by
        outputs += self.debouncer.poll(now_us - self.latency_guard_us)
        outputs.sort(key=lambda o: o.t_us)
        for out in outputs:
            if isinstance(out, Press):
                events += self.apply_press(out)
            else:
                events += self.apply_notice(out)
        events += self.tick(now_us)
        return events

    def apply_press(self, press: Press, at_us: int | None = None) -> list[GameEvent]:
        """A debounced press: journal it, light the strip, hand it to the game."""
        self._write({"type": "press", **press.to_json(), "at_us": at_us if at_us is not None else self.now_us})
        self.press_log.append(press)
        if press.station == HOST_STATION:
            return self._apply(Action(press.input, press.t_us, None, precision_us=press.precision_us))
        if not 0 <= press.station < len(self.stations):
            log.warning("press from station %d, which this game does not have; ignored", press.station)
            return []
        st = self.stations[press.station]
        st.last_press_us = press.t_us
        st.presses += 1
        action = self.spec.button_map(press, self.station_kinds[press.station])
        if action is None:
            return []
        return self._apply(action)

    def apply_notice(self, notice: InputNotice) -> list[GameEvent]:
        self._write({"type": "notice", "station": notice.station, "input": notice.input, "kind": notice.kind, "t_us": notice.t_us})
        if 0 <= notice.station < len(self.stations):
            st = self.stations[notice.station]
            if notice.kind == "stuck":
                st.stuck.add(notice.input)
                log.warning("station %d input %r is stuck (held too long): ignored until released", notice.station, notice.input)
            elif notice.kind == "unstuck":
                st.stuck.discard(notice.input)
                log.info("station %d input %r released", notice.station, notice.input)
            elif notice.kind == "disconnected":
                st.connected = False
            elif notice.kind == "connected":
                st.connected = True
        if notice.kind in ("disconnected", "connected") and notice.station == HOST_STATION:
            # the whole board went away / came back
            for st in self.stations:
                st.connected = notice.kind == "connected"
            self.paused = notice.kind == "disconnected"
            log.warning("input board %s: game %s", notice.kind, "paused" if self.paused else "resumed")
            return [GameEvent("paused" if self.paused else "resumed", notice.t_us)]
        return []

    def host(self, kind: str, t_us: int, **args: Any) -> list[GameEvent]:
        """A host action from the keyboard, the menu or a simulated host."""
        return self.apply_action(Action(kind, t_us, None, args))

    def apply_action(self, action: Action) -> list[GameEvent]:
        """An action that did not come from a station press (host, scenario, bot)."""
        self._write({"type": "host" if action.player is None else "action", **action.to_json()})
        return self._apply(action)

    def shown(self, t_us: int) -> list[GameEvent]:
        """The display flipped the frame that shows the newest card / GO."""
        return self.apply_action(Action(HOST_SHOWN, t_us))

    def tick(self, now_us: int) -> list[GameEvent]:
        self.now_us = max(self.now_us, now_us)
        if self.paused:
            return []
        events = self.engine.tick(now_us)
        if events:
            self._write({"type": "tick", "t_us": now_us})
        return self._emit(events)

    def _apply(self, action: Action) -> list[GameEvent]:
        try:
            events = self.engine.handle(action)
        except RuleError as exc:
            log.info("not allowed: %s", exc)
            events = [GameEvent("rejected", action.t_us, action.player, {"kind": action.kind, "why": str(exc)})]
        return self._emit(events)

    def _emit(self, events: list[GameEvent]) -> list[GameEvent]:
        for event in events:
            log.debug("event %s", event)
        self.event_log.extend(events)
        for listener in self.on_events:
            listener(events)
        return events

    def _write(self, record: dict[str, Any]) -> None:
        if self.journal is not None:
            self.journal.write(record)

    # -- what the strip shows ---------------------------------------------------------
    def strip(self) -> list[dict[str, Any]]:
        """Per station: its name, the engine's status, and the input layer's state."""
        view = self.engine.public_view()
        statuses = view.get("status", [])
        out = []
        for i, st in enumerate(self.stations):
            status = statuses[i] if i < len(statuses) else "idle"
            if not st.connected:
                status = "disconnected"
            elif st.stuck:
                status = "stuck"
            recent = st.last_press_us is not None and self.now_us - st.last_press_us < PRESS_FLASH_US
            out.append(
                {
                    "name": self.station_names[i],
                    "status": status,
                    "pressed": recent,
                    "stuck": sorted(st.stuck),
                    "presses": st.presses,
                    "lockout_us": view.get("lockouts_us", {}).get(str(i)),
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        return {"game": self.spec.name, "players": self.settings.players, "seed": self.settings.seed, **self.engine.summary()}


def box_from_journal(journal: Journal, writer: JournalWriter | None = None) -> Box:
    """Rebuild a box by replaying every journal line through the same methods
    that handled them live. ``writer`` (resume) keeps appending afterwards."""
    header = journal.header
    spec = get_game(header["game"])
    settings = GameSettings.from_json(header["settings"])
    box = Box(spec, settings, header.get("stations"), station_names=header.get("station_names"))
    for record in journal.records:
        kind = record["type"]
        if kind == "press":
            box.now_us = max(box.now_us, int(record.get("at_us", record["t_us"])))
            box.apply_press(Press.from_json(record))
        elif kind in ("host", "action"):
            box._apply(Action.from_json(record))
        elif kind == "tick":
            box.tick(int(record["t_us"]))
        elif kind == "notice":
            box.apply_notice(InputNotice(int(record["station"]), record["input"], record["kind"], int(record["t_us"])))
    box.now_us = max(box.now_us, journal.last_t_us)
    box.journal = writer
    return box
