"""What Python tells the repository's lookup tables (`linking.rules.IndexRules`): which methods
are properties (`@property`, `@x.setter`), which definitions are `@overload` stubs, where a
descriptor may stand, and under which buckets an annotated function is filed for matching
callable types (a method's `self` dropped)."""

from __future__ import annotations

from ...linking.flowkeys import SIGNATURE_KEY
from ...linking.rules import IndexRules
from ...model import Call, Dotted, ParsedFile, Signature, Symbol, SymbolKind

__all__ = [
    "DESCRIPTOR_KEY", "PROPERTY_KEY", "PYTHON_RULES", "PythonIndexRules", "descriptor_names",
    "is_overload", "is_property", "positional_types", "property_names", "signature_buckets",
    "signature_names",
]  # fmt: skip

DESCRIPTOR_KEY = "descriptor:"
"""`DESCRIPTOR_KEY + name` in `names_consulted`: the linking asked whether some class body
assigns `name` a call's result (a descriptor such as flask's `testing =
ConfigAttribute("TESTING")`, whose `__get__` an attribute read runs); see `descriptor_names`."""
PROPERTY_KEY = "property:"
"""`PROPERTY_KEY + name` in `names_consulted`: the linking asked whether some method named
`name` is a property (an attribute read runs its getter); see `property_names`."""
_NO_PARAMETERS = "()"  # the bucket of functions callable without arguments
# decorators whose last name makes a method a property (`@property`, `functools.` or
# werkzeug / django `cached_property`, `abc.abstractproperty`), matched by name
_PROPERTY_DECORATORS = frozenset({"property", "cached_property", "abstractproperty"})


def is_property(symbol: Symbol) -> bool:
    """A method decorated as a property."""
    return symbol.kind == SymbolKind.METHOD and any(
        d.rpartition(".")[2] in _PROPERTY_DECORATORS for d in symbol.decorators
    )


def property_names(parsed: ParsedFile) -> list[str]:
    """`PROPERTY_KEY + name` for each property and each setter / deleter of one: a count
    that changes says readers of `x.name` elsewhere may link differently."""
    return [
        PROPERTY_KEY + s.name
        for s in parsed.symbols
        if (s.ordinal == 1 and is_property(s)) or (s.ordinal > 1 and accessor(s) is not None)
    ]


def class_call_attributes(parsed: ParsedFile) -> list[str]:
    """The names class bodies assign a call's result to (`testing = ConfigAttribute(...)`):
    where a descriptor may stand."""
    classes = {s.qualified_name for s in parsed.symbols if s.kind == SymbolKind.CLASS}
    return [
        flow.target[0]
        for flow in parsed.flows
        if flow.scope in classes and len(flow.target) == 1 and isinstance(flow.value, Call)
    ]


def descriptor_names(parsed: ParsedFile) -> list[str]:
    """`DESCRIPTOR_KEY + name` for each name a class body assigns a call's result to: a count
    that changes says readers of `x.name` elsewhere may link differently."""
    return [DESCRIPTOR_KEY + name for name in class_call_attributes(parsed)]


def positional_types(signature: Signature, symbol: Symbol | None) -> tuple[Dotted | None, ...]:
    """The positional parameter types a caller passes: a method's `self` (or `cls`) dropped."""
    if (
        symbol is not None
        and symbol.kind == SymbolKind.METHOD
        and "staticmethod" not in symbol.decorators
    ):
        return signature.parameters[1:]
    return signature.parameters


def signature_buckets(signature: Signature, symbol: Symbol | None) -> list[str]:
    """Where a function's signature is filed for matching: under the last name of its first
    positional parameter's type, and under "()" when it can be called without arguments."""
    types = positional_types(signature, symbol)
    buckets = [types[0][-1]] if types and types[0] is not None else []
    required = signature.required - (len(signature.parameters) - len(types))
    if required <= 0:
        buckets.append(_NO_PARAMETERS)
    return buckets


def signature_names(parsed: ParsedFile) -> list[str]:
    """`SIGNATURE_KEY + bucket` for each function signature of a file (see `signature_buckets`)."""
    symbols = {s.qualified_name: s for s in parsed.symbols if s.ordinal == 1}
    return [
        SIGNATURE_KEY + bucket
        for signature in parsed.signatures
        if not signature.declared
        for bucket in signature_buckets(signature, symbols.get(signature.name))
    ]


def is_overload(symbol: Symbol) -> bool:
    """Whether a definition is a `@typing.overload` stub."""
    return any(decorator.rsplit(".", 1)[-1] == "overload" for decorator in symbol.decorators)


def accessor(symbol: Symbol) -> str | None:
    """`@name.setter` / `@name.deleter` over `def name`: "setter" / "deleter"."""
    for decorator in symbol.decorators:
        owner, _, kind = decorator.rpartition(".")
        if owner == symbol.name and kind in ("setter", "deleter"):
            return kind
    return None


class PythonIndexRules(IndexRules):
    """Python's `IndexRules`."""

    def is_property(self, symbol: Symbol) -> bool:
        return is_property(symbol)

    def accessor(self, symbol: Symbol) -> str | None:
        return accessor(symbol)

    def is_overload(self, symbol: Symbol) -> bool:
        return is_overload(symbol)

    def descriptor_attributes(self, parsed: ParsedFile) -> list[str]:
        return class_call_attributes(parsed)

    def signature_buckets(self, signature: Signature, symbol: Symbol | None) -> list[str]:
        return signature_buckets(signature, symbol)

    def offered_names(self, parsed: ParsedFile) -> list[str]:
        return property_names(parsed) + descriptor_names(parsed) + signature_names(parsed)


PYTHON_RULES = PythonIndexRules()
