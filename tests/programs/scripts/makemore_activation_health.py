"""Looking inside a deep tanh network at initialisation, as the makemore lectures do before
they train: for weights that are too small, right (gain 5/3 over the square root of the
fan-in) and too large, the spread and saturation of every layer's activations, their
histogram, neurons that are saturated for every example ("dead"), the spread of the
gradients flowing back, and how large one step of gradient descent is next to the weights,
on a log10 scale. Then the same forward pass evaluated quickly without a graph, with the
in-place ``tanh_`` and ``exp_``.

Weights and examples come from numpy; float64 throughout."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "aurel", "birka", "cilli", "doro", "edvin", "filippa", "gaute", "hjalmar", "irma", "juna",
    "kolja", "lenne", "minna", "nathan", "orla", "piet", "rika", "sunniva", "tamme", "ulrik",
    "vilja", "wibke", "yrsa", "zander", "arne", "bodil", "carsten", "dela", "eyvind", "fenja",
]  # fmt: skip
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
V = len(stoi)
block_size, n_embd, width, depth = 3, 6, 40, 4

X, Y = [], []
for word in words:
    context = [0] * block_size
    for letter in word + ".":
        X.append(context)
        Y.append(stoi[letter])
        context = context[1:] + [stoi[letter]]
X, Y = torch.tensor(X), torch.tensor(Y)
print("examples:", X.nelement() // block_size, "vocabulary:", V)

rng = np.random.default_rng(99)
ix = torch.tensor(rng.integers(0, X.shape[0], size=64))
Xb, Yb = X[ix], Y[ix]
C = torch.tensor(rng.normal(size=(V, n_embd)))
unit_weights = [
    rng.normal(size=(block_size * n_embd if i == 0 else width, width)) for i in range(depth)
]
out_weights = rng.normal(size=(width, V))


def build(gain):
    """Weights N(0, 1) * gain / sqrt(fan_in) for the tanh layers; a small output layer."""
    Ws = [torch.tensor(W * gain / W.shape[0] ** 0.5, requires_grad=True) for W in unit_weights]
    W_out = torch.tensor(out_weights * 0.1 / width**0.5, requires_grad=True)
    return Ws, W_out


def forward(Xb, Ws, W_out):
    x = C[Xb].view(Xb.shape[0], -1)
    activations = []
    for W in Ws:
        x = torch.tanh(x @ W)
        x.retain_grad()
        activations.append(x)
    return x @ W_out, activations


lr = 0.1
for label, gain in [("too small", 0.5), ("kaiming", 5 / 3), ("too large", 3.0)]:
    Ws, W_out = build(gain)
    logits, activations = forward(Xb, Ws, W_out)
    loss = F.cross_entropy(logits, Yb)
    loss.backward()
    print(f"--- gain {gain:.3f} ({label}), loss {loss.item():.4f}")
    for layer, t in enumerate(activations):
        saturated = (t.abs() > 0.97).double().mean().item()
        print(
            f"layer {layer}: mean {t.mean().item():+.4f} std {t.std().item():.4f}",
            f"saturated {saturated:.2%} grad std {t.grad.std().item():.3e}",
        )
    last = activations[-1].detach()
    hist = torch.histogram(last, bins=8, range=(-1.0, 1.0))
    print("histogram of the last layer:", hist.hist.long().tolist(), "of", last.nelement())
    flat = last.abs() > 0.97
    dead = flat.all(0)
    print("neurons saturated for every example:", dead.sum().item(), "any:", dead.any().item())
    print("neurons saturated for at least one:", flat.any(0).sum().item(), "of", width)
    per_neuron = (last.abs() > 0.97).double().mean(0)
    print("most saturated neurons:", per_neuron.sort(descending=True).values[:4])
    for layer, W in enumerate(Ws):
        grad_to_data = W.grad.std().item() / W.data.std().item()
        update = ((lr * W.grad).std() / W.data.std()).log10().item()
        print(f"  W{layer} {tuple(W.shape)} grad:data {grad_to_data:.3e} update log10 {update:.2f}")

density = torch.histogram(last, bins=8, range=(-1.0, 1.0), density=True)
widths = density.bin_edges[1:] - density.bin_edges[:-1]
print("bin edges:", density.bin_edges)
area = (density.hist * widths).sum()
print("a density integrates to one:", torch.allclose(area, torch.ones_like(area)))
print("densities are non-negative:", torch.all(density.hist >= 0).item())

# --- A quick forward pass with no graph, in place -------------------------------------------
Ws, W_out = build(5 / 3)
logits, _ = forward(Xb, Ws, W_out)
with torch.no_grad():
    x = C[Xb].view(Xb.shape[0], -1)
    for W in Ws:
        x = (x @ W).tanh_()
    fast = x @ W_out
    probs = fast - fast.max(1, keepdims=True).values
    probs.exp_()
    probs /= probs.sum(1, keepdims=True)
print("in-place forward gives the same logits:", torch.allclose(fast, logits), fast.requires_grad)
print("and softmax:", torch.allclose(probs, F.softmax(logits, 1)))
row_sums = probs.sum(1, keepdims=True)
product = row_sums.prod(0, keepdims=True)
print(
    "the product of the row sums:", product.shape, torch.allclose(product, torch.ones_like(product))
)

# In place with a graph: allowed on an intermediate result, refused on a leaf.
pre = C[Xb].view(Xb.shape[0], -1) @ Ws[0]
activated = pre.clone()
activated.tanh_()
print(
    "tanh_ on an intermediate:",
    activated.grad_fn.name(),
    "<-",
    activated.grad_fn.next_functions[0][0].name(),
)
activated.sum().backward()
print("and backward through it works:", Ws[0].grad.shape)
try:
    Ws[0].tanh_()
except RuntimeError as error:
    print("tanh_ on a leaf that requires grad:", error)
