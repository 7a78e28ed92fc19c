"""What an npm package declares for cross-repository links: its `package.json` name and its
dependencies (runtime, development and peer)."""

from __future__ import annotations

import json

from ..manifests import Declared, ManifestReader, declared

__all__ = ["ECMASCRIPT_MANIFESTS"]

_DEPENDENCIES = ("dependencies", "devDependencies", "peerDependencies")


def _package_json(text: str) -> Declared:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Declared()
    if not isinstance(data, dict):
        return Declared()
    names = [data["name"]] if isinstance(data.get("name"), str) else []
    deps = [name for key in _DEPENDENCIES if isinstance(data.get(key), dict) for name in data[key]]
    return declared(names, deps)


ECMASCRIPT_MANIFESTS: tuple[tuple[str, ManifestReader], ...] = (("package.json", _package_json),)
