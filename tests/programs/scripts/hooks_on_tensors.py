"""Tensor hooks: see and replace the gradient flowing into a tensor; retain_grad on
intermediates; handles that remove a hook; the order hooks run in."""

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []


def record(grad):
    seen.append(grad.clone())


def double(grad):
    return grad * 2


handle_record = x.register_hook(record)
handle_double = x.register_hook(double)
y = (x * x).sum()
y.backward()
print("seen by the first hook:", seen[0])
print("x.grad (doubled by the second hook):", x.grad)

handle_double.remove()
x.grad = None
(x * x).sum().backward()
print("after removing the doubling hook:", x.grad, "calls:", len(seen))
handle_record.remove()

# A hook on an intermediate tensor changes what flows further down.
a = torch.tensor([0.5, -1.5], requires_grad=True)
h = a.exp()
h.register_hook(lambda grad: grad.clamp(max=0.1))
h.retain_grad()
out = (h * torch.tensor([1.0, 3.0])).sum()
out.backward()
print("h.grad (retained, after the hook):", h.grad)
print("a.grad:", a.grad)

# retain_grad keeps the gradient of a non-leaf; without it .grad stays None.
p = torch.tensor(2.0, requires_grad=True)
q = p * 3
r = q**2
q.retain_grad()
r.backward()
print("q.grad:", q.grad, "retains_grad:", q.retains_grad, r.retains_grad)

# A hook on a tensor that does not require grad is refused.
plain = torch.ones(2)
try:
    plain.register_hook(lambda g: g)
except RuntimeError as error:
    print("RuntimeError:", error)

# Hooks see the gradient in the order they were registered.
order = []
z = torch.tensor(1.0, requires_grad=True)
w = z * 4
w.register_hook(lambda g: order.append(("first", g.item())))
w.register_hook(lambda g: order.append(("second", g.item())))
(w * 5).backward()
print("order:", order, "z.grad:", z.grad)
