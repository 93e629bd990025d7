"""Python control flow builds a different graph on every call; f is linear in a, so
the gradient of f(a) is f(a) / a whatever path was taken."""

import numpy as np
import torch


def f(a):
    b = a * 2
    doublings = 0
    while b.norm() < 1000:
        b = b * 2
        doublings += 1
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c, doublings


def depth(node):
    count = 0
    while node is not None and node.next_functions:
        count += 1
        node = node.next_functions[0][0]
    return count


rng = np.random.default_rng(7)
for trial in range(4):
    a = torch.tensor(rng.normal(), requires_grad=True)
    d, doublings = f(a)
    d.backward()
    print(
        f"trial {trial}: a={a.item():.6f} doublings={doublings} d={d.item():.6f}",
        "grad == d/a:",
        bool(a.grad == d / a),
        "graph depth:",
        depth(d.grad_fn),
    )

v = torch.tensor(rng.normal(size=3), requires_grad=True)
d, doublings = f(v)
d.sum().backward()
print("vector input:", doublings, v.grad)
