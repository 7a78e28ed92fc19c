// Record what a repository provides to the others (its top-level import packages and its
// distribution names) and what it declares it depends on (PEP 503 normalised names). The
// cross-repository linker reads these to link another repository's :External targets here.
// The node is the run's own (`write_repository`): this never makes one, so a run that stops
// before it started writes no phantom repository.
// Parameters: $repo, $packages, $distributions, $dependencies
MATCH (r:Repository {name: $repo})
SET r.packages = $packages, r.distributions = $distributions, r.dependencies = $dependencies
