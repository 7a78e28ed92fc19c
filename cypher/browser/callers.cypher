// Who calls a function or method (certain edges solid: resolution exact/inferred).
// :param name => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (target:Code {qualified_name: $name})<-[r:CALLS]-(caller:Code)
RETURN caller, r, target
