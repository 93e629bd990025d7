"""widgets.draw: the DOT source names the right boxes, with the right words and colours."""

import base64
import gzip
import hashlib
import re

import graphviz
import pytest

import minigrad as mg
import widgets
from widgets import Drawing
from widgets._browser import GraphvizView, bundle_info
from widgets.draw import ORANGE, REDDISH_PURPLE, SKY_BLUE

pytestmark = [
    pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True"),
]


def boxes(source: str) -> dict[str, str]:
    """DOT node name -> its attribute text."""
    return dict(re.findall(r"^\t(\w+) \[(.*)\]$", source, flags=re.M))


def box_with(source: str, text: str) -> str:
    matches = [attrs for attrs in boxes(source).values() if text in attrs]
    assert len(matches) == 1, (text, matches)
    return matches[0]


def test_nodes_labels_and_colours():
    x = mg.tensor(2.0, requires_grad=True)
    w = mg.tensor(3.0, requires_grad=True)
    y = x * w + 1
    source = widgets.draw(y).source
    assert 'label="x (leaf)\\nscalar\\nvalue 2.\\ngrad None"' in source
    assert 'label="y (output)\\nscalar\\nvalue 7."' in source
    assert f'fillcolor="{SKY_BLUE}"' in box_with(source, "x (leaf)")
    assert f'fillcolor="{ORANGE}"' in box_with(source, "y (output)")
    assert "ellipse" in box_with(source, "label=MulBackward0")
    assert "ellipse" in box_with(source, "label=AddBackward0")
    assert source.count("label=AccumulateGrad") == 2
    assert "dashed" in box_with(source, "label=constant")  # the 1 in "+ 1"
    # x -> AccumulateGrad -> MulBackward0 <- AccumulateGrad <- w, Mul -> Add -> y, 1 -> Add
    assert source.count("->") == 7


def test_grad_shown_after_backward_and_freed_nodes():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    source = widgets.draw(y).source
    assert "grad [2., 4.]" in source
    assert "shape (2,)" in source
    freed = box_with(source, "MulBackward0")
    assert "saved tensors freed" in freed and "dashed" in freed
    assert "freed" not in box_with(source, "SumBackward0")  # sum saves no tensors


def test_names_from_the_caller_and_override():
    weight = mg.tensor(1.5, requires_grad=True)
    alias = weight  # two names for one tensor: ambiguous, so no name
    bias = mg.tensor(0.5, requires_grad=True)
    hidden = bias * 2
    out = hidden + alias
    source = widgets.draw(out).source
    assert "bias (leaf)" in source
    assert "makes hidden = 1." in source
    assert "weight" not in source and "alias" not in source
    assert "leaf (leaf)" in source
    renamed = widgets.draw(out, names={"w": weight}).source
    assert "w (leaf)" in renamed


def test_node_ids_are_stable_and_not_memory_addresses():
    def make():
        x = mg.tensor(2.0, requires_grad=True)
        return widgets.draw((x * x).exp(), names={"x": x}).source

    first, second = make(), make()
    assert first == second
    assert not re.search(r"\d{8,}", first)


def test_shown_as_a_widget_drawn_in_the_browser_without_dot(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no `dot`: Jupyter still shows the drawing
    x = mg.tensor(2.0, requires_grad=True)
    drawing = widgets.draw(x.sin() * x)
    views, real_widget = [], Drawing.widget

    def widget(self):  # the real method, remembering what it made
        views.append(real_widget(self))
        return views[-1]

    monkeypatch.setattr(Drawing, "widget", widget)
    data, _ = drawing._repr_mimebundle_()
    (view,) = views
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == view.model_id
    assert isinstance(view, GraphvizView) and view.dot == drawing.source
    # What a viewer without widgets (and nbval) reads: the same on every run, the picture
    # in words.
    assert data["text/plain"] == drawing._repr_mimebundle_()[0]["text/plain"]
    assert data["text/plain"].splitlines()[0] == repr(drawing) == repr(widgets.draw(x * 2))
    assert "SinBackward0 → MulBackward0" in data["text/plain"]
    assert "0x" not in data["text/plain"]
    # Every drawing uses the kernel's one Graphviz, which carries the shipped bundle.
    other = widgets.draw(x).widget()
    assert other.engine is view.engine
    bundle = gzip.decompress(base64.b64decode(view.engine.bundle))
    assert hashlib.sha256(bundle).hexdigest() == bundle_info()["sha256"]
    assert view.engine.version == f"@viz-js/viz@{bundle_info()['version']}"


def test_max_nodes_elides_with_a_note():
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(300):
        y = y * 1.01
    drawing = widgets.draw(y, max_nodes=50)
    source = drawing.source
    assert source.count("label=MulBackward0") == 50
    # 300 MulBackward0 + 1 AccumulateGrad graph nodes, 50 drawn
    assert "251 more graph nodes not drawn (max_nodes=50)" in source
    assert "shape=note" in box_with(source, "more graph nodes")


def test_long_chain_is_not_recursive():
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y + 1
    # 5000 AddBackward0 and one AccumulateGrad, 200 of them drawn
    assert "4801 more graph nodes not drawn (max_nodes=200)" in widgets.draw(y).source


def test_leaf_and_constant_alone():
    x = mg.tensor(3.0, requires_grad=True)
    c = mg.tensor([1.0, 2.0])
    assert "x (leaf)" in widgets.draw(x).source
    source = widgets.draw(c).source
    assert "requires_grad=False: no graph" in source
    assert "->" not in source


def test_derivative_nodes_have_their_own_colour():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    y.backward(create_graph=True)
    source = widgets.draw(y).source
    grad_box = box_with(source, "x.grad")
    assert f'fillcolor="{REDDISH_PURPLE}"' in grad_box
    derivative = [a for a in boxes(source).values() if "(from create_graph)" in a]
    assert derivative and all(REDDISH_PURPLE in a for a in derivative)
    original_pow = [a for a in boxes(source).values() if "label=PowBackward0 " in a]
    assert len(original_pow) == 1 and REDDISH_PURPLE not in original_pow[0]
    assert REDDISH_PURPLE not in box_with(source, "AccumulateGrad")
    # Drawn without grads, the derivative graph is left out.
    assert "create_graph" not in widgets.draw(y, show_grads=False).source


def test_autograd_grad_results_as_derivatives():
    x = mg.tensor(2.0, requires_grad=True)
    y = x**3
    (dy,) = mg.autograd.grad(y, x, create_graph=True)
    source = widgets.draw(y, dy, derivatives=[dy]).source
    assert "dy\\nscalar\\nvalue 12." in source
    assert "(from create_graph)" in source


def test_saving_a_file_without_dot_gives_install_instructions(monkeypatch, tmp_path):
    x = mg.tensor(2.0, requires_grad=True)
    drawing = widgets.draw(x * 2)
    monkeypatch.setenv("PATH", "/nonexistent")
    for save in (
        lambda: drawing.pipe(format="svg"),
        lambda: drawing.render(tmp_path / "graph", format="png"),
    ):
        with pytest.raises(widgets.GraphvizMissingError) as raised:
            save()
        message = str(raised.value)
        for command in ("apt-get install graphviz", "brew install graphviz", "conda install"):
            assert command in message
        assert "Jupyter does not need it" in message
        assert isinstance(raised.value, graphviz.ExecutableNotFound)
    assert "MulBackward0" in drawing.source


def test_bad_arguments():
    with pytest.raises(TypeError):
        widgets.draw()
    with pytest.raises(TypeError):
        widgets.draw(3.0)
    with pytest.raises(ValueError):
        widgets.draw(mg.tensor(1.0, requires_grad=True), rankdir="XY")


def test_constant_inputs_show_their_saved_value():
    x = mg.tensor(2.0, requires_grad=True)
    c = mg.tensor([1.0, 2.0])
    y = (x * c).sum()
    # MulBackward0 saved both operands: the constant's value can be read from it.
    assert "c (constant)\\nshape (2,)\\nvalue [1., 2.]" in widgets.draw(y).source
    # A Python number is an operand too: x * 3 saves the 3.
    assert "constant\\nscalar\\nvalue 3" in widgets.draw(x * 3).source
    # Nothing saved (an addition), or saved tensors freed by backward: only "constant".
    assert "label=constant " in widgets.draw(x + c).source
    y.backward()
    assert "label=constant " in widgets.draw(y).source


def test_constant_changed_in_place_shows_no_value():
    x = mg.tensor(2.0, requires_grad=True)
    c = mg.tensor(5.0)
    y = x * c
    c.add_(1.0)  # what MulBackward0 saved is no longer the value it used
    source = widgets.draw(y).source
    assert "label=constant " in source and "value 6." not in source


def test_a_very_long_name_is_cut_in_its_box_and_whole_in_its_tooltip():
    from widgets._markup import LONGEST_BOX_LINE

    name = "v" * 300 + " " + "w" * 199
    x = mg.tensor(2.0, requires_grad=True)
    y = x * 3
    drawing = widgets.draw(y, names={name: x})
    labels = re.findall(r'label="([^"]*)"', drawing.source)
    lines = [line for label in labels for line in label.split("\\n")]
    assert max(len(line) for line in lines) == LONGEST_BOX_LINE
    assert any(line.startswith("v" * 40) and "…" in line for line in lines), lines
    assert list(drawing.titles.values()) == [f"{name} (leaf)\nscalar\nvalue 2.\ngrad None"]
    assert drawing.widget().titles == drawing.titles
    assert widgets.draw(y, names={"x": x}).titles == {}
