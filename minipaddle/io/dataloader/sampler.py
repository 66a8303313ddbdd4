"""`paddle.io.dataloader.sampler` of paddle 2.6: the samplers of indices, re-exported from io/sampler.py (paddle keeps
its batch samplers in batch_sampler.py)."""

from minipaddle.io.sampler import RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler, WeightedRandomSampler

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler"]
