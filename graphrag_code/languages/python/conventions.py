"""Python's conventions: pytest and unittest tests, fixtures and set-ups, and the entry
points that run without a caller in the repository.

Tests (pytest's rules, with the project's `python_files`, `python_classes`,
`python_functions` and `testpaths`): functions of a test module whose name matches
`python_functions`, methods of its `python_classes` classes without an `__init__`, and the
`test*` methods of `unittest.TestCase` subclasses (found through the class tree, so a test
class deriving from a project's own base test case counts). Fixtures are functions decorated
`@pytest.fixture`, visible to their class, their module or (in a conftest.py) their folder.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...conventions.base import ClassTree, ConventionConfig, FileRoles, Fixture, TestUnit
from ...model import ParsedFile, Symbol, SymbolKind
from .projectfiles import PytestOptions, declared_entry_points, folder_of, pytest_options

__all__ = [
    "BUILTIN_METHODS", "IMPLICIT_PARAMETERS", "PythonConfig", "PythonConventions", "decorator_name",
    "runs_by_syntax",
]  # fmt: skip

# method names a test runner calls around each test of a class, or of a module
_CLASS_SETUPS = (
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown",
    "setup_method", "teardown_method", "setup_class", "teardown_class", "setup", "teardown",
)  # fmt: skip
_MODULE_SETUPS = (
    "setup_module", "teardown_module", "setup_function", "teardown_function",
    "setUpModule", "tearDownModule",
)  # fmt: skip
_TEST_FOLDERS = frozenset({"tests", "testing"})
# decorators that register the function with a framework, which then calls it
_REGISTRATIONS_WORDS = """route get post put delete patch head options websocket api_route
    add_route endpoint errorhandler app_errorhandler register_error_handler before_request
    after_request
    teardown_request teardown_appcontext before_app_request after_app_request
    context_processor app_context_processor template_filter template_global template_test
    app_template_filter app_template_global url_value_preprocessor url_defaults
    before_first_request shell_context_processor cli receiver connect connect_via
    listens_for listen event on on_event middleware exception_handler task shared_task
    periodic_task hookimpl hookspec register register_plugin subscriber handler
    tool resource signal_handler job schedule callback result_callback"""
_REGISTRATIONS = frozenset(_REGISTRATIONS_WORDS.split())
_CLI = frozenset({"command", "group"})
# decorators that change how a function is called, not whether
_PLAIN_WORDS = """property setter getter deleter staticmethod classmethod wraps cache lru_cache
    cached_property abstractmethod abstractproperty abstractclassmethod abstractstaticmethod
    override final contextmanager asynccontextmanager dataclass total_ordering
    singledispatch singledispatchmethod runtime_checkable no_type_check unique
    deprecated"""
_PLAIN = frozenset(_PLAIN_WORDS.split())
# external bases whose methods a subclass does not override by name (beyond dunders)
_TRIVIAL_BASES_WORDS = """object Exception BaseException ValueError TypeError RuntimeError KeyError
    LookupError AttributeError OSError IOError Warning UserWarning DeprecationWarning
    NotImplementedError ABC Generic Protocol NamedTuple TypedDict Enum IntEnum StrEnum
    Flag IntFlag dict list set tuple str int float bytes frozenset"""
_TRIVIAL_BASES = frozenset(_TRIVIAL_BASES_WORDS.split())
# pytest runs the `pytest_*` hooks of a plugin module and of a plugin object it is handed
# (`pytest.main(plugins=[Plugin()])`, `config.pluginmanager.register(...)`)
_HOOK_KINDS = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD})
_STRING = re.compile(r"""(['"])(.*?)\1""")
_NAME_ARGUMENT = re.compile(r"""\bname\s*=\s*(['"])(.+?)\1""")
_AUTOUSE = re.compile(r"\bautouse\s*=\s*True\b")
# methods Python calls on an object without a call expression naming them (`with x:`,
# `for _ in x`, `len(x)`, `x[k]`, `str(x)`, …)
_PROTOCOL = frozenset(
    {
        "__enter__", "__exit__", "__aenter__", "__aexit__", "__iter__", "__next__",
        "__aiter__", "__anext__", "__len__", "__getitem__", "__setitem__", "__delitem__",
        "__contains__", "__call__", "__bool__", "__eq__", "__hash__", "__str__", "__repr__",
        "__format__", "__lt__", "__le__", "__gt__", "__ge__", "__await__", "__del__",
        "__post_init__", "__set_name__", "__get__", "__set__",
    }
)  # fmt: skip
# decorators whose methods run when an attribute is read, set or deleted
_ATTRIBUTES = frozenset({"property", "cached_property", "setter", "getter", "deleter"})
# parameters no fixture of the repository fills: a method's receiver, and pytest's own
# `request` fixture (its `getfixturevalue()` is pytest's, not a repository class's)
IMPLICIT_PARAMETERS = frozenset({"self", "cls", "request"})
# the methods of its built-in types, and of files and threads: `x.get()` left unresolved
# names no repository function in particular
BUILTIN_METHODS = frozenset(
    name
    for kind in (list, dict, set, str, bytes, tuple, frozenset, int, float, object)
    for name in dir(kind)
) | frozenset({"close", "read", "write", "readline", "flush", "seek", "send", "run", "start"})


def runs_by_syntax(method: Symbol) -> bool:
    """A method Python runs on an instance by syntax, not by a call naming it: a protocol
    method (`__enter__`, `__iter__`, …) or a property's getter, setter or deleter."""
    return method.name in _PROTOCOL or any(
        d.split("(", 1)[0].rsplit(".", 1)[-1] in _ATTRIBUTES for d in method.decorators
    )


def decorator_name(decorator: str) -> str:
    """The dotted name of a decorator as written, without its arguments:
    `app.route("/x")` -> `app.route`."""
    return decorator.split("(", 1)[0].strip().lstrip("@")


def _last(decorator: str) -> str:
    return decorator_name(decorator).rsplit(".", 1)[-1]


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    """pytest's rule for `python_classes` / `python_functions`: a prefix, or a glob."""
    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            if fnmatch.fnmatchcase(name, pattern):
                return True
        elif name.startswith(pattern):
            return True
    return False


def _under(path: str, folder: str) -> bool:
    return not folder or path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass
class PythonConfig(ConventionConfig):
    pytest: dict[str, PytestOptions] = field(default_factory=dict)  # folder -> options
    scripts: dict[str, str] = field(default_factory=dict)  # qualified name -> reason

    def options_for(self, path: str) -> PytestOptions:
        """The options of the nearest folder above `path` with a pytest configuration."""
        folder = folder_of(path)
        while True:
            options = self.pytest.get(folder)
            if options is not None:
                return options
            if not folder:
                return PytestOptions()
            folder = folder_of(folder)


class _File:
    """One file's symbols, indexed for the rules below."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self.symbols = {s.qualified_name: s for s in parsed.symbols if s.ordinal == 1}
        self.children: dict[str, list[Symbol]] = {}
        for symbol in parsed.symbols:
            if symbol.ordinal == 1:
                self.children.setdefault(symbol.parent, []).append(symbol)

    def methods(self, class_name: str) -> list[Symbol]:
        return [s for s in self.children.get(class_name, []) if s.kind == SymbolKind.METHOD]


def _is_test_case(name: str, classes: ClassTree) -> bool:
    return any(
        base.rsplit(".", 1)[-1].endswith("TestCase") for base in classes.external_bases(name)
    )


def _fixture(symbol: Symbol, path: str, directory: str | None, parent_class: str | None) -> Fixture:
    decorator = next(d for d in symbol.decorators if _last(d) in ("fixture", "yield_fixture"))
    named = _NAME_ARGUMENT.search(decorator)
    return Fixture(
        qualified_name=symbol.qualified_name,
        name=named.group(2) if named else symbol.name,
        path=path,
        directory=directory,
        class_name=parent_class,
        autouse=bool(_AUTOUSE.search(decorator)),
        requests=tuple(p for p in symbol.parameters if p not in ("self", "cls")),
    )


def _requests(symbol: Symbol | None, owners: list[Symbol]) -> tuple[str, ...]:
    """Fixture names a test requests: its parameters (less `parametrize`d ones) and
    `usefixtures` marks on it or its classes (None: a method inherited from another file,
    of which only its collecting classes' marks are read)."""
    parametrized: set[str] = set()
    used: list[str] = []
    for decorated in (*([symbol] if symbol else []), *owners):
        for decorator in decorated.decorators:
            last = _last(decorator)
            strings = [m.group(2) for m in _STRING.finditer(decorator)]
            if last == "parametrize" and strings:
                parametrized.update(n.strip() for n in strings[0].split(",") if n.strip())
            elif last == "usefixtures":
                used.extend(strings)
    parameters = symbol.parameters if symbol else ()
    params = [p for p in parameters if p not in ("self", "cls") and p not in parametrized]
    return tuple(dict.fromkeys([*params, *used]))


_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _bound_names(parsed: ParsedFile) -> dict[str, str]:
    """Name -> what it stands for at module level: the module's own definitions and its
    absolute imports (`from a.b import c as d`: d -> a.b.c; `import a.b as m`: m -> a.b)."""
    bound = {
        s.name: s.qualified_name
        for s in parsed.symbols
        if s.parent == parsed.module and s.ordinal == 1
    }
    for statement in parsed.imports:
        if statement.scope != parsed.module or statement.level or not statement.binds:
            continue
        if statement.name is not None:
            bound[statement.alias or statement.name] = f"{statement.module}.{statement.name}"
        elif statement.alias:
            bound[statement.alias] = statement.module
    return bound


def _values(
    symbol: Symbol | None, owners: list[Symbol], bound: Mapping[str, str]
) -> tuple[str, ...]:
    """The code a test is given through `parametrize` marks on it or its classes (issue 54:
    `attr.validators.lt` is tested through `parametrize("v", [lt, le, ge, gt])`): each name
    in the marks' arguments outside strings, spelt out through the file's bindings."""
    found: list[str] = []
    for decorated in (*([symbol] if symbol else []), *owners):
        for decorator in decorated.decorators:
            if _last(decorator) != "parametrize" or "(" not in decorator:
                continue
            arguments = _STRING.sub("", decorator[decorator.index("(") :])
            for name in _DOTTED.findall(arguments):
                head, _, rest = name.partition(".")
                if head in bound:
                    found.append(f"{bound[head]}.{rest}" if rest else bound[head])
    return tuple(dict.fromkeys(found))


class PythonConventions:
    """pytest / unittest tests and Python entry points."""

    project_files: frozenset[str] = frozenset(
        {"pyproject.toml", "setup.cfg", "pytest.ini", ".pytest.ini", "tox.ini"}
    )

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        config = PythonConfig()
        config.pytest = pytest_options(project, config.issues)
        config.scripts = declared_entry_points(project, config.issues)
        return config

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        python = config if isinstance(config, PythonConfig) else PythonConfig()
        options = python.options_for(parsed.path)
        file = _File(parsed)
        name = parsed.path.rpartition("/")[2]
        conftest = name == "conftest.py"
        test_module = _test_module(parsed.path, options)
        test_cases = {
            qn
            for qn, s in file.symbols.items()
            if s.kind == SymbolKind.CLASS and _is_test_case(qn, classes)
        }
        test_code = (
            conftest
            or test_module
            or _in_test_folder(parsed.path, options)
            or (bool(test_cases) and fnmatch.fnmatchcase(name, "test*.py"))
        )
        tests: list[TestUnit] = []
        fixtures: list[Fixture] = []
        setups: list[str] = []
        if test_code:
            tests, setups = _tests(file, options, test_module, test_cases, classes)
        for symbol in file.symbols.values():
            if symbol.kind == SymbolKind.CLASS or not any(
                _last(d) in ("fixture", "yield_fixture") for d in symbol.decorators
            ):
                continue
            owner = file.symbols.get(symbol.parent)
            parent_class = (
                owner.qualified_name if owner and owner.kind == SymbolKind.CLASS else None
            )
            # a conftest's fixtures serve its folder; outside test code a fixture comes from a
            # plugin and serves everything; else it serves its module (or class)
            directory = folder_of(parsed.path) if conftest else None if test_code else ""
            fixtures.append(_fixture(symbol, parsed.path, directory, parent_class))
        return FileRoles(
            path=parsed.path,
            test_code=test_code,
            tests=tuple(tests),
            fixtures=tuple(fixtures),
            setups=tuple(setups),
            entry_points=tuple(_entry_points(file, python, classes)),
        )


def _test_module(path: str, options: PytestOptions) -> bool:
    name = path.rpartition("/")[2]
    relative = path[len(options.directory) + 1 :] if options.directory else path
    return any(
        fnmatch.fnmatchcase(relative if "/" in pattern else name, pattern)
        for pattern in options.python_files
    )


def _in_test_folder(path: str, options: PytestOptions) -> bool:
    folders = path.split("/")[:-1]
    if any(part in _TEST_FOLDERS for part in folders) or folders[:1] == ["test"]:
        return True
    base = options.directory
    return any(
        _under(path, f"{base}/{tp}".strip("/") if base else tp.strip("/"))
        for tp in options.testpaths
        if tp.strip("/") not in ("", ".")
    )


def _tests(
    file: _File,
    options: PytestOptions,
    test_module: bool,
    test_cases: set[str],
    classes: ClassTree,
) -> tuple[list[TestUnit], list[str]]:
    """The tests of a file of test code, and its set-up methods."""
    module = file.parsed.module
    module_setups = tuple(
        f"{module}.{name}" for name in _MODULE_SETUPS if f"{module}.{name}" in file.symbols
    )
    tests: list[TestUnit] = []
    setups: list[str] = list(module_setups)
    bound = _bound_names(file.parsed)
    if test_module:
        for symbol in file.children.get(module, []):
            if symbol.kind == SymbolKind.FUNCTION and _matches(
                symbol.name, options.python_functions
            ):
                tests.append(
                    TestUnit(
                        symbol.qualified_name,
                        file.parsed.path,
                        requests=_requests(symbol, []),
                        setups=module_setups,
                        values=_values(symbol, [], bound),
                        case=f"{file.parsed.path}::{symbol.name}",
                    )
                )

    def visit(class_symbol: Symbol, owners: list[Symbol]) -> None:
        qn = class_symbol.qualified_name
        unit = qn in test_cases
        pytest_class = (
            test_module
            and _matches(class_symbol.name, options.python_classes)
            and not any(m.name == "__init__" for m in file.methods(qn))
            and classes.find_method(qn, "__init__") is None
        )
        chain = [class_symbol, *owners]
        if unit or pytest_class:
            class_setups = tuple(
                found for found in (classes.find_method(qn, n) for n in _CLASS_SETUPS) if found
            )
            setups.extend(f"{qn}.{n}" for n in _CLASS_SETUPS if f"{qn}.{n}" in file.symbols)
            prefixes = ("test",) if unit and not pytest_class else options.python_functions
            case = f"{file.parsed.path}::{qn[len(module) + 1 :].replace('.', '::')}::"
            own = [(m.qualified_name, m) for m in file.methods(qn)]
            # pytest collects a test method once per class that has it (`class TestB(TestA)`
            # runs TestA's `test_m` as `TestB::test_m` too; a mixin's, in each TestCase
            # using it): the base's method, run as this class's case
            inherited = [(found, file.symbols.get(found)) for found in classes.inherited(qn)]
            for qualified_name, method in (*own, *inherited):
                name = qualified_name.rpartition(".")[2]
                if method is not None and method.kind != SymbolKind.METHOD:
                    continue
                if _matches(name, prefixes):
                    tests.append(
                        TestUnit(
                            qualified_name,
                            file.parsed.path,
                            class_name=qn,
                            requests=_requests(method, chain),
                            setups=(*module_setups, *class_setups),
                            values=_values(method, chain, bound),
                            case=case + name,
                        )
                    )
        for inner in file.children.get(qn, []):
            if inner.kind == SymbolKind.CLASS:
                visit(inner, chain)

    for symbol in file.children.get(module, []):
        if symbol.kind == SymbolKind.CLASS:
            visit(symbol, [])
    if test_module:
        tests.extend(_imported_tests(file.parsed, options, classes, module_setups))
    return tests, setups


def _imported_names(parsed: ParsedFile, classes: ClassTree) -> dict[str, str]:
    """Name -> qualified name of what a module's top-level imports bind (relative ones
    spelt out; `from m import *` binds m's public classes), less names it defines itself,
    which replace an import in its namespace."""
    package = parsed.module.split(".") if parsed.is_package else parsed.module.split(".")[:-1]
    own = {s.name for s in parsed.symbols if s.parent == parsed.module}
    bound: dict[str, str] = {}
    for statement in parsed.imports:
        if statement.scope != parsed.module or statement.name is None or not statement.binds:
            continue
        module = statement.module
        if statement.level:
            base = package[: len(package) - statement.level + 1] if statement.level > 1 else package
            module = ".".join([*base, *([module] if module else [])])
        if statement.name == "*":
            for found in classes.module_classes(module):
                bound[found.rpartition(".")[2]] = found
        else:
            bound[statement.alias or statement.name] = f"{module}.{statement.name}"
    return {
        name: found
        for name, found in bound.items()
        if name not in own
        and not name.startswith("_")
        and not found.startswith(parsed.module + ".")
    }


def _imported_tests(
    parsed: ParsedFile,
    options: PytestOptions,
    classes: ClassTree,
    module_setups: tuple[str, ...],
) -> list[TestUnit]:
    """The tests a test module imports from another (`from test_a import TestA`): pytest
    collects every test class and function in a module's namespace, imported ones included,
    as the importing module's cases (`test_b.py::TestA::test_m`). A function's name that is
    no function of the repository finds no node and is dropped by the tests stage."""
    tests: list[TestUnit] = []
    for name, found in _imported_names(parsed, classes).items():
        if not classes.is_class(found):
            if _matches(name, options.python_functions):
                tests.append(
                    TestUnit(found, parsed.path, setups=module_setups,
                             case=f"{parsed.path}::{name}", imported=True)
                )  # fmt: skip
            continue
        unit = _is_test_case(found, classes)
        pytest_class = (
            _matches(name, options.python_classes)
            and classes.find_method(found, "__init__") is None
        )
        if not (unit or pytest_class):
            continue
        class_setups = tuple(
            setup for setup in (classes.find_method(found, n) for n in _CLASS_SETUPS) if setup
        )
        prefixes = ("test",) if unit and not pytest_class else options.python_functions
        for method in (*classes.own_methods(found), *classes.inherited(found)):
            method_name = method.rpartition(".")[2]
            if _matches(method_name, prefixes):
                tests.append(
                    TestUnit(
                        method,
                        parsed.path,
                        class_name=found,
                        setups=(*module_setups, *class_setups),
                        case=f"{parsed.path}::{name}::{method_name}",
                        imported=True,
                    )
                )
    return tests


def _decorator_reason(decorator: str) -> str | None:
    name = decorator_name(decorator)
    last = name.rsplit(".", 1)[-1]
    if last in _PLAIN or last in ("fixture", "yield_fixture"):
        return None
    if last in _CLI or name.startswith(("click.", "typer.")):
        return f"CLI command (@{name})"
    if last in _REGISTRATIONS:
        return f"registered by decorator @{name}"
    if last == "overload":
        return "typing overload"
    return f"decorated by @{name} (may register it)"


def _entry_points(file: _File, config: PythonConfig, classes: ClassTree) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    module = file.parsed.module
    exported = set(file.parsed.all_names or ())
    for qn, symbol in file.symbols.items():
        reason = config.scripts.get(qn)
        if reason is not None:
            found.append((qn, reason))
        for decorator in symbol.decorators:
            text = _decorator_reason(decorator)
            if text is not None:
                found.append((qn, text))
        if symbol.parent == module and symbol.name in exported:
            found.append((qn, "exported in __all__"))
        if symbol.name.startswith("__") and symbol.name.endswith("__"):
            found.append((qn, "dunder method" if symbol.kind == SymbolKind.METHOD else "dunder"))
        if symbol.name.startswith("pytest_") and symbol.kind in _HOOK_KINDS:
            found.append((qn, "pytest hook"))
        if symbol.kind == SymbolKind.METHOD and symbol.parent in file.symbols:
            bases = [
                b
                for b in classes.external_bases(symbol.parent)
                if b.rsplit(".", 1)[-1] not in _TRIVIAL_BASES
            ]
            if bases and not symbol.name.startswith("__"):
                found.append((qn, f"may override a method of external base {bases[0]}"))
    for name in ("__getattr__", "__dir__"):
        if f"{module}.{name}" in file.symbols:
            found.append((f"{module}.{name}", "module hook"))
    return found
