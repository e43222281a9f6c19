"""Registries of things declared in code and keyed by a stable code (register kinds, custody
domains, incident categories): an app declares its entries when it is ready."""

from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar


class Coded(Protocol):
    code: str


T = TypeVar("T", bound=Coded)


class CodeRegistry(Generic[T]):
    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[str, T] = {}

    def declare(self, item: T) -> T:
        """Declare ``item``; declaring the same item again is harmless, another with its code is not."""
        existing = self._items.get(item.code)
        if existing is not None and existing != item:
            raise ValueError(f"{self.what} {item.code!r} declared twice")
        self._items[item.code] = item
        return item

    def get(self, code: str) -> T:
        return self._items[code]

    def __iter__(self) -> Iterator[T]:
        """In order of their codes."""
        return iter(sorted(self._items.values(), key=lambda item: item.code))
