"""torch.autograd.graph.saved_tensors_hooks: pack when a tensor is saved, unpack when
backward needs it; save_on_cpu as a ready-made pair."""

import torch

packed = []


def pack(tensor):
    packed.append(tuple(tensor.shape))
    return tensor.detach().clone()


def unpack(stored):
    print("  unpacking a tensor of shape", tuple(stored.shape))
    return stored


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.pow(2)
    z = y * x
print("packed shapes:", packed)
z.sum().backward()
print("x.grad:", x.grad)


# Hooks can store something else entirely, e.g. a scaled copy, as long as unpack undoes it.
def pack_halved(tensor):
    return ("halved", tensor.detach() / 2)


def unpack_doubled(stored):
    label, half = stored
    return half * 2


a = torch.tensor([0.5, -1.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_halved, unpack_doubled):
    b = (a * a).sin()
b.sum().backward()
print("a.grad via halved storage:", a.grad)
print("expected:", torch.cos(a * a) * 2 * a)

with torch.autograd.graph.save_on_cpu():
    c = x.exp() * x
x.grad = None
c.sum().backward()
print("save_on_cpu x.grad:", x.grad)
