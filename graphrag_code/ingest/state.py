"""What the last successful run of one repository left behind, for incremental runs.

Kept on local disk next to the launcher cache, keyed by server, database and repository, and
tied to the graph by a token stored on the `:Repository` node: if the graph was wiped or
written by another machine, the tokens differ and the next run is a full one.

On disk the per-file parts (parses, link results, node ids) are pickled one file at a time and
written one after the other, with a table of where each lies at the end (`StateStore._write`).
A state remembers where in its file each unchanged object came from: saving after a one-file
edit pickles that file again and copies the bytes of the others from the previous file (Django:
0.7 s -> under 0.1 s). Neither saving nor loading holds more than one file's bytes at a time:
homeassistant's 381 MB state held them all beside the objects while it was saved (+340 MB at
the indexer's peak). Call sites and implicit calls, PageRank's edge pairs and node statistics stay
pickled in memory: only the files linked again, or a run that ranks again, need them.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from ..linking.edges import FileLinks
from ..linking.flowkeys import bound_references, value_references
from ..linking.index import RepositoryIndex
from ..model import Block, CallSite, Dotted, Expr, ImplicitCall, ImplicitMode, ParsedFile
from ..parsing import ModuleName
from .generated import GeneratedBook
from .report import RepositorySummary

__all__ = [
    "EarlySave", "IndexState", "RawCall", "Spans", "StateStore", "TestsBook", "compact", "packed",
    "paused_gc", "unpacked", "with_calls",
]  # fmt: skip

# test_code, test_role, entry point reasons, a test's runner id (`TestUnit.runner`), and the
# ids of the cases a test method some class inherits runs as (`TestUnit.case`; else empty)
Role = tuple[bool, str | None, tuple[str, ...], str | None, tuple[str, ...]]
SeedIds = tuple[tuple[str, str, int], ...]  # (seed id, via, tier)


@dataclass(eq=False)
class TestsBook:
    """What the tests stage (`tests_stage.py`) keeps between runs.

    `roles`, `seeds`, `receivers` and `reach` (hundreds of thousands of small tuples in Django) are
    pickled as one blob each and left as bytes when a state is loaded: a run that changes
    nothing they depend on never unpickles them; `unpack()` restores them before use."""

    __test__ = False  # a record, not a pytest test class

    facts: dict[str, bytes] = field(default_factory=dict)  # path -> pickled (calls, inherits)
    adjacency: dict[str, bytes] = field(default_factory=dict)  # path -> pickled call graph part
    roles: dict[str, Role] = field(default_factory=dict)  # node id -> role (non-default only)
    seeds: dict[str, SeedIds] = field(default_factory=dict)  # test id -> its seeds
    # path -> calls on a function's parameters (`runner.invoke`): kept from the last parse
    receivers: dict[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    reach: dict[str, int] = field(default_factory=dict)  # node id -> best tier a test reaches it
    shapes: dict[str, str] = field(default_factory=dict)  # path -> what roles depend on
    tests: int = 0  # how many tests `seeds` holds
    reached: int = 0  # how many nodes `reach` holds

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for name in _LAZY:
            if not isinstance(data[name], bytes):
                data[name] = packed(data[name])
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TestsBook):
            return NotImplemented
        return self._plain() == other._plain()

    def _plain(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for name in _LAZY:
            if isinstance(data[name], bytes):
                data[name] = unpacked(data[name])
        return data

    def unpack(self) -> TestsBook:
        """This book with its pickled parts loaded (in place)."""
        for name in _LAZY:
            value = getattr(self, name)
            if isinstance(value, bytes):
                setattr(self, name, unpacked(value))
        return self


_LAZY = ("roles", "seeds", "receivers", "reach")
# bumped whenever the stored layout or what the parser extracts changes: an older state then
# means a full run (10: `with ... as x` bindings were paired with the wrong calls; 11: rank
# pairs kept apart from the links, node statistics pickled per file; 12: languages, project
# files, symbols' `declared_as` and `implements`; 13: value flow: flows, passes, implicit
# calls, call sites' positions and callee expressions, parameter kinds; 14: test roles and
# TESTS closures; 15: per-file edge digests; 16: `Self` returns, narrowing, declared element
# types, dispatch edges; 17: property accesses, unary operators, f-strings, `del x[k]` as
# implicit calls; 18: the reach graph (REACHES edges, `test_reach`) replaces TESTS closures;
# 19: module nodes carry their file's whole text, `file_text`, for file-level search; 20:
# parsed files carry annotated signatures, CALLS tier `signature`; 21: what a file consulted
# kept as hashes, `ConsultedKeys`; 22: per-file bytes written in sequence with a table of
# offsets at the end, `_MAGIC`; 23: truth tests and comprehensions' iteration as implicit
# calls, annotations of parameters with defaults as declared types; 25: block entries say
# which `if` / `match` arms end in `return` or `raise`; 28: stores into attributes through
# variables consulted by name, `STORE_KEY`; 29: parameters declared as abstract protocols
# (`<protocol>` flows), spawning calls filed as the calls they make, `X | None` union types,
# names used as values consulted by name, `VALUE_KEY`; 30: implicit calls kept pickled with
# the call sites, parses carry the names they use as values; 31: the run's summary of the
# repository, `RepositorySummary`; 32: pickled records moved with the language folders,
# `linking.edges.FileLinks`, `parsing.base.ModuleName`); 33: Python value-flow expressions
# as typed records (`model.Name`, `model.Call`, ...), not tagged tuples); 34: `if x is None:`
# arms as `("<none>", x)` flows; 35: the code that runs only when a parameter is or is not
# None as `("<is None>", p)` / `("<is not None>", p)` flows, in place of 34's; 36: whether
# the run read generated files, `include_generated`, and its walk's verdicts, `generated`;
# parses carry their `bound_references`)
_FORMAT = 36
# the formats read: 35 differs only by lacking `include_generated`, read as False (what its
# runs did unless asked otherwise), `generated` (None: every file's verdict made anew) and
# its parses' `bound_references` (None: worked out as needed)
_READ_FORMATS = frozenset({35, _FORMAT})
_MAGIC = b"graphrag-code state\n"  # then the table's offset, 8 bytes little-endian
# the per-file fields pickled one file at a time on disk (see `StateStore._write`)
_PER_FILE = ("parsed", "links", "node_ids")


@dataclass
class IndexState:
    repo: str
    token: str
    files: dict[str, str] = field(default_factory=dict)  # path -> sha256
    file_stats: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # size, mtime, sha
    modules: dict[str, ModuleName] = field(default_factory=dict)  # path -> module name
    parsed: dict[str, ParsedFile] = field(default_factory=dict)  # path -> parse, see `compact`
    calls: dict[str, bytes] = field(default_factory=dict)  # path -> pickled call sites
    # path -> pickled internal CALLS + IMPORTS pairs of its links, PageRank's input: read only
    # when ranks are computed again (they are most of the links' bytes)
    rank_edges: dict[str, bytes] = field(default_factory=dict)
    interfaces: dict[str, str] = field(default_factory=dict)  # path -> interface hash
    links: dict[str, FileLinks] = field(default_factory=dict)
    node_ids: dict[str, list[str]] = field(default_factory=dict)  # path -> its node ids
    # path -> pickled {node id: ranks and unresolved calls written}, read for relinked files
    node_stats: dict[str, bytes] = field(default_factory=dict)
    # path -> pickled {edge key: digest of its rows}: what the graph holds of its edges, so
    # that a relinked file writes only the edges that changed (`edge_diff.py`)
    edge_digests: dict[str, bytes] = field(default_factory=dict)
    shadowed: frozenset[str] = frozenset()
    skipped: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (sha256, reason)
    import_prefixes: dict[str, frozenset[str]] = field(default_factory=dict)  # namespace evidence
    imported: frozenset[str] = frozenset()  # the union of import_prefixes
    # the languages this state's run read, and its project files (tsconfig.json, package.json):
    # path -> (sha256, text)
    languages: tuple[str, ...] = ()
    project: dict[str, tuple[str, str]] = field(default_factory=dict)
    # whether the run read generated files and bundles (`index --include-generated`); with
    # `languages`, what a refresh reads again (`IndexOptions.keep_choices`)
    include_generated: bool = False
    # the generated-file verdicts of the run's walk (None: generated files were read)
    generated: GeneratedBook | None = None
    tests: TestsBook = field(default_factory=TestsBook)
    # the run's figures for the whole repository, reported again by a run that finds nothing
    # changed (None: a state saved without them, e.g. by a test)
    summary: RepositorySummary | None = None
    format: int = _FORMAT
    # the lookup tables of this state, kept in memory only (never pickled): a long-lived store
    # updates them for the changed files instead of rebuilding them
    index: RepositoryIndex | None = field(default=None, compare=False, repr=False)
    # in memory only: where the per-file objects lie in the file this state was loaded from or
    # saved as; an object passed on unchanged to the next state is saved as a copy of its bytes
    encoded: Spans | None = field(default=None, compare=False, repr=False)
    # in memory only: loaded without its per-file objects (`StateStore.load(files=False)`),
    # where to read them from (`StateStore.read_files`)
    unread: Unread | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["index"] = None
        data["encoded"] = None
        data["unread"] = None
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)


RawCall = tuple[str, Dotted, int, Dotted | None, int, Block, Expr | None]
FileSpans = dict[str, dict[str, tuple[int, int]]]  # field -> path -> (offset, length)
RawImplicit = tuple[str, tuple[str, ...], Expr, int, int, Block, str, ImplicitMode]
FileIdentity = tuple[int, int, int, int]  # st_dev, st_ino, st_size, st_mtime_ns


@dataclass(frozen=True)
class Unread:
    """The per-file objects of a state not read yet: the file they lie in, which file that
    was (another process may have replaced it since), and where each lies."""

    path: Path
    identity: FileIdentity
    spans: FileSpans


@dataclass(frozen=True)
class Spans:
    """Where each per-file object of a state lies in one state file: field -> path ->
    (the object, offset, length). `identity` tells that file from one written since (by
    another process): its bytes are copied only from the very file they were read from."""

    identity: FileIdentity
    objects: dict[str, dict[str, tuple[Any, int, int]]]

    def known(self, name: str, key: str, value: Any) -> tuple[int, int] | None:
        """The (offset, length) of `value` if it is the very object loaded or saved there."""
        entry = self.objects.get(name, {}).get(key)
        if entry is None or entry[0] is not value:
            return None
        return entry[1], entry[2]


def _identity(descriptor: int) -> FileIdentity:
    info = os.fstat(descriptor)
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects at once (a context
    manager or a decorator; `build_graph` runs under it).

    Loading a Django-sized state creates millions of objects, each allocation counting towards
    a collection that then traverses all of them again: unpickling takes 3x as long with the
    collector on (1.1 s vs 0.37 s). Reference counting still frees memory meanwhile. The switch
    is process-wide (other threads run without the collector too) and nests: only the
    outermost pause turns it back on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def packed(value: Any) -> bytes:
    """`value` pickled, for state parts kept as bytes until a run needs them."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def unpacked(blob: bytes) -> Any:
    return pickle.loads(blob)


def compact(parsed: ParsedFile) -> tuple[ParsedFile, bytes]:
    """A parse without source text, call sites or implicit calls, and those two pickled as
    plain tuples; what the file uses as values (bound or not) is worked out once, for the
    lookup tables.

    Linking needs names, not code; and a file's call sites and implicit calls are only needed
    again when that file is linked again, so they stay pickled until then (plain tuples load
    about ten times faster than dataclasses for the 300,000 call sites of a Django-sized
    repository; its implicit calls were half the time of loading its parses, 0.97 -> 0.51 s).
    """
    stripped = replace(
        parsed,
        code="",
        calls=(),
        implicit_calls=(),
        symbols=tuple(replace(symbol, code="") for symbol in parsed.symbols),
        value_references=value_references(parsed),
        bound_references=bound_references(parsed),
    )
    raw: tuple[RawCall, ...] = tuple(
        (c.scope, c.callee, c.line, c.receiver_call, c.at, c.block, c.value) for c in parsed.calls
    )
    implicit: tuple[RawImplicit, ...] = tuple(
        (c.scope, c.methods, c.operand, c.line, c.at, c.block, c.syntax, c.mode)
        for c in parsed.implicit_calls
    )
    return stripped, packed((raw, implicit))


def with_calls(parsed: ParsedFile, raw: bytes) -> ParsedFile:
    """Undo `compact` for the call sites and the implicit calls."""
    calls: tuple[RawCall, ...]
    implicit: tuple[RawImplicit, ...]
    calls, implicit = unpacked(raw)
    return replace(
        parsed,
        calls=tuple(CallSite(*call) for call in calls),
        implicit_calls=tuple(ImplicitCall(*call) for call in implicit),
    )


class StateStore:
    """Loads and atomically saves `IndexState` files, and keeps the last one in memory.

    A long-lived store (watch mode, a `CodeGraph` object) skips loading from disk and writes
    to disk in a background thread, which keeps repeated incremental runs fast.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._memory: dict[Path, IndexState] = {}
        self._writer: threading.Thread | None = None
        self.failure: OSError | None = None  # what stopped the last background save

    def _path(self, server: str, database: str, repo: str) -> Path:
        key = hashlib.sha256(f"{server}\n{database}\n{repo}".encode()).hexdigest()[:24]
        return self.directory / f"{repo}-{key}.pickle"

    def load(
        self, server: str, database: str, repo: str, *, files: bool = True
    ) -> IndexState | None:
        """The state saved for `repo`, or None. With `files` False its per-file objects
        (parses, links, node ids: most of the loading time) are left on disk until
        `read_files`: a run that finds nothing changed never needs them."""
        path = self._path(server, database, repo)
        remembered = self._memory.get(path)
        if remembered is not None:
            return remembered
        try:
            with path.open("rb") as handle:
                return self._read(handle, repo, files=files)
        except _UNREADABLE:
            return None

    def read_files(self, state: IndexState) -> IndexState | None:
        """`state` with its per-file objects read (in place), or None when its file was
        replaced or spoilt since its header was read."""
        unread = state.unread
        if unread is None:
            return state
        try:
            with unread.path.open("rb") as handle:
                if _identity(handle.fileno()) != unread.identity:
                    return None
                _read_files(handle, state, unread.identity, unread.spans)
        except _UNREADABLE:
            return None
        state.unread = None
        return state

    @staticmethod
    def _read(handle: BinaryIO, repo: str, *, files: bool) -> IndexState | None:
        if handle.read(len(_MAGIC)) != _MAGIC:
            return None  # an older format: one pickle of everything
        identity = _identity(handle.fileno())
        handle.seek(int.from_bytes(handle.read(8), "little"))
        table = pickle.load(handle)
        if not isinstance(table, dict) or table.get("format") not in _READ_FORMATS:
            return None
        handle.seek(table["header"][0])
        state = pickle.load(handle)  # from the file: its call sites' bytes are not read twice
        if not isinstance(state, IndexState) or state.repo != repo:
            return None
        if files:
            _read_files(handle, state, identity, table["files"])
        else:
            state.unread = Unread(Path(handle.name), identity, table["files"])
        return state

    def save(
        self, server: str, database: str, state: IndexState, *, background: bool = False
    ) -> None:
        _check_read(state)
        path = self._path(server, database, state.repo)
        self.wait()
        self._memory[path] = state
        if background:
            self._writer = threading.Thread(
                target=self._write_behind, args=(path, state), name="graphrag-code-state"
            )
            self._writer.start()
        else:
            self._write(path, state)

    def _write_behind(self, path: Path, state: IndexState) -> None:
        """`_write` on the background thread: a disk error is kept for `wait` to return (the
        state stays in memory, and the file on disk stays the previous one)."""
        try:
            self._write(path, state)
        except OSError as exc:
            self.failure = exc

    def wait(self) -> OSError | None:
        """Block until a background save has reached the disk; the disk error that stopped
        the last one, if any."""
        if self._writer is not None:
            self._writer.join()
            self._writer = None
        failure, self.failure = self.failure, None
        return failure

    def save_early(self, server: str, database: str, state: IndexState) -> EarlySave:
        """Write `state` to a temporary file now, put in place by `EarlySave.commit` once the
        graph holds what it describes (the run writes it while the server is still writing
        the graph: Django's state takes ~1.4 s to write). Not committed, it is as if never
        saved."""
        _check_read(state)
        path = self._path(server, database, state.repo)
        self.wait()
        return EarlySave(self, path, state, _write_temporary(path, state))

    @staticmethod
    def _write(path: Path, state: IndexState) -> None:
        _put_in_place(path, state, _write_temporary(path, state))

    def delete(self, server: str, database: str, repo: str) -> None:
        self.wait()
        path = self._path(server, database, repo)
        self._memory.pop(path, None)
        path.unlink(missing_ok=True)


_UNREADABLE = (
    OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError, KeyError,
    IndexError,
)  # fmt: skip
"""What reading a spoilt, truncated or foreign state file may raise: the state is unusable."""


def _check_read(state: IndexState) -> None:
    if state.unread is not None:  # its parses are not in memory: it would be saved without
        raise ValueError("a state whose per-file objects were not read cannot be saved")


def _read_files(
    handle: BinaryIO, state: IndexState, identity: FileIdentity, spans: FileSpans
) -> None:
    """Read the per-file objects of `state` from `handle` (the file `spans` describe)."""
    objects: dict[str, dict[str, tuple[Any, int, int]]] = {}
    for name in _PER_FILE:
        at: dict[str, tuple[int, int]] = spans[name]
        values = {key: unpacked(_span(handle, *where)) for key, where in at.items()}
        setattr(state, name, values)
        objects[name] = {key: (values[key], *at[key]) for key in at}
    state.encoded = Spans(identity, objects)


def _span(handle: BinaryIO, offset: int, length: int) -> bytes:
    handle.seek(offset)
    blob = handle.read(length)
    if len(blob) != length:
        raise EOFError("state file truncated")
    return blob


def _blob(previous: BinaryIO | None, spans: Spans | None, name: str, key: str, value: Any) -> bytes:
    """`value` pickled: copied from the previous file when it is the object read from there."""
    known = spans.known(name, key, value) if previous is not None and spans is not None else None
    if previous is None or known is None:
        return packed(value)
    offset, length = known
    blob = os.pread(previous.fileno(), length, offset)
    if len(blob) != length:  # a file cut short under us: pickle afresh
        return packed(value)
    return blob


def _previous_file(path: Path, spans: Spans | None) -> BinaryIO | None:
    """The state file `spans` points into, open, if it is still the very file they were
    read from or written as (no other process wrote one since); else None."""
    if spans is None:
        return None
    try:
        handle = path.open("rb")
    except OSError:
        return None
    if _identity(handle.fileno()) != spans.identity:
        handle.close()
        return None
    return handle


@dataclass
class _Written:
    """A state file written under a temporary name, and where its objects lie in it."""

    temporary: Path
    identity: Any
    objects: dict[str, dict[str, tuple[Any, int, int]]]


def _write_temporary(path: Path, state: IndexState) -> _Written:
    """Write `state` to a temporary file beside `path` (`_put_in_place` then renames it):
    the magic line, the table's offset, each per-file object's bytes (copied from the file
    it was loaded from when unchanged), the header (the rest of the state), then the
    table."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_suffix(f".{threading.get_ident()}.tmp")
    previous = _previous_file(path, state.encoded)
    table: dict[str, dict[str, tuple[int, int]]] = {}
    objects: dict[str, dict[str, tuple[Any, int, int]]] = {}
    # parses hold the source code: readable by this user only
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(_MAGIC + bytes(8))
            for name in _PER_FILE:
                table[name], objects[name] = {}, {}
                for key, value in getattr(state, name).items():
                    blob = _blob(previous, state.encoded, name, key, value)
                    at = (handle.tell(), len(blob))
                    handle.write(blob)
                    table[name][key] = at
                    objects[name][key] = (value, *at)
            header = replace(state, parsed={}, links={}, node_ids={}, index=None, encoded=None)
            header_at = handle.tell()
            pickle.dump(header, handle, protocol=pickle.HIGHEST_PROTOCOL)
            table_at = handle.tell()
            stored = {"format": _FORMAT, "header": (header_at, table_at - header_at)}
            pickle.dump({**stored, "files": table}, handle, protocol=pickle.HIGHEST_PROTOCOL)
            handle.seek(len(_MAGIC))
            handle.write(table_at.to_bytes(8, "little"))
            handle.flush()
            identity = _identity(handle.fileno())
    except OSError as exc:
        _remove(temporary)
        if exc.filename is None:  # a write on the open file: say which one
            raise OSError(exc.errno, exc.strerror, str(temporary)) from exc
        raise
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        if previous is not None:
            previous.close()
    return _Written(temporary, identity, objects)


def _remove(temporary: Path) -> None:
    """Remove a temporary file, if the disk lets us (a read-only one may not)."""
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def _put_in_place(path: Path, state: IndexState, written: _Written) -> None:
    try:
        os.replace(written.temporary, path)
    except OSError:  # a folder turned read-only: the previous state stays, alone
        _remove(written.temporary)
        raise
    # one assignment: a run reading it sees the old or the new
    state.encoded = Spans(written.identity, written.objects)


class EarlySave:
    """A state written to disk before its run ended: `commit` puts it in place, `discard`
    (or a run that fails before committing) removes it."""

    def __init__(self, store: StateStore, path: Path, state: IndexState, written: _Written):
        self._store, self._path, self._state, self._written = store, path, state, written
        self._done = False

    def commit(self) -> None:
        _put_in_place(self._path, self._state, self._written)
        self._store._memory[self._path] = self._state
        self._done = True

    def discard(self) -> None:
        if not self._done:
            self._written.temporary.unlink(missing_ok=True)
            self._done = True
