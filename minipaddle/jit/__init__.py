"""paddle.jit: dynamic-to-static conversion (to_static), saving converted models (save/load), and the switches.

@paddle.jit.to_static
def forward(x): ...                  # an AST rewrite traced into a Program, run as one op (run_program)
paddle.jit.save(layer, "out/model", input_spec=[InputSpec([None, 4])])
loaded = paddle.jit.load("out/model")   # a TranslatedLayer
"""

from minipaddle.jit import dy2static
from minipaddle.jit.dy2static.convert_call import not_to_static
from minipaddle.jit.logging_utils import set_code_level, set_verbosity
from minipaddle.jit.program_translator import StaticFunction, enable_to_static, to_static
from minipaddle.jit.saving import save
from minipaddle.jit.translated_layer import TranslatedLayer, load


def ignore_module(modules) -> None:
    """Run the functions of these modules as they are inside converted code (Paddle 2.6's ignore_module)."""
    from minipaddle.jit.dy2static import convert_call

    for m in modules if isinstance(modules, (list, tuple)) else [modules]:
        convert_call.IGNORED_MODULES.add(getattr(m, "__name__", m))


__all__ = [
    "StaticFunction", "TranslatedLayer", "dy2static", "enable_to_static", "ignore_module", "load", "not_to_static",
    "save", "set_code_level", "set_verbosity", "to_static",
]  # fmt: skip
