"""``buzzerbox pack check FILE``: a question pack checked before quiz night.

The checking itself is the quiz's (``games.quiz.packs``): this app only says
what it found, one line per problem (each naming its line and the fix) and a
summary line for a good pack, so a host can repair a whole file in one pass.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from controller.apps.journal import looks_like_scenario
from games.i18n import _, ngettext
from games.quiz.packs import Pack, PackError, check_pack, load_pack


def describe(pack: Pack) -> str:
    """One line about a good pack: what a host wants to know before the night."""
    questions = len(pack.questions)
    categories = pack.categories()
    points = sum(q.points for q in pack.questions)
    choices = sum(1 for q in pack.questions if q.choices)
    images = sum(1 for q in pack.questions if q.image is not None)
    parts = [
        ngettext("{n} question", "{n} questions", questions).format(n=questions),
        ngettext("{n} category", "{n} categories", len(categories)).format(n=len(categories))
        + (f" ({', '.join(categories)})" if categories else ""),
        ngettext("{n} point in all", "{n} points in all", points).format(n=points),
        ngettext("{n} multiple choice", "{n} multiple choice", choices).format(n=choices),
        ngettext("{n} with a picture", "{n} with pictures", images).format(n=images),
    ]
    clips = sum(1 for q in pack.questions if q.audio is not None)
    if clips:
        parts.append(ngettext("{n} with a clip", "{n} with clips", clips).format(n=clips))
    if pack.sheet:
        parts.append(_("read from the sheet {sheet!r}").format(sheet=pack.sheet))
    elif pack.encoding:
        parts.append(_("text in {encoding}").format(encoding=pack.encoding))
    language = f" [{pack.language}]" if pack.language else ""
    return f"OK {pack.source.name}: \u201c{pack.title}\u201d{language}: " + ", ".join(parts)


def cmd_pack_check(args: argparse.Namespace) -> int:
    """Every problem on stdout, one line each, then ``FAIL`` and the count on
    stderr, exit 1; or ``OK`` and the summary, exit 0 (as ``wiring check``)."""
    if looks_like_scenario(args.file):
        print("FAIL " + _("{file} is a scenario file, not a question pack: `buzzerbox scenario {file}` runs it")
              .format(file=args.file), file=sys.stderr)
        return 1
    problems = check_pack(args.file)
    if problems:
        for line in problems:
            print(line)
        print("FAIL " + ngettext("{file}: {n} problem; fix it and check again",
                                 "{file}: {n} problems; fix them and check again", len(problems))
              .format(file=args.file, n=len(problems)), file=sys.stderr)
        try:  # the good rows are still a quiz: the host may play them tonight and fix the rest later
            good = len(load_pack(args.file))
        except PackError:
            return 1
        print(ngettext("{file}: {n} good question can be played without the rows above",
                       "{file}: {n} good questions can be played without the rows above", good)
              .format(file=args.file, n=good), file=sys.stderr)
        return 1
    try:
        pack = load_pack(args.file)
    except PackError as exc:  # check_pack found nothing, so this would be a checker bug; still one line
        print(f"FAIL {exc}", file=sys.stderr)
        return 1
    print(describe(pack))
    return 0


def add_pack_commands(sub: Any) -> None:
    pack = sub.add_parser("pack", help=_("question packs for the quiz: check one before the night"))
    actions = pack.add_subparsers(dest="pack_command", required=True, metavar="ACTION")
    p = actions.add_parser(
        "check", help=_("list every problem in a pack (line and fix), or summarise a good one"),
        description=_("Check a question pack (CSV, JSON, a spreadsheet or a saved Open Trivia DB file): every problem "
                      "on its own line naming the line and the fix, exit 1; a good pack gets one summary line."))
    p.add_argument("file", help=_("the pack file (.csv, .json, .xlsx or .ods; FILE.xlsx#SHEET for a sheet other than "
                                  "the first; docs/question-packs.md)"))
    p.set_defaults(func=cmd_pack_check)
