"""Plain CommonJS objects with methods (issue 50, studied on the tuning code base koa): the
functions of `module.exports = { … }` are the module's, and `this` inside them is the exported
object (or one made from it with `Object.create`), linked offline."""

from __future__ import annotations

from .linking_helpers import assert_calls


def test_this_in_a_function_of_the_exported_object_is_that_object() -> None:
    # koa's response.js: `module.exports = { set(field, val) {…}, get type() { this.get(…) } }`
    response = """module.exports = {
  get(field) { return field },
  set(field, val) { return this.get(field) },
  get type() { return this.get('Content-Type') },
  toJSON() { return {} },
  inspect() { return this.toJSON() },
};
"""
    assert_calls(
        {"response.js": response},
        ("./response.js.set", "./response.js.get", "exact"),
        ("./response.js.type", "./response.js.get", "exact"),
        ("./response.js.inspect", "./response.js.toJSON", "exact"),
    )


def test_this_in_a_chained_exports_object() -> None:
    # koa's context.js: `const proto = module.exports = { … }`
    context = """const proto = module.exports = {
  toJSON() { return {} },
  inspect() { return this.toJSON() },
};
"""
    assert_calls({"context.js": context}, ("./context.js.inspect", "./context.js.toJSON", "exact"))


def test_a_top_level_function_keeps_an_unknown_this() -> None:
    # (a function declaration's `this` is whatever its caller gives: only its name is known)
    source = """function header(field) { return field }
function handler() { return this.header('x') }
module.exports = { header, handler };
"""
    assert_calls({"plain.js": source}, ("./plain.js.handler", "./plain.js.header", "name"))


def test_functions_assigned_to_an_exported_object_are_its_methods() -> None:
    # express's style, as issue 50 describes it: `var app = exports = module.exports = {};
    # app.init = function () { this.set(…) }`
    application = """var app = exports = module.exports = {};
app.init = function init() { this.set('x', 1) };
app.set = function set(setting, val) { return this.settings(setting) };
app.settings = function (name) { return name };
"""
    assert_calls(
        {"application.js": application},
        ("./application.js.app.init", "./application.js.app.set", "exact"),
        ("./application.js.app.set", "./application.js.app.settings", "exact"),
    )


def test_functions_assigned_to_an_object_made_by_object_create_are_its_methods() -> None:
    # `var res = Object.create(http.ServerResponse.prototype); res.send = function send(body)`
    response = """var http = require('http');
var res = Object.create(http.ServerResponse.prototype);
module.exports = res;
res.header = function header(field, val) { return this };
res.send = function send(body) { this.header('Content-Type', 'text/html'); return this.end(body) };
"""
    assert_calls(
        {"response.js": response},
        ("./response.js.res.send", "./response.js.res.header", "exact"),
    )


def test_an_object_without_assigned_functions_stays_no_symbol() -> None:
    source = """var cache = Object.create(null);
var state = {};
state.count = 1;
function read(key) { return cache[key] }
module.exports = { read };
"""
    linked = assert_calls({"cache.js": source})
    names = {s.qualified_name for p in linked.repository.parsed.values() for s in p.symbols}
    assert names == {"./cache.js.read"}


def test_functions_assigned_to_a_name_of_the_exported_function_are_its_methods() -> None:
    # `var proto = module.exports = function (options) { … }; proto.handle = function handle`
    router = """var proto = module.exports = function (options) {
  function router(req, res, next) { router.handle(req, res, next) }
  return router;
};
proto.handle = function handle(req, res, out) { return this.process_params(req) };
proto.process_params = function process_params(req) { return req };
"""
    assert_calls(
        {"router.js": router},
        ("./router.js.default.handle", "./router.js.default.process_params", "exact"),
        ("./router.js.default.router", "./router.js.default.handle", "name"),
    )


def test_a_chained_member_assignment_is_an_alias_of_the_method() -> None:
    # express's response.js: `res.set = res.header = function header(field, val) { … }`
    response = """var res = Object.create(null);
module.exports = res;
res.set =
res.header = function header(field, val) { return this };
res.send = function send(body) { return this.set('Content-Type', 'x') };
res.contentType = res.type = function contentType(type) { return type };
res.json = function json(obj) { return this.contentType('j') };
"""
    assert_calls(
        {"response.js": response},
        ("./response.js.res.send", "./response.js.res.header", "inferred"),
        ("./response.js.res.json", "./response.js.res.type", "inferred"),
        exactly=False,
    )


def test_a_chain_across_objects_is_no_alias() -> None:
    # `other.m = res.m = function …`: other is no object of ours, so other's m stays unknown
    source = """var res = Object.create(null);
res.m = function m() { return 1 };
var other = {};
other.set = res.header = function header() { return 2 };
res.go = function go() { return this.set() };
"""
    linked = assert_calls({"r.js": source}, exactly=False)
    assert not {t for s, t in linked.calls() if s == "./r.js.res.go"} - {"./r.js.res.m"}
