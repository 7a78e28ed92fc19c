"""The TypeScript / JavaScript plug-in without a database: the records the parser emits, module
resolution (tsconfig, workspaces), and the registry that routes files to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.errors import ConfigurationError
from graphrag_code.ids import path_module_name
from graphrag_code.ingest.offline import link_repository
from graphrag_code.languages import languages, select_languages, suffix_map
from graphrag_code.languages.ecmascript.modules import package_name, parse_jsonc, read_project
from graphrag_code.languages.ecmascript.parser import EcmaScriptParser
from graphrag_code.model import EdgeKind, ParsedFile, SymbolKind

SUFFIXES = suffix_map(languages())
MIXED = Path(__file__).parent / "fixtures" / "mixed"


def parse(path: str, code: str) -> ParsedFile:
    return EcmaScriptParser().parse(
        path=path, module=path_module_name(path), is_package=False, source=code.encode(),
        sha256="0",
    )  # fmt: skip


def test_every_suffix_is_routed_and_languages_can_be_chosen() -> None:
    for suffix in (".ts", ".tsx", ".mts", ".cts"):
        assert SUFFIXES[suffix] == "typescript"
    for suffix in (".js", ".jsx", ".mjs", ".cjs"):
        assert SUFFIXES[suffix] == "javascript"
    assert SUFFIXES[".py"] == "python"
    assert [lang.name for lang in select_languages(["py", "ts"])] == ["python", "typescript"]
    with pytest.raises(ConfigurationError, match="unknown language"):
        select_languages(["cobol"])


def test_qualified_names_follow_the_path_and_never_look_like_python() -> None:
    assert path_module_name("utils.ts") == "./utils.ts"
    assert path_module_name("web/cart.ts") == "web/cart.ts"
    parsed = parse("web/cart.ts", "export class Cart { add(): void {} }\n")
    assert [s.qualified_name for s in parsed.symbols] == [
        "web/cart.ts.Cart",
        "web/cart.ts.Cart.add",
    ]


def test_symbols_of_every_declaration_form() -> None:
    parsed = parse(
        "src/a.ts",
        """
/** Things with a price. */
export interface Priced { price(): number }
export type Id = string;
export enum Color { Red, Green }
export namespace Geo { export function area(): number { return 1; } }
export abstract class Shape implements Priced {
  constructor(readonly id: Id) {}
  get label(): string { return "x"; }
  set label(v: string) {}
  abstract price(): number;
  onClick = () => this.price();
  static create(): Shape | null { return null; }
}
export const double = (n: number): number => n * 2;
export const named = function inner() {};
export default function () {}
const api = { get() { return 1; }, put: () => 2 };
function* gen() {}
declare function ambient(x: string): void;
""",
    )
    kinds = {
        s.qualified_name.removeprefix("src/a.ts."): (s.kind, s.declared_as) for s in parsed.symbols
    }
    assert kinds == {
        "Priced": (SymbolKind.CLASS, "interface"),
        "Priced.price": (SymbolKind.METHOD, "signature"),
        "Id": (SymbolKind.CLASS, "type alias"),
        "Color": (SymbolKind.CLASS, "enum"),
        "Geo": (SymbolKind.CLASS, "namespace"),
        "Geo.area": (SymbolKind.FUNCTION, None),
        "Shape": (SymbolKind.CLASS, "abstract class"),
        "Shape.constructor": (SymbolKind.METHOD, "constructor"),
        "Shape.label": (SymbolKind.METHOD, "setter"),  # the getter comes first, ordinal 1
        "Shape.price": (SymbolKind.METHOD, "abstract method"),
        "Shape.onClick": (SymbolKind.METHOD, "arrow function"),
        "Shape.create": (SymbolKind.METHOD, None),
        "double": (SymbolKind.FUNCTION, "arrow function"),
        "named": (SymbolKind.FUNCTION, "function expression"),
        "default": (SymbolKind.FUNCTION, None),
        "api": (SymbolKind.CLASS, "object literal"),
        "api.get": (SymbolKind.METHOD, "object method"),
        "api.put": (SymbolKind.METHOD, "object method"),
        "gen": (SymbolKind.FUNCTION, "generator"),
        "ambient": (SymbolKind.FUNCTION, "signature"),
    }
    by_name = {s.qualified_name: s for s in parsed.symbols}
    assert [s.ordinal for s in parsed.symbols if s.name == "label"] == [1, 2]  # get + set
    shape = by_name["src/a.ts.Shape"]
    assert shape.implements == (("Priced",),)
    assert shape.signature == "export abstract class Shape implements Priced"
    assert by_name["src/a.ts.Priced"].docstring == "Things with a price."
    assert by_name["src/a.ts.Shape.create"].returns == ("Shape",)  # `| null` dropped
    assert by_name["src/a.ts.double"].signature == "export const double = (n: number): number =>"


def test_commonjs_forms() -> None:
    parsed = parse(
        "lib/counter.js",
        """
const util = require('./util');
const { pad, trim: strip } = require('./text');
function Counter(start) { this.value = start; }
Counter.prototype.increment = function () { return util.clamp(this.value + 1); };
Counter.create = function () { return new Counter(0); };
exports.helper = function helper() {};
module.exports = Counter;
""",
    )
    names = [s.qualified_name.removeprefix("lib/counter.js.") for s in parsed.symbols]
    assert names == ["Counter", "Counter.increment", "Counter.create", "helper"]
    imports = {(i.module, i.name, i.alias) for i in parsed.imports}
    assert imports == {
        ("./util", None, "util"), ("./text", "pad", None), ("./text", "trim", "strip"),
    }  # fmt: skip
    exported = [b for b in parsed.bindings if b.target == ("module", "exports")]
    assert [(b.value, b.kind) for b in exported] == [(("Counter",), "export")]


def test_import_and_export_forms() -> None:
    parsed = parse(
        "src/i.ts",
        """
import d, { a as b, type T } from "./x";
import * as ns from "../y";
import "./polyfill";
import fs = require("fs");
export * from "./z";
export { q as r } from "./w";
export type { U } from "./u";
const m = await import("./lazy");
import("./fire-and-forget");
""",
    )
    records = {
        (i.module, i.name, i.alias, i.type_checking, i.binds, i.exported, i.possible)
        for i in parsed.imports
    }
    assert records == {
        ("./x", "default", "d", False, True, False, False),
        ("./x", "a", "b", False, True, False, False),
        ("./x", "T", None, True, True, False, False),
        ("../y", None, "ns", False, True, False, False),
        ("./polyfill", None, None, False, False, False, False),
        ("fs", None, "fs", False, True, False, False),
        ("./z", "*", None, False, True, True, False),
        ("./w", "q", "r", False, True, True, False),
        ("./u", "U", None, True, True, True, False),
        ("./lazy", None, "m", False, True, False, True),
        ("./fire-and-forget", None, None, False, False, False, True),
    }


@pytest.mark.parametrize("path", ["src/names.js", "src/names.ts"])
def test_reserved_words_and_strings_are_import_and_export_names(path: str) -> None:
    """ES2015 allows any name in an import or export clause (`export { functionType as
    function }` in zod's bundle); the JavaScript grammar reads only identifiers there and
    `default` as a bare keyword, the TypeScript grammar reads them all."""
    parsed = parse(
        path,
        """
import { default as d, function as f } from "./x";
export { if as when, default as main } from "./y";
export { default } from "./z";
export { q as "a-b" } from "./w";
const functionType = () => d() + f();
class K {}
export { functionType as function, K as class, functionType as default, K as "k-k" };
""",
    )
    assert parsed.issues == ()
    imports = {(i.module, i.name, i.alias, i.exported) for i in parsed.imports}
    assert imports == {
        ("./x", "default", "d", False),
        ("./x", "function", "f", False),
        ("./y", "if", "when", True),
        ("./y", "default", "main", True),
        ("./z", "default", None, True),
        ("./w", "q", "a-b", True),
    }
    exports = {(b.target, b.value) for b in parsed.bindings if b.kind == "export"}
    assert exports == {
        (("function",), ("functionType",)),
        (("class",), ("K",)),
        (("default",), ("functionType",)),
        (("k-k",), ("K",)),
    }
    assert {s.qualified_name for s in parsed.symbols} == {f"{path}.functionType", f"{path}.K"}


def test_calls_bindings_and_type_uses() -> None:
    parsed = parse(
        "src/c.ts",
        """
class Cart extends Base<Item> {
  private store: Store = new Store();
  constructor(private readonly repo: Repo) { super(); }
  add(item: Item): void {
    this.store.save(item);
    super.add(item);
    make().run();
    items.forEach((it: Item) => it.check());
    if (item instanceof Special) {}
    const x = item satisfies Priced;
  }
}
""",
    )
    calls = {(c.scope.removeprefix("src/c.ts."), c.callee, c.receiver_call) for c in parsed.calls}
    assert calls >= {
        ("Cart", ("Store",), None),
        ("Cart.constructor", ("super()", "constructor"), None),
        ("Cart.add", ("this", "store", "save"), None),
        ("Cart.add", ("super()", "add"), None),
        ("Cart.add", ("run",), ("make",)),
        ("Cart.add", ("it", "check"), None),
    }
    bindings = {
        (b.scope.removeprefix("src/c.ts."), b.target, b.value, b.kind) for b in parsed.bindings
    }
    assert bindings >= {
        ("Cart", ("store",), ("Store",), "annotation"),
        ("Cart", ("repo",), ("Repo",), "annotation"),  # a parameter property is a field
        ("Cart.add", ("item",), ("Item",), "annotation"),
        ("Cart.add", ("it",), ("Item",), "annotation"),  # a callback's typed parameter
    }
    uses = {(u.type_name, u.context) for u in parsed.type_uses}
    assert uses >= {
        (("Item",), "annotation"), (("Special",), "isinstance"), (("Priced",), "satisfies"),
    }  # fmt: skip
    assert parsed.symbols[0].bases == (("Base",),)


def test_bad_input_keeps_what_parses_and_bundles_are_skipped() -> None:
    parser = EcmaScriptParser()
    broken = parse("b.ts", "export function broken( {\n  return 1;\n}\n\nfunction fine() {}\n")
    assert broken.issues
    assert [s.name for s in broken.symbols] == ["fine"]
    jsx = parse("app.js", "export function App() { return <div onClick={() => go()} />; }\n")
    assert [s.name for s in jsx.symbols] == ["App"]
    assert not jsx.issues
    assert [c.callee for c in jsx.calls] == [("go",)]
    crlf = parse("w.ts", "/** Doc. */\r\nexport function w(): string {\r\n  return 'x';\r\n}\r\n")
    assert crlf.symbols[0].docstring == "Doc."
    assert crlf.symbols[0].end_line == 4
    assert parser.skip_reason("vendor.min.js", b"x") == "minified bundle (*.min.*)"
    assert "line of" in (parser.skip_reason("bundle.js", b"var a=" + b"1+" * 4000) or "")
    assert parser.skip_reason("ok.ts", b"export const a = 1;\n") is None
    declarations = parse("types.d.ts", "export declare function f(): void;\nf();\n")
    assert declarations.calls == ()
    assert [s.name for s in declarations.symbols] == ["f"]


def test_jsonc_and_package_names() -> None:
    assert parse_jsonc('// c\n{"a": [1, 2,], /* x */ "b": "//not a comment",}') == {
        "a": [1, 2],
        "b": "//not a comment",
    }
    with pytest.raises(ValueError, match="Expecting"):
        parse_jsonc("{ broken")
    assert package_name("lodash/fp") == "lodash"
    assert package_name("@scope/pkg/deep/x") == "@scope/pkg"
    assert package_name("node:fs/promises") == "fs"
    project = read_project(
        {
            "tsconfig.json": '{"extends": "./base.json", '
            '"compilerOptions": {"paths": {"@/*": ["src/*"]}}}',
            "base.json": '{"compilerOptions": {"baseUrl": "."}}',
            "pkg/package.json": '{"name": "@x/pkg", "main": "dist/index.js"}',
            "bad/tsconfig.json": "{ nope",
        }
    )
    config = project.configs[""]
    assert config.base_url == ""
    assert config.paths == (("@/*", ("src/*",)),)
    assert project.packages["@x/pkg"].folder == "pkg"
    assert list(project.issues) == ["bad/tsconfig.json"]


def test_the_mixed_fixture_links_without_a_database() -> None:
    """Offline linking (the accuracy benchmark's path) sees both languages and never links a
    Python call to a TypeScript function of the same name."""
    linked = link_repository(MIXED, repo="m")
    languages = {f.language for f in linked.parsed.values()}
    assert languages == {"python", "typescript", "javascript"}
    calls = {
        (e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.CALLS and not e.external
    }
    assert ("m:server.page_path", "m:utils.slugify") in calls
    assert ("m:web/index.ts.main", "m:./utils.ts.slugify") in calls
    assert not any(s.startswith("m:server") and "utils.ts" in t for s, t in calls)
    assert "packages/other/tsconfig.json" in linked.project_issues
    assert {s.path for s in linked.skipped} == {"web/vendor.min.js", "web/generated.js"}


def test_the_index_command_takes_a_language_list() -> None:
    import argparse

    from graphrag_code.cli.index_commands import _language_list

    assert _language_list("py,ts") == frozenset({"python", "typescript"})
    assert _language_list("javascript") == frozenset({"javascript"})
    with pytest.raises(argparse.ArgumentTypeError, match="unknown language"):
        _language_list("py,cobol")
