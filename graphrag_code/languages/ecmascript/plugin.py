"""The TypeScript and JavaScript plug-ins: their `Language` records for the registry. The two
import each other, so they share one parser, one linker and one set of conventions."""

from __future__ import annotations

from ..base import Language
from .conventions import BUILTIN_METHODS, RUNNER_CALLS, EcmaScriptConventions
from .distributions import ECMASCRIPT_MANIFESTS
from .generated import ecmascript_derived
from .linker import EcmaScriptLinker
from .parser import (
    JAVASCRIPT_SUFFIXES,
    TYPESCRIPT_SUFFIXES,
    EcmaScriptParser,
    ecmascript_module_names,
)

__all__ = ["JAVASCRIPT", "TYPESCRIPT"]

_LINKER = EcmaScriptLinker()
_CONVENTIONS = EcmaScriptConventions()

TYPESCRIPT = Language(
    name="typescript",
    aliases=("ts", "tsx"),
    suffixes=TYPESCRIPT_SUFFIXES,
    interpreters=("ts-node", "tsx", "deno", "bun"),
    parser=EcmaScriptParser,
    linker=_LINKER,
    module_names=ecmascript_module_names,
    conventions=_CONVENTIONS,
    manifests=ECMASCRIPT_MANIFESTS,
    runner_calls=RUNNER_CALLS,
    builtin_methods=BUILTIN_METHODS,
    derived=ecmascript_derived,
)
JAVASCRIPT = Language(
    name="javascript",
    aliases=("js", "jsx"),
    suffixes=JAVASCRIPT_SUFFIXES,
    interpreters=("node", "nodejs"),
    parser=EcmaScriptParser,
    linker=_LINKER,
    module_names=ecmascript_module_names,
    conventions=_CONVENTIONS,
    manifests=ECMASCRIPT_MANIFESTS,
    runner_calls=RUNNER_CALLS,
    builtin_methods=BUILTIN_METHODS,
    derived=ecmascript_derived,
)
