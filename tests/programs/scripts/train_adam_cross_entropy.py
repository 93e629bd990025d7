"""Three-class classification with CrossEntropyLoss and Adam, accuracy by argmax."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(4)
centres = np.array([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
labels_np = rng.integers(0, 3, size=60)
points_np = centres[labels_np] + rng.normal(scale=0.8, size=(60, 2))
points = torch.tensor(points_np, dtype=torch.float32)
labels = torch.tensor(labels_np)
print("labels dtype:", labels.dtype, "points dtype:", points.dtype)

model = nn.Sequential(nn.Linear(2, 5), nn.ReLU(), nn.Linear(5, 3))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor(rng.normal(scale=0.7, size=(5, 2))))
    model[0].bias.copy_(torch.tensor(rng.normal(scale=0.1, size=5)))
    model[2].weight.copy_(torch.tensor(rng.normal(scale=0.7, size=(3, 5))))
    model[2].bias.zero_()

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(30):
    optimizer.zero_grad()
    logits = model(points)
    loss = loss_fn(logits, labels)
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        accuracy = (logits.argmax(dim=1) == labels).float().mean()
        print(f"epoch {epoch:2d} loss {loss.item():.5f} accuracy {accuracy.item():.4f}")

with torch.no_grad():
    final = model(points)
print("final loss:", loss_fn(final, labels))
print("predicted:", final.argmax(dim=1)[:12])
print("state of the first weight:", sorted(optimizer.state[model[0].weight].keys()))
print("step count:", optimizer.state[model[0].weight]["step"])
