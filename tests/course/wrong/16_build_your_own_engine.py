"""Typical wrong answers for exercise set 16 (format: ../wrong_answers.py)."""

EXP_NO_GRAD = """\
def exp(a):
    e = math.exp(a.data)
    out = Value(e, (a,), "exp")
    out.local_backward = lambda grad: (e,)
    return out"""

EXP_DERIVATIVE_ONE = """\
def exp(a):
    e = math.exp(a.data)
    out = Value(e, (a,), "exp")
    out.local_backward = lambda grad: (grad,)
    return out"""

EXP_NOT_A_TUPLE = """\
def exp(a):
    e = math.exp(a.data)
    out = Value(e, (a,), "exp")
    out.local_backward = lambda grad: grad * e
    return out"""

DIV_SIGN = """\
def div(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data / b.data, (a, b), "div")
    out.local_backward = lambda grad: (grad / b.data, grad * a.data / b.data**2)
    return out"""

DIV_NO_AS_VALUE = """\
def div(a, b):
    out = Value(a.data / b.data, (a, b), "div")
    out.local_backward = lambda grad: (grad / b.data, -grad * a.data / b.data**2)
    return out"""

DIV_FIRST_POWER = """\
def div(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data / b.data, (a, b), "div")
    out.local_backward = lambda grad: (grad / b.data, -grad * a.data / b.data)
    return out"""

DIV_TWO_NODES = """\
def div(a, b):
    return a * as_value(b) ** -1"""

ORDER_RECURSIVE = """\
def iterative_order(output):
    return topological_order(output)"""

# Recursion that does not hit the limit: the limit raised, the self-call in a renamed helper.
ORDER_RECURSIVE_DEEP = """\
import sys

sys.setrecursionlimit(100_000)


def iterative_order(output):
    order, seen = [], set()

    def walk(value):
        if value in seen:
            return
        seen.add(value)
        for input_value, _ in value.next_functions:
            walk(input_value)
        order.append(value)

    walk(output)
    return order[::-1]"""

ORDER_VISIT_ORDER = """\
def iterative_order(output):
    order, to_visit, found = [], [output], {output}
    while to_visit:
        value = to_visit.pop()
        order.append(value)
        for input_value, _ in value.next_functions:
            if input_value not in found:
                found.add(input_value)
                to_visit.append(input_value)
    return order"""

WRONG = {
    "ex1_answer": [
        (EXP_NO_GRAD, "multiply it by the gradient that arrived"),
        (EXP_DERIVATIVE_ONE, "what is the derivative of e^a"),
        (EXP_NOT_A_TUPLE, "returns a tuple with one gradient per input"),
    ],
    "ex2_answer": [
        (DIV_SIGN, "has the wrong sign"),
        (DIV_NO_AS_VALUE, "make it a Value first"),
        (DIV_TWO_NODES, "must make one value whose two inputs are a and b"),
        (DIV_FIRST_POWER, "a times a power of b"),
    ],
    "ex3_answer": [
        (ORDER_RECURSIVE_DEEP, "iterative_order calls itself"),
        (ORDER_VISIT_ORDER, "listed before a value that uses it"),
        (ORDER_RECURSIVE, "use a list as a stack"),
    ],
}
