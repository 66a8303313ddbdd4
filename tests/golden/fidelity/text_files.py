"""Small files in the formats of paddle's text datasets, made the same way for paddle and minipaddle:
housing.data (rows of 14 numbers), aclImdb_v1.tar.gz (reviews under aclImdb/{train,test}/{pos,neg}/),
simple-examples.tgz (./simple-examples/data/ptb.{train,valid,test}.txt)."""

import io
import os
import tarfile

import numpy as np

WORDS = "the a movie film good bad great awful plot actor story boring fun love hate".split()


def _add(tar, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def make_files(folder: str) -> dict:
    rng = np.random.default_rng(0)
    housing = os.path.join(folder, "housing.data")
    rows = rng.uniform(0, 10, size=(20, 14)).round(3)
    with open(housing, "w") as f:
        f.write("\n".join(" ".join(f"{v:.3f}" for v in row) for row in rows) + "\n")
    imdb = os.path.join(folder, "aclImdb_v1.tar.gz")
    with tarfile.open(imdb, "w:gz") as tar:
        for mode in ("train", "test"):
            for kind in ("pos", "neg"):
                for k in range(3):
                    words = rng.choice(WORDS, size=int(rng.integers(4, 9)))
                    text = " ".join(words).capitalize() + ", really!\n"
                    _add(tar, f"aclImdb/{mode}/{kind}/{k}_7.txt", text.encode())
    ptb = os.path.join(folder, "simple-examples.tgz")
    with tarfile.open(ptb, "w:gz") as tar:
        for name in ("train", "valid", "test"):
            lines = [" ".join(rng.choice(WORDS + ["<unk>"], size=int(rng.integers(2, 7)))) for _ in range(6)]
            _add(tar, f"./simple-examples/data/ptb.{name}.txt", ("\n".join(f" {s} " for s in lines) + "\n").encode())
    return {"housing": housing, "imdb": imdb, "ptb": ptb}


def _items(ds) -> list:
    return [[np.asarray(a).tolist() for a in ds[i]] for i in range(len(ds))]


def run_all(paddle, folder: str) -> dict:
    files = make_files(folder)
    D = paddle.text.datasets
    out = {}
    for mode in ("train", "test"):
        out[f"uci_{mode}"] = _items(D.UCIHousing(data_file=files["housing"], mode=mode))
        out[f"imdb_{mode}"] = _items(D.Imdb(data_file=files["imdb"], mode=mode, cutoff=1))
        out[f"ngram_{mode}"] = _items(D.Imikolov(data_file=files["ptb"], data_type="NGRAM", window_size=3, mode=mode,
                                                 min_word_freq=1))  # fmt: skip
        out[f"seq_{mode}"] = _items(D.Imikolov(data_file=files["ptb"], data_type="SEQ", mode=mode, min_word_freq=1))
    return out
