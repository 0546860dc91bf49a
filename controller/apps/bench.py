"""``buzzerbox bench``: the owner's acceptance check on the real box. It runs
a quiz through ``play``'s own path (the split design, as the box ships) and
measures what the fairness promise rests on: contact -> decision and
contact -> lamp (p50/p99), edges later than the stated report delay, and
wrong winners, against the budget glitch filter + stated delay + 1 ms.

* Synthetic (default): edges written into a FIFO reach the box's real GPIO
  source on mock pins, each stamped with its scripted moment
  (``controller/feed.py``): the box's own timing on this machine.
* ``--jig PIN``: a loopback jig, one GPIO output wired to two stations'
  bell inputs (build guide, "The acceptance check"). The bench drives the
  output; the real inputs and the kernel stamp both edges: the spread
  between the two stamps of one contact, and how late each reached the
  box, are the real pins' and the kernel's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from controller import journal as journal_mod
from controller import profile as profile_mod
from controller.apps.common import UsageError
from controller.runtime import box_from_journal
from controller.timeline import box_now_us
from games.i18n import LANGUAGES, _, current_language, format_number, ngettext

#: one contest: arm, the contact(s) this long after, judged this long after the contact
ARM_LEAD_US, JUDGE_AFTER_US, PERIOD_US, HOLD_US = 150_000, 150_000, 600_000, 60_000


def percentile_ms(values: list[int], p: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(p * len(s) + 0.999) - 1))] / 1000 if s else float("nan")


def sleep_until(due_us: int) -> None:
    while (left := due_us - box_now_us()) > 0:
        time.sleep(left / 1e6)


def pins_of(profile: profile_mod.Profile) -> tuple[dict[int, int], dict[str, int]]:
    pins = profile.input_pins()
    bells = {station: pin for pin, (station, name) in pins.items() if name == "bell"}
    host = {name: pin for pin, (station, name) in pins.items() if station < 0}
    if len(bells) < 2:
        raise UsageError(_("bench needs a profile with two stations' bells"))
    return bells, host


def cmd_bench(args: argparse.Namespace) -> int:
    profile = profile_mod.load(args.profile)
    if profile.source != "gpio":
        raise UsageError(_("bench drives GPIO pins: profile {name} reads a {source}").format(
            name=profile.name, source=profile.source))
    bells, _host = pins_of(profile)
    rng = random.Random(args.seed)
    stations = sorted(bells)[:2]
    contests = [(rng.choice(stations), rng.randrange(0, 2_000)) for _ in range(args.contests)]
    with tempfile.TemporaryDirectory() as tmp:
        fifo, journal, timings = Path(tmp) / "feed", Path(tmp) / "bench.jsonl", Path(tmp) / "timings.json"
        views = Path(tmp) / "views.sock"
        env = dict(os.environ)
        command = [sys.executable, "-m", "controller", "play", "quiz", "--profile", args.profile, "--no-roll-call",
                   "--headless", "--mute", "--journal", str(journal), "--timings", str(timings),
                   "--viewer-socket", str(views)]
        if current_language() in LANGUAGES:  # what the game says on stderr, in the bench's language
            command += ["--lang", current_language()]
        if args.jig is None:
            os.mkfifo(fifo)
            command += ["--feed", str(fifo)]
            env["GPIOZERO_PIN_FACTORY"] = "mock"
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            contacts = feed(fifo if args.jig is None else None, views, contests, bells, args.jig)
        finally:
            code = proc.wait()
        if code != 0:
            print(_("bench: the game did not end cleanly (exit {code})").format(code=code), file=sys.stderr)
            return 1
        measured = json.loads(timings.read_text())
        played = box_from_journal(journal_mod.read(journal))
    report(args, profile, contests, contacts, measured, list(played.event_log), list(played.press_log))
    return 0


def feed(fifo: Path | None, views: Path, contests: list[tuple[int, int]], bells: dict[int, int],
         jig: int | None) -> list[int]:
    """Play the script; returns each contest's contact (box µs). The host's
    arm and correct go in as host keys (the viewer socket, as the screen sends
    them); the contacts through the FIFO, or through the jig's output pin."""
    import socket

    from controller import channel

    output: Any = None
    if jig is not None:
        from gpiozero import DigitalOutputDevice

        output = DigitalOutputDevice(jig, active_high=False, initial_value=False)  # bells are active low
    while not views.exists():
        time.sleep(0.05)  # the deciding process makes it once it has taken the game over
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.connect(str(views))
    first = channel.receive(host)
    offset = int(first["offset_us"]) if first else 0
    contacts = []
    out = fifo.open("w", encoding="ascii") if fifo is not None else None  # opens when the box reads it
    try:
        t0 = box_now_us() + 300_000
        for k, (winner, gap) in enumerate(contests):
            start = t0 + k * PERIOD_US
            contact = start + ARM_LEAD_US
            sleep_until(start)
            channel.send(host, {"type": channel.HOST, "name": "arm", "t_us": start + offset})
            if out is not None:
                other = next(s for s in sorted(bells) if s != winner)
                for t, pin, level in sorted([(contact, bells[winner], 0), (contact + HOLD_US, bells[winner], 1),
                                             (contact + gap, bells[other], 0), (contact + gap + HOLD_US, bells[other], 1)]):
                    sleep_until(t)
                    out.write(f"{pin} {level} {t}\n")
                    out.flush()
                contacts.append(contact)
            else:
                sleep_until(contact)
                output.on()
                contacts.append(box_now_us())
                sleep_until(contact + HOLD_US)
                output.off()
            sleep_until(contact + JUDGE_AFTER_US)
            channel.send(host, {"type": channel.HOST, "name": "correct", "t_us": box_now_us() + offset})
        channel.send(host, {"type": channel.STOP, "reason": "menu"})
    finally:
        if out is not None:
            out.close()
        if output is not None:
            output.close()
        host.close()
    return contacts


def report(args: argparse.Namespace, profile: profile_mod.Profile, contests: list[tuple[int, int]], contacts: list[int],
           measured: dict[str, Any], events: list[Any], presses: list[Any]) -> None:
    offset = int(measured["offset_us"])
    decisions = measured["decisions"] or []
    decided, lit, wrong, spread = [], [], 0, []
    for (first, _gap), contact in zip(contests, contacts, strict=False):
        c = contact + offset
        winner = next((e for e in events if e.kind in ("winner", "tie") and c - 5_000 <= e.t_us < c + JUDGE_AFTER_US), None)
        if args.jig is None and winner is not None and winner.kind == "winner" and winner.player != first:
            wrong += 1  # another station named first (a tie inside the tie window is no wrong winner)
        d = next((d for d in decisions if c <= d[0] < c + JUDGE_AFTER_US), None)
        if d is not None:
            decided.append(d[0] - c)
            lit.append(d[1] - c)
        if args.jig is not None:
            stamps = [p.t_us for p in presses if c - 5_000 <= p.t_us < c + JUDGE_AFTER_US]
            if len(stamps) >= 2:
                spread.append(max(stamps[:2]) - min(stamps[:2]))
    budget = profile.debounce.glitch_us + int(measured["stated_delay_us"] or 0) + 1_000
    edges = len(contests) * (4 + 2)
    ms = format_number
    print(_("bench ({mode}, {contests}, load average {load}):").format(
        mode=_("loopback jig on GPIO {pin}").format(pin=args.jig) if args.jig is not None else _("synthetic feeder"),
        contests=ngettext("{n} contest", "{n} contests", len(contests)).format(n=len(contests)),
        load=format_number(os.getloadavg()[0], 2)))
    print(_("  contact -> decision p50 {a} ms, p99 {b} ms; contact -> lamp p50 {c} ms, p99 {d} ms").format(
        a=ms(percentile_ms(decided, 0.5), 2), b=ms(percentile_ms(decided, 0.99), 2),
        c=ms(percentile_ms(lit, 0.5), 2), d=ms(percentile_ms(lit, 0.99), 2)))
    print(_("  budget {budget} ms (glitch + stated delay + 1 ms): {ok}/{n} decisions within it").format(
        budget=ms(budget / 1000, 1), ok=sum(v <= budget for v in decided), n=len(decided)))
    print(_("  edges later than the stated delay: {late} of ~{edges}, worst {worst} ms").format(
        late=measured["late_deliveries"], edges=edges, worst=ms(int(measured["worst_delivery_us"]) / 1000, 1)))
    if args.jig is None:
        print(_("  wrong winners: {wrong}").format(wrong=wrong))
    else:
        print(_("  stamp spread of one contact on two inputs: p50 {a} ms, worst {b} ms ({n} contacts)").format(
            a=ms(percentile_ms(spread, 0.5), 3), b=ms(max(spread, default=0) / 1000, 3), n=len(spread)))
    passed = decided and percentile_ms(decided, 0.99) * 1000 <= budget and (args.jig is not None or wrong == 0)
    print(_("  acceptance: {verdict}").format(verdict=_("PASS") if passed else _("FAIL (docs: wiring/README.md, "
                                                                                  "\"The acceptance check\")")))
