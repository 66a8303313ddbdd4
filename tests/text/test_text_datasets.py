"""paddle.text.datasets read paddle's files as paddle 2.6 does (tests/golden/fidelity/text_files.py makes small
files in each format; make_text_golden.py recorded paddle's items into text.json), and without a file, offline,
they say which URL and which argument."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import minipaddle as paddle
from tests.golden_files import GOLDEN_ROOT, read_json

GOLDEN = read_json(GOLDEN_ROOT / "fidelity" / "text.json")


def _text_files():
    spec = importlib.util.spec_from_file_location("text_files", GOLDEN_ROOT / "fidelity" / "text_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    return _text_files().run_all(paddle, str(tmp_path_factory.mktemp("text")))


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_items_as_paddle(ours, key):
    assert len(ours[key]) == len(GOLDEN[key])
    for got, want in zip(ours[key], GOLDEN[key]):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            if np.asarray(w).dtype.kind in "USO":  # names (tags, genres, words, dictionary entries)
                assert np.asarray(g).tolist() == np.asarray(w).tolist()
            else:
                np.testing.assert_allclose(np.asarray(g, float), np.asarray(w, float), rtol=1e-6)


def test_without_a_file_offline_the_error_names_the_url_and_the_argument(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIPADDLE_DATA_HOME", str(tmp_path))
    D = paddle.text.datasets
    for make, url in ((D.UCIHousing, "housing.data"), (D.Imdb, "aclImdb_v1.tar.gz"), (D.Imikolov, "simple-examples"),
                      (D.Conll05st, "conll05st-tests.tar.gz"), (D.Movielens, "ml-1m.zip"), (D.WMT14, "wmt14.tgz"),
                      (D.WMT16, "wmt16.tar.gz")):  # fmt: skip
        with pytest.raises(RuntimeError, match=rf"{make.__name__}\(data_file\)") as err:
            make(download=False)
        assert url in str(err.value) and "http" in str(err.value)


def test_conll05st_names_each_missing_dictionary(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIPADDLE_DATA_HOME", str(tmp_path))
    files = _text_files().make_files(str(tmp_path))
    given = {"data_file": files["conll"], "word_dict_file": files["conll_word"], "verb_dict_file": files["conll_verb"],
             "target_dict_file": files["conll_target"], "emb_file": files["conll_emb"]}  # fmt: skip
    for arg, name in (("word_dict_file", "wordDict.txt"), ("verb_dict_file", "verbDict.txt"),
                      ("target_dict_file", "targetDict.txt"), ("emb_file", "emb")):  # fmt: skip
        with pytest.raises(RuntimeError, match=rf"Conll05st\({arg}\)") as err:
            paddle.text.datasets.Conll05st(**{**given, arg: None}, download=False)
        assert name in str(err.value) and "http" in str(err.value)


def test_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="mode"):
        paddle.text.datasets.UCIHousing(data_file=str(tmp_path / "x"), mode="valid")
    with pytest.raises(ValueError, match="data type"):
        paddle.text.datasets.Imikolov(data_file=str(tmp_path / "x"), data_type="CHAR")
    with pytest.raises(ValueError, match="mode"):
        paddle.text.datasets.Movielens(data_file=str(tmp_path / "x"), mode="val")
    with pytest.raises(ValueError, match="dict_size should be set as positive number"):
        paddle.text.datasets.WMT14(data_file=str(tmp_path / "x"))
    with pytest.raises(ValueError, match="trg_dict_size should be set as positive number"):
        paddle.text.datasets.WMT16(data_file=str(tmp_path / "x"), src_dict_size=5)
    with pytest.raises(ValueError, match="mode"):
        paddle.text.datasets.WMT16(data_file=str(tmp_path / "x"), mode="gen", src_dict_size=5, trg_dict_size=5)


def test_movielens_leaves_numpy_global_random_state_alone(tmp_path):
    files = _text_files().make_files(str(tmp_path))
    np.random.seed(7)
    expected = np.random.random()
    np.random.seed(7)
    paddle.text.datasets.Movielens(data_file=files["movielens"], rand_seed=3)
    assert np.random.random() == expected
