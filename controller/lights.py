"""Station lights: the winner's light on at once, the queue blinking,
locked-out stations dark.

``Lights`` is the small interface every back-end implements (GPIO here; the
firmware board's lights in its own branch). ``LightDirector`` turns what the
strip shows into modes and only tells the back-end about changes, so a frame
loop can call it 60 times a second for free.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.base import COMMON_STATUS_LIGHTS

log = logging.getLogger("buzzerbox.lights")

MODES = ("on", "off", "blink")



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


class GpioLights:
    """Lights on the Pi's header through gpiozero, one ``LED`` (or ``PWMLED``,
    ``pwm=True``, for soft blinking) per pin of the wiring profile.

    ``pin_factory`` is injectable: tests pass gpiozero's ``MockFactory``.
    """

    def __init__(
        self,
        pins: Mapping[tuple[int, str], int],
        pin_factory: Any = None,
        pwm: bool = False,
        blink_s: float = 0.25,
        active_high: bool = True,
    ) -> None:
        from gpiozero import LED, PWMLED

        cls = PWMLED if pwm else LED
        self.pwm = pwm
        self.blink_s = blink_s
        self.leds: dict[tuple[int, str], Any] = {
            key: cls(pin, active_high=active_high, pin_factory=pin_factory) for key, pin in pins.items()
        }
        self.modes: dict[tuple[int, str], str] = {key: "off" for key in self.leds}

    @classmethod
    def from_profile(cls, profile: Any, pin_factory: Any = None, pwm: bool = False) -> GpioLights:
        return cls(profile.light_pins(), pin_factory=pin_factory, pwm=pwm)

    def set(self, station: int, input: str, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"light mode {mode!r}: one of {', '.join(MODES)}")
        led = self.leds.get((station, input))
        if led is None:
            return
        self.modes[(station, input)] = mode
        if mode == "on":
            led.on()
        elif mode == "off":
            led.off()
        elif self.pwm:
            led.pulse(fade_in_time=self.blink_s, fade_out_time=self.blink_s, background=True)
        else:
            led.blink(on_time=self.blink_s, off_time=self.blink_s, background=True)

    def lights(self) -> list[tuple[int, str]]:
        return list(self.leds)

    def close(self) -> None:
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
    """Drives a back-end from the station strip; sends only changes."""

    def __init__(self, backend: Lights) -> None:
        self.backend = backend
        self.current: dict[tuple[int, str], str] = {}

    def update(self, strip: Sequence[Mapping[str, Any]], status_light: Callable[[str], str] | None = None) -> None:
        """Call right after ``box.step``: the winner lights up in the same pass.
        ``status_light`` is the running game's word for each status
        (``GameSpec.status_light``); without it only the common statuses light."""
        for station, inp in self.backend.lights():
            if station >= len(strip):
                continue
            status = str(strip[station].get("status", "idle"))
            mode = status_light(status) if status_light is not None else COMMON_STATUS_LIGHTS.get(status, "off")
            if self.current.get((station, inp)) != mode:
                self.current[(station, inp)] = mode
                try:
                    self.backend.set(station, inp, mode)
                except Exception:  # a flaky light must never stop the game
                    log.exception("light %d/%s: could not set %s", station, inp, mode)

    def all_off(self) -> None:
        for station, inp in self.backend.lights():
            self.backend.set(station, inp, "off")
        self.current.clear()
