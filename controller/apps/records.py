"""Games without a screen or real players: ``simulate`` (bots, virtual time),
``scenario`` (a scripted game checked against its expectations), ``replay``
(a journal rebuilt, disputes settled) and ``resume`` (a simulated game's
journal carried on)."""

from __future__ import annotations

import argparse
import sys

from controller import scenario as scenario_mod
from controller.apps.common import UsageError, options_from, print_json, spec_named
from controller.apps.journal import (
    DURABILITY_SIMULATE,
    damage_json,
    replay_box,
    resume_for_simulate,
)
from controller.runtime import Box
from controller.simulate import Session, simulate
from games.arbitration import format_margin


def cmd_simulate(args: argparse.Namespace) -> int:
    spec = spec_named(args.game)
    try:
        session = simulate(spec, args.players, args.seed, args.journal, options_from(args.option))
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    summary = session.box.summary()
    if args.json:
        print_json(summary)
    else:
        print(f"{spec.title}: {args.players} simulated players, seed {args.seed}, "
              f"{session.now_us / 1e6:.1f} s of play, {len(session.box.press_log)} presses")
        print(f"scores: {summary.get('scores')}")
        if args.journal:
            print(f"journal: {args.journal} ({DURABILITY_SIMULATE})")
    return 0


def cmd_scenario(args: argparse.Namespace) -> int:
    data = scenario_mod.load(args.file)
    outcome = scenario_mod.run(data)
    problems = scenario_mod.check(data, outcome)
    if args.json:
        print_json(outcome if args.events else {k: v for k, v in outcome.items() if k != "events"})
    else:
        for key in ("winner", "queue", "margins_us", "ties", "early", "scores"):
            if key in outcome:
                print(f"{key}: {outcome[key]}")
    for problem in problems:
        print(f"expectation not met: {problem}", file=sys.stderr)
    return 1 if problems else 0


def cmd_replay(args: argparse.Namespace) -> int:
    journal, box = replay_box(args.file, "replay", args.until_damage)
    if args.json:
        print_json({**box.summary(), **damage_json(journal)})
    else:
        print(f"{box.spec.title}: {len(box.press_log)} presses replayed; scores {box.engine.public_view().get('scores')}")
        if args.disputes:
            print_disputes(box)
    return 0


def print_disputes(box: Box) -> None:
    """Every press with its stamp, and every decision with who was how far
    behind: what settles "I was first!" after the fact."""

    def name(station: int) -> str:
        return box._name(station) if station >= 0 else "host"

    timeline: list[tuple[int, int, str]] = [
        (p.t_us, 0, f"press  {name(p.station)} {p.input} (stamped to ±{p.precision_us} µs, {p.edges} edges)")
        for p in box.press_log
    ]
    for event in box.event_log:
        if event.kind == "winner":
            queue = event.data.get("queue", [])
            margins = event.data.get("margins_us", [])
            behind = ", ".join(f"{name(s)} {format_margin(m)}" for s, m in zip(queue, margins, strict=False))
            text = f"FIRST  {name(event.player if event.player is not None else -1)}" + (f"; then {behind}" if behind else "")
        elif event.kind == "tie":
            text = "TIE    " + " = ".join(name(s) for s in event.data.get("stations", [])) + " (closer than the stamps can tell)"
        elif event.kind == "late_evidence":
            text = (f"LATE   {name(event.player if event.player is not None else -1)}'s press stamped "
                    f"{event.data.get('pressed_us', 0) / 1e6:.6f} s reached the box after the decision "
                    f"({event.data.get('behind_us', 0) / 1000:.3f} ms before it was made): not counted")
        elif event.kind == "early":
            text = f"early  {name(event.player if event.player is not None else -1)} pressed before it was allowed"
        else:
            continue
        timeline.append((event.t_us, 1, text))
    for t_us, _order, text in sorted(timeline):
        print(f"  {t_us / 1e6:12.6f} s  {text}")


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a journaled simulated game after a crash or power cut (live
    games resume through ``play --resume``: they need their stations)."""
    journal, box = resume_for_simulate(args.file)
    writer = box.journal
    assert writer is not None
    print(f"resuming {box.spec.title} from {args.file}: {len(journal.records)} records replayed"
          + (" (a torn last line was cut off)" if journal.torn_tail else ""), file=sys.stderr)
    spec, settings = box.spec, box.settings
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed + 1)
    session.now_us = box.now_us
    try:
        session.run_virtual(None if args.seconds is None else box.now_us + int(args.seconds * 1e6))
    finally:
        box._write({"type": "end", "t_us": session.now_us})
        writer.close()
    if args.json:
        print_json(box.summary())
    else:
        print(f"finished: scores {box.summary().get('scores')}")
    return 0
