"""torch.func as its documentation uses it: a model turned into a function of its
parameters with functional_call, per-sample gradients with vmap(grad(...)) checked
against a loop, Jacobians by reverse mode, and composed transforms."""

import numpy as np
import torch
from torch.func import functional_call, grad, grad_and_value, jacrev, vjp, vmap

rng = np.random.default_rng(11)

model = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
model = model.double()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.normal(size=tuple(p.shape)) * 0.5))

params = {name: p.detach() for name, p in model.named_parameters()}
print("parameters:", {name: tuple(p.shape) for name, p in params.items()})

inputs = torch.tensor(rng.normal(size=(6, 3)))
targets = torch.tensor(rng.integers(0, 2, size=6))


def loss_of_one(params, x, target):
    # the model sees a batch of one, as it would in a training loop
    logits = functional_call(model, params, (x.unsqueeze(0),))
    return torch.nn.functional.cross_entropy(logits, target.unsqueeze(0))


per_sample = vmap(grad(loss_of_one), in_dims=(None, 0, 0))(params, inputs, targets)
for name, g in per_sample.items():
    print(name, "per-sample gradient shape:", tuple(g.shape))

looped = [grad(loss_of_one)(params, inputs[i], targets[i]) for i in range(6)]
for name in params:
    stacked = torch.stack([g[name] for g in looped])
    print(name, "matches the loop:", torch.allclose(per_sample[name], stacked))

# the mean of the per-sample gradients is the gradient of the mean loss
model.zero_grad()
torch.nn.functional.cross_entropy(model(inputs), targets).backward()
mean_of_samples = per_sample["0.weight"].mean(0)
print("mean equals backward():", torch.allclose(mean_of_samples, model[0].weight.grad))
print("first sample, last layer bias:", per_sample["2.bias"][0])

gradients, value = grad_and_value(loss_of_one)(params, inputs[0], targets[0])
print("loss of sample 0:", value)
print("gradient has a history:", gradients["2.weight"].grad_fn is not None)


def f(x):
    return x.sin() * x.sum()


x = torch.tensor(rng.normal(size=3))
print("jacrev:", jacrev(f)(x))
output, vjp_fn = vjp(f, x)
(row,) = vjp_fn(torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64))
print("first row by vjp:", row)
print("d/dx sin at three points:", vmap(grad(torch.sin))(x))
print("second derivative of x**3 sin x:", grad(grad(lambda t: t**3 * t.sin()))(x[0]))
print("batched Jacobians:", vmap(jacrev(f))(torch.stack([x, 2 * x])).shape)
print("out_dims=1:", vmap(lambda r: r * 10, out_dims=1)(inputs[:2]))
print("in_dims=(None, 0):", vmap(torch.dot, in_dims=(None, 0))(x, inputs))
