"""A custom autograd Function (the cubic Hermite basis h(t) = 3t^2 - 2t^3) used as the
activation of a fitted model, in the style of a custom-op tutorial."""

import numpy as np
import torch


class Smoothstep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return 3 * t**2 - 2 * t**3

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * 6 * t * (1 - t)


x = torch.linspace(0, 1, 50, dtype=torch.float64)
y = torch.sin(2 * x)
rng = np.random.default_rng(2)
scale, shift, gain = (torch.tensor(v, requires_grad=True) for v in rng.uniform(0.2, 0.8, 3))

for step in range(200):
    prediction = gain * Smoothstep.apply(scale * x + shift)
    loss = (prediction - y).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (scale, shift, gain):
            p -= 0.5 * p.grad
            p.grad.zero_()
    if step % 50 == 0:
        print(step, loss.item())

print("parameters:", scale.item(), shift.item(), gain.item())
out = Smoothstep.apply(torch.tensor([0.25, 0.5], dtype=torch.float64, requires_grad=True))
print(out)
print(out.grad_fn.name(), type(out.grad_fn).__name__)
probe = torch.tensor(rng.uniform(size=3), requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(Smoothstep.apply, (probe,)))
