"""The async dialect's op definitions (upstream AsyncOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare(
        "async.execute",
        "Runs a region asynchronously; returns a completion token and one !async.value per yielded value.",
        traits="recursive_effects single_block",
        implicit_terminator="async.yield",
        syntax="%t, %v = async.execute [%dep] (%a as %x: !async.value<T>) -> !async.value<R> { ... async.yield %r : R }",
    ),
    declare("async.yield", "Ends an async.execute region with its values.", traits="region_return return_like terminator", syntax="async.yield [%v : T]"),
    declare("async.await", "Blocks until a token or value is ready; yields the value's payload.", syntax="[%r =] async.await %v : !async.value<T>"),
    declare("async.create_group", "Creates a group of a given size for tokens and values.", syntax="%g = async.create_group %size : !async.group"),
    declare("async.add_to_group", "Adds a token or value to a group; returns its rank.", syntax="%i = async.add_to_group %t, %g : !async.token"),
    declare("async.await_all", "Blocks until every member of a group is ready.", syntax="async.await_all %g"),
    declare(
        "async.func",
        "A function that runs asynchronously and returns tokens or values.",
        traits="function isolated symbol",
        default_dialect="async",
        syntax="async.func @f(%a: T) -> !async.value<R> { ... }",
    ),
    declare("async.return", "Returns from an async.func.", traits="region_return return_like terminator", syntax="async.return [%v : T]"),
    declare("async.call", "Calls an async.func.", syntax="%r = async.call @f(%a) : (T) -> !async.value<R>"),
    declare("async.coro.begin", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.coro.end", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.coro.free", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.coro.id", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.coro.save", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.coro.suspend", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.add_ref", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.add_to_group", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.await", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.await_and_resume", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.create", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.create_group", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.drop_ref", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.is_error", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.load", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.num_worker_threads", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.resume", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.set_available", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.set_error", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
    declare("async.runtime.store", "An async runtime or coroutine operation (produced by async-to-async-runtime)."),
)
