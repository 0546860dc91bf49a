"""A quiz night as the room and the host notice it: the pack's questions on
the screen and in the record, the answer only when revealed, the host's
view, presets, the leaderboard and reactions, and a long question that still
fits at the minimum text size."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from controller.box import journal as journal_mod  # noqa: E402
from controller.box.press import Press  # noqa: E402
from controller.box.runtime import Box, box_from_journal  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from games import registry  # noqa: E402
from games.base import Action, BuzzerBoxError, GameEvent, RuleError  # noqa: E402
from games.quiz import PACKS_DIR  # noqa: E402

SPEC = registry.get("quiz")


def engine(players: int = 3, **options: Any):  # noqa: ANN201 - the quiz engine
    return SPEC.new_engine(SPEC.settings(players, 1, **options))


def act(e: Any, kind: str, t: int, player: int | None = None, **args: Any) -> list[GameEvent]:
    return e.handle(Action(kind, t, player, args))


def test_a_pack_reaches_the_engine_and_a_journal_replays_without_the_file(tmp_path: Path) -> None:
    pack = tmp_path / "friday.csv"
    shutil.copy(PACKS_DIR / "en-general.csv", pack)
    box = Box(SPEC, SPEC.settings(3, 7, pack=str(pack)))
    box.journal = journal_mod.JournalWriter.create(tmp_path / "q.jsonl", box.header(), fsync=False)
    box.host("arm", 0)
    box.apply_press(Press(1, "bell", 400_000))
    box.step(500_000)
    box.host("correct", 1_000_000)
    box.host("next", 2_000_000)
    box.journal.close()
    before = box.engine.summary()
    pack.unlink()  # the pack is gone: the journal alone tells the game
    replayed = box_from_journal(journal_mod.read(tmp_path / "q.jsonl"))
    assert replayed.engine.summary() == before
    assert replayed.engine.public_view()["ask"]["text"] == "How many legs does a spider have?"


def test_every_new_question_is_announced_with_what_results_read() -> None:
    e = engine(pack="en-general")
    events = act(e, "arm", 0) + act(e, "buzz", 10_000, 0) + e.tick(20_000) + act(e, "correct", 30_000)
    events += act(e, "next", 40_000)
    questions = [ev.data for ev in events if ev.kind == "question"]
    assert questions == [
        {"number": 1, "text": "Which planet is known as the Red Planet?", "category": "Science", "points": 1, "answer": "Mars"},
        {"number": 2, "text": "How many legs does a spider have?", "category": "Nature", "points": 1, "answer": "8"},
    ]
    without = engine()
    first = act(without, "arm", 0)[0]
    assert first.kind == "question" and first.data == {"number": 1, "text": "", "category": "", "points": 1, "answer": ""}


def test_the_answer_is_on_screen_only_after_the_reveal_but_the_host_sees_it_and_the_next_question() -> None:
    e = engine(pack="en-general")
    act(e, "arm", 0)
    act(e, "buzz", 10_000, 2)
    e.tick(20_000)
    view = e.public_view()
    shown = {**view, "ask": {**view["ask"], "choices": []}}  # the choices name it among others, of course
    assert view["answer"] is None and "Mars" not in str(shown)
    host = e.private_view(None)
    assert host["question"]["answer"] == "Mars"
    assert host["next"]["text"] == "How many legs does a spider have?" and host["next"]["answer"] == "8"
    assert e.private_view(0) == {}  # a player's view holds nothing hidden
    with pytest.raises(RuleError, match="cannot reveal"):
        act(e, "reveal", 25_000)  # not while someone is answering: it would give it away
    act(e, "correct", 30_000)
    act(e, "reveal", 40_000)
    assert e.public_view()["answer"] == "Mars"
    act(e, "next", 50_000)
    assert e.public_view()["answer"] is None  # the next question starts hidden again


def test_the_hosts_next_button_reveals_first_then_moves_on() -> None:
    box = Box(SPEC, SPEC.settings(2, 1, pack="en-general"))
    box.host("arm", 0)
    box.apply_press(Press(0, "bell", 1_000))
    box.step(100_000)
    box.host("correct", 200_000)
    assert box.host_kind("next") == "reveal"
    box.host(box.host_kind("next"), 300_000)
    assert box.engine.public_view()["revealed"]
    assert box.host_kind("next") == "next"
    plain = Box(SPEC, SPEC.settings(2, 1))  # no pack, no answer to reveal: next is next
    plain.host("arm", 0)
    plain.apply_press(Press(0, "bell", 1_000))
    plain.step(100_000)
    plain.host("correct", 200_000)
    assert plain.host_kind("next") == "next"


def test_undo_never_reaches_back_into_the_previous_question() -> None:
    """Question 1 judged and left; question 2's press being answered: an Undo
    there would take question 1's point away and drop the press, so it is not
    offered; question 2's own judgement can still be taken back."""
    e = engine(3)
    act(e, "arm", 1_000_000)
    act(e, "buzz", 1_200_000, 0)
    e.tick(1_300_000)
    act(e, "correct", 2_000_000)
    assert "undo" in e.legal_actions(None)  # still on question 1: the slip can be taken back
    act(e, "next", 3_000_000)
    assert "undo" not in e.legal_actions(None)
    act(e, "arm", 4_000_000)
    act(e, "buzz", 4_200_000, 1)
    e.tick(4_300_000)
    assert e.public_view()["phase"] == "answering" and "undo" not in e.legal_actions(None)
    with pytest.raises(RuleError, match="cannot undo"):
        act(e, "undo", 4_500_000)
    assert (e.public_view()["question"], e.public_view()["scores"], e.public_view()["winner"]) == (2, [1, 0, 0], 1)
    act(e, "wrong", 5_000_000)
    act(e, "undo", 5_500_000)  # question 2's own judgement
    assert (e.public_view()["phase"], e.public_view()["question"], e.public_view()["winner"]) == ("answering", 2, 1)
    assert "undo" not in e.legal_actions(None)


def test_a_bad_pack_or_preset_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    bad = tmp_path / "pub.csv"
    bad.write_text("question,answer,points\nWhat?,This,two\n", encoding="utf-8")
    with pytest.raises(BuzzerBoxError, match=r"pub.csv line 2: points is 'two'"):
        SPEC.settings(3, pack=str(bad))
    with pytest.raises(BuzzerBoxError, match="no such file"):
        SPEC.settings(3, pack=str(tmp_path / "missing.csv"))
    with pytest.raises(BuzzerBoxError, match="give one of classic, race"):
        SPEC.settings(3, rules="speedy")
    with pytest.raises(BuzzerBoxError, match="teams of 2 need at least 4 stations, not 3"):
        SPEC.settings(3, rules="teams")


def test_the_pack_sets_the_length_and_its_points_count() -> None:
    e = engine(2, pack="en-general")
    assert e.questions_total == 20
    q = next(k for k, q in enumerate(e.pack, start=1) if q["points"] > 1)
    for _ in range(q - 1):
        act(e, "next", e.now_us + 1)
    act(e, "arm", e.now_us + 1)
    act(e, "buzz", e.now_us + 10_000, 1)
    events = e.tick(e.now_us + 10_000) + act(e, "correct", e.now_us + 20_000)
    assert [ev.data["points"] for ev in events if ev.kind == "correct"] == [e.pack[q - 1]["points"]]
    capped = engine(2, pack="en-general", questions=3)
    for k in range(3):
        act(capped, "next", k + 1)
    assert capped.finished


def test_reactions_from_arming_fastest_and_median() -> None:
    e = engine(2)
    for k, reaction in enumerate((300_000, 500_000, 900_000)):
        t0 = k * 10_000_000
        act(e, "arm", t0 + 1)
        act(e, "buzz", t0 + 1 + reaction, 0)
        e.tick(t0 + 2_000_000)
        act(e, "correct", t0 + 3_000_000)
        act(e, "next", t0 + 4_000_000)
    row = e.reaction_rows()[0]
    assert row["fastest_us"] == 300_000 and row["presses"] == 3
    assert 500_000 <= row["median_us"] < 501_000  # to the millisecond
    assert e.reaction_rows()[1] == {"player": 1, "fastest_us": None, "median_us": None, "presses": 0}


def test_the_leaderboard_shows_between_rounds_with_a_fanfare_and_at_the_end() -> None:
    e = engine(3, round_questions=2, questions=4)
    events: list[GameEvent] = []
    for k, winner in enumerate((0, 2, 2, 1)):
        t0 = k * 10_000_000
        events += act(e, "arm", t0 + 1) + act(e, "buzz", t0 + 200_000, winner) + e.tick(t0 + 300_000)
        events += act(e, "correct", t0 + 1_000_000)
        assert e.public_view()["board"] == (k in (1, 3))
        if k < 3:
            events += act(e, "next", t0 + 2_000_000)
    podiums = [ev.data for ev in events if ev.kind == "podium"]
    assert podiums == [{"final": False, "top": [[0], [2], [1]]}, {"final": True, "top": [[2], [0], [1]]}]
    assert SPEC.sound_for("podium") is not None  # the fanfare is heard
    standings = e.public_view()["standings"]
    assert [(row["place"], row["stations"], row["score"]) for row in standings] == [(1, [2], 2), (2, [0], 1), (2, [1], 1)]


def test_players_tied_for_third_are_all_on_the_podium_screen_and_in_the_fanfare() -> None:
    import pygame

    from games.scenes import scene_for
    from games.toolkit import theme
    from games.toolkit.scene import freeze

    e = engine(5, questions=7)
    events: list[GameEvent] = []
    for k, winner in enumerate((0, 0, 0, 1, 1, 2, 3)):  # points 3, 2, 1, 1, 0: P3 and P4 share third place
        t0 = k * 10_000_000
        events += act(e, "arm", t0 + 1) + act(e, "buzz", t0 + 200_000, winner) + e.tick(t0 + 300_000)
        events += act(e, "correct", t0 + 1_000_000)
        if k < 6:
            events += act(e, "next", t0 + 2_000_000)
    assert [ev.data["top"] for ev in events if ev.kind == "podium"] == [[[0], [1], [2], [3]]]
    pygame.font.init()
    surface = pygame.Surface((1280, 720))
    names = ["Ann", "Bob", "Cyril", "Dora", "Emil"]
    strip = [{"name": name, "status": "idle"} for name in names]
    theme.DRAWN = []
    try:
        scene_for("quiz").draw(surface, freeze(e.public_view()), strip, 0)
        drawn = list(theme.DRAWN)
    finally:
        theme.DRAWN = None
    # the reaction table on the right half lists everyone anyway: look left of it
    on_podium = " ".join(shown for _a, shown, ink, _r, _s in drawn if ink.right <= 1280 * 45 // 100)
    assert all(name in on_podium for name in ("Ann", "Bob", "Cyril", "Dora")) and "Emil" not in on_podium
    assert "…" not in on_podium  # the points too, in full


def test_a_simulated_quiz_with_a_pack_asks_every_question_of_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate quiz --pack FILE``: the pack's quiz ends after its last
    question (the demo's own length is for a quiz without a pack)."""
    from controller.cli import main

    rows = "".join(f"Question number {k}?,Answer {k}\n" for k in range(1, 16))
    (tmp_path / "fifteen.csv").write_text("question,answer\n" + rows, encoding="utf-8")
    journal = tmp_path / "night.jsonl"
    main(["simulate", "quiz", "--players", "3", "--pack", str(tmp_path / "fifteen.csv"), "--journal", str(journal)])
    engine_ = box_from_journal(journal_mod.read(journal)).engine
    assert engine_.finished and len(engine_.summary()["results"]) == 15
    from controller.box.simulate import simulate
    demo = simulate(SPEC, 3, 1).box.engine  # no pack: the demo still ends by itself
    assert demo.finished and len(demo.summary()["results"]) == 12


def test_a_simulated_quiz_night_with_a_pack_and_every_preset_ends_and_replays(tmp_path: Path) -> None:
    for rules in ("classic", "race", "sit-out", "penalty", "second-chance", "teams"):
        settings = SPEC.settings(6, 5, pack="cs-general", rules=rules, buzz_window_us=8_000_000, answer_time_us=6_000_000)
        box = Box(SPEC, settings)
        path = tmp_path / f"{rules}.jsonl"
        box.journal = journal_mod.JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
        session = Session(box, SPEC.new_bots(settings), SPEC.new_host(settings), 5)
        session.run_virtual(3_600_000_000)
        box.journal.close()
        assert box.engine.finished, rules
        assert box_from_journal(journal_mod.read(path)).engine.summary() == box.engine.summary()


# -- the screen ----------------------------------------------------------------
LONG = ("In which year did the first person walk on the Moon, during a mission whose lunar module was named "
        "after a bird, while a third astronaut stayed in orbit aboard the command module and later wrote a book "
        "about it, and which president had promised the landing before the end of the decade in a famous speech?")


SIX = ("Neil Armstrong and Buzz Aldrin of Apollo 11", "Yuri Gagarin aboard Vostok 1 in April 1961",
       "John Glenn in the Friendship 7 capsule", "Valentina Tereshkova of Vostok 6",
       "Alan Shepard of the Freedom 7 flight", "Michael Collins, who stayed in lunar orbit")


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("phase", ["armed", "answering", "revealed"])
@pytest.mark.parametrize("choices", [(), SIX], ids=["open", "six-choices"])
def test_a_long_question_fits_at_the_minimum_text_size(size: tuple[int, int], phase: str, choices: tuple[str, ...],
                                                       lang: str, drawing_in_a_language: None) -> None:
    """300 characters (the pack limit) with 16 stations of the longest names, in
    every language: every word of the question and of every choice shown in
    full, nothing drawn over anything, and no other text of the picture cut or
    below the minimum size (tests/fits.py)."""
    import pygame

    from games.i18n import set_language
    from games.quiz.packs import MAX_QUESTION_CHARS
    from games.scenes import scene_for
    from games.toolkit import theme
    from games.toolkit.scene import freeze
    from tests.fits import LONG_NAMES, measured, unfit_texts

    set_language(lang)
    question = (LONG + " " + LONG)[:MAX_QUESTION_CHARS].rsplit(" ", 1)[0] + "?"
    assert len(question) > MAX_QUESTION_CHARS - 20
    e = engine(16)
    view = e.public_view()
    view.update(phase="answering" if phase == "answering" else "armed", winner=0 if phase == "answering" else None,
                answering=0 if phase == "answering" else None,
                ask={"text": question, "category": "History", "points": 3, "image": None, "choices": list(choices)})
    if phase == "revealed":
        view.update(phase="round_over", winner=0, answering=0, revealed=True, answer=SIX[0],
                    results=[{"question": 1, "winner": 0, "result": "correct"}], margins_us={"0": 0, "3": 5_000})
    strip = [{"name": LONG_NAMES[k % len(LONG_NAMES)], "status": "idle"} for k in range(16)]
    pygame.font.init()
    surface = pygame.Surface(size)
    theme.DRAWN = []
    try:
        scene_for("quiz").draw(surface, freeze(view), strip, 0)
        drawn = list(theme.DRAWN)
    finally:
        theme.DRAWN = None
    lay = theme.layout_for(surface, 16)
    wrong = unfit_texts(*measured(lambda s: scene_for("quiz").draw(s, freeze(view), strip, 0), size, 16), size)
    assert not wrong, "; ".join(wrong)
    words = question.split()
    is_question = [bool(asked) and set(asked.split()) <= set(words) for asked, *_x in drawn]
    runs = [(k, j) for k in range(len(drawn)) for j in range(k + 1, len(drawn) + 1)
            if all(is_question[k:j]) and (k == 0 or not is_question[k - 1]) and (j == len(drawn) or not is_question[j])]
    start, end = max(runs, key=lambda run: run[1] - run[0])  # the question's lines are drawn one after another
    lines = [(asked, shown, ink) for asked, shown, ink, _rect, _s in drawn[start:end]]
    assert " ".join(asked for asked, _s, _i in lines) == question  # every word, in order
    assert all(shown == asked for asked, shown, _ in lines)  # none cut with an ellipsis
    assert min(theme.TEXT.font(lay.min_text).get_height(), lay.min_text) <= min(ink.height for *_x, ink in lines) * 1.5
    assert all(ink.bottom <= lay.strip.top and ink.top >= lay.header.bottom for *_x, ink in lines)
    ours = [ink for *_x, ink in lines]
    if choices and phase != "revealed":  # every choice whole, on lines of their own (wrapped, never cut)
        choice_words = {w for c in choices for w in c.split()} | {f"{chr(65 + k)}:" for k in range(len(choices))}
        shown = [(asked, cut, ink) for asked, cut, ink, _r, _s in drawn
                 if asked and set(asked.split()) <= choice_words and (asked, cut, ink) not in lines]
        assert all(cut == asked for asked, cut, _ in shown)
        said = " ".join(asked for asked, _c, _i in shown)
        assert all(f"{chr(65 + k)}: {c}" in said for k, c in enumerate(choices)), said
        ours += [ink for *_x, ink in shown]
    if phase == "revealed":
        answer = [ink for asked, cut, ink, _r, _s in drawn if SIX[0] in asked and cut == asked]
        assert answer, "the answer is shown in full"
        ours += answer
    others = [ink for _a, _c, ink, _r, _s in drawn if ink not in ours]
    for k, ink in enumerate(ours):  # no line of the question, its choices or answer over any other text
        assert ink.bottom <= lay.strip.top and ink.top >= lay.header.bottom
        assert not any(ink.colliderect(other) for other in ours[k + 1:] + others), (ink, [d[:3] for d in drawn if d[2].colliderect(ink)])


def test_a_pack_picture_is_shown_scaled_beside_the_question(tmp_path: Path) -> None:
    import pygame

    from games.scenes import scene_for
    from games.toolkit.scene import freeze

    pygame.font.init()
    picture = pygame.Surface((40, 30))
    picture.fill((255, 0, 255))  # a colour nothing else on the quiz screen uses
    pygame.image.save(picture, str(tmp_path / "flag.png"))
    (tmp_path / "flags.csv").write_text("question,answer,image\nWhose flag is this?,Nobody's,flag.png\n", encoding="utf-8")
    e = engine(4, pack=str(tmp_path / "flags.csv"))
    assert e.public_view()["ask"]["image"] == str(tmp_path / "flag.png")
    surface = pygame.Surface((1280, 720))
    strip = [{"name": f"P{k + 1}", "status": "idle"} for k in range(4)]
    scene_for("quiz").draw(surface, freeze(e.public_view()), strip, 0)
    magenta = pygame.mask.from_threshold(surface, (255, 0, 255), (1, 1, 1, 255))
    box = magenta.get_bounding_rects()
    assert box and box[0].height > 100  # scaled up from 30 px, proportions kept
    assert abs(box[0].width / box[0].height - 40 / 30) < 0.05
    (tmp_path / "flag.png").unlink()  # gone (a replay elsewhere): the question is still shown, without it
    scene_for("quiz").draw(surface, freeze(e.public_view()), strip, 0)


def test_the_buzz_window_counts_down_while_nobody_has_pressed() -> None:
    e = engine(2, buzz_window_us=8_000_000)
    act(e, "arm", 0)
    e.tick(2_500_000)
    assert e.public_view()["buzz_left_us"] == 5_500_000
    act(e, "buzz", 3_000_000, 1)
    assert e.public_view()["buzz_left_us"] is None
