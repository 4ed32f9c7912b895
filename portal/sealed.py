"""A secret held for a moment, sealed with the portal's key: Fernet (authenticated
encryption, pyca/cryptography) under a key derived from SECRET_KEY, so that every node
that shares the secret can open it and nothing else can, and a token older than `ttl`
is refused. Used for a password between its arrival and its slow hash (issue 27, 6); what
one node shares with the others through Redis (delegations/shared.py) is sealed as a
blob, with AES-GCM (seal_blob)."""
from __future__ import annotations

import base64
import os
import time

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app


def _key(purpose: str) -> bytes:
    secret = current_app.config["SECRET_KEY"]
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=f"portal sealed {purpose}".encode()).derive(secret.encode() if isinstance(secret, str) else secret)


def _fernet(purpose: str) -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_key(purpose)))


# A blob: version byte, the instant it was sealed (8 bytes, seconds), a random 96-bit nonce,
# then the ciphertext and its tag; the first nine bytes are authenticated with it.
_BLOB = b"\x01"
_HEADER, _NONCE = 9, 12


def seal_blob(data: bytes, purpose: str) -> bytes:
    """seal_bytes() for the large values the nodes share (a 2,000-person document): AES-GCM,
    authenticated encryption from the same library and key derivation, in raw bytes. Fernet
    (AES-CBC, HMAC, then base64) took 0.3 ms for each 60 KB sealed and again opened, on
    every save and on every page another worker computed; AES-GCM takes a fortieth."""
    header = _BLOB + int(time.time()).to_bytes(8, "big")
    nonce = os.urandom(_NONCE)
    return header + nonce + AESGCM(_key(purpose)).encrypt(nonce, data, header)


def unseal_blob(token: bytes, purpose: str, ttl: int) -> bytes | None:
    """The blob, or None when it is not ours, was altered, or is older than `ttl` s."""
    if len(token) < _HEADER + _NONCE + 16 or token[:1] != _BLOB:
        return None
    sealed_at = int.from_bytes(token[1:_HEADER], "big")
    if not -60 <= time.time() - sealed_at <= ttl:
        return None
    try:
        return AESGCM(_key(purpose)).decrypt(token[_HEADER:_HEADER + _NONCE], token[_HEADER + _NONCE:], token[:_HEADER])
    except InvalidTag:
        return None


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
