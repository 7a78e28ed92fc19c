"""Does search find the answer? SciFact, code questions, concept vectors and ghost text, the
reranker, file-level localisation on real histories, the vector leg's forms, MCP tokens."""
