"""Tensors inside f-strings and format(), as training loops print their losses."""

import torch

loss = torch.tensor(0.123456789)
print(f"loss: {loss:.4f}")
print(f"loss: {loss:>10.3e}|")
print(f"plain: {loss}")
print("format():", format(torch.tensor(2.5, dtype=torch.float64), ".2f"))
print(f"integer: {torch.tensor(7):d}")

w = torch.tensor(1.5, requires_grad=True)
y = w * w
y.backward()
print(f"y={y:.3f} dy/dw={w.grad:.3f}")

for epoch, value in enumerate([0.9, 0.45, 0.225]):
    current = torch.tensor(value) * 2
    print(f"[epoch {epoch + 1:>2d}] loss {current:>7f}")

vector = torch.tensor([1.0, 2.0])
print(f"vector: {vector}")
try:
    print(f"{vector:.2f}")
except TypeError as error:
    print("TypeError:", error)
