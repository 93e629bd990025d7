"""Hooks on graph nodes: grad_fn.register_prehook sees (and may replace) the gradients
coming in; grad_fn.register_hook sees what goes out and what came in."""

import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)
y = x * w
out = y.sum()
node = y.grad_fn
print("node:", node.name())


def before(grad_outputs):
    print("prehook grad_outputs:", grad_outputs)
    return (grad_outputs[0] * 10,)


def after(grad_inputs, grad_outputs):
    print("hook grad_inputs:", grad_inputs)
    print("hook grad_outputs:", grad_outputs)


pre_handle = node.register_prehook(before)
post_handle = node.register_hook(after)
out.backward(retain_graph=True)
print("x.grad:", x.grad, "w.grad:", w.grad)

pre_handle.remove()
post_handle.remove()
x.grad = None
w.grad = None
out.backward()
print("without hooks:", x.grad, w.grad)

# A hook on the AccumulateGrad node of a leaf.
a = torch.tensor(2.0, requires_grad=True)
b = a * a
accumulate = b.grad_fn.next_functions[0][0]
print("leaf node:", type(accumulate).__name__, accumulate.variable is a)
accumulate.register_prehook(lambda grads: print("into the leaf:", grads))
b.backward()
print("a.grad:", a.grad)
