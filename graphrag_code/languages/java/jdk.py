"""The direct supertypes of the JDK types the repository's classes most often extend or
implement, so that a call on a `Map` reaches a class that extends `AbstractMap` (`dispatch`).

The JDK's own class files are not read (no JDK is needed to index), so this is a fixed table:
collections, iterators, I/O streams and the common exceptions — the types whose methods
(`put`, `add`, `iterator`, `write`, `close`, `getMessage`) a repository overrides. A type
missing here only loses `dispatch` edges through its supertypes, never adds a wrong one.
"""

from __future__ import annotations

__all__ = ["JDK_SUPERTYPES"]

_UTIL = "java.util."
_IO = "java.io."
_LANG = "java.lang."

JDK_SUPERTYPES: dict[str, tuple[str, ...]] = {
    _UTIL + "Collection": (_LANG + "Iterable",),
    _UTIL + "List": (_UTIL + "Collection",),
    _UTIL + "Set": (_UTIL + "Collection",),
    _UTIL + "SortedSet": (_UTIL + "Set",),
    _UTIL + "NavigableSet": (_UTIL + "SortedSet",),
    _UTIL + "Queue": (_UTIL + "Collection",),
    _UTIL + "Deque": (_UTIL + "Queue",),
    _UTIL + "SortedMap": (_UTIL + "Map",),
    _UTIL + "NavigableMap": (_UTIL + "SortedMap",),
    _UTIL + "ListIterator": (_UTIL + "Iterator",),
    _UTIL + "AbstractCollection": (_UTIL + "Collection",),
    _UTIL + "AbstractList": (_UTIL + "AbstractCollection", _UTIL + "List"),
    _UTIL + "AbstractSequentialList": (_UTIL + "AbstractList",),
    _UTIL + "AbstractSet": (_UTIL + "AbstractCollection", _UTIL + "Set"),
    _UTIL + "AbstractQueue": (_UTIL + "AbstractCollection", _UTIL + "Queue"),
    _UTIL + "AbstractMap": (_UTIL + "Map",),
    _UTIL + "ArrayList": (_UTIL + "AbstractList",),
    _UTIL + "LinkedList": (_UTIL + "AbstractSequentialList", _UTIL + "Deque"),
    _UTIL + "HashSet": (_UTIL + "AbstractSet",),
    _UTIL + "LinkedHashSet": (_UTIL + "HashSet",),
    _UTIL + "TreeSet": (_UTIL + "AbstractSet", _UTIL + "NavigableSet"),
    _UTIL + "HashMap": (_UTIL + "AbstractMap",),
    _UTIL + "LinkedHashMap": (_UTIL + "HashMap",),
    _UTIL + "TreeMap": (_UTIL + "AbstractMap", _UTIL + "NavigableMap"),
    _IO + "Closeable": (_LANG + "AutoCloseable",),
    _IO + "Writer": (_LANG + "Appendable", _IO + "Closeable", _IO + "Flushable"),
    _IO + "Reader": (_LANG + "Readable", _IO + "Closeable"),
    _IO + "InputStream": (_IO + "Closeable",),
    _IO + "OutputStream": (_IO + "Closeable", _IO + "Flushable"),
    _IO + "FilterWriter": (_IO + "Writer",),
    _IO + "FilterReader": (_IO + "Reader",),
    _IO + "FilterInputStream": (_IO + "InputStream",),
    _IO + "FilterOutputStream": (_IO + "OutputStream",),
    _LANG + "Exception": (_LANG + "Throwable",),
    _LANG + "Error": (_LANG + "Throwable",),
    _LANG + "RuntimeException": (_LANG + "Exception",),
    _LANG + "IllegalArgumentException": (_LANG + "RuntimeException",),
    _LANG + "IllegalStateException": (_LANG + "RuntimeException",),
    _LANG + "UnsupportedOperationException": (_LANG + "RuntimeException",),
    _IO + "IOException": (_LANG + "Exception",),
}
"""A JDK type's qualified name -> the JDK types it directly extends or implements."""
