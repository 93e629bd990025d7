"""A vector-valued result needs a gradient argument: Q = 3a^3 - b^2 and dQ/da = 9a^2."""

import torch

a = torch.tensor([1.5, -2.0, 0.5], requires_grad=True)
b = torch.tensor([4.0, 0.25, -3.0], requires_grad=True)
Q = 3 * a**3 - b**2
print("Q =", Q)
print("Q.grad_fn:", Q.grad_fn.name())

try:
    Q.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

Q.backward(gradient=torch.ones_like(Q))
print("a.grad =", a.grad)
print("b.grad =", b.grad)
print("9a^2 == a.grad:", 9 * a**2 == a.grad)
print("-2b == b.grad:", -2 * b == b.grad)

# Weighting each output: the gradient argument is the vector in a vector-Jacobian product.
a.grad = None
b.grad = None
Q = 3 * a**3 - b**2
Q.backward(gradient=torch.tensor([1.0, 0.5, -2.0]))
print("weighted a.grad =", a.grad)
print("weighted b.grad =", b.grad)

# requires_grad spreads from any input that has it.
x = torch.ones(2, 2)
y = torch.full((2, 2), 3.0)
z = torch.full((2, 2), 5.0, requires_grad=True)
print("x + y requires grad:", (x + y).requires_grad)
print("x + z requires grad:", (x + z).requires_grad)
print("leaves:", x.is_leaf, z.is_leaf, (x + z).is_leaf)
