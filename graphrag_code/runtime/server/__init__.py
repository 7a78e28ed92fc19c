"""Where Neo4j comes from: an existing server, a testcontainer, or the managed local server."""

from .local import LocalNeo4jServer, ServerStatus, port_is_free

__all__ = ["LocalNeo4jServer", "ServerStatus", "port_is_free"]
