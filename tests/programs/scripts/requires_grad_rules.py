"""Which tensors may require grad, which results do, and the dtypes gradients take."""

import torch

try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as error:
    print("RuntimeError:", error)
ints = torch.tensor([1, 2])
try:
    ints.requires_grad_()
except RuntimeError as error:
    print("RuntimeError:", error)

x32 = torch.tensor([1.0, 2.0], requires_grad=True)
x64 = torch.tensor([0.5, 0.25], dtype=torch.float64, requires_grad=True)
mixed = x32 * x64
print("float32 * float64:", mixed.dtype, mixed)
mixed.sum().backward()
print("grads keep their leaf's dtype:", x32.grad.dtype, x64.grad.dtype)
print(x32.grad, x64.grad)

scaled = x32 * ints
print("float32 * int64:", scaled.dtype, scaled.requires_grad)
counted = ints * 2
print("int64 * 2:", counted.dtype, counted.requires_grad)
half = x32 / 2
print("division makes floats:", (ints / 2).dtype, half)

comparison = x32 > 1.5
print("comparison:", comparison, comparison.dtype, comparison.requires_grad)
index = x32.argmax()
print("argmax:", index, index.requires_grad)
rounded = x32.detach().clamp(max=1.5)
print("clamp of a detached tensor:", rounded, rounded.requires_grad)

leaf = torch.zeros(2)
leaf.requires_grad = True
print("set attribute:", leaf.requires_grad, leaf.is_leaf)
non_leaf = leaf * 2
try:
    non_leaf.requires_grad = False
except RuntimeError as error:
    print("RuntimeError:", error)
print("grad of a fresh leaf:", leaf.grad)
try:
    leaf.grad = torch.zeros(3)
except RuntimeError as error:
    print("RuntimeError:", error)
