"""The start menu: choose the game, players, options and start — from the
keyboard or from the stations themselves (no keyboard at the bar).

Keys: up/down choose a line, left/right change it, Enter or space starts.
Stations: station 1's bell moves down, station 2's bell changes the value,
the host's ``arm`` button (or any station's second button) starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from controller.box.monitor import InputMonitor, RollCall
from controller.box.press import Press
from controller.box.timeline import box_now_us
from controller.screen.evening import EveningStations
from controller.screen.keyboard import KeyboardSource
from controller.screen.screen import Screen
from controller.screen.sound import SoundSettings
from games.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language, ngettext, set_language
from games.registry import get as get_game
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View, freeze, player_name
from games.toolkit.theme import TEXT, Layout, draw_text, draw_wrapped, panel, wrap_lines


@dataclass(frozen=True)
class FolderChoice:
    """A value the menu offers beside a game's declared choices: a question
    pack found in the packs folder, shown by its own title (not translated)
    and question count, or by its file's name and the checker's problems
    (such a pack is listed, never started)."""

    value: Any
    title: str
    count: int
    #: each one line in the reader's language as ``str()`` says it (a ``games.quiz.packs.PackProblem``)
    problems: tuple[object, ...] = ()
    #: rows of a playable pack left out for their problems
    left_out: int = 0
    #: found on a USB stick (not in the packs folder): it goes when the stick is pulled
    stick: bool = False

    def label(self) -> str:
        where = ", " + _("USB stick") if self.stick else ""
        if self.problems:
            n = len(self.problems)
            return self.title + " (" + ngettext("{n} problem", "{n} problems", n).format(n=n) + where + ")"
        counted = ngettext("{n} question", "{n} questions", self.count).format(n=self.count)
        if self.left_out:  # played without its bad rows: the host sees that before starting
            counted += ", " + ngettext("{n} row left out", "{n} rows left out", self.left_out).format(n=self.left_out)
        return self.title + " (" + counted + where + ")"


@dataclass(frozen=True)
class EveningGame:
    """One of this evening's journaled games, as the menu's "This evening"
    row and the phones' host page list it: its state (played to its end, or
    ended early by the host, which Enter carries on) and its standings, said
    in the language of the moment (the host may change it after the game)."""

    journal: str
    #: the game's title as its spec has it (a catalogue msgid)
    title: str
    #: when it ended or stopped (HH:MM)
    at: str
    #: played to its end (Enter: its results again), else ended early (Enter: carry on where it stopped)
    finished: bool
    #: who won (a game played to its end), by name as its final results name them (a team quiz's teams);
    #: none in a game played to its end: nobody won (nobody scored)
    winners: tuple[str, ...] = ()
    #: everyone's name and score, best first
    standings: tuple[tuple[str, int], ...] = ()
    #: the question it stopped at and how many there are (a quiz ended early; the total None: until stopped)
    question: tuple[int, int | None] | None = None

    def state(self) -> str:
        return _("Finished") if self.finished else _("Ended early")

    def label(self, at: bool = False) -> str:
        """As the row lists it: its state and its name (``at``: and when, as the panel beside says it)."""
        said = _("{state} · {game}").format(state=self.state(), game=_(self.title))
        return _("{game}, {time}").format(game=said, time=self.at) if at else said

    def facts(self) -> list[str]:
        """Who won, or where it stopped, and the standings (the host page says these too)."""
        board = ", ".join(f"{name} {score}" for name, score in self.standings)
        lines = ([_("{winner} won").format(winner=", ".join(self.winners))] if self.winners
                 else [_("No winner")] if self.finished else [])
        if not self.finished and self.question is not None:
            n, total = self.question
            lines.append(_("Stopped at question {n} of {total}").format(n=n, total=total) if total
                         else _("Stopped at question {n}").format(n=n))
        if board:
            lines.append((_("Standings: {standings}") if self.finished
                          else _("Scores when it stopped: {standings}")).format(standings=board))
        return lines

    def lines(self) -> list[str]:
        """The panel beside the row: the facts, its journal (the file, then its folder: a long path
        wraps at the space, never cut) and what Enter does."""
        path = Path(self.journal)
        folder = str(path.parent).replace(str(Path.home()), "~", 1)
        return [*self.facts(), _("Journal: {name} in {folder}").format(name=path.name, folder=folder),
                _("Enter: its results on the screen") if self.finished else _("Enter: carry on where it stopped")]

    def to_json(self) -> dict[str, Any]:
        """For the host page."""
        return {"label": self.label(at=True), "finished": self.finished, "facts": self.facts()}


@dataclass
class Item:
    key: str
    label: str
    values: list[Any]
    names: list[str]
    index: int = 0
    #: the folder's choices among the values (by index): their own labels and problems
    found: dict[int, FolderChoice] = field(default_factory=dict)
    #: values shown as the pack writes them (its categories), never looked up in the catalogue
    plain: frozenset[int] = frozenset()
    #: the round a per-round row is for (its label says "Round {n}...")
    number: int | None = None
    #: says value ``k`` in the language of the moment, for values made after the row's catalogue
    #: words (the evening's games)
    said: Callable[[int], str] | None = None
    #: a row of the chosen game's option (its key the option's name), not one of the menu's own:
    #: only these rows are read as the game's options (``GameSpec`` refuses a listed option named
    #: as a menu's own row, ``games.base.MENU_ROWS``)
    option: bool = False

    def title(self) -> str:
        """The row's label in the language of the moment."""
        return _(self.label).format(n=self.number) if self.number is not None else _(self.label)

    @property
    def value(self) -> Any:
        return self.values[self.index]

    def shown(self, k: int) -> str:
        """Value ``k`` as the host reads it, in the language of the moment."""
        if self.said is not None:
            return self.said(k)
        if k in self.plain:
            return self.names[k]
        return self.found[k].label() if k in self.found else _(self.names[k])

    @property
    def problems(self) -> tuple[object, ...]:
        """Why the chosen value cannot start (a pack the checker refused)."""
        chosen = self.found.get(self.index)
        return chosen.problems if chosen is not None else ()


@dataclass
class Choice:
    """What the menu hands the loop when Start is chosen."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: bool = False
    sound: SoundSettings = field(default_factory=SoundSettings)
    #: the host chose "Player names": the names editor, then back to the menu
    edit_names: bool = False
    #: serve the companion pages (phones, host remote, scoreboard) for this game
    phones: bool = False
    #: the journal of a game the host ended before its end, to carry on where it stopped ("This evening")
    carry_on: str | None = None
    #: the journal of a game played to its end this evening: its results on the screen again
    results: str | None = None
    #: a row that does a job and comes back to the menu: "usb" (copy the results to a stick),
    #: "setup" (the first start's walk-through again)
    action: str | None = None


def _listed(game: str, title: str) -> str:
    """A game's name in the list (``title``, as shown): games played with hidden hands say they need phones."""
    spec = get_game(game)
    if not spec.needs_phones:
        return title
    need = _("phones") if not spec.no_phones_with else _("phones or open hands")
    return title + " (" + need + ")"


#: the volumes the menu's row steps through (a ``--volume`` of another is offered too, chosen)
VOLUMES = (0.2, 0.4, 0.6, 0.8, 1.0)


def volume_row(volume: float) -> Item:
    """The Volume row at ``volume`` (the command line's ``--volume``): the
    host's own level is kept as it is, not rounded to the nearest step."""
    values = sorted({*VOLUMES, round(volume, 2)})
    return Item("volume", N_("Volume"), values, [f"{round(v * 100)}%" for v in values], values.index(round(volume, 2)))


def phones_note(game: str, phones: bool, options: dict[str, Any]) -> str:
    """What the menu says about phones for a game that keeps hands on them."""
    spec = get_game(game)
    if not spec.needs_phones:
        return ""
    if phones:
        return _("Phones on: each player scans their seat's QR code on this screen.")
    if not spec.phones_needed(options):
        return _("Phones off: the hands are shown open on this screen.")
    return _("This game needs phones: Start turns them on.")


#: how often the menu looks whether a pack was added or a stick plugged in or pulled (a cheap look)
RESCAN_US = 2_000_000

#: what the menu's packs come from: None when nothing changed since the last look, else the values per option
Rescan = Callable[[], "Mapping[str, Sequence[FolderChoice]] | None"]
#: copy a stick's pack into the packs folder: the copy's value (None: not copied) and lines for the host
CopyFound = Callable[[FolderChoice], "tuple[Any, Sequence[str]]"]


#: the rows that do a job and come back to the menu (``Choice.action``), and what each says it does
JOB_ROWS = {
    "usb": N_("Enter copies the journals, results and standings onto a USB stick plugged into the box."),
    "setup": N_("Enter walks through the first start again: language, wiring, names, a test press, phones."),
}


class Menu:
    def __init__(self, games: list[tuple[str, str, int, int]], players: int = 4, sound: SoundSettings | None = None,
                 names: Sequence[str] = (), phones: bool = False,
                 found: Mapping[str, Sequence[FolderChoice]] | None = None,
                 rescan: Rescan | None = None, copy_found: CopyFound | None = None,
                 categories: Callable[[Any], Sequence[str]] | None = None, jobs: bool = False) -> None:
        """``games``: (name, title, min_players, max_players) of each game with a scene;
        ``phones``: the companion pages start switched on (``--web``); ``found``:
        per option name, values found in folders (the packs folder's packs, a
        USB stick's), offered first, the first good one chosen; ``rescan``:
        looked at every ``RESCAN_US`` (``poll``) for packs added or gone;
        ``copy_found``: the C key on a stick's pack copies it to the packs folder;
        ``categories``: a pack's categories (by the pack row's value), offered
        per round (a game with ``pack`` and ``categories`` options); ``jobs``:
        the rows that copy the results to a USB stick and set the box up again
        (the kiosk's menu has them; a menu drawn once for a picture need not)."""
        if not games:
            raise ValueError("no game with a scene is installed")
        self.games = games
        self.found = dict(found or {})
        self.rescan = rescan
        self.copy_found = copy_found
        self.categories = categories
        self.jobs = jobs
        self._scanned_us: int | None = None
        #: what the last copy said (shown beside the rows until the next key)
        self.notice: list[str] = []
        #: lines said under the menu while their trouble lasts, each asked per frame (``loop.run_menu``):
        #: a tournament's box that cannot reach the hall's broker says why
        self.asides: list[Callable[[], str | None]] = []
        #: why the last Start did not start (its settings were refused): shown until the next key
        self.refused: list[object] = []
        self.sound = sound or SoundSettings()
        self.selected = 0
        self.started = False
        self.default_players = players
        #: names entered for the players (station order); blank: the station's own name
        self.names = list(names)
        #: Esc was pressed once: the menu asks before the kiosk quits
        self.confirm_quit = False
        self.phones = phones
        #: this evening's journaled games, newest first, each once (its latest state)
        self.evening: list[EveningGame] = []
        self.items: list[Item] = []
        self._build(0, players)

    @staticmethod
    def _first(item: Item, default: Any) -> int:
        """Where a game's option row starts: on a pack of the folder's with no row left out, else on
        the option's default, as ``buzzerbox play`` plays it (a row started on its first choice played
        other rules: Piepmatz without crows), else its first choice, else a folder's pack that starts."""
        whole = [k for k in item.found if not (item.found[k].problems or item.found[k].left_out)]
        declared = [k for k in range(len(item.values)) if k not in item.found]
        played = [k for k in declared if item.values[k] == default and type(item.values[k]) is type(default)]
        return next(iter([*whole, *played, *declared]), next((k for k in item.found if not item.found[k].problems), 0))

    @staticmethod
    def _start_on(item: Item, starts: Mapping[str, Any]) -> None:
        """A row starts on the game's start for the box's language (``GameSpec.menu_starts``),
        unless it offers a pack of the host's own (the folder's come first)."""
        if item.key in starts and starts[item.key] in item.values and not item.found:
            item.index = item.values.index(starts[item.key])

    def played_game(self, game: EveningGame) -> None:
        """A game came back to the menu, played to its end or ended early by
        the host: listed first on the "This evening" row, with its state (a
        game carried on is listed once, as it is now), the row showing it."""
        self.evening = [game, *[e for e in self.evening if e.journal != game.journal]]
        self.refound(self.found, {"evening": game.journal})

    def restationed(self, players: int, names: Sequence[str]) -> None:
        """Other stations (the wiring chosen again): their count and names, the rows built anew."""
        self.default_players = players
        self.names = list(names)
        self._build(self.item("game").value, players)

    def escape(self) -> bool:
        """Esc (or closing the window): True when it is the second in a row,
        i.e. the host confirmed quitting; the first one only asks."""
        if self.confirm_quit:
            return True
        self.confirm_quit = True
        return False

    def _build(self, game_index: int, players: int) -> None:
        held = self.items[self.selected].key if self.items else None
        name, _title, lo, hi = self.games[game_index]
        counts = list(range(lo, hi + 1))
        self.items = [
            Item("game", N_("Game"), list(range(len(self.games))), [g[1] for g in self.games], game_index),
            Item("players", N_("Players"), counts, [str(c) for c in counts], counts.index(min(max(players, lo), hi))),
        ]
        for key, option in get_game(name).options.items():  # each game says what the menu offers
            if option.choices:
                found = list(self.found.get(key, ())) if key in self.found else []
                item = Item(key, option.label or key, [f.value for f in found] + [v for v, _ in option.choices],
                            [f.title for f in found] + [n for _, n in option.choices], found=dict(enumerate(found)),
                            option=True)
                item.index = self._first(item, option.default)
                self._start_on(item, get_game(name).menu_starts())
                self.items.append(item)
        self.items += self._category_rows(get_game(name).options)
        self.items += [
            # the companion pages: the hidden-hand games' phones, the host remote, the scoreboard
            Item("phones", N_("Phones"), [False, True], [N_("off"), N_("on")], int(self.phones)),
            Item("names", N_("Player names"), [None], [N_("edit…")]),
            Item("bots", N_("Who plays"), [False, True], [N_("people"), N_("demo bots")]),
            Item("sound", N_("Sound"), [True, False], [N_("on"), N_("off")], 0 if not self.sound.mute else 1),
            volume_row(self.sound.volume),
            # each language under its own name; changing it changes every screen at once
            Item("language", N_("Language"), list(LANGUAGES), [LANGUAGE_NAMES[code] for code in LANGUAGES],
                 LANGUAGES.index(current_language()) if current_language() in LANGUAGES else 0),
            # the journals off the box without a terminal, and the first start's walk-through again
            *([Item("usb", N_("Copy results to USB stick"), [None], [N_("copy")]),
               Item("setup", N_("Set up again"), [None], [N_("start over…")])] if self.jobs else []),
            Item("start", N_("Start"), [None], [N_("start")]),
        ]
        if self.evening:  # this evening's games with their state: Enter shows one's results or carries it on
            games = list(self.evening)
            self.items.insert(len(self.items) - 1, Item("evening", N_("This evening"), [g.journal for g in games],
                                                        [g.journal for g in games], said=lambda k: games[k].label()))
        self._hold(held)
        if not self.phones:
            self._open_hands()

    def _category_rows(self, declared: Mapping[str, Any]) -> list[Item]:
        """The chosen pack's categories, one row per round (one row without
        rounds): "all" or one category each. Built again when the pack or
        the rounds change."""
        if self.categories is None or "categories" not in declared or not self._has("pack"):
            return []
        known = list(self.categories(self.item("pack").value))
        if not known:
            return []
        rounds = self.item("rounds").value if self._has("rounds") else None
        count = len(rounds) if isinstance(rounds, list) and len(rounds) > 1 else 0
        values, names = [None, *known], [N_("all"), *known]
        plain = frozenset(range(1, len(values)))
        if not count:
            return [Item("category", N_("Category"), values, names, plain=plain)]
        return [Item(f"category_{n}", N_("Round {n}: category"), values, names, plain=plain, number=n)
                for n in range(1, count + 1)]

    def _chosen_categories(self, options: dict[str, Any]) -> None:
        """The category rows into the game's options: ``categories`` for the
        whole quiz, or each round's own ``categories``."""
        rows = [it for it in self.items if it.key.startswith("category")]
        if rows and rows[0].key == "category" and rows[0].value is not None:
            options["categories"] = [rows[0].value]
        elif rows and rows[0].key != "category" and any(it.value is not None for it in rows):
            rounds = options.get("rounds") or []
            options["rounds"] = [{**spec, "categories": [it.value]} if it.value is not None else dict(spec)
                                 for spec, it in zip(rounds, rows, strict=False)]

    def shown_again(self) -> None:
        """The menu is back on the screen (after a game): look for packs at the next poll."""
        self._scanned_us = None

    def poll(self, now_us: int) -> bool:
        """Look for packs added or gone (a stick plugged in or pulled) at most
        every ``RESCAN_US``; True when the rows changed. The first look is at once."""
        if self.rescan is None or (self._scanned_us is not None and now_us - self._scanned_us < RESCAN_US):
            return False
        self._scanned_us = now_us
        found = self.rescan()
        if found is None:
            return False
        self.refound(found)
        return True

    def refound(self, found: Mapping[str, Sequence[FolderChoice]], chosen: Mapping[str, Any] | None = None) -> None:
        """New folder values: the rows are built again, each keeping its value
        when that is still there (``chosen``: values to pick instead)."""
        kept = {it.key: it.value for it in self.items}
        kept.update(chosen or {})
        held = self.items[self.selected].key
        self.found = dict(found)
        self._build(self.item("game").value, self.item("players").value)
        self._keep(kept)
        # the category rows of the pack and the rounds kept (not the defaults _build saw)
        first = next((k for k, it in enumerate(self.items) if it.key.startswith("category")), None)
        fresh = self._category_rows(get_game(self.games[self.item("game").value][0]).options)
        at = first if first is not None else next(k for k, it in enumerate(self.items) if it.key == "phones")
        self.items = [*self.items[:at], *fresh, *(it for it in self.items[at:] if not it.key.startswith("category"))]
        self._hold(held)
        self._keep(kept)

    def _hold(self, key: str | None) -> None:
        """The highlight on the row it was on (by its key, not its place): a row
        added above it (the first game of the evening) never moves the host's
        Enter onto another row; a row gone leaves it at the same place."""
        self.selected = next((k for k, it in enumerate(self.items) if it.key == key),
                             min(self.selected, len(self.items) - 1))

    def _keep(self, kept: Mapping[str, Any]) -> None:
        """Each row back at its value in ``kept`` when it still offers it."""
        for it in self.items:
            value = kept.get(it.key)
            matches = [k for k, v in enumerate(it.values) if v == value and type(v) is type(value)]
            if matches:
                it.index = matches[0]

    def _copy(self) -> None:
        """C on a stick's pack: it is copied into the packs folder and chosen there."""
        it = self.items[self.selected]
        chosen = it.found.get(it.index)
        if self.copy_found is None or chosen is None or not chosen.stick:
            return
        value, lines = self.copy_found(chosen)
        self.notice = list(lines)
        if value is not None and self.rescan is not None:
            found = self.rescan()
            if found is not None:
                self.refound(found, {it.key: value})

    def _open_hands(self) -> None:
        """Phones off: a game with an open-hands variant is set to it (the
        host sees the rows change and may still choose otherwise)."""
        game = self.games[self.item("game").value][0]
        for key, value in get_game(game).no_phones_with.items():
            if self._has(key) and value in self.item(key).values:
                self.item(key).index = self.item(key).values.index(value)

    def game_label(self, index: int) -> str:
        """What the list says for game ``index``, in the current language."""
        name, title, _lo, _hi = self.games[index]
        return _listed(name, _(title))

    def item(self, key: str) -> Item:
        return next(i for i in self.items if i.key == key)

    # -- input --------------------------------------------------------------------
    def key(self, action: str) -> Choice | None:
        """up, down, left, right, select: returns the choice when Start is chosen."""
        if self.confirm_quit:  # any other key: not quitting after all
            self.confirm_quit = False
            return None
        self.notice, self.refused = [], []
        if action == "copy":
            self._copy()
        elif action == "up":
            self.selected = (self.selected - 1) % len(self.items)
        elif action == "down":
            self.selected = (self.selected + 1) % len(self.items)
        elif action in ("left", "right"):
            self._step(self.items[self.selected], 1 if action == "right" else -1)
        elif action == "select":
            return self._select()
        return None

    def _step(self, it: Item, by: int) -> None:
        """Left or right on row ``it``: its next value, and the rows that follow it."""
        if it.key in ("start", "names", *JOB_ROWS):
            return
        it.index = (it.index + by) % len(it.values)
        if it.key == "language":
            game = get_game(self.games[self.item("game").value][0])
            before = game.menu_starts()
            set_language(it.value)
            for row in self.items:  # a row still on the old language's start follows the language
                if row.key in before and row.index not in row.found and row.value == before[row.key]:
                    self._start_on(row, game.menu_starts())
        if it.key == "game":
            self._build(it.index, self.item("players").value)
        if it.key in ("pack", "rounds"):  # the category rows follow the pack and the rounds
            self.refound(self.found)
        if it.key == "phones":
            self.phones = bool(it.value)
            if not self.phones:
                self._open_hands()

    def _select(self) -> Choice | None:
        """Select on the chosen row: the names editor, a job, an evening's game, or Start (unless refused)."""
        row = self.items[self.selected]
        if row.key == "names":
            return Choice("", self.item("players").value, edit_names=True)
        if row.key in JOB_ROWS:
            return Choice("", self.item("players").value, action=row.key)
        if row.key == "evening":  # its results again, or on where it stopped
            chosen = self.evening[row.index]
            return Choice("", self.item("players").value, results=chosen.journal if chosen.finished else None,
                          carry_on=None if chosen.finished else chosen.journal)
        return self.start()

    def start(self) -> Choice | None:
        """Start (its row, or the host page's "start" between games): the chosen game, or None
        when its pack has problems (listed on the screen, never started)."""
        if self.refusal():
            return None
        self.started = True
        return self.choice()

    def press(self, station: int, input: str) -> Choice | None:
        """A station button in the menu (see the module docstring). Names are
        typed on a keyboard: the stations step over that line."""
        if self.items[self.selected].key == "names" and (station < 0 or input != "bell" or station == 1):
            return self.key("down")
        if station < 0:
            return self.key("select") if input in ("arm", "next") else self.key({"reset": "up", "wrong": "down"}.get(input, ""))
        if input != "bell":
            return self.key("select")
        if station == 0:
            return self.key("down")
        if station == 1:
            return self.key("select") if self.items[self.selected].key == "start" else self.key("right")
        return None

    def _started_options(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The options Start would give the game now, as the game plays them
        from the menu, and what the menu says of what the game changed."""
        game = self.games[self.item("game").value][0]
        declared = get_game(game).options
        options = {}
        for it in self.items:
            option = declared.get(it.key) if it.option else None
            # None is "off" unless the option says None means something ("host turns")
            if option is not None and it.key != "teams" and (it.value is not None or option.nullable):
                options[it.key] = it.value
        players = self.item("players").value
        if self._has("teams") and self.item("teams").value:
            size = self.item("teams").value
            options["teams"] = [s // size for s in range(players)]
        self._chosen_categories(options)
        return get_game(game).menu_fit(options)

    def fit_notes(self) -> list[str]:
        """What the game changes of the rows' plan (the bowl night with a pack:
        tossups only), in the language of the moment: said before Start."""
        return [_(note) for note in self._started_options()[1]]

    def choice(self) -> Choice:
        game = self.games[self.item("game").value][0]
        players = self.item("players").value
        options, _notes = self._started_options()
        sound = SoundSettings(volume=self.item("volume").value, mute=not self.item("sound").value)
        if get_game(game).phones_needed(options) and not self.phones:  # said on screen before Start
            self.phones = True
            self.item("phones").index = 1
        return Choice(game, players, options, bool(self.item("bots").value), sound, phones=self.phones)

    def refuse(self, reason: object) -> None:
        """Start was chosen but the game refused its settings (all-play on
        stations without answer buttons, a pack changed since it was listed):
        the menu stays, the reason beside the rows until the next key, worded
        in the language of the moment (an ``OptionError`` words itself)."""
        self.refused = [reason]
        self.started = False

    def refusal(self) -> list[str]:
        """Why Start would not start now: each problem of the chosen pack, one
        line each, in the language of the moment."""
        return [str(line) for it in self.items for line in it.problems]

    def next_game(self) -> dict[str, Any]:
        """The game the menu would start now and its option rows, for the
        host remote (each applies when that game starts)."""
        game = self.games[self.item("game").value][0]
        declared = get_game(game).options
        rows = [{"key": it.key, "label": it.title(), "value": it.value,
                 "choices": [[value, it.shown(k)] for k, value in enumerate(it.values)]}
                for it in self.items if it.option and it.key in declared]
        return {"game": self.game_label(self.item("game").value), "options": rows,
                "evening": [g.to_json() for g in self.evening]}  # the evening's games and their state

    def set_option(self, key: str, value: Any) -> bool:
        """The host remote chose ``value`` for the menu's row ``key`` (one of
        the chosen game's options); False if there is no such row or value."""
        declared = get_game(self.games[self.item("game").value][0]).options
        item = next((it for it in self.items if it.option and it.key == key), None)
        if key not in declared or item is None:
            return False
        matches = [k for k, v in enumerate(item.values) if v == value and type(v) is type(value)]
        if not matches:
            return False
        item.index = matches[0]
        if key in ("pack", "rounds"):  # the category rows follow
            self.refound(self.found)
        return True

    def _options(self) -> dict[str, Any]:
        """The chosen game's options as the rows say them now."""
        declared = get_game(self.games[self.item("game").value][0]).options
        return {it.key: it.value for it in self.items if it.option and it.key in declared and it.key != "teams"}

    def _has(self, key: str) -> bool:
        return any(i.key == key for i in self.items)

    def detail(self) -> list[str]:
        """What the panel beside the rows says of the highlighted option (the
        game row and Start get the game's blurb instead): its label, its value
        in full (a long one is shrunk in its row) and the others it can take."""
        it = self.items[self.selected]
        if it.key in ("game", "start"):
            return []
        if it.key == "evening":  # one of the evening's games: its state, standings, journal and what Enter does
            game, more = self.evening[it.index], len(self.evening) - 1
            return [it.title() + ": " + game.label(at=True), *game.lines(),
                    *([_("Other games (← →): {n}").format(n=more)] if more else [])]
        if it.key == "names":  # the names the game will start with (Enter edits them)
            players = self.item("players").value
            return [it.title() + ": " + ", ".join(
                self.names[k] if k < len(self.names) and self.names[k] else player_name(k) for k in range(players))]
        if it.key in JOB_ROWS:  # what the row does, then (after Enter) what it did
            return self.notice or [it.title() + ": " + _(JOB_ROWS[it.key])]
        values = [it.names[k] if it.key == "language" else it.shown(k) for k in range(len(it.values))]
        others = [v for k, v in enumerate(values) if k != it.index]
        lines = [*self.notice, it.title() + ": " + values[it.index]]
        if it.key in ("pack", "rounds"):  # the rows the plan's fit follows
            lines += self.fit_notes()
        chosen = it.found.get(it.index)
        if chosen is not None and chosen.stick and self.copy_found is not None:
            lines.append(_("On a USB stick: press C to copy it into the packs folder (it stays after the stick is pulled)."))
        if others:
            lines.append(_("Other choices (← →): {choices}").format(choices=", ".join(others)))
        return lines

    def view(self) -> dict[str, Any]:
        notes = self.fit_notes()
        return {
            "phase": "menu",
            "players": self.item("players").value,
            "names": list(self.names),
            "confirm_quit": self.confirm_quit,
            # labels and values are kept in English and said in the language of the moment
            "items": [{"key": it.key, "label": it.title(), "selected": k == self.selected,
                       "value": it.names[it.index] if it.key == "language"
                       else self.game_label(it.value) if it.key == "game"
                       else it.shown(it.index)}
                      for k, it in enumerate(self.items)],
            # the chosen pack's problems, as `buzzerbox pack check` prints them: Start waits for a good one
            "problems": self.refusal(),
            # why the last Start did not start: the game refused these options
            "refused": [str(reason) for reason in self.refused],
            "detail": self.detail(),
            # what the game changes of the rows' plan: said in the panel's own ink, apart from the choices
            "notes": notes,
            "summary": " ".join(text for text in (
                *notes,
                phones_note(self.games[self.item("game").value][0], self.phones, self._options()),
                _(get_game(self.games[self.item("game").value][0]).summary)) if text),
        }


class MenuScene(Scene):
    title = N_("Buzzer box")

    def header(self, view: View) -> tuple[str, str]:
        if view.get("confirm_quit"):  # the dialog in the middle asks (said twice, the Polish header was cut)
            return self.title, ""
        return self.title, _("arrows: choose and change · Enter: start · Esc: quit")

    def draw(self, surface: pygame.Surface, view: View, strip: Strip, now_us: int) -> None:
        """The strip follows the player count as it is changed: as many cells
        as players chosen (keyboard stations beyond the monitored ones idle)."""
        super().draw(surface, view, strip_for_players(strip, view.get("players"), view.get("names", ())), now_us)
        if view.get("confirm_quit"):
            theme.draw_confirm(surface, _("Quit? Esc again to quit, any other key to stay"))

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        items = list(view.get("items", ()))
        summary = str(view.get("summary") or "")
        problems = [str(p) for p in view.get("problems", ())]
        refused = [str(line) for line in view.get("refused", ())]
        detail = [str(line) for line in view.get("detail", ())]
        rows_area = area
        # beside the rows: the chosen pack's problems, else why Start was just refused, else the highlighted
        # option in full and its other choices, else (the game row, Start) the game's rules in short; one of
        # them, never the same twice
        if summary or problems or refused or detail:
            rows_area = pygame.Rect(area.left, area.top, area.width * 60 // 100, area.height)
            box = pygame.Rect(rows_area.right + 2 * lay.pad, area.top + lay.pad, area.right - rows_area.right - 2 * lay.pad,
                              area.height - 2 * lay.pad)
            panel(surface, box, theme.PANEL)
            if problems:
                stacked(surface, [_("This pack cannot start; fix it and check again:"), *problems], lay.min_text,
                        [theme.STATUS_COLORS["first"], *[theme.FG] * len(problems)], box.inflate(-4 * lay.pad, -2 * lay.pad))
            elif refused:
                stacked(surface, [_("Start refused; change an option and start again:"), *refused], lay.min_text,
                        [theme.STATUS_COLORS["first"], *[theme.FG] * len(refused)], box.inflate(-4 * lay.pad, -2 * lay.pad))
            elif detail:
                notes = {str(line) for line in view.get("notes", ())}
                inks = [theme.FG if line in notes else theme.MUTED for line in detail[1:]]
                stacked(surface, detail, lay.min_text, [theme.STATUS_COLORS["first"], *inks],
                        box.inflate(-4 * lay.pad, -2 * lay.pad))
            else:
                lines = max(1, (box.height - 2 * lay.pad) // TEXT.font(lay.min_text).get_height())
                draw_wrapped(surface, summary, lay.min_text, theme.FG, box.inflate(-4 * lay.pad, -2 * lay.pad),
                             max_lines=lines, align="left")
        shown = rows_in_view(items, rows_area, lay)
        rects = menu_rows(rows_area, lay, len(shown) + (len(shown) < len(items)), 0.7)
        if len(shown) < len(items):  # more rows than fit: the last slot says which way the others are
            scroll_marks(surface, rects.pop(), lay, shown[0] is not items[0], shown[-1] is not items[-1])
        for it, r in zip(shown, rects, strict=True):
            sel = it["selected"]
            ink = row_panel(surface, r, sel)
            inner = r.inflate(-4 * lay.pad, 0)
            if it.get("key") == "start":
                draw_text(surface, str(it["value"]).upper(), lay.size(1.2), ink, inner)
            else:
                # label and value share the row by what each needs, not half and half: a long value
                # ("5 right win, 3 wrong out") was cut beside a short label, a long label beside "off"
                size, gap = lay.size(1.1), 2 * lay.pad
                # a row that only does a job (Enter) has no other values to step through: no arrows
                value = f"‹ {it['value']} ›" if sel and it.get("key") not in JOB_ROWS else str(it["value"])
                label_w = share(it["label"], value, size, lay.min_text, inner.width - gap)
                draw_text(surface, it["label"], size, ink, pygame.Rect(inner.left, r.top, label_w, r.height), align="left", min_size=lay.min_text)
                theme.draw_fitted(surface, value, size, ink, pygame.Rect(inner.left + label_w + gap, r.top, inner.width - label_w - gap, r.height),
                                  lay.min_text, align="right")


#: the most of a row a label takes whole when label and value do not both fit
LABEL_FIRST = 0.5


def share(label: str, value: str, size: int, min_size: int, width: int) -> int:
    """The label's part of a row ``width`` wide beside its value: all it asks
    for while the value still fits (at ``min_size`` if need be), else a part
    in proportion to the two texts' lengths."""
    need_label, need_value = TEXT.width(label, min_size), TEXT.width(value, min_size)
    if need_label + need_value <= width:
        return max(need_label, min(TEXT.width(label, size), width - need_value))
    if need_label <= width * LABEL_FIRST:  # the label whole ("Sada otázek"); the value, cut, is said whole on the panel
        return need_label
    return round(width * need_label / (need_label + need_value))


def stacked(surface: pygame.Surface, paragraphs: Sequence[str], size: int, colors: Sequence[theme.Color],
            rect: pygame.Rect) -> None:
    """Paragraphs one under another from the top, each wrapped (one problem a
    paragraph, as ``pack check`` prints them); what does not fit ends in "…"."""
    line_h = TEXT.font(size).get_height()
    rows = [(line, color) for text, color in zip(paragraphs, colors, strict=True)
            for line in wrap_lines(text, size, rect.width)]
    room = max(1, rect.height // line_h)
    if len(rows) > room:
        rows = [*rows[:room - 1], ("…", theme.MUTED)]
    for k, (line, color) in enumerate(rows):
        draw_text(surface, line, size, color, pygame.Rect(rect.left, rect.top + k * line_h, rect.width, line_h),
                  align="left", min_size=size)


def rows_in_view(items: list[Any], area: pygame.Rect, lay: Layout) -> list[Any]:
    """The rows that fit ``area`` at the smallest text (one slot kept for the
    scroll marks), a window that keeps the selected row in sight: a game with
    many options scrolls rather than running its rows into the strip."""
    fit = max(1, (area.height + lay.pad) // (lay.min_text + lay.pad))
    if len(items) <= fit:
        return items
    fit = max(1, fit - 1)
    selected = next((k for k, it in enumerate(items) if it.get("selected")), 0)
    start = min(max(0, selected - fit // 2), len(items) - fit)
    return items[start:start + fit]


def scroll_marks(surface: pygame.Surface, slot: pygame.Rect, lay: Layout, up: bool, down: bool) -> None:
    """Two triangles in ``slot``: bright where more rows lie that way, dim where none do."""
    half = max(4, slot.height // 3)
    for x, pointing_up, more in ((slot.centerx - 2 * half, True, up), (slot.centerx + 2 * half, False, down)):
        color = theme.FG if more else theme.PANEL
        y = slot.centery
        tip, base = (y - half, y + half) if pointing_up else (y + half, y - half)
        pygame.draw.polygon(surface, color, [(x - half, base), (x + half, base), (x, tip)])


def menu_rows(area: pygame.Rect, lay: Layout, count: int, width_frac: float) -> list[pygame.Rect]:
    """``count`` rows of a list, centred in ``area``, as tall as fits (at most 1.5 text lines)."""
    row_h = min(lay.size(1.5), max(lay.min_text, (area.height - lay.pad * count) // max(1, count)))
    width = min(area.width, round(lay.width * width_frac))
    x = area.centerx - width // 2
    y = area.top + max(0, (area.height - count * (row_h + lay.pad)) // 2)
    return [pygame.Rect(x, y + k * (row_h + lay.pad), width, row_h) for k in range(count)]


def row_panel(surface: pygame.Surface, r: pygame.Rect, selected: bool) -> theme.Color:
    """A list row's panel, amber when selected; returns the ink that reads on it."""
    fill = theme.STATUS_COLORS["first"] if selected else theme.PANEL
    panel(surface, r, fill)
    return theme.text_on(fill)


def strip_for_players(strip: Strip, players: Any, names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """``strip`` cut or padded (idle cells) to ``players`` cells, each with
    the name entered for it in the menu, if any."""
    cells = [dict(c) for c in strip]
    if isinstance(players, int) and players > 0:
        cells = cells[:players]
        for i in range(len(cells), players):
            cells.append({"name": _("Player {n}").format(n=i + 1), "status": "idle", "pressed": False})
    for i, cell in enumerate(cells):
        if i < len(names) and names[i].strip():
            cell["name"] = names[i].strip()
    return cells


# -- the players' names, typed in the menu -------------------------------------------------


class NameEditor:
    """Type each player's name (sans-I/O: keys and text in, names out).
    Up/down or Tab choose the player; typing writes; Backspace deletes;
    Enter or Esc is done. A blank name falls back to the station's own."""

    def __init__(self, names: Sequence[str], players: int, length: int = 16) -> None:
        self.names = [*names[:players], *[""] * max(0, players - len(names))]
        self.rest = list(names[players:])  # names of stations beyond today's count, kept
        self.selected = 0
        self.length = length
        self.done = False
        #: the characters of the last typing the screen cannot draw (said under the names until the next)
        self.refused = ""
        #: the characters of the last typing past the name's length (said under the names until the next key)
        self.cut = ""

    def key(self, action: str) -> None:
        self.cut = ""
        if action in ("down", "tab"):
            self.selected = (self.selected + 1) % len(self.names)
        elif action == "up":
            self.selected = (self.selected - 1) % len(self.names)
        elif action == "backspace":
            self.names[self.selected] = self.names[self.selected][:-1]
        elif action == "done":
            self.done = True

    def text(self, typed: str) -> None:
        """Typed text into the selected name; what the screen cannot draw (an
        emoji: an empty box on the big screen) is left out and said."""
        missing = theme.undrawable(typed)
        self.refused = missing
        printable = "".join(ch for ch in typed if ch.isprintable() and ch not in missing)
        name = self.names[self.selected] + printable
        # a name is at most ``length`` characters (a strip cell's): what goes past it is refused, and said
        self.names[self.selected], self.cut = name[: self.length], name[self.length:]

    def result(self) -> list[str]:
        return [n.strip() for n in self.names] + self.rest

    def view(self) -> dict[str, Any]:
        return {"phase": "names", "names": list(self.names), "selected": self.selected, "refused": self.refused,
                "length": self.length, "cut": self.cut}


class NamesScene(Scene):
    title = N_("Player names")

    def header(self, view: View) -> tuple[str, str]:
        return self.title, _("type a name · up/down: next player · Enter: done")

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        names = list(view.get("names", ()))
        refused = str(view.get("refused") or "")
        length = int(view.get("length") or 0)
        notes = [theme.undrawable_line(refused)] if refused else []
        if view.get("cut"):  # typed past the limit: refused, and said until the next key
            notes.append(ngettext("A name takes at most {n} character: the rest was not added",
                                  "A name takes at most {n} characters: the rest was not added", length).format(n=length))
        for note in reversed(notes):  # a line each under the names: what was left out and why
            line = pygame.Rect(area.left, area.bottom - theme.line_height(lay.min_text), area.width, theme.line_height(lay.min_text))
            area = pygame.Rect(area.left, area.top, area.width, line.top - area.top - lay.pad)
            draw_text(surface, note, lay.min_text, theme.STATUS_COLORS["first"], line, min_size=lay.min_text)
        label_w, field_w, count_w = self.columns(lay, len(names), length)
        # the rows as wide as their columns need (a name of 16 "W"s was cut beside its count at 720 p), 60 % at least
        need = label_w + field_w + (count_w + 2 * lay.pad if count_w else 0) + 2 * lay.pad + 4 * lay.pad
        for i, (name, r) in enumerate(zip(names, menu_rows(area, lay, len(names), max(0.6, need / lay.width)), strict=True)):
            sel = i == view.get("selected")
            ink = row_panel(surface, r, sel)
            inner = r.inflate(-4 * lay.pad, 0)
            # the count at the row's right end, the field before it as wide as the longest name, the label the rest
            count_r = pygame.Rect(inner.right - count_w, r.top, count_w, r.height)
            room = pygame.Rect(max(inner.left + label_w + 2 * lay.pad, count_r.left - (2 * lay.pad if count_w else 0) - field_w),
                               r.top, 0, r.height)
            room.width = count_r.left - (2 * lay.pad if count_w else 0) - room.left
            draw_text(surface, _("Player {n}").format(n=i + 1), lay.size(1.1), ink,
                      pygame.Rect(inner.left, r.top, room.left - 2 * lay.pad - inner.left, r.height), align="left",
                      min_size=lay.min_text)
            if sel and length:  # the name being typed says how much of its length it has used: "12/16", beside its field
                draw_text(surface, _("{used}/{most}").format(used=len(name), most=length), lay.min_text, ink, count_r,
                          align="right", min_size=lay.min_text)
            shown = name + ("_" if sel and (now_us // 500_000) % 2 == 0 else "")
            draw_text(surface, shown or "—", lay.size(1.1), ink, room, align="left", min_size=lay.min_text)

    @staticmethod
    def columns(lay: Layout, players: int, length: int) -> tuple[int, int, int]:
        """(label, name field, count) widths of a row: the longest label ("Player 16"), the longest name
        the editor takes (``length`` of the widest letter, ``widest_letter``) with the cursor, in the smallest
        type it shrinks to, and the count at its widest ("16/16"; 0 without a limit)."""
        label_w = max((TEXT.width(_("Player {n}").format(n=k + 1), lay.size(1.1)) for k in range(players)), default=0)
        field_w = TEXT.width(widest_letter(lay.min_text) * max(1, length) + "_", lay.min_text)
        count_w = TEXT.width(_("{used}/{most}").format(used=length, most=length), lay.min_text) if length else 0
        return label_w, field_w, count_w


#: the letters a name is typed with in the box's languages (the alphabets of en, cs and pl, digits)
NAME_LETTERS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽĄĆĘŁŃŚŹŻ"
                "abcdefghijklmnopqrstuvwxyzáčďéěíňóřšťúůýžąćęłńśźż")


def widest_letter(size: int) -> str:
    """The widest of ``NAME_LETTERS`` at ``size`` ("W"): a name field holds a name of it whole."""
    return max(NAME_LETTERS, key=lambda ch: TEXT.width(ch, size))


def run_name_editor(screen: Screen, editor: NameEditor, *, clock: Callable[[], int] = box_now_us,
                    fps: int = 30, scene: NamesScene | None = None) -> list[str]:
    """Show the names editor until Enter or Esc; returns the names. ``scene``:
    another header for it (the first start's walk-through)."""
    scene = scene or NamesScene()
    keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_TAB: "tab", pygame.K_BACKSPACE: "backspace",
            pygame.K_RETURN: "done", pygame.K_KP_ENTER: "done", pygame.K_ESCAPE: "done"}
    frame_clock = pygame.time.Clock()
    pygame.key.start_text_input()
    try:
        while not editor.done:
            t = clock()
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    editor.key("done")
                elif event.type == pygame.VIDEORESIZE:
                    screen.resized(event.size)
                elif event.type == pygame.KEYDOWN and event.key in keys:
                    editor.key(keys[event.key])
                elif event.type == pygame.TEXTINPUT:
                    editor.text(event.text)
            scene.draw(screen.surface, freeze(editor.view()), [], t)
            screen.flip()
            frame_clock.tick(fps)
    finally:
        pygame.key.stop_text_input()
    return editor.result()


# -- the roll call before a game with real stations --------------------------------------


class RollCallScene(Scene):
    title = N_("Roll call")

    def header(self, view: View) -> tuple[str, str]:
        return self.title, _("Enter: start without the rest · Esc: stop")

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        missing = list(view.get("missing", ()))
        top = pygame.Rect(area.left, area.top, area.width, area.height // 2)
        draw_text(surface, _("Every station: press your button once"), lay.size(2), theme.FG, top, min_size=lay.min_text)
        if missing:
            text = _("Waiting for: {names}").format(names=", ".join(missing))
        else:
            text = _("Everyone is here!")
        bottom = pygame.Rect(area.left, top.bottom, area.width, area.height // 2)
        draw_text(surface, text, lay.size(1.3), theme.MUTED, bottom.inflate(-4 * lay.pad, 0), min_size=lay.min_text)


def run_roll_call(screen: Screen, monitor: InputMonitor | EveningStations, expected: Sequence[tuple[int, str, str]],
                  *, keyboard: KeyboardSource | None = None, clock: Callable[[], int] = box_now_us, fps: int = 30,
                  linger_us: int | None = 800_000, scene: RollCallScene | None = None) -> list[str] | None:
    """Show the roll call until every station has pressed (then a moment
    more, so the last tick is seen) or the host skips it with Enter, space or
    the host's arm button. Returns who never answered ([] for everyone), or
    None for Esc or a closed window. ``scene``: another screen for it (the
    first start's test press, its stations read by the evening's deciding process: ``monitor``);
    ``linger_us`` None: the screen stays until Enter (the test press's result is read)."""
    call = RollCall(expected)
    scene = scene or RollCallScene()
    if keyboard is not None:
        keyboard.start(monitor)
    frame_clock = pygame.time.Clock()
    complete_at: int | None = None
    while True:
        t = clock()
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                return None
            if event.type == pygame.VIDEORESIZE:
                screen.resized(event.size)
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return call.missing
            if keyboard is not None:
                keyboard.handle(event, t)
        for out in monitor.step(t):
            if isinstance(out, Press):
                if out.station < 0 and out.input in ("arm", "next"):
                    return call.missing
                call.press(out.station)
        if call.done and complete_at is None:
            complete_at = t
        scene.draw(screen.surface, freeze(call.view()), call.strip(monitor.strip()), t)
        screen.flip()
        if complete_at is not None and linger_us is not None and t - complete_at >= linger_us:
            return []
        frame_clock.tick(fps)
