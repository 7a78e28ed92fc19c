// Where $repo's code starts as a program: the functions packaging metadata names as scripts
// (an entry point reason starting with one of $scripts: "console script "), and the code a
// module's top level calls where the module can run as a program (its name is one of
// $markers, or its text holds one: `__main__`; one row per module, with its text and each
// call's lines, so that the caller keeps the calls inside its program block: Python's
// `if __name__ == "__main__":`). The languages' `RunRules` give $scripts and $markers.
// Parameters: $repo, $scripts, $markers
MATCH (p:Code {repo: $repo})
  WHERE NOT coalesce(p.test_code, false)
    AND any(e IN coalesce(p.entry_points, []) WHERE any(s IN $scripts WHERE e STARTS WITH s))
RETURN [p.id] AS ids,
       [e IN p.entry_points WHERE any(s IN $scripts WHERE e STARTS WITH s) | e] AS scripts,
       null AS module, null AS path, null AS text, [[]] AS lines
UNION
MATCH (m:Module {repo: $repo})
  WHERE NOT coalesce(m.test_code, false)
    AND any(k IN $markers WHERE m.name = k OR m.file_text CONTAINS k)
MATCH (m)-[c:CALLS]->(callee:Code)
RETURN collect(callee.id) AS ids, [] AS scripts, m.qualified_name AS module, m.path AS path,
       m.file_text AS text, collect(coalesce(c.lines, [])) AS lines
