// One repository's own vector index, on servers whose vector search cannot filter inside the
// index (5.26, 2025.x): `queryNodes` over the shared index ranks every repository's vectors
// and the repository filter follows, so a large neighbour crowds a small repository's hits
// out; over its own label (`RepositoryLabel`, pasted by the schema code: graph/scoping.py)
// the index holds that repository's vectors alone.
// Parameters: $name, $dimensions
CREATE VECTOR INDEX $name IF NOT EXISTS
FOR (n:RepositoryLabel) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
