// Test and entry-point roles of nodes: test_code, test_role (test, fixture, setup) and
// entry_points (why it runs without a caller); a null removes the property.
// Parameters: $rows = [{id, props}]
UNWIND $rows AS row
MATCH (n:Code {id: row.id})
SET n += row.props
