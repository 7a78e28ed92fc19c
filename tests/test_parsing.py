"""The Python parser and module naming, on small sources with known answers."""

from __future__ import annotations

import hashlib
import textwrap

from graphrag_code.languages.ecmascript.parser import EcmaScriptParser
from graphrag_code.languages.python.modules import module_names
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.model import ParsedFile, SymbolKind
from graphrag_code.parsing import decode_source


def parse(source: str, module: str = "pkg.mod", *, is_package: bool = False) -> ParsedFile:
    data = textwrap.dedent(source).encode()
    return PythonParser().parse(
        path="pkg/mod.py",
        module=module,
        is_package=is_package,
        source=data,
        sha256=hashlib.sha256(data).hexdigest(),
    )


def test_scope_tree_kinds_and_qualified_names() -> None:
    parsed = parse(
        '''
        """Module doc."""
        import os

        @decorator(1)
        class Box(Base, metaclass=Meta):
            """A box."""

            def open(self, force: bool = False) -> "Lid":
                """Open it."""
                def inner():
                    return os.getcwd()
                return inner()

        async def fetch(url: str) -> bytes:
            ...
        '''
    )
    symbols = {s.qualified_name: s for s in parsed.symbols}
    assert parsed.docstring == "Module doc."
    assert symbols["pkg.mod.Box"].kind == SymbolKind.CLASS
    assert symbols["pkg.mod.Box"].bases == (("Base",),)
    assert symbols["pkg.mod.Box"].decorators == ("decorator(1)",)
    assert symbols["pkg.mod.Box"].start_line == 5  # the decorator line
    assert symbols["pkg.mod.Box.open"].kind == SymbolKind.METHOD
    assert symbols["pkg.mod.Box.open"].docstring == "Open it."
    assert symbols["pkg.mod.Box.open"].returns == ("Lid",)
    assert symbols["pkg.mod.Box.open"].parameters == ("self", "force")
    assert symbols["pkg.mod.Box.open.inner"].kind == SymbolKind.FUNCTION
    assert symbols["pkg.mod.Box.open.inner"].parent == "pkg.mod.Box.open"
    assert symbols["pkg.mod.fetch"].is_async
    assert symbols["pkg.mod.fetch"].signature == "async def fetch(url: str) -> bytes"


def test_calls_are_attributed_to_the_scope_that_runs_them() -> None:
    parsed = parse(
        """
        @register("x")
        def handler(value=default_value()):
            helper(value)
            self_less.method().chain()

        class K:
            attribute = make_attribute()
        """
    )
    by_callee = {site.callee: site for site in parsed.calls}
    assert by_callee[("register",)].scope == "pkg.mod"  # decorators run in the module
    assert by_callee[("default_value",)].scope == "pkg.mod"  # so do default values
    assert by_callee[("helper",)].scope == "pkg.mod.handler"
    assert by_callee[("make_attribute",)].scope == "pkg.mod.K"
    chained = by_callee[("chain",)]
    assert chained.receiver_call == ("self_less", "method")


def test_code_after_a_nested_definition_belongs_to_the_scope_around_it() -> None:
    parsed = parse(
        """
        class Outer:
            def first(self):
                def inner():
                    deep()
                after_inner()
            @decorate(argument())
            def second(self, value=fallback()):
                in_second()
            in_class_body()
        at_module()
        """
    )
    scopes = {site.callee[0]: site.scope for site in parsed.calls}
    assert scopes == {
        "deep": "pkg.mod.Outer.first.inner",
        "after_inner": "pkg.mod.Outer.first",
        "decorate": "pkg.mod.Outer",  # a method's decorators and defaults run in the class
        "argument": "pkg.mod.Outer",
        "fallback": "pkg.mod.Outer",
        "in_second": "pkg.mod.Outer.second",
        "in_class_body": "pkg.mod.Outer",
        "at_module": "pkg.mod",
    }


def test_imports_relative_aliases_and_type_checking() -> None:
    parsed = parse(
        """
        import a.b as c
        import x.y
        from . import sibling
        from ..up import thing as other, more
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from heavy import Model
        def f():
            from inner import name
        """
    )
    records = {(i.module, i.level, i.name, i.alias): i for i in parsed.imports}
    assert ("a.b", 0, None, "c") in records
    assert records[("x.y", 0, None, None)].bound_name == "x"
    assert ("", 1, "sibling", None) in records
    assert ("up", 2, "thing", "other") in records
    assert records[("up", 2, "more", None)].bound_name == "more"
    assert records[("heavy", 0, "Model", None)].type_checking
    assert records[("inner", 0, "name", None)].scope == "pkg.mod.f"


def test_bindings_for_type_inference() -> None:
    parsed = parse(
        """
        class S:
            def __init__(self, repo: Repo, other) -> None:
                self.repo = repo
                self.cache = Cache()
                self.other = other
        def g(x: Optional[Widget], y: "mod.Gadget", z: int | None, b: Box[int] | None):
            w = Widget()
        """
    )
    bindings = {(b.scope, b.target): (b.value, b.kind) for b in parsed.bindings}
    # typed through the parameter's annotation when the resolver follows the alias
    assert bindings[("pkg.mod.S.__init__", ("self", "repo"))] == (("repo",), "alias")
    assert bindings[("pkg.mod.S.__init__", ("repo",))] == (("Repo",), "annotation")
    assert bindings[("pkg.mod.S.__init__", ("self", "cache"))] == (("Cache",), "call")
    assert bindings[("pkg.mod.S.__init__", ("self", "other"))] == (("other",), "alias")
    assert bindings[("pkg.mod.g", ("x",))] == (("Widget",), "annotation")
    assert bindings[("pkg.mod.g", ("y",))] == (("mod", "Gadget"), "annotation")
    assert bindings[("pkg.mod.g", ("z",))] == (("int",), "annotation")
    # `Box[int] | None` is a union type, not an expression, to the grammar: read alike
    assert bindings[("pkg.mod.g", ("b",))] == (("Box",), "annotation")
    assert bindings[("pkg.mod.g", ("w",))] == (("Widget",), "call")


def test_locals_shadow_and_all_names() -> None:
    parsed = parse(
        """
        __all__ = ["public", "Other"]
        def public(a, *args, **kw):
            for item in a:
                total = item
            global COUNTER
            COUNTER = 1
            return [z for z in args]
        """
    )
    assert parsed.all_names == ("public", "Other")
    names = {s.scope: s for s in parsed.scopes}["pkg.mod.public"]
    assert {"a", "args", "kw", "item", "total", "z"} <= names.names
    assert "COUNTER" in names.globals
    assert "COUNTER" not in names.names


def test_syntax_errors_keep_what_parses() -> None:
    parsed = parse(
        """
        def good():
            return 1

        def broken(:
            pass

        class StillHere:
            def method(self):
                return good()
        """
    )
    names = {s.qualified_name for s in parsed.symbols}
    assert {"pkg.mod.good", "pkg.mod.StillHere", "pkg.mod.StillHere.method"} <= names
    assert parsed.issues, "the syntax error is reported"


def test_decode_source_handles_encodings() -> None:
    assert decode_source(b"\xef\xbb\xbfx = 1\n") == b"x = 1\n"
    latin = "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1")
    decoded = decode_source(latin)
    assert isinstance(decoded, bytes)
    assert "café" in decoded.decode()
    reason = decode_source(b"x = '\xff\xfe'\n")
    assert isinstance(reason, str)
    assert "not UTF-8" in reason


def test_module_names_src_layout_and_nested_roots() -> None:
    names = module_names(
        [
            "src/shop/__init__.py",
            "src/shop/api.py",
            "src/shop/storage/__init__.py",
            "src/shop/storage/sqlite.py",
            "tests/test_api.py",
            "setup.py",
        ]
    )
    assert names["src/shop/__init__.py"].module == "shop"
    assert names["src/shop/__init__.py"].is_package
    assert names["src/shop/storage/sqlite.py"].module == "shop.storage.sqlite"
    assert names["tests/test_api.py"].module == "tests.test_api"
    assert names["setup.py"].module == "setup"


def test_module_names_nested_package_root_vs_namespace_package() -> None:
    nested = module_names(["python/mypkg/__init__.py", "python/mypkg/core.py"])
    assert nested["python/mypkg/core.py"].module == "mypkg.core"
    namespace = module_names(
        ["google/cloud/storage/__init__.py", "google/cloud/storage/blob.py"],
        frozenset({"google", "google.cloud", "google.cloud.storage"}),
    )
    assert namespace["google/cloud/storage/blob.py"].module == "google.cloud.storage.blob"


def test_module_names_when_the_root_is_itself_a_package() -> None:
    names = module_names(["__init__.py", "core.py"], root_name="mylib")
    assert names["core.py"].module == "mylib.core"
    assert names["__init__.py"].module == "mylib"


def test_with_statements_bind_each_name_to_its_own_call() -> None:
    """`with f() as x` binds x to f(): each name paired with its own item, however the
    parser's capture lists happen to be ordered (they were paired by position once, and
    Django's test files got `out` bound to the wrong call, differently from run to run)."""
    items = [(f"ctx_{n}", f"name_{n}") for n in range(40)]
    body = "\n".join(
        f"    with mock.patch('x', mock.Mock()):\n"
        f"        with helper.{call}(module='m', other=inner(1)) as {name}:\n"
        f"            use({name}, io.StringIO())"
        for call, name in items
    )
    parsed = parse(f"def test():\n{body}\n\n\nclass K:\n    def m(self):\n{body}\n")
    enters = [b for b in parsed.bindings if b.kind == "enter"]
    assert len(enters) == 2 * len(items)
    assert {(b.target[0], b.value) for b in enters} == {
        (name, ("helper", call)) for call, name in items
    }
    assert [b.line for b in enters] == sorted(b.line for b in enters)


def test_module_search_text_holds_its_own_statements_not_its_symbols() -> None:
    from graphrag_code.ingest.rows import top_level_code
    from graphrag_code.text import statement_text

    parsed = parse(
        textwrap.dedent(
            '''
            """Packaging."""
            import setuptools

            REQUIRES = ["charset_normalizer>=2,<4", "idna"]


            def read_version(path):
                return open(path).read().strip()


            class Builder:
                def build(self):
                    return compile_everything()


            setuptools.setup(python_requires=">=3.8", install_requires=REQUIRES)
            '''
        )
    )
    top = top_level_code(parsed)
    assert "charset_normalizer" in top
    assert "python_requires" in top
    assert "compile_everything" not in top  # a method's body is its own node's text
    assert "read_version" not in top
    text = statement_text(top)
    words = text.split()
    assert {"charset", "normalizer", "python", "requires", "setuptools"} <= set(words)
    assert '">=3.8"' in text  # as written: the version's numbers are searchable
    assert "compile" not in words


def test_short_texts_are_one_object_wherever_they_occur() -> None:
    """A name mentioned many times is one string object in the parse (so a parse worker
    pickles it once per file and the indexer holds it once), long texts are left alone."""
    import pickle

    body = "".join(f"        self.step{i % 3}(value)\n" for i in range(300))
    parsed = parse(f"class Job:\n    def run(self, value):\n{body}")
    receivers = [site.callee[0] for site in parsed.calls if site.callee[0] == "self"]
    assert len(receivers) == 300
    assert len({id(name) for name in receivers}) == 1
    again = pickle.loads(pickle.dumps(parsed))
    names = [site.callee[0] for site in again.calls if site.callee[0] == "self"]
    assert len({id(name) for name in names}) == 1  # still one object after the trip
    assert again == parsed


def test_cr_only_line_endings_give_real_lines() -> None:
    """Issue 57, item 15: every symbol of a CR-only file was placed at lines 1-1."""
    assert decode_source(b"a\rb\r\nc\n\r") == b"a\nb\r\nc\n\n"  # CRLF kept, one byte each
    python = decode_source(b"import os\r\rdef first():\r    return 1\r\rclass Second:\r    pass\r")
    assert isinstance(python, bytes)
    parsed = PythonParser().parse(
        path="pkg/mod.py", module="pkg.mod", is_package=False, source=python, sha256="0"
    )
    lines = {s.qualified_name: (s.start_line, s.end_line) for s in parsed.symbols}
    assert lines == {"pkg.mod.first": (3, 4), "pkg.mod.Second": (6, 7)}
    script = decode_source(b"export function a() {\r  return 1;\r}\r\rexport class B {}\r")
    assert isinstance(script, bytes)
    parsed = EcmaScriptParser().parse(
        path="src/a.ts", module="./src/a.ts", is_package=False, source=script, sha256="0"
    )
    lines = {s.name: (s.start_line, s.end_line) for s in parsed.symbols}
    assert lines == {"a": (1, 3), "B": (5, 5)}
