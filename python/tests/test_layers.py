"""The package's modules depend downward only, and no module reaches into
another's private names (issue: no import circle). The layers, bottom up:
the extension and errors, then dtypes, the op table and torch interop, then
expressions, then NumPy functions composed of expressions, NumPy's own calls
between kernels and rows at computed indices (_dynamic_index), then NumPy's API, codegen and the cache, then running, then
tracing and distributed functions, then explaining. Upper layers lend the expression layer what it calls upward
through _expr.HOOKS."""
import ast
import os

import stride

PACKAGE = os.path.dirname(stride.__file__)
LAYERS = [
    {"_stride", "_errors"},
    {"_dtypes", "_torch"},
    {"_table"},
    {"_expr"},
    {"_numpy_derived", "_host", "_dynamic_index"},
    {"_numpy_api", "_codegen", "_cache", "_masked"},
    {"_run"},
    {"_trace", "_distributed"},
    {"_explain"},
]
LEVEL = {m: i for i, layer in enumerate(LAYERS) for m in layer}


def modules():
    for name in sorted(os.listdir(PACKAGE)):
        if name.endswith(".py") and name != "__init__.py":
            with open(os.path.join(PACKAGE, name)) as f:
                yield name[:-3], ast.parse(f.read())


def imported(tree):
    """The package modules `tree` imports, at any depth (function-level
    imports included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                yield node.module.split(".")[0]
            else:
                yield from (a.name for a in node.names)


def test_every_module_has_a_layer():
    assert {m for m, _ in modules()} == set(LEVEL) - {"_stride"}


def test_imports_go_down_only():
    for module, tree in modules():
        for target in imported(tree):
            assert LEVEL[target] < LEVEL[module], (
                f"{module} (layer {LEVEL[module]}) imports {target} "
                f"(layer {LEVEL[target]})")


def test_no_module_uses_another_modules_private_names():
    for module, tree in modules():
        names = set(imported(tree))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in names and node.value.id != "_stride"
                    and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                raise AssertionError(
                    f"{module} uses {node.value.id}.{node.attr} "
                    f"(line {node.lineno})")
