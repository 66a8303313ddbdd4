"""Small files in the formats of paddle's text datasets, made the same way for paddle and minipaddle:
housing.data (rows of 14 numbers), aclImdb_v1.tar.gz (reviews under aclImdb/{train,test}/{pos,neg}/),
simple-examples.tgz (./simple-examples/data/ptb.{train,valid,test}.txt), conll05st-tests.tar.gz (gzipped word and
prop columns) with its three dictionaries, ml-1m.zip (movies/users/ratings.dat), wmt14.tgz (dictionaries and
tab-separated pairs), wmt16.tar.gz (tab-separated pairs).

Conll05st's tag ids and Movielens' genre and title-word ids follow a Python set's order in paddle (different in each
process), so their items are recorded with those ids turned back into names through each dataset's own dicts."""

import gzip
import io
import os
import tarfile
import zipfile

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
    files = {"housing": housing, "imdb": imdb, "ptb": ptb}
    files.update(_conll05_files(folder))
    files.update(_movielens_file(folder, rng))
    files.update(_wmt_files(folder, rng))
    return files


# word, predicate column, one bracket column per predicate; a blank line ends a sentence. The last sentence has no
# blank line after it, so paddle (and minipaddle) leave it out; "mat" and "Quietly" are not in the word dictionary.
CONLL_SENTENCES = [
    [("The", "-", "(A0*"), ("cat", "-", "*)"), ("sat", "sat", "(V*)"), ("on", "-", "(AM-LOC*"), ("the", "-", "*"),
     ("mat", "-", "*)"), (".", "-", "*")],
    [("Sold", "sold", "(V*)", "*"), ("shares", "-", "(A1*)", "(A1*"), ("rose", "-", "*", "*"), ("and", "-", "*", "*)"),
     ("fell", "fell", "*", "(V*)")],
    [("Quietly", "-", "(AM-MNR*)"), ("prices", "-", "(A1*)"), ("rose", "rose", "(V*)")],
]  # fmt: skip
CONLL_TAIL = [("It", "-", "(A0*)"), ("ended", "ended", "(V*)")]


def _conll05_files(folder: str) -> dict:
    words, props = [], []
    for sentence in CONLL_SENTENCES:
        words += [row[0] for row in sentence] + [""]
        props += [" ".join(row[1:]) for row in sentence] + [""]
    words += [row[0] for row in CONLL_TAIL]
    props += [" ".join(row[1:]) for row in CONLL_TAIL]
    data = os.path.join(folder, "conll05st-tests.tar.gz")
    with tarfile.open(data, "w:gz") as tar:
        for name, lines in (("words/test.wsj.words.gz", words), ("props/test.wsj.props.gz", props)):
            _add(tar, f"conll05st-release/test.wsj/{name}", gzip.compress(("\n".join(lines) + "\n").encode()))
    dicts = {
        "word": "bos eos the The cat sat on . Sold shares rose and fell prices It ended".split(),
        "verb": "sat sold fell rose ended".split(),
        "target": "B-A0 I-A0 B-A1 I-A1 B-AM-LOC I-AM-LOC B-AM-MNR I-AM-MNR B-V I-V".split(),
    }
    out = {}
    for kind, entries in dicts.items():
        out[f"conll_{kind}"] = os.path.join(folder, f"{kind}Dict.txt")
        with open(out[f"conll_{kind}"], "w") as f:
            f.write("\n".join(entries) + "\n")
    out["conll_emb"] = os.path.join(folder, "emb")
    with open(out["conll_emb"], "wb") as f:
        f.write(b"\0" * 16)
    out["conll"] = data
    return out


def _movielens_file(folder: str, rng) -> dict:
    movies = ["1::Toy Story (1995)::Animation|Children's|Comedy", "2::Jumanji (1995)::Adventure|Children's|Fantasy",
              "3::Grumpier Old Men (1995)::Comedy|Romance", "4::Caf\xe9 Society (1996)::Drama"]  # fmt: skip
    users = ["1::F::1::10::48067", "2::M::56::16::70072", "3::M::25::15::55117"]
    ratings = [f"{rng.integers(1, 4)}::{rng.integers(1, 5)}::{rng.integers(1, 6)}::97830{k:04d}" for k in range(30)]
    path = os.path.join(folder, "ml-1m.zip")
    with zipfile.ZipFile(path, "w") as z:
        for name, lines in (("movies", movies), ("users", users), ("ratings", ratings)):
            z.writestr(f"ml-1m/{name}.dat", ("\n".join(lines) + "\n").encode("latin"))
    return {"movielens": path}


def _pairs(rng, src_words, trg_words, n: int) -> list:
    return [" ".join(rng.choice(src_words, size=int(rng.integers(1, 6)))) + "\t"
            + " ".join(rng.choice(trg_words, size=int(rng.integers(1, 6)))) for _ in range(n)]  # fmt: skip


def _wmt_files(folder: str, rng) -> dict:
    fr, en = "le la chat chien noir blanc mange dort".split(), "the cat dog black white eats sleeps".split()
    de = "der die katze hund schwarz weiss isst schlaeft".split()
    wmt14 = os.path.join(folder, "wmt14.tgz")
    with tarfile.open(wmt14, "w:gz") as tar:
        _add(tar, "wmt14/src.dict", ("\n".join(["<s>", "<e>", "<unk>"] + fr) + "\n").encode())
        _add(tar, "wmt14/trg.dict", ("\n".join(["<s>", "<e>", "<unk>"] + en) + "\n").encode())
        for mode in ("train", "test", "gen"):
            lines = _pairs(rng, fr, en, 5) + ["no tab here", " ".join(["chat"] * 81) + "\tcat"]
            _add(tar, f"wmt14/{mode}/{mode}", ("\n".join(lines) + "\n").encode())
    wmt16 = os.path.join(folder, "wmt16.tar.gz")
    with tarfile.open(wmt16, "w:gz") as tar:
        for mode in ("train", "test", "val"):
            lines = _pairs(rng, en, de, 8) + ["no tab here"]
            _add(tar, f"wmt16/{mode}", ("\n".join(lines) + "\n").encode())
    return {"wmt14": wmt14, "wmt16": wmt16}


def _named(ids, names: dict) -> list:
    inverse = {i: n for n, i in names.items()}
    return [inverse[int(i)] for i in np.asarray(ids).ravel()]


def _conll_items(ds) -> list:
    out = []
    for i in range(len(ds)):
        item = [np.asarray(a).tolist() for a in ds[i]]
        out.append(item[:8] + [_named(item[8], ds.label_dict)])
    return out


def _movielens_items(ds) -> list:
    out = []
    for i in range(len(ds)):
        item = [np.asarray(a).tolist() for a in ds[i]]
        out.append(item[:5] + [_named(item[5], ds.categories_dict), _named(item[6], ds.movie_title_dict), item[7]])
    return out


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
        out[f"movielens_{mode}"] = _movielens_items(D.Movielens(data_file=files["movielens"], mode=mode,
                                                                test_ratio=0.3, rand_seed=3))  # fmt: skip
    conll = D.Conll05st(data_file=files["conll"], word_dict_file=files["conll_word"],
                        verb_dict_file=files["conll_verb"], target_dict_file=files["conll_target"],
                        emb_file=files["conll_emb"])  # fmt: skip
    out["conll05"] = _conll_items(conll)
    out["conll05_dicts"] = [sorted(d.items()) for d in conll.get_dict()[:2]] + [sorted(conll.get_dict()[2])]
    out["conll05_embedding"] = [[os.path.basename(conll.get_embedding())]]
    for mode in ("train", "test", "gen"):
        out[f"wmt14_{mode}"] = _items(D.WMT14(data_file=files["wmt14"], mode=mode, dict_size=8))
    out["wmt14_dict"] = [sorted(d.items()) for d in D.WMT14(data_file=files["wmt14"], dict_size=6).get_dict()]
    for mode in ("train", "test", "val"):
        for lang, sizes in (("en", (9, 12)), ("de", (30, 2))):
            ds = D.WMT16(data_file=files["wmt16"], mode=mode, src_dict_size=sizes[0], trg_dict_size=sizes[1], lang=lang)
            out[f"wmt16_{mode}_{lang}"] = _items(ds)
    out["wmt16_dict"] = [sorted(ds.get_dict("de").items()), sorted(ds.get_dict("en").items())]
    return out
