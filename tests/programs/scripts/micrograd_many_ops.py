"""Two dozen scalar operations on 0-d tensors, every value and every leaf's gradient."""

import torch

u = torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)
v = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
w = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)

e1 = u + v
e2 = u * v + v**3
e3 = e1 + e1 + 1
e4 = e3 + 1 + e3 + (-u)
e5 = e2 + e2 * 2 + (v + u).relu()
e6 = e5 + 3 * e5 + (v - u).relu()
e7 = e4 - e6
e8 = e7**2
e9 = e8 / 2.0
e10 = e9 + 10.0 / e4
e11 = (w * e1).tanh()
e12 = (w - 1.0).exp() * e11
e13 = -e12 + e10 / (1 + w)
e14 = e13 * w.exp() + (u * w).tanh() - (v / 4) ** 0.5
result = e14 + 2 ** (w * 2) + (1 - w).relu()

steps = [e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14]
for step in steps:
    step.retain_grad()
result.backward()

for i, step in enumerate(steps, start=1):
    print(f"e{i}: data", step.data, "item", step.item(), "grad", step.grad, step.grad.item())
print("result:", result.data, result.item())
for name, leaf in [("u", u), ("v", v), ("w", w)]:
    print(name, "data", leaf.data, "grad", leaf.grad)
print("grad_fns:", [s.grad_fn.name() for s in steps])
