"""paddle.text.datasets: the text datasets of paddle 2.6, reading paddle's own files: UCIHousing (housing.data),
Imdb (aclImdb_v1.tar.gz), Imikolov (simple-examples.tgz, the PTB corpus), Conll05st (conll05st-tests.tar.gz and
its dictionaries), Movielens (ml-1m.zip), WMT14 (wmt14.tgz) and WMT16 (wmt16.tar.gz).

Each takes `data_file`, the path of paddle's file; without one it looks in the data home
(minipaddle/vision/datasets/download.py) and downloads it there when `download=True` and the network allows;
offline, the error names the URL and the `data_file` argument. Items are numpy arrays, as in paddle.
"""

from minipaddle.text.datasets.conll05 import Conll05st
from minipaddle.text.datasets.imdb import Imdb
from minipaddle.text.datasets.imikolov import Imikolov
from minipaddle.text.datasets.movielens import Movielens
from minipaddle.text.datasets.uci_housing import UCIHousing
from minipaddle.text.datasets.wmt14 import WMT14
from minipaddle.text.datasets.wmt16 import WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
