"""The Java plug-in (tree-sitter-java): parser, linker and conventions of `.java` files."""
