// Every repository with the packages it provides and the dependencies it declares.
MATCH (r:Repository)
RETURN r.name AS repo, coalesce(r.packages, []) AS packages,
       coalesce(r.distributions, []) AS distributions,
       coalesce(r.dependencies, []) AS dependencies
ORDER BY repo
