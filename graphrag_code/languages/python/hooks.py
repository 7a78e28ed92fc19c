"""The names Python frameworks and protocols call by convention, not by a call the graph sees:
IPython renders an object through its `_repr_*_` methods, Django runs a view's
`get_queryset` and a form's `clean_<field>`. Dead code flags such a method as public (code
outside the repository may use it) with a low confidence, instead of .95 (rich's
`JupyterMixin._repr_mimebundle_`: issue 55). Dunders and `pytest_*` hooks are entry points
already (`conventions.py`).

One row per convention: an `fnmatch` pattern over the symbol's own name, who calls it, and
the kinds of node it names (methods unless said).
"""

from __future__ import annotations

from ..base import Hook

__all__ = ["PYTHON_HOOKS"]

_ANYWHERE = frozenset({"Function", "Method"})
_MODULE = frozenset({"Function"})

PYTHON_HOOKS: tuple[Hook, ...] = (
    Hook("_repr_*_", "IPython and Jupyter (a rich display hook)"),
    Hook("_ipython_*_", "IPython"),
    Hook("pytest_*", "pytest (a plugin hook)", _ANYWHERE),
    Hook("setUp", "unittest"),
    Hook("tearDown", "unittest"),
    Hook("setUpClass", "unittest"),
    Hook("tearDownClass", "unittest"),
    Hook("setUpModule", "unittest", _MODULE),
    Hook("tearDownModule", "unittest", _MODULE),
    Hook("_missing_", "the enum module"),
    Hook("_generate_next_value_", "the enum module"),
    Hook("clean_*", "Django forms (field validation)"),
    Hook("get_queryset", "Django views and admin"),
    Hook("get_context_data", "Django views"),
    Hook("get_object", "Django views"),
    Hook("get_success_url", "Django views"),
    Hook("form_valid", "Django views"),
    Hook("form_invalid", "Django views"),
    Hook("has_*_permission", "Django admin and REST framework"),
    Hook("process_request", "Django middleware"),
    Hook("process_response", "Django middleware"),
    Hook("process_view", "Django middleware"),
    Hook("process_exception", "Django middleware"),
    Hook("process_template_response", "Django middleware"),
    Hook("add_arguments", "Django management commands"),
    Hook("handle", "Django management commands"),
    Hook("ready", "Django app configs"),
    Hook("natural_key", "Django serialization"),
    Hook("get_by_natural_key", "Django serialization"),
)
