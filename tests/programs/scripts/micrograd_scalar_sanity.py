"""A scalar expression with relu, products and sums, checked leaf by leaf."""

import torch

t = torch.tensor(-3.0, dtype=torch.float64, requires_grad=True)
s = 3 * t + 1 - t
p = s.relu() + s * t
r = (s * s).relu()
out = r + p + p * t
out.backward()

print("s =", s.item(), "p =", p.item(), "r =", r.item())
print("out.data =", out.data, "out.item() =", out.item())
print("t.grad =", t.grad, t.grad.item())

# The same expression with a positive input takes the other side of each relu.
t = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
s = 3 * t + 1 - t
p = s.relu() + s * t
r = (s * s).relu()
out = r + p + p * t
out.backward()
print("out =", out.item(), "t.grad =", t.grad.item())
