"""Where a TypeScript / JavaScript import specifier leads: a file of the repository, or an
npm package outside it.

The rules are the compiler's (`moduleResolution` node16 / bundler) as far as a repository's
own files go: relative paths with the extension omitted or written as `.js` for a `.ts`
source, `index.*` files, `tsconfig.json` / `jsconfig.json` `baseUrl` and `paths` (followed
through `extends`), and the packages of a workspace (npm, yarn or pnpm: every `package.json`
with a `name` outside `node_modules` is a package the others may import by name, through its
`exports`, `types`, `module` or `main`). Anything else is external, named by its package.

Every file probed goes through `Lookups`, so an incremental run knows which files a link
consulted, including the ones that did not exist yet.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...ids import path_module_name
from ...linking.index import Lookups
from ...model import ParseIssue

__all__ = [
    "EcmaProject",
    "Package",
    "Resolved",
    "TsConfig",
    "package_name",
    "parse_jsonc",
    "read_project",
    "resolve_specifier",
]

# the order the compiler tries extensions in (with allowJs)
_EXTENSIONS = (
    ".ts",
    ".tsx",
    ".d.ts",
    ".js",
    ".jsx",
    ".mts",
    ".cts",
    ".d.mts",
    ".d.cts",
    ".mjs",
    ".cjs",
)
_SOURCE_FOR = {  # `./a.js` written in TypeScript means `./a.ts` (node16 / bundler)
    ".js": (".ts", ".tsx", ".d.ts", ".js", ".jsx"),
    ".jsx": (".tsx", ".jsx"),
    ".mjs": (".mts", ".d.mts", ".mjs"),
    ".cjs": (".cts", ".d.cts", ".cjs"),
    ".ts": (".ts",),
    ".tsx": (".tsx",),
    ".mts": (".mts",),
    ".cts": (".cts",),
}
# export conditions, most useful first (a source or a declaration over a built file)
_CONDITIONS = ("types", "typescript", "source", "import", "module", "default", "require", "node")
_BUILD_DIRS = ("dist", "lib", "build", "out", "esm", "cjs", "es", "types")
_CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_MAX_EXTENDS = 8


@dataclass(frozen=True)
class Resolved:
    """An import's target: `module` (a repository file's module name) or `external` (a
    package name), or neither (a relative path to a file we do not index: CSS, JSON, …)."""

    module: str | None = None
    external: str | None = None


@dataclass(frozen=True)
class TsConfig:
    """The module options of one tsconfig.json / jsconfig.json (after `extends`)."""

    folder: str  # the folder of the config file, "" at the root
    base_url: str | None = None  # repository-relative folder
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()  # pattern -> repository-relative paths


@dataclass(frozen=True)
class Package:
    """A package of the repository (a workspace member, or the repository itself)."""

    name: str
    folder: str
    manifest: Mapping[str, Any]


@dataclass
class EcmaProject:
    configs: dict[str, TsConfig] = field(default_factory=dict)  # folder -> its config
    packages: dict[str, Package] = field(default_factory=dict)  # name -> package
    issues: dict[str, list[ParseIssue]] = field(default_factory=dict)

    def config_for(self, path: str) -> TsConfig | None:
        """The config of the nearest folder above `path` that has one."""
        folder = posixpath.dirname(path)
        while True:
            found = self.configs.get(folder)
            if found is not None:
                return found
            if not folder:
                return None
            folder = posixpath.dirname(folder)


_COMMENT_OR_STRING = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def parse_jsonc(text: str) -> Any:
    """JSON with comments and trailing commas, as tsconfig.json allows (raises ValueError)."""

    def keep_strings(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith('"'):
            return token
        return re.sub(r"[^\n]", " ", token)  # keep line numbers for error messages

    stripped = _COMMENT_OR_STRING.sub(keep_strings, text.lstrip("\ufeff"))
    previous = None
    while previous != stripped:  # `[1,,]` style runs need more than one pass
        previous = stripped
        stripped = _TRAILING_COMMA.sub(r"\1", stripped)
    return json.loads(stripped)


def read_project(files: Mapping[str, str]) -> EcmaProject:
    """The configs and packages of a repository from its project files' text (path -> text).
    Files that are not valid JSON(C) are reported in `issues` and otherwise ignored."""
    project = EcmaProject()
    documents: dict[str, dict[str, Any]] = {}
    for path, text in sorted(files.items()):
        try:
            document = parse_jsonc(text)
        except ValueError as exc:
            line = getattr(exc, "lineno", 1)
            project.issues[path] = [ParseIssue(line, f"invalid JSON: {exc}")]
            continue
        if not isinstance(document, dict):
            project.issues[path] = [ParseIssue(1, "not a JSON object")]
            continue
        documents[path] = document
    for path, document in documents.items():
        name = posixpath.basename(path)
        folder = posixpath.dirname(path)
        if name == "package.json":
            package = document.get("name")
            if isinstance(package, str) and package and package not in project.packages:
                project.packages[package] = Package(package, folder, document)
        elif name in _CONFIG_NAMES and (folder not in project.configs or name == "tsconfig.json"):
            project.configs[folder] = _config(path, documents, project.issues)
    return project


def _config(
    path: str, documents: Mapping[str, dict[str, Any]], issues: dict[str, list[ParseIssue]]
) -> TsConfig:
    """One config with what it inherits through `extends` (repository files only)."""
    chain: list[tuple[str, dict[str, Any]]] = []
    current: str | None = path
    while current is not None and current in documents and len(chain) < _MAX_EXTENDS:
        if any(seen == current for seen, _ in chain):
            issues.setdefault(path, []).append(ParseIssue(1, "circular `extends`"))
            break
        document = documents[current]
        chain.append((current, document))
        parent = document.get("extends")
        parents = parent if isinstance(parent, list) else [parent]
        current = None
        for candidate in parents:  # TypeScript 5: a list, later entries win (keep the first)
            if isinstance(candidate, str) and candidate.startswith("."):
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(chain[-1][0]), candidate)
                )
                if not target.endswith(".json"):
                    target += ".json"
                current = target
                break
    base_url: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    for config_path, document in reversed(chain):  # the root of the chain first
        options = document.get("compilerOptions")
        if not isinstance(options, dict):
            continue
        folder = posixpath.dirname(config_path)
        if isinstance(options.get("baseUrl"), str):
            base_url = _join(folder, options["baseUrl"])
        if isinstance(options.get("paths"), dict):
            anchor = base_url if base_url is not None else folder
            paths = tuple(
                (pattern, tuple(_join(anchor, t) for t in targets if isinstance(t, str)))
                for pattern, targets in options["paths"].items()
                if isinstance(pattern, str) and isinstance(targets, list)
            )
    return TsConfig(posixpath.dirname(path), base_url, paths)


def _join(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative))
    return "" if joined == "." else joined


def package_name(specifier: str) -> str:
    """The npm package a bare specifier names: `lodash/fp` -> lodash, `@a/b/c` -> @a/b,
    `node:fs` -> fs (a builtin is one package however it is written)."""
    parts = specifier.removeprefix("node:").split("/")
    if specifier.startswith("@") and len(parts) > 1:
        return "/".join(parts[:2])
    return parts[0]


def resolve_specifier(
    importer: str, specifier: str, project: EcmaProject, lookups: Lookups
) -> Resolved:
    """Where `specifier`, imported by the file at path `importer`, leads."""
    if specifier.startswith(("./", "../")) or specifier in (".", ".."):
        target = _join(posixpath.dirname(importer), specifier)
        if target.startswith("../"):
            return Resolved()
        return Resolved(module=_file(target, lookups, project))
    if specifier.startswith("/"):
        return Resolved(module=_file(specifier.lstrip("/"), lookups, project))
    config = project.config_for(importer)
    if config is not None:
        for candidate in _path_candidates(specifier, config):
            found = _file(candidate, lookups, project)
            if found is not None:
                return Resolved(module=found)
    name = package_name(specifier)
    package = project.packages.get(name)
    if package is not None:
        found = _package_file(package, specifier[len(name) :].lstrip("/"), lookups, project)
        if found is not None:
            return Resolved(module=found)
    return Resolved(external=name)


def _path_candidates(specifier: str, config: TsConfig) -> list[str]:
    """Files `paths` maps a specifier to (the longest matching prefix first), then baseUrl."""
    matches: list[tuple[int, str, tuple[str, ...]]] = []
    for pattern, targets in config.paths:
        if "*" in pattern:
            prefix, _, suffix = pattern.partition("*")
            if specifier.startswith(prefix) and specifier.endswith(suffix):
                star = specifier[len(prefix) : len(specifier) - len(suffix)]
                matches.append((len(prefix), star, targets))
        elif pattern == specifier:
            matches.append((len(pattern) + 1, "", targets))
    matches.sort(key=lambda match: -match[0])
    candidates = [target.replace("*", star) for _, star, targets in matches for target in targets]
    if config.base_url is not None:
        candidates.append(_join(config.base_url, specifier))
    return candidates


def _file(base: str, lookups: Lookups, project: EcmaProject, depth: int = 0) -> str | None:
    """The module of the file `base` names, with the compiler's extension rules."""
    stem, extension = posixpath.splitext(base)
    if stem.endswith(".d"):
        stem, extension = stem[:-2], ".d" + extension
    candidates: list[str] = []
    if extension in _SOURCE_FOR:
        candidates.extend(stem + ext for ext in _SOURCE_FOR[extension])
    candidates.extend(base + ext for ext in _EXTENSIONS)
    for candidate in candidates:
        name = path_module_name(candidate)
        if lookups.has_module(name):
            return name
    folder_package = next((p for p in project.packages.values() if p.folder == base), None)
    if folder_package is not None and depth < 2:
        found = _package_file(folder_package, "", lookups, project, depth + 1)
        if found is not None:
            return found
    for ext in _EXTENSIONS:
        name = path_module_name(f"{base}/index{ext}" if base else f"index{ext}")
        if lookups.has_module(name):
            return name
    return None


def _package_file(
    package: Package, subpath: str, lookups: Lookups, project: EcmaProject, depth: int = 0
) -> str | None:
    """The file a workspace package exposes at `subpath` ("" for its entry point)."""
    manifest = package.manifest
    for entry in _exported(manifest.get("exports"), subpath):
        found = _built_or_source(package.folder, entry, lookups, project, depth)
        if found is not None:
            return found
    if subpath:
        for base in (subpath, f"src/{subpath}"):
            found = _file(_join(package.folder, base), lookups, project, depth + 1)
            if found is not None:
                return found
        return None
    for key in ("types", "typings", "source", "module", "main"):
        value = manifest.get(key)
        if isinstance(value, str):
            found = _built_or_source(package.folder, value, lookups, project, depth)
            if found is not None:
                return found
    for base in ("src/index", "index"):
        name = _file(_join(package.folder, base), lookups, project, depth + 1)
        if name is not None:
            return name
    return None


def _built_or_source(
    folder: str, entry: str, lookups: Lookups, project: EcmaProject, depth: int
) -> str | None:
    """An entry point as written, else the source it is built from (`dist/x.js` from
    `src/x.ts`): build output is not indexed."""
    path = _join(folder, entry)
    found = _file(path, lookups, project, depth + 1) if depth < 3 else None
    if found is not None:
        return found
    relative = posixpath.normpath(entry).lstrip("./")
    head, _, rest = relative.partition("/")
    if head in _BUILD_DIRS and rest:
        stem = re.sub(r"(\.d)?\.[mc]?[jt]sx?$", "", rest)
        for source_dir in ("src", ""):
            candidate = _join(folder, posixpath.join(source_dir, stem) if source_dir else stem)
            found = _file(candidate, lookups, project, depth + 1) if depth < 3 else None
            if found is not None:
                return found
    return None


def _exported(exports: Any, subpath: str) -> list[str]:
    """The targets `exports` gives a subpath ("" is the entry point `.`), best first."""
    if exports is None:
        return []
    key = f"./{subpath}" if subpath else "."
    if isinstance(exports, str | list):
        return _targets(exports) if not subpath else []
    if not isinstance(exports, dict):
        return []
    if not any(k.startswith(".") for k in exports):  # only conditions: the entry point
        return _targets(exports) if not subpath else []
    if key in exports:
        return _targets(exports[key])
    for pattern, target in exports.items():
        if "*" in pattern:
            prefix, _, suffix = pattern.partition("*")
            if key.startswith(prefix) and key.endswith(suffix) and len(key) >= len(pattern) - 1:
                star = key[len(prefix) : len(key) - len(suffix)]
                return [t.replace("*", star) for t in _targets(target)]
    return []


def _targets(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in _targets(item)]
    if isinstance(value, dict):
        ordered = [value[c] for c in _CONDITIONS if c in value]
        ordered += [v for k, v in value.items() if k not in _CONDITIONS]
        return [t for item in ordered for t in _targets(item)]
    return []
