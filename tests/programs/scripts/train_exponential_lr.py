"""SGD with ExponentialLR on a linear fit; the learning rate shrinks by gamma each epoch."""

import numpy as np
import torch

rng = np.random.default_rng(23)
x = torch.tensor(rng.uniform(-1, 1, size=(50, 1)), dtype=torch.float32)
y = 3.0 * x - 0.7 + torch.tensor(rng.normal(scale=0.05, size=(50, 1)), dtype=torch.float32)

w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.3)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
print("initial lr:", scheduler.get_last_lr())
for epoch in range(20):
    loss = ((x * w + b - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    if epoch % 4 == 0:
        print(epoch, f"loss={loss.item():.6f}", f"w={w.item():.5f}", f"b={b.item():.5f}")
print("lr after 20 epochs:", optimizer.param_groups[0]["lr"])
print("scheduler state:", sorted(scheduler.state_dict().keys()))
print("last_epoch:", scheduler.last_epoch)
