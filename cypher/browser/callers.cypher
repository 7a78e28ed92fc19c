// Who calls a function or method (certain edges: resolution exact/inferred; possible:
// 'name', 'many' for one of more values than a certain call may have, 'signature' for a call
// through a value of a callable type this function fits, 'partial' for one of the values
// known to reach a call that others may reach too, or 'dispatch' for a call to the base
// method this override may receive).
// :param name => 'shop.storage.sqlite.SqliteStorage.save'
MATCH (target:Code {qualified_name: $name})<-[r:CALLS]-(caller:Code)
RETURN caller, r, target, r.resolution AS resolution, r.via AS why
