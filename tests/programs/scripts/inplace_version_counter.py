"""Changing in place a tensor that backward needs is caught by the version counter, with
the error message naming the tensor's shape, its creator and its versions."""

import torch


def first_part(error):
    # The closing hint is where minigrad deliberately differs (docs/pytorch.md): PyTorch's
    # points to its anomaly detection, which minigrad does not have.
    return str(error).split(" Hint:")[0]


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
c = (b * 2).sum()
b.add_(1)
try:
    c.backward()
except RuntimeError as error:
    print("RuntimeError:", first_part(error))

x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x * 1
z = y.pow(2)
y.mul_(3)
y.zero_()
try:
    z.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", first_part(error))

# In place on a leaf that requires grad is refused outright.
try:
    x.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)

# In place where nothing saved the old value is fine: the graph records it.
p = torch.tensor([1.0, -2.0], requires_grad=True)
q = p * 2
q.add_(5)
print("q:", q, q.grad_fn.name())
q.sum().backward()
print("p.grad:", p.grad)

# Under no_grad, in-place updates of leaves are allowed.
with torch.no_grad():
    p.sub_(0.1 * p.grad)
print("p after the update:", p)
