"""With ``--web`` the companion's QR panel takes the body's right and the
game is laid out in the rest: in every phase of every registered game, at
both screen sizes, with 8 stations (or the game's most), no text the scene
draws lies under the panel and the scene paints nothing where the panel
goes (at 1280x720 it lay over Pictomania's score column)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame
import pytest

from controller.screen.phones_panel import UNITS, CompanionOverlay, free_wordings
from games import registry
from games.i18n import _, set_language
from games.toolkit import theme
from games.toolkit.scene import player_name
from tests.phases import PhaseFrame, phase_frames

SIZES = [(1920, 1080), (1280, 720)]
#: a long address, as a home network gives it
ADDRESS = "http://192.168.100.200:8080"


def configurations() -> list[tuple[str, int]]:
    return sorted({(game, max(registry.get(game).min_players, min(8, registry.get(game).max_players)))
                   for game in registry.available()})


def dressed(frame: PhaseFrame, players: int, with_panel: bool) -> tuple[object, CompanionOverlay]:
    """The frame's scene with the panel of a game whose seats all wait for a
    phone (the most the panel ever says), kept aside and drawn or not."""
    scene = frame.scene()
    overlay = CompanionOverlay(lambda: ADDRESS, "123456", lambda: ADDRESS + "/play", lambda: [False] * players,
                               [f"Player {n + 1}" for n in range(players)])
    scene.asides.append(overlay.aside)
    if with_panel:
        scene.overlays.append(overlay)
    return scene, overlay


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players"), configurations(), ids=lambda v: str(v))
def test_the_qr_panel_lies_over_nothing_the_game_draws(game: str, players: int, size: tuple[int, int]) -> None:
    for frame in phase_frames(game, players):
        scene, overlay = dressed(frame, players, True)
        surface = pygame.Surface(size)
        theme.DRAWN = []
        scene.draw(surface, frame.view, list(frame.strip), frame.now_us)  # type: ignore[attr-defined]
        drawn, theme.DRAWN = theme.DRAWN, None
        panel = overlay.panel_at
        assert panel is not None, f"{frame.name}: no panel though every seat waits"
        on_screen = [d for d in drawn if d[4].size == size]  # the panel's own texts are drawn on its own surface
        # the address and the panel's other lines in the smallest type a scene may use (it shrank to ~15 px at 1280x720): a capital
        # of that size stands 0.64 of it tall
        lines = [d for d in drawn if d[4].size != size and d[1]]
        address = lines[:next((k for k, d in enumerate(lines) if d[1].startswith("Scan")), len(lines))]  # and the PIN
        small = theme.layout_for(surface).min_text
        assert address and all(d[2].height >= small * 0.6 for d in address), \
            f"{frame.name}: the address is smaller than {small} px type: {[(d[1], d[2].height) for d in address]}"
        under = [d[1] for d in on_screen if d[2].width and d[2].colliderect(panel)]
        assert not under, f"{frame.name}: under the panel: {under}"
        scene, _overlay = dressed(frame, players, False)
        bare = pygame.Surface(size)
        scene.draw(bare, frame.view, list(frame.strip), frame.now_us)  # type: ignore[attr-defined]
        painted = [(x, y) for x in range(panel.left, panel.right, 3) for y in range(panel.top, panel.bottom, 3)
                   if tuple(bare.get_at((x, y)))[:3] != theme.BG]
        assert not painted, f"{frame.name}: the scene paints where the panel goes, e.g. at {painted[:3]}"


def cut_texts(frame: PhaseFrame, players: int, size: tuple[int, int], with_panel: bool) -> set[str]:
    """The scene's texts drawn cut with an ellipsis on a screen of ``size``
    (the panel's own texts, drawn on its own surface, left out)."""
    scene, _overlay = dressed(frame, players, with_panel)
    if not with_panel:
        scene.asides.clear()  # the whole body, as without --web
    surface = pygame.Surface(size)
    theme.DRAWN = []
    scene.draw(surface, frame.view, list(frame.strip), frame.now_us)  # type: ignore[attr-defined]
    drawn, theme.DRAWN = theme.DRAWN, None
    return {asked for asked, text, _ink, _rect, on in drawn if on.size == size and text != asked and text.endswith("…")}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "players"), configurations(), ids=lambda v: str(v))
def test_the_qr_panel_cuts_no_word_the_game_shows_whole(game: str, players: int, size: tuple[int, int]) -> None:
    """A word card, a score line or a player's state drawn whole without the
    panel is drawn whole beside it (shrunk, on two lines, never "frying p…")."""
    for frame in phase_frames(game, players):
        bare = cut_texts(frame, players, size, False)
        beside = cut_texts(frame, players, size, True)
        assert beside <= bare, f"{frame.name}: cut beside the panel only: {sorted(beside - bare)}"


#: as long as a station name may be (a profile's MAX_NAME)
LONGEST_NAME = "Magdalena Nowak-Kowalska"
LANGUAGES = ["en", "cs", "pl"]
Drawn = list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]


def free_seat_wordings(free: Sequence[tuple[int, str]]) -> list[str]:
    """Every way the panel may say which seats are free, each naming all of
    them (the wordings themselves are checked by hand below)."""
    return [template.replace(UNITS, ", ".join(units)) for template, units in free_wordings(free)]


def assert_free_seats_readable(drawn: Drawn, panel: pygame.Rect, overlay: CompanionOverlay, screen: pygame.Surface,
                               body: pygame.Rect, free: Sequence[tuple[int, str]]) -> None:
    """What a player reads on the panel: every line whole (no "…", no name
    or word of the PIN's label broken over two lines), every line as tall as its text in the screen's
    smallest type (``Layout.min_text``: the smallest any scene draws), the
    lines and the QR code inside the panel, and the free seats all said
    (their names, their numbers or how many)."""
    lay = theme.layout_for(screen)
    small = lay.min_text
    lines = [d for d in drawn if d[4].size == panel.size and d[1]]
    assert lines, "the panel drew no text"
    cut = [(asked, shown) for asked, shown, *_rest in lines if asked != shown or shown.endswith("…")]
    assert not cut, f"cut on the panel: {cut}"
    shrunk = [(shown, ink.height, theme.TEXT.render(shown, small, theme.FG).get_bounding_rect().height)
              for _asked, shown, ink, _r, _on in lines
              if ink.height < theme.TEXT.render(shown, small, theme.FG).get_bounding_rect().height - 1]
    assert not shrunk, f"below the smallest type ({small} px): {shrunk} (drawn, at {small} px)"
    assert all(ink.top >= 0 and ink.bottom <= panel.height for _a, _s, ink, _r, _on in lines), \
        f"a line outside the panel ({panel.height} px tall): {[(d[1], d[2]) for d in lines]}"
    code_top = max(rect.bottom for _a, _s, _ink, rect, _on in lines)
    assert overlay.join_url is not None
    code = overlay.code(overlay.join_url(), overlay.code_side(lay, body)).get_height()
    assert code_top + code <= panel.height, \
        f"the QR code ({code} px) does not fit under the lines ({code_top} px) in {panel.height} px"
    assert panel.bottom <= body.bottom, f"the panel {panel} reaches below the body {body}"
    text = " ".join(shown for _asked, shown, *_rest in lines)
    if overlay.show_pin():  # the PIN's label in whole words ("prowadzące" / "go 123456" was not)
        pin = overlay.current_pin()
        assert f" {_('Host PIN {pin}').format(pin=pin)} " in f" {text} " or f" {_('PIN {pin}').format(pin=pin)} " in f" {text} ", \
            f"the PIN not in whole words: {[d[1] for d in lines]}"
    said = [wording for wording in free_seat_wordings(free) if text.endswith(wording)]
    assert said, f"the free seats {[name for _s, name in free]} not all said: {[d[1] for d in lines]}"
    if said[0].startswith(_("Scan to join: {names}").format(names="")):  # names: each whole on one line
        broken = [name for _seat, name in free if not any(name in shown for _a, shown, *_rest in lines)]
        assert not broken, f"names broken over two lines: {broken} in {[d[1] for d in lines]}"


def namings(seats: int) -> dict[str, list[str]]:
    """The names of ``seats`` seats: the defaults, the longest a profile allows, short ones."""
    return {"default": [player_name(n) for n in range(seats)], "longest": [LONGEST_NAME] * seats,
            "short": [f"Ann {n + 1}" for n in range(seats)]}


@pytest.mark.usefixtures("drawing_in_a_language")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seats", [2, 3, 4, 6, 8, 12, 16])
@pytest.mark.parametrize("naming", ["default", "longest", "short"])
def test_the_qr_panel_says_every_free_seat_whole_in_the_smallest_type(naming: str, seats: int, language: str,
                                                                     size: tuple[int, int]) -> None:
    """2 to 16 seats, the third holding a phone already: the free seats are
    named, numbered ("Free seats: 1–3, 5") or counted, whichever fits, every
    line whole in the smallest type (their names were run together on a
    last line that shrank to half that size and was cut)."""
    set_language(language)
    names = namings(seats)[naming]
    joined = [seat == 2 for seat in range(seats)]
    overlay = CompanionOverlay(lambda: ADDRESS, "123456", lambda: ADDRESS + "/play", lambda: joined, names)
    surface = pygame.Surface(size)
    theme.DRAWN = []
    out, at = overlay.panel(surface, overlay.waiting(), names)
    drawn, theme.DRAWN = theme.DRAWN, None
    body = theme.layout_for(surface).body
    assert_free_seats_readable(drawn, out.get_rect(topleft=at), overlay, surface, body,
                               [(seat, names[seat]) for seat in overlay.waiting()])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_players_tied_on_the_quiz_podium_stay_whole_on_the_screen_beside_the_panel(size: tuple[int, int]) -> None:
    """Six of eight players tied for third beside the panel: the podium's
    blocks are too narrow for a list beside them, so the five after the
    blocks are listed under them, each "3. Player N" whole (the podium
    screen names everyone placed, not only the table)."""
    frame = next(f for f in phase_frames("quiz", 8) if f.finished)
    scores = [3, 2, 1, 1, 1, 1, 1, 1]
    standings = [{"place": place, "team": s, "stations": (s,), "score": scores[s], "correct": scores[s], "wrong": 0, "out": False}
                 for s, place in enumerate([1, 2, 3, 3, 3, 3, 3, 3])]
    view = {**frame.view, "scores": tuple(scores), "correct": tuple(scores), "standings": tuple(standings)}
    tied = PhaseFrame(frame.label, frame.game, frame.phase, view, frame.strip, frame.now_us, frame.finished)
    scene, overlay = dressed(tied, 8, True)
    surface = pygame.Surface(size)
    theme.DRAWN = []
    scene.draw(surface, view, list(tied.strip), tied.now_us)  # type: ignore[attr-defined]
    drawn, theme.DRAWN = theme.DRAWN, None
    panel = overlay.panel_at
    assert panel is not None
    # the podium is left of the table, whose first column is the names
    table_left = min(ink.left for asked, _shown, ink, _r, on in drawn if on.size == size and asked == "pts")
    podium = [(asked, shown) for asked, shown, ink, _r, on in drawn if on.size == size and ink.width and ink.right < table_left]
    assert not [asked for asked, shown in podium if asked != shown], f"cut on the podium: {podium}"
    words = " ".join(shown for _asked, shown in podium)
    assert all(f"3. Player {n}" in words for n in range(4, 9)), f"not every tied player listed whole: {words}"


@pytest.mark.parametrize(("free", "said"), [
    ([0, 1, 2, 4], "Free seats: 1–3, 5"),
    ([0, 1], "Free seats: 1, 2"),
    ([1, 3, 4, 5, 6, 9], "Free seats: 2, 4–7, 10"),
    ([7], "Free seats: 8"),
])
def test_free_seats_by_number_group_three_in_a_row_into_a_range(free: list[int], said: str) -> None:
    """The numbered wording as the room reads it, written out by hand; a seat
    the host renamed is never said by number."""
    set_language("en")
    assert said in free_seat_wordings([(seat, player_name(seat)) for seat in free])
    renamed = free_seat_wordings([(seat, "Anna" if seat == free[0] else player_name(seat)) for seat in free])
    assert not [w for w in renamed if w.startswith("Free seats")]
