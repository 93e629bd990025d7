"""RMSprop on a sum-reduced squared error (a cubic fit as a linear layer over powers of x),
then L1Loss with RMSprop's momentum and centered options."""

import math

import numpy as np
import torch
from torch import nn

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
powers = torch.tensor([1, 2, 3])
features = x.unsqueeze(-1).pow(powers)
print("features:", features.shape, features.dtype)

rng = np.random.default_rng(13)
start = rng.normal(scale=0.1, size=(1, 3))


def run(loss_fn, **options):
    model = nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1))
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor(start))
        model[0].bias.zero_()
    optimizer = torch.optim.RMSprop(model.parameters(), **options)
    for step in range(120):
        loss = loss_fn(model(features), y)
        if step % 30 == 29:
            print("  ", step, f"{loss.item():.5f}")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    layer = model[0]
    print(
        f"  y = {layer.bias.item():.5f} + {layer.weight[0, 0].item():.5f} x"
        f" + {layer.weight[0, 1].item():.5f} x^2 + {layer.weight[0, 2].item():.5f} x^3"
    )


print("MSE (sum), RMSprop")
run(nn.MSELoss(reduction="sum"), lr=1e-3)
print("L1, RMSprop with momentum, centered")
run(nn.L1Loss(), lr=1e-3, momentum=0.5, centered=True, alpha=0.9)
