"""Settings: conventional NEO4J_* names, secrets kept out of reprs, validation."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from graphrag_code.errors import ConfigurationError
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.endpoints import local_server, resolve_endpoint
from graphrag_code.settings import Settings, load_settings


def test_neo4j_variables_and_password_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j+s://example.databases.neo4j.io")
    monkeypatch.setenv("NEO4J_USERNAME", "reader")
    monkeypatch.setenv("NEO4J_PASSWORD", "s3cret-value")
    monkeypatch.setenv("NEO4J_DATABASE", "code")
    settings = Settings()
    endpoint = resolve_endpoint(settings)
    assert endpoint == Neo4jEndpoint(
        uri="neo4j+s://example.databases.neo4j.io",
        username="reader",
        password=settings.neo4j_password,
        database="code",
        source="env",
    )
    assert "s3cret-value" not in repr(settings)
    assert "s3cret-value" not in repr(endpoint)
    assert endpoint.auth() == ("reader", "s3cret-value")


def test_index_names_must_be_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHRAG_CODE_VECTOR_INDEX", "bad name`")
    with pytest.raises(ValidationError):
        Settings()


def test_local_data_dir_is_per_major_version() -> None:
    assert Settings(neo4j_version="5.26.30").neo4j_home.name == "neo4j-5"
    assert Settings(neo4j_version="2026.08.1").neo4j_home.name == "neo4j-2026"


def test_jvm_options_reach_the_server_and_bare_words_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRAPHRAG_CODE_JVM_OPTIONS", "-XX:TieredStopAtLevel=1  -Xss2m")
    server = local_server(Settings(data_dir=tmp_path))
    assert server.jvm_options == ("-XX:TieredStopAtLevel=1", "-Xss2m")
    monkeypatch.setenv("GRAPHRAG_CODE_JVM_OPTIONS", "-Xss2m org.evil.Main")
    with pytest.raises(ConfigurationError, match=r"JVM_OPTIONS: must be JVM options.* with '-'"):
        load_settings()
