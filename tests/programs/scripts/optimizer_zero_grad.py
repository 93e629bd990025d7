"""zero_grad sets gradients to None by default (or to zeros on request), on the optimizer
and on the module; skipping it makes gradients add up across steps."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(43)
layer = nn.Linear(3, 1)
with torch.no_grad():
    layer.weight.copy_(torch.tensor(rng.normal(size=(1, 3))))
    layer.bias.fill_(0.5)
data = torch.tensor(rng.normal(size=(5, 3)), dtype=torch.float32)
target = torch.tensor(rng.normal(size=(5, 1)), dtype=torch.float32)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
loss_fn = nn.MSELoss()

print("before any backward:", layer.weight.grad)
loss_fn(layer(data), target).backward()
once = layer.weight.grad.clone()
print("one backward:", once)
loss_fn(layer(data), target).backward()
print("two backwards add up:", torch.allclose(layer.weight.grad, 2 * once))

optimizer.zero_grad()
print("after optimizer.zero_grad():", layer.weight.grad)
loss_fn(layer(data), target).backward()
optimizer.zero_grad(set_to_none=False)
print("set_to_none=False:", layer.weight.grad, layer.bias.grad)
loss_fn(layer(data), target).backward()
layer.zero_grad()
print("module.zero_grad():", layer.weight.grad)

# Forgetting zero_grad: the steps grow.
for forget in (False, True):
    with torch.no_grad():
        layer.weight.fill_(0.0)
        layer.bias.fill_(0.0)
    optimizer.zero_grad()
    for _ in range(4):
        if not forget:
            optimizer.zero_grad()
        loss = loss_fn(layer(data), target)
        loss.backward()
        optimizer.step()
    print("forget" if forget else "zeroed", f"loss {loss.item():.5f}", layer.bias.data)
group = optimizer.state_dict()["param_groups"][0]
print("saved group:", group["lr"], group["momentum"], group["nesterov"], group["params"])
