"""The op table: every section's entries in one list. Each section is a module of its own (one per area of the
API, so work on different areas never touches the same file); add a new section to SECTIONS.

tests/ops/test_op_table.py runs every check that applies to all ops over OP_TABLE.
"""

from tests.op_table import (
    collective,
    complex,
    core,
    creation,
    data_norm_ops,
    debug,
    decompositions,
    detection,
    distribution,
    fake_quant,
    fft,
    fluid_ops,
    fused,
    geometric,
    grid,
    incubate,
    indexing,
    indexing_manipulation,
    jit_ops,
    linalg,
    logic,
    loss_scaling,
    manipulation,
    math,
    nce_ops,
    nn_attention_sequences,
    nn_conv,
    nn_core,
    optimizer,
    reductions_scans,
    rnnt,
    search,
    sequence_ops,
    signal,
    special_math,
    strided_diagonal,
    tensor_array,
    unpool,
    vision_ops,
)
from tests.op_table.common import OpInfo, Sample

SECTIONS = [core, creation, math, search, linalg, logic, manipulation, indexing, complex]  # the tensor API
SECTIONS += [nn_core, nn_conv, fused, optimizer, debug]  # layers, fused ops, optimizer updates, debugging
SECTIONS += [grid]  # spatial transformers: affine_grid, grid_sample
SECTIONS += [unpool]  # max unpooling: max_unpool1d/2d/3d
SECTIONS += [vision_ops]  # paddle.vision.ops: roi_align, roi_pool, nms
SECTIONS += [detection]  # paddle.vision.ops: deform_conv2d, psroi_pool, box_coder, prior_box, yolo_box
SECTIONS += [special_math]  # paddle 2.6's elementwise and special math: atan2 ... lgamma, erfinv, i0
SECTIONS += [reductions_scans]  # paddle 2.6's cumulative, NaN-ignoring, quantile, search and random-like ops
SECTIONS += [decompositions]  # paddle 2.6's decompositions and solvers: svd, qr, eigh, eig, solve, lu, lstsq ...
SECTIONS += [indexing_manipulation]  # paddle 2.6's take/put_along_axis, index_put, einsum, tensordot, rot90 ...
SECTIONS += [
    nn_attention_sequences
]  # paddle 2.6's extra nn functions: attention, pixel_unshuffle, sequence_mask, margin CE ...
SECTIONS += [fft]  # paddle.fft: fft_c2c, fft_r2c, fft_c2r behind every transform; fftshift, fftfreq
SECTIONS += [distribution]  # paddle.distribution's random op: standard_gamma (Dirichlet and Beta samples)
SECTIONS += [signal]  # paddle.signal: frame, overlap_add; stft and istft on paddle.fft's ops
SECTIONS += [geometric]  # paddle.geometric: segment_*, send_u_recv/ue_recv/uv, neighbor sampling, reindexing
SECTIONS += [strided_diagonal]  # paddle 2.6's renorm, cdist, as_strided, fill_diagonal_(tensor), householder_product
SECTIONS += [sequence_ops]  # paddle.text.viterbi_decode
SECTIONS += [fluid_ops]  # paddle.static: auc counters, spectral_norm's op
SECTIONS += [incubate]  # paddle.incubate: graph_khop_sampler
SECTIONS += [nce_ops]  # paddle.static.nn.nce's sampling op
SECTIONS += [data_norm_ops]  # paddle.static.nn.data_norm and its statistics' pseudo-gradients
SECTIONS += [rnnt]  # paddle.nn.functional.rnnt_loss (warprnnt)
SECTIONS += [collective]  # paddle.distributed's collectives as ops (identity on one process), recompute
SECTIONS += [fake_quant]  # quantization: the fake-quant ops, quantize_linear / dequantize_linear
SECTIONS += [jit_ops]  # paddle.jit: shape, assert, run_program (a converted function) and run_program_grad
SECTIONS += [tensor_array]  # tensor arrays: create_array, write_to_array, read_from_array, tensor_array_to_tensor
SECTIONS += [loss_scaling]  # AMP: check_finite_and_unscale, update_loss_scaling

OP_TABLE: list[OpInfo] = [entry for section in SECTIONS for entry in section.ENTRIES]

__all__ = [
    "OP_TABLE",
    "OpInfo",
    "Sample",
]
