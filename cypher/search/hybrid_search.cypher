// Hybrid code search: vector, full-text and graph legs in ONE query. Each leg collects to
// ONE row, so the legs never multiply; fusion (RRF) happens in Python.
//
// Parameters (paste into Neo4j Browser with :param):
//   $vector_index, $fulltext_index   index names; with $repo, $fulltext_index is that
//                  repository's own full-text index when it has one (graph/scoping.py): BM25
//                  then weighs words by that repository's statistics alone
//   $embedding     query vector, or null when the searcher has no embedder
//   $use_vector    false to skip the vector leg ($embedding is then a placeholder of the
//                  same type, so that every question shares one plan)
//   $lucene        escaped Lucene query, or '' to skip the full-text leg (search.py pads
//                  it with spaces so that every question shares one plan)
//   $repo          repository name, or null for all
//   $k, $candidates   hits per leg; vector candidates fetched before the repository filter
//                  (and the test filter)
//   $tests         false to leave test code out of every leg (nodes of the files a language's
//                  conventions mark as tests carry `test_code`); the index legs fetch more
//                  candidates then (search.py: the repository's share of test code)
//   $text_candidates  full-text hits fetched before the repository filter (from the
//                  repository's own index: a small margin over $k, so that ties at the
//                  cut-off are broken by id)
//   $names, $short_names, $dotted, $paths   what the question names (graph seeds), each
//                  padded with '' to a fixed length so that every question shares one plan
//   $seed_from_hits, $seed_k   also seed the graph leg with the top hits of the other legs
//   $include_seeds   whether named seeds are graph hits themselves (definition questions)
//   $types, $direction ('out' | 'in' | 'both'), $max_hops (0..3; 0: the seeds only)
//   $fanout (neighbours kept per node), $hub_degree (nodes above it are not expanded),
//   $expand_cap (neighbours read per node before ranking)
//   $stay_in_repo  false: the expansion follows edges into other indexed repositories (the
//                  answers are still those in $repo); true: every hop stays in its seed's
//                  repository (--within)
//   $max_seeds, $graph_k   seeds kept; graph hits returned (a seed expands breadth first
//                  only until it has reached $graph_k nodes)
//   $file_index, $file_lucene, $file_candidates   the whole-file leg of file-level search
//                  (retrieval/units.py): module nodes' `file_text` in $file_index (the
//                  repository's own when it has one), $file_candidates of them before the
//                  repository filter; $file_lucene '' (padded) skips it, as for symbols
//   $trace, $target_lucene   trace questions: also follow the shortest call chains from the
//                  named seeds to where the trace should end: full-text hits of the words
//                  that are not the named symbols ("trace X to the database": "database");
//                  '' when not tracing
CALL () {
  WITH $embedding AS embedding
  WHERE $use_vector AND embedding IS NOT NULL
  // On Neo4j 2026.01+ the searcher replaces the lines between these markers with those of
  // search/vector_search_repo.cypher (or vector_search_all.cypher when $repo is null): the
  // Cypher 25 SEARCH clause, which filters by repository inside the index search. Here, the
  // form every server runs: fetch $candidates (over-fetched by the repository's share of the
  // index), then filter.
  // BEGIN vector leg
  CALL db.index.vector.queryNodes($vector_index, $candidates, embedding) YIELD node, score
  WITH node, score
  WHERE $repo IS NULL OR node.repo = $repo
  // END vector leg
  WITH node, score
  WHERE $tests OR NOT coalesce(node.test_code, false)
  ORDER BY score DESC
  LIMIT $k
  RETURN collect({
    id: node.id, score: score, kind: node.kind, qualified_name: node.qualified_name,
    path: node.path, start_line: node.start_line, end_line: node.end_line,
    signature: node.signature, repo: node.repo, pagerank: node.pagerank
  }) AS vector
}
CALL () {
  WITH $lucene AS lucene
  WHERE trim(lucene) <> ''  // blank (or null): no text leg
  CALL db.index.fulltext.queryNodes($fulltext_index, lucene, {limit: $text_candidates})
    YIELD node, score
  WITH node, score
  WHERE ($repo IS NULL OR node.repo = $repo) AND ($tests OR NOT coalesce(node.test_code, false))
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN collect({
    id: node.id, score: score, kind: node.kind, qualified_name: node.qualified_name,
    path: node.path, start_line: node.start_line, end_line: node.end_line,
    signature: node.signature, repo: node.repo, pagerank: node.pagerank
  }) AS text
}
CALL () {
  WITH $file_lucene AS lucene
  WHERE trim(lucene) <> ''  // blank: no whole-file leg (every symbol-level search)
  CALL db.index.fulltext.queryNodes($file_index, lucene, {limit: $file_candidates})
    YIELD node, score
  WITH node, score
  WHERE ($repo IS NULL OR node.repo = $repo) AND ($tests OR NOT coalesce(node.test_code, false))
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN collect({
    id: node.id, score: score, kind: node.kind, qualified_name: node.qualified_name,
    path: node.path, start_line: node.start_line, end_line: node.end_line,
    signature: node.signature, repo: node.repo, pagerank: node.pagerank
  }) AS file_text
}
CALL () {
  // Seeds named by the question: qualified names, short names, dotted suffixes, file paths.
  WITH $max_seeds AS max_seeds
  WHERE max_seeds > 0  // no graph leg (concept questions): skip the seed lookups
  // The lists are padded with '': filter the padding out before seeking (an ENDS WITH '/'
  // seek would read every path; an equality seek for '' costs a lookup for nothing).
  CALL () {
    MATCH (s:Code) WHERE s.qualified_name IN [n IN $names WHERE n <> '']
    RETURN s
    UNION
    MATCH (s:Code) WHERE s.name IN [n IN $short_names WHERE n <> '']
    RETURN s
    UNION
    UNWIND [d IN $dotted WHERE d <> ''] AS d
    MATCH (s:Code) WHERE s.name = last(split(d, '.')) AND s.qualified_name ENDS WITH '.' + d
    RETURN s
    UNION
    UNWIND [p IN $paths WHERE p <> ''] AS p
    MATCH (s:Code) WHERE s.path ENDS WITH '/' + p AND s:Module
    RETURN s
    UNION
    UNWIND [p IN $paths WHERE p <> ''] AS p
    MATCH (s:Code) WHERE s.path = p AND s:Module
    RETURN s
  }
  WITH s
  WHERE $repo IS NULL OR s.repo = $repo
  ORDER BY s.pagerank DESC, s.id
  LIMIT $max_seeds
  RETURN collect(s) AS named
}
CALL (vector, text, named) {
  WITH named,
       CASE WHEN $seed_from_hits
         THEN [h IN vector[..$seed_k] | h.id] + [h IN text[..$seed_k] | h.id]
         ELSE [] END AS hit_ids
  WHERE $graph_k > 0
  CALL (named, hit_ids) {
    MATCH (s:Code) WHERE s.id IN hit_ids AND NOT s IN named
    RETURN collect(s) AS from_hits
  }
  UNWIND [s IN named | {node: s, weight: 2.0}] + [s IN from_hits | {node: s, weight: 1.0}]
    AS seed
  WITH seed.node AS s, seed.weight AS weight
  // hop 1: the neighbours of the seed along the intent's edges, best-connected first
  CALL (s) {
    CALL (s) {
      WITH s WHERE $max_hops >= 1 AND $direction IN ['out', 'both']
      MATCH (s)-[r]->(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = s.repo)
      RETURN m, r
      UNION
      WITH s WHERE $max_hops >= 1 AND $direction IN ['in', 'both']
      MATCH (s)<-[r]-(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = s.repo)
      RETURN m, r
    }
    WITH m, r WHERE m <> s
    LIMIT $expand_cap  // a hub has thousands of neighbours: rank a bounded sample of them
    WITH m, r
    ORDER BY CASE WHEN r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'] THEN 1 ELSE 0 END, m.pagerank DESC, m.id
    LIMIT $fanout
    RETURN collect({
      node: m, dist: 1, possible: coalesce(r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'], false),
      via: [s.qualified_name,
            CASE WHEN startNode(r) = s THEN '-' + type(r) + '->' ELSE '<-' + type(r) + '-' END,
            m.qualified_name]
    }) AS hop1
  }
  // hop 2, from hop-1 nodes that are not hubs, only while this seed has reached fewer than
  // $graph_k nodes (breadth first: a seed's nearer nodes rank before its farther ones)
  CALL (s, hop1) {
    UNWIND CASE WHEN $max_hops >= 2 AND size(hop1) < $graph_k THEN hop1 ELSE [] END AS h
    WITH h, h.node AS f
    WHERE coalesce(f.in_degree, 0) + coalesce(f.out_degree, 0) <= $hub_degree
    CALL (f) {
      CALL (f) {
        WITH f WHERE $direction IN ['out', 'both']
        MATCH (f)-[r]->(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = f.repo)
        RETURN m, r
        UNION
        WITH f WHERE $direction IN ['in', 'both']
        MATCH (f)<-[r]-(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = f.repo)
        RETURN m, r
      }
      WITH m, r WHERE m <> f
      LIMIT $expand_cap
      WITH m, r
      ORDER BY CASE WHEN r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'] THEN 1 ELSE 0 END, m.pagerank DESC, m.id
      LIMIT $fanout
      RETURN m, r
    }
    WITH h, f, m, r WHERE m <> s
    RETURN collect({
      node: m, dist: 2, possible: h.possible OR coalesce(r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'], false),
      via: h.via + [
        CASE WHEN startNode(r) = f THEN '-' + type(r) + '->' ELSE '<-' + type(r) + '-' END,
        m.qualified_name]
    }) AS hop2
  }
  // hop 3, from hop-2 nodes that are not hubs, again only while this seed needs more nodes
  CALL (s, hop1, hop2) {
    UNWIND CASE WHEN $max_hops >= 3 AND size(hop1) + size(hop2) < $graph_k
      THEN hop2 ELSE [] END AS h
    WITH h, h.node AS f
    WHERE coalesce(f.in_degree, 0) + coalesce(f.out_degree, 0) <= $hub_degree
    CALL (f) {
      CALL (f) {
        WITH f WHERE $direction IN ['out', 'both']
        MATCH (f)-[r]->(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = f.repo)
        RETURN m, r
        UNION
        WITH f WHERE $direction IN ['in', 'both']
        MATCH (f)<-[r]-(m:Code) WHERE type(r) IN $types AND (NOT $stay_in_repo OR m.repo = f.repo)
        RETURN m, r
      }
      WITH m, r WHERE m <> f
      LIMIT $expand_cap
      WITH m, r
      ORDER BY CASE WHEN r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'] THEN 1 ELSE 0 END, m.pagerank DESC, m.id
      LIMIT $fanout
      RETURN m, r
    }
    WITH h, f, m, r WHERE m <> s
    RETURN collect({
      node: m, dist: 3, possible: h.possible OR coalesce(r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial'], false),
      via: h.via + [
        CASE WHEN startNode(r) = f THEN '-' + type(r) + '->' ELSE '<-' + type(r) + '-' END,
        m.qualified_name]
    }) AS hop3
  }
  // trace: the call chains from a named seed to the code the rest of the question names
  CALL (s, weight) {
    WITH s WHERE $trace AND weight >= 2.0 AND trim($target_lucene) <> ''
    CALL db.index.fulltext.queryNodes(
      $fulltext_index, $target_lucene, {limit: $text_candidates}
    ) YIELD node, score
    WITH s, node AS t, score
    WHERE t <> s AND ($repo IS NULL OR t.repo = $repo)
    WITH s, t ORDER BY score DESC, t.id LIMIT 10
    // a chain of certain calls first; else the shortest, through possible steps (a name
    // match, a dispatch to an override), which mark it possible from that step on
    OPTIONAL MATCH certain = shortestPath((s)-[:CALLS*..6]->(t))
      WHERE all(r IN relationships(certain) WHERE r.resolution IN ['exact', 'inferred'])
    OPTIONAL MATCH any_path = shortestPath((s)-[:CALLS*..6]->(t))
    WITH s, coalesce(certain, any_path) AS p WHERE p IS NOT NULL
    UNWIND range(1, length(p)) AS i
    RETURN collect({
      node: nodes(p)[i], dist: i, chain: true,
      possible: any(r IN relationships(p)[..i] WHERE r.resolution IN ['name', 'dispatch', 'many', 'signature', 'partial']),
      via: reduce(acc = [s.qualified_name], m IN nodes(p)[1..i + 1] |
                  acc + ['-CALLS->', m.qualified_name])
    }) AS chains
  }
  WITH s, weight,
       CASE WHEN $include_seeds AND weight >= 2.0
         THEN [{node: s, dist: 0, possible: false, via: [s.qualified_name]}]
         ELSE [] END + chains + hop1 + hop2 + hop3 AS reached
  UNWIND reached AS x
  WITH s, weight, x
  ORDER BY coalesce(x.chain, false) DESC, x.possible, x.dist
  // per (node, seed): on a chain to a target first, then a certain path before a possible
  // one (issue 50: a low-precision tier never decides a ranking), then the shortest
  WITH x.node AS n, s, weight, head(collect(x.dist)) AS dist, head(collect(x.via)) AS via,
       head(collect(x.possible)) AS possible, max(coalesce(x.chain, false)) AS chain
  ORDER BY possible, chain DESC, dist
  // per node: support from the seeds that reach it (chain nodes count double), counting
  // the seeds that reach it through certain edges apart: a node any seed reaches that way
  // ranks by them alone, before every node reached only through possible edges (those
  // add candidates after the certain ones, and their support only orders them)
  WITH n, head(collect(via)) AS via, min(CASE WHEN possible THEN 1 ELSE 0 END) = 1 AS possible,
       sum(CASE WHEN possible THEN 0 WHEN chain THEN 2 * weight ELSE weight END) AS sure,
       sum(CASE WHEN chain THEN 2 * weight ELSE weight END) AS support,
       head(collect(dist)) AS dist
  WITH n, via, possible, dist, CASE WHEN possible THEN support ELSE sure END AS support
  WHERE ($repo IS NULL OR n.repo = $repo) AND ($tests OR NOT coalesce(n.test_code, false))
  // ties broken by id: the same graph gives the same leg whatever the store's layout
  // (beside a large neighbour, equal PageRanks came back in another order)
  ORDER BY possible ASC, support DESC, dist ASC, n.pagerank DESC, n.id
  LIMIT $graph_k
  RETURN collect({
    id: n.id, score: support, dist: dist, via: via, possible: possible, kind: n.kind,
    qualified_name: n.qualified_name, path: n.path, start_line: n.start_line,
    end_line: n.end_line, signature: n.signature, repo: n.repo, pagerank: n.pagerank
  }) AS graph
}
RETURN vector, text, file_text, graph, [s IN named | s.id] AS seeds
