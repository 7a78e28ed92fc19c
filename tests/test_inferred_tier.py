"""Classes of wrong `inferred` CALLS edges found on the tuning packages (issue 50), each a
rule of value flow that made a call's values look known and complete when they were not,
checked offline on a snippet of the idiom."""

from __future__ import annotations

from .linking_helpers import assert_calls

# rich's `repr.auto` / `rich_repr`: a decorator usable bare (`@auto`) or as a factory
# (`@auto(angular=True)`), which tells the two apart by `cls is None`
OPTIONAL_ARGUMENT_DECORATOR = """
from functools import partial


def auto(cls=None, *, angular=None):
    def do_replace(cls, angular=None):
        cls.angular = angular
        return cls

    if cls is None:
        return partial(do_replace, angular=angular)
    else:
        return do_replace(cls, angular=angular)


def rich_repr(cls=None, *, angular=False):
    if cls is None:
        return auto(angular=angular)
    else:
        return auto(cls)


@auto
class Foo:
    pass
"""


def test_a_bare_decorator_does_not_return_its_factory_arm() -> None:
    """`@rich_repr` passes the class: the `if cls is None:` arms (the factory's `partial`)
    are not what it returns, so `Color(1)` constructs Color and calls nothing else."""
    code = (
        OPTIONAL_ARGUMENT_DECORATOR
        + """

@rich_repr
class Color:
    def __init__(self, a):
        self.a = a


def make():
    return Color(1)
"""
    )
    assert_calls(
        {"m.py": code},
        ("m.make", "m.Color.__init__", "exact"),
        ("m.rich_repr", "m.auto", "exact"),
        ("m.auto", "m.auto.do_replace", "exact"),
    )


def test_a_call_that_leaves_the_parameter_out_keeps_the_none_arm() -> None:
    """`auto(angular=True)` leaves `cls` None: it returns the `partial` of the `if cls is
    None:` arm, which calls `do_replace`."""
    code = (
        OPTIONAL_ARGUMENT_DECORATOR
        + """

def make(klass):
    decorate = auto(angular=True)
    return decorate(klass)
"""
    )
    assert_calls(
        {"m.py": code},
        ("m.make", "m.auto", "exact"),
        ("m.make", "m.auto.do_replace", "inferred"),
        exactly=False,
    )


def test_a_result_declared_as_a_type_variable_is_what_the_call_passed() -> None:
    """`-> type[T]` says the call returns what it was passed: `keep(A)` is A, not every
    class any call of `keep` passes."""
    code = """
from typing import TypeVar

T = TypeVar("T")


def keep(cls: type[T]) -> type[T]:
    return cls


class A:
    pass


class B:
    pass


keep(B)


def make():
    return keep(A)()
"""
    assert_calls(
        {"m.py": code},
        ("m", "m.keep", "exact"),
        ("m.make", "m.keep", "exact"),
        ("m.make", "m.A", "inferred"),
    )


def test_the_code_after_a_returning_not_none_arm_is_the_none_case() -> None:
    """`if fn is not None: return wrap(fn)` then `return wrap`: `@deco` over a function
    returns the wrapped function, so calling it runs what `wrap` returned, not `wrap`."""
    code = """
def deco(fn=None, *, times=1):
    def wrap(fn):
        return fn

    if fn is not None:
        return wrap(fn)
    return wrap


@deco
def job():
    pass


def run():
    job()
"""
    assert_calls(
        {"m.py": code},
        ("m.deco", "m.deco.wrap", "exact"),
        ("m.run", "m.job", "exact"),
    )


def test_a_classmethod_called_on_a_subclass_constructs_the_subclass() -> None:
    """`Sub.make()` of `Base.make` returning `cls()`: `cls` is Sub there, so the method
    called on its result is Sub's override, not Base's."""
    code = """
class Base:
    @classmethod
    def make(cls):
        return cls()

    def hello(self):
        pass


class Sub(Base):
    def hello(self):
        pass


def main():
    Sub.make().hello()


def base():
    Base.make().hello()
"""
    assert_calls(
        {"m.py": code},
        ("m.Base.make", "m.Base", "exact"),
        ("m.main", "m.Base.make", "exact"),
        ("m.main", "m.Sub.hello", "inferred", "of the class `m.Sub`"),
        ("m.base", "m.Base.make", "exact"),
        ("m.base", "m.Base.hello", "inferred"),
    )


DESCRIPTOR = """
class Value:
    def upper(self):
        pass


class Field:
    def __get__(self, obj, owner)%s:
        return Value()

    def upper(self):
        pass


class Model:
    name = Field()


def typed(m: Model):
    m.name.upper()


def built():
    Model().name.upper()
"""


def test_reading_a_class_body_descriptor_gives_what_its_get_returns() -> None:
    """`name = Field()` in a class body, Field defining `__get__`: `m.name` is what
    `__get__` returns (a Value), whether `m` is declared or constructed, not the Field."""
    for returns in ("", " -> Value"):
        linked = assert_calls(
            {"m.py": DESCRIPTOR % returns},
            ("m.typed", "m.Value.upper", "inferred"),
            ("m.built", "m.Value.upper", "inferred"),
            ("m.typed", "m.Field.__get__", "inferred", "descriptor"),
            ("m.built", "m.Field.__get__", "inferred", "descriptor"),
            exactly=False,
        )
        assert ("m.typed", "m.Field.upper") not in linked.calls()
        assert ("m.built", "m.Field.upper") not in linked.calls()


def test_with_as_binds_what_enter_returns() -> None:
    """`with Pool() as c` binds `Pool.__enter__()`'s result: a Conn where it returns one,
    the pool itself where it returns `self`."""
    code = """
class Conn:
    def query(self):
        pass


class Pool:
    def __enter__(self):
        return Conn()

    def __exit__(self, *exc):
        pass

    def query(self):
        pass


class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def query(self):
        pass


def use():
    with Pool() as c:
        c.query()


def lock():
    with Lock() as held:
        held.query()
"""
    linked = assert_calls(
        {"m.py": code},
        ("m.use", "m.Conn.query", "inferred"),
        ("m.lock", "m.Lock.query", "inferred"),
        exactly=False,
    )
    assert ("m.use", "m.Pool.query") not in linked.calls()


def test_a_method_called_on_a_subclass_instance_returns_with_self_that_instance() -> None:
    """`Sub().copy()` of `Base.copy` returning `type(self)()` (or `self`): a Sub, whose own
    `hello` runs; a result declared as a container keeps its declaration."""
    code = """
class Base:
    def copy(self):
        return type(self)()

    def chain(self):
        return self

    def names(self) -> list[str]:
        return sorted(self.table)

    def hello(self):
        pass


class Sub(Base):
    def hello(self):
        pass


def main():
    Sub().copy().hello()
    Sub().chain().hello()
    for name in Sub().names():
        name.upper()
"""
    linked = assert_calls(
        {"m.py": code},
        ("m.main", "m.Sub.hello", "inferred", "of the class `m.Sub`"),
        exactly=False,
    )
    assert ("m.main", "m.Base.hello") not in linked.calls()
    assert linked.calls()[("m.main", "<builtin>.str.upper")][0] == "inferred"


def test_after_an_isinstance_arm_that_returns_the_value_is_not_that_class() -> None:
    """`if isinstance(x, A): return` then `x.m()`: x is not an A there, so A's `m` does
    not run; an `and`-joined test says nothing after it."""
    code = """
class A:
    def m(self):
        pass


class B:
    def m(self):
        pass


def use(x):
    if isinstance(x, A):
        return
    x.m()


def joined(x, flag):
    if isinstance(x, A) and flag:
        return
    x.m()


def main():
    use(A())
    use(B())
    joined(A(), True)
    joined(B(), False)
"""
    linked = assert_calls(
        {"m.py": code},
        ("m.use", "m.B.m", "inferred"),
        ("m.joined", "m.A.m", "inferred"),
        ("m.joined", "m.B.m", "inferred"),
        exactly=False,
    )
    assert ("m.use", "m.A.m") not in linked.calls()


def test_an_attribute_a_base_assigns_from_self_is_read_as_the_subclass_says() -> None:
    """`self.engine = self.engine_class()` in `Car.__init__`, `Fast` overriding
    `engine_class`: a Fast's `engine` is a Turbo; a Car's stays an Engine."""
    code = """
class Engine:
    def start(self):
        pass


class Turbo(Engine):
    def start(self):
        pass


class Car:
    engine_class = Engine

    def __init__(self):
        self.engine = self.engine_class()


class Fast(Car):
    engine_class = Turbo


def fast():
    Fast().engine.start()


def plain():
    Car().engine.start()
"""
    linked = assert_calls(
        {"m.py": code},
        ("m.fast", "m.Turbo.start", "inferred"),
        ("m.plain", "m.Engine.start", "inferred"),
        exactly=False,
    )
    assert ("m.fast", "m.Engine.start") not in linked.calls()
