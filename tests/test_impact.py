"""Change impact, the reach graph and dead code against a real Neo4j, on a git repository built
from the ledger fixture: edits, renames, a deleted function, a signature change and a
test-only change, each committed and read back as a diff (issue 16)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from graphrag_code.cli import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.impact import DiffImpact
from graphrag_code.impact import tests as impact_tests
from graphrag_code.impact.tests import reaching_tests
from graphrag_code.runtime.git import git as run_git
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes
from .test_ingest import dump

LEDGER = Path(__file__).parent / "fixtures" / "ledger"
REPO = "ledger"


def git(root: Path, *args: str) -> str:
    return run_git(root, *args, config={"user.name": "t", "user.email": "t@example.com"}).stdout


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text()
    assert old in text, f"{old!r} not in {path}"
    file.write_text(text.replace(old, new))


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    root = tmp_path / "ledger"
    shutil.copytree(LEDGER, root)
    git(root, "init", "-q", "-b", "main")
    commit(root, "base")
    return root


@pytest.fixture
def graph(neo4j: Neo4jClient, tmp_path: Path) -> CodeGraph:
    drop_search_indexes(neo4j)
    settings = Settings(embedder="hashing", cache_dir=tmp_path / "cache")
    return CodeGraph(settings, client=neo4j, embedder=HashingEmbedder())


def by_name(impact: DiffImpact) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {c.qualified_name: (c.change, c.aspects) for c in impact.changes}


def test_tests_are_recognised_and_linked_to_the_code_they_exercise(
    graph: CodeGraph, ledger: Path
) -> None:
    report = graph.index(ledger, REPO, embed=False)
    assert report.tests == 6  # five pytest/unittest tests and one TypeScript test file
    roles = {
        row["qn"]: row["role"]
        for row in graph.client.read(
            "MATCH (n:Code {repo: $repo}) WHERE n.test_role IS NOT NULL "
            "RETURN n.qualified_name AS qn, n.test_role AS role",
            {"repo": REPO},
        )
    }
    assert roles == {
        "tests.test_core.test_deposit": "test",
        "tests.test_core.test_transfer": "test",
        "tests.test_core.TestAccount.test_withdraw": "test",
        "tests.check_report.test_summary": "test",  # python_files from pyproject.toml
        "tests.test_unit.AccountCase.test_repr": "test",
        "tests.test_unit.AccountCase.setUp": "setup",
        "tests.conftest.store": "fixture",
        "tests.conftest.account": "fixture",
        "web/money.test.ts": "test",
    }
    deposit = graph.tests_for("ledger.core.Account.deposit", repo=REPO)
    runner_ids = [t.runner_id for t in deposit.tests]
    assert "tests/test_core.py::test_transfer" in runner_ids
    assert "tests/test_unit.py::AccountCase::test_repr" in runner_ids  # through setUp
    repr_test = next(t for t in deposit.tests if t.runner_id.endswith("test_repr"))
    assert repr_test.via == "setup setUp"
    # through the `account` fixture, whose `store` fixture reaches MemoryStore.save
    save = graph.tests_for("ledger.storage.save_account", repo=REPO)
    deposit_test = next(t for t in save.tests if t.runner_id == "tests/test_core.py::test_deposit")
    assert deposit_test.via == "fixture account"
    assert deposit_test.certain
    ts = graph.tests_for("web/money.ts", repo=REPO)
    assert [t.runner_id for t in ts.tests] == ["web/money.test.ts"]
    assert graph.tests_for("tests/test_core.py", repo=REPO).tests  # a test file runs itself


def test_the_walk_back_stops_before_a_step_past_its_limit(
    graph: CodeGraph, ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph.index(ledger, REPO, embed=False)
    target = graph.relations.resolve("ledger.storage.save_account", repo=REPO).id
    whole = graph.reader.reach_back([target], limit=10_000)
    assert not whole.truncated
    callers = {source for source, _tier, _via in whole.callers[target]}
    assert callers == {f"{REPO}:tests.conftest.account"}  # the fixture that calls it
    assert whole.tests  # reached through the `account` fixture
    # the first step alone would hold the target and its caller: past a limit of 1 node
    cut = graph.reader.reach_back([target], limit=1)
    assert cut.truncated
    assert cut.callers == {}
    assert not cut.tests
    # the possible part of tests_for is what the limit cuts; certain chains are walked whole
    reached, cut_short = reaching_tests(graph.reader, [target])
    everything = {e.test.qualified_name: e.resolution for e in reached}
    assert not cut_short
    assert not graph.tests_for("ledger.storage.save_account", repo=REPO).truncated
    monkeypatch.setattr(impact_tests, "POSSIBLE_BUDGET", 1)
    reached, cut_short = reaching_tests(graph.reader, [target])
    certain = {e.test.qualified_name: e.resolution for e in reached}
    assert certain == {t: r for t, r in everything.items() if r in ("exact", "inferred")}
    assert certain
    assert cut_short  # and the answers say so
    assert graph.tests_for("ledger.storage.save_account", repo=REPO).truncated


def test_a_committed_edit_rename_deletion_and_signature_change(
    graph: CodeGraph, ledger: Path
) -> None:
    graph.index(ledger, REPO, embed=False)
    edit(ledger, "src/ledger/core.py", '"insufficient funds"', '"not enough money"')
    edit(ledger, "src/ledger/core.py", "def deposit(self, amount: int) -> None:",
         "def deposit(self, amount: int, note: str = '') -> None:")  # fmt: skip
    audit = "def audit(source: Account, target: Account, amount: int) -> str:\n"
    edit(ledger, "src/ledger/core.py", audit, "def _gone():\n")
    edit(ledger, "src/ledger/core.py", "def _gone():\n" + '    return f"{source.owner} -> '
         '{target.owner}: {amount}"\n\n\n', "")  # fmt: skip
    edit(ledger, "src/ledger/core.py", "def legacy_total(", "def grand_total(")
    edit(ledger, "src/ledger/core.py", "    return audit(source, target, amount)",
         "    return audit(source, target, amount).strip()")  # fmt: skip
    edit(ledger, "src/ledger/core.py", '"""Add money."""', '"""Add money to the balance."""')
    commit(ledger, "edits")
    impact = graph.diff("HEAD~1..HEAD", path=ledger, repo=REPO)
    changes = by_name(impact)
    assert changes["ledger.core.Account.withdraw"] == ("modified", ("body",))
    assert changes["ledger.core.Account.deposit"] == ("modified", ("signature", "docstring"))
    assert changes["ledger.core.audit"] == ("removed", ())
    renamed = next(c for c in impact.changes if c.qualified_name == "ledger.core.grand_total")
    assert (renamed.change, renamed.old_qualified_name) == ("renamed", "ledger.core.legacy_total")
    assert impact.graph.updated
    assert not impact.warnings
    affected = {a.qualified_name: a for a in impact.affected}
    # callers of the changed deposit, certain, with the path that connects them
    assert affected["ledger.cli.main"].certain
    assert affected["ledger.cli.main"].distance == 1
    # the package imports the changed transfer by name
    assert affected["ledger"].edge == "IMPORTS"
    assert affected["ledger"].path == ("ledger.core.transfer", "ledger")
    tests = {t.runner_id for t in impact.tests}
    assert {"tests/test_core.py::test_transfer", "tests/test_core.py::test_deposit"} <= tests
    assert impact.risk.level == "high"  # a public signature changed under certain callers
    assert any("ledger.core.Account.deposit" in r for r in impact.risk.reasons)


def test_a_change_inside_a_changed_module_or_class_keeps_its_own_tests(
    graph: CodeGraph, ledger: Path
) -> None:
    graph.index(ledger, REPO, embed=False)
    edit(ledger, "src/ledger/core.py", "LIMIT = 1000", "LIMIT = 2000")
    edit(ledger, "src/ledger/core.py", '"""An account with a balance."""', '"""An account."""')
    edit(
        ledger,
        "src/ledger/core.py",
        "        self.cents += amount",
        "        self.cents += +amount",
    )
    impact = graph.diff(path=ledger, repo=REPO)
    assert by_name(impact) == {
        "ledger.core": ("modified", ("module level",)),
        "ledger.core.Account": ("modified", ("docstring",)),
        "ledger.core.Account.deposit": ("modified", ("body",)),
    }
    # the module and the class enclose `deposit`, whose tests reach it whatever else changed
    assert not impact.untested
    deposit = next(t for t in impact.tests if t.runner_id == "tests/test_core.py::test_deposit")
    assert set(deposit.reaches) == {
        "ledger.core",
        "ledger.core.Account",
        "ledger.core.Account.deposit",
    }


def test_a_test_only_change_runs_the_changed_test(graph: CodeGraph, ledger: Path) -> None:
    graph.index(ledger, REPO, embed=False)
    edit(ledger, "tests/test_core.py", "account.deposit(5)", "account.deposit(6)")
    edit(ledger, "tests/test_core.py", "assert account.cents == 5", "assert account.cents == 6")
    impact = graph.diff(path=ledger, repo=REPO)  # the working tree against HEAD
    assert by_name(impact) == {"tests.test_core.test_deposit": ("modified", ("body",))}
    assert [(t.runner_id, t.changed) for t in impact.tests][:1] == [
        ("tests/test_core.py::test_deposit", True)
    ]
    assert not impact.affected
    assert not impact.untested
    assert impact.risk.level == "low"


def test_staged_and_patch_changes_and_which_side_the_graph_holds(
    graph: CodeGraph, ledger: Path
) -> None:
    graph.index(ledger, REPO, embed=False)
    edit(ledger, "src/ledger/core.py", "return 42", "return 43")
    git(ledger, "add", "-A")
    staged = graph.diff(path=ledger, repo=REPO, staged=True, update=False)
    assert by_name(staged) == {"ledger.core._unused_helper": ("modified", ("body",))}
    assert not staged.graph.updated  # read as stored: the base commit
    assert staged.graph.head == git(ledger, "rev-parse", "HEAD").strip()
    patch = git(ledger, "diff", "--cached")
    from_patch = graph.diff(path=ledger, repo=REPO, patch=patch, update=False)
    assert by_name(from_patch) == by_name(staged)
    # a diff as the question: the context to review it, changed code first (as indexed)
    graph.index(ledger, REPO, embed=False)
    review = graph.build_context(patch, repo=REPO)
    assert review.search is None
    assert [(i.qualified_name, i.role) for i in review.items][:1] == [
        ("ledger.core._unused_helper", "changed")
    ]
    assert "return 43" in review.text
    # an older range: the graph holds the working tree, not that range's new side
    edit(ledger, "src/ledger/core.py", "LIMIT = 1000", "LIMIT = 10")
    commit(ledger, "limit")
    edit(ledger, "src/ledger/core.py", "LIMIT = 10", "LIMIT = 5")
    older = graph.diff("HEAD~1..HEAD", path=ledger, repo=REPO)
    assert by_name(older)["ledger.core"] == ("modified", ("module level",))
    assert older.warnings
    assert "working tree" in older.warnings[0]
    with pytest.raises(InvalidArgumentError, match="no-such-revision"):
        graph.diff("no-such-revision", path=ledger, repo=REPO, update=False)


def test_incremental_tests_edges_and_roles_equal_a_clean_index(
    graph: CodeGraph, ledger: Path, neo4j: Neo4jClient, tmp_path: Path
) -> None:
    graph.index(ledger, REPO, embed=False)
    # a fixture now reaches more code, a test moves to another file, a test file's pattern
    # no longer matches, a base method gains an override
    edit(ledger, "tests/conftest.py", "    save_account(store, account)",
         "    save_account(store, account)\n    account.withdraw(0)")  # fmt: skip
    (ledger / "tests" / "check_report.py").rename(ledger / "tests" / "report_checks.py")
    edit(ledger, "pyproject.toml", '"check_*.py"', '"*_checks.py"')
    edit(ledger, "src/ledger/storage.py", "class MemoryStore(Store):",
         "class LoudStore(Store):\n    def save(self, account: Account) -> None:\n"
         "        print(account)\n\n\nclass MemoryStore(Store):")  # fmt: skip
    report = graph.index(ledger, REPO, embed=False)
    assert report.mode == "incremental"
    assert report.tests
    assert report.tests_reached
    incremental = dump(neo4j, REPO)
    assert any(r[1] == "REACHES" for r in incremental["rels"])
    GraphWriter(neo4j, REPO).delete_repository()
    clean = CodeGraph(graph.settings.model_copy(update={"cache_dir": tmp_path / "clean"}),
                      client=neo4j, embedder=HashingEmbedder())  # fmt: skip
    assert clean.index(ledger, REPO, embed=False).mode == "full"
    assert dump(neo4j, REPO) == incremental


def test_untested_and_dead_code(graph: CodeGraph, ledger: Path) -> None:
    graph.index(ledger, REPO, embed=False)
    untested = {u.qualified_name for u in graph.untested(REPO)}
    assert "ledger.core.legacy_total" in untested
    assert "ledger.core.transfer" not in untested
    dead = {d.qualified_name: d for d in graph.dead_code(REPO)}
    assert dead["ledger.core._unused_helper"].confidence >= 0.9
    assert "ledger.core.legacy_total" in dead
    assert "web/money.ts.unusedFormat" not in dead  # exported API
    for live in (
        "ledger.cli.main",  # console script in pyproject.toml
        "ledger.cli.list_accounts",  # registered by @app.route
        "ledger.core.Account.__repr__",  # dunder
        "ledger.storage.MemoryStore.save",  # overrides a called base method
        "tests.conftest.store",  # test code
    ):
        assert live not in dead, live


@pytest.mark.usefixtures("cli_env")
def test_the_commands(
    neo4j: Neo4jClient, ledger: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    drop_search_indexes(neo4j)
    edit(ledger, "src/ledger/core.py", "    return total\n", "    return total + 0\n")
    path = ["--path", str(ledger), "--repo", REPO]
    assert cli_main(["diff", *path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [c["qualified_name"] for c in report["changes"]] == ["ledger.core.legacy_total"]
    assert report["graph"]["updated"]
    # a public function with no test: the CI check fails with its own exit code
    assert cli_main(["diff", *path, "--fail-on", "untested"]) == 6
    assert "legacy_total" in capsys.readouterr().err
    assert cli_main(["diff", *path, "--fail-on", "untested-callers"]) == 0  # no callers
    assert "legacy_total" in capsys.readouterr().out  # the table
    assert cli_main(["diff", *path, "--format", "markdown", "--no-update"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("## Change impact:")
    assert "### Untested changes" in markdown
    patch = git(ledger, "diff")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(patch))
    assert cli_main(["diff", *path, "--patch", "-"]) == 0
    assert "legacy_total" in capsys.readouterr().out
    assert cli_main(["tests-for", "ledger.core.transfer", "--repo", REPO, "--json"]) == 0
    tests = json.loads(capsys.readouterr().out)
    assert "tests/test_core.py::test_transfer" in [t["runner_id"] for t in tests["tests"]]
    assert tests["truncated"] is False
    with monkeypatch.context() as patched:  # a walk cut short says so
        patched.setattr(impact_tests, "POSSIBLE_BUDGET", 1)
        assert cli_main(["tests-for", "ledger.core.transfer", "--repo", REPO]) == 0
        assert "the walk back to the tests was cut" in capsys.readouterr().out
    assert cli_main(["untested", "--repo", REPO]) == 0
    assert "legacy_total" in capsys.readouterr().out
    assert cli_main(["dead-code", "--repo", REPO, "--json"]) == 0
    dead = json.loads(capsys.readouterr().out)
    assert "ledger.core._unused_helper" in [d["qualified_name"] for d in dead]
    assert cli_main(["dead-code", "--repo", REPO, "--min-confidence", "2"]) == 2
    assert cli_main(["untested", "--repo", "nope"]) == 2  # a repository not held: usage


def test_a_callback_a_test_registers_is_reached_by_that_test_alone(
    graph: CodeGraph, tmp_path: Path
) -> None:
    """The library calls every registered hook (a CALLS edge to the test's hook), but only
    the test that registered it runs it: another test of the same library call does not
    exercise what the hook calls."""
    repo = tmp_path / "hooks"
    (repo / "pkg").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    (repo / "pkg" / "events.py").write_text(
        "HOOKS = []\n\n\ndef on_save(hook):\n    HOOKS.append(hook)\n\n\n"
        "def save(item):\n    for hook in HOOKS:\n        hook(item)\n\n\n"
        "def audit(item):\n    return item\n\n\n"
        "class Source:\n    def fetch(self):\n        return b''\n\n\n"
        "class Pipe:\n    def fetch(self):\n        return b''\n\n\n"
        "def drain(chunks):\n    if hasattr(chunks, 'fetch'):\n        return chunks.fetch()\n"
        "    return b''.join(chunks)\n"
    )
    (repo / "tests" / "test_events.py").write_text(
        "from pkg.events import audit, drain, on_save, save\n\n\n"
        "def test_with_hook():\n    def hook(item):\n        audit(item)\n\n"
        "    on_save(hook)\n    save(1)\n\n\n"
        "def test_plain_save():\n    save(2)\n\n\n"
        "def test_drain():\n    drain([b'a'])\n"
    )
    graph.index(repo, "hooks", embed=False)
    called = {r.qualified_name for r in graph.callees("pkg.events.save", repo="hooks").all}
    assert "tests.test_events.test_with_hook.hook" in called
    tests = {t.runner_id for t in graph.tests_for("pkg.events.audit", repo="hooks").tests}
    assert tests == {"tests/test_events.py::test_with_hook"}
    saving = {t.runner_id for t in graph.tests_for("pkg.events.save", repo="hooks").tests}
    assert saving == {
        "tests/test_events.py::test_with_hook",
        "tests/test_events.py::test_plain_save",
    }
    # `chunks.fetch()` where every value is a list runs no `fetch` of ours, namesakes included
    assert graph.tests_for("pkg.events.drain", repo="hooks").tests
    assert not graph.tests_for("pkg.events.Source.fetch", repo="hooks").tests
