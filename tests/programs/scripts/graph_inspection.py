"""Walk a graph from the output: each node's name(), its next_functions, the leaves'
AccumulateGrad nodes and their variable, and a node's metadata dictionary."""

import torch

w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
b = torch.tensor([0.1, 0.2], requires_grad=True)
x = torch.tensor([1.0, 3.0])
hidden = torch.tanh(w @ x + b)
loss = (hidden**2).mean()


def show(node, indent=0):
    if node is None:
        print(" " * indent + "None")
        return
    if hasattr(node, "variable"):
        print(" " * indent + f"leaf of shape {tuple(node.variable.shape)}: {node}")
        return
    print(" " * indent + node.name())
    for child, _ in node.next_functions:
        show(child, indent + 2)


show(loss.grad_fn)
print("loss is a leaf:", loss.is_leaf, "w is a leaf:", w.is_leaf, "x.grad_fn:", x.grad_fn)
print("next of mean:", [(n.name() if n else None, i) for n, i in loss.grad_fn.next_functions])

meta = loss.grad_fn.metadata
print("metadata starts empty:", meta == {}, type(meta).__name__)
meta["note"] = "final loss"
print("metadata kept:", loss.grad_fn.metadata)

leaf_nodes = {}
stack = [loss.grad_fn]
while stack:
    node = stack.pop()
    for child, _ in node.next_functions:
        if child is None:
            continue
        if hasattr(child, "variable"):
            leaf_nodes[tuple(child.variable.shape)] = child.variable is w
        else:
            stack.append(child)
print("leaves:", sorted(leaf_nodes.items()))

loss.backward()
print("w.grad:", w.grad)
print("b.grad:", b.grad)
