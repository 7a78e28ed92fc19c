"""Is the graph right? Its edges against independent oracles (grimp, jedi, mypy, the TypeScript
checker, running code), what stays unresolved, and an edge dump to compare two versions."""
