// Vector and full-text indexes on :Document, with what they cover and how.
SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options
WHERE type IN ['VECTOR', 'FULLTEXT'] AND 'Document' IN labelsOrTypes
RETURN name, type, properties, options.indexConfig AS config
