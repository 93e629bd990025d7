"""Lesson 3 in Russian and in Chinese, in JupyterLab with its interface in that language.

One server on a trusted copy of ``notebooks/`` (as ``make lab`` serves it); for each language
JupyterLab's own language setting is switched (Settings → Language, through the settings
API, as the menu does), the translated lesson is opened, and before anything runs:

* the interface speaks the language (JupyterLab's language pack, from ``.[lab]``);
* the lesson's first stepper shows its stored frames in the language, and steps through them
  with its slider in the browser, the panel's words changing and staying in that script;
* every character on the stepper and the menu bar is drawn by a font that has it: each is
  drawn on a canvas in its element's font and compared with the box a font draws for a
  character it lacks (U+0378, unassigned); a match would be a "tofu" box.

Screenshots go to ``test-artifacts/lesson3_<language>.png``. Two more tests do with the
translated lesson what tests/browser/test_lesson3.py does with the English one (run it in
JupyterLab and step it with its buttons; export it to HTML and step it with no kernel); their
screenshots, ``lesson3_jupyterlab_<language>.png`` and ``lesson3_static_html_<language>.png``,
are the ones the translated installation page shows (docs/images/lesson3_*.ru.png, ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSON = "03_backward_step_by_step.ipynb"
# language folder -> (JupyterLab's locale, its "File" menu, the script of the lesson's words)
LANGUAGES = {
    "ru": ("ru_RU", "Файл", re.compile(r"[\u0400-\u04ff]")),
    "zh_CN": ("zh_CN", "文件", re.compile(r"[\u4e00-\u9fff]")),
}

# Every distinct character of the elements' text, drawn in the element's font, against the
# missing-glyph box of that font: the characters that draw as that box.
MISSING_GLYPHS = """
elements => {
    const canvas = document.createElement('canvas');
    canvas.width = 64; canvas.height = 64;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const drawn = (text, font) => {
        context.clearRect(0, 0, 64, 64);
        context.font = font;
        context.fillText(text, 8, 44);
        return context.getImageData(0, 0, 64, 64).data.join(',');
    };
    const missing = new Set();
    let checked = 0;
    for (const element of elements) {
        const style = getComputedStyle(element);
        const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
        const tofu = drawn('\\u0378', font);
        for (const character of new Set(element.textContent)) {
            if (!character.trim()) continue;
            checked += 1;
            if (drawn(character, font) === tofu) missing.add(character);
        }
    }
    return { checked, missing: [...missing] };
}
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, lab_tools) -> Iterator[tuple[str, str]]:
    """A JupyterLab on a trusted copy of the course: ``(base_url, token)``."""
    folder, env = lab_tools.trusted_course_copy(tmp_path_factory.mktemp("course"))
    with lab_tools.jupyter_server("lab", folder, (), env) as (base_url, token):
        yield base_url, token


def set_interface_language(page, base_url: str, token: str, locale: str) -> None:
    answer = page.request.put(
        f"{base_url}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={token}",
        data=json.dumps({"raw": json.dumps({"locale": locale})}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.ok, answer.text()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_translated_lesson_3_in_a_jupyterlab_speaking_its_language(
    page, course, artifacts, lab_tools, language
):
    base_url, token = course
    locale, file_menu, script = LANGUAGES[language]
    set_interface_language(page, base_url, token, locale)
    try:
        page.set_viewport_size({"width": 1280, "height": 1000})
        page.goto(f"{base_url}/lab/tree/{language}/{LESSON}?reset&token={token}")
        menu_bar = page.locator("#jp-menu-panel")
        expect(menu_bar.locator(".lm-MenuBar-item").first).to_have_text(file_menu, timeout=60_000)

        stepper = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .minigrad-stepper").first
        stepper.scroll_into_view_if_needed(timeout=60_000)
        expect(stepper.locator("svg g.node").first).to_be_visible(timeout=60_000)
        panel = stepper.locator(".minigrad-frame:visible .minigrad-step-panel")
        before = panel.inner_text()
        assert len(script.findall(before)) >= 10, before

        handle = stepper.locator(":scope > .widget-slider .noUi-handle")
        handle.press("ArrowRight")
        expect(panel).not_to_have_text(before)
        after = panel.inner_text()
        assert len(script.findall(after)) >= 10, after
        handle.press("End")
        expect(stepper.locator(".minigrad-frame:visible")).not_to_have_attribute(
            "data-position", "1"
        )
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / f"lesson3_{language}.png")

        texts = stepper.locator(".minigrad-frame:visible .minigrad-step-panel, svg text, button")
        result = texts.evaluate_all(MISSING_GLYPHS)
        menus = menu_bar.locator(".lm-MenuBar-itemLabel").evaluate_all(MISSING_GLYPHS)
        assert result["checked"] > 20 and menus["checked"] > 5, (result, menus)
        assert result["missing"] == [] and menus["missing"] == [], (result, menus)
    finally:
        set_interface_language(page, base_url, token, "en")
        lab_tools.shut_down_kernels(page, base_url, token)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_translated_lesson_3_exported_to_html_steps_in_its_language(
    page, export_html, artifacts, tmp_path, language
):
    """The translated lesson run and exported to HTML (as tests/browser/test_lesson3.py does
    the English one): its stepper speaks the language and steps with no kernel, every
    character drawn. Its screenshot is the one the translated installation page shows
    (docs/images/lesson3_static_html.<language>.png, saved with a palette)."""
    _, _, script = LANGUAGES[language]
    copy = tmp_path / LESSON
    copy.write_bytes((ROOT / "notebooks" / language / LESSON).read_bytes())
    page.goto(export_html(copy).as_uri())
    stepper = page.locator(".minigrad-stepper").first
    expect(stepper.locator(".minigrad-picture svg g.node").first).to_be_visible(timeout=60_000)
    panel = stepper.locator(".minigrad-frame:visible .minigrad-step-panel")
    handle = stepper.locator(":scope > .widget-slider .noUi-handle")
    handle.focus()
    handle.press("Home")
    before = panel.inner_text()
    assert len(script.findall(before)) >= 10, before
    handle.press("ArrowRight")
    expect(panel).not_to_have_text(before)
    assert len(script.findall(panel.inner_text())) >= 10, panel.inner_text()
    handle.press("End")
    expect(stepper.locator(".minigrad-frame:visible")).not_to_have_attribute("data-position", "1")
    stepper.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=artifacts / f"lesson3_static_html_{language}.png")

    texts = stepper.locator(".minigrad-frame:visible .minigrad-step-panel, svg text, button")
    result = texts.evaluate_all(MISSING_GLYPHS)
    assert result["checked"] > 20, result
    assert result["missing"] == [], result


# JupyterLab's "Run" menu in the interface's language (its items keep their data-command).
RUN_MENU = {"ru": "Выполнить", "zh_CN": "运行"}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_translated_lesson_3_runs_and_steps_in_a_jupyterlab_speaking_its_language(
    page, lab_server, tmp_path, artifacts, lab_tools, language
):
    """As tests/browser/test_lesson3.py runs the English lesson: Run All, in a JupyterLab
    speaking the language, then the stepper's own buttons (Python callbacks) step it to its
    end, its panel in the language and every character drawn. Its screenshot is the one the
    translated installation page shows (docs/images/lesson3_jupyterlab.<language>.png)."""
    base_url, token = lab_server
    locale, file_menu, script = LANGUAGES[language]
    (tmp_path / LESSON).write_bytes((ROOT / "notebooks" / language / LESSON).read_bytes())
    set_interface_language(page, base_url, token, locale)
    try:
        page.goto(f"{base_url}/lab/tree/{LESSON}?reset&token={token}")
        menu_bar = page.locator("#jp-menu-panel")
        expect(menu_bar.locator(".lm-MenuBar-item").first).to_have_text(file_menu, timeout=60_000)
        lab_tools.wait_until_idle(page, base_url, token)
        page.wait_for_timeout(1000)  # the page connects to the kernel after the server does
        menu_bar.locator(".lm-MenuBar-item", has_text=RUN_MENU[language]).click()
        page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
        page.wait_for_timeout(1000)
        lab_tools.wait_until_idle(page, base_url, token)

        stepper = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .minigrad-stepper").first
        stepper.scroll_into_view_if_needed(timeout=60_000)
        expect(stepper.locator(".minigrad-picture svg g.node").first).to_be_visible(timeout=60_000)
        frame = stepper.locator(".minigrad-frame:visible")
        # After Run All the stepper is where a student starts: step 0.
        expect(stepper.locator("button.minigrad-reset-button")).to_be_disabled()
        expect(frame).to_have_attribute("data-position", "0")
        stepper.locator("button.minigrad-step-button").click()
        expect(frame).to_have_attribute("data-position", "1")
        assert len(script.findall(frame.inner_text())) >= 10, frame.inner_text()
        stepper.locator("button.minigrad-run-button").click()
        expect(stepper.locator("button.minigrad-step-button")).to_be_disabled(timeout=30_000)
        assert len(script.findall(frame.inner_text())) >= 10, frame.inner_text()
        stepper.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / f"lesson3_jupyterlab_{language}.png")

        texts = stepper.locator(".minigrad-frame:visible .minigrad-step-panel, svg text, button")
        result = texts.evaluate_all(MISSING_GLYPHS)
        menus = menu_bar.locator(".lm-MenuBar-itemLabel").evaluate_all(MISSING_GLYPHS)
        assert result["checked"] > 20 and menus["checked"] > 5, (result, menus)
        assert result["missing"] == [] and menus["missing"] == [], (result, menus)
    finally:
        set_interface_language(page, base_url, token, "en")
        lab_tools.shut_down_kernels(page, base_url, token)
