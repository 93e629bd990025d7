"""Batch normalisation written out by hand, in the spirit of the makemore lectures: why the
initial loss and the tanh saturation depend on the scale of the weights, a BatchNorm layer
built from ``mean``, unbiased ``var`` and ``keepdim``, running statistics kept under
``no_grad`` and checked against statistics calibrated on the whole training set, and the
size of each update compared with the size of the weights (on a log10 scale).

Weights and minibatches come from numpy; float64 keeps both libraries' rounding far below
the printed digits."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "alvar", "benedikta", "cosima", "dagmar", "eilif", "finja", "gustav", "heike", "ingmar",
    "jolina", "konrad", "liesel", "mathis", "nora", "ottilie", "philippa", "raik", "sabine",
    "timo", "ursel", "valentin", "wenke", "yara", "zeno", "annika", "bjarne", "clemens",
    "dietlind", "emil", "fabian", "gisela", "hendrik", "isolde", "jesper", "katrin", "leif",
    "magda", "nele", "oskar", "pauline", "rieke", "silas", "tilda", "ulf", "vera", "wolfram",
]  # fmt: skip
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
V = len(stoi)
block_size, n_embd, n_hidden = 3, 4, 40

X, Y = [], []
for word in words:
    context = [0] * block_size
    for letter in word + ".":
        X.append(context)
        Y.append(stoi[letter])
        context = context[1:] + [stoi[letter]]
X, Y = torch.tensor(X), torch.tensor(Y)
print("examples:", X.shape[0], "vocabulary:", V)

rng = np.random.default_rng(31415)
C = torch.tensor(rng.normal(size=(V, n_embd)))
embcat = C[X].view(X.shape[0], -1)
fan_in = block_size * n_embd

# --- 1. Initialisation -------------------------------------------------------------------
W1_raw = torch.tensor(rng.normal(size=(fan_in, n_hidden)))
W2_raw = torch.tensor(rng.normal(size=(n_hidden, V)))
h_raw = torch.tanh(embcat @ W1_raw)
print(f"expected loss at a uniform guess: {-torch.tensor(1 / V).log().item():.4f}")
print(f"loss with unit-variance output weights: {F.cross_entropy(h_raw @ W2_raw, Y).item():.4f}")
print(f"... and with them scaled by 0.01: {F.cross_entropy(h_raw @ (W2_raw * 0.01), Y).item():.4f}")

gain = 5 / 3  # tanh squashes; this gain keeps the activations' spread from shrinking
W1_kaiming = W1_raw * gain / fan_in**0.5
for name, W in [("N(0, 1) weights", W1_raw), ("kaiming weights", W1_kaiming)]:
    h = torch.tanh(embcat @ W)
    saturated = (h.abs() > 0.99).double().mean().item()
    print(f"{name}: preactivation std {(embcat @ W).std().item():.3f}, saturated {saturated:.2%}")

# --- 2. BatchNorm by hand ----------------------------------------------------------------
hpreact = embcat @ W1_kaiming
mean = hpreact.mean(0, keepdim=True)
var = hpreact.var(0, keepdim=True)  # unbiased: divides by n - 1
print("batch statistics:", mean.shape, var.shape)
n = hpreact.shape[0]
biased = hpreact.var(0, keepdim=True, correction=0)
print(
    "unbiased / biased variance is n / (n - 1):",
    torch.allclose(var / biased, torch.full_like(var, n / (n - 1))),
)
normalised = (hpreact - mean) / torch.sqrt(var + 1e-5)
print(
    "normalised columns have mean 0:",
    torch.allclose(normalised.mean(0), torch.zeros_like(normalised[0]), atol=1e-12),
)
print(
    "... and standard deviation 1:",
    torch.allclose(normalised.std(0), torch.ones_like(normalised[0]), atol=1e-4),
)
# A bias before BatchNorm is subtracted right away with the mean: it has no effect.
b1 = torch.tensor(rng.normal(size=n_hidden), requires_grad=True)
with_bias = hpreact + b1
renormalised = (with_bias - with_bias.mean(0, keepdim=True)) / torch.sqrt(
    with_bias.var(0, keepdim=True) + 1e-5
)
print("a bias before the normalisation changes nothing:", torch.allclose(renormalised, normalised))
renormalised.pow(3).sum().backward()
print("and gets no gradient:", b1.grad.abs().max().item() < 1e-9)


class Linear:
    def __init__(self, fan_in, fan_out, gain=1.0, bias=True):
        self.weight = torch.tensor(rng.normal(size=(fan_in, fan_out)) * gain / fan_in**0.5)
        self.bias = torch.zeros(fan_out, dtype=torch.float64) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out = self.out + self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma = torch.ones(dim, dtype=torch.float64)
        self.beta = torch.zeros(dim, dtype=torch.float64)
        # Buffers, not parameters: updated by a running average, never by backward.
        self.running_mean = torch.zeros(dim, dtype=torch.float64)
        self.running_var = torch.ones(dim, dtype=torch.float64)

    def __call__(self, x):
        if self.training:
            mean, var = x.mean(0, keepdim=True), x.var(0, keepdim=True)
        else:
            mean, var = self.running_mean, self.running_var
        self.out = self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta
        if self.training:
            with torch.no_grad():
                m = self.momentum
                self.running_mean = (1 - m) * self.running_mean + m * mean.squeeze(0)
                self.running_var = (1 - m) * self.running_var + m * var.squeeze(0)
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


layers = [
    Linear(fan_in, n_hidden, gain=gain, bias=False), BatchNorm(n_hidden), Tanh(),
    Linear(n_hidden, n_hidden, gain=gain, bias=False), BatchNorm(n_hidden), Tanh(),
    Linear(n_hidden, V, gain=0.1),
]  # fmt: skip
parameters = [C] + [p for layer in layers for p in layer.parameters()]
for p in parameters:
    p.requires_grad = True
print("parameters:", sum(p.nelement() for p in parameters))


def forward(Xb):
    x = C[Xb].view(Xb.shape[0], -1)
    for layer in layers:
        x = layer(x)
    return x


lr = 0.1
for step in range(400):
    ix = torch.tensor(rng.integers(0, X.shape[0], size=32))
    loss = F.cross_entropy(forward(X[ix]), Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -lr * p.grad
    if step % 100 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")

print("update size / weight size, log10, per weight matrix:")
for index, p in enumerate(parameters):
    if p.ndim == 2:
        ratio = ((lr * p.grad).std() / p.data.std()).log10().item()
        print(f"    parameter {index} {tuple(p.shape)}: {ratio:.2f}")
print("last outputs:", [f"{type(layer).__name__} {layer.out.grad_fn.name()}" for layer in layers])

for index, layer in enumerate(layers):
    if isinstance(layer, Tanh):
        t = layer.out
        saturated = (t.abs() > 0.97).double().mean().item()
        spread = f"mean {t.mean().item():+.3f} std {t.std().item():.3f}"
        print(f"tanh layer {index}: {spread} saturated {saturated:.2%}")

# Running statistics against statistics calibrated on the whole training set.
with torch.no_grad():
    hpre = layers[0](C[X].view(X.shape[0], -1))
    calibrated_mean = hpre.mean(0, keepdims=True)
    calibrated_var = hpre.var(0, keepdims=True)
bn = layers[1]
mean_gap = (bn.running_mean - calibrated_mean).abs().max().item()
var_gap = (bn.running_var - calibrated_var).abs().max().item()
print(f"largest gap to the calibrated mean {mean_gap:.4f}, variance {var_gap:.4f}")
print("running mean within 0.5 of the calibrated one:", mean_gap < 0.5)


@torch.no_grad()
def full_loss():
    return F.cross_entropy(forward(X), Y).item()


print(f"loss with batch statistics: {full_loss():.4f}")
for layer in layers:
    layer.training = False
print(f"loss with running statistics: {full_loss():.4f}")

# A single example: its own batch has no variance (n - 1 = 0), the running statistics do.
with torch.no_grad():
    print("one example, evaluation mode:", forward(X[:1])[0, :3])
    for layer in layers:
        layer.training = True
    print("one example, training mode:", forward(X[:1])[0, :3])
