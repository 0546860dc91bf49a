"""The broker's files for one tournament (``buzzerbox league broker-config``):
``mosquitto.conf``, ``acl`` (each box may write only under its own room's
topics and read the schedule; the hub reads; the organiser writes the
schedule), ``passwd`` (Mosquitto's own PBKDF2-SHA512 format), and a password
file per account that does not have one yet (copy each box only its own).
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from pathlib import Path

from controller.league.messages import ROOT, bracket_topic, hub_topic, room_topic, schedule_topic
from controller.league.tournament import Tournament, read_secret

#: Mosquitto 2's password hash: PBKDF2-SHA512, 101 rounds, a 12-byte salt ("$7$")
ROUNDS, SALT_BYTES = 101, 12


def hashed(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, ROUNDS)
    return f"$7${ROUNDS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(t: Tournament) -> str:
    base = f"{ROOT}/{t.id}"
    lines = [f"# buzzerbox tournament {t.id}: written by `buzzerbox league broker-config`", "",
             "# the hub reads every room; it writes only its claim (one hub per tournament)", f"user {t.hub_user}",
             f"topic read {base}/#", f"topic readwrite {hub_topic(t.id)}", f"topic readwrite {bracket_topic(t.id)}", "",
             "# the organiser signs and publishes schedule changes", f"user {t.organiser_user}",
             f"topic readwrite {schedule_topic(t.id)}", f"topic read {base}/#", ""]
    for room in t.rooms:
        lines += [f"# {room.name}: its own topics only, and the schedule to read", f"user {room.user}",
                  f"topic readwrite {room_topic(t.id, room.id, '#')}", f"topic read {schedule_topic(t.id)}",
                  f"topic read {bracket_topic(t.id)}", ""]
    return "\n".join(lines)


def conf_text(t: Tournament, folder: Path, port: int) -> str:
    tls = ([f"certfile {folder / 'server.crt'}", f"keyfile {folder / 'server.key'}"] if t.broker.tls_ca else
           ["# TLS: docs/league.md makes the broker's own CA and certificate, then:",
            f"# cafile {folder / 'ca.crt'}", f"# certfile {folder / 'server.crt'}", f"# keyfile {folder / 'server.key'}"])
    return "\n".join([
        f"# buzzerbox tournament {t.id}", "per_listener_settings false", "allow_anonymous false",
        f"password_file {folder / 'passwd'}", f"acl_file {folder / 'acl'}",
        "persistence true", f"persistence_location {folder}/", "autosave_interval 30",
        f"listener {port}", *tls, ""])


def _secret_for(path: Path | None, fallback: Path, what: str) -> tuple[Path, str]:
    target = path or fallback
    if target.exists():
        secret = read_secret(target, what)
        assert secret is not None
        return target, secret
    secret = secrets.token_urlsafe(18)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(secret + "\n")
    return target, secret


def write_broker_files(t: Tournament, folder: Path, port: int | None = None) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    accounts = [(t.hub_user, t.hub_password_file), (t.organiser_user, t.organiser_password_file),
                *((room.user, room.password_file) for room in t.rooms)]
    written, lines = [], []
    for user, path in accounts:
        target, secret = _secret_for(path, folder / f"{user}.password", user)
        written.append(target)
        lines.append(f"{user}:{hashed(secret)}")
    for name, text in (("passwd", "\n".join(lines) + "\n"), ("acl", acl_text(t)),
                       ("mosquitto.conf", conf_text(t, folder.resolve(), port or t.broker.port))):
        target = folder / name
        target.write_text(text, encoding="utf-8")
        if name == "passwd":
            target.chmod(0o600)
        written.append(target)
    return written
