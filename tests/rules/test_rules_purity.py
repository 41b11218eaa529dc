"""The rules core imports the standard library only (STYLE.md: "The rules are a pure core")."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import scorekeeper.rules

RULES_DIR = Path(scorekeeper.rules.__file__).parent


def imported_modules(code: str) -> list[str]:
    """The top-level names of the absolute imports in ``code``; relative ones are ''."""
    names: list[str] = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.extend(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.append("" if node.level else (node.module or "").partition(".")[0])
    return names


def foreign_imports(code: str) -> set[str]:
    return {
        name
        for name in imported_modules(code)
        if name and name != "__future__" and name not in sys.stdlib_module_names
    }


def test_the_rules_package_has_modules_to_check() -> None:
    assert len(list(RULES_DIR.glob("*.py"))) >= 9


def test_the_rules_core_imports_nothing_but_the_standard_library() -> None:
    foreign = {
        f"{source.name}: {name}"
        for source in sorted(RULES_DIR.glob("*.py"))
        for name in foreign_imports(source.read_text(encoding="utf-8"))
    }
    assert foreign == set()


def test_the_check_would_catch_a_framework_import_even_inside_a_function() -> None:
    code = (
        "from __future__ import annotations\n"
        "import json, os.path\n"
        "from . import cards\n"
        "from .tally import Cards\n"
        "def view():\n"
        "    from flask import request\n"
        "    import sqlalchemy.orm\n"
    )
    assert imported_modules(code) == ["__future__", "json", "os", "", "", "flask", "sqlalchemy"]
    assert foreign_imports(code) == {"flask", "sqlalchemy"}
