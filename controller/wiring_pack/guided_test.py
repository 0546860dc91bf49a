"""``buzzerbox wiring test``: a guided hardware test that catches wiring mistakes.

The builder is asked to press every input in turn and to say whether every
light lights. ``GuidedTest`` is sans-I/O (h11 style): it is fed raw edges,
answers and the time, and says what to ask next; it never reads a pin or a
clock. It debounces with the box's own ``Debouncer`` and the profile's
limits, so what it reports is what a game would see. ``run`` is the thin
driver that connects it to pins, a clock and a prompt, all injectable.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.box.debounce import Debouncer, Phase
from controller.box.lights import Lights
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.box.profile import Profile
from controller.wiring_pack.checks import figure, who
from controller.wiring_pack.pins import Row, rows
from games.i18n import N_, _, ngettext

Key = tuple[int, str]  # (station index, input name); the host is station -1

DEFAULT_TIMEOUT_US = 10_000_000
#: after a press has ended, how long to keep watching for a second press of
#: the same input (release bounce outlasting bounce_us) before the next prompt
SETTLE_US = 300_000
#: real microswitches bounce 0.1-5 ms: warn from here (or earlier, for a short window)
BOUNCY_WARN_US = 5_000


def bounce_limits(bounce_us: int) -> tuple[int, int]:
    """(fail, warn) for a press's onset bounce: it fails at half the bounce
    window (the debounce takes half a window of rest for noise) and warns at
    5 ms, or at half the failing figure when that is lower."""
    fail = bounce_us // 2
    return fail, min(BOUNCY_WARN_US, fail // 2)


#: an input's line in the report (translated where written), and a light's
INPUT_STATUS = {"ok": N_("ok"), "dead": N_("NEVER FIRED"), "wrong": N_("WRONG INPUT"),
                "stuck_at_rest": N_("PRESSED AT REST"), "stuck": N_("STUCK"), "untested": N_("NOT TESTED")}
LIGHT_STATUS = {True: N_("ok"), False: N_("DID NOT LIGHT"), None: N_("NOT TESTED")}


@dataclass(frozen=True)
class Prompt:
    """What the builder is asked now."""

    kind: str  # "press" or "light"
    key: Key
    label: str  # "Red bell", "Host arm"

    @property
    def text(self) -> str:
        """The question as the builder reads it (the driver numbers it)."""
        if self.kind == "press":
            return _("Press {input} (then let go)").format(input=self.label)
        return _("Is the light in {input} lit?").format(input=self.label)


@dataclass
class InputResult:
    """What one input did when it was asked for."""

    key: Key
    label: str
    outcome: str = "untested"  # ok, dead, wrong, stuck_at_rest, stuck
    fired: Key | None = None  # the input that fired instead (outcome "wrong")
    also: list[Key] = field(default_factory=list)  # other inputs fired by the same press
    edges: int = 0  # edges in the press's train (press + release bounces)
    bounce_us: int = 0  # first to last edge of the press's onset bounce
    double: bool = False  # one press counted twice


@dataclass
class LightResult:
    key: Key
    label: str
    lit: bool | None = None


class GuidedTest:
    """The guided test's state machine: prompts out; edges, answers and time in."""

    def __init__(self, profile: Profile, *, timeout_us: int = DEFAULT_TIMEOUT_US, settle_us: int = SETTLE_US, lights: bool = True) -> None:
        self.profile = profile
        self.timeout_us = timeout_us
        self.settle_us = settle_us
        self.debouncer = Debouncer(profile.debounce)
        self.rows: dict[Key, Row] = {(r.station_index, r.input): r for r in rows(profile)}
        self.labels: dict[Key, str] = {key: who(profile, *key) for key in self.rows}
        self.inputs: dict[Key, InputResult] = {key: InputResult(key, label) for key, label in self.labels.items()}
        light_keys = list(profile.light_pins()) if lights else []
        self.lights: dict[Key, LightResult] = {key: LightResult(key, self.labels[key]) for key in light_keys}
        self.steps: list[Prompt] = [Prompt("press", key, label) for key, label in self.labels.items()]
        self.steps += [Prompt("light", key, self.labels[key]) for key in light_keys]
        self.index = -1
        self.started = False
        self.state = "wait"  # for a press step: wait -> held -> settle
        self.step_start_us = 0
        self.held: Key | None = None
        self.settle_until_us = 0

    # -- what to ask ------------------------------------------------------------------
    @property
    def prompt(self) -> Prompt | None:
        return self.steps[self.index] if self.started and 0 <= self.index < len(self.steps) else None

    @property
    def done(self) -> bool:
        return self.started and self.index >= len(self.steps)

    @property
    def lit(self) -> Key | None:
        """The light that should be on now (the driver switches it)."""
        p = self.prompt
        return p.key if p is not None and p.kind == "light" else None

    # -- what comes in ------------------------------------------------------------------
    def begin(self, levels: Mapping[Key, int], now_us: int) -> None:
        """Start with every input's level at rest (hands off all buttons)."""
        active = self.profile.debounce.active_level
        for key in self.inputs:
            level = levels.get(key, 1 - active)
            self.debouncer.start(key[0], key[1], level, now_us)
            if level == active:
                self.inputs[key].outcome = "stuck_at_rest"
        self.started = True
        self._next(now_us)

    def edge(self, station: int, input_name: str, level: int, t_us: int) -> None:
        if (station, input_name) not in self.inputs:
            return
        for out in self.debouncer.edge(station, input_name, level, t_us):
            self._handle(out, t_us)

    def press(self, press: Press, now_us: int) -> None:
        """A press already debounced where it was captured (the firmware board):
        it carries its own edge count and is over as soon as it arrives."""
        if (press.station, press.input) not in self.inputs:
            return
        self._handle(press, now_us)
        if self.state == "held" and self.held == (press.station, press.input):
            p = self.prompt
            if p is not None and self.held == p.key:
                self.inputs[p.key].edges = press.edges
            self.state = "settle"
            self.settle_until_us = now_us + self.settle_us

    def notice(self, notice: InputNotice, now_us: int) -> None:
        """A stuck (or other) notice from a source that debounces itself."""
        if (notice.station, notice.input) in self.inputs:
            self._handle(notice, now_us)

    def poll(self, now_us: int) -> None:
        """Let time pass: debounce, end presses, time out, move on."""
        for out in self.debouncer.poll(now_us):
            self._handle(out, now_us)
        p = self.prompt
        if p is None or p.kind != "press":
            return
        result = self.inputs[p.key]
        if self.state == "wait" and now_us - self.step_start_us >= self.timeout_us:
            result.outcome = "dead"
            self._next(now_us)
        elif self.state == "held" and self.held is not None:
            st = self.debouncer.state(*self.held)
            if st.phase is Phase.IDLE:
                if self.held == p.key:
                    result.edges = st.stats.last_edges
                    result.bounce_us = st.stats.last_bounce_us
                self.state = "settle"
                self.settle_until_us = now_us + self.settle_us
        elif self.state == "settle" and now_us >= self.settle_until_us:
            self._next(now_us)

    def answer(self, lit: bool, now_us: int) -> None:
        """The builder's answer to a light prompt."""
        p = self.prompt
        if p is None or p.kind != "light":
            raise RuntimeError("answer() without a light prompt")
        self.lights[p.key].lit = lit
        self._next(now_us)

    # -- inside -------------------------------------------------------------------------
    def _handle(self, out: Press | InputNotice, now_us: int) -> None:
        p = self.prompt
        if p is None or p.kind != "press":
            return
        key = (out.station, out.input)
        result = self.inputs[p.key]
        if isinstance(out, Press):
            if self.state == "wait":
                self.held = key
                self.state = "held"
                if key == p.key:
                    result.outcome = "ok"
                else:
                    result.outcome, result.fired = "wrong", key
            elif key == self.held:  # it went idle and pressed again: one press counted twice
                if key == p.key:
                    result.double = True
            elif key != self.held and key not in result.also:
                result.also.append(key)
        elif out.kind == "stuck" and key == self.held:
            if key == p.key:
                result.outcome = "stuck"
            self._next(now_us)

    def _next(self, now_us: int) -> None:
        self.index += 1
        while self.index < len(self.steps):
            step = self.steps[self.index]
            if step.kind == "light" or self.inputs[step.key].outcome == "untested":
                break
            self.index += 1  # stuck at rest: cannot be pressed, already reported
        self.state, self.held = "wait", None
        self.step_start_us = now_us

    # -- the verdict --------------------------------------------------------------------
    def report(self) -> Report:
        return Report.build(self)


@dataclass
class Report:
    """Pass/fail with one line per problem, saying what to check and where."""

    profile: str
    lines: list[str]
    problems: list[str]
    warnings: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems

    @classmethod
    def build(cls, test: GuidedTest) -> Report:
        cfg = test.profile.debounce
        labels, rows_ = test.labels, test.rows
        problems: list[str] = []
        warnings: list[str] = []
        lines: list[str] = []

        def where(key: Key) -> str:
            r = rows_[key]
            return _("{place} (its ground: {ground})").format(place=r.place, ground=r.ground)

        for key, res in test.inputs.items():
            label = labels[key]
            status = _(INPUT_STATUS[res.outcome])
            detail = _outcome(test, key, res, problems, warnings)
            for also in res.also:
                problems.append(_(
                    "pressing {input} also fired {other}: the two wires touch or share a contact; separate {where} "
                    "from {where_other}").format(input=label, other=labels[also], where=where(key),
                                                 where_other=where(also)))
            if res.double:
                problems.append(_(
                    "one press of {input} counted twice: its release bounced for longer than bounce_us ({us} µs); "
                    "replace the switch or raise bounce_us in the profile").format(input=label, us=cfg.bounce_us))
            glitches = test.debouncer.state(*key).stats.glitches
            if glitches:
                warnings.append(_(
                    "{input} had {pulses} too short to be a press: electrical noise; twist its wire with its own "
                    "ground, keep lamp wires in another cable, check its front end (README, section 6)").format(
                    input=label, pulses=ngettext("{n} short pulse", "{n} short pulses", glitches).format(n=glitches)))
            lines.append(f"  {label:<24} {status:<16} {detail}".rstrip())
        if test.lights:
            lines.append(_("Lights:"))
        for key, light in test.lights.items():
            status = _(LIGHT_STATUS[light.lit])
            named = _("{input} light").format(input=light.label)
            lines.append(f"  {named:<24} {status}")
            if light.lit is False:
                r = rows_[key]
                problems.append(_(
                    "the light in {input} did not light: check {place}, the lamp's + to its supply, the ULN2803's "
                    "GND to the box ground, and that the lamp matches the supply voltage").format(
                    input=light.label, place=r.light_place))
        return cls(test.profile.name, [_("Inputs:"), *lines], problems, warnings)

    def text(self, mock: bool = False) -> str:
        """The report as the builder reads it; PASS and FAIL stay as they are (a script may look for them).
        ``mock``: a try-out on mock pins, said as MOCK on its first and last line (no script takes it for a pass)."""
        verdict = ("MOCK " if mock else "") + ("PASS" if self.passed else "FAIL")
        problems, warnings = len(self.problems), len(self.warnings)
        out = [_("Wiring test of {profile}: {verdict} ({problems}, {warnings})").format(
            profile=self.profile, verdict=verdict,
            problems=ngettext("{n} problem", "{n} problems", problems).format(n=problems),
            warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)), ""]
        out += self.lines
        if self.problems:
            out += ["", _("Problems (fix these):")] + [f"  - {p}" for p in self.problems]
        if self.warnings:
            out += ["", _("Warnings:")] + [f"  - {w}" for w in self.warnings]
        if mock:
            out += ["", _("MOCK: simulated presses on mock pins, every light answered yes: a try-out, not a test of the wiring")]
        out += ["", _("RESULT: {verdict}").format(verdict=verdict)]
        return "\n".join(out) + "\n"


# -- the thin driver ----------------------------------------------------------------------
class Inbox:
    """An InputSink that only enqueues (pin callbacks and serial readers run on
    other threads); the driver hands everything to the test on its own loop."""

    def __init__(self) -> None:
        self.items: queue.SimpleQueue[Edge | Press | InputNotice] = queue.SimpleQueue()

    def edge(self, edge: Edge, precision_us: int) -> None:
        self.items.put(edge)

    def press(self, press: Press) -> None:
        self.items.put(press)

    def notice(self, notice: InputNotice) -> None:
        self.items.put(notice)

    def watermark(self, mark: Watermark) -> None:
        """The guided test waits for presses, not for a decision horizon: nothing to keep."""

    def drain(self) -> list[Edge | Press | InputNotice]:
        out: list[Edge | Press | InputNotice] = []
        while True:
            try:
                out.append(self.items.get_nowait())
            except queue.Empty:
                return out


def _outcome(test: GuidedTest, key: Key, res: InputResult, problems: list[str], warnings: list[str]) -> str:
    """What the report says of one input's outcome (ok, dead, wrong, stuck...): its detail on its
    row; what is wrong with it added to ``problems``, a bouncy switch to ``warnings``."""
    cfg, labels, rows_ = test.profile.debounce, test.labels, test.rows
    label = labels[key]

    def where(key: Key) -> str:
        r = rows_[key]
        return _("{place} (its ground: {ground})").format(place=r.place, ground=r.ground)

    detail = ""
    if res.outcome == "ok":
        detail = _("{edges} (press + release), press bounce {us} µs").format(
            edges=ngettext("{n} edge", "{n} edges", res.edges).format(n=res.edges), us=res.bounce_us)
        fail_us, warn_us = bounce_limits(cfg.bounce_us)
        if res.bounce_us >= fail_us:
            problems.append(_(
                "{input} chattered for {us} µs ({edges}), half the bounce window ({window} µs) or more: the "
                "box may take its presses for noise; replace the microswitch").format(
                input=label, us=res.bounce_us, window=cfg.bounce_us,
                edges=ngettext("{n} edge", "{n} edges", res.edges).format(n=res.edges)))
        elif res.bounce_us >= warn_us:
            warnings.append(_(
                "{input} is bouncy: its contact chattered for {us} µs ({edges}); presses still count from "
                "the first edge, but a microswitch should settle within {warn} µs: clean or replace it "
                "before it reaches {fail} µs").format(
                input=label, us=res.bounce_us, warn=warn_us, fail=fail_us,
                edges=ngettext("{n} edge", "{n} edges", res.edges).format(n=res.edges)))
    elif res.outcome == "dead":
        r = rows_[key]
        problems.append(_(
            "{input} never fired in {seconds} s: a broken or loose wire, or it is on another pin; a meter "
            "between {place} and {ground} must read about 1 kΩ (the series resistor) while it is pressed").format(
            input=label, seconds=figure(test.timeout_us / 1e6), place=r.place, ground=r.ground))
    elif res.outcome == "wrong" and res.fired is not None:
        other = labels[res.fired]
        back = test.inputs.get(res.fired)
        detail = _("{input} fired").format(input=other)
        if back is not None and back.outcome == "wrong" and back.fired == key:
            if key < res.fired:  # report a swapped pair once
                problems.append(_(
                    "{input} and {other} are swapped: pressing {input} fired {other} and pressing {other} "
                    "fired {input}; exchange the two wires ({where} / {where_other})").format(
                    input=label, other=other, where=where(key), where_other=where(res.fired)))
        else:
            problems.append(_(
                "asked for {input}, but {other} fired: {input}'s switch is wired to {other}'s pin "
                "({where_other}), or the wrong button was pressed; {input} belongs on {where}").format(
                input=label, other=other, where=where(key), where_other=where(res.fired)))
    elif res.outcome == "stuck_at_rest":
        problems.append(_(
            "{input} reads pressed with nobody touching it: the switch is on its normally-closed contact "
            "(use NO and COM), its wire touches ground, or the input has a pull-down; at rest a meter between "
            "{place} and {ground} must not read that low").format(
            input=label, place=rows_[key].place, ground=rows_[key].ground))
    elif res.outcome == "stuck":
        problems.append(_(
            "{input} went down but did not come back up within {seconds} s: a jammed button or a wire "
            "shorted to ground").format(input=label, seconds=figure(cfg.stuck_us / 1e6)))
    return detail


def _feed(test: GuidedTest, items: list[Any], now: Callable[[], int]) -> None:
    """What the source sent meanwhile, to the test in order: edges, presses, notices."""
    for item in items:
        if isinstance(item, Edge):
            test.edge(item.station, item.input, item.level, item.t_us)
        elif isinstance(item, Press):
            test.press(item, now())
        else:
            test.notice(item, now())


def run(
    test: GuidedTest,
    source: Any,
    *,
    now: Callable[[], int],
    sleep: Callable[[int], None],
    ask: Callable[[str], str],
    say: Callable[[str], None],
    open_lights: Callable[[Any], Lights] | None = None,
    rest_us: int = 500_000,
    tick_us: int = 2_000,
    latency_guard_us: int = 2_000,
) -> Report:
    """Drive ``test`` with a ``source`` (not yet started: GpioSource or the
    board's), a clock (``now`` in box µs, ``sleep`` for µs), ``ask`` for y/n
    answers, ``say`` for prompts and ``open_lights(source)`` for the light
    back-end (``controller.box.lights``), opened once the source runs. Every piece is injectable, so tests run it on a MockFactory
    with a fake clock and a scripted builder. Time is judged ``latency_guard_us``
    behind the clock, so an edge still on its way from a pin thread is never
    overtaken by a decision that it is stable."""
    inbox = Inbox()
    source.start(inbox)
    lights = open_lights(source) if open_lights is not None else None
    lit: Key | None = None
    try:
        say(_("Hands off all buttons: checking every line at rest ..."))
        sleep(rest_us)
        inbox.drain()  # whatever moved before the test starts is not a press
        if getattr(source, "connected", True) is False:
            say(_("The input board is not connected: check its USB cable (inputs will time out until it is)."))
        test.begin(source.levels(), now())
        shown: Prompt | None = None
        while not test.done:
            _feed(test, inbox.drain(), now)
            test.poll(now() - latency_guard_us)
            if lights is not None and test.lit != lit:
                if lit is not None:
                    lights.set(*lit, "off")
                lit = test.lit
                if lit is not None:
                    lights.set(*lit, "on")
            p = test.prompt
            if p is None:
                break
            if p is not shown:
                shown = p
                if p.kind == "press":
                    say(f"[{test.index + 1}/{len(test.steps)}] {p.text}")
            if p.kind == "light":
                reply = ask(f"[{test.index + 1}/{len(test.steps)}] {p.text} [y/n] ").strip().lower()
                if reply[:1] in ("y", "n"):
                    test.answer(reply.startswith("y"), now())
                else:
                    say(_("please answer y or n"))
            else:
                sleep(tick_us)
    finally:
        if lights is not None:
            lights.close()
        source.stop()
    return test.report()


class MockBuilder:
    """Plays the builder on gpiozero's mock pins (``wiring test --mock``): it
    presses each input when asked (a clean press held ``hold_us``) and says
    every light is lit, so the whole test can be tried on a laptop."""

    def __init__(self, test: GuidedTest, factory: Any, now: Callable[[], int], hold_us: int = 80_000) -> None:
        self.test = test
        self.active = test.profile.debounce.active_level
        self.pin_of = {key: pin for pin, key in test.profile.input_pins().items()}
        self.factory = factory
        self.now = now
        self.hold_us = hold_us
        self.pressed: Key | None = None
        self.release_at = 0
        self.done: set[Key] = set()

    def _drive(self, key: Key, level: int) -> None:
        pin = self.factory.pin(self.pin_of[key])
        pin.drive_high() if level else pin.drive_low()

    def tick(self) -> None:
        """Called between the driver's polls: press what is asked, let go later."""
        if self.pressed is not None:
            if self.now() >= self.release_at:
                self._drive(self.pressed, 1 - self.active)
                self.pressed = None
            return
        p = self.test.prompt
        if p is not None and p.kind == "press" and p.key not in self.done and p.key in self.pin_of:
            self.done.add(p.key)
            self.pressed = p.key
            self.release_at = self.now() + self.hold_us
            self._drive(p.key, self.active)

    def ask(self, question: str) -> str:
        print(question + "y " + _("(mock)"))
        return "y"
