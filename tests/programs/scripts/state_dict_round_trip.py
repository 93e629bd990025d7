"""Save a model's and an optimizer's state, load them into fresh objects, and check that
training goes on exactly as if nothing had happened."""

import copy

import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(61)
inputs = torch.tensor(rng.normal(size=(12, 3)), dtype=torch.float32)
targets = torch.tensor(rng.normal(size=(12, 1)), dtype=torch.float32)


def build():
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


def train(model, optimizer, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
    return loss.item()


model = build()
with torch.no_grad():
    for parameter in model.parameters():
        parameter.copy_(torch.tensor(rng.normal(scale=0.5, size=tuple(parameter.shape))))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
print("after 5 steps:", train(model, optimizer, 5))

state = copy.deepcopy(model.state_dict())
optimizer_state = copy.deepcopy(optimizer.state_dict())
print("model keys:", list(state.keys()))
print("optimizer keys:", list(optimizer_state.keys()), list(optimizer_state["state"].keys()))
print("first weight saved:", state["0.weight"][0])

twin = build()
print(twin.load_state_dict(state))
twin_optimizer = torch.optim.Adam(twin.parameters(), lr=0.05)
twin_optimizer.load_state_dict(optimizer_state)
print("original goes on:", train(model, optimizer, 5))
print("twin goes on:    ", train(twin, twin_optimizer, 5))
print(
    "same weights:", all(torch.equal(a, b) for a, b in zip(model.parameters(), twin.parameters()))
)

try:
    build().load_state_dict({"0.weight": state["0.weight"]})
except RuntimeError as error:
    print("RuntimeError:", error)
