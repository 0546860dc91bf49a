"""A quiz bowl round inside a night of rounds: a classic round, then a bowl
round (tossups, powers, negs, bonuses), then an all-play round. The bowl
round scores exactly as the whole-quiz preset does; ``results`` counts each
round; the QBJ file holds the bowl round's tossups only; the moderator's
keys are offered and listed only while the bowl round is played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pygame
import pytest

from controller.apps.qbj import SCHEMA
from controller.box import journal as journal_mod
from controller.box.press import Press
from controller.box.runtime import Box
from controller.cli import main
from games import registry
from games.base import Action
from games.i18n import _, set_language
from tests.fits import LONG_TEAMS
from tests.quiz.test_quiz_rounds import assert_drawn_whole_screen

SPEC = registry.get("quiz")
PACK = str(Path(__file__).parent / "packs" / "three-rounds.csv")
ROUNDS = [{"title": "Warm-up", "questions": 2}, {"title": "Tossups", "rules": "bowl", "questions": 2},
          {"title": "Everyone", "rules": "all-play"}]
#: a school match: stations 1+2 are the Owls, 3+4 the Foxes
TEAMS = {"teams": [0, 0, 1, 1], "team_names": ["Owls", "Foxes"]}


def bell(box: Box, station: int, t: int, input_name: str = "bell") -> None:
    """A press, then time enough that no later press could tie with it."""
    box.apply_press(Press(station, input_name, t))
    box.step(t + 1_000)


def play_the_night(path: Path) -> Box:
    """Six presses a round; what each question scores is said beside it."""
    box = Box(SPEC, SPEC.settings(4, 11, pack=PACK, rounds=ROUNDS, **TEAMS))
    box.journal = journal_mod.JournalWriter.create(path, box.header(), fsync=False)
    # round 1, classic: a right answer is 1 point
    box.host("arm", 0)
    bell(box, 2, 500_000)
    box.host("correct", 1_000_000)  # Foxes +1
    box.host("next", 1_500_000)
    box.host("arm", 2_000_000)
    bell(box, 0, 2_500_000)
    box.host("correct", 3_000_000)  # Owls +1
    box.host("next", 3_500_000)
    # round 2, quiz bowl
    assert box.engine.public_view()["round"]["rules"] == "bowl"
    box.host("arm", 10_000_000)
    bell(box, 1, 10_500_000)  # before the power mark
    for k, verdict in enumerate(("correct", "correct", "correct", "wrong")):
        box.host(verdict, 11_000_000 + k * 100_000)  # Owls: a power, 15, and 2 of 3 bonus parts, 20
    box.host("next", 12_000_000)
    box.host("arm", 13_000_000)
    box.host("power", 13_500_000)
    bell(box, 2, 13_600_000)  # after the mark, while still reading
    box.host("wrong", 14_000_000)  # a neg: Foxes -5, locked out
    box.host("read", 15_000_000)
    bell(box, 3, 15_200_000)  # locked out with its team: nothing
    bell(box, 0, 15_300_000)
    for k, verdict in enumerate(("correct", "wrong", "wrong", "wrong")):
        box.host(verdict, 16_000_000 + k * 100_000)  # Owls: 10, no bonus part
    box.host("next", 17_000_000)
    # round 3, all-play, 20 s: a right answer is 1000 * (1 - t/T/2); a team scores its members' mean
    box.host("arm", 20_000_000)
    bell(box, 0, 22_000_000, "b")  # Mars after 2 s: 950
    bell(box, 1, 23_000_000, "a")  # wrong: 0
    bell(box, 2, 30_000_000, "b")  # after 10 s: 750
    bell(box, 3, 39_000_000, "b")  # after 19 s: 525
    box.journal.close()
    return box


def test_a_bowl_round_between_a_classic_and_an_all_play_round_scores_each_by_its_rules(tmp_path: Path,
                                                                                        capsys: Any) -> None:
    path = tmp_path / "night.jsonl"
    box = play_the_night(path)
    assert box.engine.finished
    owls, foxes = 1 + 15 + 20 + 10 + (950 + 0) // 2, 1 - 5 + 638  # Foxes' mean: (750 + 525) / 2, half up
    assert box.engine.public_view()["team_scores"] == [owls, foxes]
    assert main(["results", str(path), "--json"]) == 0
    out = capsys.readouterr()
    assert "differ" not in out.err  # the judgements add up to the game's scores
    table = json.loads(out.out)["standings"]
    assert [r["questions"] for r in table["rounds"]] == [[1, 2], [3, 4], [5]]
    teams = {t["name"]: t for t in table["teams"]}
    assert teams["Owls"]["rounds"] == [1, 45, 475] and teams["Owls"]["points"] == owls
    assert teams["Foxes"]["rounds"] == [1, -5, 638] and teams["Foxes"]["points"] == foxes
    assert table["winner"]["names"] == ["Foxes"] and table["winner"]["points"] == foxes
    assert main(["results", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Player 2: correct +15\n  Player 2: bonus part +10\n  Player 2: bonus part +10\n  Player 2: bonus part +0" in text
    assert "Player 3: wrong -5" in text and "Player 1: correct +10" in text
    assert f"Winner: Foxes with {foxes} points" in text


def test_the_qbj_file_of_the_night_holds_the_bowl_round_s_tossups(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "night.jsonl"
    play_the_night(path)
    assert main(["results", str(path), "--qbj", "-"]) == 0
    match = json.loads(capsys.readouterr().out)
    jsonschema.validate(match, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert match["tossups_read"] == 2
    first, second = match["match_questions"]
    assert (first["question_number"], second["question_number"]) == (1, 2)
    assert "Great Red Spot" in first["tossup_question"]["text"]
    assert [(b["player"]["$ref"], b["result"]["value"]) for b in first["buzzes"]] == [("player_2", 15)]
    assert [(b["team"]["$ref"], b["result"]["value"]) for b in second["buzzes"]] == [("team_2", -5), ("team_1", 10)]
    assert [t["bonus_points"] for t in match["match_teams"]] == [20, 0]
    counts = {c["answer_type"]["value"]: c["number"]
              for c in match["match_teams"][0]["match_players"][1]["answer_counts"]}
    assert counts == {15: 1, 10: 0, -5: 0}  # the bowl round's values, not the all-play round's 1000


def test_the_moderator_s_marks_are_offered_only_in_the_bowl_round() -> None:
    from controller.box.views import host_buttons

    box = Box(SPEC, SPEC.settings(4, 11, pack=PACK, rounds=ROUNDS, **TEAMS))

    def offered() -> set[str]:
        return {b["kind"] for b in host_buttons(box)}

    box.host("arm", 0)
    assert not {"power", "read"} & offered()
    box.host("next", 100_000)  # question 1 skipped
    box.host("next", 200_000)  # question 2 skipped: round 2's card
    view = box.engine.public_view()
    assert view["round_intro"] and view["round"]["rules"] == "bowl" and view["round"]["power_points"] == 15
    box.host("arm", 400_000)
    assert {"power", "read"} <= offered()


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_each_round_s_card_says_its_preset_the_bowl_round_s_its_points(tmp_path: Path, lang: str, size: tuple[int, int],
                                                              drawing_in_a_language: None) -> None:
    set_language(lang)
    engine = SPEC.new_engine(SPEC.settings(8, 11, pack=PACK, rounds=ROUNDS, teams=[0, 0, 0, 0, 1, 1, 1, 1],
                                           team_names=LONG_TEAMS[:2]))
    engine.handle(Action("next", 1))
    engine.handle(Action("next", 2))  # to round 2's card
    shown = assert_drawn_whole_screen(engine.public_view(), 8, size, tmp_path / f"bowl-round-card-{lang}-{size[0]}.png")
    drawn = [text for _asked, text, *_ in shown]
    assert _("quiz bowl: tossups, a bonus to the team that gets one") in drawn
    assert _("power: +{power}, neg: −{neg}, bonus: {parts} × {points}").format(
        power=15, neg=5, parts=3, points=10) in drawn
    assert _("right: +{right}").format(right=10) in drawn
    engine.handle(Action("next", 3))
    engine.handle(Action("next", 4))  # to round 3's card: all-play
    shown = assert_drawn_whole_screen(engine.public_view(), 8, size, tmp_path / f"all-play-round-card-{lang}-{size[0]}.png")
    drawn = [text for _asked, text, *_ in shown]
    assert _("everyone answers; a faster right answer scores more") in drawn
    assert not any(_("quiz bowl: tossups, a bonus to the team that gets one") in text for text in drawn)


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_a_bowl_round_without_bonus_parts_promises_no_bonus_on_its_card(tmp_path: Path, lang: str,
                                                                        drawing_in_a_language: None) -> None:
    set_language(lang)
    rounds = [ROUNDS[0], {**ROUNDS[1], "bonus_parts": 0}, ROUNDS[2]]
    engine = SPEC.new_engine(SPEC.settings(4, 11, pack=PACK, rounds=rounds, **TEAMS))
    engine.handle(Action("next", 1))
    engine.handle(Action("next", 2))  # to round 2's card
    drawn = [text for _asked, text, *_ in assert_drawn_whole_screen(
        engine.public_view(), 4, (1280, 720), tmp_path / f"bowl-no-bonus-card-{lang}.png")]
    assert _("quiz bowl: tossups only, no bonus") in drawn
    assert _("power: +{power}, neg: −{neg}").format(power=15, neg=5) in drawn
    assert _("quiz bowl: tossups, a bonus to the team that gets one") not in drawn
    assert not any("bonus:" in text for text in drawn), drawn  # no "bonus: 0 × 10" (the word is the same in cs/pl)


def test_without_teams_a_bowl_round_s_neg_locks_out_only_its_player_and_the_bonus_is_the_player_s() -> None:
    engine = SPEC.new_engine(SPEC.settings(3, 11, pack=PACK, rounds=ROUNDS))
    for t in (1, 2):  # to the bowl round
        engine.handle(Action("next", t))
    engine.handle(Action("arm", 1_000_000))
    engine.handle(Action("buzz", 1_100_000, 0))
    engine.tick(1_200_000)
    engine.handle(Action("wrong", 2_000_000))  # a neg
    assert engine.public_view()["status"] == ["out", "idle", "idle"]
    engine.handle(Action("read", 3_000_000))
    engine.handle(Action("buzz", 3_100_000, 1))
    engine.tick(3_200_000)
    events = engine.handle(Action("correct", 4_000_000))
    assert events[-1].kind == "bonus" and events[-1].data == {"team": 1, "parts": 3}
    engine.handle(Action("correct", 5_000_000))
    assert engine.public_view()["scores"] == [-5, 20, 0]


def help_keys(box: Box) -> dict[str, str]:
    """The help overlay's rows as ``h`` shows them over the game now: key -> meaning."""
    from controller.screen.keyboard import KeyboardSource
    from controller.screen.loop import Presenter, draw_box, keyboard_help
    from controller.screen.screen import Screen
    from games.scenes import scene_for

    keyboard = KeyboardSource(box.settings.players)
    keyboard.add_host_keys(SPEC.host_keys)
    presenter = Presenter(Screen.open(headless=True, size=(1280, 720)), scene_for("quiz"))
    presenter.help = keyboard_help(box.spec, keyboard, box.engine.public_view())
    presenter.show_help = True
    draw_box(presenter, box, box.now_us, pygame.Surface((1280, 720)))
    return dict(presenter.help.rows)


BOWL_KEYS = {"m": "quiz bowl: the reading passed the power mark", "e": "quiz bowl: the tossup is read to the end"}


@pytest.mark.parametrize("rules", ["classic", "penalty", "teams", "all-play"])
def test_the_help_of_a_quiz_without_bowl_does_not_list_the_moderator_s_keys(rules: str) -> None:
    box = Box(SPEC, SPEC.settings(4, 11, pack=PACK, rules=rules))
    box.host("arm", 0)
    keys = help_keys(box)
    assert "space" in keys and "p" in keys  # the quiz's other keys are there
    assert not BOWL_KEYS.keys() & keys.keys()
    assert not any("quiz bowl" in meaning for meaning in keys.values())


def test_the_help_lists_the_moderator_s_keys_while_the_bowl_round_is_played() -> None:
    box = Box(SPEC, SPEC.settings(4, 11, pack=PACK, rounds=ROUNDS, **TEAMS))
    assert not BOWL_KEYS.keys() & help_keys(box).keys()  # round 1, classic
    box.host("next", 100_000)
    box.host("next", 200_000)  # round 2's card: quiz bowl
    assert help_keys(box).items() >= BOWL_KEYS.items()
    box.host("arm", 300_000)
    assert help_keys(box).items() >= BOWL_KEYS.items()
    box.host("next", 400_000)
    box.host("next", 500_000)  # round 3: all-play
    assert not BOWL_KEYS.keys() & help_keys(box).keys()
    whole = Box(SPEC, SPEC.settings(4, 11, pack=PACK, rules="bowl"))
    assert help_keys(whole).items() >= BOWL_KEYS.items()


def test_the_host_page_s_plan_names_each_round_s_preset_in_the_box_s_language() -> None:
    from controller.box.views import host_cue

    engine = SPEC.new_engine(SPEC.settings(4, 11, pack=PACK, rounds=ROUNDS, **TEAMS))
    set_language("cs")
    try:
        cue = host_cue(engine, False)
    finally:
        set_language("en")
    assert cue is not None
    assert [(r["rules"], r["rules_name"]) for r in cue["rounds"]] == [
        ("classic", "klasická"), ("bowl", "quiz bowl: tossupy a bonusy"),
        ("all-play", "všichni hrají: odpovídá každý")]


def test_a_simulated_night_with_a_bowl_round_ends_its_host_judging_each_bonus_part(tmp_path: Path) -> None:
    """The simulated host (demo, simulate) reads a negged tossup to the end and judges the bonus parts."""
    from controller.box.runtime import box_from_journal
    from controller.box.simulate import Session

    settings = SPEC.settings(4, 0, pack=PACK, rounds=ROUNDS, teams=[0, 0, 1, 1], buzz_window_us=8_000_000,
                             answer_time_us=6_000_000)
    box = Box(SPEC, settings)
    path = tmp_path / "night.jsonl"
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    Session(box, SPEC.new_bots(settings), SPEC.new_host(settings), 0).run_virtual(3_600_000_000)
    box.journal.close()
    assert box.engine.finished
    cycles = [r["bowl"] for r in box.engine.round.results if "bowl" in r]
    assert len(cycles) == 2 and any(len(c["bonus"]) == 3 for c in cycles)
    assert any(b["result"] == "neg" for c in cycles for b in c["buzzes"])
    assert box_from_journal(journal_mod.read(path)).engine.summary() == box.engine.summary()
