"""Record paddle 2.6's module tree (every module path under the installed paddle package, tests left out) into
modules.json, for tests/test_module_tree.py. The tree is read from the files, so nothing is imported.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_modules_golden.py
"""

import json
import os

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(paddle.__file__))
modules = set()
for folder, dirs, files in os.walk(os.path.dirname(paddle.__file__)):
    dirs[:] = [
        d
        for d in dirs
        if d not in ("tests", "test", "__pycache__") and os.path.exists(os.path.join(folder, d, "__init__.py"))
    ]
    for f in files:
        if f.endswith(".py"):
            rel = os.path.relpath(os.path.join(folder, f), root)[:-3].replace(os.sep, ".")
            modules.add(rel[: -len(".__init__")] if rel.endswith(".__init__") else rel)
with open(os.path.join(HERE, "modules.json"), "w") as f:
    json.dump({"version": paddle.__version__, "modules": sorted(modules)}, f, indent=0)
print(len(modules))
