"""Python: its parser and tree-sitter queries, module naming, linker, resolver, value flow
(`values/`), dispatch to overrides, and conventions (pytest, unittest, entry points). The
registry sees it through `plugin.PYTHON`."""
