"""A multi-layer perceptron that reads the last three letters of a name and predicts the next,
as in the makemore lectures: each letter looked up in an embedding table ``C[X]``, the three
embeddings laid side by side with ``view``, a tanh hidden layer, softmax cross-entropy, and
training on minibatches.

The weights and the minibatches that decide the printed losses come from numpy, so both
libraries compute the same numbers; a second run draws its minibatches with
``torch.randint(..., generator=g)``, whose values are each library's own, and prints only
what holds for any stream. float64 throughout: the two libraries add up in different orders,
and in float64 that stays far below the printed digits."""

import numpy as np
import torch
import torch.nn.functional as F

words = [
    "adela", "bastian", "carola", "detlef", "emmi", "falko", "greta", "horst", "ines", "jost",
    "karla", "lothar", "mareike", "norbert", "olga", "paulina", "quentin", "renate", "sven",
    "thea", "uwe", "valeska", "waltraud", "xaver", "yvonne", "zacharias", "alrik", "bettina",
    "conrad", "doerte", "edda", "fritzi", "gesa", "hauke", "imke", "jannik", "kerstin", "lasse",
    "merle", "niklas", "ole", "pia", "ronja", "svea", "tjark", "ulrike", "vincent", "wiebke",
    "yannik", "zita", "anouk", "birte", "claas", "dana", "enno", "freya", "gerrit", "henrike",
]  # fmt: skip
letters = sorted(set("".join(words)))
stoi = {letter: index + 1 for index, letter in enumerate(letters)}
stoi["."] = 0
itos = {index: letter for letter, index in stoi.items()}
V = len(stoi)
block_size = 3  # how many letters of context predict the next one
print("names:", len(words), "vocabulary:", V, "context:", block_size)


def build_dataset(word_list):
    X, Y = [], []
    for word in word_list:
        context = [0] * block_size
        for letter in word + ".":
            X.append(context)
            Y.append(stoi[letter])
            context = context[1:] + [stoi[letter]]
    return torch.tensor(X), torch.tensor(Y)


rng = np.random.default_rng(1234)
order = rng.permutation(len(words))
n1, n2 = int(0.8 * len(words)), int(0.9 * len(words))
Xtr, Ytr = build_dataset([words[i] for i in order[:n1]])
Xdev, Ydev = build_dataset([words[i] for i in order[n1:n2]])
Xte, Yte = build_dataset([words[i] for i in order[n2:]])
print("splits:", Xtr.shape, Xdev.shape, Xte.shape, Xtr.dtype, Ytr.dtype)
print("the first contexts and their targets:")
for context, target in zip(Xtr[:5].tolist(), Ytr[:5].tolist()):
    print("   ", "".join(itos[i] for i in context), "->", itos[target])

# --- The embedding table --------------------------------------------------------------------
n_embd, n_hidden = 4, 48
C = torch.tensor(rng.normal(size=(V, n_embd)))
row = C[5]
picked = F.one_hot(torch.tensor(5), num_classes=V).double() @ C
print("a lookup is a one-hot row times C:", torch.allclose(row, picked), row.shape)
emb = C[Xtr]
print("C[X] embeds every letter of every context:", emb.shape)
side_by_side = torch.cat([emb[:, i, :] for i in range(block_size)], 1)
print(
    "view lays the three side by side:",
    torch.equal(emb.view(-1, block_size * n_embd), side_by_side),
)
print("and needs no copy:", emb.view(-1, block_size * n_embd).is_contiguous(), emb.is_contiguous())

W1 = torch.tensor(rng.normal(size=(block_size * n_embd, n_hidden)) * 0.3)
b1 = torch.tensor(rng.normal(size=n_hidden) * 0.01)
W2 = torch.tensor(rng.normal(size=(n_hidden, V)) * 0.1)
b2 = torch.zeros(V, dtype=torch.float64)
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
print("parameters:", sum(p.nelement() for p in parameters))


def forward(X):
    emb = C[X]
    h = torch.tanh(emb.view(-1, block_size * n_embd) @ W1 + b1)
    return emb, h, h @ W2 + b2


# Cross-entropy written out equals F.cross_entropy, which is also safe for large logits.
emb, h, logits = forward(Xtr)
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
by_hand = -prob[torch.arange(Xtr.shape[0]), Ytr].log().mean()
loss = F.cross_entropy(logits, Ytr)
print(f"initial loss {loss.item():.4f}, by hand {by_hand.item():.4f}")
print("same value:", torch.allclose(loss, by_hand))
print(f"a uniform guess would score {-np.log(1 / V):.4f}")
print("graph:", [t.grad_fn.name() for t in (emb, h, logits, loss, by_hand)])

extreme = torch.tensor([[-100.0, -3.0, 0.0, 100.0]])
overflowed = extreme.exp() / extreme.exp().sum(1, keepdims=True)
print("exp(100) overflows float32:", overflowed)
print("cross_entropy shifts by the max first:", F.cross_entropy(extreme, torch.tensor([3])))

# --- Training on minibatches ---------------------------------------------------------------
print("learning rates tried on a log scale:", 10 ** torch.linspace(-3, 0, 4))
for step in range(300):
    ix = torch.tensor(rng.integers(0, Xtr.shape[0], size=32))
    _, _, logits = forward(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.2 if step < 200 else 0.05
    for p in parameters:
        p.data += -lr * p.grad
    if step % 60 == 0:
        print(f"step {step:3d} minibatch loss {loss.item():.4f}")

# Only letters in the last minibatch received gradient: C[X]'s backward scatters into rows.
used = set(Xtr[ix].view(-1).tolist())
unused = [i for i in range(V) if i not in used]
print(len(unused), "letters not in the last batch; their rows of C got no gradient:", end=" ")
print(all(C.grad[i].abs().sum().item() == 0 for i in unused), C.grad.shape)
print("the others did:", all(C.grad[i].abs().sum().item() > 0 for i in used))


@torch.no_grad()
def split_loss(X, Y):
    return F.cross_entropy(forward(X)[2], Y).item()


print(f"train {split_loss(Xtr, Ytr):.4f} dev {split_loss(Xdev, Ydev):.4f}")

# --- The same training, minibatches from torch's own generator ------------------------------
g = torch.Generator().manual_seed(2147483647)
ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
print(
    "randint:",
    ix.shape,
    ix.dtype,
    "in range:",
    ix.min().item() >= 0,
    ix.max().item() < Xtr.shape[0],
)
repeat = torch.randint(0, Xtr.shape[0], (32,), generator=torch.Generator().manual_seed(2147483647))
print("the same seed gives the same batch:", torch.equal(ix, repeat))

start = split_loss(Xtr, Ytr)
for _ in range(100):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    loss = F.cross_entropy(forward(Xtr[ix])[2], Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.05 * p.grad
print("more training lowered the training loss:", split_loss(Xtr, Ytr) < start)

# --- Sampling ------------------------------------------------------------------------------
g = torch.Generator().manual_seed(2147483647 + 10)
names = []
for _ in range(8):
    context = [0] * block_size
    out = []
    while True:
        with torch.no_grad():
            probs = F.softmax(forward(torch.tensor([context]))[2], dim=1)
        index = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [index]
        if index == 0:
            break
        out.append(itos[index])
    names.append("".join(out))
print(
    "sampled",
    len(names),
    "names, all from the vocabulary:",
    all(set(n) <= set(letters) for n in names),
)
