"""A custom nn.Module holding four scalar Parameters, trained with SGD; its parameters,
state dict and repr as a user sees them."""

import numpy as np
import torch


class Cubic(torch.nn.Module):
    def __init__(self, start):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(float(start[0]), dtype=torch.float64))
        self.b = torch.nn.Parameter(torch.tensor(float(start[1]), dtype=torch.float64))
        self.c = torch.nn.Parameter(torch.tensor(float(start[2]), dtype=torch.float64))
        self.d = torch.nn.Parameter(torch.tensor(float(start[3]), dtype=torch.float64))

    def forward(self, x):
        return self.a + self.b * x + self.c * x**2 + self.d * x**3

    def describe(self):
        return (
            f"{self.a.item():.5f} + {self.b.item():.5f} x + "
            f"{self.c.item():.5f} x^2 + {self.d.item():.5f} x^3"
        )


rng = np.random.default_rng(31)
model = Cubic(rng.normal(size=4))
print(model)
print("parameters:", [(name, p.shape, p.dtype) for name, p in model.named_parameters()])
print("is a Parameter:", isinstance(model.a, torch.nn.Parameter), model.a.requires_grad)
print("state dict keys:", list(model.state_dict().keys()))

x = torch.linspace(-1, 1, 100, dtype=torch.float64)
y = torch.tanh(2 * x)
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
for step in range(250):
    loss = loss_fn(model(x), y)
    if step % 50 == 49:
        print(step, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("result:", model.describe())
print("grads after zero_grad:", end=" ")
optimizer.zero_grad()
print([p.grad for p in model.parameters()])
