"""The pairing token: a random secret every action must carry.

It is kept in a file readable by its owner only (mode 0600) beside the journal,
made on first use and shown by ``surakarta web-token``. The server never writes
it to a log, and accepts it only in a request header, never in a URL (URLs end
up in logs and browser histories).
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from pathlib import Path

from controller.errors import SurakartaError

TOKEN_FILE = "web-token"
"""The token's file name, in the journal's folder."""
TOKEN_BYTES = 18
"""Random bytes in a token: 144 bits, 24 characters of URL-safe base64."""
TOKEN_HEADER = "X-Board-Token"
"""The request header that carries the token."""


class BadTokenFile(SurakartaError, OSError):
    """A token file that cannot be made or read, or that others may read."""


def token_path(journal: Path) -> Path:
    """Where the token of the board whose journal is ``journal`` is kept."""
    return journal.parent / TOKEN_FILE


def load_token(path: Path) -> str:
    """The token in ``path``, made first if there is none; raises BadTokenFile."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return _create(path)
    except FileExistsError:
        pass
    except OSError as error:
        raise BadTokenFile(f"cannot make the token file {str(path)!r}: {error.strerror}") from None
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise BadTokenFile(f"cannot read the token file {str(path)!r}: {error}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        # Anyone else who can read it could steer the board: refuse rather than use it.
        raise BadTokenFile(
            f"the token file {str(path)!r} may be read by others "
            f"(mode {stat.S_IMODE(mode):o}); run: chmod 600 {path}"
        )
    if len(text) < 16:
        raise BadTokenFile(f"the token file {str(path)!r} holds no token; delete it to make one")
    return text


def _create(path: Path) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    # O_EXCL: two processes starting at once never overwrite each other's token.
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w", encoding="ascii") as file:
        file.write(token + "\n")
    return token


def is_token(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token (compared in constant time)."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("ascii"))
