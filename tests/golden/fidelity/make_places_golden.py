"""Record how paddle 2.6 (CPU build) answers about places, for tests/core/test_place.py.

    cd /tmp && /work/paddle-venv/bin/python /work/main/tests/golden/fidelity/make_places_golden.py

Writes places.json: the printed forms of CPUPlace() and of Tensor.place, the isinstance answers, the methods a
Tensor's place has, what set_device('cpu') returns, and static.cpu_places with and without CPU_NUM. (Paddle's CPU
build ends the process on CUDAPlace(0), XPUPlace(0), IPUPlace() and an unregistered CustomPlace, so their printed
forms, Place(gpu:0) and so on, come from paddle's phi/common/place.cc, not from a run.)
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

PROBE = r"""
import json, os, warnings
warnings.filterwarnings("ignore")
import numpy.random
import paddle
t = paddle.ones([2])
out = {
    "cpu_repr": repr(paddle.CPUPlace()), "cpu_str": str(paddle.CPUPlace()),
    "tensor_place_repr": repr(t.place),
    "tensor_place_is_CPUPlace": isinstance(t.place, paddle.CPUPlace),
    "CPUPlace_is_CPUPlace": isinstance(paddle.CPUPlace(), paddle.CPUPlace),
    "place_methods": sorted(n for n in dir(t.place) if not n.startswith("__")),
    "is_cpu_place": t.place.is_cpu_place(), "is_gpu_place": t.place.is_gpu_place(),
    "equals": t.place._equals(paddle.CPUPlace()),
    "set_device_type": type(paddle.device.set_device("cpu")).__name__,
    "cpu_places_2": [repr(p) for p in paddle.static.cpu_places(2)],
    "cpu_places_default": len(paddle.static.cpu_places()),
    "classes": {n: isinstance(getattr(paddle, n), type) for n in
                ["CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "CustomPlace", "IPUPlace"]},
}
print(json.dumps(out))
"""


def probe(env_extra):
    env = dict(os.environ)
    env.pop("CPU_NUM", None)
    env.update(env_extra)
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=300)
    return json.loads(run.stdout.strip().splitlines()[-1])


out = probe({})
out["cpu_places_with_CPU_NUM_3"] = probe({"CPU_NUM": "3"})["cpu_places_default"]
with open(os.path.join(HERE, "places.json"), "w") as f:
    json.dump(out, f, indent=1)
print(out)
