

def test_masked_fill_gradient_is_zero_not_minus_zero(run_both):
    """The filled places' gradient is 0 even when the incoming gradient is negative."""

    def scenario(L, F, log):
        x = L.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        mask = L.tensor([True, False, True])
        (x.masked_fill(mask, 0.0) * -2).sum().backward()
        log.append(str(x.grad))
        x.grad = None
        (x.masked_fill(mask, L.tensor(5.0)) * -2).sum().backward()
        log.append(str(x.grad))

    run_both(scenario)
