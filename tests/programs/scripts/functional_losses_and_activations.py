"""torch.nn.functional as used inside forward(): activations, softmax and log_softmax,
the losses with their reductions, and the gradients each sends back."""

import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(59)
logits = torch.tensor(rng.normal(size=(4, 3)), requires_grad=True)
labels = torch.tensor([0, 2, 1, 2])
targets = torch.tensor(rng.normal(size=(4, 3)))

print("relu:", F.relu(logits[0]))
print("softmax rows sum to 1:", F.softmax(logits, dim=1).sum(dim=1))
print("log_softmax:", F.log_softmax(logits, dim=1)[1])
print("sigmoid:", torch.sigmoid(logits[2]))

for reduction in ("mean", "sum", "none"):
    loss = F.cross_entropy(logits, labels, reduction=reduction)
    print("cross_entropy", reduction, loss)

loss = F.cross_entropy(logits, labels)
loss.backward()
print("grad of cross_entropy:\n", logits.grad)
print("softmax - one_hot over batch:\n", (F.softmax(logits, dim=1) - torch.eye(3)[labels]) / 4)

logits.grad = None
nll = F.nll_loss(F.log_softmax(logits, dim=1), labels)
nll.backward()
print("nll of log_softmax equals cross_entropy:", torch.allclose(nll, loss), nll.grad_fn.name())

prediction = logits.tanh()
for reduction in ("mean", "sum"):
    print("mse", reduction, F.mse_loss(prediction, targets, reduction=reduction))
mse = F.mse_loss(prediction, targets)
logits.grad = None
mse.backward()
print("grad of mse through tanh:\n", logits.grad)
print("names:", loss.grad_fn.name(), mse.grad_fn.name())
