"""paddle.autograd: backward, grad, and the public view of the autograd graph.

Introspection (what viz draws from; documented in docs/autograd_graph.md):
    node = y.grad_fn                 # the GradNode that made y (None for a leaf)
    node.type, node.attrs, node.scope
    node.input_shapes, node.input_dtypes, node.output_shapes, node.output_dtypes
    node.next_nodes                  # per input: the GradNode that made it, the leaf Tensor, or None
    node.saved_tensors()             # what the grad rule will read
    graph_nodes(y)                   # every node behind y, outputs first (the order backward runs them)

PyLayer (py_layer.py): a custom op whose forward and backward are Python functions.
"""

from minipaddle.autograd.functional import Hessian, Jacobian, hessian, jacobian
from minipaddle.autograd.py_layer import PyLayer, PyLayerContext
from minipaddle.autograd.saved_tensors_hooks import saved_tensors_hooks
from minipaddle.core.autograd import backward, grad, topological_order
from minipaddle.core.node import GradNode
from minipaddle.core.state import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from minipaddle.core.tensor import Tensor


def graph_nodes(tensors) -> list:
    """Every GradNode behind `tensors` (a Tensor or a list), in the order backward would run them."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    return topological_order([t._node for t in tensors if t._node is not None])


__all__ = [
    "GradNode", "Hessian", "Jacobian", "PyLayer", "PyLayerContext", "backward", "enable_grad", "grad", "graph_nodes",
    "hessian", "is_grad_enabled", "jacobian", "no_grad", "set_grad_enabled", "saved_tensors_hooks",
]  # fmt: skip
