"""Gradient accumulation: summing the gradients of micro-batches (each loss scaled by the
number of micro-batches) gives the full batch's gradient."""

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(67)
inputs = torch.tensor(rng.normal(size=(12, 4)))
targets = torch.tensor(rng.normal(size=(12, 1)))
model = nn.Linear(4, 1).double()
with torch.no_grad():
    model.weight.copy_(torch.tensor(rng.normal(size=(1, 4))))
    model.bias.fill_(-0.2)
loss_fn = nn.MSELoss()

loss_fn(model(inputs), targets).backward()
full_weight, full_bias = model.weight.grad.clone(), model.bias.grad.clone()
print("full batch grad:", full_weight, full_bias)

model.zero_grad()
chunks = 3
for part_inputs, part_targets in zip(inputs.chunk(chunks), targets.chunk(chunks)):
    loss = loss_fn(model(part_inputs), part_targets) / chunks
    loss.backward()
    print("  after a micro-batch:", model.bias.grad)
print("accumulated equals full:", torch.allclose(model.weight.grad, full_weight))

model.zero_grad()
for index in range(0, 12, 4):
    loss_fn(model(inputs[index : index + 4]), targets[index : index + 4]).backward()
print("without scaling, three times larger:", torch.allclose(model.bias.grad, 3 * full_bias))
