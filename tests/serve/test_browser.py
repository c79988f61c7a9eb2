"""The explorer in headless Chromium (Debian's chromium + chromedriver, driven by selenium), against
a real server on 127.0.0.1: ask and watch every stage arrive before the answer; open a trace, click
an edge and read its source sentence; open a document's answers; the self-contained HTML file.
A screenshot of each view is kept under the test's tmp dir.

Without the browser these tests skip locally (with the command that installs it) and fail in CI.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from ragprov.serve.app import ServeConfig, create_app
from ragprov.serve.page import trace_html

from ..engines import IN_CI
from .conftest import carol_with_traces, running_server

CHROMIUM = os.environ.get("RAGPROV_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("RAGPROV_CHROMEDRIVER", "/usr/bin/chromedriver")
INSTALL = "sudo .ci/install-browser.sh (apt-get install chromium chromium-driver) and pip install 'ragprov[test]'"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1400,1000")
WAIT = 120  # seconds: the machine is shared; document → answers is the slowest view


def missing_browser(what: str) -> None:
    message = f"the browser tests need {what}: install with `{INSTALL}`"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def driver():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing_browser("selenium")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() and os.access(path, os.X_OK)):
            missing_browser(path)
    profile = tempfile.mkdtemp(prefix="ragprov-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def site():
    """A fresh Christmas Carol store with two traces, served on 127.0.0.1: (base URL, store, questions)."""
    store, questions = carol_with_traces()
    with running_server(create_app(store, ServeConfig())) as base:
        yield base, store, questions


def wait(driver, condition, timeout: float = WAIT):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))


def css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def test_ask_shows_every_stage_before_the_answer(driver, site, tmp_path):
    base, _, _ = site
    driver.get(base + "/#/ask")
    wait(driver, lambda d: css(d, "#ask-question"))
    # Watch the page itself: the order in which stages and answer text are added to the DOM.
    driver.execute_script("""
        window.seen = [];
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) {
            if (n.nodeType === 1 && n.classList.contains('live-stage')) window.seen.push('stage:' + n.dataset.kind);
            else if (r.target.id === 'live-answer' && n.nodeType === 3 && n.textContent.trim()) window.seen.push('answer');
          }
        }).observe(document.getElementById('app'), {childList: true, subtree: true});""")
    css(driver, "#ask-mode")[0].send_keys("graph-rag")
    css(driver, "#ask-question")[0].send_keys("Who is Scrooge's nephew?")
    css(driver, "#ask-button")[0].click()
    wait(driver, lambda d: css(d, "#open-trace"))
    seen = driver.execute_script("return window.seen")
    stages = [s for s in seen if s.startswith("stage:")]
    assert stages == ["stage:Question", "stage:Grounding", "stage:Exploration", "stage:Focus", "stage:Synthesis"], seen
    first_answer = seen.index("answer")
    assert set(seen[:first_answer]) == {"stage:Question", "stage:Grounding", "stage:Exploration", "stage:Focus"}, seen
    answer = css(driver, "#live-answer")[0].text
    assert "NEPHEW" in answer.upper() and css(driver, "#live-answer a.cite"), answer
    assert "recorded as urn:trustgraph:question:" in css(driver, "#ask-status")[0].text
    driver.save_screenshot(str(tmp_path / "ask.png"))


def test_open_a_trace_and_follow_an_edge_to_its_sentence(driver, site, tmp_path):
    base, _, questions = site
    driver.get(base + "/#/traces")
    wait(driver, lambda d: len(css(d, "tr.trace-row")) >= 2)
    css(driver, "#trace-search")[0].send_keys("humbug")
    rows = wait(driver, lambda d: [r for r in css(d, "tr.trace-row")] if len(css(d, "tr.trace-row")) == 1 else None)
    assert "Humbug" in rows[0].text
    css(driver, "#trace-search")[0].clear()
    driver.save_screenshot(str(tmp_path / "traces.png"))
    driver.get(base + "/#/trace/" + questions["graph-rag"].value)
    wait(driver, lambda d: css(d, "#trace-view tr.edge-row"))
    kinds = [li.get_attribute("data-kind") for li in css(driver, "#timeline > li.stage")]
    assert kinds == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert css(driver, "svg.graph g.link") and css(driver, "#timeline .candidates")
    assert "not kept" in css(driver, "#timeline .candidates")[0].text
    row = css(driver, "#trace-view tr.edge-row")[0]
    subject = row.find_elements("css selector", "strong")[0].text
    row.click()
    mark = wait(driver, lambda d: css(d, "#lineage mark.supporting"))[0]
    assert "nephew" in mark.text.lower(), mark.text
    kinds = [li.get_attribute("data-kind") for li in css(driver, "#lineage .chain li")]
    assert kinds[-1] == "document" and "chunk" in kinds
    assert subject in css(driver, "#lineage")[0].text
    driver.save_screenshot(str(tmp_path / "trace-edge.png"))
    # the same from the graph, and from a citation of the answer
    css(driver, "#lineage button.close")[0].click()
    driver.execute_script("document.querySelector('svg.graph g.link').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    wait(driver, lambda d: css(d, "#lineage mark.supporting"))
    css(driver, "#lineage button.close")[0].click()
    css(driver, "#trace-answer a.cite")[0].click()
    wait(driver, lambda d: css(d, "#lineage mark.supporting"))
    driver.save_screenshot(str(tmp_path / "citation.png"))


def test_open_a_documents_answers(driver, site, tmp_path):
    base, _, questions = site
    driver.get(base + "/#/trace/" + questions["doc-rag"].value)
    wait(driver, lambda d: css(d, "#trace-view tr.chunk-row"))
    css(driver, "#trace-view tr.chunk-row")[0].click()
    link = wait(driver, lambda d: css(d, "#lineage a.document-link"))[0]
    assert link.text == "a-christmas-carol.txt"
    link.click()
    rows = wait(driver, lambda d: css(d, "#document-answers tr"))
    text = " ".join(r.text for r in rows)
    assert "Who is Scrooge's nephew?" in text and "What did Scrooge say about Christmas? Humbug" in text
    assert "a-christmas-carol.txt" in css(driver, "#document-view h2")[0].text
    driver.save_screenshot(str(tmp_path / "document.png"))
    rows[0].click()
    wait(driver, lambda d: css(d, "#trace-view"))


def test_the_html_file_works_with_no_server(driver, site, tmp_path):
    _, store, questions = site
    page = tmp_path / "trace.html"
    page.write_text(trace_html(store, questions["graph-rag"]), encoding="utf-8")
    driver.get(page.as_uri())
    wait(driver, lambda d: css(d, "#trace-view tr.edge-row"))
    css(driver, "#trace-view tr.edge-row")[1].click()
    mark = wait(driver, lambda d: css(d, "#lineage mark.supporting"))[0]
    assert mark.text.strip()
    driver.save_screenshot(str(tmp_path / "trace-file.png"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not errors, errors
