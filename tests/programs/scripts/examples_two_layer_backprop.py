"""A two-layer ReLU network trained first with backpropagation written by hand, then with
autograd; both start from the same weights and must follow the same path."""

import numpy as np
import torch

rng = np.random.default_rng(53)
batch, d_in, hidden, d_out = 16, 5, 8, 2
x = torch.tensor(rng.normal(size=(batch, d_in)))
y = torch.tensor(rng.normal(size=(batch, d_out)))
w1_start = rng.normal(scale=0.4, size=(d_in, hidden))
w2_start = rng.normal(scale=0.4, size=(hidden, d_out))
learning_rate = 1e-2

w1, w2 = torch.tensor(w1_start), torch.tensor(w2_start)
for step in range(30):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h = grad_y_pred.mm(w2.t()).clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 = w1 - learning_rate * grad_w1
    w2 = w2 - learning_rate * grad_w2
    if step % 10 == 9:
        print("by hand", step, loss.item())
by_hand = (w1, w2)

w1 = torch.tensor(w1_start, requires_grad=True)
w2 = torch.tensor(w2_start, requires_grad=True)
for step in range(30):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
    if step % 10 == 9:
        print("autograd", step, loss.item())

print("same weights:", torch.allclose(w1, by_hand[0]), torch.allclose(w2, by_hand[1]))
print("w2 after training:\n", w2)
print("grad_fn of the last prediction:", y_pred.grad_fn.name())
inputs = y_pred.grad_fn.next_functions
print("its inputs:", [n.name() if n.next_functions else "a leaf" for n, _ in inputs])
