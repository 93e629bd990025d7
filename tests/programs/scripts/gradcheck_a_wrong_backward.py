"""gradcheck catches a custom Function whose backward is wrong, and says where."""

import numpy as np
import torch
from torch.autograd.gradcheck import GradcheckError


class CorrectSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 2 * x * grad_output


class ForgotTheTwo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return x * grad_output


rng = np.random.default_rng(73)
x = torch.tensor(rng.uniform(0.5, 1.5, size=3), requires_grad=True)
print("correct:", torch.autograd.gradcheck(CorrectSquare.apply, (x,)))
print(
    "wrong, without raising:",
    torch.autograd.gradcheck(ForgotTheTwo.apply, (x,), raise_exception=False),
)
try:
    torch.autograd.gradcheck(ForgotTheTwo.apply, (x,))
except GradcheckError as error:
    print(type(error).__name__ + ":", str(error).splitlines()[0])

single = torch.tensor(rng.uniform(0.5, 1.5, size=3), dtype=torch.float32, requires_grad=True)
with_warning = torch.autograd.gradcheck(CorrectSquare.apply, (single,), raise_exception=False)
print("float32 input:", with_warning)
