"""Read the small dataset files of text_files.py with paddle 2.6's paddle.text.datasets and write text.json, for
tests/text/test_text_datasets.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_text_golden.py
"""

import importlib.util
import json
import os
import tempfile

import numpy.random  # noqa: F401  (before paddle, as its import needs)
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("text_files", os.path.join(HERE, "text_files.py"))
text_files = importlib.util.module_from_spec(spec)
spec.loader.exec_module(text_files)
with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as home:
    # WMT16 writes its dictionaries to DATA_HOME/wmt16 and reuses them: a fresh, empty home for this run
    paddle.dataset.common.DATA_HOME = home
    os.makedirs(os.path.join(home, "wmt16"))
    out = text_files.run_all(paddle, tmp)
with open(os.path.join(HERE, "text.json"), "w") as f:
    json.dump(out, f)
print({k: len(v) for k, v in out.items()})
