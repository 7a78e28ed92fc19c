"""Independent accuracy oracles (grimp imports, jedi calls); never import graphrag_code here."""
