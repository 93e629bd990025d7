"""Device handling as portable code writes it, on a machine without CUDA, and the default
dtype."""

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("cuda available:", torch.cuda.is_available(), "device:", device, device.type)

x = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
print("x.device:", x.device, x.is_cuda)
y = x.to(device) * 2
print("y:", y, y.device)
z = y.cpu()
print("cpu():", z, z.device)
print("to(float64):", x.to(torch.float64))
print("to(cpu, float64):", x.to("cpu", torch.float64).dtype)
print("to(other):", x.to(torch.zeros(1, dtype=torch.float64)).dtype)
(z**2).sum().backward()
print("grad through to() and cpu():", x.grad)

try:
    torch.ones(2).cuda()
except (AssertionError, RuntimeError) as error:
    print(type(error).__name__ + ":", error)

print("default dtype:", torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
print("after set_default_dtype:", torch.get_default_dtype(), torch.tensor([1.5]).dtype)
print("zeros:", torch.zeros(2).dtype, "arange:", torch.arange(3.0).dtype)
print("ints stay ints:", torch.tensor([1, 2]).dtype)
torch.set_default_dtype(torch.float32)
print("back to:", torch.tensor(1.0).dtype)
print("double():", x.double().dtype, "float():", x.double().float().dtype)
print("device object:", torch.device("cpu"), repr(torch.device("cpu")))
