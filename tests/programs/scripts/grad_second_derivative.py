"""torch.autograd.grad with create_graph=True: derivatives of derivatives, a gradient
penalty, and allow_unused / retain_graph behaviour."""

import torch

x = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
f = torch.sin(x) * x**3
(df,) = torch.autograd.grad(f, x, create_graph=True)
(d2f,) = torch.autograd.grad(df, x, create_graph=True)
(d3f,) = torch.autograd.grad(d2f, x)
print("f:", f.item(), "f':", df.item(), "f'':", d2f.item(), "f''':", d3f.item())
print("df grad_fn:", df.grad_fn.name(), "d3f requires grad:", d3f.requires_grad)

# Gradient penalty: the norm of a gradient, minimised with respect to the weights.
w = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
inputs = torch.tensor([1.0, 0.5, -0.25], dtype=torch.float64, requires_grad=True)
score = torch.tanh((w * inputs).sum())
(grad_inputs,) = torch.autograd.grad(score, inputs, create_graph=True)
penalty = (grad_inputs.norm() - 1) ** 2
penalty.backward()
print("penalty:", penalty.item())
print("w.grad:", w.grad)

u = torch.tensor(1.0, requires_grad=True)
v = torch.tensor(2.0, requires_grad=True)
g = torch.autograd.grad(u * 2, [u, v], allow_unused=True)
print("allow_unused:", g)
try:
    torch.autograd.grad(u * 2, [u, v])
except RuntimeError as error:
    print("RuntimeError:", error)
g = torch.autograd.grad(u * 2, [u, v], allow_unused=True, materialize_grads=True)
print("materialize_grads:", g)

y = u**2
torch.autograd.grad(y, u, retain_graph=True)
print("second grad with retain_graph:", torch.autograd.grad(y, u))
try:
    torch.autograd.grad(y, u)
except RuntimeError as error:
    print("RuntimeError:", error)

z = u * v
print("grad_outputs:", torch.autograd.grad(z, (u, v), grad_outputs=torch.tensor(3.0)))
print("u.grad untouched by autograd.grad:", u.grad)
