"""Calls the TypeScript checker resolves and the certain tiers missed (issue 50, stop 64: found
on rxjs, @oclif/core, joi and commander, which tune for it): functions and objects of functions
assigned to `this.x` or to a member of a module's object, classes kept in such an object, tsc's
CommonJS re-exports and `await (0, m.f)(…)`, returns through a local `const`, and callbacks
passed to `new C(…)`."""

from __future__ import annotations

from .linking_helpers import assert_calls, link_snippet

_COMMAND = """class Command {
  constructor() {
    this._exitCallback = null;
    this._output = {
      writeErr: (str) => process.stderr.write(str),
      outputError: (str, write) => write(str),
    };
  }
  exitOverride(fn) {
    if (fn) {
      this._exitCallback = fn;
    } else {
      this._exitCallback = (err) => {
        throw err;
      };
    }
    return this;
  }
  _exit(code) {
    const exitCallback = this._exitCallback;
    exitCallback(code);
    this._output.outputError('y', this._output.writeErr);
  }
  error() { this._output.writeErr('x'); }
}
exports.Command = Command;
"""


def test_a_function_assigned_to_this_is_a_method_of_the_class() -> None:
    linked = assert_calls(
        {"lib/command.js": _COMMAND},
        # through the local `exitCallback`: value flow, so inferred
        ("lib/command.js.Command._exit", "lib/command.js.Command._exitCallback", "inferred"),
        ("lib/command.js.Command._exit", "lib/command.js.Command._output.outputError", "exact"),
        ("lib/command.js.Command.error", "lib/command.js.Command._output.writeErr", "exact"),
    )
    kinds = {
        s.qualified_name: s.declared_as for s in linked.repository.parsed["lib/command.js"].symbols
    }
    assert kinds["lib/command.js.Command._exitCallback"] == "arrow function"
    assert kinds["lib/command.js.Command._output"] == "object literal"


def test_this_of_a_nested_function_or_a_callback_gives_no_member() -> None:
    code = """function helper() { return 1 }
export function outer() { function inner() { this.z = () => helper() } return inner }
export function plain() { const o = { run() { this.x = () => helper() } }; return o }
export class C { m() { [1].forEach(function () { this.y = () => helper() }) } }
"""
    parsed = link_snippet({"a.ts": code}).repository.parsed["a.ts"]
    symbols = {s.qualified_name for s in parsed.symbols}
    assert "./a.ts.plain.o.x" in symbols  # an object literal's method: `this` is the object
    assert not any(name.endswith((".z", ".y")) for name in symbols)


def test_a_member_function_sees_the_locals_of_the_method_that_assigns_it() -> None:
    code = """function Runnable() {}
Runnable.prototype.run = function (fn) {
  function done(err) { return err; }
  this.finish = function () { done(); };
  this.out = { write: () => done() };
};
exports.Runnable = Runnable;
"""
    assert_calls(
        {"lib/r.js": code},
        ("lib/r.js.Runnable.finish", "lib/r.js.Runnable.run.done", "exact"),
        ("lib/r.js.Runnable.out.write", "lib/r.js.Runnable.run.done", "exact"),
    )


_MODIFY = """'use strict';
const internals = {};
exports.Ids = internals.Ids = class {
    reach(path) { return path; }
};
"""

_TEMPLATE = """'use strict';
const internals = {};
module.exports = exports = internals.Template = class {
    static isTemplate(t) { return !!t; }
    render() { return internals.wrap(this); }
};
internals.wrap = function (value) { return value; };
"""

_BASE = """'use strict';
const Modify = require('./modify');
const Template = require('./template');
const internals = {};
internals.Base = class {
    constructor() { this._reset(); }
    _reset() { this._ids = new Modify.Ids(); }
    reach(path) { return this._ids.reach(path); }
    isTemplate(t) { return Template.isTemplate(t); }
};
internals.methods = {
    assert(value) { return value; },
    extend(x) { this.assert(x); }
};
module.exports = new internals.Base();
"""


def test_classes_and_objects_of_functions_kept_in_a_module_object() -> None:
    assert_calls(
        {"lib/modify.js": _MODIFY, "lib/template.js": _TEMPLATE, "lib/base.js": _BASE},
        ("lib/base.js", "lib/base.js.internals.Base.constructor", "exact"),
        ("lib/base.js.internals.Base.constructor", "lib/base.js.internals.Base._reset", "exact"),
        ("lib/base.js.internals.Base.reach", "lib/modify.js.internals.Ids.reach", "inferred"),
        ("lib/base.js.internals.Base.isTemplate", "lib/template.js.internals.Template.isTemplate",
         "exact"),
        ("lib/base.js.internals.methods.extend", "lib/base.js.internals.methods.assert", "exact"),
        ("lib/template.js.internals.Template.render", "lib/template.js.internals.wrap", "exact"),
        exactly=False,
    )  # fmt: skip


_FS = """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readJson = readJson;
async function readJson(p) { return p; }
"""
_ERRORS = """"use strict";
var error_1 = require("./error");
Object.defineProperty(exports, "error", {
  enumerable: true, get: function () { return error_1.error; } });
"""
_PERFORMANCE = """"use strict";
class Marker {
  stop() { return 1; }
}
class Performance {
  static mark(owner) {
    if (!Performance.enabled)
      return;
    const marker = new Marker(owner);
    return marker;
  }
}
exports.Performance = Performance;
"""
_USER = """"use strict";
const fs_1 = require("./fs");
const errors_1 = require("./errors");
const performance_1 = require("./performance");
async function load(p) {
  const marker = performance_1.Performance.mark("x");
  if (await (0, fs_1.readJson)(p)) { (0, errors_1.error)("found"); }
  marker?.stop();
}
exports.load = load;
"""


def test_tsc_commonjs_reexports_awaited_calls_and_returned_constants() -> None:
    linked = assert_calls(
        {
            "lib/fs.js": _FS,
            "lib/error.js": '"use strict";\nexports.error = error;\nfunction error(m) {}\n',
            "lib/errors.js": _ERRORS,
            "lib/performance.js": _PERFORMANCE,
            "lib/user.js": _USER,
        },
        ("lib/user.js.load", "lib/fs.js.readJson", "exact"),
        ("lib/user.js.load", "lib/error.js.error", "exact"),
        ("lib/user.js.load", "lib/performance.js.Performance.mark", "exact"),
        ("lib/user.js.load", "lib/performance.js.Marker.stop", "inferred"),
        exactly=False,
    )
    # `await (x)` read by the grammar as a call of `await` is no call site
    assert ("await",) not in linked.unresolved_names("lib/user.js.load")


def test_a_callback_passed_to_new_takes_the_constructor_s_parameter_types() -> None:
    observable = """import { Subscriber } from './subscriber';
export class Observable<T> {
  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}
}
export class Derived<T> extends Observable<T> {}
"""
    user = """import { Observable, Derived } from './observable';
export const isArrayLike = (<T>(x: any): x is ArrayLike<T> => x && typeof x.length === 'number');
export function range(n: number) {
  if (isArrayLike(n)) { return null }
  return new Observable<number>((subscriber) => subscriber.next(n));
}
export function derived() { return new Derived<number>((s) => s.complete()) }
"""
    subscriber = "export class Subscriber<T> {\n  next(v: T): void {}\n  complete(): void {}\n}\n"
    assert_calls(
        {"subscriber.ts": subscriber, "observable.ts": observable, "user.ts": user},
        ("./user.ts.range", "./subscriber.ts.Subscriber.next", "inferred"),
        ("./user.ts.range", "./user.ts.isArrayLike", "exact"),
        ("./user.ts.derived", "./subscriber.ts.Subscriber.complete", "inferred"),
        exactly=False,
    )


def test_a_declared_field_stays_the_declaration() -> None:
    code = """export class Command {
  debug: (message: string) => void
  constructor(quiet: boolean) {
    if (quiet) { this.debug = makeDebug() } else { this.debug = () => {} }
  }
  init(): void { this.debug("init") }
}
function makeDebug() { return (message: string) => {} }
"""
    symbols = {
        s.qualified_name for s in link_snippet({"a.ts": code}).repository.parsed["a.ts"].symbols
    }
    assert "./a.ts.Command.debug" not in symbols


def test_elements_made_by_one_class_and_callbacks_in_a_conditional() -> None:
    subject = "export class Subject<T> {\n  next(v: T): void {}\n  complete(): void {}\n}\n"
    observable = """import { Subject } from './subject';
export class Observable<T> {
  constructor(subscribe?: (subscriber: Subject<T>) => void) {}
}
"""
    user = """import { Subject } from './subject';
import { Observable } from './observable';
export function windows(v: number) {
  let windows = [new Subject<number>()];
  for (const window of windows) { window.next(v) }
}
export function range(sync: boolean) {
  return new Observable<number>(sync ? (s) => s.next(1) : (s) => s.complete());
}
"""
    assert_calls(
        {"subject.ts": subject, "observable.ts": observable, "user.ts": user},
        ("./user.ts.windows", "./subject.ts.Subject.next", "inferred"),
        ("./user.ts.range", "./subject.ts.Subject.next", "inferred"),
        ("./user.ts.range", "./subject.ts.Subject.complete", "inferred"),
        exactly=False,
    )


def test_a_second_definition_of_a_name_sees_its_own_surroundings() -> None:
    code = """function Runnable() {}
Runnable.prototype.skip = function () { throw new Error('sync'); };
Runnable.prototype.run = function (fn) {
  function done(err) { return err; }
  this.skip = function asyncSkip() {
    done();
  };
};
exports.Runnable = Runnable;
"""
    assert_calls(
        {"lib/r.js": code},
        ("lib/r.js.Runnable.skip", "lib/r.js.Runnable.run.done", "exact"),
    )
