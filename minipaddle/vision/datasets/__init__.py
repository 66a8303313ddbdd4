"""paddle.vision.datasets: image datasets read from their original files, and datasets minipaddle makes itself.

mnist.py          MNIST, FashionMNIST (IDX .gz files)
cifar.py          Cifar10, Cifar100 (python-version .tar.gz, read by static/pickle_reader.py: no code is run)
folder.py         DatasetFolder, ImageFolder (.png and .npy; other formats through Pillow)
digits.py         EmbeddedDigits: MNIST-shaped digits drawn by minipaddle, no download
toys.py           make_moons, make_spirals, make_blobs: 2-D points for decision boundaries
download.py       where files live, and downloading them when asked
"""

from minipaddle.vision.datasets.cifar import Cifar10, Cifar100
from minipaddle.vision.datasets.digits import EmbeddedDigits, render_digits
from minipaddle.vision.datasets.flowers import Flowers
from minipaddle.vision.datasets.folder import DatasetFolder, ImageFolder
from minipaddle.vision.datasets.mnist import MNIST, FashionMNIST
from minipaddle.vision.datasets.toys import make_blobs, make_moons, make_spirals
from minipaddle.vision.datasets.voc2012 import VOC2012

__all__ = [
    "DatasetFolder",
    "ImageFolder",
    "MNIST",
    "FashionMNIST",
    "Cifar10",
    "Cifar100",
    "Flowers",
    "VOC2012",
    "EmbeddedDigits",
    "render_digits",
    "make_moons",
    "make_spirals",
    "make_blobs",
]
