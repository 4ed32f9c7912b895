"""What the nodes share through Redis is sealed (portal.sealed.seal_blob): readable only
with this install's key and purpose, and a blob altered, foreign or too old is a miss."""
import time

from portal.sealed import seal_blob, unseal_blob

DOCUMENT = ("身份证 110101201001011234 " * 2000).encode()


def test_a_sealed_blob_opens_with_the_key_and_purpose_it_was_sealed_with(app):
    with app.app_context():
        blob = seal_blob(DOCUMENT, "shared delegation cache")
        assert b"110101201001011234" not in blob
        assert unseal_blob(blob, "shared delegation cache", 3600) == DOCUMENT
        assert unseal_blob(blob, "another purpose", 3600) is None


def test_a_blob_altered_foreign_or_too_old_is_a_miss(app, monkeypatch):
    with app.app_context():
        blob = seal_blob(DOCUMENT, "p")
        for i in (0, 3, 12, len(blob) // 2, len(blob) - 1):  # the version, the instant, the nonce, the text, the tag
            assert unseal_blob(blob[:i] + bytes([blob[i] ^ 1]) + blob[i + 1:], "p", 3600) is None
        assert unseal_blob(blob[:20], "p", 3600) is None and unseal_blob(b"", "p", 3600) is None
        now = time.time()
        monkeypatch.setattr(time, "time", lambda: now + 3500)
        assert unseal_blob(blob, "p", 3600) == DOCUMENT
        monkeypatch.setattr(time, "time", lambda: now + 3601)
        assert unseal_blob(blob, "p", 3600) is None
        monkeypatch.setattr(time, "time", lambda: now)
        monkeypatch.setitem(app.config, "SECRET_KEY", "another install's key")
        assert unseal_blob(blob, "p", 3600) is None
