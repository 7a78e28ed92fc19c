"""Neo4j Browser, served by the local launcher, driven by headless Chromium: connect with the
generated password, apply our style, run a curated query, save a screenshot."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.queries import load_query
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.runtime.server.endpoints import local_endpoint
from graphrag_code.runtime.server.local import LocalNeo4jServer

SHOP = Path(__file__).parent / "fixtures" / "shop"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser_server(
    spare_server: LocalNeo4jServer, tmp_path_factory: pytest.TempPathFactory
) -> LocalNeo4jServer:
    spare_server.start(attached=True)
    with Neo4jClient(local_endpoint(spare_server)) as client:
        ensure_schema(client, SchemaConfig())
        build_graph(SHOP, client, repo="shop", state_dir=tmp_path_factory.mktemp("state"))
    return spare_server


def test_browser_connects_styles_and_runs_a_curated_query(
    browser_server: LocalNeo4jServer, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "install Debian's chromium (./run setup does it as root)"
    status = browser_server.status()
    assert status.browser_url is not None
    grass = resources.files("graphrag_code").joinpath("cypher/browser/graphrag_code.grass")
    query = load_query("browser/callers").replace(
        "$name", "'shop.storage.sqlite.SqliteStorage.save'"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(status.browser_url)
            page.locator("input[data-testid='username']").fill("neo4j")
            page.locator("input[data-testid='password']").fill(browser_server.password() or "")
            page.locator("button[data-testid='connect']").click()
            page.get_by_text("You are connected as user").first.wait_for(timeout=30_000)
            editor = page.locator(".monaco-editor textarea").first
            for command in (":style " + grass.read_text().replace("\n", " "), query):
                editor.click()
                page.keyboard.insert_text(command)
                page.keyboard.press("Control+Enter")
            page.get_by_text("Displaying 2 nodes, 1 relationships").first.wait_for(timeout=30_000)
            # the style's captions name each symbol's language: "save · python"
            # (wrapped: "save ·" then "python" on the caption's second line)
            page.locator("svg text.caption", has_text="python").first.wait_for(timeout=30_000)
            shot = tmp_path / "neo4j-browser.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
