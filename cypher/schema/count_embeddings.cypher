// How many nodes hold a vector.
MATCH (n:Code) WHERE n.embedding IS NOT NULL
RETURN count(n) AS embedded
