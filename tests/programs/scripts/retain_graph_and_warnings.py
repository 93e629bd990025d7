"""Backward twice through the same graph, retain_graph, and the warning for reading .grad
of a non-leaf tensor."""

import warnings

import torch

x = torch.tensor([2.0, -1.0], requires_grad=True)
y = (x.exp() * x).sum()
y.backward()
print("first backward:", x.grad)
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

x.grad = None
y = (x.exp() * x).sum()
y.backward(retain_graph=True)
y.backward()
print("two backwards with retain_graph, accumulated:", x.grad)

z = x * 3
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("non-leaf .grad:", z.grad)
print("warnings:", len(caught), caught[0].category.__name__ if caught else None)
print("message:", str(caught[0].message).split(". ")[0] if caught else None)

leaf = torch.tensor(1.0)
try:
    leaf.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

t = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    t.numpy()
except RuntimeError as error:
    print("RuntimeError:", error)
print("detach().numpy():", t.detach().numpy())
print("item on many elements:", end=" ")
try:
    t.item()
except RuntimeError as error:
    print("RuntimeError:", error)
