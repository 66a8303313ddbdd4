"""minipaddle against paddle 2.6's public names (tests/golden/api26/names.json, recorded from paddle 2.6.2).

The shared coverage tool counts Paddle 2.0's names; this test counts paddle 2.6's: every module's __all__ and
paddle.Tensor's public attributes. A name minipaddle lacks must be listed in MISSING below, with the reason, and a
listed name that now exists must leave the list, so the list stays the true gap.
"""

from __future__ import annotations

import importlib

import minipaddle
from tests.golden_files import GOLDEN_ROOT, read_json

# What minipaddle does not have yet, by module, and why.
MISSING = {
    # The features no issue has asked for yet (docs/feature_map.md: "not yet").
    # paddle.distributed: data parallelism on MPI is here; not its auto-parallel API (ProcessMesh, shard_*, reshard,
    # to_static, Strategy, DistAttr, placements), tensor-parallel split, parameter-server datasets and sparse-table
    # entries, Gloo's own helpers, nor distributed checkpoints (save/load_state_dict, io).
    "paddle.distributed": {
        "CountFilterEntry",
        "DistAttr",
        "InMemoryDataset",
        "Partial",
        "Placement",
        "ProbabilityEntry",
        "ProcessMesh",
        "QueueDataset",
        "ReduceType",
        "Replicate",
        "Shard",
        "ShowClickEntry",
        "Strategy",
        "dtensor_from_fn",
        "gloo_barrier",
        "gloo_init_parallel_env",
        "gloo_release",
        "io",
        "load_state_dict",
        "reshard",
        "save_state_dict",
        "shard_layer",
        "shard_optimizer",
        "shard_tensor",
        "split",
        "to_static",
    },  # fmt: skip
    "paddle.inference": {"_get_phi_kernel_name"},  # a paddle C++ internal
    # Methods of paddle's sparse, selected-rows, string and distributed tensors (minipaddle's sparse tensors are
    # their own classes, which have them), and internals of paddle's C++ tensor.
    "paddle.Tensor": {
        "block",
        "coalesce",
        "cols",
        "crows",
        "dist_attr",
        "get_map_tensor",
        "get_selected_rows",
        "get_tensor",
        "grad_",
        "indices",
        "nnz",
        "num_shard",
        "placements",
        "process_mesh",
        "reconstruct_from_",
        "rows",
        "set_string_list",
        "set_vocab",
        "to_dense",
        "top_p_sampling",
        "type",
        "values",
    },  # fmt: skip
    "paddle.nn.functional": {"sparse_attention"},  # GPU only in paddle 2.6
    "paddle.vision.ops": {"decode_jpeg", "read_file"},  # JPEG decoding through nvJPEG (GPU) in paddle
    "paddle.static": {"IpuCompiledProgram", "IpuStrategy", "ipu_shard_guard", "set_ipu_shard"},
    # LoD (variable-length sequence) tensors do not exist in minipaddle.
    "paddle.static.nn": {
        "sequence_concat",
        "sequence_conv",
        "sequence_enumerate",
        "sequence_expand",
        "sequence_expand_as",
        "sequence_first_step",
        "sequence_last_step",
        "sequence_pad",
        "sequence_pool",
        "sequence_reshape",
        "sequence_reverse",
        "sequence_scatter",
        "sequence_slice",
        "sequence_softmax",
        "sequence_unpad",
    },  # fmt: skip
    # Audio datasets that download their files, and audio file I/O.
    "paddle.audio": {"backends", "datasets", "info", "load", "save"},
    "paddle.callbacks": {"WandbCallback"},  # needs the wandb service
}


def _counterpart(module_name: str):
    if module_name == "paddle.Tensor":
        return minipaddle.Tensor
    try:
        return importlib.import_module("minipaddle" + module_name[len("paddle") :])
    except ImportError:
        return None


def _gaps() -> dict[str, set]:
    names = read_json(GOLDEN_ROOT / "api26" / "names.json")["names"]
    gaps = {}
    for module_name, wanted in names.items():
        obj = _counterpart(module_name)
        missing = set(wanted) if obj is None else {n for n in wanted if not hasattr(obj, n)}
        if missing:
            gaps[module_name] = missing
    return gaps


def test_every_paddle_26_name_exists_or_is_listed_as_missing():
    names = read_json(GOLDEN_ROOT / "api26" / "names.json")["names"]
    unexplained = {}
    for module_name, missing in _gaps().items():
        listed = MISSING.get(module_name, set())
        extra = missing if listed == "all" else missing - listed
        if extra and not (listed == "all" and _counterpart(module_name) is None):
            unexplained[module_name] = sorted(extra)
    assert not unexplained, f"paddle 2.6 names minipaddle lacks and MISSING does not explain: {unexplained}"
    assert sum(len(v) for v in names.values()) == 1632


def test_missing_lists_no_name_that_now_exists():
    gaps = _gaps()
    stale = {}
    for module_name, listed in MISSING.items():
        if listed == "all":
            if module_name not in gaps or _counterpart(module_name) is not None:
                stale[module_name] = "the module exists now: list its missing names instead of 'all'"
            continue
        now_there = listed - gaps.get(module_name, set())
        if now_there:
            stale[module_name] = sorted(now_there)
    assert not stale, f"MISSING lists names that exist now; take them off the list: {stale}"
