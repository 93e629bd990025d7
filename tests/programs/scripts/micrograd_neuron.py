"""A tiny multi-layer perceptron built from 0-d tensors, the way a scalar engine builds
it, trained by hand for a few steps with gradient descent."""

import numpy as np
import torch

rng = np.random.default_rng(3)
inputs = rng.uniform(-1, 1, size=(4, 3))
targets = [1.0, -1.0, -1.0, 1.0]


def scalar(value):
    return torch.tensor(float(value), dtype=torch.float64, requires_grad=True)


layer_sizes = [3, 4, 4, 1]
layers = []
for fan_in, fan_out in zip(layer_sizes, layer_sizes[1:]):
    neurons = []
    for _ in range(fan_out):
        weights = [scalar(v) for v in rng.uniform(-1, 1, size=fan_in)]
        neurons.append((weights, scalar(0.0)))
    layers.append(neurons)
params = [p for layer in layers for ws, b in layer for p in [*ws, b]]
print("number of parameters:", len(params))


def forward(x):
    values = [torch.tensor(float(v), dtype=torch.float64) for v in x]
    for index, layer in enumerate(layers):
        last = index == len(layers) - 1
        outs = []
        for weights, bias in layer:
            total = bias
            for wi, xi in zip(weights, values):
                total = total + wi * xi
            outs.append(total if last else total.tanh())
        values = outs
    return values[0]


for step in range(6):
    predictions = [forward(x) for x in inputs]
    loss = sum((p - t) ** 2 for p, t in zip(predictions, targets))
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.05 * p.grad
    print(f"step {step} loss {loss.item():.6f}", [p.item() for p in predictions])
print("first weight and its last gradient:", params[0].item(), params[0].grad.item())
