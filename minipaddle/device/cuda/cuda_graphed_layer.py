"""paddle.device.cuda.cuda_graphed_layer: CUDAGraphedLayer, a Layer that runs its wrapped Layer eagerly for a few
warm-up steps and then captures forward and backward as CUDA graphs and replays them. Its constructor makes two
CUDAGraph objects, so in paddle 2.6's CPU build making one raises CUDAGraph's AssertionError; so does this."""

from __future__ import annotations

from minipaddle.device.cuda.graphs import CUDAGraph
from minipaddle.nn import Layer

__all__ = ["CUDAGraphedLayer", "CUDAGraphContext"]


class CUDAGraphContext:
    """What CUDAGraphedLayer keeps between steps: the Layer, the step count and the two graphs (forward and
    backward), as paddle's. Making the graphs needs CUDA."""

    def __init__(self, layer, num_warmup_steps: int) -> None:
        self.step = 0
        self.layer = layer
        self.forward_graph = CUDAGraph()
        self.backward_graph = CUDAGraph()
        self.num_warmup_steps = num_warmup_steps


class CUDAGraphedLayer(Layer):
    """CUDAGraphedLayer(layer, num_warmup_steps=3): paddle's CUDA-graph wrapper of a Layer. The arguments are checked
    (TypeError), then the CUDA graphs are made, which raises paddle's AssertionError without CUDA."""

    def __init__(self, layer, num_warmup_steps: int = 3) -> None:
        if not isinstance(layer, Layer):
            raise TypeError(f"CUDAGraphedLayer: layer must be a paddle.nn.Layer, got {type(layer).__name__}")
        if not isinstance(num_warmup_steps, int) or isinstance(num_warmup_steps, bool) or num_warmup_steps < 0:
            raise TypeError(f"CUDAGraphedLayer: num_warmup_steps must be an int >= 0, got {num_warmup_steps!r}")
        super().__init__()
        self.context = CUDAGraphContext(layer, num_warmup_steps)
