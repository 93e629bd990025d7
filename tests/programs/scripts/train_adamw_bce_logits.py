"""Binary classification with BCEWithLogitsLoss, trained with AdamW (and, for
comparison, Adam with amsgrad)."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(8)
points_np = rng.normal(size=(40, 2))
labels_np = (points_np[:, 0] - 0.5 * points_np[:, 1] > 0.2).astype(np.float64)
points = torch.tensor(points_np, dtype=torch.float32)
labels = torch.tensor(labels_np, dtype=torch.float32).unsqueeze(1)
start_weight = rng.normal(size=(1, 2))


def train(make_optimizer):
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor(start_weight))
        model.bias.fill_(0.0)
    optimizer = make_optimizer(model.parameters())
    loss_fn = nn.BCEWithLogitsLoss()
    for step in range(40):
        optimizer.zero_grad()
        loss = loss_fn(model(points), labels)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"  step {step} loss {loss.item():.5f}")
    print("  weight:", model.weight.data, "bias:", model.bias.data)
    probabilities = torch.sigmoid(model(points)).detach()
    print("  accuracy:", ((probabilities > 0.5).float() == labels).float().mean().item())


print("AdamW")
train(lambda params: torch.optim.AdamW(params, lr=0.1, weight_decay=0.05))
print("Adam with amsgrad")
train(lambda params: torch.optim.Adam(params, lr=0.1, amsgrad=True, betas=(0.8, 0.99)))
