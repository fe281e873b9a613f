"""The base class of every attribute, below both types (which hold attributes) and attributes (which hold types)."""

from __future__ import annotations


class Attribute:
    """Base class of every attribute; subclasses are frozen dataclasses."""

    __slots__ = ()
