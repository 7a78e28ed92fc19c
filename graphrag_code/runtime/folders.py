"""The data and cache folders: created private (mode 0700), checked writable before any work.

A folder that is a file, or that this process cannot write, fails with a `ConfigurationError`
naming the folder and the setting that moves it, before anything is written to Neo4j (issue
13: a read-only cache folder once failed a run after the whole graph was written).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import ConfigurationError

__all__ = ["PRIVATE_DIR_MODE", "PRIVATE_FILE_MODE", "writable_folder"]

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def writable_folder(path: Path, *, setting: str) -> Path:
    """`path`, created (mode 0700) if missing, after proving a file can be written in it.

    The proof is a real temporary file: permission bits say nothing for root, and nothing
    about read-only mounts or ACLs.
    """
    try:
        path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
        with tempfile.TemporaryFile(dir=path, prefix=".graphrag-code-probe-"):
            pass
    except FileExistsError:
        raise _unusable(path, setting, "it is a file, not a folder") from None
    except NotADirectoryError:
        raise _unusable(path, setting, "a part of that path is a file, not a folder") from None
    except OSError as exc:
        raise _unusable(path, setting, f"it cannot be written ({exc.strerror})") from None
    return path


def _unusable(path: Path, setting: str, why: str) -> ConfigurationError:
    return ConfigurationError(
        f"cannot use {path} as a folder: {why}; fix it, or point {setting} at a folder this "
        f"user ({_user()}) can write"
    )


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, AttributeError):
        return "the current user"
