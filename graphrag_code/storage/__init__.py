"""Neo4j adapters: writing graph rows."""
