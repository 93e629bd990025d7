"""A character-level bigram model of names, the way the makemore lectures build it: first
counted (a table of letter pairs, normalised row by row, sampled and scored by the negative
log-likelihood), then learned (a single linear layer on one-hot letters, trained by gradient
descent), the two compared at the end.

The random draws come from a seeded ``torch.Generator``; what they are depends on the
library's own generator, so the program prints only what must hold for any stream."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "amira", "bodo", "celin", "dorian", "elva", "fenna", "gorm", "hilde", "ivo", "jarla",
    "kasimir", "lenja", "milo", "nerys", "odile", "pim", "quirin", "rasmus", "sela", "tove",
    "ulla", "vesna", "wendel", "xandra", "yorick", "zelda", "ansgar", "brida", "corvin",
    "dagny", "eskil", "frida", "gunnar", "hanne", "ilva", "joran", "kaja", "linus", "marit",
    "nils", "oda", "petra", "runa", "sigrid", "tarek", "ute", "viggo", "wilma", "ylva", "zora",
]  # fmt: skip
print("names:", len(words), "lengths from", min(map(len, words)), "to", max(map(len, words)))

# The vocabulary: every letter that occurs, plus "." marking both the start and the end.
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
itos = {index: letter for letter, index in stoi.items()}
V = len(stoi)
print("vocabulary size:", V)

# --- 1. The counted model -------------------------------------------------------------------
N = torch.zeros((V, V), dtype=torch.int32)
for word in words:
    padded = ["."] + list(word) + ["."]
    for first, second in zip(padded, padded[1:]):
        N[stoi[first], stoi[second]] += 1

pairs = sum(len(w) + 1 for w in words)
print("count table:", N.shape, N.dtype, "total", N.sum().item(), "pairs expected", pairs)
print("first letters of names:", N[0])
print("no name is empty:", N[0, 0].item() == 0)
most = N.max().item()
print("most frequent pair count:", most)
common = sorted(itos[i] + itos[j] for i in range(V) for j in range(V) if N[i, j].item() == most)
print("pairs seen that often:", common)

# Rows become probability distributions; +1 smoothing gives every pair a little mass.
P = (N + 1).float()
row_sums = P.sum(1, keepdims=True)
print("row sums keep their dimension:", row_sums.shape)
P = P / row_sums
print("every row sums to one:", torch.allclose(P.sum(1), torch.ones(V)))
print("start distribution, first six letters:", P[0, :6])

# The broadcasting trap: without keepdims the V row totals broadcast as one row, so column j
# is divided by row j's total. Every letter ends as many pairs as it starts (the "." pads
# both sides), so here the columns, not the rows, come out summing to one.
wrong = (N + 1).float() / (N + 1).float().sum(1)
print("without keepdims, rows sum to one:", torch.allclose(wrong.sum(1), torch.ones(V)))
print("... but columns do:", torch.allclose(wrong.sum(0), torch.ones(V)))


def score(word_list, probs):
    """Average negative log-likelihood of the words under a table of probabilities."""
    log_likelihood = 0.0
    n = 0
    for word in word_list:
        padded = ["."] + list(word) + ["."]
        for first, second in zip(padded, padded[1:]):
            log_likelihood += torch.log(probs[stoi[first], stoi[second]])
            n += 1
    return -log_likelihood / n


nll_counts = score(words, P)
print(f"average negative log-likelihood of the counted model: {nll_counts.item():.4f}")
print(f"uniform guessing would score: {np.log(V):.4f}")

unsmoothed = N.float() / N.float().sum(1, keepdims=True)
print("a made-up word without smoothing:", score(["quxo"], unsmoothed))
print("and with smoothing:", score(["quxo"], P))

# Sampling: walk from "." to "." drawing each next letter from its row.
g = torch.Generator().manual_seed(2147483647)


def sample_names(probs, generator, how_many):
    names = []
    for _ in range(how_many):
        out = []
        index = 0
        while True:
            row = probs[index]
            index = torch.multinomial(row, num_samples=1, replacement=True, generator=generator)
            index = index.item()
            if index == 0:
                break
            out.append(itos[index])
        names.append("".join(out))
    return names


sampled = sample_names(unsmoothed, g, 15)
print("sampled names:", len(sampled))
sampled_pairs = [(a, b) for name in sampled for a, b in zip("." + name, name + ".")]
seen = all(N[stoi[a], stoi[b]].item() > 0 for a, b in sampled_pairs)
print("every pair in them occurs in the training names:", seen)
again = sample_names(unsmoothed, torch.Generator().manual_seed(2147483647), 15)
print("the same seed draws the same names:", again == sampled)

draws = torch.multinomial(P[0], num_samples=20000, replacement=True, generator=g)
print("draws:", draws.shape, draws.dtype)
print("within the vocabulary:", draws.min().item() >= 0 and draws.max().item() < V)
frequencies = F.one_hot(draws, num_classes=V).sum(0) / draws.nelement()
print("frequencies follow the probabilities:", (frequencies - P[0]).abs().max().item() < 0.02)
distinct = torch.multinomial(P[0], num_samples=5, replacement=False, generator=g)
print("without replacement, no index twice:", len(set(distinct.tolist())) == 5)

# --- 2. The same model, learned --------------------------------------------------------------
xs, ys = [], []
for word in words:
    padded = ["."] + list(word) + ["."]
    for first, second in zip(padded, padded[1:]):
        xs.append(stoi[first])
        ys.append(stoi[second])
xs, ys = torch.tensor(xs), torch.tensor(ys)
num = xs.nelement()
print("training pairs:", num, xs.dtype)

xenc = F.one_hot(xs, num_classes=V)
print("one-hot:", xenc.shape, xenc.dtype)
print("a single one per row:", torch.equal(xenc.sum(1), torch.ones(num, dtype=torch.int64)))
xenc = xenc.float()

# Weights drawn from torch's own generator: their values are each library's own, so only
# what holds for any stream is printed; the network below starts from numpy's draws instead.
g = torch.Generator().manual_seed(2147483647)
W_drawn = torch.randn((V, V), generator=g, requires_grad=True)
print("drawn weights:", W_drawn.shape, W_drawn.dtype, W_drawn.is_leaf, W_drawn.requires_grad)
redrawn = torch.randn((V, V), generator=torch.Generator().manual_seed(2147483647))
print("the same seed draws them again:", torch.equal(W_drawn.detach(), redrawn))
print(
    "mean near 0, std near 1:",
    abs(W_drawn.mean().item()) < 0.2,
    abs(W_drawn.std().item() - 1) < 0.15,
)

rng = np.random.default_rng(2147483647)
W = torch.tensor(rng.normal(size=(V, V)), dtype=torch.float32, requires_grad=True)

for step in range(101):
    logits = xenc @ W  # log-counts
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    if step % 25 == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad

print("loss:", loss.grad_fn.name(), "<-", [f.name() for f, _ in loss.grad_fn.next_functions])
for name, t in [("probs", probs), ("counts", counts), ("logits", logits)]:
    print(f"{name}: {t.grad_fn.name()}")
# One-hot times W just picks a row of W: the network's rows are its log-counts.
print("xenc @ W is W indexed by the letters:", torch.allclose(xenc @ W, W[xs]))
learned = W.detach().exp() / W.detach().exp().sum(1, keepdims=True)
nll_learned = score(words, learned)
print(f"learned model's negative log-likelihood: {nll_learned.item():.4f}")
# +1 on every one of 27 x 27 cells is heavy smoothing for 291 pairs; 0.01 * mean(W²) is light.
print("lighter smoothing fits the training names better:", nll_learned.item() < nll_counts.item())
with torch.no_grad():
    table = W.numpy()
print("weights as a numpy table:", type(table).__name__, table.shape, table.dtype)

learned_names = sample_names(learned, torch.Generator().manual_seed(7), 10)
print("names from the learned model:", len(learned_names))
print("spelled from the vocabulary:", all(set(n) <= set(letters) for n in learned_names))
