"""TypeScript / JavaScript calls the checker resolves and the certain tiers used to miss (issue
50, found on the tuning code bases): TypeScript's CommonJS output `(0, mod_1.f)(…)`, a call in
a parameter's default value, `this` in a field initialiser or a computed-name method, linked
offline (a file at the root is module `./name.ts`)."""

from __future__ import annotations

from .linking_helpers import assert_calls, link_snippet

_UTIL_JS = "function nextId() { return 1 }\nexports.nextId = nextId\n"


def test_comma_call_of_an_import_is_the_imported_function() -> None:
    # tsc emits `(0, util_1.nextId)()` for `nextId()` of `import { nextId } from "./util"`: a
    # comma expression's value is its last operand
    user = """"use strict";
const util_1 = require("./util");
function make() { return (0, util_1.nextId)() }
function both() { return (util_1, make)() }
"""
    assert_calls(
        {"util.js": _UTIL_JS, "user.js": user},
        ("./user.js.make", "./util.js.nextId", "exact"),
        ("./user.js.both", "./user.js.make", "exact"),
    )


def test_a_default_value_reads_names_it_does_not_bind() -> None:
    # `name = nextId()` binds `name`; `nextId` is still the module's (it was taken for a
    # parameter, so the call went unresolved)
    atom = """import { nextId } from "./util"
export class Atom {
  constructor(public name: string = "Atom@" + nextId(), size?: number) {}
}
export function make(label = nextId(), { depth } = { depth: nextId() }) { return label }
"""
    util = "export function nextId(): number { return 1 }\n"
    assert_calls(
        {"util.ts": util, "atom.ts": atom},
        ("./atom.ts.Atom.constructor", "./util.ts.nextId", "exact"),
        ("./atom.ts.make", "./util.ts.nextId", "exact"),
    )


def test_a_parameter_still_shadows_a_module_function() -> None:
    source = """export function nextId(): number { return 1 }
export function run(nextId: () => number, other = nextId()) { return nextId() }
"""
    linked = link_snippet({"run.ts": source})
    assert ("./run.ts.run", "./run.ts.nextId") not in linked.calls()


def test_this_in_the_class_body_is_an_instance_of_the_class() -> None:
    # a field's initialiser and a computed-name method (no symbol of its own) run in the
    # class's scope, where `this` is the instance
    for path in ("map.ts", "map.js"):
        source = """export class Store {
  size = this.count()
  count() { return 0 }
  entries() { return [] }
  [Symbol.iterator]() { return this.entries() }
}
"""
        assert_calls(
            {path: source},
            (f"./{path}.Store", f"./{path}.Store.count", "exact"),
            (f"./{path}.Store", f"./{path}.Store.entries", "exact"),
        )


def test_attributes_of_a_constructor_function_and_exports_under_their_own_name() -> None:
    # ES5 style: `function Mocha() { this.suite = new exports.Suite() }` types `this.suite`
    # for the prototype's methods, and `exports.Suite = Suite` exports the imported Suite
    suite = """exports = module.exports = Suite;
function Suite(title) { this.title = title }
Suite.prototype.bail = function (bail) { return this }
"""
    mocha = """var Suite = require('./suite');
exports = module.exports = Mocha;
exports.Suite = Suite;
function Mocha(options) {
  this.suite = new exports.Suite('');
}
Mocha.prototype.bail = function (bail) {
  this.suite.bail(bail !== false);
  return this;
};
"""
    assert_calls(
        {"suite.js": suite, "mocha.js": mocha},
        ("./mocha.js.Mocha", "./suite.js.Suite", "exact"),
        ("./mocha.js.Mocha.bail", "./suite.js.Suite.bail", "inferred"),
    )


_OBS = "export class Obs {\n  run(): number { return 1 }\n}\n"


def test_elements_of_an_array_are_typed_by_its_declaration() -> None:
    # `#observers: Array<Obs>` types the callback's parameter of `forEach`, `map`, `find`…,
    # `for … of`, `xs[i]` and `xs.find(…)`, through fields, parameters and variables
    source = """import { Obs } from "./obs"
export class Q {
  #observers: Array<Obs> = []
  observers: Obs[]
  constructor(list: readonly Obs[]) { this.observers = []; list.forEach(o => o.run()) }
  each() { this.#observers.forEach((observer) => { observer.run() }) }
  mapped() { return this.observers.map(function (x) { return x.run() }) }
  loop() { for (const o of this.observers) { o.run() } }
  found() { const f = this.observers.find((x) => x.run() > 0); return f?.run() }
  first() { const local: Set<Obs> | undefined = new Set(); local.forEach((s) => s.run()) }
  indexed() { return this.observers[0].run() }
}
"""
    name = "./q.ts.Q"
    assert_calls(
        {"obs.ts": _OBS, "q.ts": source},
        (f"{name}.constructor", "./obs.ts.Obs.run", "inferred"),
        *(
            (f"{name}.{m}", "./obs.ts.Obs.run", "inferred")
            for m in ("each", "mapped", "loop", "found", "first", "indexed")
        ),
        exactly=False,
    )


def test_elements_of_what_a_method_returns_and_interface_properties() -> None:
    source = """import { Obs } from "./obs"
export interface Match { observer: Obs }
export class Q {
  getAll(): Array<Obs> { return [] }
  matches(): Match[] { return [] }
  all() { this.getAll().forEach((o) => o.run()) }
  each() { this.matches().forEach((m) => m.observer.run()) }
  other(q: Q) { for (const o of q.getAll()) { o.run() } }
}
"""
    assert_calls(
        {"obs.ts": _OBS, "q.ts": source},
        *((f"./q.ts.Q.{m}", "./obs.ts.Obs.run", "inferred") for m in ("all", "each", "other")),
        exactly=False,
    )


def test_jsdoc_arrays_type_their_elements() -> None:
    source = """class Suite { bail() {} }
/**
 * @param {Suite[]} suites
 * @returns {Array.<Suite>}
 */
function roots(suites) { suites[0].bail(); return suites }
function all() { roots([]).forEach(function (s) { s.bail() }) }
"""
    assert_calls(
        {"m.js": source},
        ("./m.js.roots", "./m.js.Suite.bail", "inferred"),
        ("./m.js.all", "./m.js.roots", "exact"),
        ("./m.js.all", "./m.js.Suite.bail", "inferred"),
    )


def test_jsdoc_set_apart_by_a_blank_line_still_types_parameters() -> None:
    # express's router/index.js: `/** … @param {Layer} layer … */`, a blank line, then
    # `function matchLayer(layer, path) { return layer.match(path) }`; the checker reads it so.
    # A file's leading comment set apart from the first statement is the file's overview.
    source = """/**
 * @param {Layer} first
 */

function lead(first) { first.match() }
function Layer() {}
Layer.prototype.match = function match() {}

/**
 * Match path to a layer.
 *
 * @param {Layer} layer
 */

function matchLayer(layer) { return layer.match() }
"""
    linked = assert_calls(
        {"m.js": source},
        ("./m.js.matchLayer", "./m.js.Layer.match", "inferred"),
        exactly=False,
    )
    assert linked.calls().get(("./m.js.lead", "./m.js.Layer.match"), ("",))[0] != "inferred"


def test_elements_of_unknown_collections_stay_unknown() -> None:
    # `this.props[key]()` of a class with an external base: no `React.Component.props[]`
    # edge; `fns[i]()` has no name for the name tier to match
    source = """import { Component } from "react"
export function handler() { return 1 }
export class View extends Component {
  press(key: string) { this.props[key]() }
  run(fns: Function[]) { fns[0]() }
}
"""
    linked = link_snippet({"view.ts": source})
    callees = {target for (source_, target) in linked.calls() if source_.startswith("./view")}
    assert not any("[]" in target for target in callees)
    assert "./view.ts.handler" not in callees


def test_functions_of_an_object_a_factory_returns_are_its_members() -> None:
    # `export const notifyManager = createNotifyManager()` then `notifyManager.batch(…)`:
    # the returned object's functions are symbols of the factory, and calling the factory
    # gives an object that has them (also for `() => ({ … })`)
    manager = """export function createNotifyManager() {
  const schedule = () => 1
  return {
    batch: <T>(callback: () => T): T => callback(),
    flush() { return this.batch(() => 1) },
    schedule,
  } as const
}
export const notifyManager = createNotifyManager()
export const make = () => ({ go: () => 2 })
"""
    user = """import { notifyManager, make } from "./manager"
export function run() { notifyManager.batch(() => 1); return make().go() }
"""
    factory = "./manager.ts.createNotifyManager"
    assert_calls(
        {"manager.ts": manager, "user.ts": user},
        ("./manager.ts", factory, "exact"),
        (f"{factory}.flush", f"{factory}.batch", "exact"),
        ("./user.ts.run", f"{factory}.batch", "inferred"),
        ("./user.ts.run", "./manager.ts.make", "exact"),
        ("./user.ts.run", "./manager.ts.make.go", "inferred"),
    )


def test_an_object_that_is_not_returned_makes_no_members() -> None:
    source = """export function setup() {
  register({ start: () => 1 })
  return 0
}
function register(options: object) { return options }
"""
    linked = link_snippet({"setup.ts": source})
    names = {s.qualified_name for p in linked.repository.parsed.values() for s in p.symbols}
    assert "./setup.ts.setup.start" not in names


def test_what_returns_this_or_new_x_returns() -> None:
    # chainable methods (`return this`) and factories (`return new Z()`, `() => new Z()`)
    # type what a call gives, in JavaScript as in TypeScript without an annotation
    source = """function Mocha() { this.grep("x").ui("y") }
Mocha.prototype.grep = function (g) { this.g = g; return this }
Mocha.prototype.ui = function (u) { if (u) { return this } return this }
class Z {
  min() { return new Z() }
  max() { return this }
  both() { return this.min().max() }
  mixed(flag) { if (flag) { return this } return null }
}
const make = () => new Z()
function user() { make().max() }
function other() { new Z().mixed(true).max() }
"""
    assert_calls(
        {"m.js": source},
        ("./m.js.Mocha", "./m.js.Mocha.grep", "exact"),
        ("./m.js.Mocha", "./m.js.Mocha.ui", "inferred"),
        ("./m.js.Z.min", "./m.js.Z", "exact"),
        ("./m.js.Z.both", "./m.js.Z.min", "exact"),
        ("./m.js.Z.both", "./m.js.Z.max", "inferred"),
        ("./m.js.make", "./m.js.Z", "exact"),
        ("./m.js.user", "./m.js.make", "exact"),
        ("./m.js.user", "./m.js.Z.max", "inferred"),
        ("./m.js.other", "./m.js.Z", "exact"),
        ("./m.js.other", "./m.js.Z.mixed", "inferred"),
        ("./m.js.other", "./m.js.Z.max", "name"),  # not certain: mixed may give null
    )


def test_an_arrow_function_sees_the_this_around_it() -> None:
    source = """function Runner() {}
Runner.prototype.runSuite = function () { return 1 }
Runner.prototype.run = function () {
  const begin = () => { this.runSuite() }
  return begin
}
export class Job {
  go() { return 1 }
  start() { const later = async () => this.go(); return later }
}
"""
    assert_calls(
        {"r.ts": source},
        ("./r.ts.Runner.run.begin", "./r.ts.Runner.runSuite", "exact"),
        ("./r.ts.Job.start.later", "./r.ts.Job.go", "exact"),
    )


def test_a_variable_holds_the_elements_of_what_it_was_given() -> None:
    # `xs = this.getAll()` (inherited, or an imported function): xs[i], its callbacks and
    # `for … of` see getAll's declared elements; `ys = xs.filter(…)` holds xs's elements
    obs = _OBS + "export function all(): Obs[] { return [] }\n"
    obs += "export class Base { getAll(): Obs[] { return [] } }\n"
    source = """import { Obs, all, Base } from "./obs"
let result: Obs[]
export class Q extends Base {
  a() { const xs = this.getAll(); xs.forEach((x) => x.run()) }
  b() { result = all(); return result[0].run() }
  c() { for (const o of all()) { o.run() } }
  d() { const ys = this.getAll().filter(Boolean); return ys[0].run() }
}
"""
    assert_calls(
        {"obs.ts": obs, "q.ts": source},
        *((f"./q.ts.Q.{m}", "./obs.ts.Obs.run", "inferred") for m in ("a", "b", "c", "d")),
        exactly=False,
    )


def test_a_named_class_a_function_returns_is_a_class() -> None:
    # a mixin: `return class Wrapped extends Base {…}` has fields and methods of its own
    source = """import { Obs } from "./obs"
export function wrap<T extends new (...a: any[]) => object>(Base: T) {
  return class Wrapped extends Base {
    obs: Obs = new Obs()
    go() { return this.obs.run() }
  }
}
"""
    assert_calls(
        {"obs.ts": _OBS, "wrap.ts": source},
        ("./wrap.ts.wrap.Wrapped", "./obs.ts.Obs", "exact"),
        ("./wrap.ts.wrap.Wrapped.go", "./obs.ts.Obs.run", "inferred"),
    )


def test_a_declared_this_parameter_types_this() -> None:
    source = """export type Annotation = {
  make_(key: string): number
  extend_(key: string): number
}
function make_(this: Annotation, key: string) {
  return this.extend_(key)
}
function plain(key: string) { return this.extend_(key) }
"""
    assert_calls(
        {"a.ts": source},
        ("./a.ts.make_", "./a.ts.Annotation.extend_", "inferred"),
    )


def test_an_array_literal_holds_its_items() -> None:
    source = """class Suite { beforeAll() {} }
/**
 * @param {Suite} suite Root suite.
 */
module.exports = function (suite) {
  var suites = [suite];
  function visit() { suites[0].beforeAll() }
  var mixed = [suite, other];
  function other() { mixed[0].beforeAll() }
  return visit
};
"""
    assert_calls(
        {"e.js": source},
        ("./e.js.default.visit", "./e.js.Suite.beforeAll", "inferred"),
        ("./e.js.default.other", "./e.js.Suite.beforeAll", "name"),  # two kinds of item
    )


def test_destructured_properties_of_what_a_call_returns() -> None:
    # tsc's output of zod: `_processInputParams` returns `{ status: new ParseStatus(), … }`
    # and `const { ctx, status } = this._processInputParams(input)` reads it; in TypeScript
    # the declared return type's property holds
    util = "class ParseStatus { dirty() {} }\nexports.ParseStatus = ParseStatus;\n"
    types = """const util_1 = require("./util");
class ZodType {
  _process(input) {
    return { status: new util_1.ParseStatus(), ctx: { data: input } };
  }
}
class ZodArray extends ZodType {
  _parse(input) {
    const { ctx, status } = this._process(input);
    status.dirty();
  }
}
"""
    typed = """class S { dirty() {} }
interface R { status: S }
function make(): R { return { status: new S() } }
export function use() { const { status: st } = make(); st.dirty() }
"""
    assert_calls(
        {"util.js": util, "types.js": types, "typed.ts": typed},
        ("./types.js.ZodArray._parse", "./util.js.ParseStatus.dirty", "inferred"),
        ("./typed.ts.use", "./typed.ts.S.dirty", "inferred"),
        exactly=False,
    )


def test_a_callback_parameter_is_what_the_callee_declares() -> None:
    # `nearest(handles, getOffset: (handle: Handle) => number)`: the arrow passed as its
    # second argument gets a Handle; an array method's callback keeps the array's elements
    source = """export class Handle { offset(): number { return 1 } }
export class Slider {
  nearest(handles: Handle[], getOffset: (handle: Handle) => number) { return 1 }
  run(hs: Handle[]) { return this.nearest(hs, handle => handle.offset()) }
}
export function each(cb?: ((h: Handle, i: number) => void) | undefined) {}
export function go() { each(function (h, i) { h.offset() }) }
export function untyped(cb: Function) {}
export function other() { untyped((h) => h.offset()) }
"""
    assert_calls(
        {"h.ts": source},
        ("./h.ts.Slider.run", "./h.ts.Slider.nearest", "exact"),
        ("./h.ts.Slider.run", "./h.ts.Handle.offset", "inferred"),
        ("./h.ts.go", "./h.ts.each", "exact"),
        ("./h.ts.go", "./h.ts.Handle.offset", "inferred"),
        ("./h.ts.other", "./h.ts.untyped", "exact"),
        ("./h.ts.other", "./h.ts.Handle.offset", "name"),  # nothing declared: not certain
    )


def test_a_nested_generator_returns_are_its_own() -> None:
    # `return this` in a nested `function*` is the generator's, not `make`'s: make gives a Z
    source = """class Z {
  max() { return 1 }
}
function make() {
  function* steps() { return this }
  return new Z()
}
function user() { make().max() }
"""
    assert_calls(
        {"m.js": source},
        ("./m.js.make", "./m.js.Z", "exact"),
        ("./m.js.user", "./m.js.make", "exact"),
        ("./m.js.user", "./m.js.Z.max", "inferred"),
        exactly=False,
    )
