"""What a model shows of itself: its repr, its children and named modules, parameter
counts, train/eval mode, and Parameter's repr."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh())
        self.head = nn.Linear(8, 3, bias=False)

    def forward(self, x):
        return self.head(self.features(x))


model = Classifier()
print(model)
print("children:", [name for name, _ in model.named_children()])
print("modules:", [name for name, _ in model.named_modules()])
print("parameters:", [(name, tuple(p.shape)) for name, p in model.named_parameters()])
print("count:", sum(p.numel() for p in model.parameters()))
print("training:", model.training, model.features[1].training)
model.eval()
print("after eval():", model.training, model.features[1].training)
model.train()
print("after train():", model.training)
with torch.no_grad():
    model.head.weight.fill_(0.5)
print(model.head.weight[0])
print(nn.Parameter(torch.tensor([1.0, -1.0])))
print(nn.Parameter(torch.tensor([1.0, -1.0]), requires_grad=False))
print("head bias:", model.head.bias)
out = model(torch.ones(2, 4))
print("output:", out.shape, out.grad_fn.name())
