"""A deeper character model that reads eight letters of context and fuses them in a tree, two
neighbours at a time, as the last makemore lecture does: the layers written as small classes
(an embedding, "flatten consecutive" by ``view``, a linear layer, BatchNorm over the batch
and the time dimension, tanh), the shape after every layer printed, and the BatchNorm
pitfall of a 3-d input normalised over dimension 0 alone.

Weights and minibatches come from numpy; float64 throughout."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "annegret", "bartholomew", "cordelia", "dietrich", "eleonora", "friederike", "gottfried",
    "hermine", "isabella", "jakobine", "konstantin", "leopoldine", "maximilian", "notburga",
    "ottokar", "pankratius", "rosamunde", "sebastian", "theodora", "ulrich", "valentina",
    "wilhelmine", "xaveria", "zacharias", "adelheid", "benedikt", "clementine", "dorothea",
    "emmerich", "florentin", "gertrude", "hieronymus", "irmgard", "josephine", "kunigunde",
]  # fmt: skip
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
V = len(stoi)
block_size = 8

X, Y = [], []
for word in words:
    context = [0] * block_size
    for letter in word + ".":
        X.append(context)
        Y.append(stoi[letter])
        context = context[1:] + [stoi[letter]]
X, Y = torch.tensor(X), torch.tensor(Y)
print("examples:", X.shape, Y.shape, "vocabulary:", V)

rng = np.random.default_rng(8)


class Embedding:
    def __init__(self, num, dim):
        self.weight = torch.tensor(rng.normal(size=(num, dim)))

    def __call__(self, ix):
        self.out = self.weight[ix]
        return self.out

    def parameters(self):
        return [self.weight]


class FlattenConsecutive:
    """(B, T, C) -> (B, T / n, C * n): n neighbours side by side; the time axis goes at 1."""

    def __init__(self, n):
        self.n = n

    def __call__(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        self.out = x
        return self.out

    def parameters(self):
        return []


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.tensor(rng.normal(size=(fan_in, fan_out)) / fan_in**0.5)
        self.bias = torch.zeros(fan_out, dtype=torch.float64) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out = self.out + self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma = torch.ones(dim, dtype=torch.float64)
        self.beta = torch.zeros(dim, dtype=torch.float64)
        self.running_mean = torch.zeros(dim, dtype=torch.float64)
        self.running_var = torch.ones(dim, dtype=torch.float64)

    def __call__(self, x):
        if self.training:
            # A 3-d input (B, T, C) is normalised over both B and T: every channel one mean.
            dims = 0 if x.ndim == 2 else (0, 1)
            mean = x.mean(dims, keepdim=True)
            var = x.var(dims, keepdim=True)
        else:
            mean, var = self.running_mean, self.running_var
        self.out = self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta
        if self.training:
            with torch.no_grad():
                m = self.momentum
                self.running_mean = (1 - m) * self.running_mean + m * mean
                self.running_var = (1 - m) * self.running_var + m * var
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


class Sequential:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        self.out = x
        return self.out

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


n_embd, n_hidden = 6, 24


def fuse_pairs(fan_in):
    """One level of the tree: neighbours side by side, then a normalised tanh layer."""
    flatten, linear = FlattenConsecutive(2), Linear(fan_in, n_hidden, bias=False)
    return [flatten, linear, BatchNorm1d(n_hidden), Tanh()]


model = Sequential(
    [Embedding(V, n_embd)]
    + fuse_pairs(2 * n_embd)  # 8 positions -> 4
    + fuse_pairs(2 * n_hidden)  # 4 -> 2
    + fuse_pairs(2 * n_hidden)  # 2 -> 1
    + [Linear(n_hidden, V)]
)
with torch.no_grad():
    model.layers[-1].weight *= 0.1  # a confident wrong start costs a high first loss
parameters = model.parameters()
for p in parameters:
    p.requires_grad = True
print("parameters:", sum(p.nelement() for p in parameters))

ix = torch.tensor(rng.integers(0, X.shape[0], size=4))
logits = model(X[ix])
print("a batch of four, layer by layer:")
for layer in model.layers:
    node = layer.out.grad_fn.name() if layer.out.grad_fn else "-"
    print(f"    {type(layer).__name__:18s} {str(tuple(layer.out.shape)):12s} {node}")
print("BatchNorm's statistics:", [layer.running_mean.shape for layer in model.layers[3::4]])

# Flattening consecutive pairs is the same as interleaving the even and the odd steps.
emb = model.layers[0].out
pairs = torch.cat([emb[:, ::2, :], emb[:, 1::2, :]], dim=2)
print("view pairs neighbours:", torch.equal(emb.view(4, 4, 2 * n_embd), pairs))

# The pitfall: over dimension 0 alone, a 3-d input gets a mean per position and channel.
hidden = model.layers[2].out
print(
    "mean over 0:",
    hidden.mean(0, keepdim=True).shape,
    "over (0, 1):",
    hidden.mean((0, 1), keepdim=True).shape,
)

for step in range(300):
    ix = torch.tensor(rng.integers(0, X.shape[0], size=32))
    loss = F.cross_entropy(model(X[ix]), Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if step < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if step % 50 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")

for layer in model.layers:
    layer.training = False
with torch.no_grad():
    full = F.cross_entropy(model(X), Y)
print(f"loss on every example, running statistics: {full.item():.4f}")
bn = model.layers[3]
print("running statistics, one per channel:", bn.running_mean.shape, bn.running_var.shape)
with torch.no_grad():
    one = model(X[:1])
print("one example in evaluation mode:", one.shape, one.softmax(1).sum().item())
