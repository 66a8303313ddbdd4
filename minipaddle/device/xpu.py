"""paddle.device.xpu: Baidu Kunlun XPUs, as Paddle 2.6's CPU-only build answers: there are none."""

from __future__ import annotations

__all__ = ["synchronize"]  # as in Paddle; device_count is public too


def synchronize(device=None) -> None:
    """Wait for the XPU's work: needs an XPU, a RuntimeError here."""
    raise RuntimeError(
        "paddle.device.xpu.synchronize: minipaddle runs on numpy on the CPU only and is not compiled with XPU"
    )


def device_count() -> int:
    """The number of XPUs: 0."""
    return 0
