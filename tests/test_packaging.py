"""The build a club's Pi runs on every install: pyproject.toml's licence and build requirement.

setuptools deprecated the ``license = { text = ... }`` table and stops reading it after
2027-02-18; an unbounded ``setuptools>=68`` would then take a setuptools that fails the
install. The licence is an SPDX string (PEP 639) and the backend is a bounded range; the
build itself runs here with the backend installed for the tests (no network), and must
print no deprecation.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.licenses import canonicalize_license_expression
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def build_backend() -> Requirement:
    (requirement,) = (Requirement(text) for text in PYPROJECT["build-system"]["requires"])
    return requirement


def test_the_licence_is_an_spdx_expression_and_its_files_exist() -> None:
    licence = PYPROJECT["project"]["license"]
    assert isinstance(licence, str), "a TOML table is what setuptools stops reading after 2027-02-18"
    assert canonicalize_license_expression(licence) == "MIT"
    for name in PYPROJECT["project"]["license-files"]:
        assert (ROOT / name).is_file(), name
    assert not [c for c in PYPROJECT["project"].get("classifiers", []) if c.startswith("License ::")]


def test_the_build_backend_is_a_bounded_range_that_reads_spdx() -> None:
    requirement = build_backend()
    assert requirement.name == "setuptools"
    specifier = requirement.specifier
    # 77.0 is the first setuptools with PEP 639's licence string; 76 would fail the build.
    assert not specifier.contains("76.1.0")
    assert specifier.contains("77.0.3")
    assert any(spec.operator in {"<", "<="} for spec in specifier), "no upper bound: a future setuptools may break it"
    # The tests' backend is the build's own range, so the build below is the one a Pi runs.
    test_extra = [Requirement(text) for text in PYPROJECT["project"]["optional-dependencies"]["test"]]
    assert any(r.name == "setuptools" and r.specifier == specifier for r in test_extra)


def test_building_prints_no_deprecation(tmp_path: Path) -> None:
    import setuptools

    if Version(setuptools.__version__) not in build_backend().specifier:
        pytest.skip(f"setuptools {setuptools.__version__} here is outside the build's range; make .venv/.installed")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for package in ("kiosk", "web", "display"):
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    out = tmp_path / "meta"
    out.mkdir()
    # What pip runs to read the wheel's metadata, with every warning turned into a failure.
    script = (
        "import warnings, sys\n"
        "warnings.simplefilter('error')\n"
        "from setuptools import build_meta\n"
        "print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)], cwd=source, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "deprecat" not in (done.stdout + done.stderr).lower()
    (dist_info,) = out.glob("*.dist-info")
    metadata = (dist_info / "METADATA").read_text(encoding="utf-8")
    assert "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata


def test_every_package_is_checked_strictly_and_ships_its_types() -> None:
    """Another program importing kiosk, web or display gets their type hints (PEP 561), and `make test` checks
    all three with ``mypy --strict`` (a package left out of [tool.mypy] would rot unseen)."""
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["strict"] is True
    assert sorted(mypy["files"]) == ["display", "kiosk", "web"]
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    for package in ("kiosk", "web", "display"):
        assert (ROOT / package / "py.typed").is_file(), package
