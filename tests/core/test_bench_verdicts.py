"""The benchmarks' verdicts count what they did not see (issue 46: an honest benchmark).

``buzzerbox bench --jig``: a contact the box never stamped or decided used to be
skipped, and PASS checked neither the misses nor the outcome (one contact wired to
two inputs is a tie). ``benchmarks/realtime.py``: contests left undecided, or with
an edge written late, have no overhead, so "300 contests" could be fewer timed;
undecided ones did not count against the goal; a setting with no timed contest
ended in a TypeError."""

from __future__ import annotations

import argparse
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks import realtime
from controller.apps import bench
from controller.apps import benchkit as bk
from controller.box import profile as profile_mod

PROFILE = profile_mod.load("header-4")
WAIT = max(PROFILE.debounce.glitch_us, bk.tie_wait_us(PROFILE, 5))


def jig_run(contacts: list[int], *, missed: int | None = None, winner: int | None = None) -> dict[str, Any]:
    """A jig's game: each contact stamped on stations 0 and 1 (3 µs apart), decided a tie 100 µs
    after its confirmation; contact ``missed`` never seen, contact ``winner`` decided for station 0."""
    presses, events, decisions = [], [], []
    for k, c in enumerate(contacts):
        if k == missed:
            continue
        presses += [SimpleNamespace(t_us=c + 20), SimpleNamespace(t_us=c + 23)]
        decided = c + 20 + WAIT + 50
        decisions.append([decided, decided + 50])
        if k == winner:
            events.append(SimpleNamespace(kind="winner", t_us=decided, player=0, data={}))
        else:
            events.append(SimpleNamespace(kind="tie", t_us=decided, player=None, data={"stations": [0, 1]}))
    return {"measured": {"offset_us": 0, "decisions": decisions}, "presses": presses, "events": events}


def report(contacts: list[int], capsys: pytest.CaptureFixture[str], **run: int) -> tuple[bool, str]:
    game = jig_run(contacts, **run)
    floor = SimpleNamespace(late=[100] * 200, priority="nice 0")
    passed = bench.report_jig(argparse.Namespace(jig=25), PROFILE, contacts, game["measured"], game["presses"],
                              game["events"], floor)  # type: ignore[arg-type]
    return passed, capsys.readouterr().out


CONTACTS = [1_000_000 + k * bench.PERIOD_US for k in range(20)]


def test_the_jig_passes_only_when_every_contact_is_seen_and_a_tie_of_its_two_inputs(
        capsys: pytest.CaptureFixture[str]) -> None:
    passed, out = report(CONTACTS, capsys)
    assert passed and "contacts missed (no stamp, no decision or no outcome): 0; not a tie of the two inputs: 0" in out
    assert out.rstrip().endswith("PASS")
    passed, out = report(CONTACTS, capsys, missed=7)  # the box never saw one contact
    assert not passed and "contacts missed (no stamp, no decision or no outcome): 1;" in out and "FAIL" in out
    passed, out = report(CONTACTS, capsys, winner=3)  # one contact crowned a winner: the two inputs differ
    assert not passed and "not a tie of the two inputs: 1" in out and "FAIL" in out


def test_undecided_contests_miss_the_goal() -> None:
    judged = [bk.Judged("gap", "right", True, 0, 0, 200) for _ in range(100)]
    floor = bk.Summary.of([2_000] * 100)
    assert bk.meets_goal(bk.Figures.of(judged), floor)
    assert not bk.meets_goal(bk.Figures.of([*judged, bk.Judged("gap", "none", True)]), floor)


def figures(timed: int, undecided: int = 0, overhead_us: int = 200) -> bk.Figures:
    return bk.Figures.of([bk.Judged("gap", "right", True, 0, 0, overhead_us) for _ in range(timed)]
                         + [bk.Judged("gap", "none", True) for _ in range(undecided)])


def test_the_result_line_says_undecided_and_is_invalid_without_the_timed_contests_asked() -> None:
    floor = bk.Summary.of([300] * 100)
    line, valid = realtime.result_line([("idle", figures(300, 2), floor), ("2_CPU_burners", figures(300), floor)], [])
    assert valid and " undecided=2 " in line and line.endswith("valid=yes")
    # a setting with no timed contest: no TypeError, the run is not valid, and says which
    line, valid = realtime.result_line([("idle", figures(300), floor), ("2_CPU_burners", figures(0, 5), floor)], [])
    assert not valid and "setting=idle" in line and "undecided=5" in line and "short=shipped/2_CPU_burners:0" in line
    line, valid = realtime.result_line([("idle", figures(298), floor)], ["shipped/idle:298"])
    assert not valid and "short=shipped/idle:298" in line


def test_a_run_without_the_shipped_design_judges_the_design_it_played() -> None:
    """``--designs fixed-delay``: the RESULT line judges that design, not the shipped one it never
    played (every setting was counted short of it: ``valid=no``, exit 1)."""
    assert realtime.judged_design(["fixed-delay", "one-process"]) == "fixed-delay"
    assert realtime.judged_design(["one-process", "shipped"]) == "shipped"
    floor = bk.Summary.of([300] * 100)
    line, valid = realtime.result_line([("idle", figures(300), floor), ("2_CPU_burners", figures(300), floor)], [],
                                       "fixed-delay")
    assert valid and "short=" not in line and "design=fixed-delay" in line and line.endswith("valid=yes")
    line, valid = realtime.result_line([("idle", figures(300), floor), ("2_CPU_burners", figures(0, 5), floor)], [],
                                       "fixed-delay")
    assert not valid and "short=fixed-delay/2_CPU_burners:0" in line


def test_rounds_are_added_until_every_design_has_the_timed_contests_asked(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Any) -> None:
    """A round of 10 contests times 8 of the fixed-delay design (2 undecided) and all 10 of the
    shipped one: asked for 20 timed, the fixed-delay design plays a third round; one that never
    gets there stops at twice the rounds, and the run says it fell short."""
    played: list[str] = []

    def play_game(profile: str, contests: list[Any], folder: Any, args: list[str], seed: int,
                  **kw: Any) -> bk.Game:
        design = "fixed-delay" if "fixed-delay" in args else "shipped"
        played.append(design)
        undecided = {"shipped": 0, "fixed-delay": 2}[design]
        judged = [bk.Judged("gap", "right", True, 0, 0, 200) for _ in range(len(contests) - undecided)]
        judged += [bk.Judged("gap", "none", True) for _ in range(undecided)]
        return bk.Game(judged, "nice 0", [0], "nice 0", [10], "nice 0", (0.0, 0.0))

    monkeypatch.setattr(bk, "play_game", play_game)
    games, _floor = realtime.run_setting("idle", 0, ["shipped", "fixed-delay"], 2, 10, 1, tmp_path, False,
                                         wanted=20)
    assert played.count("shipped") == 2 and played.count("fixed-delay") == 3
    assert realtime.short_of(games, 20) == []
    played.clear()
    games, _floor = realtime.run_setting("idle", 0, ["shipped", "fixed-delay"], 2, 10, 1, tmp_path, False,
                                         wanted=40)
    assert played.count("shipped") == 4 and played.count("fixed-delay") == 4  # twice the rounds, no more
    assert realtime.short_of(games, 40) == ["fixed-delay"]


def test_the_tail_line_reads_the_worst_tenth_not_one_contest() -> None:
    """300 contests: the p99 is the 3rd-4th worst alone; the worst tenth's mean moves less with one outlier."""
    values = [150] * 270 + [400] * 29 + [900]
    assert realtime.worst_tenth_mean(values) == round((400 * 29 + 900) / 30)
    assert realtime.worst_tenth_mean([700, 100, 300]) == 700  # fewer than ten: the worst one
    assert realtime.worst_tenth_mean([]) is None
