"""What a language tells the repository's lookup tables about its own definitions.

The tables are the core's (`index.RepositoryIndex`); which symbols are properties, accessors
or overload stubs, where a descriptor may stand and under which buckets a function's
signature is filed are each language's rules. A `Language` record carries its `IndexRules`;
whoever builds an index hands it the rules by language name.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model import ParsedFile, Signature, Symbol

__all__ = ["PLAIN_RULES", "IndexRules", "RulesByLanguage"]


class IndexRules:
    """The rules of a language without these notions (the default): no properties, accessors,
    overload stubs, descriptors or signature buckets. A language overrides what it has."""

    def is_property(self, symbol: Symbol) -> bool:
        """A method an attribute read runs (its getter)."""
        return False

    def accessor(self, symbol: Symbol) -> str | None:
        """The accessor ("setter", "deleter") a later definition of a property is."""
        return None

    def is_overload(self, symbol: Symbol) -> bool:
        """A definition that only declares one signature of a function defined again."""
        return False

    def descriptor_attributes(self, parsed: ParsedFile) -> list[str]:
        """The names class bodies of a file assign something whose reads may run code."""
        return []

    def signature_buckets(self, signature: Signature, symbol: Symbol | None) -> list[str]:
        """Where a function's signature is filed for matching callable types."""
        return []

    def offered_names(self, parsed: ParsedFile) -> list[str]:
        """The `names_consulted` keys of these rules a file answers to (one per property,
        descriptor or filed signature: a count that changes relinks the files that asked)."""
        return []


PLAIN_RULES = IndexRules()

RulesByLanguage = Mapping[str, IndexRules]
"""A language's name (`ParsedFile.language`) -> its rules; a language not named is plain."""
