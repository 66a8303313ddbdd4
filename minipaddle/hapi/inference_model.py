"""`Model.save(path, training=False)`: a trained dynamic network written as a static inference model.

The network's forward is run once in static mode on `paddle.static.data` inputs made from the Model's
InputSpecs, so its ops are recorded into a Program instead of computed. For that run each Parameter of the
network is swapped for a static parameter Variable of the same name that starts at the Parameter's current value
(`static/parameters.py`), and swapped back afterwards. The Program and the values are then written by
`paddle.static.save_inference_model`: `path.pdmodel` and `path.pdiparams`, which
`paddle.static.load_inference_model` reads back.
"""

from __future__ import annotations

from minipaddle import static
from minipaddle.core.state import STATE
from minipaddle.static.builder import disable_static, enable_static
from minipaddle.static.parameters import declare_parameter

__all__ = ["save_inference_model"]


def save_inference_model(network, path: str, input_specs: list) -> None:
    """Trace `network` (in eval mode) on inputs described by `input_specs` and save it for inference at `path`."""
    main, startup = static.Program(), static.Program()
    was_static, was_training = STATE.static_mode, network.training
    swapped = []  # (layer, name, dynamic Parameter) to put back
    network.eval()
    enable_static()
    try:
        with static.program_guard(main, startup):
            declared = {}
            for layer in network.sublayers(include_self=True):
                for name, param in layer._parameters.items():
                    if param is None:
                        continue
                    if id(param) not in declared:  # a Parameter shared by two layers is declared once
                        declared[id(param)] = declare_parameter(param)
                    layer._parameters[name] = declared[id(param)]
                    swapped.append((layer, name, param))
            feeds = [static.data(spec.name, spec.shape, spec.dtype) for spec in input_specs]
            outputs = network(*feeds)
        fetches = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        exe = static.Executor()
        with static.scope_guard(static.Scope()):  # the values live only as long as the save
            exe.run(startup)
            static.save_inference_model(path, feeds, fetches, exe, program=main)
    finally:
        for layer, name, param in swapped:
            layer._parameters[name] = param
        if not was_static:
            disable_static()
        if was_training:
            network.train()
