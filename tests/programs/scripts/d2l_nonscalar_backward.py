"""Backward of a vector: through sum() or with an explicit gradient, both give 2x."""

import torch

x = torch.arange(5.0, requires_grad=True)
y = x * x
print("y =", y)
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

y.sum().backward()
print("via sum():", x.grad)

x.grad = None
y = x * x
y.backward(gradient=torch.ones(len(x)))
print("via gradient=ones:", x.grad)

x.grad = None
y = x * x
y.backward(torch.tensor([1.0, 0.0, 2.0, 0.0, -1.0]))
print("via a weighting vector:", x.grad)

# The gradient must have the output's shape.
x.grad = None
y = x * x
try:
    y.backward(torch.ones(3))
except RuntimeError as error:
    print("RuntimeError:", error)

m = torch.arange(6.0).reshape(2, 3).requires_grad_()
out = m.exp() * 0.5
out.backward(torch.full((2, 3), 2.0))
print("matrix grad:\n", m.grad)
