"""The guided hardware test, driven through gpiozero's MockFactory."""

from __future__ import annotations

import pytest

from controller.box import profile as profile_mod
from tests.wiring.harness import Builder


@pytest.fixture
def full4() -> profile_mod.Profile:
    return profile_mod.load("header-4-full")


def line_for(report_text: str, label: str) -> str:
    return next(line for line in report_text.splitlines() if line.strip().startswith(label + " "))


def test_good_box_passes_and_asks_for_every_input_and_light(full4):
    b = Builder(full4)
    report = b.run()
    text = report.text()
    assert report.passed, text
    assert "RESULT: PASS" in text
    prompts = [s for s in b.said if s.startswith("[")]
    assert len(prompts) == 20 and "Press Red bell (then let go)" in prompts[0]
    assert len(b.asked) == 4 and "Red bell" in b.asked[0]
    # exactly the asked light was on each time
    assert b.light_seen == {"Red bell": True, "Blue bell": True, "Green bell": True, "Yellow bell": True}
    assert "2 edges (press + release), press bounce 0 µs" in line_for(text, "Blue c")


def test_swapped_pair_is_named_both_ways(full4):
    b = Builder(full4, wired_to={"Red a": 23, "Red b": 18})  # Red a's switch on Red b's GPIO, and back
    report = b.run()
    text = report.text()
    assert not report.passed
    assert "WRONG INPUT" in line_for(text, "Red a") and "WRONG INPUT" in line_for(text, "Red b")
    assert report.problems == [
        "Red a and Red b are swapped: pressing Red a fired Red b and pressing Red b fired Red a; "
        "exchange the two wires (header pin 12 (its ground: header pin 14) / header pin 16 (its ground: header pin 14))"
    ]


def test_one_way_wrong_input_names_both_pins(full4):
    b = Builder(full4, wired_to={"Blue a": 22})  # Blue a's switch landed on Blue bell's GPIO
    report = b.run()
    assert any(p.startswith("asked for Blue a, but Blue bell fired") and "header pin 19" in p for p in report.problems)


def test_dead_input_times_out_and_says_where_to_measure(full4):
    b = Builder(full4, wired_to={"Blue c": None})
    report = b.run()
    text = report.text()
    assert "NEVER FIRED" in line_for(text, "Blue c")
    assert report.problems == [
        "Blue c never fired in 2 s: a broken or loose wire, or it is on another pin; a meter between "
        "header pin 23 and header pin 25 must read about 1 kΩ (the series resistor) while it is pressed"
    ]
    assert "ok" in line_for(text, "Blue d")  # the test went on after the timeout


def test_input_pressed_at_rest_is_reported_stuck_and_skipped(full4):
    b = Builder(full4, closed_at_rest={"Green bell"})
    report = b.run()
    text = report.text()
    assert "PRESSED AT REST" in line_for(text, "Green bell")
    assert len(report.problems) == 1 and "Green bell reads pressed with nobody touching it" in report.problems[0]
    assert "normally-closed" in report.problems[0]
    assert not any("Press Green bell" in s for s in b.said)  # not asked: it cannot be pressed
    assert "ok" in line_for(text, "Green a")


def test_bouncy_switch_is_one_press_with_its_bounce_reported(full4):
    gaps = [300, 400, 250, 500, 300, 450, 200, 600]  # 8 bounces over 3 ms, then settled
    b = Builder(full4, bounces={"Yellow bell": gaps})
    report = b.run()
    text = report.text()
    assert report.passed, text  # bouncy is a warning: the press still counts once, from its first edge
    assert "10 edges (press + release), press bounce 3000 µs" in line_for(text, "Yellow bell")
    assert len(report.warnings) == 1
    assert report.warnings[0].startswith("Yellow bell is bouncy: its contact chattered for 3000 µs (10 edges)")
    assert "settle within 2500 µs: clean or replace it before it reaches 5000 µs" in report.warnings[0]


def test_ordinary_microswitch_bounce_is_no_warning(full4):
    b = Builder(full4, bounces={"Yellow bell": [300, 400, 250, 300]})  # 1.25 ms: a normal microswitch
    report = b.run()
    assert report.passed and report.warnings == [], report.text()
    assert "press bounce 1250 µs" in line_for(report.text(), "Yellow bell")


def test_bounce_of_half_the_window_fails(full4):
    gaps = [600] * 10  # 6 ms of chatter against a 10 ms bounce window
    b = Builder(full4, bounces={"Yellow bell": gaps})
    report = b.run()
    assert not report.passed
    assert report.problems == [
        "Yellow bell chattered for 6000 µs (12 edges), half the bounce window (10000 µs) or more: the box may "
        "take its presses for noise; replace the microswitch"
    ]


@pytest.mark.parametrize("late_touch_us", [12_000, 60_000], ids=["just-after-window", "during-settle"])
def test_release_bounce_longer_than_bounce_window_counts_twice_and_fails(full4, late_touch_us):
    # after release the contact touches again (past bounce_us) and stays 5 ms: a second press
    b = Builder(full4, release_bounces={"Red c": [late_touch_us, 5_000]})
    report = b.run()
    assert any(p.startswith("one press of Red c counted twice") for p in report.problems), report.text()


def test_light_that_did_not_light_names_its_pin_and_driver(full4):
    b = Builder(full4, dark={"Blue bell"})
    report = b.run()
    text = report.text()
    assert "DID NOT LIGHT" in line_for(text, "Blue bell light")
    assert len(report.problems) == 1
    assert "header pin 5 -> ULN2803 #0 IN2 (pin 2), OUT2 (pin 17)" in report.problems[0]


def test_all_faults_at_once_are_each_reported(full4):
    b = Builder(
        full4,
        wired_to={"Red a": 23, "Red b": 18, "Blue c": None},
        closed_at_rest={"Green bell"},
        bounces={"Yellow bell": [300, 400, 250, 500, 300, 450, 200, 600]},
    )
    report = b.run()
    problems = " | ".join(report.problems)
    assert "Red a and Red b are swapped" in problems
    assert "Blue c never fired" in problems
    assert "Green bell reads pressed" in problems
    assert "Yellow bell is bouncy" in report.warnings[0]
    assert len(report.problems) == 3


def test_board_presses_debounced_on_the_board_feed_the_same_test():
    """The firmware board sends finished presses, not edges: same verdicts."""
    from controller.box.press import Press
    from controller.wiring_pack.guided_test import GuidedTest

    prof = profile_mod.load("board-7-schicki")
    test = GuidedTest(prof, timeout_us=1_000_000, lights=False)
    test.begin({}, 0)
    swap = {(0, "hat"): (0, "scarf"), (0, "scarf"): (0, "hat")}
    t = 0
    while not test.done:
        p = test.prompt
        t += 200_000
        if p.key != (2, "worm"):  # Green worm is dead
            station, name = swap.get(p.key, p.key)
            test.press(Press(station, name, t, edges=4 if p.key == (1, "bell") else 2), t)
        while test.prompt is p:
            t += 100_000
            test.poll(t)
    report = test.report()
    assert "Red hat and Red scarf are swapped" in report.problems[0]
    assert "SR chip 0 bit 1 (SN74HCS165 #0 D1, pin 12)" in report.problems[0]
    assert report.problems[1].startswith("Green worm never fired in 1 s")
    assert len(report.problems) == 2
    assert "4 edges" in line_for(report.text(), "Blue bell")
