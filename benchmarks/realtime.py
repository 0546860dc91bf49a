"""The box's own overhead against this machine's floor, design by design, in
the same run (issue 46's honest benchmark).

Each game is ``python -m controller play quiz --profile header-4 --window``
(SDL's dummy driver: real frames into memory), fed through ``--feed``: a
thread of the deciding process reads a FIFO and drives gpiozero's mock pins,
the real GPIO source (``controller/box/feed.py``). What writes the FIFO, and what
is measured beside it (``controller/apps/benchkit.py``):

* **the feeder**, a process of its own at SCHED_FIFO when allowed (else the
  best nice level; printed), stamps like a kernel: it reads the clock as it
  writes each edge and writes that stamp. It follows a seeded script of
  contests (2-4 pressers, the runner-up 0-2,000 µs behind, normal bounce up
  to 5 ms; every 10th the audit's contest: the first presser's contact
  bounces open for 947 µs, the runner-up 35 µs behind). Its lateness against
  the script is printed and kept out of the box's figures: the box is judged
  on the stamps written;
* **the floor**: a bare thread in a process of its own at the deciding
  process's priority, waking on the same kind of timed wait the deciding
  thread uses; its lateness p50/p99 is what this machine gives any thread;
* **designs**, interleaved round by round on the same script: the shipped
  design (``play``), the old fixed-delay guard (``play --horizon
  fixed-delay``) and the old one-process design, which left the product
  (``python -m benchmarks.one_process play``, ``play``'s options: the
  deciding thread beside the frames, benchmarks/one_process.py);
* **settings**: idle, and 2 CPU burners (2 processes spinning); the load
  average is printed before and after each game. ``--paused MS`` plays one
  setting instead: the box's processes stopped (SIGSTOP) for MS every 2 s,
  the feeder writing on, as a machine that stalls them does
  (``benchkit.Pauser``): what counts there is wrong, undecided and
  live != virtual, which a pause must never change; its overheads hold the
  pauses.

Per design: contact -> lamp and settle -> lamp (p50/p99), **overhead = lamp
- confirmation** (p50/p99/max, and how many within 1 ms), wrong winners
(the audit's contest counted apart), live != virtual. The legend printed
with the figures says what each proves and cannot. The last line is
``RESULT overhead_p50_ms=… overhead_p99_ms=… floor_p99_ms=… within_1ms=…
wrong=… undecided=… setting=… valid=yes|no`` for the shipped design in the
setting furthest from the goal (its p99 over that setting's floor p99 the
most; wrong winners and undecided contests of both).

Every design and setting gets the timed contests asked for (300, ``--quick``
100, ``--contests N``): contests left undecided, or with an edge written late,
have no overhead, so rounds are added (up to as many again) until each has
them; short still, the RESULT line says ``valid=no`` (and which fell short)
and the exit status is 1.

    PYTHONPATH=. python benchmarks/realtime.py            # 300 timed contests per design and setting, ~20 min
    PYTHONPATH=. python benchmarks/realtime.py --quick    # 100, ~7 min
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from controller.apps import benchkit as bk
from controller.box import stepprofile
from controller.box.deciding import LampPath
from controller.box.feed import Feed

PROFILE = "header-4"
#: design -> play's arguments (the shipped one first)
DESIGNS: dict[str, list[str]] = {
    "shipped": [],
    # the guard before the watermark horizon (a play that does not know --horizon: skipped, said so)
    "fixed-delay": ["--horizon", "fixed-delay"],
    # the deciding thread beside the frame loop in one process (the design before the deciding process)
    "one-process": [],
}
#: what the deciding process logs when a lamp lit early differs from the engine's decision (a bug), for a
#: lamp lit in the step and one lit armed at the decision's moment (``Box.armed_lamp``)
FIRST_PRESS_MISSES = ("the game's FirstPress is wrong", "``armed_lamp`` is wrong")
#: design -> what plays it, when not ``python -m controller``
PROGRAMS: dict[str, tuple[str, ...]] = {"one-process": ("-m", "benchmarks.one_process")}
#: the shipped design played from another tree of the code (``--before``): a change's before and after, interleaved
BEFORE = "before"

LEGEND = """\
  what each figure proves, and what it cannot:
  * overhead = lamp - confirmation (confirmation: the first press's last bounce edge + glitch_us, of every
    press inside the tie window too, or the tie window's end if later): what the box's code, threads and the
    machine add past the earliest moment a correct box may light the winner's lamp. The lamp is the moment
    the deciding thread stamps after its lights call returns (mock pins: no real LED driver's time).
    Cannot show a Pi's cores, lgpio's C edge thread or interrupt latency (the feeder's stamp stands in).
  * overhead tail: the mean of the worst tenth of the overheads, and how many exceed 0.5 ms: a steadier
    read of a change's effect on the tail than the p99 (over 300 contests the 3rd-4th worst alone).
  * floor = a bare thread's timed-wait lateness at the deciding process's priority, in the same minutes:
    what this machine gives any thread; overhead p99 near it is the machine, far above it is the box.
  * settle -> lamp: from the first presser's last bounce edge (includes the 1 ms glitch filter, the rule).
  * contact -> lamp: from the first contact; includes the winner's own bounce (up to 5 ms), which no
    design can beat: not a measure of the box alone.
  * wrong: a wrong winner, a tie where the stamps differ by more than the tie window, one winner of a dead
    heat, judged on the stamps the feeder wrote; undecided: no winner announced. The audit's contest apart.
  * live != virtual: the same stamped edges judged by the box's own code in virtual time; a difference is
    a timing fault of the live box (or a tie the feeder's stamps made a dead heat).
  * declared race: lamp steps whose winner's lamp went on before the engine's step (the quiz's FirstPress),
    and how many of them were armed (lit at the decision's moment, before the step took its inputs);
    lamp != decision counts the deciding process's lines saying a lamp lit early was not the decision (a bug).
  * feeder late: how late the feeder wrote against its script; kept out (the box is judged on the stamps
    written), but a feeder far behind changes the contests' gaps: read it first.
  * feeder stamp -> written: from the clock read that stamps an edge to its write returning; the feed's
    watermark (everything stamped by now less its capture allowance is in the FIFO) holds while this
    stays under the allowance, which the box waits after every confirmation."""


def horizon_switch() -> bool:
    """Whether ``play`` knows ``--horizon`` (hidden: so its parser is asked, not its help)."""
    import argparse as ap

    from controller import cli

    sub = next(a for a in cli.build_parser()._actions if isinstance(a, ap._SubParsersAction))
    return "--horizon" in sub.choices["play"]._option_string_actions


def timed_of(games: Sequence[bk.Game]) -> int:
    """The timed contests of a design's games: decided, lit, and no edge written late."""
    return bk.Figures.of([j for g in games for j in g.judged]).timed


def short_of(games: dict[str, list[bk.Game]], wanted: int) -> list[str]:
    """The designs with fewer than ``wanted`` timed contests so far."""
    return [d for d, gs in games.items() if timed_of(gs) < wanted]


def run_setting(label: str, burners: int, designs: Sequence[str], rounds: int, per_round: int, seed: int,
                tmp: Path, verbose: bool, profile: bool = False, before: Path | None = None,
                wanted: int = 0, pause_ms: int = 0) -> tuple[dict[str, list[bk.Game]], list[int]]:
    """Every design, ``rounds`` games each, interleaved (the order turns each round) on the same script;
    then more rounds (as many again at most) for the designs with fewer than ``wanted`` timed contests."""
    games: dict[str, list[bk.Game]] = {d: [] for d in designs}
    floor: list[int] = []
    with bk.Burners(burners):
        r = 0
        while r < rounds or (r < 2 * rounds and short_of(games, wanted)):
            playing = designs if r < rounds else short_of(games, wanted)
            if r == rounds:
                print(f"    [{label}] fewer than {wanted} timed contests: {', '.join(playing)} "
                      f"({', '.join(str(timed_of(games[d])) for d in playing)}); more rounds", flush=True)
            contests = bk.make_contests(random.Random(f"realtime-{seed}-{label}-{r}"), per_round, 4)
            k = r % len(playing)
            for design in list(playing[k:]) + list(playing[:k]):
                folder = tmp / f"{label}-{r}-{design}"
                if profile:  # the deciding process stamps its lamp steps' stages (controller/box/stepprofile.py)
                    os.environ[stepprofile.ENV] = str(folder)
                code = before if design == BEFORE else None
                game = bk.play_game(PROFILE, contests, folder, ["--window", *DESIGNS[design]], seed * 1000 + r,
                                    code=code, program=PROGRAMS.get(design, bk.PLAY_PROGRAM), pause_ms=pause_ms)
                os.environ.pop(stepprofile.ENV, None)
                if profile:
                    game.extra["steps"] = [s for f in folder.glob("steps-*.json") if not f.name.endswith(".every.json")
                                           for s in json.loads(f.read_text())]
                games[design].append(game)
                floor += game.floor_late
                if verbose:
                    f = bk.Figures.of(game.judged)
                    print(f"    [{label} round {r + 1}/{rounds}] {design:<12} overhead {f.overhead.text()}, "
                          f"wrong {f.wrong}, written late {f.late_edges}, load {game.load[0]:.2f}/{game.load[1]:.2f}",
                          flush=True)
                    for j in game.judged:
                        if j.note:
                            print(f"      {j.verdict}: {j.note}")
            r += 1
    return games, floor


#: the overhead tail line counts lamps later than this past their confirmation
TAIL_US = 500


def worst_tenth_mean(values: list[int]) -> int | None:
    """The mean of the worst tenth of ``values`` (at least one): a steadier read of a tail than a
    p99, which over 300 contests is the 3rd-4th worst alone and moved by tenths of a millisecond
    between runs of the same code; None for no values."""
    if not values:
        return None
    worst = sorted(values)[-max(1, len(values) // 10):]
    return round(sum(worst) / len(worst))


def report(label: str, games: dict[str, list[bk.Game]], floor: list[int]) -> None:
    any_game = next(g for gs in games.values() for g in gs)
    loads = [g.load for gs in games.values() for g in gs]
    print(f"\n##### {label}: load average (1 min) {min(a for a, _ in loads):.2f}-{max(b for _, b in loads):.2f} "
          f"over its games; feeder {any_game.feeder_priority}")
    fl = bk.Summary.of(floor)
    print(f"  floor: a bare thread at {any_game.floor_priority}, timed waits of "
          f"{bk.FLOOR_WAIT_US[0] / 1000:g}-{bk.FLOOR_WAIT_US[1] / 1000:g} ms, {fl.n} wakes: late {fl.text()}")
    for design, gs in games.items():
        f = bk.Figures.of([j for g in gs for j in g.judged])
        feeder = bk.Summary.of([v for g in gs for v in g.feeder_late])
        print(f"  {design}: {len(gs)} games, {f.timed} timed of {f.contests} contests; deciding thread at "
              f"{gs[0].decider_priority}")
        print(f"    overhead        {f.overhead.text()}; within 1 ms {f.within_1ms}/{f.timed}")
        overheads = [j.overhead for g in gs for j in g.judged if j.overhead is not None]
        print(f"    overhead tail   worst tenth mean {bk.ms(worst_tenth_mean(overheads))} ms, over 0.5 ms "
              f"{sum(v > TAIL_US for v in overheads)} of {len(overheads)}")
        print(f"    settle -> lamp  {f.settle.text(False)}     contact -> lamp  {f.contact.text(False)}")
        print(f"    wrong {f.wrong}, undecided {f.undecided} (the audit's contest: {f.audit_wrong} of {f.audit} "
              f"wrong or undecided); live != virtual {f.live_not_virtual} of {f.contests}; edges later than the "
              f"box's guard {sum(g.late_deliveries for g in gs)}, worst "
              f"{bk.ms(max(g.worst_delivery_us for g in gs), 1)} ms")
        step = bk.Summary.of([j.step_and_light for g in gs for j in g.judged if j.step_and_light is not None])
        woke = bk.Summary.of([j.woke_late for g in gs for j in g.judged if j.woke_late is not None])
        print(f"    where it went   the lamp's step (step + lights call) {step.text(False)}; the deciding thread "
              f"woke after its planned moment {woke.text(False)} (n={woke.n}; woken by an input: not counted)")
        details = [d for g in gs for d in g.extra.get("detail") or () if "first_press" in d]
        if details:  # a tree of the code that lights a declared race's winner before the engine's step
            misses = sum(g.extra["stderr"].count(miss) for g in gs for miss in FIRST_PRESS_MISSES)
            print(f"    declared race   {sum(d['first_press'] for d in details)} of {len(details)} lamp steps lit "
                  f"the winner before the engine's step (FirstPress), {sum(d.get('armed', 0) for d in details)} "
                  f"of them armed at the decision's moment; lamp != decision {misses}")
        paths = sorted({j.path for g in gs for j in g.judged if j.path is not None and j.overhead is not None})
        for path in paths:  # which way the lamp's step came: the tail by its path (``deciding.LampPath``)
            by = bk.Summary.of([j.overhead for g in gs for j in g.judged if j.path == path and j.overhead is not None])
            print(f"    path {LampPath(path).name.lower():<9} {by.n:>4} lamps, overhead {by.text(False)}")
        print(f"    feeder late     {feeder.text()} (kept out)")
        hops = bk.Summary.of([v for g in gs for v in g.extra.get("hops", ())])
        print(f"    feeder stamp -> written {hops.text()} (the feed's capture allowance: "
              f"{Feed.capture_us / 1000:g} ms; a longer one is an edge the box may decide past)")
        print(f"    written late    {f.late_edges} edges after the feed's allowance, in {f.late_contests} contests "
              f"({f.late_wrong} of them wrong or undecided): kept out of every figure above (they test the "
              f"feeder, not the watermark)")
        print(f"    goal (overhead p50 <= {bk.GOAL_P50_US / 1000:g} ms, p99 <= floor p99 + "
              f"{bk.GOAL_OVER_FLOOR_US / 1000:g} ms, no wrong winner, none undecided): "
              f"{'met' if bk.meets_goal(f, fl) else 'not met'}")
    print("  (*: fewer than 100 values, the p99 is their maximum)")


def report_steps(label: str, games: dict[str, list[bk.Game]]) -> None:
    """``--profile-steps``: per design, each stage of the lamp steps, entered and left (µs after the
    step's start, wall and the thread's CPU time, p50/p90), in the order of the median step."""
    print(f"\n##### {label}: the lamp steps' stages (µs after the step's start: wall p50/p90, thread CPU p50)")
    for design, gs in games.items():
        steps = [s for g in gs for s in g.extra.get("steps", ())]
        if not steps:
            continue
        at: dict[str, list[tuple[int, int]]] = {}
        for s in steps:
            seen: set[str] = set()
            for name, wall, cpu in s["marks"]:
                if name not in seen:  # a stage's first entry and exit in the step
                    seen.add(name)
                    at.setdefault(name, []).append((wall, cpu))
        late = bk.Summary.of([s["woke_late_us"] for s in steps if s["woke_late_us"] is not None])
        invol = sum(1 for s in steps if s["switches"][1])
        print(f"  {design}: {len(steps)} lamp steps; woke after the due moment {late.text(False)}; "
              f"steps with an involuntary switch {invol}, with a voluntary one "
              f"{sum(1 for s in steps if s['switches'][0])}")
        for name, values in sorted(at.items(), key=lambda kv: bk.percentile([w for w, _ in kv[1]], 0.5) or 0):
            walls, cpus = [w for w, _ in values], [c for _, c in values]
            print(f"    {name:<22} n={len(values):<4} wall {bk.percentile(walls, 0.5):>5} / "
                  f"{bk.percentile(walls, 0.9):>5}   cpu {bk.percentile(cpus, 0.5):>5}")


#: one setting's figures for the RESULT line: its label, the shipped design's figures, the floor
Setting = tuple[str, bk.Figures, bk.Summary]


def result_line(per_setting: Sequence[Setting], short: Sequence[str], design: str = "shipped") -> tuple[str, bool]:
    """The RESULT line, and whether the run is valid: ``design`` (``judged_design``) in the
    setting furthest from the goal (its overhead p99 over that setting's floor p99 the most),
    the wrong winners and undecided contests of every setting; ``short``: each design and
    setting that has fewer timed contests than asked (then, or with a setting without a
    timed contest, ``valid=no``)."""
    timed = [s for s in per_setting if s[1].overhead.p99 is not None and s[2].p99 is not None]
    wrong = sum(s[1].wrong for s in per_setting)
    undecided = sum(s[1].undecided for s in per_setting)
    missing = list(short)
    for label, *_figures in per_setting:
        if not any(label == s[0] for s in timed) and not any(x.startswith(f"{design}/{label}:") for x in missing):
            missing.append(f"{design}/{label}:0")  # not played (another design asked for) or never timed
    valid = bool(timed) and not missing
    said = f"wrong={wrong} undecided={undecided}"
    if timed:
        label, f, fl = max(timed, key=lambda s: (s[1].overhead.p99 or 0) - (s[2].p99 or 0))
        said = (f"overhead_p50_ms={bk.ms(f.overhead.p50)} overhead_p99_ms={bk.ms(f.overhead.p99)} "
                f"floor_p99_ms={bk.ms(fl.p99)} within_1ms={f.within_1ms}/{f.timed} {said} "
                f"written_late={f.late_edges} late_contests={f.late_contests} late_wrong={f.late_wrong} "
                f"setting={label.replace(' ', '_')}")
    if design != "shipped":
        said += f" design={design}"
    line = f"RESULT {said} valid={'yes' if valid else 'no'}"
    if missing:
        line += f" short={','.join(missing)}"
    return line, valid


def judged_design(designs: Sequence[str]) -> str:
    """The design the RESULT line judges: the shipped one when it was played, else the first played
    (``--designs fixed-delay`` alone is judged, not counted short in every setting)."""
    return "shipped" if "shipped" in designs or not designs else designs[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="100 timed contests per design and setting (else 300)")
    parser.add_argument("--contests", type=int, default=None,
                        help="timed contests per design and setting (rounds are added while fewer are timed)")
    parser.add_argument("--per-game", type=int, default=100, help="contests per play game (a round)")
    parser.add_argument("--designs", default=",".join(DESIGNS), help="comma-separated, of: " + ", ".join(DESIGNS))
    parser.add_argument("--idle-only", action="store_true")
    parser.add_argument("--loaded-only", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line per game as it ends")
    parser.add_argument("--before", type=Path, default=None, metavar="TREE",
                        help="also play the shipped design from this tree of an older version (e.g. `git archive "
                             "main | tar -x -C TREE`), interleaved: a change measured before and after in one run")
    parser.add_argument("--profile-steps", action="store_true",
                        help="the deciding process stamps each stage of its lamp steps (printed per setting; the "
                             "wrappers cost a little: overhead figures of such a run are not the product's)")
    parser.add_argument("--paused", type=int, default=0, metavar="MS",
                        help=f"one setting instead: the box's processes stopped (SIGSTOP) for MS every "
                             f"{bk.PAUSE_EVERY_S:g} s of each game, as a machine that stalls them does, the feeder "
                             f"writing on: its winners are what counts (its overheads hold the pauses)")
    args = parser.parse_args(argv)
    contests = args.contests or (100 if args.quick else 300)
    if contests < 1 or args.per_game < 1 or args.paused < 0:
        parser.error("--contests and --per-game take a number of at least 1, --paused one of at least 0")
    rounds = max(1, -(-contests // args.per_game))
    per_round = -(-contests // rounds)
    designs = [d.strip() for d in args.designs.split(",") if d.strip()]
    unknown = [d for d in designs if d not in DESIGNS]
    if unknown:
        parser.error(f"unknown design {unknown[0]!r}: use {', '.join(DESIGNS)}")
    if args.before is not None:
        if not (args.before / "controller" / "__main__.py").is_file():
            parser.error(f"--before {args.before}: no controller/ there; give a tree of the box's code")
        DESIGNS[BEFORE] = []
        designs.append(BEFORE)
    if "fixed-delay" in designs and not horizon_switch():
        designs.remove("fixed-delay")
        print("fixed-delay: skipped, play has no --horizon yet (the shipped design is the fixed delay until the "
              "watermark horizon lands)")
    settings = [(label, n) for label, n in (("idle", 0), ("2 CPU burners", 2))
                if not (n and args.idle_only) and not (not n and args.loaded_only)]
    if args.paused:
        settings = [(f"paused {args.paused} ms every {bk.PAUSE_EVERY_S:g} s", 0)]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; "
          f"profile {PROFILE}; designs {', '.join(designs)} interleaved; {rounds} games x {per_round} contests per "
          f"design and setting")
    print(LEGEND)
    per_setting: list[Setting] = []
    short: list[str] = []
    judged = judged_design(designs)
    with tempfile.TemporaryDirectory() as tmp:
        for label, burners in settings:
            games, floor = run_setting(label, burners, designs, rounds, per_round, args.seed, Path(tmp), args.verbose,
                                       args.profile_steps, args.before, wanted=contests, pause_ms=args.paused)
            report(label, games, floor)
            if args.profile_steps:
                report_steps(label, games)
            short += [f"{d}/{label.replace(' ', '_')}:{timed_of(games[d])}" for d in short_of(games, contests)]
            played = [j for g in games.get(judged, []) for j in g.judged]
            per_setting.append((label.replace(" ", "_"), bk.Figures.of(played), bk.Summary.of(floor)))
    # the goal holds in each setting or not at all: the setting furthest from it, not the two pooled
    # (pooled, an idle p99 over the goal hid behind a loaded one under it)
    line, valid = result_line(per_setting, short, judged)
    print(line)
    return 0 if valid else 1


if __name__ == "__main__":
    sys.exit(main())
