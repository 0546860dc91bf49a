"""Games without a screen or real players: ``simulate`` (bots, virtual time),
``scenario`` (a scripted game checked against its expectations), ``replay``
(a journal rebuilt, disputes settled) and ``resume`` (a simulated game's
journal carried on)."""

from __future__ import annotations

import argparse
import sys

from controller.apps.common import UsageError, options_from, print_json, spec_named
from controller.apps.journal import (
    DURABILITY_SIMULATE,
    looks_like_journal,
    not_a_scenario,
    replay_box,
    resume_for_simulate,
)
from controller.box import scenario as scenario_mod
from controller.box import session as box_session
from controller.box.journal import JournalError, damage_json
from controller.box.press import Press
from controller.box.results.quiz import write_replayed
from controller.box.runtime import Box
from controller.box.simulate import Session, simulate
from games.arbitration import format_margin
from games.base import EventKind, GameEvent, GameSpec
from games.i18n import N_, _, format_number, ngettext, word
from games.quiz.packs import PackError, load_pack


def cmd_simulate(args: argparse.Namespace) -> int:
    spec = spec_named(args.game)
    options = options_from(args.option)
    if args.pack is not None:
        options[PACK_OPTION] = pack_for(spec, args.pack)
    try:
        session = simulate(spec, args.players, args.seed, args.journal, options)
    except JournalError:  # the disk, not the command line: said as a failure (exit 1)
        raise
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    if args.journal:
        for written in write_replayed(args.journal):  # a quiz's record, as a live quiz leaves it
            print(_("results: {path}").format(path=written), file=sys.stderr)
    session.say_if_waiting_for_a_host("simulate")
    summary = session.box.summary()
    if args.json:
        print_json(summary, session.box.station_names)
    else:
        presses = len(session.box.press_log)
        print(_("{title}: {players}, seed {seed}, {seconds} s of play, {presses}").format(
            title=_(spec.title), seed=args.seed, seconds=format_number(session.now_us / 1e6, 1),
            players=ngettext("{n} simulated player", "{n} simulated players", args.players).format(n=args.players),
            presses=ngettext("{n} press", "{n} presses", presses).format(n=presses)))
        print(box_session.scores_line(session.box.station_names, summary))
        if args.journal:
            print(_("journal: {path} ({durability})").format(path=args.journal, durability=_(DURABILITY_SIMULATE)))
    return 0


#: the game option a question pack is given in (the quiz's, GameSpec.options)
PACK_OPTION = "pack"


def pack_for(spec: GameSpec, path: str) -> str:
    """``--pack FILE``: checked here first, so a bad pack is its first problem in
    one line (``buzzerbox pack check`` lists them all), before any game starts."""
    if PACK_OPTION not in spec.options:
        raise UsageError(_("{title} has no question packs in this version; --pack is for a quiz that plays them").format(title=_(spec.title)))
    try:
        load_pack(path)
    except PackError as exc:
        raise PackError(_("{problem} (buzzerbox pack check {file} lists every problem)").format(
            problem=str(exc), file=path)) from None
    return path


def cmd_scenario(args: argparse.Namespace) -> int:
    if looks_like_journal(args.file):
        raise UsageError(_("{file} is a journal, not a scenario: `buzzerbox replay {file}` rebuilds its game")
                         .format(file=args.file))
    return scenario_mod.command(args.file, as_json=args.json, with_events=args.events)


def cmd_replay(args: argparse.Namespace) -> int:
    not_a_scenario(args.file)
    journal, box = replay_box(args.file, "replay", args.until_damage)
    if args.json:
        print_json({**box.summary(), **damage_json(journal)}, box.station_names)
    else:
        presses = len(box.press_log)
        print(_("{title}: {presses} replayed; {scores}").format(
            title=_(box.spec.title), presses=ngettext("{n} press", "{n} presses", presses).format(n=presses),
            scores=box_session.scores_line(box.station_names, box.summary())))
        if args.disputes:
            print_disputes(box)
    return 0


#: the disputes' column of what a line is (translated where printed; each padded to the widest)
DISPUTE_TAGS = {"press": N_("press"), "winner": N_("FIRST"), "tie": N_("TIE"), "late_evidence": N_("LATE"),
                "early": N_("early")}


def print_disputes(box: Box) -> None:
    """Every press with its stamp, and every decision with who was how far
    behind: what settles "I was first!" after the fact."""
    tags = {kind: _(tag) for kind, tag in DISPUTE_TAGS.items()}
    width = max(map(len, tags.values()))

    def name(station: int) -> str:
        return box._name(station) if station >= 0 else _("host")

    def press_line(p: Press, first: tuple[int, int] | None) -> str:
        line = _("{player} {input} (stamped to ±{us} µs, {edges})").format(
            player=name(p.station), input=word(p.input), us=p.precision_us,
            edges=ngettext("{n} edge", "{n} edges", p.edges).format(n=p.edges))
        if first is not None and p.station != first[0] and p.t_us >= first[1]:
            line += _("; {margin} behind {first}, who was first").format(
                margin=format_margin(p.t_us - first[1]), first=name(first[0]))
        return line

    timeline: list[tuple[int, int, Press | GameEvent]] = [(p.t_us, 0, p) for p in box.press_log]
    timeline += [(e.t_us, 1, e) for e in box.event_log]
    first: tuple[int, int] | None = None  # the announced winner and their press's stamp
    for t_us, _order, item in sorted(timeline, key=lambda x: (x[0], x[1])):
        kind = "press" if isinstance(item, Press) else item.kind
        if isinstance(item, Press):
            text = press_line(item, first)
        elif item.kind == EventKind.WINNER:
            who = name(item.player if item.player is not None else -1)
            queue = item.data.get("queue", [])
            margins = item.data.get("margins_us", [])
            behind = ", ".join(f"{name(s)} {format_margin(m)}" for s, m in zip(queue, margins, strict=False))
            text = who + (_("; then {behind}").format(behind=behind) if behind else "")
            stamps = [p.t_us for p in box.press_log if p.station == item.player and p.t_us <= item.t_us]
            first = (item.player, max(stamps)) if item.player is not None and stamps else None
        elif item.kind == EventKind.TIE:
            text = _("{players} (closer than the stamps can tell)").format(
                players=" = ".join(name(s) for s in item.data.get("stations", [])))
        elif item.kind == EventKind.LATE_EVIDENCE:
            text = _("{player}'s press stamped {pressed} s reached the box after the decision ({ms} ms before it "
                     "was made): not counted").format(
                player=name(item.player if item.player is not None else -1),
                pressed=format_number(item.data.get("pressed_us", 0) / 1e6, 6),
                ms=format_number(item.data.get("behind_us", 0) / 1000, 3))
        elif item.kind == EventKind.EARLY:
            text = _("{player} pressed before it was allowed").format(
                player=name(item.player if item.player is not None else -1))
        else:
            if item.kind in (EventKind.ROUND_OVER, EventKind.GAME_OVER):
                first = None  # later presses belong to the next contest
            continue
        print(f"  {format_number(t_us / 1e6, 6):>12} s  {tags[kind].ljust(width)}  {text}")


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a journaled simulated game after a crash or power cut (live
    games resume through ``play --resume``: they need their stations)."""
    not_a_scenario(args.file)
    journal, box = resume_for_simulate(args.file)
    writer = box.journal
    assert writer is not None
    print(_("resuming {title} from {file}: {records} replayed").format(
        title=_(box.spec.title), file=args.file,
        records=ngettext("{n} record", "{n} records", len(journal.records)).format(n=len(journal.records)))
          + (_(" (a torn last line was cut off)") if journal.torn_tail else ""), file=sys.stderr)
    spec, settings = box.spec, box.settings
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed + 1)
    session.now_us = box.now_us
    try:
        session.run_virtual(None if args.seconds is None else box.now_us + int(args.seconds * 1e6))
    finally:
        box.end(session.now_us)
    if args.json:
        print_json(box.summary(), box.station_names)
    else:
        print(_("finished: {scores}").format(scores=box_session.scores_line(box.station_names, box.summary())))
    return 0
