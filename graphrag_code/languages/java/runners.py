"""What runs one Java test alone, from the repository's top, by the build that builds it.

Maven: `mvn -pl core test -Dtest='OrderTest#total'` (Surefire's `Class#method`, a nested
class as `Outer$Inner`; the root module without `-pl`). Gradle: `gradle :core:test --tests
'com.shop.OrderTest.total'` (the project path is the build module's folder, `:` for `/`, as
Gradle's default layout names it; the task is the source set's, `integrationTest` for
`src/integrationTest/java`). Maven and Gradle lay sources out alike, so which one builds a
test is read from the build files at index time (`BuildTools`: the build module's own
`pom.xml` or `build.gradle(.kts)`, else the nearest folder above it that has one) and stored
with the test (`TestUnit.runner`); a graph without it (or a test no build file covers) is
named the Maven way from its path (`maven_test_command`, the language's `runner_id`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ...conventions.base import ConventionConfig
from .modules import build_folder, module_package, source_root

__all__ = [
    "BUILD_TOOL_FILES", "BuildTools", "gradle_test_command", "maven_test_command",
    "test_command",
]  # fmt: skip

Tool = Literal["maven", "gradle"]
_TOOLS: dict[str, Tool] = {
    "pom.xml": "maven",
    "build.gradle": "gradle",
    "build.gradle.kts": "gradle",
    "settings.gradle": "gradle",
    "settings.gradle.kts": "gradle",
}
BUILD_TOOL_FILES = frozenset(_TOOLS)


@dataclass
class BuildTools(ConventionConfig):
    """Folder -> the build tool its build file names (Maven where both are there)."""

    tools: dict[str, Tool] = field(default_factory=dict)

    @classmethod
    def read(cls, files: Mapping[str, str]) -> BuildTools:
        tools: dict[str, Tool] = {}
        for path in sorted(files):
            folder, _, name = path.rpartition("/")
            tool = _TOOLS.get(name)
            if tool is not None and tools.get(folder) != "maven":
                tools[folder] = tool
        return cls(tools=tools)

    def of(self, build: str) -> Tool | None:
        """The tool that builds the module in folder `build`: its own build file's, else
        the nearest folder's above it (a Gradle subproject its root configures)."""
        folder: str | None = build
        while folder is not None:
            tool = self.tools.get(folder)
            if tool is not None:
                return tool
            folder = folder.rpartition("/")[0] if folder else None
        return None


def _test_names(qualified_name: str, module: str) -> tuple[str, str, str]:
    """(package, class as nested in its file with `$`, method or "") of a test."""
    package = module_package(module)
    local = qualified_name.rpartition("/")[2].partition("(")[0]
    local = local.removeprefix(f"{package}.") if package else local
    cls, _, method = local.rpartition(".")
    if not cls:  # a test class, not a method
        return package, local.replace(".", "$"), ""
    return package, cls.replace(".", "$"), method


def maven_test_command(path: str, qualified_name: str, module: str | None) -> str:
    """`mvn [-pl <build module>] test -Dtest='Class#method'` (see the module's docstring)."""
    build = build_folder(path)
    command = f"mvn -pl {build} test" if build else "mvn test"
    if module is None:
        return command
    _package, cls, method = _test_names(qualified_name, module)
    return f"{command} -Dtest='{cls}#{method}'" if method else f"{command} -Dtest='{cls}'"


def gradle_test_command(path: str, qualified_name: str, module: str) -> str:
    """`gradle [:<project>]:<set> --tests 'pkg.Class.method'` (see the module's docstring)."""
    build = build_folder(path)
    folders = path.split("/")[: source_root(path)]
    task = folders[-2] if len(folders) >= 3 and folders[-3] == "src" else "test"
    project = ":" + build.replace("/", ":") + ":" if build else ""
    package, cls, method = _test_names(qualified_name, module)
    named = ".".join(part for part in (package, cls, method) if part)
    return f"gradle {project}{task} --tests '{named}'"


def test_command(
    tools: ConventionConfig, path: str, qualified_name: str, module: str
) -> str | None:
    """The command the build files say runs this test, None where no build file covers it."""
    if not isinstance(tools, BuildTools):
        return None
    tool = tools.of(build_folder(path))
    if tool == "gradle":
        return gradle_test_command(path, qualified_name, module)
    if tool == "maven":
        return maven_test_command(path, qualified_name, module)
    return None
