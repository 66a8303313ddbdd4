"""paddle.vision.models: classic image classifiers with Paddle 2.6's constructors and layer names (so a state dict
saved from Paddle's model has the same keys). No weights can be downloaded: pretrained=True raises RuntimeError;
build the model and load a weights file you have with `set_state_dict(paddle.load(path))`.

    lenet.py        LeNet
    resnet.py       ResNet, resnet18, resnet34, resnet50, resnet101, resnet152
    vgg.py          VGG, vgg11, vgg13, vgg16, vgg19 (batch_norm=True for the BN variants)
    mobilenetv1.py  MobileNetV1, mobilenet_v1
    mobilenetv2.py  MobileNetV2, mobilenet_v2
"""

from minipaddle.vision.models import resnet, vgg
from minipaddle.vision.models.lenet import LeNet
from minipaddle.vision.models.mobilenetv1 import MobileNetV1, mobilenet_v1
from minipaddle.vision.models.mobilenetv2 import MobileNetV2, mobilenet_v2
from minipaddle.vision.models.resnet import ResNet, resnet18, resnet34, resnet50, resnet101, resnet152
from minipaddle.vision.models.vgg import VGG, vgg11, vgg13, vgg16, vgg19

__all__ = [
    "ResNet",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "VGG",
    "vgg11",
    "vgg13",
    "vgg16",
    "vgg19",
    "MobileNetV1",
    "mobilenet_v1",
    "MobileNetV2",
    "mobilenet_v2",
    "LeNet",
]
