"""paddle.text.datasets: the text datasets of paddle 2.6 that read paddle's own files: UCIHousing (housing.data),
Imdb (aclImdb_v1.tar.gz), Imikolov (simple-examples.tgz, the PTB corpus).

Each takes `data_file`, the path of paddle's file; without one it looks in the data home
(minipaddle/vision/datasets/download.py) and downloads it there when `download=True` and the network allows;
offline, the error names the URL and the `data_file` argument. Items are numpy arrays, as in paddle.
"""

from minipaddle.text.datasets.imdb import Imdb
from minipaddle.text.datasets.imikolov import Imikolov
from minipaddle.text.datasets.uci_housing import UCIHousing

__all__ = ["Imdb", "Imikolov", "UCIHousing"]
