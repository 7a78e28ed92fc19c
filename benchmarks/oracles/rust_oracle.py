"""Rust oracle: rust-analyzer's own answer for every import and call of a pinned crate.

The pinned crates come first, in two sets (issue 53), chosen before any Rust linking rule was
measured, by style and size alone (file and line counts of ``src/`` in the ``.crate``; no graph
output): ``RUST_TUNING`` may be studied and linking rules tuned on it; ``RUST_HELD_OUT`` is only
measured — nobody tuning Rust rules reads its code (a rule found on a held-out crate moves it to
the tuning set, and a new one chosen the same way takes its place).

The library target's sources (``src/``) are what is measured; tests, benches and examples of
the ``.crate`` are unpacked but not measured.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
)

#: Measured only; no Rust linking rule is tuned on these and their code is not read to tune.
RUST_HELD_OUT: tuple[PinnedCrate, ...] = (
    PinnedCrate(
        "itertools",
        "0.13.0",
        "413ee7dfc52ee1a4949ceeb7dbc8a33f2d6c088194d9f922fb8318faf1f01186",
        style="large iterator-adaptor library: one extension trait with ~100 default methods, "
        "an adaptor struct + Iterator impl per method, generic bounds everywhere, macros; "
        "49 files / 13.7k lines",
    ),
    PinnedCrate(
        "indexmap",
        "2.7.0",
        "62f822373a4fe84d4bb149bf54e584a7f4abec90e072ed49cda0edea5b95471f",
        style="ordered hash map / set: a core module wrapped by map and set types, entry API, "
        "many iterator structs, std trait impls (Index, Extend, FromIterator), optional "
        "rayon / serde modules; 24 files / 11.5k lines",
    ),
)

RUST_CRATES: tuple[PinnedCrate, ...] = RUST_TUNING + RUST_HELD_OUT

#: The sets ``--set`` names.
RUST_SETS: Mapping[str, tuple[PinnedCrate, ...]] = {
    "tuning": RUST_TUNING,
    "heldout": RUST_HELD_OUT,
    "all": RUST_CRATES,
}
