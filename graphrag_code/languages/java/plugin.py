"""The Java plug-in: its `Language` record for the registry."""

from __future__ import annotations

from ..base import Language
from .conventions import BUILTIN_METHODS, JavaConventions, is_test_path
from .dispatch import JAVA_RULES
from .linker import JavaLinker
from .modules import guess_java_module, java_module_names
from .parser import JAVA_SUFFIXES, JavaParser
from .runners import maven_test_command

__all__ = ["JAVA"]

JAVA = Language(
    name="java",
    aliases=(),
    suffixes=JAVA_SUFFIXES,
    interpreters=(),
    parser=JavaParser,
    linker=JavaLinker(),
    module_names=java_module_names,
    conventions=JavaConventions(),
    guess_module=guess_java_module,
    test_path=is_test_path,
    builtin_methods=BUILTIN_METHODS,
    dispatch_edges=True,
    index_rules=JAVA_RULES,
    runner_id=maven_test_command,
)
