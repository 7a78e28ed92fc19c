// Version and edition of the server, and the Cypher versions it accepts (a 'Cypher' row
// exists only on the calendar releases: ['5', '25']; on 5.26 there is none).
CALL dbms.components() YIELD name, versions, edition
WITH collect({name: name, versions: versions, edition: edition}) AS components
WITH [c IN components WHERE c.name = 'Neo4j Kernel'][0] AS kernel,
     [c IN components WHERE c.name = 'Cypher'][0] AS cypher
RETURN kernel.versions[0] AS version, kernel.edition AS edition,
       coalesce(cypher.versions, ['5']) AS cypher_versions
