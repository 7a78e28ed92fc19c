// Test and entry-point roles of nodes: test_code, test_role (test, fixture, setup),
// entry_points (why it runs without a caller), test_reach (the best tier by which a test
// reaches the node: exact, inferred or name) and test_runner (what runs a test alone, where
// the project's files tell); a null removes the property.
// Parameters: $rows = [{id, props}]
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n += row.props
