"""What a node saved for backward: _saved_self, _saved_other, _saved_result,
_saved_exponent and the raw saved-tensor handles, as the autograd notes show them."""

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.pow(2)
print("pow node:", y.grad_fn.name())
print("_saved_self is x:", y.grad_fn._saved_self is x)
print("_saved_self equals x:", torch.equal(y.grad_fn._saved_self, x))
print("_saved_exponent:", y.grad_fn._saved_exponent)

e = x.exp()
print("exp node:", e.grad_fn.name())
print("_saved_result equals e:", torch.equal(e.grad_fn._saved_result, e))
print("_saved_result is e:", e.grad_fn._saved_result is e)

a = torch.tensor([2.0, -1.0], requires_grad=True)
b = torch.tensor([0.5, 4.0], requires_grad=True)
m = a * b
print("mul node:", m.grad_fn.name())
print("_saved_self:", m.grad_fn._saved_self)
print("_saved_other:", m.grad_fn._saved_other)

raw = y.grad_fn._raw_saved_self
print("raw saved type:", type(raw).__name__)

t = x.tanh()
print("tanh saved result:", t.grad_fn._saved_result)
s = x.sigmoid()
print("sigmoid saved result:", s.grad_fn._saved_result)

# After backward the buffers are freed: reading a saved tensor is an error.
z = (x * x).sum()
node = z.grad_fn.next_functions[0][0]
z.backward()
try:
    print(node._saved_self)
except RuntimeError as error:
    print("RuntimeError:", error)
