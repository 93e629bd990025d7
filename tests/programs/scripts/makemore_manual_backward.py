"""Backpropagation by hand through a whole network, every step checked against autograd, in
the manner of the "backprop ninja" exercise: an embedding lookup, a hidden layer with
batch normalisation and tanh, and softmax cross-entropy written out one small operation at a
time; every intermediate keeps its gradient (``retain_grad``); then the gradient of each one
is derived by hand, from the last to the first, and compared with the engine's.

The derivations are the chain rule, one operation at a time:

* ``y = a / b`` (b broadcast along a row): ``da = dy / b``, ``db = -Σ_row dy·a / b²``;
* a sum along a dimension sends its gradient back to every term, a broadcast sums it;
* ``y = tanh(a)``: ``da = (1 - y²)·dy``; ``y = exp(a)``: ``da = y·dy``; ``y = log(a)``: ``dy / a``;
* ``Y = X @ W``: ``dX = dY @ Wᵀ``, ``dW = Xᵀ @ dY``;
* ``y = C[ix]``: each row of ``dy`` is added into row ``ix`` of ``dC``.

The hand-written gradients are computed from tensors that require grad, so they build graphs
of their own: writing the embedding's gradient into a zeros tensor, one row at a time, records
``CopySlices``.

Only whether each gradient is close to autograd's is printed, not whether it is equal to the
last bit: that depends on the order in which each library adds up, which neither promises."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "arvid", "berit", "cajus", "doris", "eike", "femke", "gerda", "harald", "ida", "jesko",
    "kalle", "lone", "merten", "nanna", "ortwin", "pelle", "rosalie", "smilla", "torben",
    "ulva", "volker", "wanda", "yngve", "zilke", "asmus", "bente", "colja", "dirk", "elke",
    "frauke", "gesche", "henning", "ilka", "jonte", "knut", "lotta", "malte", "neele",
]  # fmt: skip
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
V = len(stoi)
block_size, n_embd, n_hidden, n = 3, 5, 30, 32

X, Y = [], []
for word in words:
    context = [0] * block_size
    for letter in word + ".":
        X.append(context)
        Y.append(stoi[letter])
        context = context[1:] + [stoi[letter]]
X, Y = torch.tensor(X), torch.tensor(Y)

rng = np.random.default_rng(27)
fan_in = block_size * n_embd
C = torch.tensor(rng.normal(size=(V, n_embd)))
W1 = torch.tensor(rng.normal(size=(fan_in, n_hidden)) * (5 / 3) / fan_in**0.5)
b1 = torch.tensor(rng.normal(size=n_hidden) * 0.1)  # useless before BatchNorm: see its gradient
W2 = torch.tensor(rng.normal(size=(n_hidden, V)) * 0.1)
b2 = torch.tensor(rng.normal(size=V) * 0.1)
gamma = torch.tensor(1.0 + 0.1 * rng.normal(size=n_hidden))
beta = torch.tensor(0.1 * rng.normal(size=n_hidden))
parameters = [C, W1, b1, W2, b2, gamma, beta]
for p in parameters:
    p.requires_grad = True
print("parameters:", sum(p.nelement() for p in parameters), "examples:", X.shape[0])

ix = torch.tensor(rng.integers(0, X.shape[0], size=n))
Xb, Yb = X[ix], Y[ix]
eps = 1e-5

# --- The forward pass, one small step at a time ---------------------------------------------
emb = C[Xb]
x = emb.view(n, -1)
z = x @ W1 + b1
mu = z.sum(0, keepdim=True) / n
centered = z - mu
squares = centered**2
var = squares.sum(0, keepdim=True) / (n - 1)  # Bessel's correction, as var() does
std = (var + eps).sqrt()
zhat = centered / std
a = gamma * zhat + beta
h = torch.tanh(a)
logits = h @ W2 + b2
shift = logits.max(1, keepdim=True).values  # subtracted so exp cannot overflow
shifted = logits - shift
e = shifted.exp()
total = e.sum(1, keepdim=True)
p = e / total
logp = p.log()
loss = -logp[range(n), Yb].mean()

intermediates = {
    "logp": logp, "p": p, "total": total, "e": e, "shifted": shifted, "shift": shift,
    "logits": logits, "h": h, "a": a, "zhat": zhat, "std": std, "var": var,
    "squares": squares, "centered": centered, "mu": mu, "z": z, "x": x, "emb": emb,
}  # fmt: skip
for t in intermediates.values():
    t.retain_grad()
for param in parameters:
    param.grad = None
loss.backward()
print(f"loss {loss.item():.6f}")
print("the graph, from the loss back:", loss.grad_fn.name(), "<-", end=" ")
print(", ".join(f"{name} {t.grad_fn.name()}" for name, t in intermediates.items()))
print("intermediates keep their gradients:", all(t.retains_grad for t in intermediates.values()))


def cmp(name, manual, t):
    """Print whether a hand-derived gradient matches the one autograd left in ``t.grad``."""
    close = torch.allclose(manual, t.grad)
    tiny = (manual - t.grad).abs().max().item() < 1e-12
    shape = str(tuple(t.shape))
    print(f"{name:9s} | {shape:10s} | approximate: {close!s:5s} | max diff < 1e-12: {tiny}")


# --- The backward pass, by hand ------------------------------------------------------------
# loss = -(1/n) Σ_k logp[k, Yb[k]]: only the chosen entries matter, each with weight -1/n.
dlogp = torch.zeros_like(logp)
dlogp[range(n), Yb] = -1.0 / n
cmp("logp", dlogp, logp)
dp = dlogp / p
cmp("p", dp, p)
# p = e / total, total broadcast along each row: two paths reach e.
dtotal = -(dp * e / total**2).sum(1, keepdim=True)
cmp("total", dtotal, total)
de = dp / total + dtotal * torch.ones_like(e)
cmp("e", de, e)
dshifted = de * e
cmp("shifted", dshifted, shifted)
dshift = -dshifted.sum(1, keepdim=True)
cmp("shift", dshift, shift)
# Softmax does not change when a row is shifted, so the loss cannot depend on the shift.
print("the shift's gradient is zero:", dshift.abs().max().item() < 1e-12)
# logits reach the loss directly and through the row maximum, which picks one entry per row.
dlogits = dshifted.clone()
dlogits += F.one_hot(logits.max(1).indices, num_classes=V) * dshift
cmp("logits", dlogits, logits)
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
cmp("h", dh, h)
cmp("W2", dW2, W2)
cmp("b2", db2, b2)
da = (1.0 - h**2) * dh
cmp("a", da, a)
dgamma = (zhat * da).sum(0)
dbeta = da.sum(0)
dzhat = gamma * da
cmp("gamma", dgamma, gamma)
cmp("beta", dbeta, beta)
cmp("zhat", dzhat, zhat)
dstd = -(dzhat * centered / std**2).sum(0, keepdim=True)
cmp("std", dstd, std)
dvar = dstd / (2 * std)
cmp("var", dvar, var)
dsquares = torch.ones_like(squares) * dvar / (n - 1)
cmp("squares", dsquares, squares)
dcentered = dzhat / std + 2 * centered * dsquares
cmp("centered", dcentered, centered)
dmu = -dcentered.sum(0, keepdim=True)
cmp("mu", dmu, mu)
dz = dcentered + torch.ones_like(z) * dmu / n
cmp("z", dz, z)
dx = dz @ W1.T
dW1 = x.T @ dz
db1 = dz.sum(0)
cmp("x", dx, x)
cmp("W1", dW1, W1)
cmp("b1", db1, b1)
print("b1 is cancelled by the mean, its gradient is zero:", db1.abs().max().item() < 1e-12)
demb = dx.view(emb.shape)
cmp("emb", demb, emb)
dC = torch.zeros_like(C)
for k in range(n):
    for j in range(block_size):
        dC[Xb[k, j]] += demb[k, j]
cmp("C", dC, C)
print("dC was written row by row into zeros:", dC.grad_fn, dC.requires_grad)
print("its node's name:", dC.grad_fn.name())
dC_at_once = torch.zeros_like(C).index_add_(0, Xb.view(-1), demb.view(-1, n_embd))
print("index_add_ writes the same rows at once:", torch.allclose(dC_at_once, dC))

# --- Cross-entropy in one step ---------------------------------------------------------------
# d loss / d logits = (softmax(logits) - one_hot(Yb)) / n
fast_loss = F.cross_entropy(logits, Yb)
print("F.cross_entropy gives the same loss:", abs(fast_loss.item() - loss.item()) < 1e-12)
dlogits_fast = F.softmax(logits, 1)
dlogits_fast[range(n), Yb] -= 1
print("after subtracting one at the targets:", dlogits_fast.grad_fn.name())
dlogits_fast /= n
print("after dividing by n:", dlogits_fast.grad_fn.name())
cmp("logits", dlogits_fast, logits)
print("each row of it sums to zero:", dlogits_fast.sum(1).abs().max().item() < 1e-12)

# --- BatchNorm in one step -------------------------------------------------------------------
# With g = gamma * da, per column: dz = (g - mean(g) - zhat * Σ(g * zhat) / (n - 1)) / std
g = gamma * da
g_along_zhat = (g * zhat).sum(0, keepdim=True) / (n - 1)
dz_fast = (g - g.mean(0, keepdim=True) - zhat * g_along_zhat) / std
cmp("z", dz_fast, z)


# --- Training on the hand-written gradients alone ----------------------------------------------
def manual_gradients(Xb, Yb):
    emb = C[Xb]
    x = emb.view(Xb.shape[0], -1)
    z = x @ W1 + b1
    mean, std = z.mean(0, keepdim=True), (z.var(0, keepdim=True) + eps).sqrt()
    zhat = (z - mean) / std
    h = torch.tanh(gamma * zhat + beta)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Yb)
    m = Xb.shape[0]
    dlogits = F.softmax(logits, 1)
    dlogits[range(m), Yb] -= 1
    dlogits /= m
    dh = dlogits @ W2.T
    da = (1.0 - h**2) * dh
    g = gamma * da
    g_along_zhat = (g * zhat).sum(0, keepdim=True) / (m - 1)
    dz = (g - g.mean(0, keepdim=True) - zhat * g_along_zhat) / std
    demb = (dz @ W1.T).view(emb.shape)
    dC = torch.zeros_like(C).index_add_(0, Xb.view(-1), demb.view(-1, n_embd))
    grads = [dC, x.T @ dz, dz.sum(0), h.T @ dlogits, dlogits.sum(0), (zhat * da).sum(0), da.sum(0)]
    return loss, grads


starting_values = [param.detach().clone() for param in parameters]
batches = [torch.tensor(rng.integers(0, X.shape[0], size=n)) for _ in range(60)]
with torch.no_grad():
    for step, ix in enumerate(batches):
        step_loss, grads = manual_gradients(X[ix], Y[ix])
        for param, grad in zip(parameters, grads):
            param.data += -0.1 * grad
        if step % 20 == 0:
            print(f"manual   step {step:2d} loss {step_loss.item():.6f}")
by_hand = [param.detach().clone() for param in parameters]

for param, start in zip(parameters, starting_values):
    param.data = start.clone()
for step, ix in enumerate(batches):
    step_loss, _ = manual_gradients(X[ix], Y[ix])
    for param in parameters:
        param.grad = None
    step_loss.backward()
    for param in parameters:
        param.data += -0.1 * param.grad
    if step % 20 == 0:
        print(f"autograd step {step:2d} loss {step_loss.item():.6f}")
print(
    "both reach the same weights:", all(torch.allclose(a, b) for a, b in zip(by_hand, parameters))
)
