"""Named hooks filed in a table by a decorator (custom directives, type inference): each name once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Hook = TypeVar("Hook", bound=Callable[..., object])


def filed_under(table: dict[str, Hook], name: str, what: str) -> Callable[[Hook], Hook]:
    """A decorator filing its function as `table[name]`; `what` names it when the name is filed twice (a programming error)."""

    def wrap(fn: Hook) -> Hook:
        if name in table:
            raise ValueError(f"{what} registered twice")
        table[name] = fn
        return fn

    return wrap
