"""Screens of a video question as the presenter draws them (the demo video
round, shown, playing and paused on the buzz), as PNGs to look at:

    .venv/bin/python tools/video_screens.py 1280x720 cs [--no-decoder] [--out /tmp]

``--no-decoder`` draws the placeholder a box without PyAV shows. The clip's
clock is fixed (2.4 s in), so the pictures change only when the drawing does.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame  # noqa: E402
from screenshots import session  # noqa: E402

import controller.screen.video as video  # noqa: E402
from controller.screen.loop import Presenter, draw_box, react_box  # noqa: E402
from controller.screen.screen import Screen  # noqa: E402
from games.i18n import set_language  # noqa: E402
from games.quiz.options import PACKS_DIR  # noqa: E402
from games.scenes import scene_for  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", help="WIDTHxHEIGHT")
    parser.add_argument("language", choices=("en", "cs", "pl"))
    parser.add_argument("--no-decoder", action="store_true", help="as a box without PyAV draws it")
    parser.add_argument("--out", default=".", help="the folder for the PNGs")
    args = parser.parse_args()
    size = (int(args.size.split("x")[0]), int(args.size.split("x")[1]))
    set_language(args.language)
    if args.no_decoder:
        video.missing_decoder = lambda: True
    presenter = Presenter(Screen.open(headless=True, size=size), scene_for("quiz"))
    presenter.video_screen.clock = lambda: 2.4
    s = session("quiz", 4, pack=str(PACKS_DIR / "en-video.csv"))
    wanted = {"shown": lambda v: v["phase"] == "idle" and bool((v.get("ask") or {}).get("video")),
              "playing": lambda v: v["phase"] == "armed", "paused": lambda v: v["phase"] == "answering"}
    while s.now_us < 200_000_000 and wanted:
        due = s.next_time_us()
        if due is None:
            break
        react_box(presenter, s.box, s.step(max(due, s.now_us)), s.now_us)
        view = s.box.engine.public_view()
        for name, want in list(wanted.items()):
            if want(view):
                del wanted[name]
                surface = pygame.Surface(size)
                draw_box(presenter, s.box, s.now_us, surface)
                out = Path(args.out) / f"video-{name}-{args.language}-{size[0]}{'-no-decoder' if args.no_decoder else ''}.png"
                pygame.image.save(surface, str(out))
                print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
