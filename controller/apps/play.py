"""``buzzerbox play``: real stations, the game's scene (or a headless screen),
lights, sound and a journal of every press; ``--resume`` carries on a
journaled game after a crash or power cut."""

from __future__ import annotations

import argparse
import json
import sys
import time

from controller import live
from controller import profile as profile_mod
from controller.apps.common import options_from, spec_named
from controller.sources.keyboard import KeyboardSource


def cmd_play(args: argparse.Namespace) -> int:
    spec = spec_named(args.game)
    prof = profile_mod.load(args.profile)
    names = [s.name for s in prof.stations]
    if args.resume:
        box, _journal = live.resumed_box(args.resume, prof, spec.name)
        path = args.resume
    else:
        seed = args.seed if args.seed is not None else live.new_seed()
        settings = spec.settings(len(prof.stations), seed, **options_from(args.option))
        path = args.journal or time.strftime("journal-%Y%m%d-%H%M%S.jsonl")
        box = live.new_box(spec, settings, prof, path, station_names=names)
    try:
        source = live.open_inputs(prof, box)
    except live.SourceError:
        if box.journal is not None:  # a game that never started: its journal says so (nothing to resume)
            box._write({"type": "end", "t_us": box.now_us})
            box.journal.close()
        raise
    live.connect(box, source, prof)
    headless = live.is_headless(args)
    _names, colors = live.names_colors(prof, len(prof.stations))
    presenter = live.presenter_for(box, live.open_screen(args, headless), lights=live.open_lights(prof, source),
                                   sound=live.open_sound(args, headless), colors=colors)
    game = live.LiveGame(box, presenter, source)
    live.start_companion(game, args.web)
    print(f"{box.spec.title} on {prof.name}: {source.describe()}; journal {path}; "
          f"{'headless' if headless else 'on screen'}; Ctrl+C or Esc to stop", file=sys.stderr)
    result = game.run(realtime=True, seconds=args.seconds, fps=15 if headless else 60,
                      keyboard=None if headless else KeyboardSource(len(prof.stations)))
    print(game.summary_line(result), file=sys.stderr)
    print(json.dumps(box.summary(), indent=2, sort_keys=True))
    return 0
