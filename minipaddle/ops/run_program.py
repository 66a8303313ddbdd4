"""run_program: a whole converted Program run as ONE op inside dynamic autograd (Paddle's run_program op).

`paddle.jit.to_static` builds a Program from a function once; each call then runs it through the door like any
other op:

    outputs = apply(RunProgram, (*inputs, *parameters), {"runner": runner, "scope": StepScope()})

The kernel runs the forward ops on numpy and keeps every value it computed in the call's StepScope (Paddle's
OutScope). The grad rule is another op, run_program_grad, whose kernel runs the backward ops of the same Program
on that scope, seeded with the outputs' gradients, and returns the gradient of every input that wants one: so
`loss.backward()` fills each parameter's `.grad` and optimizers step as in dynamic mode.

The runner (jit/partial_program.py's ProgramRunner) holds the compiled forward and backward plans; it is Python
state of the converted function, not part of any Program, so a run_program op cannot be put into a Program.
"""

from __future__ import annotations

from minipaddle.core.dispatch import apply
from minipaddle.core.op import OpDef, register

__all__ = ["StepScope", "run_program"]


class StepScope:
    """The values one forward run computed, kept for its backward run (`env`: name -> array)."""

    __slots__ = ("env",)

    def __init__(self) -> None:
        self.env = None


@register
class RunProgram(OpDef):
    """Run a converted Program's forward ops; outputs as the runner lists them."""

    name = "run_program"
    saves_inputs = False
    none_for_unused_outputs = True

    def kernel(self, *xs, runner, scope, serializable=False):
        outs, env = runner.run_forward(xs)
        scope.env = env
        return outs

    def grad(self, node, *grads):
        runner = node.attrs["runner"]
        wanted = runner.wanted  # (the runner was compiled for exactly these inputs' gradients)
        attrs = {"runner": runner, "scope": node.attrs["scope"], "wanted": wanted, "serializable": False}
        result = apply(RunProgramGrad, tuple(grads), attrs)
        for i in runner.product_grads:  # a matmul's result: no -0.0 in it (see Tensor._no_negative_zero)
            result[i]._no_negative_zero = True
        if runner.wanted_last:  # (the common case: the parameters want gradients, the fed inputs before them not)
            return (None,) * (len(wanted) - len(result)) + tuple(result)
        it = iter(result)
        return tuple([next(it) if w else None for w in wanted])  # (a list: a generator resumes once per input)

    def infer_meta(self, *metas, **attrs):
        raise TypeError("run_program: a converted Program runs from dynamic mode only; it cannot be built into a "
                        "Program (call the function itself inside the Program instead)")  # fmt: skip


@register
class RunProgramGrad(OpDef):
    """Run the backward ops of a converted Program on the values its forward run kept."""

    name = "run_program_grad"
    saves_inputs = False
    differentiable = False

    def kernel(self, *out_grads, runner, scope, wanted, serializable=False):
        if scope.env is None:
            raise RuntimeError("run_program_grad: the forward run kept no values (was backward called twice?)")
        return runner.run_backward(scope.env, out_grads, wanted)

    def infer_meta(self, *metas, **attrs):
        raise TypeError("run_program_grad: runs from dynamic mode only")


def run_program(inputs: tuple, runner):
    """Run `runner`'s Program on `inputs` (Tensors: the feeds, then the parameters); a tuple of output Tensors."""
    # (serializable=False: the runner is Python state, so no Program file may hold this op; see static/serialize.py)
    return apply(RunProgram, tuple(inputs), {"runner": runner, "scope": StepScope(), "serializable": False})
