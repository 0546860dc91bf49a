"""``buzzerbox pack check FILE``: a question pack checked before quiz night.

The checking itself is the quiz's (``games.quiz.packs``): this app only says
what it found, one line per problem (each naming its line and the fix) and a
summary line for a good pack, so a host can repair a whole file in one pass.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from controller.apps.journal import looks_like_scenario
from games.i18n import N_, _, ngettext
from games.quiz.packs import (
    MAX_CLIP_SECONDS,
    Pack,
    PackError,
    PackProblem,
    Where,
    check_pack,
    load_pack,
)

#: what ``pygame.mixer.Sound`` is asked to decode a clip with (``pack check`` plays nothing)
_DECODE_RATE = 22_050


def _open_mixer() -> bool:
    """The mixer, to decode with, on SDL's silent driver: ``pack check`` plays
    nothing, and runs on a laptop or a box without sound too. False: pygame
    has no mixer at all (the clips are then checked by name and size only)."""
    import pygame

    if pygame.mixer.get_init():
        return True
    before = os.environ.get("SDL_AUDIODRIVER")
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        pygame.mixer.init(_DECODE_RATE)
        return True
    except (pygame.error, NotImplementedError):
        return False
    finally:
        if before is None:
            del os.environ["SDL_AUDIODRIVER"]
        else:
            os.environ["SDL_AUDIODRIVER"] = before


def decode_problem(path: Path, start_s: float, shown: str) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
    """Why pygame's mixer cannot play the clip at ``path`` from ``start_s``
    (a message id and its arguments), or None when it decodes. The whole clip
    is decoded, so a file cut short or not a clip at all is found now, not on
    quiz night; pygame's own reason is kept in the line."""
    import pygame

    try:
        length = pygame.mixer.Sound(str(path)).get_length()
    except (pygame.error, OSError, ValueError, MemoryError):  # SDL's reason names its decoders, not the file
        return (N_("audio {path!r} cannot be decoded: it is cut short, damaged or not really a clip; export it "
                   "again as .ogg, .mp3 or .wav (e.g. Audacity's File > Export)"), (("path", shown),))
    if length <= 0:
        return (N_("audio {path!r} holds no sound; export the clip again as .ogg, .mp3 or .wav"),
                (("path", shown),))
    if start_s >= length:
        return (N_("audio {path!r} starts at {start} s but lasts {length} s; give a start inside the clip "
                   "(song.ogg@12.5+20)"), (("path", shown), ("start", start_s), ("length", round(length, 1))))
    return None


#: a video whose last frame comes this much before the length its header states is cut short
CUT_SHORT_S = 0.5


def video_problem(path: Path, start_s: float, shown: str) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
    """Why PyAV cannot play the video at ``path`` from ``start_s`` (a message
    id and its arguments), or None when every frame decodes (the last one
    only is converted, and to a small size: the check is about the file)."""
    from controller.screen.video import VideoClip

    try:
        clip = VideoClip(path, (16, 16))
        try:
            clip.frame_at(float(MAX_CLIP_SECONDS) * 100)  # every frame decoded; the last one given
            length, said = clip.shown_s, clip.duration_s
        finally:
            clip.close()
        if length is not None and said is not None and length < said - CUT_SHORT_S:
            raise EOFError(f"{length} s of {said} s")  # a file cut short decodes what is there without a word
    except Exception:  # noqa: BLE001 - FFmpeg's errors are many kinds (OSError, ValueError, its own): all say the same
        return (N_("video {path!r} cannot be decoded: it is cut short, damaged or not really a video; export it "
                   "again as .mp4 (H.264) or .webm (VP9)"), (("path", shown),))
    if length is None:
        return (N_("video {path!r} holds no pictures; export the clip again as .mp4 or .webm"), (("path", shown),))
    if start_s > length:
        return (N_("video {path!r} starts at {start} s but lasts {length} s; give a start inside the clip "
                   "(film.mp4@12.5+20)"), (("path", shown), ("start", start_s), ("length", round(length, 1))))
    return sound_problem(path, shown)


#: what a video's sound track is decoded to when checked (small: the check is about the file)
_CHECK_MIXER = (8000, 8, 1)


def sound_problem(path: Path, shown: str) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
    """Why the video's own sound track will not play (its pictures do), or
    None: it decodes to its end, or the video has no sound."""
    from controller.screen.video import SoundTrack

    try:
        track = SoundTrack.open(path, 0.0, None, _CHECK_MIXER)
        if track is not None:
            try:
                track.check()
            finally:
                track.container.close()
    except Exception:  # noqa: BLE001 - FFmpeg's errors are many kinds: all say the same
        return (N_("video {path!r} has a sound track that cannot be decoded (the pictures play, silent); export "
                   "it again with its sound as AAC (.mp4) or Opus (.webm), or give the sound in the audio cell"),
                (("path", shown),))
    return None


def clip_problems(pack: Pack) -> list[PackProblem]:
    """One line for each of the pack's clips that pygame's mixer (audio) or
    PyAV (video; when installed: ``video_note`` says when not) cannot play."""
    from controller.screen.video import missing_decoder

    sheet = pack.source.suffix.lower() in (".xlsx", ".ods")
    mixer = any(q.audio is not None for q in pack.questions) and _open_mixer()
    videos = not missing_decoder()
    problems = []
    for q in pack.questions:
        for path, start_s, check in ((q.audio, q.audio_start_s, decode_problem if mixer else None),
                                     (q.video, q.video_start_s, video_problem if videos else None)):
            if path is None or check is None:
                continue
            try:  # named as the cell names it: its path inside the pack's folder
                shown = path.relative_to(pack.source.parent).as_posix()
            except ValueError:
                shown = path.name
            found = check(path, start_s, shown)
            if found is not None:
                problems.append(PackProblem(pack.source.name, Where(q.line, row=sheet), found[0], found[1]))
    return problems


def video_note(pack: Pack) -> str | None:
    """One line when the pack has video questions and this box has no
    decoder for them (they show a placeholder): the command that adds it."""
    from controller.screen.video import NO_DECODER, missing_decoder

    videos = sum(1 for q in pack.questions if q.video is not None)
    if not videos or not missing_decoder():
        return None
    return ngettext("{n} video question shows a placeholder on this box: the video decoder is not installed; "
                    "install it with {fix}",
                    "{n} video questions show a placeholder on this box: the video decoder is not installed; "
                    "install it with {fix}", videos).format(n=videos, fix=NO_DECODER)


def _sounding_videos(pack: Pack) -> int:
    """How many video questions play the clip's own sound (a sound track, and no ``audio`` cell: that wins)."""
    from controller.screen.video import has_sound, missing_decoder

    if missing_decoder():
        return 0
    count = 0
    for q in pack.questions:
        if q.video is not None and q.audio is None:
            try:
                count += has_sound(q.video)
            except Exception:  # noqa: BLE001 - a video that will not open: clip_problems named it
                continue
    return count


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
    videos = sum(1 for q in pack.questions if q.video is not None)
    if videos:
        parts.append(ngettext("{n} with a video", "{n} with videos", videos).format(n=videos))
        sounding = _sounding_videos(pack)
        if sounding:
            parts.append(ngettext("{n} video with its own sound", "{n} videos with their own sound", sounding)
                         .format(n=sounding))
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
    try:  # the clips of the rows that read well are decoded too: one that will not play is named here
        undecoded = clip_problems(load_pack(args.file))
    except PackError:
        undecoded = []  # a whole-file problem: check_pack named it
    problems += undecoded
    if problems:
        for line in problems:
            print(line)
        print("FAIL " + ngettext("{file}: {n} problem; fix it and check again",
                                 "{file}: {n} problems; fix them and check again", len(problems))
              .format(file=args.file, n=len(problems)), file=sys.stderr)
        try:  # the good rows are still a quiz: the host may play them tonight and fix the rest later
            good = len(load_pack(args.file)) - len(undecoded)
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
    note = video_note(pack)
    if note:
        print(note)
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
