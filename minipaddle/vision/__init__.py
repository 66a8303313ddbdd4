"""paddle.vision: image transforms, datasets and the image backend.

transforms/  transforms on numpy (HWC), Tensor (CHW) and PIL images
ops.py       detection ops (roi_align, roi_pool, nms) and ConvNormActivation
models/      LeNet, ResNet, VGG, MobileNetV1/V2/V3, DenseNet, ... (Paddle's layer names; no weights are downloaded)
datasets/    MNIST, FashionMNIST, Cifar10/100, DatasetFolder, ImageFolder, EmbeddedDigits, toy 2-D data
image.py     set_image_backend / get_image_backend / image_load
png.py       reading and writing PNG files without Pillow
"""

from minipaddle.vision import datasets, models, ops, transforms
from minipaddle.vision.datasets import (
    MNIST,
    VOC2012,
    Cifar10,
    Cifar100,
    DatasetFolder,
    EmbeddedDigits,
    FashionMNIST,
    Flowers,
    ImageFolder,
)
from minipaddle.vision.image import get_image_backend, image_load, set_image_backend

__all__ = [
    "datasets",
    "models",
    "ops",
    "transforms",
    "MNIST",
    "FashionMNIST",
    "Cifar10",
    "Cifar100",
    "Flowers",
    "VOC2012",
    "DatasetFolder",
    "ImageFolder",
    "EmbeddedDigits",
    "get_image_backend",
    "set_image_backend",
    "image_load",
]
