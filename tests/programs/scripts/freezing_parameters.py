"""Freezing: a frozen body (requires_grad_(False)) and a trained head; detach and no_grad
as other ways to keep a computation out of the graph."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(41)
body = nn.Sequential(nn.Linear(4, 6), nn.ReLU())
head = nn.Linear(6, 2)
model = nn.Sequential(body, head)
with torch.no_grad():
    for parameter in model.parameters():
        parameter.copy_(torch.tensor(rng.normal(scale=0.5, size=tuple(parameter.shape))))

body.requires_grad_(False)
print("requires_grad:", [(name, p.requires_grad) for name, p in model.named_parameters()])
body_before = body[0].weight.clone()

inputs = torch.tensor(rng.normal(size=(10, 4)), dtype=torch.float32)
labels = torch.tensor(rng.integers(0, 2, size=10))
optimizer = torch.optim.SGD(head.parameters(), lr=0.5)
for step in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(inputs), labels)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}")
print("body unchanged:", torch.equal(body_before, body[0].weight), body[0].weight.grad)
print("head has grads:", head.weight.grad is not None)

features = body(inputs)
print("frozen features require grad:", features.requires_grad, features.grad_fn)
out = head(features)
print("head output grad_fn:", out.grad_fn.name())

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print("under no_grad:", y.requires_grad, y.grad_fn, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print("set_grad_enabled(False):", (x * 2).requires_grad)
with torch.no_grad():
    with torch.enable_grad():
        print("enable_grad inside no_grad:", (x * 2).requires_grad)


@torch.no_grad()
def evaluate(t):
    return t * 3


print("decorated:", evaluate(x).requires_grad)
d = x.detach()
print("detach:", d.requires_grad, d.is_leaf, d.grad_fn)
x.requires_grad_(False)
print("x after requires_grad_(False):", x.requires_grad, (x * 2).requires_grad)
try:
    (torch.ones(2) * 3).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
nonleaf = head(features)
try:
    nonleaf.requires_grad_(False)
except RuntimeError as error:
    print("RuntimeError:", error)
