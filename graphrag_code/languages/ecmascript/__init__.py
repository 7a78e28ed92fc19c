"""TypeScript and JavaScript: one parser (three tree-sitter grammars), module resolution
(`modules.py`: tsconfig paths, package exports), resolver, linker and conventions (Jest,
Vitest, Mocha). The registry sees them through `plugin.TYPESCRIPT` and `plugin.JAVASCRIPT`."""
