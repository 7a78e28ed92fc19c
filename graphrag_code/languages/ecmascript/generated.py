"""Which TS/JS files are built from others the tree holds: bundles, other module formats of the
same module, compiled copies and declarations. zod 3.23.8 ships `lib/index.mjs` and
`lib/index.umd.js` bundles beside `lib/*.js` and their `.d.ts` files, so each of its symbols
was indexed four times and `callers ZodString.email` was ambiguous among four (issue 50).

Each rule reads a file's name, its siblings (every path the walk found) and its ends
(`FileEnds`): never more of a file than its first 2 KB and last 512 bytes. A package that ships
only `.d.ts` files keeps them: the declarations are then the graph. Minified files (`*.min.*`)
are the parser's to skip (`EcmaScriptParser.skip_reason`).
"""

from __future__ import annotations

import re

from ...parsing.generated import FileEnds

__all__ = ["BUNDLE_SIZE", "ecmascript_derived"]

_DECLARATIONS = re.compile(r"\.d\.[mc]?ts$")
_CODE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_TYPED_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# folders a build writes its output to: `lib/esm/x.d.ts` declares `src/x.ts`
_OUTPUT_FOLDERS = frozenset(
    {"lib", "types", "typings", "out", "build", "dist", "es", "esm", "cjs", "esnext", "umd"}
)
_BUNDLE_NAMES = ((".umd.", "bundle (*.umd.*)"), (".bundle.", "bundle (*.bundle.*)"))
_SCRIPT = frozenset({"js", "jsx", "mjs", "cjs"})
_MODULE_FORMATS = frozenset({"mjs", "cjs"})
_ROOT_ENTRIES = ("index.js", "index.mjs", "index.cjs")

BUNDLE_SIZE = 200_000  # bytes: larger, with another sign, a file is one bundle of many modules
# `//# sourceMappingURL=` (`//@` is the older spelling) as the last line
_MAP_TRAILERS = (b"//# sourceMappingURL=", b"//@ sourceMappingURL=")
# what bundlers write first: webpack's, browserify's and parcel's runtimes, esbuild's helpers
# (literal texts: a search for each is cheaper than one pattern), a UMD wrapper, and esbuild's
# `// src/x.ts` module markers
_PRELUDE_TEXTS = (
    b"/******/", b"__webpack_require__", b"webpackBootstrap", b"(function(){function r(e,n,t)",
    b"require=(function e(t,n,r)", b"parcelRequire", b"var __defProp = Object.defineProperty;",
)  # fmt: skip
_PRELUDE = re.compile(
    rb"\(function\s*\(\s*(?:global|root)\s*,\s*factory\s*\)"
    rb"|^// (?:src|node_modules)/\S+\.[cm]?[jt]sx?\r?$",
    re.MULTILINE,
)
# a header that silences linters: bundlers write it, but so do people (a sign only beside a
# prelude)
_BANNER = re.compile(rb"\A\s*/\*\s*(?:eslint-disable|tslint:disable)\s*\*/")


def ecmascript_derived(path: str, ends: FileEnds, paths: frozenset[str]) -> str | None:
    """Why the TS/JS file at `path` is built from files the tree holds (its `ends` read,
    `paths` every file the walk found), or None for a file written by hand."""
    folder, _, name = path.rpartition("/")
    prefix = f"{folder}/" if folder else ""
    if _DECLARATIONS.search(name):
        return _declared_code(prefix, name, paths)
    for marker, reason in _BUNDLE_NAMES:
        if marker in name:
            return reason
    stem, _, suffix = name.rpartition(".")
    if suffix in _SCRIPT and any(f"{prefix}{stem}{s}" in paths for s in _TYPED_SUFFIXES):
        return "compiled (its TypeScript source is beside it)"
    if suffix in _MODULE_FORMATS and f"{prefix}{stem}.js" in paths:
        return "bundle (another module format of the .js beside it)"
    if name in _ROOT_ENTRIES and f"{prefix}package.json" in paths:
        for source in ("lib", "src"):
            if any(f"{prefix}{source}/index{s}" in paths for s in _CODE_SUFFIXES):
                return f"bundle (the package's {source}/index holds the same module)"
    return _bundle_by_content(ends)


def _declared_code(prefix: str, name: str, paths: frozenset[str]) -> str | None:
    """`x.d.ts` beside the `x.ts` or `x.js` it declares, or in a build folder mirroring the
    `src/` folder that holds it (`lib/esm/a/x.d.ts` for `src/a/x.tsx`)."""
    stem = _DECLARATIONS.sub("", name)
    if any(f"{prefix}{stem}{suffix}" in paths for suffix in _CODE_SUFFIXES):
        return "declarations (the code they declare is beside them)"
    folders = prefix.rstrip("/").split("/") if prefix else []
    for start, folder in enumerate(folders):
        if folder not in _OUTPUT_FOLDERS:
            continue
        end = start
        while end < len(folders) and folders[end] in _OUTPUT_FOLDERS:
            end += 1
        mirrored = "/".join([*folders[:start], "src", *folders[end:], stem])
        if any(f"{mirrored}{suffix}" in paths for suffix in _CODE_SUFFIXES):
            return "declarations (the src/ code they declare is indexed)"
    return None


def _bundle_by_content(ends: FileEnds) -> str | None:
    """One bundle of many modules: a bundler's prelude with a source map, a size over
    `BUNDLE_SIZE` or a linter-silencing banner; or a large source-mapped file. tsc writes the
    trailer on every file it compiles, and people write the banner: neither is enough alone,
    nor are the two together (tsc keeps a source's `/* eslint-disable */`)."""
    mapped = ends.tail.rstrip().rpartition(b"\n")[2].startswith(_MAP_TRAILERS)
    large = ends.size >= BUNDLE_SIZE
    banner = _BANNER.match(ends.head) is not None
    if (mapped or large or banner) and _prelude(ends.head):
        return "bundle (a bundler's prelude)"
    if mapped and large:
        return "bundle (a large source-mapped file)"
    return None


def _prelude(head: bytes) -> bool:
    return any(text in head for text in _PRELUDE_TEXTS) or _PRELUDE.search(head) is not None
