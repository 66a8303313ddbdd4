"""paddle.text.datasets.UCIHousing: the Boston housing data (506 rows of 13 features and a price), as paddle 2.6
reads its housing.data: every feature centred on its mean and divided by its range, the first 80% of the rows for
training, the rest for testing."""

from __future__ import annotations

import numpy as np

from minipaddle.core.dtype import get_default_dtype
from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
FEATURES = 14  # 13 features and the price


class UCIHousing(Dataset):
    """The UCI housing regression data: item i is (13 normalized features, [price]), float arrays of the default
    dtype.

    Args:
        data_file (str, optional): the path of paddle's housing.data; None looks for it in the data home.
        mode (str, optional): 'train' (the first 80% of the rows) or 'test'. Default 'train'.
        download (bool, optional): fetch the file when it is missing. Default True.
    """

    def __init__(self, data_file=None, mode="train", download=True) -> None:
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"UCIHousing: mode should be 'train' or 'test', but got {mode!r}")
        self.mode = mode.lower()
        self.data_file = data_file or dataset_file(URL, MD5, "uci_housing", download, "UCIHousing(data_file)")
        self.dtype = get_default_dtype()
        data = np.fromfile(self.data_file, sep=" ")
        if data.size == 0 or data.size % FEATURES:
            raise ValueError(
                f"UCIHousing: {self.data_file} does not hold rows of {FEATURES} numbers (found {data.size} numbers)"
            )
        data = data.reshape(-1, FEATURES)
        maximums, minimums, avgs = data.max(axis=0), data.min(axis=0), data.sum(axis=0) / data.shape[0]
        for i in range(FEATURES - 1):
            data[:, i] = (data[:, i] - avgs[i]) / (maximums[i] - minimums[i])
        offset = int(data.shape[0] * 0.8)
        self.data = data[:offset] if self.mode == "train" else data[offset:]

    def __getitem__(self, idx):
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self) -> int:
        return len(self.data)
