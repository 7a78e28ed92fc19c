"""git, run as a subprocess in a folder: the one way the package (and its benchmarks) reads
a repository's history, diffs and head. Never through a shell; paths come back as they are
(`core.quotePath=false`), so they match the paths the graph holds.

A failure raises `GitError`, whose `reason` says which: git is not installed, the folder is
not in a git repository, the command ran past its time, or it failed otherwise (git's own
message kept in `stderr`). Callers that can do without git catch it; `check=False` hands
back a failed command's exit status instead.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, TypeVar

from ..errors import GraphRAGCodeError

__all__ = ["GitError", "GitFailure", "GitOutput", "git", "git_stream"]

T = TypeVar("T")
GitFailure = Literal["git missing", "not a repository", "timeout", "failed"]


class GitError(GraphRAGCodeError):
    """git could not answer in `folder`: `reason` says why, `stderr` holds git's message."""

    def __init__(
        self, message: str, *, reason: GitFailure, command: str, folder: Path, stderr: str = ""
    ) -> None:
        super().__init__(message)
        self.reason: GitFailure = reason
        self.command = command  # `git diff …`, for messages
        self.folder = folder
        self.stderr = stderr


@dataclass(frozen=True)
class GitOutput:
    """What a git command printed (decoded as UTF-8, undecodable bytes replaced)."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def _command(folder: Path, args: tuple[str, ...], config: Mapping[str, str]) -> list[str]:
    settings = {"core.quotePath": "false", **config}
    options = [part for key, value in settings.items() for part in ("-c", f"{key}={value}")]
    return ["git", "-C", str(folder), *options, *args]


def _environment(env: Mapping[str, str] | None) -> dict[str, str] | None:
    return {**os.environ, **env} if env else None


def _named(args: tuple[str, ...]) -> str:
    return " ".join(("git", *args))


def _missing(folder: Path, args: tuple[str, ...], error: OSError) -> GitError:
    return GitError(
        f"git is not installed (or not on PATH): `{_named(args)}` cannot run",
        reason="git missing", command=_named(args), folder=folder, stderr=str(error),
    )  # fmt: skip


def _inside_repository(folder: Path) -> bool:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--git-dir"],
            capture_output=True, timeout=30, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _failed(folder: Path, args: tuple[str, ...], returncode: int, stderr: str) -> GitError:
    command = _named(args)
    if not _inside_repository(folder):
        return GitError(
            f"{folder} is not in a git repository (`{command}`)",
            reason="not a repository", command=command, folder=folder, stderr=stderr,
        )  # fmt: skip
    lines = stderr.strip().splitlines()
    last = lines[-1] if lines else "no message"
    return GitError(
        f"`{command}` failed in {folder} (exit {returncode}): {last}",
        reason="failed", command=command, folder=folder, stderr=stderr,
    )  # fmt: skip


def git(
    folder: Path,
    *args: str,
    timeout: float | None = 120.0,
    check: bool = True,
    config: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
) -> GitOutput:
    """`git -C folder [-c key=value …] args…`. `config`: settings for this command only
    (`user.name`); `env`: variables added to the environment. `check`: a non-zero exit
    raises `GitError` (else it comes back in `returncode`); a missing git or a timeout
    always raises."""
    try:
        done = subprocess.run(
            _command(folder, args, config or {}), capture_output=True, timeout=timeout,
            check=False, env=_environment(env),
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise GitError(
            f"`{_named(args)}` took over {timeout:g} s in {folder}",
            reason="timeout", command=_named(args), folder=folder,
        ) from error  # fmt: skip
    except OSError as error:
        raise _missing(folder, args, error) from error
    output = GitOutput(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )
    if check and not output.ok:
        raise _failed(folder, args, output.returncode, output.stderr)
    return output


def git_stream(folder: Path, *args: str, read: Callable[[IO[bytes]], T]) -> T:
    """`git -C folder args…` with its output handed to `read` as it comes (`git archive`
    into a tar reader): what `read` returns, once git has exited 0; else `GitError`."""
    command = _command(folder, args, {})
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise _missing(folder, args, error) from error
    with process:
        assert process.stdout is not None
        assert process.stderr is not None
        result = read(process.stdout)
        stderr = process.stderr.read().decode("utf-8", "replace")
    if process.returncode != 0:
        raise _failed(folder, args, process.returncode, stderr)
    return result
