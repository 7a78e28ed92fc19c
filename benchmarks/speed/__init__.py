"""How fast, and in how much memory: parse, link, write, embed, index, `diff`, search."""
