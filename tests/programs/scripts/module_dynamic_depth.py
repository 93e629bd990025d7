"""A module whose forward reuses one layer a varying number of times (chosen by a numpy
generator shared by both runs): the graph differs every call, weight sharing adds the
gradients of each use."""

import numpy as np
import torch


class VaryingDepth(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(2, 4)
        self.middle = torch.nn.Linear(4, 4)
        self.last = torch.nn.Linear(4, 1)

    def forward(self, x, repeats):
        h = self.first(x).tanh()
        for _ in range(repeats):
            h = self.middle(h).tanh()
        return self.last(h)


rng = np.random.default_rng(19)
model = VaryingDepth()
with torch.no_grad():
    for parameter in model.parameters():
        parameter.copy_(torch.tensor(rng.normal(scale=0.5, size=tuple(parameter.shape))))

inputs = torch.tensor(rng.normal(size=(16, 2)), dtype=torch.float32)
targets = (inputs[:, :1] * inputs[:, 1:]).detach()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.8)
loss_fn = torch.nn.MSELoss()
for step in range(12):
    repeats = int(rng.integers(0, 4))
    prediction = model(inputs, repeats)
    loss = loss_fn(prediction, targets)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = model.middle.weight.grad.norm() if repeats else model.middle.weight.grad
    optimizer.step()
    print(f"step {step} repeats {repeats} loss {loss.item():.5f} middle grad norm", grad_norm)
