"""TypeScript / JavaScript `#private` members resolve like `private` ones: fields (typed,
initialised, assigned in the constructor), methods, accessors and static members, in .ts and
.js, linked offline (a file at the root is module `./name.ts`). A private name is lexical
(`obj.#x` is the `#x` of the class around the code), and `#x` and `x` are two members."""

from __future__ import annotations

from .linking_helpers import assert_calls

_CACHE = "export class Cache {\n  build(): number { return 1 }\n}\n"
_CACHE_JS = "export class Cache {\n  build() { return 1 }\n}\n"


def test_private_fields_are_typed_like_private_ones() -> None:
    client = """import { Cache } from "./cache"
export class Client {
  #typed: Cache
  private plain: Cache
  #made = new Cache()
  #assigned
  constructor() {
    this.#typed = new Cache()
    this.plain = new Cache()
    this.#assigned = new Cache()
  }
  typed() { return this.#typed.build() }
  plain_() { return this.plain.build() }
  made() { return this.#made.build() }
  assigned() { return this.#assigned.build() }
  alias() { const cache = this.#typed; return cache.build() }
}
"""
    constructor = "./client.ts.Client.constructor"
    assert_calls(
        {"cache.ts": _CACHE, "client.ts": client},
        ("./client.ts.Client", "./cache.ts.Cache"),  # the field initialiser's `new`
        (constructor, "./cache.ts.Cache"),
        ("./client.ts.Client.typed", "./cache.ts.Cache.build", "inferred"),
        ("./client.ts.Client.plain_", "./cache.ts.Cache.build", "inferred"),
        ("./client.ts.Client.made", "./cache.ts.Cache.build", "inferred"),
        ("./client.ts.Client.assigned", "./cache.ts.Cache.build", "inferred"),
        ("./client.ts.Client.alias", "./cache.ts.Cache.build", "inferred"),
    )


def test_private_fields_in_javascript() -> None:
    client = """import { Cache } from "./cache.js"
export class Client {
  #made = new Cache()
  #assigned
  constructor() { this.#assigned = new Cache() }
  made() { return this.#made.build() }
  assigned() { return this.#assigned.build() }
}
"""
    assert_calls(
        {"cache.js": _CACHE_JS, "client.js": client},
        ("./client.js.Client", "./cache.js.Cache"),
        ("./client.js.Client.constructor", "./cache.js.Cache"),
        ("./client.js.Client.made", "./cache.js.Cache.build", "inferred"),
        ("./client.js.Client.assigned", "./cache.js.Cache.build", "inferred"),
    )


def test_private_methods_are_reached_whatever_the_receiver() -> None:
    # `other.#check()` needs no type: #check can only be this class's (a private name is
    # lexical), so the edge is exact even on an untyped parameter or in a nested function
    for path in ("job.ts", "job.js"):
        job = """export class Job {
  #check() { return 1 }
  run() { return this.#check() }
  compare(other) { return other.#check() }
  later() { const done = () => this.#check(); return done }
}
"""
        name = f"./{path}.Job"
        assert_calls(
            {path: job},
            (f"{name}.run", f"{name}.#check", "exact"),
            (f"{name}.compare", f"{name}.#check", "exact"),
            (f"{name}.later.done", f"{name}.#check", "exact"),
        )


def test_private_accessors_give_what_they_return() -> None:
    holder = """import { Cache } from "./cache"
export class Holder {
  get #current(): Cache { return new Cache() }
  set #current(value: Cache) {}
  use() { return this.#current.build() }
  peek(other) { return other.#current.build() }
}
"""
    assert_calls(
        {"cache.ts": _CACHE, "holder.ts": holder},
        ("./holder.ts.Holder.#current", "./cache.ts.Cache"),
        ("./holder.ts.Holder.use", "./cache.ts.Cache.build", "inferred"),
        ("./holder.ts.Holder.peek", "./cache.ts.Cache.build", "inferred"),  # through the getter
    )


def test_static_private_members() -> None:
    pool = """import { Cache } from "./cache"
export class Pool {
  static #shared = new Cache()
  static #create() { return 1 }
  static make() { return Pool.#create() }
  build() { return Pool.#shared.build() }
}
"""
    for suffix, cache in ((".ts", _CACHE), (".js", _CACHE_JS)):
        name = f"./pool{suffix}.Pool"
        assert_calls(
            {f"cache{suffix}": cache, f"pool{suffix}": pool},
            (name, f"./cache{suffix}.Cache"),
            (f"{name}.make", f"{name}.#create", "exact"),
            (f"{name}.build", f"./cache{suffix}.Cache.build", "inferred"),
        )


def test_a_private_name_and_a_public_one_are_two_members() -> None:
    box = """import { Cache } from "./cache"
export class Other {
  run(): void {}
}
export class Box {
  #store: Cache
  get store(): Other { return new Other() }
  a() { return this.#store.build() }
  b() { return this.store.run() }
}
"""
    assert_calls(
        {"cache.ts": _CACHE, "box.ts": box},
        ("./box.ts.Box.store", "./box.ts.Other"),
        ("./box.ts.Box.a", "./cache.ts.Cache.build", "inferred"),
        ("./box.ts.Box.b", "./box.ts.Other.run", "inferred"),
    )


def test_the_innermost_class_that_declares_a_private_name_owns_it() -> None:
    nested = """export class Outer {
  #tick() { return 1 }
  #tock() { return 2 }
  make() {
    class Inner {
      #tick() { return 3 }
      go(outer: Outer) { this.#tick(); outer.#tock() }
    }
    return Inner
  }
}
export class Base {
  #tick() { return 4 }
}
export class Derived extends Base {
  #tick() { return 5 }
  go() { return this.#tick() }
}
"""
    inner = "./nested.ts.Outer.make.Inner"
    assert_calls(
        {"nested.ts": nested},
        (f"{inner}.go", f"{inner}.#tick", "exact"),
        (f"{inner}.go", "./nested.ts.Outer.#tock", "exact"),
        ("./nested.ts.Derived.go", "./nested.ts.Derived.#tick", "exact"),
    )


def test_an_anonymous_class_reaches_its_own_private_members() -> None:
    # an anonymous class's members belong to the function around it
    code = """export class Other {
  #run() { return 1 }
}
export function setup(register) {
  register(class {
    #run() { return 2 }
    go() { return this.#run() }
    again(other) { return other.#run() }
  })
}
"""
    assert_calls(
        {"setup.js": code},
        ("./setup.js.setup.go", "./setup.js.setup.#run", "exact"),
        ("./setup.js.setup.again", "./setup.js.setup.#run", "exact"),
    )


def test_no_edge_by_name_to_another_class_private_member() -> None:
    # `this.#handler()` calls a function held in a field: another class's `#handler` method,
    # however unique its name, is out of that code's reach
    code = """type Handler = () => void
export class Other {
  #handler() { return 1 }
}
export class Emitter {
  #handler: Handler
  constructor(handler: Handler) { this.#handler = handler }
  emit() { this.#handler() }
}
"""
    assert_calls({"emitter.ts": code})


def test_private_in_checks_change_no_edge() -> None:
    code = """import { Cache } from "./cache"
export class Brand {
  #cache = new Cache()
  static is(value: object): boolean { return #cache in value }
  use(value: object) { if (#cache in value) { this.#cache.build() } }
}
"""
    linked = assert_calls(
        {"cache.ts": _CACHE, "brand.ts": code},
        ("./brand.ts.Brand", "./cache.ts.Cache"),
        ("./brand.ts.Brand.use", "./cache.ts.Cache.build", "inferred"),
    )
    assert not linked.repository.parsed["brand.ts"].issues


def test_a_declared_type_holds_over_what_is_assigned() -> None:
    # query-core's `#cache: QueryCache` then `this.#cache = config.cache` (a value of no known
    # type): the checker types the field by its declaration, whatever is assigned to it
    code = """import { Cache } from "./cache"
interface Config { cache: Cache }
export class Query {
  #cache: Cache
  private plain: Cache
  constructor(config: Config) {
    this.#cache = config.cache
    this.plain = config.cache
  }
  a() { return this.#cache.build() }
  b() { return this.plain.build() }
}
"""
    assert_calls(
        {"cache.ts": _CACHE, "query.ts": code},
        ("./query.ts.Query.a", "./cache.ts.Cache.build", "inferred"),
        ("./query.ts.Query.b", "./cache.ts.Cache.build", "inferred"),
    )
