"""Dispatch to overrides stops at what the receiver is known to be (issue 50): a call reaches
the overrides below its receiver's class only, and none where the receiver was constructed
by its class's name. Linked offline."""

from __future__ import annotations

from .linking_helpers import link_snippet

SHAPES = """\
class Shape:
    def area(self):
        raise NotImplementedError

    def __call__(self):
        return self.area()


class Square(Shape):
    def describe(self):
        return self.area()


class Cube(Square):
    def area(self):
        return 6


class Loud(Square):
    def __call__(self):
        return 0


class Circle(Shape):
    def area(self):
        return 3


def total(shape: Shape):
    return shape.area()


def built():
    square = Square()
    return square.area() + Square().area() + Square()()


def rebound(shape):
    shape = Square()
    return shape.area()


def either(flag):
    shape = Square()
    if flag:
        shape = make()
    return shape.area()


def make() -> Shape:
    return Circle()


class Event:
    def __new__(cls):
        return object.__new__(BackendEvent)

    def set(self):
        raise NotImplementedError


class BackendEvent(Event):
    def set(self):
        return 1


def signal():
    event = Event()
    return event.set()
"""


def _dispatched(caller: str) -> set[str]:
    """The callees `caller` reaches through dispatch edges."""
    calls = link_snippet({"shapes.py": SHAPES}).calls(external=False)
    return {c for (s, c), (tier, _) in calls.items() if s == caller and tier == "dispatch"}


def test_a_call_through_self_reaches_only_the_overrides_below_its_class() -> None:
    # `self` in `Square` is a `Square`, a `Cube` or a `Loud`: never a `Circle`
    assert _dispatched("shapes.Square.describe") == {"shapes.Cube.area"}
    # in the base class, and through a parameter declared as the base: every override
    assert _dispatched("shapes.Shape.__call__") == {"shapes.Cube.area", "shapes.Circle.area"}
    assert _dispatched("shapes.total") == {"shapes.Cube.area", "shapes.Circle.area"}


def test_a_receiver_constructed_by_its_class_name_runs_its_own_methods() -> None:
    # `square = Square()`, `Square()`: a `Square`, no `Cube`; `Square()()` runs no `Loud`'s
    assert _dispatched("shapes.built") == set()


def test_a_class_with_a_new_of_ours_may_construct_a_subclass() -> None:
    # `Event()` runs `Event.__new__`, which may return any instance: a backend's subclass
    assert _dispatched("shapes.signal") == {"shapes.BackendEvent.set"}


def test_a_variable_that_may_hold_something_else_still_dispatches() -> None:
    # a parameter rebound to a construction may still hold what the caller passed: a
    # `Square` or a subclass
    assert _dispatched("shapes.rebound") == {"shapes.Cube.area"}
    # a variable also bound to a call's result (declared `Shape`): any subclass
    assert _dispatched("shapes.either") == {"shapes.Cube.area", "shapes.Circle.area"}
