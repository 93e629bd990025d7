"""backward(inputs=[...]) accumulates only into the tensors listed."""

import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, -1.0], requires_grad=True)
c = torch.tensor(0.5, requires_grad=True)
loss = (a * b).sum() * c

loss.backward(inputs=[a], retain_graph=True)
print("only a:", a.grad, b.grad, c.grad)
loss.backward(inputs=[b, c], retain_graph=True)
print("then b and c:", a.grad, b.grad, c.grad)
loss.backward(inputs=a, retain_graph=True)
print("a again (accumulated):", a.grad)

hidden = a * 3
out = (hidden * b).sum()
hidden.retain_grad()
out.backward(inputs=[hidden])
print("non-leaf input:", hidden.grad, "a untouched:", a.grad)

torch.autograd.backward([(a * c).sum()], inputs=[c])
print("torch.autograd.backward with inputs:", c.grad)

try:
    (a * 2).sum().backward(inputs=[])
except RuntimeError as error:
    print("RuntimeError:", error)
