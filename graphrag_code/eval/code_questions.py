"""Code questions with ground truth that does not come from our graph, and the runs over them.

Four categories, each answered by an independent source:

    concept     the first sentence of a function's docstring -> that function, searched in a
                copy of the package whose docstrings are blanked (so the answer is not a
                copy of the question)
    callers     "What calls `X`?" -> the callers jedi's `goto` finds (the calls oracle)
    impact      "What breaks if I change M?" -> M's reverse transitive importers (grimp),
                scored per module: a hit counts for the module that contains it
    definition  "Where is X defined?" in four spellings (`Session.request`, "the request
                method of Session", `sessionRequest`, "session request") -> X

Ground truth is computed with Python's `ast` and the oracles' JSON
(`benchmarks/oracles`), never with our parser or linker. Relevant ids use our id scheme
(`repo:qualified.name`, modules `repo:module`); hit ids are compared without the `#2` / `@path`
suffixes our ids add to redefinitions.

    result = run_code_benchmark(["requests==2.32.3"], output_dir=Path("benchmarks/results"))
    print(result.to_markdown())

Every ablation searches the same indexes: full text only, vector only, vector + text, the full
hybrid (per-intent weights), hybrid + centrality prior, a sweep of the graph leg's weight, and
neo4j-graphrag's `HybridRetriever` on the same vector and full-text indexes.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import json
import random
import re
import statistics
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..embedding.base import Embedder, WrappedEmbedder
from ..errors import ConfigurationError
from ..graph.client import Neo4jClient
from ..graph.queries import load_query
from ..ingest.state import StateStore
from ..progress import ProgressReporter
from ..retrieval.question import analyse
from ..retrieval.search import DEFAULT_WEIGHTS, LEGS, Searcher, SearchOptions
from ..settings import Settings
from ..text import split_identifier
from .metrics import Metric, Summary, accuracy_at_k, aggregate, mrr, ndcg_at_k, recall_at_k
from .metrics import score_queries as _score_queries
from .run import git_commit

if TYPE_CHECKING:
    from .baselines import HybridRetrieverBaseline

__all__ = [
    "ABLATIONS",
    "DEFAULT_ABLATIONS",
    "DEFAULT_PACKAGES",
    "Ablation",
    "Answer",
    "Category",
    "CodeBenchmarkResult",
    "CodeQuestion",
    "Definition",
    "PackageSource",
    "build_questions",
    "caller_questions",
    "code_metrics",
    "concept_questions",
    "definition_questions",
    "docstring_question",
    "impact_questions",
    "module_files",
    "oracle_source",
    "prepare_package",
    "read_questions",
    "run_code_benchmark",
    "scan_definitions",
    "score_answers",
    "shortest_unique_name",
    "spellings",
    "strip_docstrings",
    "write_questions",
]

DEFAULT_PACKAGES = ("requests==2.32.3", "flask==3.0.3", "click==8.1.7")
"""Pinned packages with oracle outputs (`benchmarks/oracles`); httpx is pinned there too."""
DEFAULT_SEED = 20250101
MIN_DOCSTRING_WORDS = 5
MAX_DOCSTRING_WORDS = 60
MAX_CALLERS = 10
MAX_IMPORTERS = 20
METRIC_NAMES = ("R@1", "R@5", "R@10", "MRR", "nDCG@10", "Acc@5", "Acc@10")


class Category(str, Enum):
    CONCEPT = "concept"
    CALLERS = "callers"
    IMPACT = "impact"
    DEFINITION = "definition"


# -- questions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CodeQuestion:
    """One question, the repository it is asked about, and the ids that answer it."""

    id: str
    question: str
    category: Category
    repo: str
    relevant: tuple[str, ...]
    subject: str = ""  # the symbol or module the question is about
    variant: str = ""  # how it is phrased (definition spellings, impact path/module)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "category": self.category.value,
            "repo": self.repo,
            "relevant": list(self.relevant),
            "subject": self.subject,
            "variant": self.variant,
        }

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> CodeQuestion:
        try:
            return cls(
                id=str(record["id"]),
                question=str(record["question"]),
                category=Category(record["category"]),
                repo=str(record["repo"]),
                relevant=tuple(str(r) for r in record["relevant"]),
                subject=str(record.get("subject") or ""),
                variant=str(record.get("variant") or ""),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise ConfigurationError(f"not a code question: {exc}") from exc


def write_questions(path: Path, questions: Iterable[CodeQuestion]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for question in questions:
            handle.write(json.dumps(question.to_json(), ensure_ascii=False) + "\n")


def read_questions(path: Path) -> list[CodeQuestion]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as exc:
        raise ConfigurationError(f"question file not found: {path}") from exc
    return [CodeQuestion.from_json(json.loads(line)) for line in lines if line.strip()]


# -- the package's own definitions, read with `ast` ---------------------------------------------
DefinitionKind = Literal["class", "function", "method"]


@dataclass(frozen=True)
class Definition:
    """A class, function or method as Python's `ast` sees it."""

    qualified_name: str
    name: str
    kind: DefinitionKind
    module: str
    path: str  # relative to the import root, "/" separators
    line: int
    docstring: str | None
    nested: bool  # inside a function body (closures, local classes)
    overloaded: bool  # `@overload` stubs share their qualified name with the implementation

    @property
    def owner(self) -> str:
        """The enclosing class (methods) or module (the rest), as a short name."""
        return self.qualified_name.rsplit(".", 2)[-2]


def module_files(import_root: Path, package: str) -> dict[str, str]:
    """Module name -> path (relative to `import_root`) of every `.py` module of `package`,
    by Python's import rules (directories without `__init__.py` are namespace packages)."""
    found: dict[str, str] = {}
    for file in sorted((import_root / package).rglob("*.py")):
        relative = file.relative_to(import_root)
        parts = list(relative.with_suffix("").parts)
        if not all(part.isidentifier() for part in parts):
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = relative.as_posix()
    return found


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        name = decorator.attr if isinstance(decorator, ast.Attribute) else None
        name = decorator.id if isinstance(decorator, ast.Name) else name
        if name == "overload":
            return True
    return False


def _definitions(
    body: Sequence[ast.stmt], module: str, path: str, scope: str, *, in_class: bool, nested: bool
) -> Iterator[Definition]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qualified = f"{scope}.{node.name}"
            is_class = isinstance(node, ast.ClassDef)
            kind: DefinitionKind = "class" if is_class else "method" if in_class else "function"
            yield Definition(
                qualified_name=qualified,
                name=node.name,
                kind=kind,
                module=module,
                path=path,
                line=node.lineno,
                docstring=ast.get_docstring(node),
                nested=nested,
                overloaded=not isinstance(node, ast.ClassDef) and _is_overload(node),
            )
            yield from _definitions(
                node.body, module, path, qualified, in_class=is_class, nested=nested or not is_class
            )
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            # definitions under `if TYPE_CHECKING:`, `try: ... except ImportError:`, ...
            for block in _blocks(node):
                yield from _definitions(
                    block, module, path, scope, in_class=in_class, nested=nested
                )


def _blocks(node: ast.If | ast.Try | ast.With | ast.For | ast.While) -> list[list[ast.stmt]]:
    blocks = [node.body, getattr(node, "orelse", [])]
    if isinstance(node, ast.Try):
        blocks += [handler.body for handler in node.handlers] + [node.finalbody]
    return blocks


def scan_definitions(import_root: Path, package: str) -> list[Definition]:
    """Every class, function and method of `package`, in module order."""
    found: list[Definition] = []
    for module, path in module_files(import_root, package).items():
        source = (import_root / path).read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # not Python 3; our indexer skips it too
        found.extend(_definitions(tree.body, module, path, module, in_class=False, nested=False))
    return found


# -- docstring removal --------------------------------------------------------------------------
def _docstring_spans(tree: ast.Module) -> list[ast.Expr]:
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                spans.append(first)
    return spans


def strip_docstrings(source: str) -> str:
    """`source` with every docstring replaced by `""`, each line where it was.

    `""` rather than `pass`: a module docstring may precede `from __future__ import`, which
    nothing else may. A multi-line docstring leaves blank lines behind, or backslash
    continuations when code follows it on its last line, so line numbers do not move.

        >>> strip_docstrings('def f():\\n    \"\"\"Doc.\\n\\n    More.\"\"\"\\n    return 1\\n')
        'def f():\\n    ""\\n\\n\\n    return 1\\n'
    """
    tree = ast.parse(source)
    lines = source.encode("utf-8").splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    data = source.encode("utf-8")
    spans = sorted(_docstring_spans(tree), key=lambda node: (node.lineno, node.col_offset))
    for node in reversed(spans):
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        begin = starts[node.lineno - 1] + node.col_offset
        end = starts[node.end_lineno - 1] + node.end_col_offset
        rest = data[end : starts[node.end_lineno]].strip()
        breaks = node.end_lineno - node.lineno
        joiner = b" \\\n" if rest and not rest.startswith(b"#") else b"\n"
        data = data[:begin] + b'""' + joiner * breaks + data[end:]
    stripped = data.decode("utf-8")
    if stripped.count("\n") != source.count("\n"):
        raise ConfigurationError("docstring removal moved lines")  # pragma: no cover - a bug
    ast.parse(stripped)  # a SyntaxError here is a bug in the spans above
    return stripped


def _sync_file(source: Path, target: Path, text: str) -> bool:
    if target.is_file() and target.read_text(encoding="utf-8", errors="replace") == text:
        return False  # unchanged files keep their mtime: the next index run is incremental
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return True


def copy_package(
    import_root: Path, package: str, target: Path, *, without_docstrings: bool = False
) -> int:
    """Mirror the Python files of `package` under `target/<package>/` (optionally without
    docstrings); returns how many files changed. Other files of the package are not indexed,
    so they are not copied."""
    wanted: set[Path] = set()
    changed = 0
    for file in sorted((import_root / package).rglob("*.py*")):
        if file.suffix not in (".py", ".pyi") or not file.is_file():
            continue
        relative = file.relative_to(import_root)
        wanted.add(relative)
        text = file.read_text(encoding="utf-8", errors="replace")
        if without_docstrings:
            # not Python 3: copied unchanged, and our indexer skips it anyway
            with contextlib.suppress(SyntaxError):
                text = strip_docstrings(text)
        changed += _sync_file(file, target / relative, text)
    for stale in sorted((target / package).rglob("*")) if (target / package).exists() else []:
        if stale.is_file() and stale.relative_to(target) not in wanted:
            stale.unlink()
            changed += 1
    return changed


# -- question builders (pure) -------------------------------------------------------------------
_ROLE = re.compile(r":[\w:.-]+:`~?([^`<]+?)(?:\s*<[^`>]*>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)")
_WORDS = re.compile(r"[A-Za-z]{2,}")
_POINTERS = re.compile(
    r"^(deprecated|alias|see |same as|like |shortcut|internal|backwards?[- ]compat|"
    r"this (function|method) is deprecated|:|\.\.|>>>)",
    re.IGNORECASE,
)


def docstring_question(docstring: str | None) -> str | None:
    """The first sentence of a docstring, without reST markup; None when it says too little
    (fewer than MIN_DOCSTRING_WORDS words) or only points elsewhere ("Alias for ...")."""
    if not docstring:
        return None
    paragraph = inspect.cleandoc(docstring).split("\n\n", 1)[0]
    paragraph = " ".join(paragraph.split())
    paragraph = _LITERAL.sub(r"`\1`", _ROLE.sub(r"\1", paragraph))
    match = _SENTENCE.match(paragraph)
    sentence = (match.group(1) if match else paragraph).strip()
    words = _WORDS.findall(sentence)
    if not MIN_DOCSTRING_WORDS <= len(words) <= MAX_DOCSTRING_WORDS:
        return None
    if _POINTERS.match(sentence):
        return None
    return sentence


def _sample(items: Sequence[Any], count: int, seed: int) -> list[Any]:
    if count >= len(items):
        return list(items)
    chosen = set(random.Random(seed).sample(range(len(items)), count))
    return [item for index, item in enumerate(items) if index in chosen]


def _searchable(definition: Definition) -> bool:
    return not definition.nested and not definition.overloaded


def _ids(repo: str, names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({f"{repo}:{name}" for name in names}))


def concept_questions(
    definitions: Sequence[Definition], repo: str, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """Docstring first sentences of functions and methods as questions, that function as the
    answer. Sentences shared by several definitions are skipped: they have no single answer."""
    candidates: dict[str, list[Definition]] = {}
    for definition in definitions:
        if definition.kind == "class" or not _searchable(definition):
            continue
        sentence = docstring_question(definition.docstring)
        if sentence is not None:
            candidates.setdefault(sentence, []).append(definition)
    unique = sorted(
        (defs[0].qualified_name, sentence)
        for sentence, defs in candidates.items()
        if len(defs) == 1
    )
    return [
        CodeQuestion(
            id=f"{repo}/concept/{number:03d}",
            question=sentence,
            category=Category.CONCEPT,
            repo=repo,
            relevant=_ids(repo, [qualified]),
            subject=qualified,
        )
        for number, (qualified, sentence) in enumerate(_sample(unique, sample, seed), start=1)
    ]


def shortest_unique_name(qualified: str, all_names: Iterable[str], *, minimum: int = 1) -> str:
    """The shortest dotted suffix of `qualified` (at least `minimum` parts) that no other name
    ends with: how a person names a symbol unambiguously (`Session.request`, `get_netrc_auth`).
    """
    parts = qualified.split(".")
    others = [name.split(".") for name in set(all_names) if name != qualified]
    for length in range(max(1, minimum), len(parts) + 1):
        suffix = parts[-length:]
        if not any(other[-length:] == suffix for other in others if len(other) >= length):
            return ".".join(suffix)
    return qualified


def caller_questions(
    calls: Mapping[str, Any],
    definitions: Sequence[Definition],
    repo: str,
    *,
    sample: int,
    seed: int = DEFAULT_SEED,
    max_callers: int = MAX_CALLERS,
) -> list[CodeQuestion]:
    """Questions "What calls `X`?" for functions and methods with 1..`max_callers` callers in
    jedi's call-graph oracle (call sites grouped by target). Classes (construction), dunders and
    nested functions are left out: people ask about them differently or not at all."""
    by_name = {d.qualified_name: d for d in definitions if _searchable(d)}
    classes = {str(c["qname"]) for c in calls.get("classes", [])}
    callers: dict[str, set[str]] = {}
    for site in calls["call_sites"]:
        for target in site["targets"]:
            callers.setdefault(str(target), set()).add(str(site["caller"]))
    eligible = sorted(
        target
        for target, found in callers.items()
        if target in by_name
        and target not in classes
        and by_name[target].kind != "class"
        and not by_name[target].name.startswith("__")
        and 1 <= len(found) <= max_callers
    )
    names = [d.qualified_name for d in definitions]
    questions = []
    for number, target in enumerate(_sample(eligible, sample, seed), start=1):
        minimum = 2 if by_name[target].kind == "method" else 1
        spelled = shortest_unique_name(target, names, minimum=minimum)
        questions.append(
            CodeQuestion(
                id=f"{repo}/callers/{number:03d}",
                question=f"What calls `{spelled}`?",
                category=Category.CALLERS,
                repo=repo,
                relevant=_ids(repo, callers[target]),
                subject=target,
            )
        )
    return questions


def reverse_importers(internal_imports: Iterable[Sequence[Any]]) -> dict[str, set[str]]:
    """Module -> every module that imports it directly or transitively (itself excluded)."""
    direct: dict[str, set[str]] = {}
    for importer, imported, *_ in internal_imports:
        if importer != imported:
            direct.setdefault(str(imported), set()).add(str(importer))
    closure: dict[str, set[str]] = {}
    for module in direct:
        seen: set[str] = set()
        todo = list(direct[module])
        while todo:
            current = todo.pop()
            if current in seen or current == module:
                continue
            seen.add(current)
            todo.extend(direct.get(current, ()))
        closure[module] = seen
    return closure


def impact_questions(
    imports: Mapping[str, Any],
    repo: str,
    *,
    sample: int,
    seed: int = DEFAULT_SEED,
    max_importers: int = MAX_IMPORTERS,
    type_checking: bool = False,
) -> list[CodeQuestion]:
    """Questions "What breaks if I change M?" (M as a file path and as a dotted module name)
    for modules with 1..`max_importers` reverse transitive importers in grimp's import graph.

    Imports under `if TYPE_CHECKING:` are left out unless `type_checking`: they break no
    running code, and with them Flask's modules form one cycle in which every module
    "breaks" 21 of the other 23."""
    files: Mapping[str, str] = imports["module_files"]
    skipped = set() if type_checking else {(a, b) for a, b, *_ in imports["type_checking_imports"]}
    pairs = [p for p in imports["internal_imports"] if (p[0], p[1]) not in skipped]
    importers = reverse_importers(pairs)
    eligible = sorted(m for m, found in importers.items() if 1 <= len(found) <= max_importers)
    questions: list[CodeQuestion] = []
    for module in _sample(eligible, sample, seed):
        relevant = _ids(repo, importers[module])
        for variant, spelled in (("path", files[module]), ("module", f"`{module}`")):
            questions.append(
                CodeQuestion(
                    id=f"{repo}/impact/{len(questions) + 1:03d}",
                    question=f"What breaks if I change {spelled}?",
                    category=Category.IMPACT,
                    repo=repo,
                    relevant=relevant,
                    subject=module,
                    variant=variant,
                )
            )
    return questions


def _camel(words: Sequence[str]) -> str:
    return words[0] + "".join(word.capitalize() for word in words[1:])


def spellings(definition: Definition) -> dict[str, str]:
    """How people write a symbol: dotted (`Session.request`), a phrase ("the request method
    of Session"), one identifier in the other case convention (`sessionRequest`,
    `get_netrc_auth` -> `getNetrcAuth`, `HTTPAdapter` -> `http_adapter`) and plain words."""
    name = definition.name
    words = split_identifier(name)
    if definition.kind == "method":
        owner = definition.owner
        everything = split_identifier(owner) + words
        return {
            "dotted": f"`{owner}.{name}`",
            "phrase": f"the {name} method of {owner}",
            "joined": _camel(everything),
            "words": " ".join(everything),
        }
    is_snake = name.lower() == name
    joined = _camel(words) if is_snake else "_".join(words)
    if joined == name:  # one word: nothing to re-case
        joined = name.capitalize() if is_snake else name.lower()
    return {
        "dotted": f"`{name}`",
        "phrase": f"the {name} {definition.kind}",
        "joined": joined,
        "words": " ".join(words),
    }


def definition_questions(
    definitions: Sequence[Definition], repo: str, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """Questions "Where is X defined?" in every spelling of `spellings`, for `sample` symbols
    whose name (methods: class and name) no other definition shares."""
    counts: dict[tuple[str, ...], int] = {}

    def key(d: Definition) -> tuple[str, ...]:
        return (d.owner, d.name) if d.kind == "method" else (d.name,)

    for definition in definitions:
        counts[key(definition)] = counts.get(key(definition), 0) + 1
    eligible = [
        d
        for d in definitions
        if _searchable(d)
        and counts[key(d)] == 1
        and not d.name.startswith("_")
        and len(d.name) >= 4
    ]
    questions: list[CodeQuestion] = []
    for definition in _sample(eligible, sample, seed):
        for variant, spelled in spellings(definition).items():
            questions.append(
                CodeQuestion(
                    id=f"{repo}/definition/{len(questions) + 1:03d}",
                    question=f"Where is {spelled} defined?",
                    category=Category.DEFINITION,
                    repo=repo,
                    relevant=_ids(repo, [definition.qualified_name]),
                    subject=definition.qualified_name,
                    variant=variant,
                )
            )
    return questions


# -- packages -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PackageSource:
    """A pinned package's source and the oracle outputs computed from it."""

    name: str
    version: str
    import_root: Path
    package: str  # top-level import name
    calls_oracle: Path  # jedi: benchmarks/cache/oracles/<name>-<version>.calls.json
    imports_oracle: Path  # grimp: benchmarks/cache/oracles/<name>-<version>.imports.json

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}"

    @property
    def repo(self) -> str:
        """Where the package is indexed as is (callers, impact, definition questions)."""
        return f"cq-{self.name}-{self.version}"

    @property
    def nodoc_repo(self) -> str:
        """Where the copy without docstrings is indexed (concept questions)."""
        return f"{self.repo}-nodoc"


def _parse_spec(spec: str) -> tuple[str, str]:
    name, _, version = spec.partition("==")
    if not name.strip() or not version.strip():
        raise ConfigurationError(f"expected NAME==VERSION, got {spec!r}")
    return name.strip(), version.strip()


def oracle_source(spec: str) -> PackageSource:
    """Fetch `NAME==VERSION` and its oracle outputs with the repository's `benchmarks`
    package (a checkout of graphrag-code with the `bench` extra); runs the oracles when
    their JSON is missing (jedi takes minutes)."""
    name, version = _parse_spec(spec)
    try:
        # imported by name: `benchmarks` is not part of the installed package
        packages: Any = importlib.import_module("benchmarks.oracles.packages")
    except ImportError as exc:
        raise ConfigurationError(
            "the code-question benchmark needs the `benchmarks` package of a graphrag-code "
            "checkout (run it from the repository root) and the `bench` extra"
        ) from exc
    fetched = packages.fetch(name, version)
    base = f"{packages.ORACLE_OUT_DIR}/{name}-{version}"
    calls, imports = Path(f"{base}.calls.json"), Path(f"{base}.imports.json")
    if not calls.is_file() or not imports.is_file():
        importlib.import_module("benchmarks.oracles.run_all").main([f"{name}=={version}"])
    return PackageSource(
        name, version, Path(fetched.import_root), str(fetched.package), calls, imports
    )


def _load_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"oracle output not found: {path}") from exc
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path}: expected a JSON object")
    return data


def build_questions(
    source: PackageSource, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """The four question sets of one package (definitions read with `ast`, oracles' JSON)."""
    definitions = scan_definitions(source.import_root, source.package)
    calls = _load_json(source.calls_oracle)
    imports = _load_json(source.imports_oracle)
    return [
        *concept_questions(definitions, source.nodoc_repo, sample=sample, seed=seed),
        *caller_questions(calls, definitions, source.repo, sample=sample, seed=seed),
        *impact_questions(imports, source.repo, sample=sample, seed=seed),
        *definition_questions(definitions, source.repo, sample=max(1, sample // 4), seed=seed),
    ]


# -- ablations ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ablation:
    """One retrieval configuration. `graph_weight` None keeps the per-intent defaults; a
    subset of the legs fuses them with equal weights (`SearchOptions`)."""

    name: str
    legs: tuple[str, ...] = LEGS
    graph_weight: float | None = None
    centrality_prior: float = 0.0
    baseline: bool = False  # neo4j-graphrag's HybridRetriever instead of our search
    candidates: int | None = None  # candidates per leg; None keeps SearchOptions' default

    def options(self, question: str, *, k: int) -> SearchOptions:
        weights = None
        if self.graph_weight is not None:
            weights = {**DEFAULT_WEIGHTS[analyse(question).intent], "graph": self.graph_weight}
        depth = {} if self.candidates is None else {"candidates_per_leg": self.candidates}
        return SearchOptions(
            k=k, legs=self.legs, weights=weights, centrality_prior=self.centrality_prior, **depth
        )


ABLATIONS: dict[str, Ablation] = {
    ablation.name: ablation
    for ablation in (
        Ablation("text", legs=("text",)),
        Ablation("vector", legs=("vector",)),
        Ablation("vector+text", legs=("vector", "text")),
        Ablation("hybrid"),
        Ablation("hybrid+prior", centrality_prior=1.0),
        Ablation("graph=0.25", graph_weight=0.25),
        Ablation("graph=1", graph_weight=1.0),
        Ablation("graph=4", graph_weight=4.0),
        Ablation("depth=20", candidates=20),
        Ablation("depth=50", candidates=50),
        Ablation("neo4j-graphrag", legs=("vector", "text"), baseline=True),
    )
}
DEFAULT_ABLATIONS = tuple(ABLATIONS)


def _ablations(names: Sequence[str] | None) -> list[Ablation]:
    unknown = [name for name in names or () if name not in ABLATIONS]
    if unknown:
        raise ConfigurationError(f"unknown ablations {unknown}; choose from {list(ABLATIONS)}")
    return [ABLATIONS[name] for name in names or DEFAULT_ABLATIONS]


# -- running and scoring ------------------------------------------------------------------------
@dataclass(frozen=True)
class Answer:
    """What one configuration returned for one question, and the ids that were scored."""

    question: CodeQuestion
    ablation: str
    ranking: tuple[str, ...]  # scored ids, best first (impact: modules)
    hits: tuple[Mapping[str, Any], ...]  # id, score, per-leg ranks, as returned
    timings_ms: Mapping[str, float]
    intent: str = ""
    error: str | None = None  # the baseline's failed queries (Lucene parse errors)
    leg_sizes: Mapping[str, int] = field(default_factory=dict)  # hits per leg, in the repo

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "answer",
            "question_id": self.question.id,
            "category": self.question.category.value,
            "variant": self.question.variant,
            "question": self.question.question,
            "repo": self.question.repo,
            "relevant": list(self.question.relevant),
            "ablation": self.ablation,
            "intent": self.intent,
            "ranking": list(self.ranking),
            "hits": [dict(hit) for hit in self.hits],
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "leg_sizes": dict(self.leg_sizes),
            "error": self.error,
        }


def code_metrics() -> dict[str, Metric]:
    """Recall@1/5/10, MRR (of the top 10), nDCG@10 and strict Acc@5/10 (LocAgent)."""
    return {
        "R@1": partial(recall_at_k, k=1),
        "R@5": partial(recall_at_k, k=5),
        "R@10": partial(recall_at_k, k=10),
        "MRR": partial(mrr, k=10),
        "nDCG@10": partial(ndcg_at_k, k=10),
        "Acc@5": partial(accuracy_at_k, k=5),
        "Acc@10": partial(accuracy_at_k, k=10),
    }


def _plain_id(node_id: str) -> str:
    # `#2` (redefinitions), `#def` and `@path` (shadowed names) are our id scheme's, not the
    # oracles': the same qualified name counts as the same symbol
    return node_id.split("#", 1)[0].split("@", 1)[0]


def scored_ranking(
    question: CodeQuestion, hits: Iterable[tuple[str, str]], modules: Mapping[str, str]
) -> tuple[str, ...]:
    """The ids scored for `hits` ((id, path) pairs, best first), first occurrences only.
    Impact questions are answered by files: every hit counts as the module of its path."""
    ranking: dict[str, None] = {}
    for node_id, path in hits:
        if question.category is Category.IMPACT:
            module = modules.get(path)
            if module is None:
                continue  # a hit outside the package's modules answers nothing here
            ranking.setdefault(f"{question.repo}:{module}", None)
        else:
            ranking.setdefault(_plain_id(node_id), None)
    return tuple(ranking)


def score_answers(
    answers: Sequence[Answer], *, by: Callable[[CodeQuestion], str] | None = None
) -> dict[str, Summary]:
    """Mean metrics per group (default: category, plus "all"): {group: Summary}."""
    group = by or (lambda q: q.category.value)
    run = {a.question.id: list(a.ranking) for a in answers}
    qrels = {a.question.id: a.question.relevant for a in answers}
    per_query = _score_queries(run, qrels, code_metrics())
    summary = aggregate(per_query, {a.question.id: group(a.question) for a in answers})
    return {"all": summary.overall, **summary.by_category}


class _CachedQueries(WrappedEmbedder):
    """An `Embedder` that computes each query vector once: the ablations ask the same
    questions, and the time of the first computation is kept for the record."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.vectors: dict[str, list[float]] = {}
        self.seconds: dict[str, float] = {}

    def embed_query(self, text: str) -> list[float]:
        if text not in self.vectors:
            started = time.perf_counter()
            self.vectors[text] = self.inner.embed_query(text)
            self.seconds[text] = time.perf_counter() - started
        return self.vectors[text]


def _our_answer(
    searcher: Searcher,
    question: CodeQuestion,
    ablation: Ablation,
    *,
    k: int,
    modules: Mapping[str, str],
) -> Answer:
    options = ablation.options(question.question, k=k)
    started = time.perf_counter()
    result = searcher.search(question.question, repo=question.repo, options=options)
    timings = {**result.timings_ms, "total": (time.perf_counter() - started) * 1000}
    hits = tuple(
        {"id": h.id, "score": round(h.score, 6), "ranks": dict(h.ranks), "path": h.path}
        for h in result.hits
    )
    ranking = scored_ranking(question, ((h.id, h.path) for h in result.hits), modules)
    sizes = {leg: len(ids) for leg, ids in result.legs.items()}
    intent = result.question.intent.value
    return Answer(question, ablation.name, ranking, hits, timings, intent, leg_sizes=sizes)


def _baseline_answer(
    baseline: HybridRetrieverBaseline,
    question: CodeQuestion,
    *,
    k: int,
    modules: Mapping[str, str],
) -> Answer:
    found = baseline.search(question.question, repo=question.repo, k=k)
    hits = tuple(
        {"id": h.id, "score": round(h.score, 6), "ranks": {"baseline": n}, "path": h.path}
        for n, h in enumerate(found.hits, start=1)
    )
    ranking = scored_ranking(question, ((h.id, h.path) for h in found.hits), modules)
    timings = {"query": found.seconds * 1000, "embed": found.embed_seconds * 1000}
    sizes = {"all repositories": found.returned, "repository": found.kept}
    name = "neo4j-graphrag"
    return Answer(question, name, ranking, hits, timings, error=found.error, leg_sizes=sizes)


def run_ablation(
    searcher: Searcher,
    questions: Sequence[CodeQuestion],
    ablation: Ablation,
    *,
    k: int = 10,
    modules: Mapping[str, str] | None = None,
    baseline: HybridRetrieverBaseline | None = None,
    progress: ProgressReporter | None = None,
) -> list[Answer]:
    """Ask every question once under `ablation`. `modules`: path -> module name, for scoring
    impact questions; `baseline`: a `graphrag_code.eval.baselines.HybridRetrieverBaseline`."""
    modules = modules or {}
    if ablation.baseline and baseline is None:
        raise ConfigurationError("the neo4j-graphrag ablation needs a baseline retriever")
    answers = []
    for question in questions:
        if ablation.baseline:
            assert baseline is not None
            answers.append(_baseline_answer(baseline, question, k=k, modules=modules))
        else:
            answers.append(_our_answer(searcher, question, ablation, k=k, modules=modules))
        if progress is not None:
            progress.advance()
    return answers


# -- the whole benchmark ------------------------------------------------------------------------
def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _commit(config: Mapping[str, Any]) -> str:
    git = config.get("git") or {}
    commit = str(git.get("commit") or "unknown")[:10]
    return f"{commit}, with uncommitted changes" if git.get("dirty") else commit


def _cell(summary: Summary | None, metrics: Sequence[str]) -> str:
    if summary is None:
        return "-"
    return " / ".join(f"{summary.means.get(m, 0.0):.2f}" for m in metrics)


def _pivot(
    title: str,
    rows: Sequence[tuple[str, Mapping[str, Summary]]],
    ablations: Sequence[str],
    metrics: Sequence[str],
) -> list[str]:
    """Rows x ablations, each cell `metrics` joined by " / "."""
    lines = [
        f"| {title} | n | " + " | ".join(ablations) + " |",
        "|---|---:|" + "---:|" * len(ablations),
    ]
    for label, by_ablation in rows:
        n = next((s.queries for s in by_ablation.values()), 0)
        cells = " | ".join(_cell(by_ablation.get(a), metrics) for a in ablations)
        lines.append(f"| {label} | {n} | {cells} |")
    return lines


@dataclass(frozen=True)
class CodeBenchmarkResult:
    """Scores per package, ablation and category, pooled scores, and where it was written."""

    packages: tuple[str, ...]
    ablations: tuple[str, ...]
    scores: Mapping[str, Mapping[str, Mapping[str, Summary]]]  # package -> ablation -> cat
    pooled: Mapping[str, Mapping[str, Summary]]  # ablation -> category ("all" included)
    variants: Mapping[str, Mapping[str, Summary]]  # ablation -> "category/variant"
    latency_ms: Mapping[str, Mapping[str, float]]  # ablation -> p50/p95 of the search call
    baseline_failures: Mapping[str, int]  # package -> failed neo4j-graphrag queries
    vector_leg: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """package -> mean in-repository hits of the vector leg, and the share of questions where
    it came back short of `candidates_per_leg` (other repositories took the candidates)."""
    database: Sequence[Mapping[str, Any]] = ()  # nodes and vectors per stored repository
    config: Mapping[str, Any] = field(default_factory=dict)
    run_log: Path | None = None
    summary_json: Path | None = None
    summary_md: Path | None = None

    def to_json(self) -> dict[str, Any]:
        def table(rows: Mapping[str, Summary]) -> dict[str, Any]:
            return {
                name: {
                    "n": s.queries,
                    **{m: round(s.means.get(m, 0.0), 4) for m in METRIC_NAMES},
                }
                for name, s in rows.items()
            }

        return {
            "config": dict(self.config),
            "packages": list(self.packages),
            "ablations": list(self.ablations),
            "pooled": {a: table(rows) for a, rows in self.pooled.items()},
            "variants": {a: table(rows) for a, rows in self.variants.items()},
            "per_package": {
                p: {a: table(rows) for a, rows in by_ablation.items()}
                for p, by_ablation in self.scores.items()
            },
            "latency_ms": {a: dict(v) for a, v in self.latency_ms.items()},
            "baseline_failed_queries": dict(self.baseline_failures),
            "vector_leg": {p: dict(v) for p, v in self.vector_leg.items()},
            "database": [dict(row) for row in self.database],
            "run_log": self.run_log.name if self.run_log else None,
        }

    def _category_table(self, category: str) -> list[str]:
        lines = [
            "| ablation | n | " + " | ".join(METRIC_NAMES) + " |",
            "|---|---:|" + "---:|" * len(METRIC_NAMES),
        ]
        for ablation in self.ablations:
            summary = self.pooled.get(ablation, {}).get(category)
            if summary is not None:
                values = " | ".join(f"{summary.means.get(m, 0.0):.3f}" for m in METRIC_NAMES)
                lines.append(f"| {ablation} | {summary.queries} | {values} |")
        return lines

    def _graph_effect(self) -> list[str]:
        """What adding the graph leg changes: hybrid minus vector+text, per category."""
        with_graph, without = self.pooled.get("hybrid"), self.pooled.get("vector+text")
        if with_graph is None or without is None:
            return []
        metrics = ("MRR", "R@1", "R@10", "Acc@10")
        lines = [
            "",
            "### What the graph leg adds (hybrid minus vector+text, pooled)",
            "",
            "| category | " + " | ".join(f"Δ {m}" for m in metrics) + " |",
            "|---|" + "---:|" * len(metrics),
        ]
        for category in ["all", *(c.value for c in Category)]:
            if category in with_graph and category in without:
                deltas = (
                    with_graph[category].means.get(m, 0.0) - without[category].means.get(m, 0.0)
                    for m in metrics
                )
                lines.append(f"| {category} | " + " | ".join(f"{d:+.3f}" for d in deltas) + " |")
        return lines

    def to_markdown(self) -> str:
        k, n = self.config.get("k"), int(self.config.get("sample", 0))
        out = [
            "# Code questions: retrieval quality per category and ablation",
            "",
            f"Packages: {', '.join(self.packages)}. Embedder: {self.config.get('embedder')}. "
            f"Top {k} hits scored; MRR is of the top {k}; Acc@k is strict (every relevant id "
            "in the top k). Generated by `benchmarks/code_questions.py`; every answer, with "
            "its per-leg ranks and timings, is in the JSONL run log "
            f"`{self.run_log.name if self.run_log else '-'}` (commit {_commit(self.config)}).",
            "",
            f"Per package, seed {self.config.get('seed')}: up to {n} concept questions (first "
            "docstring sentence -> that function, asked of the copy without docstrings), up to "
            f"{n} callers questions (jedi; targets with 1-{MAX_CALLERS} callers), impact "
            f"questions for every module with 1-{MAX_IMPORTERS} reverse transitive runtime "
            "importers (grimp), each as a path and as a module name, scored per module (R@10 "
            f"and Acc@10 cannot reach 1 above 10 importers), and {max(1, n // 4)} symbols x 4 "
            "spellings of definition questions.",
            "",
            "## All packages pooled",
        ]
        for category in ["all", *(c.value for c in Category)]:
            out += ["", f"### {category}", "", *self._category_table(category)]
        out += self._graph_effect()
        ablations = list(self.ablations)
        per_package = [
            (f"{package} {category.value}", {a: t[a][category.value] for a in t})
            for package, t in self.scores.items()
            for category in Category
            if any(category.value in t[a] for a in t)
        ]
        out += ["", "## Per package: MRR / R@10", ""]
        out += _pivot("package, category", per_package, ablations, ("MRR", "R@10"))
        spelled = sorted({v for rows in self.variants.values() for v in rows})
        by_variant = [(v, {a: self.variants[a][v] for a in self.variants}) for v in spelled]
        out += ["", "## By spelling of the question (pooled): MRR / R@10", ""]
        out += _pivot("category/spelling", by_variant, ablations, ("MRR", "R@10"))
        out += [
            "",
            "## Latency of one search call (ms; query embedding excluded, it is cached)",
            "",
            "| ablation | p50 | p95 |",
            "|---|---:|---:|",
        ]
        for ablation in self.ablations:
            latency = self.latency_ms.get(ablation, {})
            out.append(
                f"| {ablation} | {latency.get('p50', 0.0):.1f} | {latency.get('p95', 0.0):.1f} |"
            )
        if self.baseline_failures:
            failed = ", ".join(f"{p}: {n}" for p, n in self.baseline_failures.items())
            out += ["", f"neo4j-graphrag queries that failed (Lucene parse errors): {failed}."]
        if self.vector_leg:
            legs = ", ".join(
                f"{p}: {v['mean']:.1f} ({v['short']:.0%} short)" for p, v in self.vector_leg.items()
            )
            out += [
                "",
                f"Vector leg, mean in-repository hits of {self.config.get('candidates')}: {legs}.",
            ]
        if self.database:
            stored = ", ".join(
                f"{row['repo']} {row['nodes']}/{row['vectors']}" for row in self.database
            )
            out += ["", f"Stored in the database (nodes/vectors): {stored}."]
        return "\n".join(out) + "\n"


class _RunLog:
    """JSONL: one `run` header, the question sets, one `answer` line per question and
    ablation, one `evaluation` line per package and ablation."""

    def __init__(self, path: Path, config: Mapping[str, Any]) -> None:
        self.path = path
        self.run_id = uuid.uuid4().hex[:12]
        path.parent.mkdir(parents=True, exist_ok=True)
        self._write(
            [
                {
                    "type": "run",
                    "run_id": self.run_id,
                    "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "config": dict(config),
                    "git": git_commit(),
                }
            ]
        )

    def _write(self, records: Iterable[Mapping[str, Any]]) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            for record in records:
                line = {**record, "run_id": self.run_id}
                handle.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")

    def answers(self, package: str, answers: Sequence[Answer]) -> None:
        self._write({**a.to_json(), "package": package} for a in answers)

    def evaluation(self, package: str, ablation: str, scores: Mapping[str, Summary]) -> None:
        self._write(
            [
                {
                    "type": "evaluation",
                    "package": package,
                    "ablation": ablation,
                    "scores": {
                        c: {"n": s.queries, **{m: round(v, 6) for m, v in s.means.items()}}
                        for c, s in scores.items()
                    },
                }
            ]
        )


def prepare_package(
    source: PackageSource,
    work_dir: Path,
    *,
    client: Neo4jClient,
    settings: Settings,
    embedder: Embedder,
    store: StateStore | None = None,
    progress: ProgressReporter | None = None,
) -> dict[str, Any]:
    """Index the package as is and without docstrings (each under its own repository name),
    incrementally: copies are only rewritten where they differ, vectors are reused by content
    hash. Both copies sit under a folder named after the variant, so node paths read
    `requests/sessions.py` as in the package."""
    from ..api import index_repository

    reports: dict[str, Any] = {}
    for repo, strip in ((source.repo, False), (source.nodoc_repo, True)):
        folder = work_dir / repo
        copy_package(source.import_root, source.package, folder, without_docstrings=strip)
        report = index_repository(
            folder,
            repo,
            client=client,
            settings=settings,
            embedder=embedder,
            store=store,
            progress=progress,
        )
        reports[repo] = {
            "files": report.files_total,
            "symbols": report.symbols,
            "embedded": report.embedded,
            "embedding_cache_hits": report.embedding_cache_hits,
        }
    return reports


def _latency(answers: Sequence[Answer]) -> dict[str, float]:
    # the search call without the query embedding (cached after the first ablation anyway)
    values = [a.timings_ms.get("query", 0.0) + a.timings_ms.get("fuse", 0.0) for a in answers]
    return {"p50": round(_percentile(values, 50), 2), "p95": round(_percentile(values, 95), 2)}


def _vector_leg(answers: Sequence[Answer], candidates: int) -> dict[str, float]:
    sizes = [a.leg_sizes["vector"] for a in answers if "vector" in a.leg_sizes]
    if not sizes:
        return {}
    return {
        "mean": round(statistics.fmean(sizes), 2),
        "short": round(sum(1 for n in sizes if n < candidates) / len(sizes), 4),
    }


@dataclass
class _Bench:
    """What every package's run shares."""

    client: Neo4jClient
    settings: Settings
    embedder: _CachedQueries
    searcher: Searcher
    baseline: HybridRetrieverBaseline | None
    store: StateStore
    work_dir: Path
    output_dir: Path
    log: _RunLog
    name: str
    k: int
    progress: ProgressReporter | None


def _ask_package(
    bench: _Bench, source: PackageSource, chosen: Sequence[Ablation], *, sample: int, seed: int
) -> dict[str, list[Answer]]:
    """Build one package's questions and answer them under every ablation."""
    questions = build_questions(source, sample=sample, seed=seed)
    write_questions(bench.output_dir / f"{bench.name}-{source.name}.questions.jsonl", questions)
    files = _load_json(source.imports_oracle)["module_files"]
    modules = {path: module for module, path in files.items()}
    if bench.progress is not None:
        bench.progress.stage(f"questions {source.name}", len(questions) * len(chosen))
    answers: dict[str, list[Answer]] = {}
    for ablation in chosen:
        answers[ablation.name] = run_ablation(
            bench.searcher,
            questions,
            ablation,
            k=bench.k,
            modules=modules,
            baseline=bench.baseline,
            progress=bench.progress,
        )
        bench.log.answers(source.spec, answers[ablation.name])
        bench.log.evaluation(source.spec, ablation.name, score_answers(answers[ablation.name]))
    return answers


def _by_variant(answers: Sequence[Answer]) -> dict[str, Summary]:
    scores = score_answers(answers, by=lambda q: f"{q.category.value}/{q.variant}")
    return {key: s for key, s in scores.items() if key != "all" and not key.endswith("/")}


def _summarise(
    runs: Mapping[str, Mapping[str, list[Answer]]],
    chosen: Sequence[Ablation],
    *,
    config: Mapping[str, Any],
    database: Sequence[Mapping[str, Any]],
    bench: _Bench,
) -> CodeBenchmarkResult:
    pooled = {a.name: [x for answers in runs.values() for x in answers[a.name]] for a in chosen}
    candidates = SearchOptions().candidates_per_leg
    return CodeBenchmarkResult(
        packages=tuple(runs),
        ablations=tuple(a.name for a in chosen),
        scores={
            p: {a: score_answers(x) for a, x in answers.items()} for p, answers in runs.items()
        },
        pooled={name: score_answers(answers) for name, answers in pooled.items()},
        variants={name: _by_variant(answers) for name, answers in pooled.items()},
        latency_ms={name: _latency(answers) for name, answers in pooled.items()},
        baseline_failures={
            p: sum(1 for x in answers[a.name] if x.error)
            for p, answers in runs.items()
            for a in chosen
            if a.baseline
        },
        vector_leg={
            p: leg
            for p, answers in runs.items()
            if (leg := _vector_leg(answers.get("vector", []), candidates))
        },
        database=database,
        config={**config, "candidates": candidates},
        run_log=bench.log.path,
        summary_json=bench.output_dir / f"{bench.name}.json",
        summary_md=bench.output_dir / f"{bench.name}.md",
    )


def run_code_benchmark(
    packages: Sequence[str],
    *,
    output_dir: Path,
    ablations: Sequence[str] | None = None,
    sample: int = 100,
    seed: int = DEFAULT_SEED,
    k: int = 10,
    client: Neo4jClient | None = None,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    sources: Callable[[str], PackageSource] = oracle_source,
    work_dir: Path | None = None,
    progress: ProgressReporter | None = None,
    summary_name: str = "code_questions",
) -> CodeBenchmarkResult:
    """Build the question sets of `packages` (`NAME==VERSION`), index each package (as is and
    without docstrings), run every ablation on the same indexes, and write to `output_dir`:
    `<summary_name>.json`, `<summary_name>.md`, a JSONL run log and the question sets.

    Without `client`/`settings`/`embedder`: `NEO4J_URI` or the managed local server, and the
    embedder the settings name (MiniLM by default). `sources` turns a spec into its source and
    oracle outputs (default: `oracle_source`, which needs a checkout's `benchmarks` package).
    """
    from ..api import connect
    from ..embedding import make_embedder
    from ..settings import load_settings

    settings = settings or load_settings()
    chosen = _ablations(ablations)
    cached = _CachedQueries(embedder or make_embedder(settings))
    own_client = client is None
    client = client or connect(settings)
    config: dict[str, Any] = {
        "packages": list(packages),
        "ablations": [a.name for a in chosen],
        "sample": sample,
        "seed": seed,
        "k": k,
        "embedder": cached.name,
        "vector_index": settings.vector_index,
        "fulltext_index": settings.fulltext_index,
        "git": git_commit(),
    }
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    bench = _Bench(
        client=client,
        settings=settings,
        embedder=cached,
        searcher=Searcher(
            client,
            cached,
            vector_index=settings.vector_index,
            fulltext_index=settings.fulltext_index,
        ),
        baseline=_baseline(client, cached, settings) if any(a.baseline for a in chosen) else None,
        store=StateStore(settings.cache_dir / "graphs"),
        work_dir=work_dir or settings.cache_dir / "code-questions",
        output_dir=output_dir,
        log=_RunLog(output_dir / f"{summary_name}-{stamp}.jsonl", config),
        name=summary_name,
        k=k,
        progress=progress,
    )
    try:
        runs: dict[str, dict[str, list[Answer]]] = {}
        indexed: dict[str, Any] = {}
        found = {spec: sources(spec) for spec in packages}
        # every package is indexed before any question is asked: each leg's candidates depend
        # on everything stored, so every package must be asked about the same database
        for spec, source in found.items():
            indexed[spec] = prepare_package(
                source,
                bench.work_dir,
                client=client,
                settings=settings,
                embedder=cached,
                store=bench.store,
                progress=progress,
            )
        for spec, source in found.items():
            runs[spec] = _ask_package(bench, source, chosen, sample=sample, seed=seed)
        database = client.read(load_query("search/repository_sizes"))
        result = _summarise(
            runs, chosen, config={**config, "indexed": indexed}, database=database, bench=bench
        )
    finally:
        if bench.baseline is not None:
            bench.baseline.close()
        if own_client:
            client.close()
    assert result.summary_json is not None
    assert result.summary_md is not None
    result.summary_json.write_text(json.dumps(result.to_json(), indent=2) + "\n")
    result.summary_md.write_text(result.to_markdown())
    return result


def _baseline(
    client: Neo4jClient, embedder: Embedder, settings: Settings
) -> HybridRetrieverBaseline:
    from .baselines import HybridRetrieverBaseline

    return HybridRetrieverBaseline(
        client.endpoint,
        embedder,
        vector_index=settings.vector_index,
        fulltext_index=settings.fulltext_index,
        database=client.database,
    )
