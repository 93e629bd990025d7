"""Adagrad with a StepLR schedule: the learning rate drops every 10 epochs."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(17)
inputs = torch.tensor(rng.normal(size=(24, 4)), dtype=torch.float32)
targets = torch.tensor(rng.normal(size=(24, 2)), dtype=torch.float32)

model = nn.Linear(4, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor(rng.normal(scale=0.3, size=(2, 4))))
    model.bias.copy_(torch.tensor([0.1, -0.1]))

optimizer = torch.optim.Adagrad(model.parameters(), lr=0.5, lr_decay=0.01, weight_decay=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)
loss_fn = nn.MSELoss()
for epoch in range(30):
    optimizer.zero_grad()
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
    scheduler.step()
    if epoch % 5 == 4:
        print(
            f"epoch {epoch} loss {loss.item():.5f}",
            "lr",
            scheduler.get_last_lr(),
            optimizer.param_groups[0]["lr"],
        )
print("sum of squares state:", optimizer.state[model.bias]["sum"])
print("weight:", model.weight)
