// Where $repo's code starts as a program: the functions packaging metadata names as console
// or GUI scripts, and the code a module's top level calls where the module can run as a
// program (a `__main__.py`, or a module whose text holds `__main__`: one row per module,
// with its text and each call's lines, so that the caller keeps the calls inside its
// `if __name__ == "__main__":` block).
// Parameters: $repo
MATCH (p:Code {repo: $repo})
  WHERE NOT coalesce(p.test_code, false)
    AND any(e IN coalesce(p.entry_points, [])
            WHERE e STARTS WITH 'console script ' OR e STARTS WITH 'gui script ')
RETURN [p.id] AS ids,
       [e IN p.entry_points WHERE e STARTS WITH 'console script ' OR e STARTS WITH 'gui script '
        | e] AS scripts,
       null AS module, null AS path, null AS text, [[]] AS lines
UNION
MATCH (m:Module {repo: $repo})
  WHERE NOT coalesce(m.test_code, false)
    AND (m.name = '__main__' OR m.file_text CONTAINS '__main__')
MATCH (m)-[c:CALLS]->(callee:Code)
RETURN collect(callee.id) AS ids, [] AS scripts, m.qualified_name AS module, m.path AS path,
       m.file_text AS text, collect(coalesce(c.lines, [])) AS lines
