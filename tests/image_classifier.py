"""A small image classifier's training step, shared by the tests that draw it
(``tests/widgets/test_image_classifier.py`` in Python, with ``dot`` and without;
``tests/browser/test_image_classifier_static.py`` in an exported page); each loads this file
with ``runpy.run_path`` (pytest's importlib mode puts no test folder on ``sys.path``), and
the browser test runs ``SOURCE`` in a notebook.

minigrad has no convolution, so the "small CNN" of issue 21 is what minigrad has: a batch of
16 grey 8x8 images, flattened, through Linear/ReLU layers to ten classes, a cross-entropy
loss, ``backward()`` and one SGD step.
"""

SOURCE = """import minigrad as mg
import minigrad.nn as nn
import minigrad.nn.functional as F


class ImageClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.features = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.classifier = nn.Linear(16, 10)

    def forward(self, images):
        return self.classifier(self.features(self.flatten(images)))


mg.manual_seed(0)
net = ImageClassifier()
images = mg.randn(16, 1, 8, 8)
labels = mg.randint(0, 10, (16,))
optimizer = mg.optim.SGD(net.parameters(), lr=0.1)


def training_loss():
    return F.cross_entropy(net(images), labels)


loss = training_loss()
optimizer.zero_grad()
loss.backward()
optimizer.step()
"""
