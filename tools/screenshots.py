"""Every screen the box shows, as PNGs: the pictures in docs/screens/.

    python tools/screenshots.py                    # docs/screens/*.png at 1920x1080
    python tools/screenshots.py --size 1280x720 --out /tmp/screens-720

Each picture is a real game played by the simulated players (fixed seeds, so
the pictures change only when a scene does) and stopped at the moment worth
showing; the station names are the ones a menu would give. Run it after
changing any scene and commit the PNGs with the change.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from controller.box.monitor import InputMonitor  # noqa: E402
from controller.box.press import Edge  # noqa: E402
from controller.box.runtime import Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from controller.screen.diag import DiagScene  # noqa: E402
from controller.screen.keyboard import KeyboardSource  # noqa: E402
from controller.screen.loop import keyboard_help  # noqa: E402
from controller.screen.menu import Menu, MenuScene  # noqa: E402
from games.i18n import current_language, set_language  # noqa: E402
from games.quiz.options import BOWL_NIGHT  # noqa: E402
from games.registry import get  # noqa: E402
from games.scenes import scene_for
from games.toolkit import theme  # noqa: E402
from games.toolkit.results import ResultsScene  # noqa: E402
from games.toolkit.results_words import results_drawn  # noqa: E402
from games.toolkit.scene import Scene, TitleScene, freeze  # noqa: E402

#: names as the menu would hand them on (some long, some with Czech and Polish letters)
NAMES = ["Anna", "Bořek", "Łucja", "Dan", "Eliška", "Filip", "Gosia", "Hynek",
         "Ivo", "Jana", "Kuba", "Lenka", "Marek", "Nela", "Ola", "Petr"]

View = dict[str, Any]


def session(game: str, players: int, seed: int = 3, **options: Any) -> Session:
    spec = get(game)
    settings = spec.settings(players, seed, **{**spec.demo_options, **options})
    return Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), seed)


def until(s: Session, want: Callable[[View], bool], limit_us: int = 900_000_000) -> None:
    while s.now_us < limit_us and not want(s.box.engine.public_view()):
        nxt = s.next_time_us()
        if nxt is None:
            break
        s.step(max(nxt, s.now_us))


def strip(s: Session) -> list[dict[str, Any]]:
    return [{**c, "name": NAMES[i]} for i, c in enumerate(s.box.strip())]


def game_frame(game: str, s: Session, surface: pygame.Surface, later_us: int = 0) -> None:
    scene: Scene = scene_for(game)
    if results_drawn(s.box.engine.finished, scene.own_results):
        scene = ResultsScene(game_title=scene.title)
    if s.box.engine.finished:  # the end screen's celebration, 1.2 s in: the podium up, confetti falling
        recording = theme.DRAWN, theme.INKED
        theme.DRAWN = theme.INKED = None  # the first frame only starts the clock: the tests measure the picture
        try:
            scene.draw(pygame.Surface(surface.get_size()), freeze(s.box.engine.public_view()), strip(s), s.now_us)
        finally:
            theme.DRAWN, theme.INKED = recording
        later_us += 1_200_000
    scene.draw(surface, freeze(s.box.engine.public_view()), strip(s), s.now_us + later_us)


def shots() -> list[tuple[str, Callable[[pygame.Surface], None]]]:
    """(file name, draw) for every screen worth a picture."""
    out: list[tuple[str, Callable[[pygame.Surface], None]]] = []

    def game(name: str, game_name: str, players: int, want: Callable[[View], bool], later_us: int = 0,
             seed: int = 3, **opts: Any) -> None:
        def draw(surface: pygame.Surface) -> None:
            s = session(game_name, players, seed, **opts)
            until(s, want)
            game_frame(game_name, s, surface, later_us)
        out.append((name, draw))

    def title(surface: pygame.Surface) -> None:
        s = session("quiz", 6)
        TitleScene(get("quiz").title).draw(surface, freeze(s.box.engine.public_view()), strip(s), 0)

    def help_overlay(surface: pygame.Surface) -> None:
        s = session("quiz", 6)
        until(s, lambda v: v["phase"] == "armed")
        game_frame("quiz", s, surface)
        keyboard = KeyboardSource(6)
        keyboard.add_host_keys(get("quiz").host_keys)
        keyboard_help(s.box.spec, keyboard, s.box.engine.public_view()).draw(surface)

    out.append(("title.png", title))
    game("quiz-idle.png", "quiz", 6, lambda v: v["phase"] == "idle")
    game("quiz-armed.png", "quiz", 6, lambda v: v["phase"] == "armed")
    game("quiz-answering.png", "quiz", 8, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 2)
    game("quiz-judged.png", "quiz", 8, lambda v: v["phase"] == "round_over" and len(v["margins_us"]) >= 3)
    game("quiz-results.png", "quiz", 6, lambda v: v["finished"], questions=4)
    # a quiz night with a question pack (the Czech pack for the Czech pictures)
    pack = "cs-general" if current_language() == "cs" else "en-general"
    game("quiz-question.png", "quiz", 6, lambda v: v["phase"] == "armed" and v["question"] >= 2, pack=pack)
    game("quiz-buzzed.png", "quiz", 8, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 2, pack=pack)
    game("quiz-reveal.png", "quiz", 6, lambda v: v["phase"] == "round_over" and v["revealed"] and v["results"][-1]["winner"] is not None,
         pack=pack)
    game("quiz-leaderboard.png", "quiz", 8, lambda v: v["board"] and not v["finished"], pack=pack, round_questions=5)
    game("quiz-podium.png", "quiz", 8, lambda v: v["finished"], pack=pack, questions=None)
    # an all-play round: who has locked in (never what), then the room's answers and everyone's points
    all_play = {"pack": pack, "rounds": [{"rules": "all-play", "questions": 3}], "answer_time_us": 20_000_000}
    game("quiz-allplay-answering.png", "quiz", 8,
         lambda v: bool(v["all_play"]) and v["all_play"]["open"] and v["all_play"]["locked_count"] >= 3, **all_play)
    game("quiz-allplay-reveal.png", "quiz", 8,
         lambda v: bool(v["all_play"]) and not v["all_play"]["open"] and v["question"] >= 2, **all_play)
    def long_question(surface: pygame.Surface) -> None:
        """A question at the pack's length limit with six choices, 16 stations:
        every word and every choice shown whole, the buzzers' story below."""
        from games.quiz.packs import MAX_QUESTION_CHARS

        s = session("quiz", 16, pack=pack)
        until(s, lambda v: v["phase"] == "armed")
        view = dict(s.box.engine.public_view())
        words = ("Which of these crews, launched between the first satellite and the end of the Apollo programme, "
                 "spent the longest time in space on a single mission, counting from the launch to the landing, "
                 "and which of them also made the first docking of two crewed spacecraft, a record that stood "
                 "for years?")[:MAX_QUESTION_CHARS]
        view["ask"] = {**view["ask"], "text": words, "choices": [
            "Vostok 1 with a single pilot", "Gemini 7, two astronauts for two weeks", "Soyuz 4 and Soyuz 5",
            "Apollo 7, the first crewed Apollo flight", "Skylab 4 with its three-month stay", "Voskhod 2"]}
        scene_for("quiz").draw(surface, freeze(view), strip(s)[:16], s.now_us)

    out.append(("quiz-long-question.png", long_question))
    out.append(("help.png", help_overlay))
    game("reaction-wait.png", "reaction", 6, lambda v: v["phase"] == "wait" and bool(v["false_starts"]))
    game("reaction-go.png", "reaction", 6, lambda v: v["phase"] == "go")
    game("reaction-result.png", "reaction", 6, lambda v: v["phase"] == "result" and v["round"] >= 3)
    game("results.png", "reaction", 6, lambda v: v["finished"], rounds=5)
    game("schicki-micki.png", "schicki-micki", 7, lambda v: v["phase"] == "window" and len(v["table"]) >= 3)
    game("schicki-micki-resolution.png", "schicki-micki", 7,
         lambda v: v["phase"] == "waiting" and bool(v["last_resolution"]) and len(v["last_resolution"]["outcomes"]) >= 4)
    game("schicki-micki-over.png", "schicki-micki", 5, lambda v: v["phase"] == "over", later_us=1_000_000)
    game("viva-topo.png", "viva-topo", 4, lambda v: v["phase"] == "move" and v["turn_count"] > 8)
    game("viva-topo-late.png", "viva-topo", 4, lambda v: v["phase"] == "move" and v["turn_count"] > 40, later_us=200_000)
    game("viva-topo-over.png", "viva-topo", 4, lambda v: v["phase"] == "over", later_us=500_000)

    # the table games: mid-game and their moments
    game("fiki-miki.png", "fiki-miki", 5, lambda v: v["phase"] != "over" and bool(v.get("last_race"))
         and sum(len(st["cards"]) for st in v.get("stacks", ())) >= 8)
    game("fiki-miki-over.png", "fiki-miki", 4, lambda v: v["phase"] == "over")
    game("piepmatz.png", "piepmatz", 4, lambda v: v["phase"] == "play" and int(v["turns"]) >= 6
         and any(v["pests"]) and any(v["collections"]))
    game("piepmatz-over.png", "piepmatz", 4, lambda v: v["phase"] == "over")
    game("pictomania.png", "pictomania", 6, lambda v: v["phase"] == "drawing" and sum(v["guesses_on"]) >= 4)
    game("pictomania-reveal.png", "pictomania", 6, lambda v: v["phase"] == "revealed")
    game("pictomania-over.png", "pictomania", 5, lambda v: v["phase"] == "over")

    def menu(surface: pygame.Surface) -> None:
        m = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
        MenuScene().draw(surface, freeze(m.view()), [], 0)

    def diag(surface: pygame.Surface) -> None:
        mon = InputMonitor([(NAMES[i], ["bell", "a"]) for i in range(4)])
        for k in range(4):
            mon.edge(Edge(1, "bell", 0, k * 100_000), 1)
            mon.edge(Edge(1, "bell", 1, k * 100_000 + 200), 1)
            mon.step(k * 100_000 + 50_000)
        DiagScene().draw(surface, freeze(mon.view()), mon.strip(), mon.now_us)

    def menu_option(surface: pygame.Surface) -> None:  # an option highlighted: its value in full, its other choices
        m = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
        m.selected = next(k for k, it in enumerate(m.items) if it.key == "rules")
        MenuScene().draw(surface, freeze(m.view()), [], 0)

    def menu_bowl_night(surface: pygame.Surface) -> None:  # the bowl night with a pack: tossups only, said beside
        m = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
        m.set_option("rounds", BOWL_NIGHT)
        m.selected = next(k for k, it in enumerate(m.items) if it.key == "rounds")
        MenuScene().draw(surface, freeze(m.view()), [], 0)

    out.append(("menu.png", menu))
    out.append(("menu-option.png", menu_option))
    out.append(("menu-bowl-night.png", menu_bowl_night))
    out.append(("diag.png", diag))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Regenerate the screen pictures (docs/screens/).")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "screens"))
    ap.add_argument("--size", default="1920x1080", help="WIDTHxHEIGHT (default 1920x1080)")
    ap.add_argument("--only", default="", help="only pictures whose name contains this")
    ap.add_argument("--lang", default="en", help="the screens' language; other than en, files are named LANG-NAME.png")
    args = ap.parse_args(argv)
    set_language(args.lang)
    prefix = "" if args.lang == "en" else f"{args.lang}-"
    w, h = (int(x) for x in args.size.lower().split("x"))
    pygame.display.init()
    pygame.font.init()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in shots():
        if args.only and args.only not in name:
            continue
        surface = pygame.Surface((w, h))
        draw(surface)
        pygame.image.save(surface, str(out / (prefix + name)))
        print(out / (prefix + name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
