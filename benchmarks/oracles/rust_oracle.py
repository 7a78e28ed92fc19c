"""Rust oracle: rust-analyzer's own answer for every import and call of a pinned crate.

The pinned crates come first, in two sets (issue 53), chosen before any Rust linking rule was
measured, by style and size alone (file and line counts of ``src/`` in the ``.crate``; no graph
output): ``RUST_TUNING`` may be studied and linking rules tuned on it; ``RUST_HELD_OUT`` is only
measured — nobody tuning Rust rules reads its code (a rule found on a held-out crate moves it to
the tuning set, and a new one chosen the same way takes its place).

The library target's sources (``src/``) are what is measured; tests, benches and examples of
the ``.crate`` are unpacked but not measured.

Usage (from the repository root; ``cargo`` and ``rust-analyzer`` on PATH — ``rustup component
add rust-analyzer rust-src`` — and crates.io reachable the first time)::

    python -m benchmarks.oracles.rust_oracle                  # the tuning set: counts
    python -m benchmarks.oracles.rust_oracle --set all        # or heldout; or names: semver

Per pinned crate: ``cargo fetch`` in a throwaway project that depends on exactly that version
puts the ``.crate`` in cargo's registry cache; its sha256 is checked against the pin and it is
unpacked into ``benchmarks/cache/oracles/rust/<name>-<version>/``; ``cargo fetch`` there gets
its dependencies and ``cargo check --lib`` (target folder ``benchmarks/cache/rust-oracle/``)
shows it builds; ``rust-analyzer scip .`` indexes it, and ``rust_scip`` derives the calls,
imports and trait-dispatch sites written to ``<name>-<version>.v5.json`` beside that folder. The
format is in ``benchmarks/oracles/README.md``.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import CACHE_DIR, ORACLE_OUT_DIR
from benchmarks.oracles.rust_scip import ScipError, derive, read_index

JsonDict = dict[str, Any]

RUST_OUT_DIR = ORACLE_OUT_DIR / "rust"
"""Unpacked crates and the oracle's JSON files."""
WORK_DIR = CACHE_DIR / "rust-oracle"
"""Throwaway fetch projects, the cargo target folder and the SCIP indexes."""

_DONE_MARKER = ".unpacked-ok"
OUTPUT_VERSION = 5
"""Part of the output's file name; raised when `rust_scip` derives differently (2: impls of a
generic trait, `ParseError<I>`, are its dispatch targets; a required method with doc comments
is no default body; 3: a line of a string that starts with the word `use` is no `use` item;
4: a `use` of a macro is an import like any other; 5: a `use` with attributes before it on its
line is one, and rust-analyzer indexes with `_ANALYZER_CONFIG`), so an older derivation in the
shared cache is left as it was."""
_ANALYZER_CONFIG = {"cargo": {"cfgs": ["debug_assertions"]}}
"""rust-analyzer's cfgs for the index: a dev build's. Its own default adds `miri`, which no
`cargo build` sets (bytes' `#[cfg(miri)] fn ptr_map` beside `#[cfg(not(miri))]` was taken as
the one defined; output version 5)."""
_INDEX_TAG = "dev"
"""Part of the SCIP index's file name since output version 5 (the earlier indexes, made with
rust-analyzer's default cfgs, are left as they were)."""
_TIMEOUT_S = 1800


class OracleSetupError(RuntimeError):
    """cargo / rust-analyzer is missing, a fetch or build failed, or a crate does not match
    its pin."""


@dataclass(frozen=True)
class PinnedCrate:
    """One crate from crates.io, pinned by exact version and the sha256 of its ``.crate``."""

    name: str
    version: str
    crate_sha256: str
    """sha256 of ``<name>-<version>.crate`` as crates.io serves it (cargo's registry cache)."""
    style: str
    """What kind of code it is and how big (files / lines of .rs under ``src/``)."""

    @property
    def root_name(self) -> str:
        """Folder name of the unpacked crate: ``semver-1.0.27``."""
        return f"{self.name}-{self.version}"


#: Rules may be studied and tuned on these.
RUST_TUNING: tuple[PinnedCrate, ...] = (
    PinnedCrate(
        "semver",
        "1.0.27",
        "d767eb0aabc880b29956c35734170f26ed551a859dbd361d140cdbeca61ab1e2",
        style="version parser: hand-written parser over &str, inherent impls on small types, "
        "std trait impls (Display, FromStr, Ord, serde behind a feature); 8 files / 2.1k lines",
    ),
    PinnedCrate(
        "base64",
        "0.22.1",
        "72b3254f16251a8381aa12e40e3c4d2f0199f8c6508fbecb9d91f575e0fbb8c6",
        style="encoder / decoder: an Engine trait with default methods and two engines, "
        "Config traits, read / write adapters, nested modules with pub use; "
        "21 files / 7.0k lines",
    ),
    PinnedCrate(
        "nom",
        "7.1.3",
        "d273983c5a657a70a3e8f2a01329822f3b8c8172b73826411a55751e404a0a4a",
        style="parser combinators: functions generic over input traits (InputTake, Compare, "
        "Slice...) with impls for &str and &[u8], an Err / ParseError trait family, macros "
        "generating tuple impls, `pub use` re-export chains through a `lib::std` module; "
        "added at stop 63 as a third tuning crate (the first two met every target); "
        "28 files / 17.0k lines",
    ),
    # itertools and indexmap were held out until stop 64, measured there once more and then
    # studied (their wrong and missed IMPORTS, indexmap's wrong CALLS): rand and serde_json
    # took their places in RUST_HELD_OUT, measured before any rule of stop 64. serde_json's
    # second measurement, at the end of stop 64, led to a rule (a module declared under two
    # cfgs), so it joined the tuning set too and bytes took its place, measured once after.
    PinnedCrate(
        "itertools",
        "0.13.0",
        "413ee7dfc52ee1a4949ceeb7dbc8a33f2d6c088194d9f922fb8318faf1f01186",
        style="large iterator-adaptor library: one extension trait with ~100 default methods, "
        "an adaptor struct + Iterator impl per method, generic bounds everywhere, macros; "
        "held out until stop 64; 49 files / 13.7k lines",
    ),
    PinnedCrate(
        "indexmap",
        "2.7.0",
        "62f822373a4fe84d4bb149bf54e584a7f4abec90e072ed49cda0edea5b95471f",
        style="ordered hash map / set: a core module wrapped by map and set types, entry API, "
        "many iterator structs, std trait impls (Index, Extend, FromIterator), optional "
        "rayon / serde modules; held out until stop 64; 24 files / 11.5k lines",
    ),
    PinnedCrate(
        "serde_json",
        "1.0.117",
        "455182ea6142b14f93f4bc5320a2b31c1f266b66a4a5c858b013302a5d8cbfc3",
        style="a data format: Serializer / Deserializer implementing another crate's (serde) "
        "traits, a Read trait with slice / str / io impls, a Value enum with Index and From "
        "impls, a map type over a feature-chosen backend, error-forwarding macros; chosen at "
        "stop 64 as held out, moved to the tuning set at stop 64 after its second measurement "
        "(the figures showed the cfg rule switching off a module declared under two cfgs); "
        "37 files / 17.8k lines",
    ),
    PinnedCrate(
        "num-traits",
        "0.2.19",
        "071dfc062690e90b734c0b2273ce72ad0ffa95f0c74596bc250dcfd960262841",
        style="numeric traits: small traits (Zero, One, Num, Float, Bounded ...) implemented "
        "for every primitive by macros, blanket impls, a build script's cfg; added to the "
        "tuning set at stop 64, after the held-out crates' measurement; 19 files / 7.8k lines",
    ),
    PinnedCrate(
        "hashbrown",
        "0.15.5",
        "9229cfe53dfd69f0609a49f65461bd93001ea1ef889cd5529dd176593f5338a1",
        style="SwissTable hash map: an unsafe raw table under map / set / table types, SIMD "
        "groups chosen by cfg, many feature-gated modules (rayon, serde, raw-entry), "
        "re-exports; added to the tuning set at stop 64, after the held-out crates' "
        "measurement; 27 files / 22.2k lines",
    ),
    # rand, bytes and petgraph were held out at stop 64 (rand measured six times, bytes five,
    # petgraph once); stop 65 studies them (rand's and petgraph's recall, rand's IMPORTS and
    # bytes' IMPORTS and CALLS precision), so they are tuning crates now; toml_edit and
    # memchr took their places in RUST_HELD_OUT, measured once before any rule of stop 65.
    PinnedCrate(
        "rand",
        "0.8.5",
        "34af8d1a0e25924bc5b7c43c079c942339d8f0a8b57c39049bef581b46327404",
        style="random numbers: an extension trait (Rng) blanket-implemented over another "
        "crate's trait (RngCore), a Distribution<T> trait with impls per type made by macros, "
        "slice / iterator extension traits (seq), uniform samplers generic over a SampleUniform "
        "trait; chosen at stop 64 as held out, measured there six times, moved to the tuning "
        "set at stop 65 to study its missed CALLS (R .841) and wrong IMPORTS; 26 files / "
        "8.6k lines",
    ),
    PinnedCrate(
        "petgraph",
        "0.6.5",
        "b4c5cc86750666a3ed20bdaf5ca2a0344f9c67674cae0515bec2da16fbaa47db",
        style="graph data structures (Graph, StableGraph, GraphMap, Csr, MatrixGraph, an adjacency "
        "List) and algorithms (dijkstra, isomorphism, matching, dominators ...) generic over "
        "visitor traits (IntoNeighbors, Visitable, NodeIndexable ...) implemented for "
        "references by macros, Dfs / Bfs walkers, filtered and reversed graph adaptors; "
        "default features graphmap, stable_graph, matrix_graph; chosen at the end of stop 64 as "
        "held out, measured once, moved to the tuning set at stop 65 to study its missed "
        "IMPORTS and CALLS (R .837 / .839); 45 files / 19.7k lines",
    ),
    PinnedCrate(
        "bytes",
        "1.9.0",
        "325918d6fe32f23b19878fe4b34794ae41fc19ddbe53b10571a4874d44ffd39b",
        style="byte buffers: Buf / BufMut traits with many default methods (get_u16 ... made "
        "by macros) and impls for slices, VecDeque and the Chain / Take / Limit adaptors, "
        "Bytes with a hand-made vtable of fn pointers, BytesMut; chosen at stop 64 in place "
        "of serde_json and measured five times there; moved to the tuning set at stop 65 "
        "(branch rust65p studies its wrong IMPORTS and CALLS); 19 files / 8.2k lines",
    ),
    # toml_edit and memchr were held out at stop 65 (chosen by branch rust65p, measured twice:
    # before the stop's rules and after them); they missed CALLS R (.740 / .718) and memchr
    # IMPORTS P / R (.931 / .958), so stop 65, part 2 (branch rust65b) reads their errors to
    # find rules: tuning crates now; similar and bstr took their places in RUST_HELD_OUT.
    PinnedCrate(
        "toml_edit",
        "0.22.22",
        "4ae48d6208a266e853d946088ed816055e556cc6028c5e8e2b84d9fa5dd7c7f5",
        style="a format-preserving document model: Item / Value / Table / Array types with Index "
        "impls and accessors, Visit / VisitMut traits, a parser on another crate's (winnow) "
        "combinators, a Display encoder, serde (de)serializer modules behind a feature; "
        "chosen at stop 65 as held out, moved to the tuning set in its part 2; "
        "44 files / 11.6k lines",
    ),
    PinnedCrate(
        "memchr",
        "2.7.4",
        "78ca9ab1a0babb1e7d5695e3530886289c18cf2f87ec19a575a0abdce112e3a3",
        style="byte and substring search: a Vector trait with one impl per SIMD architecture "
        "(x86_64 sse2 / avx2, aarch64 neon, wasm32 simd128), generic searchers over it, "
        "modules chosen by cfg(target_arch), memmem algorithms (Two-Way, Rabin-Karp, "
        "packed pairs), in-crate test modules; chosen at stop 65 as held out, moved to the "
        "tuning set in its part 2; 45 files / 15.8k lines",
    ),
)

#: Measured only; no Rust linking rule is tuned on these and their code is not read to tune.
RUST_HELD_OUT: tuple[PinnedCrate, ...] = (
    # Added at stop 64 (the end), chosen by style, size and file list alone and measured once
    # with no rule changed: a fresh held-out crate for the next rule.
    PinnedCrate(
        "regex-syntax",
        "0.8.5",
        "2b15c43186be67a4fd63bee50d0303afffcef381492ebe2c5d87f324e1b8815c",
        style="a regex front end: a hand-written recursive-descent parser to an AST, a "
        "translator to a high-level IR (Hir), Visitor traits that walk both, printers, "
        "literal extraction, Unicode class tables generated as static arrays (14 of its 33 "
        "files, 34k lines); no dependencies; chosen at the end of stop 64; "
        "33 files / 58.4k lines",
    ),
    # Added at stop 65, part 2 (branch rust65b), chosen by style, size and the .crate's file
    # list alone (no code read) in the places of toml_edit and memchr, and measured once at
    # main's code before any rule of that branch (benchmarks/results/rust_heldout65b_before.*).
    PinnedCrate(
        "similar",
        "2.5.0",
        "fa42c91313f1d05da9b26f267f931cf178d4aba455b4c4622dd7355eb80c6640",
        style="diff algorithms (Myers, Patience, LCS) generic over a DiffHook trait with "
        "wrapping hooks (Replace, Capture, Compact), a text layer over a DiffableStr trait for "
        "str and [u8], unified-diff and inline formatters, iterators over changes; default "
        "features only (text); chosen at stop 65, part 2; 19 files / 5.8k lines",
    ),
    PinnedCrate(
        "bstr",
        "1.9.1",
        "05efc5cfd9110c8416e471df0e96702d58690178e206e61b7173706673c93706",
        style="byte strings: extension traits (ByteSlice, ByteVec) implemented for [u8] and "
        "Vec<u8> with many default methods, BStr / BString newtypes with many std trait impls "
        "(impls.rs), Unicode segmentation over generated DFA modules, iterators per split "
        "kind, memchr underneath; chosen at stop 65, part 2; 27 files / 11.4k lines",
    ),
)

RUST_CRATES: tuple[PinnedCrate, ...] = RUST_TUNING + RUST_HELD_OUT

#: The sets ``--set`` names.
RUST_SETS: Mapping[str, tuple[PinnedCrate, ...]] = {
    "tuning": RUST_TUNING,
    "heldout": RUST_HELD_OUT,
    "all": RUST_CRATES,
}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        hint = (
            "rustup component add rust-analyzer rust-src"
            if name == "rust-analyzer"
            else "install Rust with rustup (https://rustup.rs)"
        )
        raise OracleSetupError(f"the Rust oracle needs `{name}` on PATH: {hint}")
    return path


def _run(args: Sequence[str], cwd: Path, what: str, env: Mapping[str, str] | None = None) -> str:
    """Run a command; its stdout, or an OracleSetupError saying what failed."""
    try:
        completed = subprocess.run(
            list(args),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT_S,
            check=False,
            env=None if env is None else {**os.environ, **env},
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise OracleSetupError(f"{what} failed: {error}") from error
    if completed.returncode != 0:
        tail = (completed.stderr + completed.stdout).strip()[-2000:]
        raise OracleSetupError(f"{what} failed ({' '.join(args[:3])} ...):\n{tail}")
    return completed.stdout


def _cargo_home() -> Path:
    return Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")


def source_root(entry: PinnedCrate) -> Path:
    """Where the unpacked crate lives (whether or not it is there yet)."""
    return RUST_OUT_DIR / entry.root_name


def _download(entry: PinnedCrate) -> Path:
    """The pinned ``.crate`` in cargo's registry cache, fetched there by a throwaway project."""
    cached = sorted((_cargo_home() / "registry" / "cache").glob(f"*/{entry.root_name}.crate"))
    if cached:
        return cached[0]
    project = WORK_DIR / f"fetch-{entry.root_name}"
    (project / "src").mkdir(parents=True, exist_ok=True)
    (project / "src" / "lib.rs").write_text("", encoding="utf-8")
    (project / "Cargo.toml").write_text(
        f'[package]\nname = "fetch-pin"\nversion = "0.0.0"\nedition = "2021"\n\n'
        f'[dependencies]\n{entry.name} = "={entry.version}"\n',
        encoding="utf-8",
    )
    _run([_tool("cargo"), "fetch"], project, f"fetching {entry.root_name} from crates.io")
    cached = sorted((_cargo_home() / "registry" / "cache").glob(f"*/{entry.root_name}.crate"))
    if not cached:
        raise OracleSetupError(f"cargo fetch left no {entry.root_name}.crate in {_cargo_home()}")
    return cached[0]


def fetch(entry: PinnedCrate) -> Path:
    """Fetch, check and unpack the crate, fetch its dependencies and check it builds."""
    target = source_root(entry)
    if (target / _DONE_MARKER).is_file():
        return target
    archive = _download(entry)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != entry.crate_sha256:
        raise OracleSetupError(
            f"{archive.name}: sha256 {digest} is not the pinned {entry.crate_sha256}"
        )
    RUST_OUT_DIR.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(RUST_OUT_DIR, filter="data")
    if not (target / "Cargo.toml").is_file():
        raise OracleSetupError(f"{archive.name} did not unpack into {target}")
    cargo = _tool("cargo")
    _run([cargo, "fetch"], target, f"fetching the dependencies of {entry.root_name}")
    _run(
        [cargo, "check", "--lib", "--offline", "-q"],
        target,
        f"building {entry.root_name}",
        env={"CARGO_TARGET_DIR": str(WORK_DIR / "target")},
    )
    (target / _DONE_MARKER).write_text(digest, encoding="utf-8")
    return target


def output_path(entry: PinnedCrate) -> Path:
    """The JSON file the oracle writes for `entry`."""
    return RUST_OUT_DIR / f"{entry.root_name}.v{OUTPUT_VERSION}.json"


def run_oracle(entry: PinnedCrate, *, force: bool = False, reindex: bool = False) -> JsonDict:
    """The oracle's output for one crate, computed once and cached; `force` derives it again
    from the cached SCIP index, `reindex` runs rust-analyzer again too."""
    path = output_path(entry)
    if force or reindex or not path.is_file():
        root = fetch(entry)
        analyzer = _tool("rust-analyzer")
        version = _run([analyzer, "--version"], root, "rust-analyzer --version").strip()
        index = WORK_DIR / f"{entry.root_name}.{_INDEX_TAG}.scip"
        stamp = index.with_suffix(".scip-by")
        WORK_DIR.mkdir(parents=True, exist_ok=True)
        if reindex or not index.is_file() or not stamp.is_file():
            print(f"indexing {entry.root_name} with {version}")
            config = WORK_DIR / f"rust-analyzer-{_INDEX_TAG}.json"
            config.write_text(json.dumps(_ANALYZER_CONFIG), encoding="utf-8")
            started = time.perf_counter()
            _run(
                [analyzer, "scip", ".", "--output", str(index), "--config-path", str(config)],
                root,
                f"indexing {entry.root_name}",
            )
            wall = round(time.perf_counter() - started, 1)
            stamp.write_text(json.dumps({"oracle": version, "wall_time_s": wall}), "utf-8")
        indexed = json.loads(stamp.read_text(encoding="utf-8"))
        try:
            documents = read_index(index.read_bytes())
        except (OSError, ScipError) as error:
            raise OracleSetupError(f"reading {index}: {error}") from error

        def text(relative: str) -> str | None:
            file = root / relative
            if not relative.startswith("src/") or not file.is_file():
                return None
            return file.read_text(encoding="utf-8", errors="replace")

        output = derive(documents, text, entry.name)
        output.update(
            {
                "crate": entry.name,
                "version": entry.version,
                "oracle": indexed["oracle"],
                "wall_time_s": indexed["wall_time_s"],
            }
        )
        path.write_text(json.dumps(output, indent=1), encoding="utf-8")
    loaded: JsonDict = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def pinned(name: str) -> PinnedCrate:
    """The pinned crate called `name` (its name or folder name)."""
    for entry in RUST_CRATES:
        if name in (entry.name, entry.root_name):
            return entry
    known = ", ".join(entry.name for entry in RUST_CRATES)
    raise OracleSetupError(f"{name!r} is not a pinned Rust crate (pinned: {known})")


def summarize(output: JsonDict) -> JsonDict:
    """Counts for the summary table."""
    calls = output["calls"]
    kinds = Counter(call["kind"] for call in calls)
    sites = output["dispatch"]
    return {
        "files": len(output["files"]),
        "decls": len(output["decls"]),
        "imports": len(output["imports"]),
        "imports_in_crate": sum(1 for i in output["imports"] if i["in_crate"]),
        "calls": len(calls),
        "in_crate_callee": sum(1 for c in calls if c["callee"]),
        **{f"kind_{kind}": count for kind, count in sorted(kinds.items())},
        "dispatch_sites": len(sites),
        "dispatch_sites_with_targets": sum(1 for site in sites if site["targets"]),
        "wall_time_s": output["wall_time_s"],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: run the oracle on pinned crates and print their counts."""
    parser = argparse.ArgumentParser(description="rust-analyzer's SCIP index as an oracle")
    parser.add_argument("names", nargs="*", metavar="NAME", help="pinned crates")
    parser.add_argument("--set", choices=sorted(RUST_SETS), default="tuning")
    parser.add_argument(
        "--force", action="store_true", help="derive the outputs again from the cached indexes"
    )
    parser.add_argument("--reindex", action="store_true", help="run rust-analyzer again too")
    args = parser.parse_args(argv)
    try:
        entries = [pinned(name) for name in args.names] or list(RUST_SETS[args.set])
        for entry in entries:
            summary = summarize(run_oracle(entry, force=args.force, reindex=args.reindex))
            print(f"{entry.root_name}: " + ", ".join(f"{k}={v}" for k, v in summary.items()))
    except OracleSetupError as error:
        print(f"error: {error}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
