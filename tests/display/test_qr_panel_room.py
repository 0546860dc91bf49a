"""With ``--web`` the companion's QR panel takes the body's right and the
game is laid out in the rest: in every phase of every registered game, at
both screen sizes, with 8 stations (or the game's most), no text the scene
draws lies under the panel and the scene paints nothing where the panel
goes (at 1280x720 it lay over Pictomania's score column)."""

from __future__ import annotations

import pygame
import pytest

from controller.web.overlay import CompanionOverlay
from games import registry
from games.toolkit import theme
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


#: the default names of eight seats, and eight seats of the longest default name a box gives (a sixteenth station's)
NAMINGS = {"default": [f"Player {n + 1}" for n in range(8)], "longest": ["Player 16"] * 8}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("naming", sorted(NAMINGS))
def test_the_qr_panel_names_every_free_seat_whole_in_the_smallest_type(naming: str, size: tuple[int, int]) -> None:
    """With eight seats waiting for a phone every seat's name is drawn whole,
    none shrunk below the screen's smallest type (they were run together on
    a last line that shrank and cut them)."""
    names = NAMINGS[naming]
    overlay = CompanionOverlay(lambda: ADDRESS, "123456", lambda: ADDRESS + "/play", lambda: [False] * 8, names)
    surface = pygame.Surface(size)
    small = theme.layout_for(surface).min_text
    theme.DRAWN = []
    overlay.panel(surface, overlay.waiting(), names)
    drawn, theme.DRAWN = theme.DRAWN, None
    # a name in the smallest type stands 0.8 of it tall from its capital to the descender of its "y" (0.64 without)
    whole = [asked for asked, shown, ink, _rect, _on in drawn if asked == shown and ink.height >= small * 0.75]
    assert sorted(name for name in whole if name in names) == sorted(names), \
        f"not every name whole in the smallest type: {[(d[0], d[1], d[2].height) for d in drawn]} (smallest {small} px)"


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
