"""The inference IR passes, by paddle 2.6's names. Each is a function (Program, ctx) -> new Program that never
changes its input; `ctx` carries the predictor's scope (where folded weights go), the names it will fetch
(`keep`) and a `note(text)` for the log.

    is_test_pass                        train/eval switches -> their inference branch           (train_switch.py)
    simplify_with_basic_ops_pass        identities (dropout at inference) removed               (basic_ops.py)
    fc_fuse_pass                        matmul + add (+ act) -> fc                               (fc.py)
    repeated_fc_relu_fuse_pass          fc(relu) -> fc(relu) -> ... -> fusion_repeated_fc_relu   (fc.py)
    conv_bn_fuse_pass                   conv + batch norm -> conv with folded weights + add      (conv_bn.py)
    conv_eltwiseadd_bn_fuse_pass        conv + add + batch norm -> the same                      (conv_bn.py)
    constant_folding_pass               ops of weights alone -> new weights                      (constants.py)
    conv_elementwise_add_act_fuse_pass  conv + add + act -> conv2d_fusion                        (conv_act.py)
    act_pool_swap_pass                  act -> max pool as max pool -> act, inside the pool     (pool_act.py)
    inference_op_replace_pass           max_pool with an unread mask -> max_pool_infer           (op_replace.py)
    memory_optimize_pass                buffer reuse (Config.enable_memory_optim)                (memory.py)

The last two are analysis passes in paddle (ANALYSIS_PASSES), run after the IR list: inference_op_replace_pass
always, memory_optimize_pass with Config.enable_memory_optim().

PADDLE_CPU_PASSES is paddle 2.6's CPU list exactly (`pass_builder().all_passes()` after `disable_mkldnn()`).
The names in it that minipaddle has no rewrite for match ops minipaddle never builds (`mul`, `lstm`,
`sequence_*`, ...): they stay in the list, so delete_pass and insert_pass by name work as in paddle, and run as
"nothing to match" (UNMATCHED says why for each).

DEFAULT_PASSES, minipaddle's default list, differs from paddle's in three places, all written down here:
  1. is_test_pass runs first. Paddle's saved batch_norm already carries is_test, so its pass comes late; a
     minipaddle saved model still holds its train/eval switches, and no fusion can see through them.
  2. conv_elementwise_add_act_fuse_pass (from paddle's GPU list) runs after the CPU list: minipaddle has the
     fused op on CPU.
  3. act_pool_swap_pass, minipaddle's own, runs last: a conv's relu after its max pool is 4x fewer numbers
     (paddle's oneDNN runs the relu inside its conv kernel instead, where it costs no pass over memory).
"""

from __future__ import annotations

from minipaddle.inference.passes.basic_ops import simplify_with_basic_ops_pass
from minipaddle.inference.passes.constants import constant_folding_pass
from minipaddle.inference.passes.conv_act import conv_elementwise_add_act_fuse_pass
from minipaddle.inference.passes.conv_bn import conv_bn_fuse_pass, conv_eltwiseadd_bn_fuse_pass
from minipaddle.inference.passes.fc import fc_fuse_pass, repeated_fc_relu_fuse_pass
from minipaddle.inference.passes.memory import memory_optimize_pass
from minipaddle.inference.passes.op_replace import inference_op_replace_pass
from minipaddle.inference.passes.pool_act import act_pool_swap_pass
from minipaddle.inference.passes.train_switch import is_test_pass

__all__ = ["ANALYSIS_PASSES", "DEFAULT_PASSES", "IR_PASSES", "PADDLE_CPU_PASSES", "PADDLE_MKLDNN_PASSES",
           "PassContext", "UNMATCHED", "inference_op_replace_pass", "memory_optimize_pass"]  # fmt: skip

IR_PASSES = {
    "is_test_pass": is_test_pass,
    "simplify_with_basic_ops_pass": simplify_with_basic_ops_pass,
    "fc_fuse_pass": fc_fuse_pass,
    "repeated_fc_relu_fuse_pass": repeated_fc_relu_fuse_pass,
    "conv_bn_fuse_pass": conv_bn_fuse_pass,
    "conv_eltwiseadd_bn_fuse_pass": conv_eltwiseadd_bn_fuse_pass,
    "constant_folding_pass": constant_folding_pass,
    "conv_elementwise_add_act_fuse_pass": conv_elementwise_add_act_fuse_pass,
    "act_pool_swap_pass": act_pool_swap_pass,
}

PADDLE_CPU_PASSES = [
    "simplify_with_basic_ops_pass", "layer_norm_fuse_pass", "attention_lstm_fuse_pass",
    "seqconv_eltadd_relu_fuse_pass", "seqpool_cvm_concat_fuse_pass", "mul_lstm_fuse_pass", "fc_gru_fuse_pass",
    "mul_gru_fuse_pass", "seq_concat_fc_fuse_pass", "gpu_cpu_squeeze2_matmul_fuse_pass",
    "gpu_cpu_reshape2_matmul_fuse_pass", "gpu_cpu_flatten2_matmul_fuse_pass", "matmul_v2_scale_fuse_pass",
    "gpu_cpu_map_matmul_v2_to_mul_pass", "gpu_cpu_map_matmul_v2_to_matmul_pass", "matmul_scale_fuse_pass",
    "gpu_cpu_map_matmul_to_mul_pass", "fc_fuse_pass", "repeated_fc_relu_fuse_pass", "squared_mat_sub_fuse_pass",
    "conv_bn_fuse_pass", "conv_eltwiseadd_bn_fuse_pass", "conv_transpose_bn_fuse_pass",
    "conv_transpose_eltwiseadd_bn_fuse_pass", "is_test_pass", "constant_folding_pass",
]  # fmt: skip

_ONEDNN_TAIL = [
    "squeeze2_transpose2_onednn_fuse_pass", "depthwise_conv_mkldnn_pass", "conv_bn_fuse_pass",
    "conv_eltwiseadd_bn_fuse_pass", "conv_affine_channel_mkldnn_fuse_pass", "conv_transpose_bn_fuse_pass",
    "conv_transpose_eltwiseadd_bn_fuse_pass", "conv_bias_mkldnn_fuse_pass", "conv_transpose_bias_mkldnn_fuse_pass",
    "conv_elementwise_add_mkldnn_fuse_pass", "conv_activation_mkldnn_fuse_pass", "scale_matmul_fuse_pass",
    "reshape_transpose_matmul_mkldnn_fuse_pass", "matmul_transpose_reshape_mkldnn_fuse_pass",
    "matmul_elementwise_add_mkldnn_fuse_pass", "matmul_activation_mkldnn_fuse_pass", "fc_mkldnn_pass",
    "fc_act_mkldnn_fuse_pass", "self_attention_fuse_pass", "batch_norm_act_fuse_pass",
    "softplus_activation_onednn_fuse_pass", "shuffle_channel_mkldnn_detect_pass", "elementwise_act_onednn_fuse_pass",
    "operator_scale_onednn_fuse_pass", "operator_unsqueeze2_onednn_fuse_pass", "operator_reshape2_onednn_fuse_pass",
]  # fmt: skip
PADDLE_MKLDNN_PASSES = ["mkldnn_placement_pass", *PADDLE_CPU_PASSES, *_ONEDNN_TAIL]  # the oneDNN default, for reference

DEFAULT_PASSES = ["is_test_pass", *[p for p in PADDLE_CPU_PASSES if p != "is_test_pass"],
                  "conv_elementwise_add_act_fuse_pass", "act_pool_swap_pass"]  # fmt: skip

ANALYSIS_PASSES = [
    "ir_graph_build_pass", "ir_analysis_pass", "save_optimized_model_pass", "ir_params_sync_among_devices_pass",
    "adjust_cudnn_workspace_size_pass", "inference_op_replace_pass", "memory_optimize_pass",
    "ir_graph_to_program_pass",
]  # fmt: skip

_WHY = {
    "layer_norm_fuse_pass": "minipaddle's LayerNorm is standardize + multiply + add already, not the decomposition",
    "gpu_cpu_map_matmul_v2_to_mul_pass": "minipaddle has one matmul op; fc_fuse_pass reads it directly",
    "gpu_cpu_map_matmul_v2_to_matmul_pass": "minipaddle has one matmul op",
    "gpu_cpu_map_matmul_to_mul_pass": "minipaddle has one matmul op",
}
UNMATCHED = {
    name: _WHY.get(name, "matches ops minipaddle never builds (mul, lstm/gru, sequence, squeeze2/reshape2, "
                         "conv2d_transpose + batch_norm, matmul alpha)")
    for name in PADDLE_MKLDNN_PASSES if name not in IR_PASSES
}  # fmt: skip


class PassContext:
    """What a pass may use besides the Program: the predictor's scope, the fetched names, and a log note."""

    def __init__(self, scope, keep) -> None:
        self.scope = scope
        self.keep = list(keep)
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)
