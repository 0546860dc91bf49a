"""The ``draw``, ``table`` and ``test`` actions of ``buzzerbox wiring``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from controller.box import profile as profile_mod
from controller.wiring_pack import checks, diagram, guided_test, table
from games.i18n import _, format_number, ngettext


def _load(args: argparse.Namespace, action: str) -> profile_mod.Profile:
    try:
        prof = profile_mod.load(args.profile)
    except profile_mod.ProfileError as exc:
        raise SystemExit(f"buzzerbox wiring {action}: {exc}") from exc
    return prof


def cmd_check(args: argparse.Namespace) -> int:
    """OK with the timing figures and warnings, or FAIL with the one problem."""
    try:
        data, _path = profile_mod.read(args.profile)
        if profile_mod.is_pinmap(data):
            lines = checks.check_pinmap(args.profile)
        else:
            lines = checks.report(profile_mod.load(args.profile))
    except profile_mod.ProfileError as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def cmd_draw(args: argparse.Namespace) -> int:
    if args.output not in (None, "-") and Path(args.output).suffix.lower() != ".svg":
        raise SystemExit("buzzerbox wiring draw: " + _("{path}: the diagram is an SVG drawing; name the file *.svg (a "
                                                       "browser or Inkscape opens it, and can export a PNG)").format(
                                                           path=args.output))
    prof = _load(args, "draw")
    svg = diagram.render(prof)
    if args.output in (None, "-"):
        sys.stdout.write(svg)
    else:
        Path(args.output).write_text(svg, encoding="utf-8")
        print(_("wrote {path}").format(path=args.output), file=sys.stderr)
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    sys.stdout.write(table.render(_load(args, "table")))
    return 0


#: where tests of the shipped profiles are saved, under $XDG_DATA_HOME like the journals:
#: an installed wheel's profiles sit inside the package, which an update replaces
#: and a user other than root cannot write to
RESULTS_SUBDIR = "buzzerbox/wiring-tests"


def results_dir() -> Path:
    """``$XDG_DATA_HOME/buzzerbox/wiring-tests`` (else ``~/.local/share/...``)."""
    from controller.box.session import data_dir

    return data_dir(RESULTS_SUBDIR)


def is_shipped(prof: profile_mod.Profile) -> bool:
    """``prof`` is one of the box's own profiles (by name, or by its path in wiring/)."""
    if prof.path is None:
        return False
    try:
        return prof.path.resolve().parent == profile_mod.wiring_dir().resolve()
    except OSError:
        return False


def report_path(prof: profile_mod.Profile, given: str | None, mock: bool = False) -> Path:
    """NAME.test-result.txt (a ``--mock`` try-out: NAME.mock.test-result.txt, never
    the real result), unless --report says otherwise: in the data folder for a
    shipped profile, beside the profile for one given by path."""
    if given:
        return Path(given)
    if is_shipped(prof):
        folder = results_dir()
    else:
        folder = prof.path.parent if prof.path is not None else Path.cwd()
    return folder / f"{prof.name}{'.mock' if mock else ''}.test-result.txt"


def earlier_result(prof: profile_mod.Profile, path: Path) -> Path | None:
    """A result an older version saved beside a shipped profile: left where it is
    (nothing is moved behind the owner's back), and named once, so it is found."""
    if prof.path is None or not is_shipped(prof):
        return None
    old = prof.path.parent / path.name
    return old if old != path and old.is_file() else None


def real_result(path: Path) -> bool:
    """``path`` holds a real test's result (not a ``--mock`` try-out's): a try-out never overwrites it."""
    try:
        first = path.read_text(encoding="utf-8").splitlines()[:1]
    except (OSError, UnicodeDecodeError):
        return False
    return bool(first) and "MOCK" not in first[0]


def _test_source(prof: Any, mock: bool) -> tuple[Any, Any]:
    """The profile's inputs opened for the guided test, and the GPIO pin factory they use (None
    off the header; mock pins with ``mock``); one line, no traceback, when they will not open."""
    from controller.box.sources import open_source

    kwargs: dict[str, Any] = {}
    factory = None
    try:
        if prof.source == "gpio":
            from controller.box.sources.gpio import default_factory, mock_factory

            factory = mock_factory() if mock else default_factory()
            kwargs["pin_factory"] = factory
        return open_source(prof, **kwargs), factory
    except Exception as exc:  # no board plugged in, no serial module, no GPIO: say so, plainly
        hint = ("; " + _("no GPIO on this machine: add --mock to try the test with simulated presses")
                if type(exc).__name__ == "BadPinFactory" else "")
        raise SystemExit("buzzerbox wiring test: " + _("cannot open the {source} inputs of {profile}: {exc}{hint}").format(
            source=prof.source, profile=prof.name, exc=exc, hint=hint)) from exc


def cmd_test(args: argparse.Namespace) -> int:
    """Guided test on the real stations (or ``--mock`` pins, to try it out)."""
    from controller.box.lights import GpioLights, NoLights
    from controller.box.timeline import box_now_us

    prof = _load(args, "test")
    if args.mock and prof.source != "gpio":
        raise SystemExit("buzzerbox wiring test: " + _("--mock is for header (gpio) profiles: give one, e.g. header-4"))
    path = report_path(prof, args.report, args.mock)
    if args.mock and real_result(path):
        raise SystemExit("buzzerbox wiring test: " + _(
            "{path} holds a real test's result: a --mock try-out does not overwrite it; give another --report file"
        ).format(path=path))
    source, factory = _test_source(prof, args.mock)

    def open_lights(src: Any) -> Any:
        if args.no_lights or not prof.light_pins():
            return NoLights()
        if prof.source == "gpio":
            return GpioLights.from_profile(prof, pin_factory=factory)
        return src.lights() if hasattr(src, "lights") else NoLights()

    test = guided_test.GuidedTest(prof, timeout_us=int(args.timeout * 1_000_000), lights=not args.no_lights)
    inputs, lights = len(test.inputs), len(test.lights)
    print(_("Guided wiring test of {name}: {inputs}, {lights}.").format(
        name=prof.name, inputs=ngettext("{n} input", "{n} inputs", inputs).format(n=inputs),
        lights=ngettext("{n} light", "{n} lights", lights).format(n=lights)))
    print(_("Press each input when asked; one that does not fire within {seconds} s is reported dead.").format(
        seconds=format_number(args.timeout, 0 if float(args.timeout).is_integer() else 1)))
    builder = guided_test.MockBuilder(test, factory, box_now_us) if args.mock else None
    if builder is not None:
        print(_("--mock: simulated presses on mock pins, every light answered yes (a try-out, not a test of wiring)"))

    def sleep(us: int) -> None:
        if builder is not None:
            builder.tick()
        time.sleep(us / 1_000_000)

    def ask(question: str) -> str:
        if builder is not None:
            return builder.ask(question)
        try:
            return input(question)
        except EOFError:
            raise SystemExit("buzzerbox wiring test: " + _("no answer, stdin is closed: run it in a terminal "
                                                           "(or with --no-lights to test only the inputs)")) from None

    report = guided_test.run(test, source, now=box_now_us, sleep=sleep, ask=ask, say=print, open_lights=open_lights)
    text = report.text(mock=args.mock)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        print()
        print(text, end="")
        raise SystemExit("buzzerbox wiring test: " + _(
            "cannot save the result to {path} ({problem}); give a file you can write with --report FILE").format(
                path=path, problem=exc.strerror or exc)) from exc
    print()
    print(text, end="")
    print(_("saved to {path}").format(path=path))
    old = earlier_result(prof, path)
    if old is not None:
        print(_("an earlier result is still at {old} (not moved: delete it when you no longer need it)").format(old=old))
    return 0 if report.passed else 1


def add_commands(wiring: Any) -> None:
    """Add check, draw, table and test to the ``buzzerbox wiring`` subparsers."""
    p = wiring.add_parser("check", help=_("validate a wiring profile; print its timing figures and warnings"))
    p.add_argument("profile", help=_("wiring profile name (wiring/NAME.toml) or path"))
    p.set_defaults(func=cmd_check)

    p = wiring.add_parser("draw", help=_("draw a profile's wiring diagram as SVG"))
    p.add_argument("profile", help=_("wiring profile name (wiring/NAME.toml) or path"))
    p.add_argument("-o", "--output", help=_("SVG file to write (default: standard output)"))
    p.set_defaults(func=cmd_draw)

    p = wiring.add_parser("table", help=_("print a table to check the wiring with a multimeter"))
    p.add_argument("profile", help=_("wiring profile name (wiring/NAME.toml) or path"))
    p.set_defaults(func=cmd_table)

    p = wiring.add_parser("test", help=_("guided hardware test: press every input, look at every light"))
    p.add_argument("profile", help=_("wiring profile name (wiring/NAME.toml) or path"))
    p.add_argument("--timeout", type=float, default=10.0, help=_("seconds to wait for each press (default 10)"))
    p.add_argument("--report",
                   help=_("where to save the result (default: NAME.test-result.txt in the data folder for a "
                          "shipped profile, beside the profile for one given by path)"))
    p.add_argument("--no-lights", action="store_true", help=_("test the inputs only"))
    p.add_argument("--mock", action="store_true", help=_(
        "mock pins and a simulated builder who presses each input and says every light is lit (try the test on a laptop)"))
    p.set_defaults(func=cmd_test)


def shipped_profiles() -> list[Path]:
    """The profiles in wiring/ (board-pinmap.toml is the firmware's pin map, not a profile)."""
    return [profile_mod.wiring_dir() / f"{name}.toml" for name in profile_mod.shipped_names()]


def regenerate(out_dir: Path | None = None) -> list[Path]:
    """Write wiring/diagrams/NAME.svg and NAME.txt for every shipped profile."""
    out_dir = out_dir or profile_mod.wiring_dir() / "diagrams"
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in shipped_profiles():
        prof = profile_mod.load(str(path))
        for suffix, text in ((".svg", diagram.render(prof)), (".txt", table.render(prof))):
            target = out_dir / f"{path.stem}{suffix}"
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


if __name__ == "__main__":  # python -m controller.wiring_pack.commands: refresh the committed diagrams
    for written in regenerate():
        print(written)
