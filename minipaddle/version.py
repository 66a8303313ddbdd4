"""paddle.version: what this build is, in the names paddle 2.6 gives (`paddle.version.full_version`, `show()`).

minipaddle is its own package with its own version; it is built without CUDA, cuDNN, XPU or CINN, so those
answer 'False' as paddle's CPU wheel does. It imports nothing, so every floor may read it.
"""

full_version = "0.1.0"
major, minor, patch = full_version.split(".")
rc = "0"
cuda_version = "False"
cudnn_version = "False"
xpu_version = "False"
xpu_xccl_version = "False"
cinn_version = "False"
istaged = True
commit = "minipaddle"
with_mkl = "OFF"  # numpy's BLAS, not Paddle's MKL build

__all__ = ["cuda", "cudnn", "show", "xpu", "xpu_xccl"]


def show() -> None:
    """Print the version facts as paddle 2.6's `paddle.version.show()` does for a tagged build."""
    for name, value in (("full_version", full_version), ("major", major), ("minor", minor), ("patch", patch),
                        ("rc", rc), ("cuda", cuda_version), ("cudnn", cudnn_version), ("xpu", xpu_version),
                        ("xpu_xccl", xpu_xccl_version), ("cinn", cinn_version)):  # fmt: skip
        print(f"{name}:", value)


def cuda() -> str:
    """'False': built without CUDA."""
    return cuda_version


def cudnn() -> str:
    """'False': built without cuDNN."""
    return cudnn_version


def xpu() -> str:
    """'False': built without XPU."""
    return xpu_version


def xpu_xccl() -> str:
    """'False': built without XPU."""
    return xpu_xccl_version
