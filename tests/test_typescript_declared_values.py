"""Names the TypeScript checker types and the certain tiers used to miss (issue 50, found on
ajv and commander, which moved to the tuning set for it): properties taken apart by an object
pattern (`const { gen } = cxt`, `function f({ gen }: Cxt)`), JavaScript's JSDoc `@type` on a
declaration or a `this.x =` assignment, and an element read by index (`xs[0]`)."""

from __future__ import annotations

from .linking_helpers import assert_calls, link_snippet

_GEN = """export class CodeGen {
  name(prefix: string): string { return prefix }
  assign(lhs: string): CodeGen { return this }
}
"""

_CXT = """import { CodeGen } from "./gen"
export interface ErrCxt { gen: CodeGen; keyword: string }
export class KeywordCxt {
  readonly gen: CodeGen
  constructor(gen: CodeGen) { this.gen = gen }
}
"""


def test_a_typed_parameter_pattern_types_each_name() -> None:
    user = """import { ErrCxt, KeywordCxt } from "./cxt"
export function extend({ gen, keyword }: ErrCxt): void { gen.name(keyword) }
export function renamed({ gen: g }: KeywordCxt, { gen }: ErrCxt = dflt()): void {
  g.assign("x"); gen.name("y")
}
export const arrow = ({ gen }: ErrCxt) => gen.assign("z")
"""
    assert_calls(
        {"gen.ts": _GEN, "cxt.ts": _CXT, "user.ts": user},
        ("./user.ts.extend", "./gen.ts.CodeGen.name", "inferred"),
        ("./user.ts.renamed", "./gen.ts.CodeGen.assign", "inferred"),
        ("./user.ts.renamed", "./gen.ts.CodeGen.name", "inferred"),
        ("./user.ts.arrow", "./gen.ts.CodeGen.assign", "inferred"),
    )


def test_a_pattern_takes_the_properties_of_a_name() -> None:
    user = """import { ErrCxt, KeywordCxt } from "./cxt"
export function local(cxt: KeywordCxt): void { const { gen } = cxt; gen.assign("y") }
export function renamed(it: { cxt: ErrCxt }): void { const { gen: g } = it.cxt; g.name("y") }
"""
    calls = link_snippet({"gen.ts": _GEN, "cxt.ts": _CXT, "user.ts": user}).calls()
    assert calls[("./user.ts.local", "./gen.ts.CodeGen.assign")][0] == "inferred"
    # an inline object type names no class: `it.cxt` is unknown, and so is `g`
    assert calls.get(("./user.ts.renamed", "./gen.ts.CodeGen.name"), (None,))[0] != "inferred"


def test_an_untyped_parameter_pattern_stays_unknown() -> None:
    user = """export function f({ gen }) { return gen.assign("x") }
export function g({ gen }: any) { return gen.assign("x") }
"""
    calls = link_snippet({"gen.ts": _GEN, "user.ts": user}).calls()
    assert calls.get(("./user.ts.f", "./gen.ts.CodeGen.assign"), (None,))[0] != "inferred"
    assert calls.get(("./user.ts.g", "./gen.ts.CodeGen.assign"), (None,))[0] != "inferred"


_OPTION_JS = "class Option {\n  attributeName() { return 'x' }\n}\nexports.Option = Option;\n"


def test_jsdoc_type_declares_a_field_a_variable_and_elements() -> None:
    command = """const { Option } = require('./option.js');
class Command {
  constructor() {
    /** @type {Option[]} */
    this.options = [];
    /** @type {(Option | null | undefined)} */
    this._helpOption = undefined;
  }
  names() { return this.options.map((o) => o.attributeName()) }
  first() { const o = this.options[0]; return o.attributeName() }
  help() { return this._helpOption.attributeName() }
  local() {
    /** @type {Option} */
    let found = undefined;
    return found.attributeName();
  }
}
exports.Command = Command;
"""
    target = "./option.js.Option.attributeName"
    assert_calls(
        {"option.js": _OPTION_JS, "command.js": command},
        *(
            (f"./command.js.Command.{m}", target, "inferred")
            for m in ("names", "first", "help", "local")
        ),
    )


def test_jsdoc_type_is_javascript_only_and_one_name_only() -> None:
    # TypeScript ignores JSDoc types; `let a, b` under one `@type` types neither
    option = "export class Option {\n  attributeName() { return 'x' }\n}\n"
    user = """import { Option } from "./option"
export function ts() {
  /** @type {Option} */
  let found: any = undefined;
  return found.attributeName();
}
"""
    js = """const { Option } = require('./option.js');
function two() {
  /** @type {Option} */
  let a = undefined, b = undefined;
  return b.attributeName();
}
exports.two = two;
"""
    calls = link_snippet({"option.ts": option, "user.ts": user}).calls()
    assert calls.get(("./user.ts.ts", "./option.ts.Option.attributeName"), (None,))[0] != (
        "inferred"
    )
    calls = link_snippet({"option.js": _OPTION_JS, "two.js": js}).calls()
    assert calls.get(("./two.js.two", "./option.js.Option.attributeName"), (None,))[0] != (
        "inferred"
    )


def test_a_typedef_of_an_import_type_names_the_other_modules_class() -> None:
    # commander's help.js: `@typedef {import("./command.js").Command} Command`, then
    # `@param {Command} cmd`; no import runs, so no IMPORTS edge
    command = "class Command {\n  description() { return 'd' }\n}\nexports.Command = Command;\n"
    help_js = """/**
 * @typedef { import("./command.js").Command } Command
 * @typedef {import('./missing.js').Gone} Gone
 */
class Help {
  /** @param {Command} cmd */
  describe(cmd) { return cmd.description() }
  /** @param {Gone} gone */
  lost(gone) { return gone.description() }
}
exports.Help = Help;
"""
    linked = link_snippet({"command.js": command, "help.js": help_js})
    calls = linked.calls()
    assert calls[("./help.js.Help.describe", "./command.js.Command.description")][0] == "inferred"
    assert calls.get(("./help.js.Help.lost", "./command.js.Command.description"), (None,))[0] != (
        "inferred"
    )
    assert not [e for e in linked.repository.edges() if e.kind.value == "IMPORTS"]
