"""Python value flow: which functions, classes, methods, lambdas and instances a name, an
attribute, a container element or a result may hold.

`engine.py` holds `ValueFlowAnalysis` (entry points, and a `match` that hands each `Expr` to
its part); its parts are functions over it, one module per seam, as jedi's `inference/`:
`budget.py` (steps, depth, memo), `names.py`, `parameters.py` (values from call sites),
`attributes.py`, `containers.py`, `declared.py` (annotations, narrowing, casts),
`results.py` (what calls return and run) and `stdlib.py` (a table of built-ins). The values
themselves are `records.py`'s; `reaching.py` says which assignments reach a use, and
`expressions.py` holds pure helpers over `Expr`."""
