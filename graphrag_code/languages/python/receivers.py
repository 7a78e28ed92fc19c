"""Whether a method call's receiver is the standard library's object (Python): the result of
calling a function or class of the standard library (`re.compile(...)`,
`logging.getLogger(...)`, `str(x)`), a method of such a result (`pattern.match(...)`), or a
variable every binding of which is one.

The `name` tier links `x.m()` to the one method of the repository named `m`; where `x` is
known to be the standard library's (`word_match.group()`, `log.error()`), its method runs,
not ours (rich: `Palette.match`, `Measurement.span`, `console.group` were such "callees").
Other packages' functions are not judged: click's `ctx.ensure_object(ScriptInfo)` returns an
instance of the class it is given."""

from __future__ import annotations

import sys

from ...model import CallSite, Dotted
from .resolver import External, Resolver

__all__ = ["outside_receiver"]

_MAX_DEPTH = 4  # variables and results followed back

# built-in types: what calling them returns has their methods
_BUILTIN_TYPES = frozenset(
    f"<builtin>.{name}"
    for name in (
        "str", "bytes", "bytearray", "int", "float", "complex", "list", "dict", "set",
        "frozenset", "tuple", "range", "memoryview", "open", "repr", "format", "chr",
    )
)  # fmt: skip
# standard library functions that return what they are given, a module of ours, ours anew
_PASSING = frozenset(
    {
        "copy.copy", "copy.deepcopy", "dataclasses.replace", "functools.reduce",
        "typing.cast", "typing_extensions.cast", "weakref.proxy", "importlib.import_module",
        "importlib.reload",
    }
)  # fmt: skip


def outside_receiver(resolver: Resolver, site: CallSite, module: str) -> bool:
    """Whether the receiver of the method call `site` is known to be the standard
    library's object."""
    if site.value is not None:
        return False
    if site.receiver_call is not None:
        return len(site.callee) == 1 and _outside_result(
            resolver, site.scope, site.receiver_call, module, 0
        )
    if len(site.callee) != 2:
        return False
    return _outside_variable(resolver, site.scope, site.callee[0], module, 0)


def _outside_result(
    resolver: Resolver, scope: str, callee: Dotted, module: str, depth: int
) -> bool:
    """Whether calling `callee` returns the standard library's object."""
    target = resolver.resolve_dotted(scope, callee, module)
    if isinstance(target, External):
        name = target.name
        if name.startswith("<builtin>."):
            return name in _BUILTIN_TYPES
        return target.dotted[0] in sys.stdlib_module_names and name not in _PASSING
    if target is not None or len(callee) != 2 or depth >= _MAX_DEPTH:
        return False
    # a method of an outside object (`pattern.match(text)`)
    return _outside_variable(resolver, scope, callee[0], module, depth + 1)


def _outside_variable(resolver: Resolver, scope: str, name: str, module: str, depth: int) -> bool:
    """Whether every binding of the variable `name` (of `scope`, else of the module) is the
    result of a call returning the standard library's object."""
    if resolver.resolve_dotted(scope, (name,), module) is not None:
        return False
    found = resolver.lookups.index.scope_bindings.get(scope, {}).get((name,))
    if not found:
        info = resolver.lookups.module(module)
        found = info.bindings.get(name, []) if info is not None else []
    return bool(found) and all(
        binding.kind == "call"
        and _outside_result(resolver, binding.scope, binding.value, module, depth + 1)
        for binding in found
    )
