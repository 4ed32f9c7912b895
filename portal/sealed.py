"""A secret held for a moment, sealed with the portal's key: Fernet (authenticated
encryption, pyca/cryptography) under a key derived from SECRET_KEY, so that every node
that shares the secret can open it and nothing else can, and a token older than `ttl`
is refused. Used for a password between its arrival and its slow hash (issue 27, 6), and
for what one node shares with the others through Redis (delegations/shared.py)."""
from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app


def _fernet(purpose: str) -> Fernet:
    secret = current_app.config["SECRET_KEY"]
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
               info=f"portal sealed {purpose}".encode()).derive(secret.encode() if isinstance(secret, str) else secret)
    return Fernet(base64.urlsafe_b64encode(key))


def seal_bytes(data: bytes, purpose: str) -> bytes:
    return _fernet(purpose).encrypt(data)


def unseal_bytes(token: bytes, purpose: str, ttl: int) -> bytes | None:
    try:
        return _fernet(purpose).decrypt(token, ttl=ttl)
    except (InvalidToken, ValueError):
        return None


def seal(text: str, purpose: str) -> str:
    return seal_bytes(text.encode(), purpose).decode()


def unseal(token: str, purpose: str, ttl: int) -> str | None:
    """The text, or None when the token is not ours, was altered, or is older than `ttl` s."""
    data = unseal_bytes(token.encode(), purpose, ttl)
    return data.decode() if data is not None else None
