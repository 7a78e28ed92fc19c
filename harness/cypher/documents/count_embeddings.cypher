// How many :Document nodes hold a vector (any corpus).
MATCH (d:Document) WHERE d.embedding IS NOT NULL
RETURN count(d) AS embedded
