"""The `name` tier of TypeScript / JavaScript calls (issue 50: a possible tier must earn its
place): a call nothing else resolved goes to the repository's only callable of its name, except
where the checker, on the tuning code bases, showed that namesake to be the wrong one. Linked
offline (a file at the root is module `./name.ts`)."""

from __future__ import annotations

from .linking_helpers import assert_calls


def test_an_unresolved_call_on_an_unknown_receiver_is_matched_by_name() -> None:
    source = """export class Producer { writeEpilogue() {} }
export function report(self: any) { self.producer.writeEpilogue() }
"""
    assert_calls({"p.ts": source}, ("./p.ts.report", "./p.ts.Producer.writeEpilogue", "name"))


def test_a_receiver_whose_type_lacks_the_member_is_not_matched_by_name() -> None:
    # query-core: `this.#retryer.start()` with `#retryer: Retryer`, an interface whose `start`
    # is a property; the namesake is a function inside another function
    source = """export interface Retryer { start: () => number }
export function createRetryer(): Retryer {
  const start = () => 1
  return { start }
}
export class Query {
  #retryer: Retryer = createRetryer()
  fetch() { return this.#retryer.start() }
}
"""
    assert_calls({"q.ts": source}, ("./q.ts.Query", "./q.ts.createRetryer", "exact"))


def test_an_optional_callback_of_a_typed_options_object_is_not_matched_by_name() -> None:
    source = """export interface Options { onSuccess?: (data: number) => void }
export class Mutation {
  constructor(public options: Options) {}
  run() { this.options.onSuccess?.(1) }
}
export const handlers = { onSuccess(data: number) {} }
"""
    assert_calls({"m.ts": source})


def test_a_method_on_what_an_outside_function_returns_is_not_matched_by_name() -> None:
    # mocha: `yargs().scriptName("mocha")` is yargs' own method, not the repository's namesake
    source = """const yargs = require("yargs")
class Command { scriptName(name) { return name } }
function main() { yargs().scriptName("mocha") }
module.exports = { main, Command }
"""
    assert_calls({"cli.js": source})


def test_a_method_on_an_element_of_an_outside_collection_is_still_matched_by_name() -> None:
    # mobx: `this.hasMap_.get(key)?.setNewValue_(true)`: a Map's element may be ours
    source = """export class ObservableValue { setNewValue_(v: boolean) {} }
export class ObservableMap {
  hasMap_: Map<string, any> = new Map()
  has(key: string) { this.hasMap_.get(key)?.setNewValue_(true) }
}
"""
    assert_calls(
        {"o.ts": source},
        ("./o.ts.ObservableMap.has", "./o.ts.ObservableValue.setNewValue_", "name"),
    )


def test_a_built_in_method_on_a_call_result_is_not_matched_by_name() -> None:
    # mobx: `Object.getOwnPropertyNames(obj).concat(…)` is Array's concat
    source = """export class LegacyArray { concat(...items: any[]) { return [] } }
export function ownKeys(obj: object) { return Object.getOwnPropertyNames(obj).concat([]) }
export function both(a: Set<number>, b: any) { return b.union(a) }
"""
    assert_calls({"u.ts": source})


def test_this_of_a_constructor_function_is_still_matched_by_name() -> None:
    # mocha: `inherits(Hook, Runnable)` gives Hook members no declaration shows
    source = """function Runnable() {}
Runnable.prototype.currentRetry = function () { return 0 }
function Hook() { Runnable.call(this) }
require("util").inherits(Hook, Runnable)
Hook.prototype.serialize = function () { return this.currentRetry() }
module.exports = { Hook, Runnable }
"""
    assert_calls(
        {"hook.js": source},
        ("./hook.js.Hook.serialize", "./hook.js.Runnable.currentRetry", "name"),
    )


def test_library_code_is_not_matched_by_name_to_a_function_in_a_test_file() -> None:
    library = """export function execute(config: any) { return config.onSettled() }
"""
    test = """import { execute } from "../lib"
export function onSettled() { return 1 }
export function helper(config: any) { return config.onSettled() }
execute({ onSettled })
"""
    assert_calls(
        {"lib.ts": library, "__tests__/lib.test.ts": test},
        ("__tests__/lib.test.ts", "./lib.ts.execute", "exact"),
        ("__tests__/lib.test.ts.helper", "__tests__/lib.test.ts.onSettled", "name"),
    )


def test_a_getter_is_never_a_namesake() -> None:
    # koa: `delegate(proto, 'request').method('accepts')…`: request.js's `get method()` is an
    # accessor; calling `x.method()` calls what it gives, not it
    request = """module.exports = {
  get method() { return this.req.method },
  set method(val) { this.req.method = val },
};
"""
    context = """const delegate = require('delegates')
function setup(proto) { delegate(proto, 'request').method('accepts').method('is') }
module.exports = { setup }
"""
    assert_calls({"request.js": request, "context.js": context})
