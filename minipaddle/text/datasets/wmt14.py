"""paddle.text.datasets.WMT14: French-English translation pairs of paddle's preprocessed WMT'14 subset, as paddle 2.6
reads its wmt14.tgz.

The tar holds a source and a target dictionary (members ending in 'src.dict' and 'trg.dict', one word per line,
the line number is the id; paddle's put '<s>', '<e>', '<unk>' first) and the splits, members ending in
'train/train', 'test/test' and 'gen/gen': lines of 'source words<TAB>target words'.
"""

from __future__ import annotations

import tarfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
START, END, UNK = "<s>", "<e>", "<unk>"
UNK_IDX = 2
MAX_LENGTH = 80  # pairs with a longer source (with <s> and <e>) or target are skipped, as paddle does


class WMT14(Dataset):
    """WMT'14 fr-en. Item i is 3 int arrays: the source ids ('<s>' words '<e>'), the target ids ('<s>' words) and
    the next-word targets (words '<e>').

    Args:
        data_file (str, optional): paddle's wmt14.tgz; None looks for it in the data home.
        mode (str, optional): 'train', 'test' or 'gen'. Default 'train'.
        dict_size (int): the number of dictionary entries kept (the first dict_size lines); must be positive.
        download (bool, optional): fetch the file when it is missing. Default True.
    """

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True) -> None:
        if not isinstance(mode, str) or mode.lower() not in ("train", "test", "gen"):
            raise ValueError(f"WMT14: mode should be 'train', 'test' or 'gen', but got {mode!r}")
        self.mode = mode.lower()
        self.data_file = data_file or dataset_file(URL_TRAIN, MD5_TRAIN, "wmt14", download, "WMT14(data_file)")
        if not isinstance(dict_size, int) or dict_size <= 0:
            raise ValueError(f"WMT14: dict_size should be set as positive number, got {dict_size!r}")
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self) -> None:
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            members = tar.getmembers()
            self.src_dict = self._dict(tar, members, "src.dict")
            self.trg_dict = self._dict(tar, members, "trg.dict")
            for member in (m for m in members if m.name.endswith(f"{self.mode}/{self.mode}")):
                for line in tar.extractfile(member):
                    pair = line.decode().strip().split("\t")
                    if len(pair) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *pair[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                    if len(src) > MAX_LENGTH or len(trg) > MAX_LENGTH:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def _dict(self, tar, members, suffix: str) -> dict:
        names = [m for m in members if m.name.endswith(suffix)]
        if len(names) != 1:
            raise ValueError(f"WMT14: {self.data_file} must hold one member ending in {suffix!r}, found {len(names)}")
        lines = tar.extractfile(names[0]).read().splitlines()[: self.dict_size]
        return {line.strip().decode(): i for i, line in enumerate(lines)}

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, reverse=False):
        """(source dict, target dict), word -> id; id -> word with reverse=True."""
        if reverse:
            return {v: k for k, v in self.src_dict.items()}, {v: k for k, v in self.trg_dict.items()}
        return self.src_dict, self.trg_dict
