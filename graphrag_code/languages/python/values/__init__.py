"""Python value flow: which functions, classes, methods, lambdas and instances a name, an
attribute, a container element or a result may hold (`engine.py`), over the abstract values
of `records.py` and the reaching definitions of `reaching.py`."""
