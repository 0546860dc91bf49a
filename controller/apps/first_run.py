"""The box's first start, on the TV: a walk-through a person who has never
used a terminal can follow with a keyboard (or a presenter's arrows):
the language, which wiring the box has, the players' names, a test press
per station, the phones' address; then the menu.

It is shown once: a marker in the data folder (``first-run.json``, beside
the journals' folder) says it was done and keeps what was chosen (the
language and the wiring profile the menu then starts with); the evening's
deciding process writes it (``SaveSetup``), as it writes the names. The menu's
"Set up again" row and ``buzzerbox menu --first-run`` show it again. A box
that already has journals (one set up before this existed) is taken as set
up. ``BUZZERBOX_FIRST_RUN=off`` in the environment skips it and its saved
choices: the command line alone says how the box runs (test machines)."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.monitor import InputMonitor
from controller.box.timeline import box_now_us
from controller.protocol import SaveNames, SaveSetup
from controller.screen.evening import EveningLink, EveningStations
from controller.screen.keyboard import KeyboardSource
from controller.screen.menu import (
    NameEditor,
    NamesScene,
    RollCallScene,
    menu_rows,
    row_panel,
    run_name_editor,
    run_roll_call,
    stacked,
)
from controller.screen.phones_panel import qr_surface
from controller.screen.screen import Screen
from controller.web import lan_address
from controller.web.seats import join_url
from games.base import BuzzerBoxError
from games.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language, ngettext, set_language
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View, freeze
from games.toolkit.theme import Layout, draw_text, draw_wrapped

log = logging.getLogger("buzzerbox")

#: the marker and the choices it keeps, in the box's data folder
MARKER = session.SETUP_FILE
#: ``off``: never shown, its saved choices not read (a test machine's command line says everything)
ENV = "BUZZERBOX_FIRST_RUN"
#: the walk-through's steps, in order (the screens' "step n of 5")
STEPS = ("language", "wiring", "names", "test", "phones")


@dataclass(frozen=True)
class Setup:
    """What the first start chose: the screens' language and the wiring
    profile (a shipped profile's name or a file's path; None: keyboard stations)."""

    language: str | None = None
    profile: str | None = None


def marker_path() -> Path:
    """``$XDG_DATA_HOME/buzzerbox/first-run.json`` (beside the journals' folder)."""
    return session.setup_path()


def off() -> bool:
    return os.environ.get(ENV, "").strip().lower() == "off"


def saved() -> Setup | None:
    """The choices of the first start (None: never done, or ``BUZZERBOX_FIRST_RUN=off``)."""
    if off():
        return None
    try:
        data = json.loads(marker_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    language = data.get("language")
    profile = data.get("profile")
    return Setup(language if language in LANGUAGES else None, profile if isinstance(profile, str) and profile else None)


def wanted(asked: bool, journals: Path) -> bool:
    """Whether the menu starts with the walk-through: asked for, or never
    done on a box that has played no game yet (in ``journals``)."""
    if asked:
        return True
    if off() or marker_path().exists():
        return False
    try:
        return not any(journals.glob("*.jsonl"))
    except OSError:
        return True


def save(setup: Setup, stations: Callable[[str | None], EveningLink]) -> None:
    """The marker, with the choices, kept by the evening's deciding process on
    the chosen wiring (it owns the language and the wiring as it owns the
    names; keyboard stations' if that wiring will not open); not kept (a
    read-only card) is one line in the log and the walk-through next start."""
    for wiring in dict.fromkeys((setup.profile, None)):
        try:
            answer = stations(wiring).ask(SaveSetup(setup.language, setup.profile))
        except BuzzerBoxError as exc:
            log.warning("the first start's choices were not kept on %s: %s", wiring or "keyboard stations", exc)
            continue
        if not answer.accepted:
            log.warning("the first start's choices were not kept: %s", "; ".join(answer.lines))
        return


# -- the wiring choices -------------------------------------------------------------------


@dataclass(frozen=True)
class Wiring:
    """One answer to "which wiring does this box have": a profile (None: keyboard stations)."""

    profile: str | None
    label: str
    detail: str
    stations: int


def wiring_choices(keyboard_players: int) -> list[Wiring]:
    """The shipped profiles wired to the Pi's own pins, then the input board
    ("I have the input board"), then keyboard stations (no buttons yet)."""
    header: list[Wiring] = []
    board: list[Wiring] = []
    for name in profile_mod.shipped_names():
        try:
            prof = profile_mod.load(name)
        except BuzzerBoxError:
            continue
        n = len(prof.stations)
        if prof.source == "board":
            board.append(Wiring(name, _("I have the input board"), ngettext(
                "The buzzer box's input board on the USB port, {n} station ({name}).",
                "The buzzer box's input board on the USB port, {n} stations ({name}).", n).format(n=n, name=name), n))
        else:
            header.append(Wiring(name, name, ngettext(
                "{n} station wired to the Raspberry Pi's pins as wiring/{name}.toml says.",
                "{n} stations wired to the Raspberry Pi's pins as wiring/{name}.toml says.", n).format(n=n, name=name), n))
    if len(board) > 1:  # each board profile says which it is
        board = [Wiring(w.profile, f"{w.label} ({w.profile})", w.detail, w.stations) for w in board]
    keyboard = Wiring(None, _("No buttons yet: keyboard stations"), ngettext(
        "Play with the keyboard's number keys for now: {n} station (1).",
        "Play with the keyboard's number keys for now: {n} stations (1 to {n}).", keyboard_players).format(
        n=keyboard_players), keyboard_players)
    return [*header, *board, keyboard]


# -- the screens ---------------------------------------------------------------------------


def step_title(step: str) -> str:
    """The header's left side: which step of how many."""
    return _("Setting up · step {n} of {total}").format(n=STEPS.index(step) + 1, total=len(STEPS))


class ChoiceScene(Scene):
    """A step that asks one question: rows to choose from, a line under them."""

    title = N_("Setting up")

    def header(self, view: View) -> tuple[str, str]:
        hint = _("up/down: choose · Enter: next · Esc: set up later") if view.get("step") == STEPS[0] else \
            _("up/down: choose · Enter: next · Esc: back")
        return step_title(str(view.get("step"))), hint

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        question = pygame.Rect(area.left, area.top + lay.pad, area.width, lay.size(2) + 2 * lay.pad)
        draw_text(surface, str(view.get("question", "")), lay.size(1.6), theme.FG, question.inflate(-4 * lay.pad, 0),
                  min_size=lay.min_text)
        note_h = 3 * theme.line_height(lay.min_text)
        note = pygame.Rect(area.left, area.bottom - note_h - lay.pad, area.width, note_h)
        rows = list(view.get("rows", ()))
        rows_area = pygame.Rect(area.left, question.bottom + lay.pad, area.width, note.top - question.bottom - 2 * lay.pad)
        for k, (label, r) in enumerate(zip(rows, menu_rows(rows_area, lay, len(rows), 0.6), strict=True)):
            ink = row_panel(surface, r, k == view.get("selected"))
            draw_text(surface, str(label), lay.size(1.1), ink, r.inflate(-4 * lay.pad, 0), min_size=lay.min_text)
        draw_wrapped(surface, str(view.get("note", "")), lay.min_text, theme.MUTED, note.inflate(-8 * lay.pad, 0),
                     max_lines=3)


class SetupNamesScene(NamesScene):
    """The names editor, as a step of the walk-through."""

    def header(self, view: View) -> tuple[str, str]:
        return step_title("names"), _("type a name · ↑ ↓: player · Enter: next step")


class TestPressScene(RollCallScene):
    """The roll call, as the walk-through's test: each station lights when pressed."""

    def header(self, view: View) -> tuple[str, str]:
        return step_title("test"), _("Enter: next step")

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        top = pygame.Rect(area.left, area.top, area.width, area.height // 2)
        draw_text(surface, _("Test: press each station's button once"), lay.size(2), theme.FG, top, min_size=lay.min_text)
        missing = list(view.get("missing", ()))
        text = _("Still to press: {names}").format(names=", ".join(missing)) if missing else \
            _("Every station works! Enter: next step.")
        said = pygame.Rect(area.left, top.bottom, area.width, lay.size(1.6))
        draw_text(surface, text, lay.size(1.3), theme.FG if missing else theme.STATUS_COLORS["first"],
                  said.inflate(-4 * lay.pad, 0), min_size=lay.min_text)
        how = pygame.Rect(area.left, said.bottom + lay.pad, area.width, area.bottom - said.bottom - lay.pad)
        draw_wrapped(surface, _("A station's box below lights up when it is pressed, and so does its lamp if it has one."),
                     lay.min_text, theme.MUTED, how.inflate(-8 * lay.pad, 0), max_lines=2)


class PhonesScene(Scene):
    """The last step: where phones go, as a QR code and an address."""

    title = N_("Setting up")

    def header(self, view: View) -> tuple[str, str]:
        return step_title("phones"), _("Enter: to the menu · Esc: back")

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        url = str(view.get("url", ""))
        side = min(area.height - 4 * lay.pad, area.width // 3)
        code = qr_surface(url, side)
        at = pygame.Rect(area.right - code.get_width() - 4 * lay.pad, area.centery - code.get_height() // 2,
                         code.get_width(), code.get_height())
        surface.blit(code, at)
        text = pygame.Rect(area.left + 4 * lay.pad, area.top + 2 * lay.pad, at.left - area.left - 8 * lay.pad,
                           area.height - 4 * lay.pad)
        head = pygame.Rect(text.left, text.top, text.width, lay.size(1.8))
        draw_text(surface, _("Phones join here"), lay.size(1.6), theme.FG, head, align="left", min_size=lay.min_text)
        addr = pygame.Rect(text.left, head.bottom + lay.pad, text.width, lay.size(1.6))
        theme.draw_fitted(surface, url, lay.size(1.3), theme.STATUS_COLORS["first"], addr, lay.min_text, align="left")
        rest = pygame.Rect(text.left, addr.bottom + 3 * lay.pad, text.width, text.bottom - addr.bottom - 3 * lay.pad)
        stacked(surface, [_("Players scan the code with a phone on the same Wi-Fi as the box, or type the address."),
                          _("Phones are off until the menu's Phones row is turned on, or a game that needs them starts."),
                          _("The host's page is the same address with /host at the end.")],
                lay.min_text, [theme.FG, theme.MUTED, theme.MUTED], rest)


# -- the walk-through ----------------------------------------------------------------------


Keys = dict[int, str]
#: the keys of a choosing step
CHOOSING: Keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "up", pygame.K_RIGHT: "down",
                  pygame.K_RETURN: "next", pygame.K_KP_ENTER: "next", pygame.K_SPACE: "next", pygame.K_ESCAPE: "back"}


def show(screen: Screen, scene: Scene, view: Callable[[], dict[str, Any]], on_key: Callable[[str], bool],
         *, fps: int = 30, clock: Callable[[], int] = box_now_us) -> str:
    """One step's screen until a key ends it: ``on_key`` gets each action
    and says whether the step is over; returns the last action ("closed"
    for a closed window)."""
    frame_clock = pygame.time.Clock()
    while True:
        t = clock()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return "closed"
            if event.type == pygame.VIDEORESIZE:
                screen.resized(event.size)
            if event.type == pygame.KEYDOWN and event.key in CHOOSING and on_key(CHOOSING[event.key]):
                return CHOOSING[event.key]
        scene.draw(screen.surface, freeze(view()), [], t)
        screen.flip()
        frame_clock.tick(fps)


def choose(screen: Screen, step: str, question: str, rows: Sequence[str], notes: Sequence[str], selected: int,
           on_move: Callable[[int], None] | None = None) -> int | None:
    """A choosing step: the row chosen with Enter, None for Esc (back) or a closed window."""
    at = [selected]

    def key(action: str) -> bool:
        if action in ("up", "down"):
            at[0] = (at[0] + (1 if action == "down" else -1)) % len(rows)
            if on_move is not None:
                on_move(at[0])
        return action in ("next", "back")

    ended = show(screen, ChoiceScene(), lambda: {
        "step": step, "question": _(question), "rows": list(rows), "selected": at[0], "note": notes[at[0]]}, key)
    return at[0] if ended == "next" else None


def test_press(screen: Screen, wiring: Wiring, names: Sequence[str],
               stations: Callable[[str | None], EveningLink]) -> None:
    """Each station presses once: its strip box ticks and its light comes on;
    keyboard stations' keys work here as in the games. A profile's inputs and
    lamps are the evening's deciding process's (``stations``: it, on this
    wiring), as the menu's are: this process opens none (docs/processes.md)."""
    prof = profile_mod.load(wiring.profile) if wiring.profile is not None else None
    shown = [names[i].strip() if i < len(names) and names[i].strip() else (
        prof.stations[i].name if prof is not None else _("Player {n}").format(n=i + 1)) for i in range(wiring.stations)]
    link: EveningLink | None = None
    monitor: InputMonitor | EveningStations
    try:
        if prof is not None:
            link = stations(wiring.profile)
            monitor = EveningStations(link, box_now_us())
            link.press_lamps(True)  # a station's press lights its lamp, in the process that holds them
            expected = [(station, inp, shown[station]) for station, inp, _name in prof.roll_call()]
        else:
            monitor = InputMonitor([(name, ["bell"]) for name in shown])
            expected = [(i, "bell", name) for i, name in enumerate(shown)]
        run_roll_call(screen, monitor, expected, keyboard=KeyboardSource(wiring.stations), scene=TestPressScene(),
                      linger_us=None)
    except BuzzerBoxError as exc:  # inputs that will not open: said, and the walk-through goes on
        log.warning("test press skipped: %s", exc)
    finally:
        if link is not None:
            link.press_lamps(False)


def phones(screen: Screen, port: int) -> str:
    """The phones' address and its QR code; "next" (Enter) or "back"."""
    url = join_url(f"http://{lan_address()}:{port}")
    return show(screen, PhonesScene(), lambda: {"url": url}, lambda action: action in ("next", "back"))


def keep_names(stations: Callable[[str | None], EveningLink], profile: str | None, typed: Sequence[str]) -> None:
    """The names typed here kept by the evening's deciding process on this
    wiring (it owns the names file); not kept (its inputs would not open, the
    card refused them) is one line in the log: they hold for this session."""
    try:
        answer = stations(profile).ask(SaveNames(tuple(typed)))
    except BuzzerBoxError as exc:
        log.warning("the players' names were not kept: %s", exc)
        return
    if not answer.accepted:
        log.warning("the players' names were not kept: %s", "; ".join(answer.lines))


def run_first_run(screen: Screen, *, profile: str | None, players: int, port: int,
                  stations: Callable[[str | None], EveningLink],
                  names: Callable[[profile_mod.Profile | None], list[str]] = session.saved_names) -> Setup | None:
    """The walk-through; the setup chosen (saved, the marker written), or
    None when the window was closed (nothing saved: shown again next start).
    ``profile``: the wiring the box starts with (chosen first);
    ``players``: the keyboard stations without a profile; ``stations``: the
    evening's deciding process on a wiring (the test press reads its inputs)."""
    chosen = profile

    def offered() -> list[Wiring]:
        """The wiring choices in the language of the moment; a profile file
        of the host's own (given with --profile) offered first."""
        choices = wiring_choices(players)
        if profile is not None and all(w.profile != profile for w in choices):
            try:
                own = profile_mod.load(profile)
            except BuzzerBoxError:
                return choices
            choices.insert(0, Wiring(profile, Path(profile).stem, _("This box's own wiring profile ({name}).").format(
                name=profile), len(own.stations)))
        return choices

    language = current_language()
    wiring = next((w for w in offered() if w.profile == chosen), offered()[-1])  # a profile that will not load: keyboard
    chosen = wiring.profile
    step = 0
    while step < len(STEPS):
        which = STEPS[step]
        if which == "language":
            at = choose(screen, which, N_("Which language should the box speak?"),
                        [LANGUAGE_NAMES[c] for c in LANGUAGES],
                        [_("Every screen and the phones' pages speak it; the menu's Language row changes it later.")]
                        * len(LANGUAGES),
                        LANGUAGES.index(language) if language in LANGUAGES else 0,
                        on_move=lambda k: set_language(LANGUAGES[k]))  # the screen turns to it at once
            if at is None:
                return None
            language = LANGUAGES[at]
            set_language(language)
            step += 1
        elif which == "wiring":
            choices = offered()
            at = choose(screen, which, N_("How are the buttons connected?"), [w.label for w in choices],
                        [w.detail for w in choices],
                        next((k for k, w in enumerate(choices) if w.profile == chosen), len(choices) - 1))
            if at is None:
                step -= 1
                continue
            wiring = choices[at]
            chosen = wiring.profile
            step += 1
        elif which == "names":
            prof = profile_mod.load(wiring.profile) if wiring.profile is not None else None
            typed = run_name_editor(screen, NameEditor(names(prof), wiring.stations, session.NAME_LENGTH),
                                    scene=SetupNamesScene())
            keep_names(stations, wiring.profile, typed)
            step += 1
        elif which == "test":
            prof = profile_mod.load(wiring.profile) if wiring.profile is not None else None
            test_press(screen, wiring, names(prof), stations)
            step += 1
        else:
            ended = phones(screen, port)
            if ended == "closed":
                return None
            if ended == "back":
                step -= 1
                continue
            step += 1
    setup = Setup(language, chosen)
    save(setup, stations)
    log.info("first start done: language %s, wiring %s", setup.language, setup.profile or "keyboard")
    return setup
