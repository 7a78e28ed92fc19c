"""Go oracle: go/types' own answer for every import and call of a pinned Go module.

The pinned modules come first, in two sets (issue 51), chosen before any Go linking rule
existed, by style and size alone (file lists and line counts from the module zips; no graph
output): ``GO_TUNING`` may be studied and linking rules tuned on it; ``GO_HELD_OUT`` is only
measured — nobody tuning Go rules reads its code (a rule found on a held-out module moves that
module to the tuning set, and a new one chosen the same way takes its place).

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PinnedModule:
    """One Go module from the Go module proxy, pinned by version and go.sum hash."""

    name: str
    """Short name for the command line and the cache folder (``cobra``)."""
    path: str
    """The module path (``github.com/spf13/cobra``)."""
    version: str
    sum: str
    """The module zip's ``h1:`` hash, as ``go mod download -json`` reports it (``Sum``)."""
    style: str
    """What kind of code it is and how big (files / lines of .go, tests included)."""

    @property
    def spec(self) -> str:
        """``path@version``, as the go command writes it."""
        return f"{self.path}@{self.version}"

    @property
    def root_name(self) -> str:
        """Folder name of the copied module: ``cobra-v1.8.1``."""
        return f"{self.name}-{self.version}"


#: Rules may be studied and tuned on these.
GO_TUNING: tuple[PinnedModule, ...] = (
    PinnedModule(
        "cobra",
        "github.com/spf13/cobra",
        "v1.8.1",
        "h1:e5/vxKd/rZsfSJMUX1agtjeTDf+qv1/JdBF8gg5k9ZM=",
        style="CLI library: one big Command type with many methods, completions; "
        "36 files / 15.7k lines (17 test files)",
    ),
    PinnedModule(
        "logrus",
        "github.com/sirupsen/logrus",
        "v1.9.3",
        "h1:dueUQJ1C2q9oE3F7wvmSGAaVtTmUizReu6fjN8uqzbQ=",
        style="structured logger: Formatter / Hook / FieldLogger interfaces, Entry methods, "
        "build-tagged per-OS files; 44 files / 5.8k lines (20 test files)",
    ),
)

#: Measured only; no Go linking rule is tuned on these and their code is not read to tune.
GO_HELD_OUT: tuple[PinnedModule, ...] = (
    PinnedModule(
        "gin",
        "github.com/gin-gonic/gin",
        "v1.10.0",
        "h1:nTuyha1TYqgedzytsKYqna+DfLos46nTv2ygFy86HFU=",
        style="large HTTP framework: Context methods, router tree, render / binding "
        "packages; 91 files / 18.9k lines (38 test files)",
    ),
    PinnedModule(
        "zap",
        "go.uber.org/zap",
        "v1.27.0",
        "h1:aJMhYGrd5QSmlpLMr2MftRKl7t8J8PTZPA732ud/XR8=",
        style="logger built on heavy interface use (zapcore Core / Encoder / WriteSyncer / "
        "ObjectMarshaler), many packages; 124 files / 21.5k lines (65 test files)",
    ),
    PinnedModule(
        "mux",
        "github.com/gorilla/mux",
        "v1.8.1",
        "h1:TuBL49tXwgrFYWhqrNgrUNEY92u81SPhu7sTdzQEiWY=",
        style="HTTP router: Router / Route with matcher interfaces; 16 files / 6.9k lines "
        "(10 test files)",
    ),
)

GO_MODULES: tuple[PinnedModule, ...] = GO_TUNING + GO_HELD_OUT
