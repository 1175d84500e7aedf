# The type stubs (python/mocap/_mocap.pyi) name what the extension has, no
# more and no less, so editors complete the real surface.
import ast
import pathlib

import mocap
from mocap import _mocap


def stub_names():
    tree = ast.parse((pathlib.Path(mocap.__file__).parent / "_mocap.pyi").read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):  # an @overload's name twice: one name
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and not node.target.id.startswith("_P"):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id for n in node.body
                                  if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    return names, members


def public(names):
    return {n for n in names if not n.startswith("_") or n in ("__version__", "__len__")}


def test_every_function_and_class_is_in_the_stubs():
    names, members = stub_names()
    assert public(dir(_mocap)) == names
    for cls in ("Clip", "BoundMesh", "RiggedModel", "Retargeted"):
        assert public(vars(getattr(_mocap, cls))) == members[cls], cls
    assert members["Error"] == {"file", "line", "message"}


def test_the_package_exports_the_extension_and_eval():
    names, _ = stub_names()
    assert set(mocap.__all__) == names - {"__version__", "eval_json"} | {"eval"}
    assert issubclass(mocap.Error, ValueError) and mocap.Error.__module__ == "mocap"
