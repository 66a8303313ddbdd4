"""Every op, defined once (DESIGN.md, wall 2). Importing this package registers them all in core.op.OPS.

Grad rules call sibling ops through this package (`ops.multiply(g, y)`), so the modules can refer to each
other in any order. The names gathered here are the raw op functions, listed in each module's `__all__`:
they check nothing; the public functions in `minipaddle.tensor` and `minipaddle.nn.functional` check.
A new op module adds one line below.
"""

from minipaddle.ops.activation import *  # noqa: F403
from minipaddle.ops.as_strided import *  # noqa: F403
from minipaddle.ops.broadcast import *  # noqa: F403
from minipaddle.ops.collective import *  # noqa: F403
from minipaddle.ops.compare import *  # noqa: F403
from minipaddle.ops.complex_ops import *  # noqa: F403
from minipaddle.ops.constant import *  # noqa: F403
from minipaddle.ops.conv import *  # noqa: F403
from minipaddle.ops.ctc_loss import *  # noqa: F403
from minipaddle.ops.cumulative import *  # noqa: F403
from minipaddle.ops.data_norm_ops import *  # noqa: F403
from minipaddle.ops.debug import *  # noqa: F403
from minipaddle.ops.decompositions import *  # noqa: F403
from minipaddle.ops.deformable_conv import *  # noqa: F403
from minipaddle.ops.detection import *  # noqa: F403
from minipaddle.ops.diagonal import *  # noqa: F403
from minipaddle.ops.distribution_ops import *  # noqa: F403
from minipaddle.ops.elementwise import *  # noqa: F403
from minipaddle.ops.fake_quant import *  # noqa: F403
from minipaddle.ops.fft_ops import *  # noqa: F403
from minipaddle.ops.floor_division import *  # noqa: F403
from minipaddle.ops.fluid_ops import *  # noqa: F403
from minipaddle.ops.fused import *  # noqa: F403
from minipaddle.ops.graph_ops import *  # noqa: F403
from minipaddle.ops.grid import *  # noqa: F403
from minipaddle.ops.histogram import *  # noqa: F403
from minipaddle.ops.im2col import *  # noqa: F403
from minipaddle.ops.incubate_ops import *  # noqa: F403
from minipaddle.ops.indexing import *  # noqa: F403
from minipaddle.ops.int8 import *  # noqa: F403
from minipaddle.ops.interpolate import *  # noqa: F403
from minipaddle.ops.jit_ops import *  # noqa: F403
from minipaddle.ops.linalg import *  # noqa: F403
from minipaddle.ops.logical import *  # noqa: F403
from minipaddle.ops.loss_scaling import *  # noqa: F403
from minipaddle.ops.manipulation import *  # noqa: F403
from minipaddle.ops.matrix_functions import *  # noqa: F403
from minipaddle.ops.nce_ops import *  # noqa: F403
from minipaddle.ops.nn_activation import *  # noqa: F403
from minipaddle.ops.nn_common import *  # noqa: F403
from minipaddle.ops.nn_loss import *  # noqa: F403
from minipaddle.ops.nn_norm import *  # noqa: F403
from minipaddle.ops.optimizer_ops import *  # noqa: F403
from minipaddle.ops.pad import *  # noqa: F403
from minipaddle.ops.pool import *  # noqa: F403
from minipaddle.ops.products import *  # noqa: F403
from minipaddle.ops.random_like import *  # noqa: F403
from minipaddle.ops.random_ops import *  # noqa: F403
from minipaddle.ops.ranges import *  # noqa: F403
from minipaddle.ops.recompute_ops import *  # noqa: F403
from minipaddle.ops.reduce import *  # noqa: F403
from minipaddle.ops.reduce_math import *  # noqa: F403
from minipaddle.ops.rnnt_ops import *  # noqa: F403
from minipaddle.ops.run_program import *  # noqa: F403
from minipaddle.ops.runtime_shape import *  # noqa: F403
from minipaddle.ops.runtime_slice import *  # noqa: F403
from minipaddle.ops.runtime_source import *  # noqa: F403
from minipaddle.ops.runtime_split import *  # noqa: F403
from minipaddle.ops.search import *  # noqa: F403
from minipaddle.ops.sequence_ops import *  # noqa: F403
from minipaddle.ops.signal_ops import *  # noqa: F403
from minipaddle.ops.special_math import *  # noqa: F403
from minipaddle.ops.tensor_array import *  # noqa: F403
from minipaddle.ops.tree_paths import *  # noqa: F403
from minipaddle.ops.unary_math import *  # noqa: F403
from minipaddle.ops.unpool import *  # noqa: F403
from minipaddle.ops.vision_ops import *  # noqa: F403
from minipaddle.ops.yolo_loss import *  # noqa: F403
