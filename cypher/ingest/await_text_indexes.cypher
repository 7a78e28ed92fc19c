// Wait until every eventually consistent full-text index holds what has been written (the
// end of an index run or a deletion: a search after it sees the graph as written).
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
