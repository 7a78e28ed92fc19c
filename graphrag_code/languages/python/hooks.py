"""The names Python frameworks and protocols call by convention, not by a call the graph sees:
IPython renders an object through its `_repr_*_` methods, Django runs a view's
`get_queryset` and a form's `clean_<field>`. Dead code flags such a method as public (code
outside the repository may use it) with a low confidence, instead of .95 (rich's
`JupyterMixin._repr_mimebundle_`: issue 55). Dunders and `pytest_*` hooks are entry points
already (`conventions.py`).

One row per convention: an `fnmatch` pattern over the symbol's own name, and who calls it.
"""

from __future__ import annotations

__all__ = ["PYTHON_HOOKS"]

PYTHON_HOOKS: tuple[tuple[str, str], ...] = (
    ("_repr_*_", "IPython and Jupyter (a rich display hook)"),
    ("_ipython_*_", "IPython"),
    ("pytest_*", "pytest (a plugin hook)"),
    ("setUp", "unittest"),
    ("tearDown", "unittest"),
    ("setUpClass", "unittest"),
    ("tearDownClass", "unittest"),
    ("setUpModule", "unittest"),
    ("tearDownModule", "unittest"),
    ("_missing_", "the enum module"),
    ("_generate_next_value_", "the enum module"),
    ("clean_*", "Django forms (field validation)"),
    ("get_queryset", "Django views and admin"),
    ("get_context_data", "Django views"),
    ("get_object", "Django views"),
    ("get_success_url", "Django views"),
    ("form_valid", "Django views"),
    ("form_invalid", "Django views"),
    ("has_*_permission", "Django admin and REST framework"),
    ("process_request", "Django middleware"),
    ("process_response", "Django middleware"),
    ("process_view", "Django middleware"),
    ("process_exception", "Django middleware"),
    ("process_template_response", "Django middleware"),
    ("add_arguments", "Django management commands"),
    ("handle", "Django management commands"),
    ("ready", "Django app configs"),
    ("natural_key", "Django serialization"),
    ("get_by_natural_key", "Django serialization"),
)
