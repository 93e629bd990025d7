"""A small regression trained with SGD: plain, momentum, Nesterov, weight decay and
dampening, each from the same starting weights."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(21)
features = torch.tensor(rng.normal(size=(32, 3)), dtype=torch.float32)
true_weights = torch.tensor([[1.5], [-2.0], [0.5]])
targets = features @ true_weights + 0.3
initial = {
    "0.weight": rng.normal(scale=0.5, size=(6, 3)),
    "0.bias": rng.normal(scale=0.1, size=6),
    "2.weight": rng.normal(scale=0.5, size=(1, 6)),
    "2.bias": np.zeros(1),
}


def fresh_model():
    model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            parameter.copy_(torch.tensor(initial[name]))
    return model


settings = [
    {"lr": 0.05},
    {"lr": 0.05, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "nesterov": True},
    {"lr": 0.05, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.5, "dampening": 0.5, "weight_decay": 0.001},
]
loss_fn = nn.MSELoss()
for options in settings:
    model = fresh_model()
    optimizer = torch.optim.SGD(model.parameters(), **options)
    losses = []
    for _ in range(25):
        optimizer.zero_grad()
        loss = loss_fn(model(features), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(options)
    print("  losses:", [f"{v:.5f}" for v in losses[::6]], f"final {losses[-1]:.5f}")
    print("  last bias:", model[2].bias)
