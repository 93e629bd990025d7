"""detach() cuts a path: z = u * x with u = detach(x * x) has dz/dx = u, not 3x^2."""

import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
print("u:", u, "requires_grad:", u.requires_grad, "grad_fn:", u.grad_fn)
z = u * x
z.sum().backward()
print("x.grad == u:", x.grad == u)
print("x.grad:", x.grad)

x.grad.zero_()
y.sum().backward()
print("y still differentiable, x.grad == 2x:", x.grad == 2 * x)

# detach shares storage: editing the detached copy changes the original.
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b.detach()
c[0] = 100.0
print("b after editing its detached copy:", b)

# Without detach, the same expression has gradient 3x^2.
x.grad = None
z = (x * x) * x
z.sum().backward()
print("full path:", x.grad)
