"""A call sees its own arguments (issue 50): what a function returns through its parameters is
what this call passed, not what every other call passed. attrs' `@attrs` returned every class
it ever decorated, so `_InValidator(...)` "called" 16 other validators' `__call__`."""

from __future__ import annotations

from .linking_helpers import assert_calls

# attrs' shape: a decorator with optional arguments whose result is the class it is given,
# read back through an attribute of a builder object
_BUILDER = """\
class Builder:
    def __init__(self, cls):
        self._cls = cls

    def build(self):
        return self._patch()

    def _patch(self):
        cls = self._cls
        return cls


def attrs(maybe_cls=None, repr=True):
    def wrap(cls):
        builder = Builder(cls)
        return builder.build()

    if maybe_cls is None:
        return wrap
    return wrap(maybe_cls)
"""
# its own edges, which every decoration adds to
_BUILDING = (
    ("m.attrs", "m.attrs.wrap", "exact"),
    ("m.attrs.wrap", "m.Builder.__init__", "exact"),
    ("m.attrs.wrap", "m.Builder.build", "inferred"),
    ("m.Builder.build", "m.Builder._patch", "exact"),
)


def test_a_class_decorator_returns_the_class_it_is_given_not_every_decorated_one() -> None:
    assert_calls(
        {
            "m.py": _BUILDER
            + "\n\n@attrs(repr=False)\nclass A:\n    def __call__(self, x):\n        pass\n"
            "\n\n@attrs(repr=False)\nclass B:\n    def __call__(self, x):\n        pass\n"
            "\n\ndef make_a():\n    return A(1)\n"
        },
        ("m.make_a", "m.A", "exact"),
        ("m", "m.attrs", "exact"),  # `@attrs(repr=False)` calls it
        *_BUILDING,
    )


def test_a_decorator_called_bare_takes_no_arm_of_if_its_parameter_is_none() -> None:
    # `@attrs` passes the class: `if maybe_cls is None: return wrap` is not its way, so the
    # decorated name does not hold `wrap`
    assert_calls(
        {"m.py": _BUILDER + "\n\n@attrs\nclass A:\n    pass\n\n\ndef make_a():\n    return A()\n"},
        ("m.make_a", "m.A", "exact"),
        *_BUILDING,
    )


def test_what_another_call_put_into_an_attribute_is_not_a_decorations_value() -> None:
    # a test builds a Builder of its own class: the decorated `A` does not hold it
    assert_calls(
        {
            "m.py": _BUILDER + "\n\n@attrs\nclass A:\n    pass\n"
            "\n\ndef test_direct():\n    class D:\n        pass\n\n"
            "    return Builder(D).build()\n"
            "\n\ndef make_a():\n    return A()\n"
        },
        ("m.make_a", "m.A", "exact"),
        ("m.test_direct", "m.Builder.__init__", "exact"),
        ("m.test_direct", "m.Builder.build", "inferred"),
        *_BUILDING,
    )


def test_a_partial_of_keywords_passes_the_calls_arguments_on() -> None:
    # `dataclass = partial(attrs, auto_attribs=True)`, used as `@dataclass`: the class goes to
    # `maybe_cls`, as written
    assert_calls(
        {
            "m.py": "from functools import partial\n\n"
            + _BUILDER
            + "\n\ndataclass = partial(attrs, auto_attribs=True)\n"
            "\n\n@dataclass\nclass A:\n    pass\n"
            "\n\ndef make_a():\n    return A()\n"
        },
        ("m.make_a", "m.A", "exact"),
        *_BUILDING,
    )


def test_a_factory_returns_what_this_call_passed() -> None:
    # the same function called with two classes: each call's result is its own class
    assert_calls(
        {
            "m.py": "class Box:\n    def __init__(self, kind):\n        self.kind = kind\n\n"
            "    def get(self):\n        return self.kind\n\n\n"
            "def make(kind):\n    box = Box(kind)\n    return box.get()\n\n\n"
            "class A:\n    pass\n\n\nclass B:\n    pass\n\n\n"
            "def use_a():\n    cls = make(A)\n    return cls()\n\n\n"
            "def use_b():\n    cls = make(B)\n    return cls()\n"
        },
        ("m.make", "m.Box.__init__", "exact"),
        ("m.make", "m.Box.get", "inferred"),
        ("m.use_a", "m.make", "exact"),
        ("m.use_a", "m.A", "inferred"),
        ("m.use_b", "m.make", "exact"),
        ("m.use_b", "m.B", "inferred"),
    )


def test_an_instance_made_here_holds_what_this_construction_passed() -> None:
    # `builder = Builder(A)`: its attribute holds `A`, not what other Builders were given
    assert_calls(
        {
            "m.py": "class Builder:\n    def __init__(self, cls):\n        self._cls = cls\n\n"
            "    def build(self):\n        return self._cls\n\n\n"
            "class A:\n    pass\n\n\nclass B:\n    pass\n\n\n"
            "def make_a():\n    builder = Builder(A)\n    cls = builder.build()\n"
            "    return cls()\n\n\n"
            "def make_b():\n    builder = Builder(B)\n    cls = builder.build()\n"
            "    return cls()\n"
        },
        ("m.make_a", "m.Builder.__init__", "exact"),
        ("m.make_a", "m.Builder.build", "inferred"),
        ("m.make_a", "m.A", "inferred"),
        ("m.make_b", "m.Builder.__init__", "exact"),
        ("m.make_b", "m.Builder.build", "inferred"),
        ("m.make_b", "m.B", "inferred"),
    )


def test_a_module_named_attr_holds_variables_not_attributes() -> None:
    # a container's home is a variable `(scope, name)` or an attribute: a module named `attr`
    # (the attrs project has one) does not make its variables attributes
    assert_calls(
        {
            "attr.py": """
def g():
    pass

hooks = []
hooks.append(g)

def run():
    for h in hooks:
        h()
"""
        },
        ("attr.run", "attr.g"),
        exactly=False,
    )
