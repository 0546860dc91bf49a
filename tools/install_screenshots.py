"""The screens a new box shows on the way from its first start to the menu,
as PNGs for docs/install.md (docs/img/install/):

    python tools/install_screenshots.py                 # docs/img/install/*.png, 1280x720, English
    python tools/install_screenshots.py --lang cs --out /tmp/cs

Each picture is drawn by the scene the box draws (controller/apps/first_run.py,
the menu's), from the view that step has at that moment: a person choosing
the language, the wiring, typing the names, half the stations pressed, the
phones' address (an example LAN address: the box shows its own), the menu,
and the menu after "Copy results to USB stick" (a real copy to a stick made
in a temporary folder). Run it after changing one of those screens. The
PNGs are made small with pngquant (256 colours: the screens are flat UI) and
optipng when they are installed (``apt install pngquant optipng``)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from controller.apps import first_run  # noqa: E402
from controller.apps.usb_copy import copy_results  # noqa: E402
from controller.box.monitor import (
    InputMonitor,  # noqa: E402
    RollCall,  # noqa: E402
)
from controller.screen.menu import Menu, MenuScene, NameEditor  # noqa: E402
from games.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, set_language  # noqa: E402
from games.registry import available, get  # noqa: E402
from games.toolkit.scene import freeze  # noqa: E402

#: the names a host might type (Czech and Polish letters among them)
NAMES = ["Anna", "Bořek", "Łucja", "Dan"]
#: an address as a home router hands one out (the box shows its own)
EXAMPLE_URL = "http://192.168.1.20:8080/play"


def menu() -> Menu:
    """The menu as ``buzzerbox menu`` builds it: every game with a scene, the jobs' rows."""
    games = [(name, get(name).title, get(name).min_players, get(name).max_players)
             for name in available() if get(name).scene]
    return Menu(games, 4, names=NAMES, jobs=True)


def shots() -> list[tuple[str, Callable[[pygame.Surface], None]]]:
    def language(surface: pygame.Surface) -> None:
        first_run.ChoiceScene().draw(surface, freeze({
            "step": "language", "question": _("Which language should the box speak?"),
            "rows": [LANGUAGE_NAMES[c] for c in LANGUAGES], "selected": 0,
            "note": _("Every screen and the phones' pages speak it; the menu's Language row changes it later.")}), [], 0)

    def wiring(surface: pygame.Surface) -> None:
        choices = first_run.wiring_choices(4)
        at = next(k for k, w in enumerate(choices) if w.profile == "header-4")
        first_run.ChoiceScene().draw(surface, freeze({
            "step": "wiring", "question": _(N_("How are the buttons connected?")), "rows": [w.label for w in choices],
            "selected": at, "note": choices[at].detail}), [], 0)

    def names(surface: pygame.Surface) -> None:
        editor = NameEditor(NAMES[:2], 4)
        editor.selected = 2
        editor.text("Łuc")
        first_run.SetupNamesScene().draw(surface, freeze(editor.view()), [], 0)

    def test_press(surface: pygame.Surface) -> None:
        stations = ["Red", "Blue", "Green", "Yellow"]
        monitor = InputMonitor([(name, ["bell"]) for name in stations])
        call = RollCall([(i, "bell", name) for i, name in enumerate(stations)])
        call.press(0)
        call.press(1)
        first_run.TestPressScene().draw(surface, freeze(call.view()), call.strip(monitor.strip()), 0)

    def phones(surface: pygame.Surface) -> None:
        first_run.PhonesScene().draw(surface, freeze({"url": EXAMPLE_URL}), [], 0)

    def the_menu(surface: pygame.Surface) -> None:
        MenuScene().draw(surface, freeze(menu().view()), [], 0)

    def usb(surface: pygame.Surface) -> None:
        m = menu()
        m.selected = next(k for k, it in enumerate(m.items) if it.key == "usb")
        with tempfile.TemporaryDirectory() as tmp:
            journals, stick = Path(tmp, "journals"), Path(tmp, "media", "pi", "QUIZ-STICK")
            journals.mkdir()
            stick.mkdir(parents=True)
            for name in ("quiz-20261205-201500.jsonl", "quiz-20261205-201500.jsonl.results.csv",
                         "quiz-20261205-201500.jsonl.results.json", "quiz-20261205-201500.jsonl.standings.csv",
                         "reaction-20261205-213000.jsonl"):
                Path(journals, name).write_text("{}\n", encoding="utf-8")
            m.notice = list(copy_results(journals, [Path(tmp, "media")]).lines)
        MenuScene().draw(surface, freeze(m.view()), [], 0)

    return [("first-run-language.png", language), ("first-run-wiring.png", wiring),
            ("first-run-rollcall.png", names), ("first-run-test-press.png", test_press),
            ("first-run-phones.png", phones), ("menu.png", the_menu), ("usb-copy.png", usb)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Draw the first start's screens and the menu (docs/img/install/).")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "img" / "install"))
    ap.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    ap.add_argument("--lang", default="en", choices=LANGUAGES)
    args = ap.parse_args(argv)
    set_language(args.lang)
    w, h = (int(x) for x in args.size.lower().split("x"))
    pygame.display.init()
    pygame.font.init()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in shots():
        surface = pygame.Surface((w, h))
        draw(surface)
        pygame.image.save(surface, str(out / name))
        optimise(out / name)
        print(out / name, (out / name).stat().st_size)
    return 0


def optimise(path: Path) -> None:
    """The PNG in 256 colours and recompressed, when the tools are there (said once when not)."""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--quality", "85-100", "--strip",
                        "--output", str(path), str(path)], check=False)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o5", "-strip", "all", str(path)], check=False)
    elif not getattr(optimise, "said", False):
        print("optipng not installed: the PNGs are left as pygame saved them", file=sys.stderr)
        optimise.said = True  # type: ignore[attr-defined]


if __name__ == "__main__":
    raise SystemExit(main())
