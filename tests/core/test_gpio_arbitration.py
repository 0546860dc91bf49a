"""The issue's hardware-level promises, on gpiozero's MockFactory with exact ticks."""

from __future__ import annotations

import random

import pytest

from controller.box.sources.simulated import BounceModel


def arm_and_settle(rig, t_us: int = 1_000) -> None:
    rig.host("arm", t_us)
    rig.box.step(t_us + 100_000)


def test_presses_two_microseconds_apart_are_ordered(rig):
    # 1 µs of mock ticks + 1 µs for the profile's front end (1 kΩ 1 %, 1 nF C0G)
    arm_and_settle(rig)
    rig.press(2, 500_002)
    rig.press(0, 500_000)  # delivered later, stamped earlier: still first
    rig.press(3, 500_004)
    rig.box.step(700_000)
    out = rig.box.summary()
    assert out["winner"] == 0
    assert out["queue"] == [2, 3]
    assert out["margins_us"] == [2, 4]
    assert out["ties"] == []


def test_equal_stamps_are_a_tie_not_a_guess(rig):
    arm_and_settle(rig)
    rig.press(1, 400_000)
    rig.press(3, 400_000)
    rig.box.step(600_000)
    out = rig.box.summary()
    assert out["winner"] is None
    assert out["ties"] == [[1, 3]]
    assert rig.box.engine.public_view()["phase"] == "tie"


@pytest.mark.parametrize("train_ms", [0.1, 0.5, 1, 2, 3.5, 5])
def test_bounce_train_is_one_press_at_its_first_edge(rig, train_ms):
    arm_and_settle(rig)
    span = int(train_ms * 1000)
    offsets = sorted(random.Random(span).sample(range(1, span + 1), min(span, 10)))
    if len(offsets) % 2:
        offsets = offsets[:-1]  # end on the pressed level
    rig.press(0, 300_000, bounce=offsets)
    rig.press(1, 300_000 + span + 50)  # a rival who touched after the train began
    rig.box.step(600_000)
    presses = [p for p in rig.box.press_log if p.station == 0]
    assert len(presses) == 1, "a bounce train must never give a second press"
    assert presses[0].t_us == 300_000, "the first edge's time must be kept"
    assert rig.box.summary()["winner"] == 0


def test_release_bounce_never_makes_a_second_press(rig):
    arm_and_settle(rig)
    pin = rig.pin(2, "bell")
    pin.drive(0, 200_000)
    pin.drive(1, 280_000)
    for i, t in enumerate(range(280_200, 283_000, 300)):  # release chatter
        pin.drive(i % 2, t)
    pin.drive(1, 283_500)
    rig.box.step(400_000)
    assert [p.t_us for p in rig.box.press_log if p.station == 2] == [200_000]


def test_fifty_microsecond_glitch_is_not_a_press(rig):
    arm_and_settle(rig)
    pin = rig.pin(1, "bell")
    pin.drive(0, 250_000)
    pin.drive(1, 250_050)
    rig.box.step(400_000)
    assert [p for p in rig.box.press_log if p.station == 1] == []
    assert rig.box.debouncer.state(1, "bell").stats.glitches == 1
    rig.press(3, 450_000)  # the glitch did not block the line or the game
    rig.box.step(600_000)
    assert rig.box.summary()["winner"] == 3


def test_early_buzz_locks_out_and_every_further_early_press_relocks(rig):
    rig.press(0, 100_000)  # before arming
    rig.box.step(200_000)
    rig.press(0, 300_000)  # still locked (until 350_000): restarts to 550_000
    rig.box.step(400_000)
    rig.host("arm", 410_000)
    rig.box.step(420_000)
    rig.press(0, 500_000)  # armed, but locked out until 550_000
    rig.press(1, 520_000)
    rig.box.step(700_000)
    out = rig.box.summary()
    assert out["early"] == [0]
    assert out["winner"] == 1
    assert 0 not in out["queue"]
    rig.box.step(900_000)
    rig.press(0, 900_000)  # lockout over: joins the queue
    rig.box.step(1_000_000)
    assert rig.box.summary()["queue"] == [0]


def test_stuck_bell_is_flagged_and_does_not_block_others(rig):
    arm_and_settle(rig)
    stuck = rig.pin(0, "bell")
    stuck.drive(0, 150_000)  # held down and never released
    rig.box.step(200_000)
    rig.box.step(12_000_000)
    strip = rig.box.strip()
    assert strip[0]["status"] == "stuck"
    assert strip[0]["stuck"] == ["bell"]
    rig.box.host("next", 12_000_001)
    rig.host("arm", 12_100_000)
    rig.box.step(12_200_000)
    rig.press(2, 12_300_000)
    rig.box.step(12_500_000)
    assert rig.box.summary()["winner"] == 2
    stuck.drive(1, 13_000_000)
    rig.box.step(13_100_000)
    assert rig.box.strip()[0]["status"] != "stuck"


def test_input_pressed_at_rest_must_be_released_before_it_counts(rig):
    # a wrong pull reads "pressed" from the start: it must not win anything
    box = rig.box
    box.debouncer.start(3, "bell", 0, 0)
    arm_and_settle(rig)
    rig.press(1, 300_000)
    box.step(500_000)
    assert box.summary()["winner"] == 1
    assert [p for p in box.press_log if p.station == 3] == []


def test_realistic_contests_pick_the_true_first(rig):
    """Seeded bouncy contests 0.05-20 ms apart, through pins, debounce and arbiter."""
    rng = random.Random(7)
    model = BounceModel()
    t = 1_000_000
    wrong = 0
    for _contest in range(40):
        rig.box.host("next", t)
        rig.host("arm", t + 1000)
        rig.box.step(t + 60_000)
        first = rng.randrange(4)
        others = [s for s in range(4) if s != first]
        start = t + 100_000
        plan = {first: start}
        for s in rng.sample(others, rng.randint(1, 3)):
            plan[s] = start + rng.randint(50, 20_000)
        for station, at in plan.items():
            pin = rig.pin(station, "bell")
            for et, level in model.train(rng, at):
                pin.drive(level, et)
        rig.box.step(start + 400_000)
        out = rig.box.summary()
        wrong += out["winner"] != first
        t = start + 500_000
    assert wrong == 0


def test_bouncier_first_press_still_beats_a_cleaner_later_one(rig):
    """The first contact wins even when its switch bounces for longer than the
    gap to the runner-up (found by benchmarks/arbitration.py)."""
    arm_and_settle(rig)
    first, second = rig.pin(0, "bell"), rig.pin(1, "bell")
    first.drive(0, 201_000)
    first.drive(1, 201_200)
    second.drive(0, 201_300)  # clean press 300 µs later
    first.drive(0, 202_800)
    first.drive(1, 202_900)
    rig.box.step(203_500)  # the runner-up is accepted while the first still bounces
    first.drive(0, 203_900)
    rig.box.step(204_000)
    assert rig.box.engine.public_view()["phase"] == "armed", "no decision while an earlier press is pending"
    rig.box.step(300_000)
    out = rig.box.summary()
    assert out["winner"] == 0
    assert out["queue"] == [1] and out["margins_us"] == [300]


def test_a_spike_long_before_a_press_does_not_move_the_press_earlier(rig):
    arm_and_settle(rig)
    spiky = rig.pin(1, "bell")
    spiky.drive(0, 201_000)  # 50 µs of interference...
    spiky.drive(1, 201_050)
    rig.press(0, 204_000)  # ...a real press elsewhere...
    rig.press(1, 208_000)  # ...and the spiky station's own press 7 ms after the spike
    rig.box.step(400_000)
    out = rig.box.summary()
    assert out["winner"] == 0
    assert out["queue"] == [1] and out["margins_us"] == [4_000]


def test_a_chattering_contact_neither_blocks_the_game_nor_wins(rig):
    arm_and_settle(rig)
    loose = rig.pin(1, "bell")
    level = 0
    for t in range(200_000, 2_200_000, 500):  # toggles every 0.5 ms for 2 s
        loose.drive(level, t)
        level = 1 - level
    rig.press(0, 210_000)
    rig.box.step(240_000)
    assert rig.box.engine.public_view()["phase"] == "answering", "decided while the loose contact still chatters"
    assert rig.box.summary()["winner"] == 0
    loose.drive(1, 2_200_000)


def test_a_contact_chattering_past_the_stuck_limit_is_flagged(rig):
    arm_and_settle(rig)
    loose = rig.pin(2, "bell")
    level = 0
    for t in range(200_000, 10_400_000, 700):
        loose.drive(level, t)
        level = 1 - level
    rig.box.step(10_400_001)
    assert rig.box.strip()[2]["status"] == "stuck"
    loose.drive(1, 10_400_100)  # the contact is fixed: back to normal once quiet
    rig.box.step(10_500_000)
    assert rig.box.strip()[2]["status"] != "stuck"
