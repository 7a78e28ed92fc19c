// Test and entry-point roles of nodes: test_code, test_role (test, fixture, setup),
// entry_points (why it runs without a caller), test_reach (the best tier by which a test
// reaches the node: exact, inferred or name), test_runner (what runs a test alone, where
// the project's files tell) and test_cases (the runner ids a test method runs as, one per
// class that has it, where some class inherits it); a null removes the property.
// Parameters: $rows = [{id, props}]
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n += row.props
