"""`paddle.framework.random`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.tensor.random import get_cuda_rng_state, get_rng_state, seed, set_cuda_rng_state, set_rng_state

__all__ = ["get_cuda_rng_state", "get_rng_state", "seed", "set_cuda_rng_state", "set_rng_state"]
