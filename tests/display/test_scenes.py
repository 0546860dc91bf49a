"""Screenshots of every scene in every state, checked where a player looks:
the colour that fills the winner panel, GO, the strip cell of a locked station."""

from __future__ import annotations

import pygame
import pytest

from controller.box.monitor import InputMonitor
from controller.box.press import Edge
from controller.screen.diag import DiagScene
from controller.screen.menu import Menu, MenuScene
from games.quiz import scene as quiz_scene
from games.reaction import scene as reaction_scene
from games.scenes import scene_for
from games.toolkit import theme
from games.toolkit.results import ResultsScene
from games.toolkit.scene import freeze, strip_cells
from games.toolkit.theme import TEXT, Layout
from tests.display.conftest import dominant, play_until, session
from tests.phases import configurations, phase_frames

SIZE = (1920, 1080)


def draw(game: str, s, size=SIZE) -> pygame.Surface:
    surface = pygame.Surface(size)
    scene = ResultsScene(game_title="x") if s.box.engine.finished else scene_for(game)
    scene.draw(surface, freeze(s.box.engine.public_view()), s.box.strip(), s.now_us)
    return surface


def body(size=SIZE, stations: int = 4) -> pygame.Rect:
    return Layout(size[0], size[1], stations).body


def test_quiz_title_card_then_not_armed_then_armed() -> None:
    s = session("quiz")
    play_until(s, lambda v: v["phase"] == "idle")
    surface = draw("quiz", s)
    # before the first question: the title card with every player in their own colour
    assert dominant(surface, body()) == theme.PANEL
    b = body()
    chips = {tuple(surface.get_at((x, y)))[:3] for x in range(b.left, b.right, 7) for y in range(b.centery, b.bottom, 7)}
    assert all(theme.PALETTE[i] in chips for i in range(4))
    play_until(s, lambda v: v["phase"] == "idle" and v["question"] == 2)
    assert dominant(draw("quiz", s), body()) == quiz_scene.NOT_ARMED
    play_until(s, lambda v: v["phase"] == "armed" and not any(x != "idle" for x in v["status"]))
    assert dominant(draw("quiz", s), body()) == quiz_scene.ARMED


def test_quiz_winner_colour_dominates_winner_panel_and_queue_is_listed() -> None:
    s = session("quiz")
    view = play_until(s, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 1)
    surface = draw("quiz", s)
    b = body()
    winner_panel = pygame.Rect(b.left, b.top, b.width * 60 // 100, b.height)
    assert dominant(surface, winner_panel) == theme.PALETTE[view["winner"]]
    # the queue column: a chip in the colour of the next in line
    side = pygame.Rect(b.right - b.width * 36 // 100, b.top, b.width * 36 // 100, b.height)
    chip_colours = {tuple(surface.get_at((side.left + 3, y)))[:3] for y in range(side.top, side.bottom, 4)}
    assert theme.PALETTE[view["queue"][0]] in chip_colours
    cells = strip_cells(surface, 4)
    assert dominant(surface, cells[view["winner"]].inflate(0, -cells[0].height // 3).move(0, cells[0].height // 8)) == theme.PALETTE[view["winner"]]
    # the others' tiles keep their own colour in their band, and the queue's tile is its colour dimmed
    nxt = view["queue"][0]
    assert dominant(surface, cells[nxt].inflate(0, -cells[0].height // 3).move(0, cells[0].height // 8)) == \
        theme.blend(theme.STATUS_COLORS["idle"], theme.PALETTE[nxt], 0.55)


def test_quiz_locked_station_cell_is_locked_colour() -> None:
    s = session("quiz")
    view = play_until(s, lambda v: "locked" in v["status"])
    station = view["status"].index("locked")
    surface = draw("quiz", s)
    cell = strip_cells(surface, 4)[station]
    inner = pygame.Rect(cell.left + cell.width // 10, cell.top + cell.height // 4, cell.width * 8 // 10, cell.height // 2)
    assert dominant(surface, inner) == theme.STATUS_COLORS["locked"]
    others = [i for i, st in enumerate(view["status"]) if st == "idle"]
    assert dominant(surface, strip_cells(surface, 4)[others[0]].inflate(-20, -40)) != theme.STATUS_COLORS["locked"]


def test_a_press_lights_its_strip_cell_at_once() -> None:
    s = session("quiz")
    play_until(s, lambda v: v["phase"] == "armed")
    t = s.now_us
    s.box.edge(Edge(2, "bell", 0, t + 10), 1)
    s.step(t + 2_000)  # debounced: accepted once stable for the glitch time
    surface = draw("quiz", s)
    cell = strip_cells(surface, 4)[2]
    assert tuple(surface.get_at((cell.centerx, cell.bottom - 2)))[:3] == theme.PRESSED
    other = strip_cells(surface, 4)[1]
    assert tuple(surface.get_at((other.centerx, other.bottom - 2)))[:3] != theme.PRESSED


def test_quiz_team_colours_shared_by_team_mates() -> None:
    s = session("quiz", teams=[0, 0, 1, 1])
    play_until(s, lambda v: v["phase"] == "armed")
    surface = draw("quiz", s)
    cells = strip_cells(surface, 4)
    band = [tuple(surface.get_at((c.centerx, c.top + 3)))[:3] for c in cells]
    assert band[0] == band[1] != band[2] == band[3]


def test_a_team_is_drawn_in_the_colour_its_players_are_told_on_every_quiz_screen() -> None:
    """The strip, the question screen and the end screen show each team in its
    Okabe-Ito colour, the one the scoreboard, the podium and the phones name."""
    from games.quiz.teams import team_colour
    from games.toolkit.results import RISE_US

    s = session("quiz", teams=[0, 0, 1, 1], demo_questions=2)
    play_until(s, lambda v: v["phase"] == "armed")
    surface = draw("quiz", s)
    cells = strip_cells(surface, 4)
    band = [tuple(surface.get_at((c.centerx, c.top + 3)))[:3] for c in cells]
    assert band == [team_colour(0).rgb, team_colour(0).rgb, team_colour(1).rgb, team_colour(1).rgb]
    view = play_until(s, lambda v: v["finished"])
    surface = pygame.Surface(SIZE)
    ResultsScene(game_title="x").draw(surface, freeze(view), s.box.strip(), s.now_us + RISE_US)
    seen = {tuple(surface.get_at((x, y)))[:3] for x in range(0, SIZE[0], 6) for y in range(0, SIZE[1], 6)}
    assert {team_colour(0).rgb, team_colour(1).rgb} <= seen
    assert not {theme.PALETTE[0], theme.PALETTE[1]} & seen  # not the stations' own red and blue


@pytest.mark.parametrize(
    ("phase", "colour"),
    [("wait", reaction_scene.WAIT), ("go", reaction_scene.GO), ("decoy", reaction_scene.DECOY)],
)
def test_reaction_phases_fill_the_body(phase: str, colour: tuple[int, int, int]) -> None:
    s = session("reaction", decoy_chance=0.6)
    play_until(s, lambda v: v["phase"] == phase)
    assert dominant(draw("reaction", s), body()) == colour


def test_reaction_false_start_banner_and_result_winner_panel() -> None:
    s = session("reaction", seed=3)
    view = play_until(s, lambda v: v["phase"] in ("wait", "decoy") and v["false_starts"])
    surface = draw("reaction", s)
    b = body()
    banner = pygame.Rect(b.left, b.bottom - b.height // 5, b.width, b.height // 5)
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(banner.left, banner.right, 37) for y in range(banner.top, banner.bottom, 9)}
    assert reaction_scene.FALSE_START in colours
    view = play_until(s, lambda v: v["phase"] == "result" and v["last"].get("winner") is not None)
    surface = draw("reaction", s)
    head = pygame.Rect(b.left, b.top, b.width * 60 // 100, b.height * 45 // 100)
    assert dominant(surface, head) == theme.PALETTE[view["last"]["winner"]]


def test_results_screen_in_the_winners_colour() -> None:
    """Once the podium has risen (it rises as the screen first shows) the winner's block is theirs."""
    from games.toolkit.results import RISE_US

    s = session("reaction", rounds=3)
    play_until(s, lambda v: v["finished"])
    view = s.box.engine.public_view()
    surface = pygame.Surface(SIZE)
    scene = ResultsScene(game_title="x")
    scene.draw(surface, freeze(view), s.box.strip(), s.now_us)
    b = body()
    top_third = pygame.Rect(b.left, b.bottom - b.height // 2, b.width // 2, b.height // 6)
    first_frame = {tuple(surface.get_at((x, top_third.centery)))[:3] for x in range(top_third.left, top_third.right, 8)}
    scene.draw(surface, freeze(view), s.box.strip(), s.now_us + RISE_US)
    assert theme.PALETTE[view["leaderboard"][0]["player"]] not in first_frame  # it was still low at the start
    best = view["leaderboard"][0]["player"]
    # the podium: the winner's block in the middle, highest, in the winner's colour
    podium = b.width  # the rest of the ranking is in a row under the blocks, which take the whole width
    middle = pygame.Rect(b.left + podium // 3 + podium // 12, b.bottom - b.height // 2, podium // 6, b.height // 2)
    assert dominant(surface, middle) == theme.PALETTE[best]
    second = view["leaderboard"][1]["player"]
    left = pygame.Rect(b.left + podium // 12, b.bottom - b.height // 3, podium // 6, b.height // 3)
    assert dominant(surface, left) == theme.PALETTE[second]
    above_left = pygame.Rect(b.left + podium // 12, b.top, podium // 6, b.height // 4)
    assert dominant(surface, above_left) == theme.BG  # second stands lower than first


def test_diag_marks_a_noisy_input() -> None:
    mon = InputMonitor([("A", ["bell"]), ("B", ["bell"])])
    for k in range(4):  # four 200 µs spikes: noise, not presses
        mon.edge(Edge(1, "bell", 0, k * 100_000), 1)
        mon.edge(Edge(1, "bell", 1, k * 100_000 + 200), 1)
        mon.step(k * 100_000 + 50_000)
    view = mon.view()
    rows = {r["name"]: r for r in view["inputs"]}
    assert rows["B"]["flag"] == "noisy" and rows["A"]["flag"] == ""
    surface = pygame.Surface(SIZE)
    DiagScene().draw(surface, freeze(view), mon.strip(), mon.now_us)
    b = body(stations=2)
    row_h = round(Layout(*SIZE).min_text * 1.25)
    second_row = pygame.Rect(b.left, b.top + 2 * (row_h + 2), b.width, row_h)
    assert dominant(surface, second_row) != dominant(surface, pygame.Rect(b.left, b.top + row_h + 2, b.width, row_h))


def test_menu_highlights_the_chosen_line() -> None:
    menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
    menu.key("down")
    surface = pygame.Surface(SIZE)
    MenuScene().draw(surface, freeze(menu.view()), [], 0)
    colours = {tuple(surface.get_at((SIZE[0] // 2 - 300, y)))[:3] for y in range(0, SIZE[1], 3)}
    assert theme.STATUS_COLORS["first"] in colours


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_no_text_below_the_minimum_glyph_height(size: tuple[int, int]) -> None:
    """Every label of every scene, at every supported size, is at least 1/24
    of the screen height."""
    TEXT.sizes_used.clear()
    for game, want in [("quiz", "answering"), ("quiz", "round_over"), ("reaction", "result"), ("reaction", "wait")]:
        s = session(game, players=16 if game == "quiz" else 6)
        play_until(s, lambda v, want=want: v["phase"] == want)
        draw(game, s, size)
    minimum = Layout(*size).min_text
    assert min(TEXT.sizes_used) >= minimum
    assert minimum == max(12, round(size[1] / 24))


@pytest.mark.parametrize(("game", "players", "options"), configurations(),
                         ids=[f"{g}-{n}" + "".join(f"-{v}" for _k, v in o) for g, n, o in configurations()])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_every_phase_of_every_registered_game_keeps_the_minimum_text(
        game: str, players: int, options: tuple[tuple[str, object], ...], size: tuple[int, int]) -> None:
    """The registry's games, each phase as its bots reach it: a new game's
    scene is held to 1/24 of the screen height the moment it is registered."""
    frames = phase_frames(game, players, options)
    assert frames, f"{game}: no frame"
    for frame in frames:
        TEXT.sizes_used.clear()
        frame.draw(pygame.Surface(size))
        assert TEXT.sizes_used, f"{frame.name}: no text drawn"
        assert min(TEXT.sizes_used) >= Layout(*size).min_text, f"{frame.name}: text smaller than 1/24 of the height"


def test_sixteen_stations_fit_in_two_rows() -> None:
    surface = pygame.Surface(SIZE)
    cells = strip_cells(surface, 16)
    assert len({c.top for c in cells}) == 2
    assert all(surface.get_rect().contains(c) for c in cells)
    assert not any(a.colliderect(b) for i, a in enumerate(cells) for b in cells[i + 1:])


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_menu_with_more_rows_than_fit_scrolls_and_keeps_the_chosen_row_in_sight(size: tuple[int, int]) -> None:
    """The quiz has many options: its rows must not run into the station strip,
    and the row being changed is always drawn (found when the quiz's pack and
    rules rows and the Phones row landed together)."""
    theme.DRAWN = []
    try:
        menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
        rows = len(menu.view()["items"])
        strip_top = strip_cells(pygame.Surface(size), 4)[0].top
        for step in range(rows):
            theme.DRAWN.clear()
            view = menu.view()
            MenuScene().draw(pygame.Surface(size), freeze(view), [], 0)
            chosen = next(it for it in view["items"] if it["selected"])
            asked = {str(d[0]) for d in theme.DRAWN}
            assert str(chosen["label"]) in asked or str(chosen["value"]).upper() in asked, f"row {step} not drawn"
            spilled = [d[0] for d in theme.DRAWN if d[3].top < strip_top < d[3].bottom]
            assert not spilled, f"rows run into the station strip: {spilled}"
            menu.key("down")
    finally:
        theme.DRAWN = None


def test_everyone_tied_for_first_stands_on_the_podium() -> None:
    """Four players on 23 points all won: each gets a crowned block of the winner's height in
    their colour, none of them is left in the list beside the podium."""
    from games.toolkit.results import RISE_US

    view = {"phase": "over", "finished": True, "scores": [23, 23, 23, 23]}
    strip = [{"name": n, "status": "idle"} for n in ("Anna", "Bořek", "Łucja", "Dan")]
    surface = pygame.Surface(SIZE)
    scene = ResultsScene(game_title="x")
    scene.draw(surface, freeze(view), strip, 0)
    theme.DRAWN = []
    try:
        scene.draw(surface, freeze(view), strip, RISE_US)
        drawn = [text for text, _shown, _ink, _r, _s in theme.DRAWN]
    finally:
        theme.DRAWN = None
    assert drawn.count("1") == 4 and not any(t.startswith("1. ") for t in drawn)
    b = body()
    quarter = b.width // 4
    for k in range(4):  # four blocks side by side, each in its player's colour, all as high
        block = pygame.Rect(b.left + k * quarter + quarter // 4, b.bottom - b.height // 2, quarter // 2, b.height // 3)
        assert dominant(surface, block) == theme.PALETTE[k]
