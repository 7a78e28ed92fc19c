// Every vector and full-text index, with what it covers.
SHOW INDEXES YIELD name, type, labelsOrTypes, properties
WHERE type IN ['VECTOR', 'FULLTEXT']
RETURN name, type, labelsOrTypes AS labels, properties
