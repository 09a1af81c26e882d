"""Helpers of the browser tests: headless Chromium from the system's packages, driven by
Selenium with the system's ChromeDriver, and what a test waits for on a table's page.
Imported once Selenium is known to be installed (the tests skip without it)."""
from __future__ import annotations

import shutil

import pytest
from selenium import webdriver
from selenium.common.exceptions import (
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no Chromium and ChromeDriver on this machine (Debian: apt install chromium chromium-driver; "
                ".ci/run installs them)", allow_module_level=True)


def browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=options)
    except WebDriverException as exc:
        pytest.skip(f"Chromium does not start here: {exc.msg}")


def wait(d, what, seconds=60):
    return WebDriverWait(d, seconds, poll_frequency=0.05).until(lambda _: what())


def offered(d):
    return d.find_elements(By.CSS_SELECTOR, "#decision button.option:not([disabled])")


def over(d):
    return d.find_elements(By.CSS_SELECTOR, "#decision .over")


def click_first_option(d) -> bool:
    """Click the first option offered; False when the page changed under the click."""
    try:
        shown = offered(d)
        if not shown:
            return False
        shown[0].click()
        return True
    except StaleElementReferenceException:
        return False
