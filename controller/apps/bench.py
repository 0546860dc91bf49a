"""``buzzerbox bench``: the owner's acceptance check on the real box. It runs
a quiz through ``play``'s own path (the split design, as the box ships) and
prints what the box adds to a decision against what this machine allows:

* **overhead** = lamp − confirmation (the glitch filter's moment of the
  first press, or the tie window's end if later), p50/p99/max;
* **the floor**: how late a bare thread at the deciding process's priority
  wakes from the same kind of timed wait, measured in the same minutes;
* wrong winners (the same stamps judged in virtual time too).

Synthetic (default): a feeder process of its own (real-time priority when
allowed) writes a seeded script of contests into a FIFO that the box's real
GPIO source reads on mock pins, each edge stamped with the clock read as it
is written, as a kernel stamps in the interrupt (``controller/apps/benchkit.py``).

``--jig PIN``: a loopback jig, one GPIO output wired to two stations' bell
inputs (build guide, "The acceptance check"). The bench drives the output;
the real inputs and the kernel stamp both edges: the spread between the two
stamps of one contact is the real pins' and the kernel's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.apps import benchkit as bk
from controller.apps.common import UsageError
from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box.feed import Feed
from controller.box.runtime import box_from_journal
from controller.box.timeline import box_now_us
from games.i18n import LANGUAGES, _, current_language, format_number, ngettext

#: one jig contest: arm, the contact this long after, judged this long after the contact
ARM_LEAD_US, JUDGE_AFTER_US, PERIOD_US, HOLD_US = 150_000, 150_000, 600_000, 60_000


def sleep_until(due_us: int) -> None:
    while (left := due_us - box_now_us()) > 0:
        time.sleep(left / 1e6)


def priority_words(said: str) -> str:
    """What ``ask_realtime`` got, in the reader's language."""
    fifo = re.search(r"SCHED_FIFO (\d+)\)", said)
    if fifo:
        return _("real-time priority {n}").format(n=fifo.group(1))
    nice = re.search(r"nice (-?\d+)", said)
    return _("nice {n} (real-time priority not allowed)").format(n=nice.group(1) if nice else "?")


def lang_args() -> list[str]:
    """What the game says on stderr, in the bench's language."""
    return ["--lang", current_language()] if current_language() in LANGUAGES else []


def cmd_bench(args: argparse.Namespace) -> int:
    profile = profile_mod.load(args.profile)
    if profile.source != "gpio":
        raise UsageError(_("bench drives GPIO pins: profile {name} reads a {source}").format(
            name=profile.name, source=profile.source))
    bells, host = bk.bell_and_host_pins(profile)
    if len(bells) < 2:
        raise UsageError(_("bench needs a profile with two stations' bells"))
    if args.jig is not None:
        return bench_jig(args, profile, bells)
    if not {"arm", "correct"} <= set(host):
        raise UsageError(_("bench arms and judges with the host's pins: profile {name} has no host arm and "
                           "correct inputs; add them to its [host] table").format(name=profile.name))
    contests = bk.make_contests(random.Random(f"bench-{args.seed}"), args.contests, len(bells))
    with tempfile.TemporaryDirectory() as tmp:
        try:
            game = bk.play_game(args.profile, contests, Path(tmp) / "game", ["--headless", *lang_args()], args.seed)
        except RuntimeError as exc:
            print(_("bench: the game did not end cleanly ({problem})").format(problem=exc), file=sys.stderr)
            return 1
    figures = bk.Figures.of(game.judged)
    floor = bk.Summary.of(game.floor_late)
    print(_("bench ({mode}, {contests}, load average {load}):").format(
        mode=_("synthetic feeder"), contests=ngettext("{n} contest", "{n} contests", len(contests)).format(
            n=len(contests)), load=format_number(game.load[1], 2)))
    feeder = bk.Summary.of(game.feeder_late)
    print(_("  feeder at {priority}: late p50 {a} ms, p99 {b} ms, max {c} ms (kept out: the box is judged on "
            "the stamps written)").format(priority=priority_words(game.feeder_priority), a=ms(feeder.p50, 3),
                                          b=ms(feeder.p99, 3), c=ms(feeder.max, 3)))
    print_floor_and_overhead(floor, figures.overhead, figures.within_1ms, figures.timed, game.floor_priority)
    print(_("  settle -> lamp p50 {a} ms, p99 {b} ms; contact -> lamp p50 {c} ms, p99 {d} ms").format(
        a=ms(figures.settle.p50), b=ms(figures.settle.p99), c=ms(figures.contact.p50), d=ms(figures.contact.p99)))
    print(_("  wrong winners: {wrong} ({audit} in the contest whose first press bounces open for 947 µs); "
            "undecided: {none}; live differs from virtual time: {differ}").format(
        wrong=figures.wrong, audit=figures.audit_wrong, none=figures.undecided, differ=figures.live_not_virtual))
    print(_("  edges the feeder wrote later than the feed's allowance ({allowance} ms): {edges}; contests with "
            "one: {contests}, of them wrong or undecided: {wrong} (kept out of the figures above)").format(
        allowance=ms(Feed.capture_us, 1), edges=figures.late_edges, contests=figures.late_contests,
        wrong=figures.late_wrong))
    verdict(bk.meets_goal(figures, floor))
    return 0


def ms(value_us: int | None, digits: int = 2) -> str:
    return "-" if value_us is None else format_number(value_us / 1000, digits)


def print_floor_and_overhead(floor: bk.Summary, overhead: bk.Summary, within: int, timed: int, priority: str) -> None:
    print(_("  floor (a bare thread at {priority}, timed waits): late p50 {a} ms, p99 {b} ms").format(
        priority=priority_words(priority), a=ms(floor.p50, 3), b=ms(floor.p99, 3)))
    print(_("  overhead (lamp - confirmation): p50 {a} ms, p99 {b} ms, max {c} ms; within 1 ms: {ok}/{n}").format(
        a=ms(overhead.p50), b=ms(overhead.p99), c=ms(overhead.max), ok=within, n=timed))


def verdict(passed: bool) -> None:
    print(_("  acceptance (overhead p50 <= {p50} ms, p99 <= floor p99 + {over} ms, no wrong winner, none "
            "undecided or missed): {verdict}").format(p50=format_number(bk.GOAL_P50_US / 1000, 1),
                                over=format_number(bk.GOAL_OVER_FLOOR_US / 1000, 1),
                                verdict=_("PASS") if passed else _("FAIL (docs: wiring/README.md, "
                                                                    "\"The acceptance check\")")))


# -- the loopback jig ----------------------------------------------------------------------------


def bench_jig(args: argparse.Namespace, profile: profile_mod.Profile, bells: dict[int, int]) -> int:
    """Contacts through a real output pin into two real inputs; the floor measured meanwhile."""
    with tempfile.TemporaryDirectory() as tmp:
        journal, timings, views = Path(tmp) / "bench.jsonl", Path(tmp) / "timings.json", Path(tmp) / "views.sock"
        command = [sys.executable, "-m", "controller", "play", "quiz", "--profile", args.profile, "--no-roll-call",
                   "--headless", "--mute", "--journal", str(journal), "--timings", str(timings),
                   "--viewer-socket", str(views), *lang_args()]
        with bk.Floor(args.seed) as floor:
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            try:
                contacts = drive_jig(views, args.contests, args.jig)
            finally:
                code = proc.wait()
        if code != 0:
            print(_("bench: the game did not end cleanly (exit {code})").format(code=code), file=sys.stderr)
            return 1
        measured = json.loads(timings.read_text())
        played = box_from_journal(journal_mod.read(journal))
    report_jig(args, profile, contacts, measured, list(played.press_log), list(played.event_log), floor)
    return 0


def drive_jig(views: Path, contests: int, jig: int) -> list[int]:
    """Arm, make one contact on the jig's output, judge; returns each contact (box µs).
    The host's arm and correct go in as host keys (the viewer socket, as the screen sends them)."""
    import socket

    from gpiozero import DigitalOutputDevice

    from controller import channel
    from controller import protocol as p

    output: Any = DigitalOutputDevice(jig, active_high=False, initial_value=False)  # bells are active low
    while not views.exists():
        time.sleep(0.05)  # the deciding process makes it once it has taken the game over
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.connect(str(views))
    first = channel.receive(host)
    offset = first.offset_us if isinstance(first, p.View) else 0
    contacts = []
    try:
        t0 = box_now_us() + 300_000
        for k in range(contests):
            start = t0 + k * PERIOD_US
            contact = start + ARM_LEAD_US
            sleep_until(start)
            channel.send(host, p.HostKey("arm", start + offset))
            sleep_until(contact)
            output.on()
            contacts.append(box_now_us())
            sleep_until(contact + HOLD_US)
            output.off()
            sleep_until(contact + JUDGE_AFTER_US)
            channel.send(host, p.HostKey("correct", box_now_us() + offset))
        channel.send(host, p.Stop(p.EndReason.MENU))
    finally:
        output.close()
        host.close()
    return contacts


@dataclass
class JigFigures:
    """The jig's contacts judged (µs): each should reach both inputs and be a tie."""

    overhead: list[int] = field(default_factory=list)  # lamp - confirmation
    lit: list[int] = field(default_factory=list)  # contact -> lamp
    spread: list[int] = field(default_factory=list)  # between the two stamps of one contact
    #: contacts with no stamp, no decision or no outcome: what the figures above cannot include
    missed: int = 0
    #: contacts decided as a winner, or as a tie without both inputs the contact reaches
    wrong: int = 0


def judge_jig(contacts: Sequence[int], offset_us: int, decisions: Sequence[Sequence[int | None]],
              presses: Sequence[Any], events: Sequence[Any], wait_us: int, stations: Sequence[int]) -> JigFigures:
    """Each contact (box µs; game µs = box µs + ``offset_us``) against what the box stamped,
    decided and announced in the window after it: one contact wired to ``stations``' inputs
    is a tie of them. The jig's edges are clean (no bounce): confirmation = the earlier stamp
    + ``wait_us`` (the glitch filter, or the tie window if longer)."""
    figures = JigFigures()
    for contact in contacts:
        c = contact + offset_us
        stamps = sorted(p.t_us for p in presses if c - 5_000 <= p.t_us < c + JUDGE_AFTER_US)
        d = next((d for d in decisions if d[0] is not None and d[1] is not None and c <= d[0] < c + JUDGE_AFTER_US),
                 None)
        outcome, _at = bk.outcome_in(events, c - 5_000, c + JUDGE_AFTER_US)
        if d is None or not stamps or outcome is None:
            figures.missed += 1
            continue
        kind, who = outcome
        if kind != "tie" or not set(stations) <= set(who):
            figures.wrong += 1
        lamp = int(d[1] or 0)
        figures.lit.append(lamp - c)
        figures.overhead.append(lamp - (stamps[0] + wait_us))
        if len(stamps) >= 2:
            figures.spread.append(stamps[1] - stamps[0])
    return figures


def report_jig(args: argparse.Namespace, profile: profile_mod.Profile, contacts: list[int], measured: dict[str, Any],
               presses: list[Any], events: list[Any], floor: bk.Floor) -> bool:
    """Prints the jig's figures and verdict; whether it passed."""
    wait = max(profile.debounce.glitch_us, bk.tie_wait_us(profile, 5))
    bells, _host = bk.bell_and_host_pins(profile)
    jig = judge_jig(contacts, int(measured["offset_us"]), measured["decisions"] or [], presses, events, wait,
                    sorted(bells)[:2])
    print(_("bench ({mode}, {contests}, load average {load}):").format(
        mode=_("loopback jig on GPIO {pin}").format(pin=args.jig),
        contests=ngettext("{n} contest", "{n} contests", len(contacts)).format(n=len(contacts)),
        load=format_number(os.getloadavg()[0], 2)))
    summary, floor_summary = bk.Summary.of(jig.overhead), bk.Summary.of(floor.late)
    print_floor_and_overhead(floor_summary, summary, sum(v <= 1_000 for v in jig.overhead), len(jig.overhead),
                             floor.priority)
    lamp = bk.Summary.of(jig.lit)
    print(_("  contact -> lamp p50 {a} ms, p99 {b} ms").format(a=ms(lamp.p50), b=ms(lamp.p99)))
    print(_("  stamp spread of one contact on two inputs: p50 {a} ms, worst {b} ms ({n} contacts)").format(
        a=ms(bk.percentile(jig.spread, 0.5), 3), b=ms(max(jig.spread, default=0), 3), n=len(jig.spread)))
    print(_("  contacts missed (no stamp, no decision or no outcome): {missed}; not a tie of the two inputs: "
            "{wrong}").format(missed=jig.missed, wrong=jig.wrong))
    passed = (bool(contacts) and jig.missed == 0 and jig.wrong == 0
              and summary.p50 is not None and summary.p99 is not None and floor_summary.p99 is not None
              and summary.p50 <= bk.GOAL_P50_US and summary.p99 <= floor_summary.p99 + bk.GOAL_OVER_FLOOR_US)
    verdict(passed)
    return passed
