"""Station lights: the winner's light on at once, the queue blinking,
locked-out stations dark.

``Lights`` is the small interface every back-end implements (GPIO here; the
firmware board's lights in its own branch). ``LightDirector`` turns what the
strip shows into modes and only tells the back-end about changes, so a frame
loop can call it 60 times a second for free.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.base import COMMON_STATUS_LIGHTS

log = logging.getLogger("buzzerbox.lights")

MODES = ("on", "off", "blink")
#: a pulsing (PWM) lamp's level is written this often (gpiozero's own pulse: 25)
PULSE_FPS = 25
#: the order a step's changes are written in: lamps going on first (the winner's
#: lamp is the first pin written), then off, then blinking (the blinker's thread)
WRITE_ORDER = {"on": 0, "off": 1}


class Lights(Protocol):
    """A light back-end: one light per (station, input)."""

    def set(self, station: int, input: str, mode: str) -> None:
        """Turn one light ``on``, ``off`` or ``blink``; unknown lights are ignored."""
        ...

    def lights(self) -> list[tuple[int, str]]:
        """Every (station, input) this back-end has a light for."""
        ...

    def close(self) -> None:
        """Everything off, pins released."""
        ...


class NoLights:
    """For boxes without lights (and the keyboard)."""

    def set(self, station: int, input: str, mode: str) -> None:
        pass

    def lights(self) -> list[tuple[int, str]]:
        return []

    def close(self) -> None:
        pass


class Blinker:
    """One thread blinks every blinking lamp on one shared phase: on for
    ``half_s``, off for ``half_s`` (``pwm``: a soft pulse, fading in and out
    over the same period, updated ``PULSE_FPS`` times a second).

    gpiozero's own ``blink()`` starts a thread per lamp and call (and joins the
    old one) on the caller's thread; the deciding thread would wait for that
    before the next lamp. Here a lamp starts or stops blinking by a set
    change (``add``, ``remove``); the thread is started once, at the first
    blinking lamp, sleeps while none blinks, and is woken by every change so
    a new blinking lamp shows its phase at once. ``tick`` writes the phase of
    one moment: the thread calls it on ``clock``, a test calls it itself
    (``threaded=False``) on moments of its choosing.
    """

    def __init__(self, half_s: float, pwm: bool = False, clock: Callable[[], float] = time.monotonic,
                 threaded: bool = True) -> None:
        self.half_s = half_s
        self.pwm = pwm
        self.clock = clock
        self.threaded = threaded
        self._leds: dict[tuple[int, str], Any] = {}
        self._written: dict[tuple[int, str], float] = {}  # the level each blinking lamp was last given
        #: guards the set and every pin write made from it: a lamp removed is never written again
        self._cond = threading.Condition()
        self._changed = False
        self._closing = False
        self.thread: threading.Thread | None = None

    def add(self, key: tuple[int, str], led: Any) -> None:
        """``led`` blinks from now on (its next level is written by the blinker)."""
        with self._cond:
            self._leds[key] = led
            self._written.pop(key, None)
            self._changed = True
            if self.threaded and self.thread is None and not self._closing:
                self.thread = threading.Thread(target=self._run, name="buzzerbox-blinker", daemon=True)
                self.thread.start()
            self._cond.notify()

    def remove(self, key: tuple[int, str]) -> None:
        """``key`` stops blinking: the blinker never writes its pin again (the
        caller writes its new level right after)."""
        if key not in self._leds:  # the common case (a lamp that was not blinking): no lock taken
            return
        with self._cond:
            self._leds.pop(key, None)
            self._written.pop(key, None)
            self._changed = True

    def blinking(self) -> list[tuple[int, str]]:
        return list(self._leds)

    def level(self, now_s: float) -> float:
        """Every blinking lamp's level at ``now_s``: 1 in the first half of the
        period, 0 in the second (``pwm``: 1 fading to 0 and back)."""
        phase = (now_s / (2 * self.half_s)) % 1.0
        if self.pwm:
            return abs(1.0 - 2.0 * phase)
        return 1.0 if phase < 0.5 else 0.0

    def tick(self, now_s: float | None = None) -> float:
        """Write the level of ``now_s`` (default: the clock) to every blinking
        lamp that does not show it yet; returns the seconds until the level
        changes next."""
        now_s = self.clock() if now_s is None else now_s
        level = self.level(now_s)
        with self._cond:
            keys = list(self._leds)
        for key in keys:
            with self._cond:  # held for one pin's write at a time: a ``remove`` waits at most that long
                led = self._leds.get(key)
                if led is None or self._written.get(key) == level:
                    continue
                self._written[key] = level
                try:
                    if self.pwm:
                        led.value = level
                    elif level:
                        led.on()
                    else:
                        led.off()
                except Exception:  # a flaky lamp must never stop the others blinking
                    log.exception("light %s: could not blink", key)
        if self.pwm:
            return 1.0 / PULSE_FPS
        return (math.floor(now_s / self.half_s) + 1) * self.half_s - now_s

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._leds and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                self._changed = False
            wait_s = self.tick()
            with self._cond:
                if not self._changed and not self._closing:
                    self._cond.wait(wait_s)

    def close(self) -> None:
        """Stop the thread (joined) and forget every lamp."""
        with self._cond:
            self._closing = True
            self._leds.clear()
            self._cond.notify()
        if self.thread is not None:
            self.thread.join(timeout=1.0)


class GpioLights:
    """Lights on the Pi's header through gpiozero, one ``LED`` (or ``PWMLED``,
    ``pwm=True``, for soft blinking) per pin of the wiring profile. ``on``
    and ``off`` write the pin at once, on the caller's thread; blinking is
    one ``Blinker`` thread for all lamps (``blink_clock``, ``blink_thread``:
    see there).

    ``pin_factory`` is injectable: tests pass gpiozero's ``MockFactory``.
    """

    def __init__(
        self,
        pins: Mapping[tuple[int, str], int],
        pin_factory: Any = None,
        pwm: bool = False,
        blink_s: float = 0.25,
        active_high: bool = True,
        blink_clock: Callable[[], float] = time.monotonic,
        blink_thread: bool = True,
    ) -> None:
        from gpiozero import LED, PWMLED

        cls = PWMLED if pwm else LED
        self.pwm = pwm
        self.blink_s = blink_s
        self.leds: dict[tuple[int, str], Any] = {
            key: cls(pin, active_high=active_high, pin_factory=pin_factory) for key, pin in pins.items()
        }
        self.modes: dict[tuple[int, str], str] = {key: "off" for key in self.leds}
        #: each lamp's pin state for off and on (its ``active_high`` applied once): ``set`` writes the pin
        #: itself, not through ``LED.on``, whose checks for gpiozero's own blinking (we never use it)
        #: cost the winner's lamp ~4 µs warm, more on a cold cache
        self.levels: dict[tuple[int, str], tuple[Any, Any]] = {
            key: (led._value_to_state(0), led._value_to_state(1)) for key, led in self.leds.items()}
        self.blinker = Blinker(blink_s, pwm=pwm, clock=blink_clock, threaded=blink_thread)

    @classmethod
    def from_profile(cls, profile: Any, pin_factory: Any = None, pwm: bool = False) -> GpioLights:
        return cls(profile.light_pins(), pin_factory=pin_factory, pwm=pwm)

    def set(self, station: int, input: str, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"light mode {mode!r}: one of {', '.join(MODES)}")
        key = (station, input)
        led = self.leds.get(key)
        if led is None:
            return
        self.modes[key] = mode
        if mode == "blink":
            self.blinker.add(key, led)
            return
        self.blinker.remove(key)
        led.pin.state = self.levels[key][mode == "on"]

    def lights(self) -> list[tuple[int, str]]:
        return list(self.leds)

    def close(self) -> None:
        self.blinker.close()
        for led in self.leds.values():
            led.off()
            led.close()


class RecordingLights:
    """Remembers the mode of every light it is told about (tests, the diag
    screen); with a ``clock``, also when each station's light went on (the
    fairness test and the real-time benchmark measure contact -> light)."""

    def __init__(self, lights: Sequence[tuple[int, str]] = (), clock: Callable[[], int] | None = None) -> None:
        self.known = list(lights)
        self.modes: dict[tuple[int, str], str] = {}
        self.calls: list[tuple[int, str, str]] = []
        self.clock = clock
        #: (station, clock()) each time a light was set ``on`` (with a clock)
        self.lit: list[tuple[int, int]] = []

    def set(self, station: int, input: str, mode: str) -> None:
        self.modes[(station, input)] = mode
        self.calls.append((station, input, mode))
        if mode == "on" and self.clock is not None:
            self.lit.append((station, self.clock()))

    def lights(self) -> list[tuple[int, str]]:
        return list(self.known)

    def close(self) -> None:
        for key in self.modes:
            self.modes[key] = "off"


class LightDirector:
    """Drives a back-end from the station strip; sends only changes, lamps
    going on first."""

    def __init__(self, backend: Lights) -> None:
        self.backend = backend
        self.current: dict[tuple[int, str], str] = {}
        self._stations: dict[int, list[tuple[int, str]]] | None = None

    def update(self, statuses: Sequence[str], status_light: Callable[[str], str] | None = None,
               clock: Callable[[], int] | None = None) -> int | None:
        """Call right after ``box.step``: the winner lights up in the same pass.
        ``statuses``: each station's (``Box.statuses``: not the whole strip).
        ``status_light`` is the running game's word for each status
        (``GameSpec.status_light``); without it only the common statuses light.

        The changes are written lamps going on first, then off, then blinking
        (``WRITE_ORDER``): the winner's lamp is the first pin written, before
        the runners-up's or the last winner's. With a ``clock``, returns its
        reading right after the first lamp went on (None: none went on)."""
        lit: int | None = None
        for station, inp, mode in self.plan(statuses, status_light):
            self.current[(station, inp)] = mode
            try:
                self.backend.set(station, inp, mode)
            except Exception:  # a flaky light must never stop the game
                log.exception("light %d/%s: could not set %s", station, inp, mode)
                continue
            if mode == "on" and lit is None and clock is not None:
                lit = clock()
        return lit

    def light_station(self, station: int, mode: str, clock: Callable[[], int] | None = None) -> int | None:
        """Write ``mode`` to every lamp of ``station`` at once, ahead of ``update`` (which then finds
        them written): the winner's lamp of a race the engine declared (``Box.first_lamp``). With
        a ``clock``, returns its reading right after the first lamp went on (None: none went on)."""
        lit: int | None = None
        for key in self._by_station().get(station, ()):
            if self.current.get(key) == mode:
                continue
            self.current[key] = mode
            try:
                self.backend.set(station, key[1], mode)
            except Exception:  # a flaky light must never stop the game
                log.exception("light %d/%s: could not set %s", station, key[1], mode)
                continue
            if mode == "on" and lit is None and clock is not None:
                lit = clock()
        return lit

    def _by_station(self) -> dict[int, list[tuple[int, str]]]:
        """Each station's lamps, looked up once (the back-end's lamps do not change)."""
        if self._stations is None:
            self._stations = {}
            for key in self.backend.lights():
                self._stations.setdefault(key[0], []).append(key)
        return self._stations

    def plan(self, statuses: Sequence[str],
             status_light: Callable[[str], str] | None = None) -> list[tuple[int, str, str]]:
        """The changes ``update`` writes, in its order, written nowhere: the deciding thread
        also calls it while it waits for a decision's moment (``Decider``'s rehearsal), so
        the lamp's path is in the caches when the decision comes."""
        changes: list[tuple[int, str, str]] = []
        for station, inp in self.backend.lights():
            if station >= len(statuses):
                continue
            status = str(statuses[station])
            mode = status_light(status) if status_light is not None else COMMON_STATUS_LIGHTS.get(status, "off")
            if self.current.get((station, inp)) != mode:
                changes.append((station, inp, mode))
        changes.sort(key=lambda change: WRITE_ORDER.get(change[2], len(WRITE_ORDER)))
        return changes

    def light(self, station: int, inp: str) -> None:
        """One lamp on outside a game (the first start's test press), remembered so a game's
        first ``update`` puts it right; a flaky lamp is logged, never raised."""
        self.current[(station, inp)] = "on"
        try:
            self.backend.set(station, inp, "on")
        except Exception:  # a lamp is a courtesy here, never a reason to stop
            log.exception("light %d/%s: could not set on", station, inp)

    def all_off(self) -> None:
        for station, inp in self.backend.lights():
            self.backend.set(station, inp, "off")
        self.current.clear()
