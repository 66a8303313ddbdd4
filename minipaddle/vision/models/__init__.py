"""paddle.vision.models: classic image classifiers with Paddle 2.6's constructors and layer names (so a state dict
saved from Paddle's model has the same keys). pretrained=True downloads Paddle's published ImageNet weights (the
same URLs and md5 sums as paddle 2.6, pretrained.py) into Paddle's cache and loads them; a weights file you have
loads with `set_state_dict(paddle.load(path))`.

    lenet.py         LeNet
    alexnet.py       AlexNet, alexnet
    vgg.py           VGG, vgg11, vgg13, vgg16, vgg19 (batch_norm=True for the BN variants)
    resnet.py        ResNet, resnet18 ... resnet152, resnext50_32x4d ... resnext152_64x4d, wide_resnet50_2/101_2
    squeezenet.py    SqueezeNet, squeezenet1_0, squeezenet1_1
    googlenet.py     GoogLeNet, googlenet
    inceptionv3.py   InceptionV3, inception_v3
    densenet.py      DenseNet, densenet121, densenet161, densenet169, densenet201, densenet264
    mobilenetv1.py   MobileNetV1, mobilenet_v1
    mobilenetv2.py   MobileNetV2, mobilenet_v2
    mobilenetv3.py   MobileNetV3Small, MobileNetV3Large, mobilenet_v3_small, mobilenet_v3_large
    shufflenetv2.py  ShuffleNetV2, shufflenet_v2_x0_25 ... shufflenet_v2_x2_0, shufflenet_v2_swish
"""

from minipaddle.vision.models import resnet, vgg
from minipaddle.vision.models.alexnet import AlexNet, alexnet
from minipaddle.vision.models.densenet import (
    DenseNet,
    densenet121,
    densenet161,
    densenet169,
    densenet201,
    densenet264,
)
from minipaddle.vision.models.googlenet import GoogLeNet, googlenet
from minipaddle.vision.models.inceptionv3 import InceptionV3, inception_v3
from minipaddle.vision.models.lenet import LeNet
from minipaddle.vision.models.mobilenetv1 import MobileNetV1, mobilenet_v1
from minipaddle.vision.models.mobilenetv2 import MobileNetV2, mobilenet_v2
from minipaddle.vision.models.mobilenetv3 import (
    MobileNetV3Large,
    MobileNetV3Small,
    mobilenet_v3_large,
    mobilenet_v3_small,
)
from minipaddle.vision.models.resnet import (
    ResNet,
    resnet18,
    resnet34,
    resnet50,
    resnet101,
    resnet152,
    resnext50_32x4d,
    resnext50_64x4d,
    resnext101_32x4d,
    resnext101_64x4d,
    resnext152_32x4d,
    resnext152_64x4d,
    wide_resnet50_2,
    wide_resnet101_2,
)
from minipaddle.vision.models.shufflenetv2 import (
    ShuffleNetV2,
    shufflenet_v2_swish,
    shufflenet_v2_x0_5,
    shufflenet_v2_x0_25,
    shufflenet_v2_x0_33,
    shufflenet_v2_x1_0,
    shufflenet_v2_x1_5,
    shufflenet_v2_x2_0,
)
from minipaddle.vision.models.squeezenet import SqueezeNet, squeezenet1_0, squeezenet1_1
from minipaddle.vision.models.vgg import VGG, vgg11, vgg13, vgg16, vgg19

__all__ = [
    "ResNet",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "resnext50_32x4d",
    "resnext50_64x4d",
    "resnext101_32x4d",
    "resnext101_64x4d",
    "resnext152_32x4d",
    "resnext152_64x4d",
    "wide_resnet50_2",
    "wide_resnet101_2",
    "VGG",
    "vgg11",
    "vgg13",
    "vgg16",
    "vgg19",
    "MobileNetV1",
    "mobilenet_v1",
    "MobileNetV2",
    "mobilenet_v2",
    "MobileNetV3Small",
    "MobileNetV3Large",
    "mobilenet_v3_small",
    "mobilenet_v3_large",
    "LeNet",
    "DenseNet",
    "densenet121",
    "densenet161",
    "densenet169",
    "densenet201",
    "densenet264",
    "AlexNet",
    "alexnet",
    "InceptionV3",
    "inception_v3",
    "SqueezeNet",
    "squeezenet1_0",
    "squeezenet1_1",
    "GoogLeNet",
    "googlenet",
    "ShuffleNetV2",
    "shufflenet_v2_x0_25",
    "shufflenet_v2_x0_33",
    "shufflenet_v2_x0_5",
    "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5",
    "shufflenet_v2_x2_0",
    "shufflenet_v2_swish",
]
