"""The podium at the end of a game, as the room sees it at 720p and 1080p:
each name above a block whole on one line ("Player / 4" broke at the space
beside the quiz's table at 720p), and everyone after the blocks in a row
under them with their places, ties sharing one (a lone "3. Player 4  0"
beside the blocks looked like a stray). Measured with the toolkit's record of
what draw_text drew (``theme.DRAWN``), not pixel goldens."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from games.i18n import _, set_language
from games.toolkit import theme
from games.toolkit.results import ResultsScene
from games.toolkit.results_words import ranking
from games.toolkit.scene import freeze, player_name
from tests.fits import LONG_NAMES, measured, unfit_texts
from tests.phases import phase_frames

SIZES = [(1920, 1080), (1280, 720)]
LANGUAGES = ["en", "cs", "pl"]
#: final scores with ties and zeros: two players, one left after the blocks, five after them
SCORES = {2: [3, 0], 4: [2, 1, 0, 0], 8: [5, 3, 3, 2, 0, 0, 0, 1]}
#: a classroom, a quiz night: ties on the podium and after it
MANY = {9: [5, 3, 3, 2, 0, 0, 0, 1, 4], 12: [5, 3, 3, 2, 0, 0, 0, 1, 4, 4, 0, 1],
        16: [5, 3, 3, 2, 0, 0, 0, 1, 4, 4, 0, 1, 2, 0, 0, 3]}
#: a listed row: "3. Player 4"
LISTED = re.compile(r"^(\d+)\. (.+)$")

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")

Drawn = list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]


def drawn(draw: Callable[[pygame.Surface], None], size: tuple[int, int]) -> Drawn:
    theme.DRAWN = []
    try:
        draw(pygame.Surface(size))
        return list(theme.DRAWN)
    finally:
        theme.DRAWN = None


def results_frame(scores: list[int]) -> tuple[Callable[[pygame.Surface], None], dict[str, Any]]:
    """The results screen (any game without an end screen of its own), once the podium has risen."""
    view = {"phase": "over", "finished": True, "scores": scores}
    strip = [{"status": "idle", "pressed": False} for _s in scores]  # nobody named: "Player 1" ...

    def draw(surface: pygame.Surface) -> None:
        scene = ResultsScene(game_title="Reaction duel")
        scene.draw(pygame.Surface(surface.get_size()), freeze(view), strip, 0)  # its celebration starts
        if theme.DRAWN is not None:
            theme.DRAWN.clear()
        scene.draw(surface, freeze(view), strip, 10_000_000)
    return draw, view


def quiz_frame(scores: list[int], language: str) -> tuple[Callable[[pygame.Surface], None], dict[str, Any]]:
    """The quiz's own end screen (podium beside its table) with these final scores."""
    frame = next(f for f in phase_frames("quiz", len(scores), (), language) if f.finished)
    view = dict(frame.view)
    places = [place for place, _m, _s in ranking({"scores": scores})]
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    view.update(scores=tuple(scores), correct=tuple(scores), standings=tuple(
        {"place": place, "team": s, "stations": (s,), "score": scores[s], "correct": scores[s], "wrong": 0, "out": False}
        for s, place in zip(order, places, strict=True)))
    scene = frame.scene()
    return (lambda surface: scene.draw(surface, freeze(view), list(frame.strip), frame.now_us)), view


def podium_parts(records: Drawn, size: tuple[int, int], players: int) -> tuple[Drawn, Drawn]:
    """(the other texts, the rows listed after the blocks ("3. Player 4")) of the
    body left of the quiz's table (its heading "pts" and the rows under it)."""
    body = theme.Layout(*size, players).body
    heads = [r for asked, _s, _ink, r, on in records if on.size == size and asked == _("pts")]
    # the table's left: its heading's "pts", or the (empty) heading of its names ("4. Player 2") on that line
    table_left = min([r.left for r in heads] + [r.left for asked, _s, _ink, r, on in records if on.size == size
                                                and asked == "" and any(abs(r.centery - h.centery) <= 2 for h in heads)],
                     default=size[0])
    mine = [d for d in records if d[4].size == size and body.contains(d[3]) and d[2].right <= table_left and d[2].width]
    listed = [d for d in mine if LISTED.match(d[0])]

    def a_score_listed(ink: pygame.Rect) -> bool:  # right of a listed name, on its line
        return any(row.top <= ink.centery <= row.bottom and ink.left > row.right for _a, _s, row, _r, _on in listed)
    return [d for d in mine if d not in listed and not a_score_listed(d[2])], listed


def blocks_of(texts: Drawn) -> list[pygame.Rect]:
    """Each block's top, as wide as the block: the rect its place number was
    given (of the numbers drawn in a column, the tallest rect: a score's is lower)."""
    tallest: dict[int, pygame.Rect] = {}
    for asked, _shown, _ink, r, _on in texts:
        if asked.isdigit():
            column = next((x for x in tallest if abs(x - r.centerx) <= 2), r.centerx)
            if column not in tallest or r.height > tallest[column].height:
                tallest[column] = r
    return list(tallest.values())


CASES = [(kind, players) for kind in ("results", "quiz") for players in SCORES]


def frame_for(kind: str, players: int, language: str) -> tuple[Callable[[pygame.Surface], None], dict[str, Any]]:
    set_language(language)
    scores = {**SCORES, **MANY}[players]
    return results_frame(scores) if kind == "results" else quiz_frame(scores, language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize(("kind", "players"), CASES, ids=[f"{k}-{p}" for k, p in CASES])
def test_every_name_on_the_podium_stands_whole_on_one_line_over_its_block(
        kind: str, players: int, size: tuple[int, int], language: str) -> None:
    draw, view = frame_for(kind, players, language)
    records = drawn(draw, size)
    on_podium, _listed = podium_parts(records, size, players)
    lay = theme.Layout(*size, players)
    blocks = blocks_of(on_podium)
    stood = [(place, members[0]) for place, members, _s in ranking(view)][:3]
    assert len(blocks) == len(stood), f"{kind} {language} {size}: blocks {blocks}"
    for _place, station in stood:
        name = player_name(station)
        whole = [(ink, shown) for asked, shown, ink, _r, _on in on_podium if asked == name and shown == name]
        assert whole, f"{kind} {language} {size}: {name!r} not drawn whole on one line: " \
                      f"{[shown for _a, shown, *_r in on_podium]}"
        ink = whole[0][0]
        block = min(blocks, key=lambda b: abs(b.centerx - ink.centerx))
        # its slot: the block and half the gap each side, less a pad clear of the neighbours' names
        assert ink.width <= block.width + lay.pad, f"{name!r} {ink.width} px over a {block.width} px block"
        assert abs(ink.centerx - block.centerx) <= 2, f"{name!r} not over its block: {ink} {block}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize(("kind", "players"), [c for c in CASES if c[1] > 2], ids=[f"{k}-{p}" for k, p in CASES if p > 2])
def test_everyone_after_the_blocks_is_listed_under_them_with_their_place(
        kind: str, players: int, size: tuple[int, int], language: str) -> None:
    """The quiz lists on its podium those placed third or better (its table has
    everyone); the results screen everyone. Ties share the place."""
    draw, view = frame_for(kind, players, language)
    records = drawn(draw, size)
    on_podium, listed = podium_parts(records, size, players)
    rows = ranking(view)
    after = [(place, members[0]) for place, members, _s in rows[3:] if kind == "results" or place <= 3]
    want = [f"{place}. {player_name(station)}" for place, station in after]
    assert sorted(asked for asked, *_r in listed) == sorted(want), f"{kind} {language} {size}"
    assert all(shown == asked for asked, shown, *_r in listed), f"cut: {listed}"
    lowest = max(ink.bottom for _a, _s, ink, _r, _on in on_podium)  # the blocks' texts and the names over them
    for asked, _shown, ink, _r, _on in listed:
        assert ink.top > lowest, f"{asked!r} beside the blocks ({ink}), not under them (their texts end at {lowest})"


MANY_CASES = [(kind, players) for kind in ("results", "quiz") for players in MANY]


def placed(texts: list[tuple[str, pygame.Rect]], place: int, name: str) -> bool:
    """Whether ``name`` is drawn whole with its place: "4. Anna" on one line (the
    list, the table), or over a block whose number is the place (``texts``: each
    text drawn whole and the rect it was given)."""
    if f"{place}. {name}" in (shown for shown, _ink in texts):
        return True
    return any(shown == name and any(number == str(place) and abs(box.centerx - at.centerx) <= 2 and at.top > box.bottom
                                     for number, at in texts) for shown, box in texts)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize(("kind", "players"), MANY_CASES, ids=[f"{k}-{p}" for k, p in MANY_CASES])
def test_with_many_players_everyone_is_on_the_final_results_with_their_place(
        kind: str, players: int, size: tuple[int, int], language: str) -> None:
    """Sixteen players: the list beside the blocks left out the rows below the
    screen (six of thirteen shown), the quiz's table its last six. Every player's
    name whole with their place (ties share it), inside the screen, at least the
    smallest type, clear of every other text (the strip's cells left out: they
    name everyone whatever the body shows)."""
    draw, view = frame_for(kind, players, language)
    records, smallest = measured(draw, size, players)
    assert not unfit_texts(records, smallest, size), f"{kind} {language} {size}"
    texts = [(shown, r) for asked, shown, _ink, r, _on in records if shown == asked]
    missing = [(place, player_name(s)) for place, members, _score in ranking(view) for s in members
               if not placed(texts, place, player_name(s))]
    assert not missing, f"{kind} {language} {size}: not shown with their place: {missing}; drawn {[t for t, _i in texts]}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_sixteen_long_names_leave_nobody_out(size: tuple[int, int], language: str) -> None:
    """Half of sixteen players with the longest names a profile allows: no
    podium leaves room for the rows after it, so everyone is in one table,
    "4. Bartłomiej Szczęsny-Woźń" whole with their place, clear of the rest."""
    set_language(language)
    scores = MANY[16]
    strip = [{"status": "idle", "name": LONG_NAMES[k % len(LONG_NAMES)] if k % 2 else player_name(k)} for k in range(16)]
    view = freeze({"phase": "over", "finished": True, "scores": scores})

    def draw(surface: pygame.Surface) -> None:
        scene = ResultsScene(game_title="Reaction duel")
        scene.draw(pygame.Surface(surface.get_size()), view, strip, 0)
        if theme.DRAWN is not None:
            theme.DRAWN.clear()
        scene.draw(surface, view, strip, 10_000_000)

    records, smallest = measured(draw, size, 16)
    assert not unfit_texts(records, smallest, size), f"{language} {size}"
    texts = [(shown, r) for asked, shown, _ink, r, _on in records if shown == asked]
    missing = [(place, strip[s]["name"]) for place, members, _score in ranking(view) for s in members
               if not placed(texts, place, str(strip[s]["name"]))]
    assert not missing, f"{language} {size}: not shown with their place: {missing}"


#: the longest names the menu's editor takes (16 characters), wide letters and accents
SIXTEEN = [name[:16] for name in LONG_NAMES]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
@pytest.mark.parametrize("players", [9, 12, 16])
def test_many_players_keep_their_right_answers_beside_their_points(players: int, size: tuple[int, int], language: str) -> None:
    """Nine to sixteen players of sixteen-character names on the quiz's final
    results: the table beside the podium kept only the points, the names cut
    ("1. Wendelí…"). The podium gives way to the table: every name whole with
    its place, the right answers beside the points (every figure for nine,
    who stand in one table), every text whole and clear of the rest."""
    set_language(language)
    scores = MANY[players]
    frame = next(f for f in phase_frames("quiz", players, (), language) if f.finished)
    places = [place for place, _m, _s in ranking({"scores": scores})]
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    view = dict(frame.view)
    view.update(scores=tuple(scores), correct=tuple(scores), standings=tuple(
        {"place": place, "team": s, "stations": (s,), "score": scores[s], "correct": scores[s], "wrong": 0, "out": False}
        for s, place in zip(order, places, strict=True)))
    strip = [dict(cell, name=SIXTEEN[k % len(SIXTEEN)]) for k, cell in enumerate(frame.strip)]
    scene = frame.scene()
    records, smallest = measured(lambda surface: scene.draw(surface, freeze(view), strip, frame.now_us), size, players)
    assert not unfit_texts(records, smallest, size), f"{language} {size}: {unfit_texts(records, smallest, size)}"
    shown = [text for asked, text, *_r in records if text == asked]
    missing = [f"{place}. {strip[s]['name']}" for s, place in zip(order, places, strict=True)
               if f"{place}. {strip[s]['name']}" not in shown]
    assert not missing, f"{language} {size}: not whole with their place: {missing}"
    heads = [_("pts"), _("right"), *([_("fastest"), _("median")] if players <= 9 else [])]
    assert all(head in shown for head in heads), f"{language} {size}: the table's columns {[t for t in shown if t in heads]}"
    assert shown.count(_("right")) == shown.count(_("pts")), "a table without the right answers"
