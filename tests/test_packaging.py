"""The license the package declares and ships (``.ci/run`` checks it in the wheel and the sdist)."""

import pytest
from conftest import ROOT


def test_license_file_is_apache_2():
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("tests run outside the checkout (.ci/run checks LICENSE in the wheel and sdist)")
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text
    assert "Version 2.0, January 2004" in text
    assert len(text) > 10000
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "Apache-2.0"' in pyproject
    assert 'license-files = ["LICENSE"]' in pyproject
    assert "LICENSE" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
