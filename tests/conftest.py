"""Fixtures every test folder may use, and the suite-wide hooks: the
``runtime`` marker and the loud list of tests skipped for a missing runtime
(tests/runtimes.py), and the check that no test leaves a thread, a child
process or a socket behind. No test here judges real time: those figures
are benchmarks/.

The summaries are built from the test reports, so they also hold when
pytest-xdist runs the tests in worker processes."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests import runtimes
from tests.processes import HANG_S

# The box's first start shows a walk-through (controller/apps/first_run.py) before the menu and keeps
# its choices in the data folder: every test's menu starts as its command line says unless the test
# asks for the walk-through (tests/display/test_first_run.py); subprocesses inherit this
os.environ["BUZZERBOX_FIRST_RUN"] = "off"
# Every box a test plays checks the lamp a game's declared race lights early against the game's own
# decision, with a lamp or without (controller/box/runtime.py, CHECK_FIRST_PRESS): a difference raises
os.environ["BUZZERBOX_CHECK_FIRST_PRESS"] = "1"

# Property tests are seeded and never timed: a fixed seed per test (derandomize), no
# database carried between runs, no deadline per example and no "too slow" check
# (both are wall-clock judgements a busy machine fails)
settings.register_profile("buzzerbox", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("buzzerbox")


#: the option that runs the suite's per-game tests on the toy games (tests/toy), registered as if in
#: games/: a game written in English only passes them (issue 47); ``make test`` runs it after the suite
TOY_GAMES = "--toy-games"
TOYS_FOLDER = Path(__file__).resolve().parent / "toy"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        TOY_GAMES, action="store_true",
        help="register the English-only toy games (tests/toy) as if they were in games/ and run only the "
             "tests parametrized over the registered games, for the toy games: what a new game must pass")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption(TOY_GAMES):
        _register_toy_games(config)
    config.addinivalue_line(
        "markers", "runtime(name): the test needs an optional runtime (tests/runtimes.py); "
        "skipped when missing, a failure with BUZZERBOX_REQUIRE_RUNTIMES=1")
    config.addinivalue_line(
        "markers", "leaves_behind(reason): the test hands a thread/process/socket to a later one on purpose "
        "(say why); the leak check is off for it")


def _register_toy_games(config: pytest.Config) -> None:
    """Before the test modules are collected (their parameters read the registry), for the whole run."""
    from games import registry
    from tests.toy import GAMES

    stack = contextlib.ExitStack()
    for name, package in GAMES.items():
        stack.enter_context(registry.register(name, package))
    config.add_cleanup(stack.close)


def _toy_case(item: pytest.Item) -> bool:
    """Whether a test is one case of a test parametrized over the games, for a toy game (the
    toys' own tests, tests/toy, register them themselves: the plain run has them)."""
    from tests.toy import GAMES

    callspec = getattr(item, "callspec", None)
    if callspec is None or TOYS_FOLDER in item.path.parents:
        return False
    values = [v for value in callspec.params.values() for v in (value if isinstance(value, (tuple, list)) else (value,))]
    return any(isinstance(v, str) and v in GAMES for v in values) \
        or any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w])", callspec.id) for name in GAMES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--toy-games``: only the toy games' cases (the shipped games' ran in the plain run)."""
    if not config.getoption(TOY_GAMES):
        return
    toy = [_toy_case(item) for item in items]
    config.hook.pytest_deselected(items=[item for item, keep in zip(items, toy, strict=True) if not keep])
    items[:] = [item for item, keep in zip(items, toy, strict=True) if keep]


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("runtime"):
        for name in mark.args:
            runtimes.require(name, item.nodeid)


_RUNTIME_SKIP = re.compile(r"test runtime '([^']+)' missing: (.*)")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Gathered from reports (in the main process, also under xdist)."""
    if report.skipped and isinstance(report.longrepr, tuple):
        found = _RUNTIME_SKIP.search(str(report.longrepr[2]))
        if found and not any(test == report.nodeid for _, _, test in runtimes.SKIPPED):
            runtimes.SKIPPED.append((found.group(1), found.group(2), report.nodeid))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    tr = terminalreporter
    if not runtimes.SKIPPED:
        return
    by_runtime: dict[str, tuple[str, int]] = {}
    for name, why, _ in runtimes.SKIPPED:
        by_runtime[name] = (why, by_runtime.get(name, ("", 0))[1] + 1)
    tr.section("SKIPPED FOR A MISSING RUNTIME (CI fails on these)", sep="!", red=True, bold=True)
    for name, (why, count) in sorted(by_runtime.items()):
        tr.write_line(f"{count} test(s) need {name}: {why}", red=True, bold=True)
    tr.write_line(f"set {runtimes.REQUIRE_ENV}=1 to make this a failure (.ci/run does)", yellow=True)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A test may switch the language (``--lang``); every test starts and ends in English."""
    from games.i18n import set_language

    set_language("en")
    yield
    set_language("en")


# -- nothing left behind --------------------------------------------------------------------

#: threads the libraries keep on purpose for the life of the process, by name
#: prefix, and why they are no leak
KEPT_THREADS: dict[str, str] = {
    "asyncio_": "asyncio's default executor (getaddrinfo, to_thread): the event loop's own pool, reused",
    "ThreadPoolExecutor-": "concurrent.futures workers idle in a pool their owner keeps",
    "Dummy-": "a thread Python did not start (a C library's own), seen through threading.current_thread",
    "pydevd": "a debugger's",
}
#: how long a test's threads and children get to finish after it ends (they
#: were told to stop; joining is waiting for that, not a timer): a hang guard,
#: since a thread told to stop on a busy machine may take seconds to be scheduled
FINISH_S = HANG_S


def _children() -> set[int]:
    """This process's child processes (every thread's), from /proc."""
    pids: set[int] = set()
    for task in Path("/proc/self/task").glob("*"):
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            pids.update(int(p) for p in (task / "children").read_text().split())
    return pids


def _sockets() -> set[str]:
    """This process's open sockets, as /proc/self/fd names them (``socket:[inode]``)."""
    found: set[str] = set()
    for fd in Path("/proc/self/fd").glob("*"):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


#: set in the environment while a test runs, a new value each test: every process the test starts with
#: this process's environment carries it, at any depth, so one that outlives the test is found whoever
#: started it (a deciding process left by a killed ``play`` is no child of ours, and its lines may be
#: translated)
MARK = "BUZZERBOX_TEST_RUN"


def _marked(mark: str) -> list[int]:
    """Processes of ours, still running, whose environment carries ``MARK=mark``."""
    wanted = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            if wanted in (entry / "environ").read_bytes().split(b"\0"):  # a zombie's is empty
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def _kept(thread: threading.Thread) -> bool:
    return any(thread.name.startswith(prefix) for prefix in KEPT_THREADS)


def _is_zombie_or_gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


@pytest.fixture(autouse=True)
def _leaves_nothing_behind(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that leaves a thread, a child process or a socket behind
    (after its own fixtures are torn down; session/module fixtures' own
    threads and sockets were there before it started)."""
    if request.node.get_closest_marker("leaves_behind"):
        yield
        return
    threads, children, sockets = set(threading.enumerate()), _children(), _sockets()
    mark = os.environ[MARK] = f"{os.getpid()}-{time.monotonic_ns()}"
    try:
        yield
    finally:
        del os.environ[MARK]
    end = time.monotonic() + FINISH_S
    new_threads = [t for t in threading.enumerate() if t not in threads and not _kept(t)]
    for thread in new_threads:
        thread.join(max(0.0, end - time.monotonic()))
    left_threads = [t.name for t in new_threads if t.is_alive()]
    new_children = _children() - children
    for pid in new_children:  # exiting; a zombie is left unreaped: both are the test's to wait for
        while not _is_zombie_or_gone(pid) and time.monotonic() < end:
            time.sleep(0.01)
    left_children = sorted(new_children & _children())
    survivors = _marked(mark)  # started by the test at any depth: killed, they end at once
    while survivors and time.monotonic() < end:
        time.sleep(0.01)
        survivors = _marked(mark)
    left_sockets = sorted(_sockets() - sockets)
    while left_sockets and time.monotonic() < end:
        # closing: a thread told to stop closes its own, and one only garbage still holds
        # (a closed client's) is freed by a collection
        gc.collect()
        time.sleep(0.01)
        left_sockets = sorted(_sockets() - sockets)
    problems = []
    if left_threads:
        problems.append(f"threads still running: {', '.join(sorted(left_threads))}")
    if left_children:
        problems.append(f"child processes not waited for: {left_children}")
    if left_sockets:
        problems.append(f"{len(left_sockets)} socket(s) still open")
    if survivors:
        problems.append(f"processes it started still running: {survivors}")
        for pid in survivors:  # not left to load the tests after it
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    if problems:
        pytest.fail(f"{request.node.nodeid} left behind " + "; ".join(problems) +
                    " (stop and join/wait/close what the test started)", pytrace=False)


@pytest.fixture
def mock_pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's mock pins for `play`/`diag` on a machine without GPIO; no window, no sound."""
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    old = Device.pin_factory
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = old


@pytest.fixture
def drawing_in_a_language() -> Iterator[None]:
    """For tests that draw screens in several languages and read ``theme.DRAWN``:
    pygame's fonts up, and afterwards the draw record off and English back."""
    import pygame

    from games.i18n import set_language
    from games.toolkit import theme

    pygame.display.init()
    pygame.font.init()
    yield
    theme.DRAWN = None
    set_language("en")
