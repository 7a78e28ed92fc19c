"""The Go / Java / Rust code questions' labels: doc comments, the blanked copy, declarations
from the oracles' names, and callers (benchmarks/retrieval/oracle_questions.py)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.retrieval.oracle_questions import (
    Declaration,
    NodeIndex,
    blank_docs,
    caller_questions,
    concept_questions,
    definition_questions,
    go_declaration,
    go_docs,
    java_declaration,
    java_docs,
    rust_declaration,
    rust_docs,
    spellings,
)

GO = """//go:build linux

package cobra

// Execute runs the command tree and reports the first error found.
// It is the entry point.
func (c *Command) Execute() error {
\treturn nil
}

// A Command is just that, a command for your application.
type Command struct{}
"""


def _nodes() -> NodeIndex:
    return NodeIndex(
        [
            {"id": "exec", "path": "c.go", "kind": "Method", "start": 7, "end": 9},
            {"id": "cmd", "path": "c.go", "kind": "Class", "start": 12, "end": 12},
            {"id": "main", "path": "m.go", "kind": "Function", "start": 1, "end": 20},
            {"id": "mod", "path": "c.go", "kind": "Module", "start": 1, "end": 12},
        ]
    )


def test_go_doc_sentences_drop_the_declared_name(tmp_path: Path) -> None:
    (tmp_path / "c.go").write_text(GO)
    (tmp_path / "c_test.go").write_text(GO)
    questions = concept_questions("go", tmp_path, ["c.go", "c_test.go"], _nodes())
    assert [(q.text, set(q.relevant)) for q in questions] == [
        ("runs the command tree and reports the first error found.", {"exec"}),
        ("is just that, a command for your application.", {"cmd"}),
    ]
    assert [d.decl_line for d in go_docs("c.go", GO)] == [7, 12]


def test_the_blanked_copy_keeps_lines_and_directives() -> None:
    blanked = blank_docs("go", GO)
    assert blanked.count("\n") == GO.count("\n")
    assert "//go:build linux" in blanked
    assert "Execute runs" not in blanked
    java = "/** Returns the name.\n * @return it */\nString name() { return n; }\n"
    assert blank_docs("java", java).splitlines()[2] == "String name() { return n; }"
    assert blank_docs("java", java).count("\n") == java.count("\n")
    rust = "/// Parses a version.\n#[inline]\npub fn parse() {}\n// kept\n"
    assert blank_docs("rust", rust).splitlines()[1:] == [
        "#[inline]",
        "pub fn parse() {}",
        "// kept",
    ]


def test_java_and_rust_doc_comments_find_their_declaration_line() -> None:
    java = "/**\n * Returns the name of the field.\n * @return it\n */\n@Override\nString name();\n"
    [doc] = java_docs("A.java", java)
    assert (doc.text, doc.decl_line) == ("Returns the name of the field.", 6)
    rust = "/// Parses a version string into parts.\n#[inline]\npub fn parse() {}\n"
    [doc] = rust_docs("lib.rs", rust)
    assert (doc.text, doc.decl_line) == ("Parses a version string into parts.", 3)


def test_declarations_from_the_oracles_names() -> None:
    method = {"file": "c.go", "line": 7, "name": "github.com/spf13/cobra.Command.Execute"}
    assert go_declaration({**method, "kind": "method"}) == Declaration(
        "c.go", 7, "Execute", "Command", "method"
    )
    java = {"file": "A.java", "line": 3, "kind": "method", "name": "get(int)", "class": "p.A"}
    assert java_declaration(java) == Declaration("A.java", 3, "get", "A", "method")
    scip = "rust-analyzer cargo semver 1.0.27 parse/impl#[Version][FromStr]from_str()."
    found = rust_declaration({"file": "src/parse.rs", "line": 28, "symbol": scip})
    assert found == Declaration("src/parse.rs", 28, "from_str", "Version", "method")
    field = "rust-analyzer cargo semver 1.0.27 Version#major."
    assert rust_declaration({"file": "src/lib.rs", "line": 3, "symbol": field}) is None


def test_callers_come_from_the_checker_pairs_and_definitions_need_unique_names() -> None:
    pairs = [(("m.go", 5), ("c.go", 7)), (("c.go", 8), ("c.go", 7))]  # a self-call is dropped
    [question] = caller_questions(pairs, _nodes(), {"exec": "Command.Execute"})
    assert (question.text, set(question.relevant)) == ("What calls Command.Execute?", {"main"})
    execute = Declaration("c.go", 7, "Execute", "Command", "method")
    twice = Declaration("m.go", 2, "helper", "", "function")
    asked = definition_questions([execute, twice, twice], _nodes())
    assert list(asked) == ["exec"]
    assert [q.text for q in asked["exec"]][:2] == [
        "Where is `Command.Execute` defined?",
        "Where is the Execute method of Command defined?",
    ]
    assert spellings(Declaration("a.rs", 1, "parse_major", "", "function"))["joined"] == (
        "parseMajor"
    )
