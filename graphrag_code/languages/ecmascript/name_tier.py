"""The `name` tier of TypeScript / JavaScript calls: a call nothing else resolved, linked to the
repository's only function or method of its name (a possible edge).

A unique name is weak evidence, so the rule stands back wherever the code says more (issue 50:
each possible tier must earn its place, judged against the TypeScript checker):

- the name is a method of built-in objects (`xs.push()`, `p.then()`, `s.union()`): the
  receiver is far likelier an array, promise or set than the repository's namesake;
- the receiver is known (`this.#retryer.start()` with `#retryer: Retryer`, `cfg.onDone?.()`
  with `cfg: Config`, `debug().extend()` with `debug` from a package): its type lacks a
  callable of that name (else the call had resolved), so what runs is a property of that
  type or an outside object's method;
- the namesake is in a test file and the caller is not: library code does not call its tests;
- never a getter or setter (`x.m()` calls what the getter gives), a private `#m` (another
  class's is out of reach), `fns[i]()`, `super` or constructors.
"""

from __future__ import annotations

from ...linking.targets import External, Instance, SymbolRef, Target
from ...model import CallSite, ParsedFile, SymbolKind
from .conventions import is_test_file
from .resolver import EcmaResolver
from .syntax import ELEMENT, ELEMENT_CALLS

__all__ = ["ECMASCRIPT_LANGUAGES", "by_unique_name"]

ECMASCRIPT_LANGUAGES = frozenset({"typescript", "javascript"})
# Methods of built-in objects (arrays, strings, promises, maps and sets, DOM, Node streams): a
# unique repository method of that name is not evidence enough that `x.push()` calls it.
_BUILTIN_METHOD_NAMES = """
    push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf includes
    find findIndex findLast filter map forEach reduce reduceRight some every flat flatMap fill
    keys values entries at toString toLocaleString valueOf charAt charCodeAt codePointAt
    startsWith endsWith trim trimStart trimEnd padStart padEnd split replace replaceAll match
    matchAll search substring substr toLowerCase toUpperCase normalize repeat then catch
    finally resolve reject all allSettled race any get set has delete clear add size apply
    call bind hasOwnProperty isPrototypeOf test exec assign freeze create defineProperty keys
    getOwnPropertyNames parse stringify log warn error info debug emit on off once
    addListener removeListener addEventListener removeEventListener dispatchEvent write end
    read pipe close open send next return throw render toJSON getTime now from of isArray
    union intersection difference symmetricDifference isSubsetOf isSupersetOf isDisjointFrom
"""
_BUILTIN_METHODS = frozenset(_BUILTIN_METHOD_NAMES.split())
# declarations a call never runs: `x.m()` of a getter calls what the getter gives
_NOT_CALLED = ("signature", "abstract method", "getter", "setter")
# what an outside collection's accessors give back (an array's element, a Map's or a
# WeakRef's value) may be one of the repository's objects
_ELEMENT_GETTERS = ELEMENT_CALLS | {"get", "deref"}


def by_unique_name(parsed: ParsedFile, site: CallSite, resolver: EcmaResolver) -> str | None:
    """The repository's only callable named like the call, where the rules above allow."""
    name = site.callee[-1]
    if name in ("<expr>", "super()", "constructor") or site.callee[0] == "super()":
        return None
    if name.endswith(ELEMENT) or name.startswith("#"):
        return None
    on_receiver = len(site.callee) > 1 or site.receiver_call is not None
    if on_receiver and (
        name in _BUILTIN_METHODS or _known(_receiver(parsed, site, resolver), resolver)
    ):
        return None
    found = resolver.lookups.unique_callable(name, ECMASCRIPT_LANGUAGES)
    if found is None:
        return None
    symbol = resolver.lookups.symbol(found)
    if symbol is None or symbol.declared_as in _NOT_CALLED:
        return None
    home = resolver.lookups.module(resolver.lookups.index.symbol_module[found])
    if home is not None and is_test_file(home.parsed.path) and not is_test_file(parsed.path):
        return None
    if symbol.kind == SymbolKind.CLASS:
        if symbol.declared_as is not None:
            return None
        return resolver.constructor(found) or found
    return found


def _known(receiver: Target | None, resolver: EcmaResolver) -> bool:
    """Whether all the members of `receiver` are in sight: an outside object's, a module's, a
    class's or an instance of one; not a constructor function's (`inherits(Hook, Runnable)`
    and `Hook.prototype = …` give it members no declaration shows)."""
    if isinstance(receiver, Instance | SymbolRef):
        name = receiver.class_name if isinstance(receiver, Instance) else receiver.qualified_name
        symbol = resolver.lookups.symbol(name)
        return symbol is not None and symbol.kind == SymbolKind.CLASS
    return receiver is not None


def _receiver(parsed: ParsedFile, site: CallSite, resolver: EcmaResolver) -> Target | None:
    """What the call's receiver is (`a.b` of `a.b.m()`, `f()` of `f().m()`), None when unknown;
    a call on what an outside function returns (`yargs().fail()`) has an outside receiver, one
    on an element taken from an outside collection (`map.get(k)?.m()`) an unknown one."""
    if site.receiver_call is None:
        return resolver.resolve_dotted(site.scope, site.callee[:-1], parsed.module, site.line)
    inner = resolver.resolve_dotted(site.scope, site.receiver_call, parsed.module, site.line)
    if isinstance(inner, External):
        return None if inner.dotted[-1] in _ELEMENT_GETTERS else inner
    value: Target | None = resolver.call_result(inner)
    for attribute in site.callee[:-1]:
        if value is None:
            return None
        value = resolver.attribute(value, attribute)
    return value
