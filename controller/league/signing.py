"""The organiser's key: a schedule change is signed with it (Ed25519), and a
box takes a change only when the signature holds for the public key in the
tournament file.

Why a signature and not only the broker's ACL (which already lets only the
organiser's account write the schedule topic): the boxes carry the broker's
passwords around a hall, a misconfigured broker may let anyone in, and a
retained message outlives the account that wrote it. A signature holds
whatever the broker does; the private key never leaves the organiser's laptop.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from games.base import BuzzerBoxError
from games.i18n import _


class SigningKeyError(BuzzerBoxError):
    """A key file that cannot be used."""


def new_key(path: Path) -> str:
    """Write a new private key to ``path`` (mode 600, must not exist); the public key, base64."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        with open(path, "xb", opener=lambda p, flags: os.open(p, flags, 0o600)) as f:
            f.write(pem)
    except FileExistsError:
        raise SigningKeyError(_("{path} exists already: keep it, or give another file").format(path=path)) from None
    return public_of(key)


def public_of(key: Ed25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def load_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as exc:
        raise SigningKeyError(_("cannot read the key {path}: {why}").format(path=path, why=exc.strerror or exc)) from None
    except ValueError:
        raise SigningKeyError(_("{path} is not a private key made by `buzzerbox league keygen`").format(path=path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(_("{path} is not a private key made by `buzzerbox league keygen`").format(path=path))
    return key


def sign(key: Ed25519PrivateKey, body: bytes) -> str:
    return base64.b64encode(key.sign(body)).decode("ascii")


def verify(public_key: str | None, body: bytes, signature: str) -> bool:
    """True only for a signature by the organiser's key; no key in the file: never."""
    if not public_key:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True)).verify(
            base64.b64decode(signature, validate=True), body)
    except (InvalidSignature, ValueError):
        return False
    return True
