"""Gradients through broadcasting (summed back to each input's shape), indexing with
repeated indices (which accumulate), masks, slices, reshapes, cat, stack and where."""

import numpy as np
import torch

rng = np.random.default_rng(71)
row = torch.tensor(rng.normal(size=(1, 3)), requires_grad=True)
column = torch.tensor(rng.normal(size=(4, 1)), requires_grad=True)
scalar = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
grid = (row * column + scalar) ** 2
grid.sum().backward()
print("grid shape:", grid.shape)
print("row.grad:", row.grad)
print("column.grad:", column.grad)
print("scalar.grad:", scalar.grad)

v = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
picked = v[torch.tensor([0, 2, 2, 3, 2])]
(picked * torch.tensor([1.0, 10.0, 100.0, 1000.0, 5.0])).sum().backward()
print("repeated indices accumulate:", v.grad)

v.grad = None
masked = v[v > 2.5]
(masked**2).sum().backward()
print("mask:", masked, v.grad)

m = torch.tensor(rng.normal(size=(3, 4)), requires_grad=True)
part = m[1:, ::2]
part.sum().backward()
print("slice grad:\n", m.grad)

m.grad = None
reshaped = m.reshape(2, 6).t().permute(1, 0).unsqueeze(0)
weights = torch.arange(12.0, dtype=torch.float64).reshape(1, 2, 6)
(reshaped * weights).sum().backward()
print("reshape, t, permute, unsqueeze grad:\n", m.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
joined = torch.cat([a * 2, b * 3])
stacked = torch.stack([a, b[:2]])
(joined.sum() + (stacked * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum()).backward()
print("cat and stack:", a.grad, b.grad, joined.grad_fn.name(), stacked.grad_fn.name())

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
chosen = torch.where(x > 0, x**2, -x)
chosen.sum().backward()
print("where:", chosen, x.grad, chosen.grad_fn.name())

y = torch.tensor([[1.0, 5.0], [7.0, 3.0]], requires_grad=True)
top, where_top = y.max(dim=1)
(top * torch.tensor([1.0, 2.0])).sum().backward()
print("max over a dim:", top, where_top, y.grad)
