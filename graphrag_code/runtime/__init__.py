"""What runs beside the library, below every adapter: the managed local Neo4j (`server/`:
build, start, stop, find an endpoint), where a database is (`endpoint`), locks between
processes (`locks`), private data folders (`folders`), Maven (`maven`), which builds the
launcher and fetches the embedders' model jars, and git (`git`), which diffs, the history
benchmark and the index's head read."""
