"""A value used on several paths (a diamond in the graph) receives the sum of the
gradients of every path; several outputs at once through torch.autograd.backward and
torch.autograd.grad."""

import torch

x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
shared = x.exp()
left = shared * 3
right = shared.sin()
top = left + right * shared
top.backward()
print("diamond:", top.item(), x.grad.item())
print("by hand:", (3 * x.exp() + (x.exp().sin() + x.exp() * x.exp().cos()) * x.exp()).item())

a = torch.tensor([1.0, -2.0], requires_grad=True)
b = torch.tensor([0.5, 3.0], requires_grad=True)
first = (a * b).sum()
second = (a**2 + b).sum()
torch.autograd.backward([first, second], grad_tensors=[torch.tensor(1.0), torch.tensor(2.0)])
print("two outputs at once:", a.grad, b.grad)

a.grad = None
b.grad = None
outputs = [a * b, a + b]
grads = torch.autograd.grad(outputs, [a, b], grad_outputs=[torch.ones(2), torch.full((2,), 0.5)])
print("autograd.grad of two outputs:", grads)
print(".grad untouched:", a.grad, b.grad)

# Reusing a leaf many times in a loop: each use adds to its gradient.
w = torch.tensor(0.9, requires_grad=True)
value = torch.tensor(1.0)
for _ in range(5):
    value = value * w + 1
value.backward()
print("w used five times:", value.item(), w.grad.item())
