"""Exercise 02: the network whose summary the exercise shows."""

import minipaddle as paddle

nn = paddle.nn


class MyNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
            nn.Conv2D(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2),
        )  # fmt: skip
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16 * 7 * 7, 10))

    def forward(self, x):
        return self.classifier(self.features(x))
