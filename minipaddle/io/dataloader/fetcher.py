"""`paddle.io.dataloader.fetcher` of paddle 2.6: reading one batch. minipaddle has one fetcher for map-style and
iterable datasets (paddle has _MapDatasetFetcher and _IterableDatasetFetcher), re-exported from io/fetcher.py."""

from minipaddle.io.fetcher import BatchFetcher

__all__ = ["BatchFetcher"]
