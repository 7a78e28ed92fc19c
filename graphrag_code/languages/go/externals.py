"""What is known of types outside the repository without reading them: the methods a type of
the standard library has through an embedded, unexported type (the type checker names the
method by the type that declares it: `t.Errorf` on a `*testing.T` is `testing.common.Errorf`),
and the predeclared interface `error`."""

from __future__ import annotations

__all__ = ["PREDECLARED_INTERFACES", "external_method"]

PREDECLARED_INTERFACES = frozenset({"error"})
"""Predeclared interface types: an `error` value's `Error()` is `error.Error`."""

_TESTING_COMMON = frozenset(
    {
        "Cleanup", "Error", "Errorf", "Fail", "FailNow", "Failed", "Fatal", "Fatalf", "Helper",
        "Log", "Logf", "Name", "Skip", "SkipNow", "Skipf", "Skipped", "TempDir",
    }
)  # fmt: skip
# (type, method) -> the type that declares the method, for methods promoted from an
# embedded type of the same package
_PROMOTED: dict[tuple[str, str], str] = {
    (owner, method): "testing.common"
    for owner in ("testing.T", "testing.B", "testing.F")
    for method in _TESTING_COMMON
}


def external_method(type_name: str, method: str) -> str:
    """The external name of `method` called on a value of the external type `type_name`."""
    return f"{_PROMOTED.get((type_name, method), type_name)}.{method}"
