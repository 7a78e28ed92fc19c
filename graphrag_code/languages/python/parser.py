"""Python source -> `ParsedFile`, with tree-sitter (its grammar tolerates syntax errors).

The captures come from `queries/python.scm`; this module turns them into records. Everything
is attributed to the scope that executes it: a call in a function body belongs to the function,
a decorator or a default value to the enclosing scope, a call in a class body to the class.
The modules beside it hold the parts: `symbols` (definitions), `imports`, `facts` (calls,
bindings, type uses, names per scope), `annotations` (what annotations declare) and `syntax`
(dotted names, callees, docstrings); `flows` and `signature_parser` the value flow and signatures.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import tree_sitter as ts
import tree_sitter_python

from ...model import ParsedFile, ParseIssue
from ...parsing.budget import Deadline
from ...parsing.records import line_count
from ...parsing.treesitter import (
    depth_issues,
    load_query,
    remembered_texts,
    source_captures,
    syntax_issues,
)
from . import facts
from .annotations import (
    annotation_type,
    declared_classes,
    declares_protocol,
    element_types,
    sent_type,
)
from .flows import FlowExtractor
from .imports import imports
from .scopes import FileState
from .signature_parser import SignatureExtractor
from .symbols import definitions
from .syntax import docstring_of, dotted_name

__all__ = ["PythonParser"]


@cache
def _language() -> ts.Language:
    return ts.Language(tree_sitter_python.language())


@cache
def _query() -> ts.Query:
    return load_query(_language(), __name__.rpartition(".")[0], "python.scm")


class PythonParser:
    """Parses one Python file. Cheap to construct; not thread-safe (one per process)."""

    language = "python"
    suffixes = (".py",)

    def __init__(self) -> None:
        self._parser = ts.Parser(_language())

    def skip_reason(self, path: str, source: bytes) -> str | None:
        return None

    def parse(
        self,
        *,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool = False,
    ) -> ParsedFile:
        tree = self._parser.parse(source)
        with remembered_texts():
            return self._records(tree, path, module, is_package, source, sha256, symbols_only)

    def _records(
        self,
        tree: ts.Tree,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool,
    ) -> ParsedFile:
        captures = source_captures(_query(), tree.root_node)
        state = FileState(module=module)
        symbols = definitions(captures.get("definition.class", []), captures, state)
        text = source.decode("utf-8", errors="replace")
        parsed = ParsedFile(
            path=path,
            module=module,
            is_package=is_package,
            language=self.language,
            sha256=sha256,
            loc=line_count(text),
            code=text,
            docstring=docstring_of(tree.root_node),
            symbols=symbols,
            issues=(*syntax_issues(tree.root_node), *depth_issues(tree.root_node)),
        )
        if symbols_only:  # `diff`: the value flow was 60 % of its parse (BENCHMARKS §21)
            return parsed
        flows = self._flows(captures, state)
        signatures = SignatureExtractor(module, state.def_scopes, annotation_type, dotted_name)
        return replace(
            parsed,
            imports=tuple(imports(captures, state)),
            calls=tuple(facts.call_sites(captures.get("call", []), state, flows)),
            bindings=tuple(facts.bindings(captures, state, symbols)),
            type_uses=tuple(facts.type_uses(captures, state)),
            scopes=tuple(facts.scope_names(captures, state, symbols)),
            module_names=frozenset(facts.module_names(captures, state)),
            all_names=facts.all_names(tree.root_node),
            issues=(*parsed.issues, *flows.issues),
            flows=tuple(flows.flows),
            passes=tuple(flows.passes),
            implicit_calls=tuple(flows.implicit),
            signatures=tuple(
                signatures.extract(tree.root_node, captures.get("definition.function", []))
            ),
        )

    def _flows(self, captures: dict[str, list[ts.Node]], state: FileState) -> FlowExtractor:
        flows = FlowExtractor(
            state.scope_of, state.def_scopes, declared_classes,
            element_types, sent_type, state.def_kinds, declares_protocol=declares_protocol,
        )  # fmt: skip
        handlers = {
            "flow.assign": flows.assignment, "flow.augment": flows.augmented,
            "flow.return": flows.returned, "flow.yield": flows.yielded,
            "flow.for": flows.for_loop, "flow.comprehension": flows.comprehension,
            "flow.with": flows.with_item, "flow.except": flows.except_clause,
            "flow.walrus": flows.walrus, "flow.lambda": flows.lambda_parameters,
            "flow.default": flows.default, "flow.decorated": flows.decorated,
            "call": flows.call, "implicit.operator": flows.operator,
            "implicit.subscript": flows.subscript, "implicit.raise": flows.raised,
            "implicit.truth": flows.truth, "implicit.conditional": flows.conditional,
            "implicit.attribute": flows.attribute, "implicit.format": flows.interpolation,
            "flow.typed": flows.declared, "definition.function": flows.declared_return,
            "flow.narrow": flows.narrowed,
        }  # fmt: skip
        deadline = Deadline()
        for capture, handle in handlers.items():
            for node in captures.get(capture, []):
                if deadline.passed():
                    line = node.start_point[0] + 1
                    flows.issues.append(ParseIssue(line, deadline.message("value flow")))
                    break
                handle(node)
            else:
                continue
            break
        flows.flows.sort(key=lambda f: (f.at, f.scope, f.target))
        flows.passes.sort(key=lambda p: (p.at, p.line))
        flows.implicit.sort(key=lambda c: (c.at, c.methods))
        return flows
